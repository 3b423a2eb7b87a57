//! The streaming reader: lines in, [`Record`]s out, in input order, with bounded memory.
//!
//! Memory held at any time: one line (at most [`MAX_LINE_BYTES`]; longer lines are skipped while reading, never
//! stored), the multi-line grid being read, and at most two finished records.
//!
//! Per non-blank, non-comment line (leading whitespace skipped), in this order:
//! 1. a CSV header (a comma-separated line of names, see `csv.rs`) is not a puzzle: the first one sets the
//!    columns where later lines hold puzzle and solution; a later one with the same names (concatenated files)
//!    is skipped; a later one with other names is reported as a header in the middle of the file, and its
//!    columns apply from there on. While a header puts the puzzle in a later column than the first, every data
//!    line is read by columns;
//! 2. a line with a comma whose first token is not a whole grid: its first comma-separated field when that is a
//!    grid, else a later field only in the shape of an `id,puzzle,solution,...` line without header (ids before
//!    it, its solution after it); a grid elsewhere on the line means the first field is a broken puzzle, reported
//!    as such (never replaced by the solution next to it). Lines without any grid field go on below;
//! 3. inside a multi-line grid, the line is its next row, unless it is a whole one-line puzzle of another size
//!    or its first token is longer than two rows (a one-line puzzle gone wrong), which ends the grid as incomplete;
//! 4. a first token with a whole grid's cell count (16, 81, 256, 625, 1296) is a one-line puzzle, except that a
//!    16-character token with a symbol above 4 (impossible on a 4x4 board) starts a 16x16 grid;
//! 5. a line whose cells (decoration `| + - = ,` and spaces removed) number 4, 9, 16, 25 or 36 starts a grid;
//! 6. a line whose cells number a whole grid is a one-line puzzle written with separators;
//! 7. anything else is a wrong-length error (or "glued" when it holds exactly two puzzles' worth of cells).

use std::collections::VecDeque;
use std::io::{self, BufRead};

use super::grid::{is_decoration, row_cells, Block};
use super::line::{
    ends_token, first_token, looks_like_16_row, parse_ascii_cells, parse_cells, token_cells, Token,
};
use super::{csv, ParseError, ParseErrorKind, Puzzle, Record};
use crate::board::{box_size_for_cells, box_size_for_side, values_of_ascii9, Board, Cells};

/// Longest line read into memory, in bytes (a 36x36 puzzle with its solution and spaces needs about 5 KB).
pub const MAX_LINE_BYTES: usize = 1 << 16;

/// A line as [`Reader::read_raw`] returns it. Returned by value once per line: boxing the record would put back
/// the allocation per puzzle that the standard path exists to avoid.
#[allow(clippy::large_enum_variant)]
enum Raw {
    /// End of input.
    End,
    /// A standard line (see [`standard_line`]), read without a copy into `buf`.
    Standard(Record),
    /// Any other line, in `buf`; `too_long` when it was longer than [`MAX_LINE_BYTES`] (its bytes were consumed,
    /// not stored).
    Line {
        /// The line did not fit.
        too_long: bool,
    },
}

/// How the reader interprets its input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReaderOptions {
    /// Fixed box size (2..=6); `None` infers the size of each puzzle from its cell count.
    pub box_size: Option<usize>,
}

/// An iterator of [`Record`]s over any [`BufRead`]. See the module documentation for the rules.
///
/// After an I/O error the iterator yields one record with [`ParseErrorKind::Io`] and then ends.
pub struct Reader<R> {
    inner: R,
    options: ReaderOptions,
    /// The current raw line (without its `\n`), reused across lines.
    buf: Vec<u8>,
    /// 1-based number of the line in `buf`; 0 before the first.
    line_no: usize,
    /// True once a line with content was seen (a CSV header after it is "in the middle").
    seen_content: bool,
    /// The columns named by the CSV header in force, if any.
    columns: Option<csv::Columns>,
    /// The multi-line grid being read, if any.
    block: Option<Block>,
    /// Finished records not yet returned.
    ready: VecDeque<Record>,
    /// True once the input is exhausted or failed.
    done: bool,
    /// Reject boards whose givens clash (the default); see [`Reader::without_clash_check`].
    clash_check: bool,
}

impl<R: BufRead> Reader<R> {
    /// A reader inferring each puzzle's size.
    pub fn new(inner: R) -> Self {
        Self::with_options(inner, ReaderOptions::default())
    }

    /// A reader with explicit options.
    pub fn with_options(inner: R, options: ReaderOptions) -> Self {
        Reader {
            inner,
            options,
            buf: Vec::new(),
            line_no: 0,
            seen_content: false,
            columns: None,
            block: None,
            ready: VecDeque::with_capacity(2),
            done: false,
            clash_check: true,
        }
    }

    /// A reader that leaves givens that clash to the caller: its records may hold such boards, which every solver
    /// reports unsatisfiable. For callers that solve every record anyway and look for the clash only when the
    /// answer is not a solution (a solved board cannot have clashing givens: the checker proves the solution keeps
    /// them and every house is a permutation), which saves the check (1.2k instructions per 9x9 puzzle) on every
    /// solved one. The ordered pipeline of `sudoku solve` does this (`pipeline::solve_record`).
    pub fn without_clash_check(mut self) -> Self {
        self.clash_check = false;
        self
    }

    /// Reads the next line: a standard line whole in the input's buffer straight into its record, any other into
    /// `buf` without its `\n` (see [`Raw`]).
    fn read_raw(&mut self) -> io::Result<Raw> {
        self.buf.clear();
        let mut too_long = false;
        let mut any = false;
        let standard = self.standard_lines();
        loop {
            let available = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(if any {
                    Raw::Line { too_long }
                } else {
                    Raw::End
                });
            }
            // The commonest line of all, a bare 81-symbol puzzle, is recognised before any newline search: when
            // byte 81 is a line feed and the 81 bytes before it are all symbols (so none of them is one),
            // that line feed is the first. Anything else goes on below, where the same function reads it alike.
            if let (false, true, Some(b'\n')) = (any, standard, available.get(81)) {
                let line = self.line_no + 1;
                if let Some(item) = standard_line(line, &available[..81], self.clash_check) {
                    self.inner.consume(82);
                    return Ok(Raw::Standard(Record { line, item }));
                }
            }
            let newline = find_newline(available);
            if let (false, true, Some(i)) = (any, standard, newline) {
                let line = self.line_no + 1;
                if let Some(item) = standard_line(line, &available[..i], self.clash_check) {
                    self.inner.consume(i + 1);
                    return Ok(Raw::Standard(Record { line, item }));
                }
            }
            any = true;
            let (chunk_len, used, ends) = match newline {
                Some(i) => (i, i + 1, true),
                None => (available.len(), available.len(), false),
            };
            let room = MAX_LINE_BYTES.saturating_sub(self.buf.len());
            if chunk_len > room {
                too_long = true;
            }
            if !too_long {
                self.buf.extend_from_slice(&available[..chunk_len]);
            }
            self.inner.consume(used);
            if ends {
                return Ok(Raw::Line { too_long });
            }
        }
    }

    fn push(&mut self, line: usize, item: Result<Puzzle, ParseError>) {
        self.ready.push_back(Record { line, item });
    }

    fn flush_block(&mut self) {
        if let Some(block) = self.block.take() {
            let line = block.start_line;
            let item = block
                .finish()
                .and_then(|b| checked(b, line, self.clash_check))
                .map(|board| Puzzle {
                    board,
                    solution: None,
                });
            self.push(line, item);
        }
    }

    fn handle_line(&mut self, too_long: bool) {
        let line = self.line_no;
        if too_long {
            self.flush_block();
            self.push(
                line,
                Err(ParseError {
                    line,
                    column: None,
                    kind: ParseErrorKind::LineTooLong,
                }),
            );
            return;
        }
        let raw = std::mem::take(&mut self.buf);
        let mut bytes = raw.as_slice();
        if let Some(stripped) = bytes.strip_suffix(b"\r") {
            bytes = stripped;
        }
        // A byte-order mark starts the file, or any line when files were joined with `cat`: never puzzle content.
        if let Some(stripped) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
            bytes = stripped;
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => self.handle_text(line, text),
            Err(e) => {
                let column = bytes
                    .get(..e.valid_up_to())
                    .and_then(|p| std::str::from_utf8(p).ok())
                    .map_or(1, |p| p.chars().count() + 1);
                self.flush_block();
                self.push(
                    line,
                    Err(ParseError {
                        line,
                        column: Some(column),
                        kind: ParseErrorKind::InvalidUtf8,
                    }),
                );
            }
        }
        self.buf = raw;
    }

    /// Whether the reader's state lets a line be read by [`standard_line`]: no grid in progress, no CSV header
    /// putting the puzzle in a later column, no board size other than 9x9 asked for.
    fn standard_lines(&self) -> bool {
        let by_columns = matches!(
            self.columns,
            Some(csv::Columns {
                puzzle: Some(1..),
                ..
            })
        );
        self.block.is_none() && !by_columns && matches!(self.options.box_size, None | Some(3))
    }

    fn handle_text(&mut self, line: usize, text: &str) {
        let content = text.trim_start();
        if content.is_empty() || content.starts_with('#') {
            return;
        }
        // Only separators (`:::`, `,,,`, `---+---`): no cells, so no puzzle and nothing to report. Decoration
        // lines are skipped below too; `:` separates fields but is no grid decoration, so it is caught here.
        if content.chars().all(|c| c == ':' || is_decoration(c)) {
            return;
        }
        let explicit = self.options.box_size;
        if let Some(columns) = csv::header(content) {
            self.flush_block();
            let repeated = self
                .columns
                .as_ref()
                .is_some_and(|c| c.names == columns.names);
            if self.seen_content && !repeated {
                self.push(
                    line,
                    Err(ParseError {
                        line,
                        column: None,
                        kind: ParseErrorKind::HeaderInMiddle,
                    }),
                );
            }
            self.seen_content = true;
            self.columns = Some(columns);
            return;
        }
        self.seen_content = true;
        if let Some(csv::Columns {
            puzzle: Some(puzzle_col @ 1..),
            solution,
            ..
        }) = self.columns
        {
            let item = csv::by_columns(text, puzzle_col, solution, explicit, line).and_then(
                |(board, solution)| {
                    Ok(Puzzle {
                        board: checked(board, line, self.clash_check)?,
                        solution,
                    })
                },
            );
            self.push(line, item);
            return;
        }
        let token = first_token(text);
        let single_box = match explicit {
            Some(b) => (token.chars == b.pow(4)).then_some(b),
            None => box_size_for_cells(token.chars),
        };
        if single_box.is_none() && token.rest.contains(',') {
            // A header that puts the puzzle first leaves no room for an id before it.
            let id_allowed = !matches!(
                self.columns,
                Some(csv::Columns {
                    puzzle: Some(0),
                    ..
                })
            );
            match csv::find_grid_field(text, explicit, id_allowed, line) {
                csv::GridField::Found(field, b) => {
                    self.flush_block();
                    let item = single(&field, b, line, self.clash_check);
                    self.push(line, item);
                    return;
                }
                csv::GridField::Broken(error) => {
                    self.flush_block();
                    self.push(line, Err(error));
                    return;
                }
                csv::GridField::NoGrid => {}
            }
        }

        if let Some(block) = &mut self.block {
            if row_cells(text).next().is_none() {
                return; // a separator line inside the grid
            }
            // A token longer than two rows' worth of cells is a one-line puzzle gone wrong, never a row: it ends
            // the grid and gets its own result instead of vanishing into the grid's error.
            let could_be_row = token.chars <= 2 * block.side();
            if (single_box.is_none() && could_be_row) || token.chars == block.side() {
                block.push_row(line, text);
                if block.is_complete() {
                    self.flush_block();
                }
                return;
            }
            self.flush_block();
        }

        if let Some(b) = single_box {
            let row_instead = explicit.is_none() && token.chars == 16 && looks_like_16_row(&token);
            if !row_instead {
                let item = single(&token, b, line, self.clash_check);
                self.push(line, item);
                return;
            }
        }

        let count = row_cells(text).count();
        if count == 0 {
            return; // a decoration line such as `------+------`
        }
        let row_box = match explicit {
            Some(b) => (count == b * b).then_some(b),
            None => box_size_for_side(count),
        };
        if let Some(b) = row_box {
            let mut block = Block::new(b, line);
            block.push_row(line, text);
            self.block = Some(block);
            return;
        }
        let grid_box = match explicit {
            Some(b) => (count == b.pow(4)).then_some(b),
            None => box_size_for_cells(count),
        };
        if let Some(b) = grid_box {
            let item = parse_cells(row_cells(text), b, line, false)
                .and_then(|board| checked(board, line, self.clash_check))
                .map(|board| Puzzle {
                    board,
                    solution: None,
                });
            self.push(line, item);
            return;
        }

        // A long token is a one-line puzzle gone wrong: report its own length, not the rest of the line's.
        let found = if token.chars > 36 { token.chars } else { count };
        let glued = found % 2 == 0
            && match explicit {
                Some(b) => found == 2 * b.pow(4),
                None => box_size_for_cells(found / 2).is_some(),
            };
        let kind = if glued {
            ParseErrorKind::Glued { found }
        } else {
            ParseErrorKind::WrongLength {
                found,
                expected: explicit.map(|b| b.pow(4)),
            }
        };
        self.push(
            line,
            Err(ParseError {
                line,
                column: None,
                kind,
            }),
        );
    }
}

/// Rejects a board whose givens clash (when `check` is set).
fn checked(board: Board, line: usize, check: bool) -> Result<Board, ParseError> {
    match check.then(|| board.find_clash()).flatten() {
        Some(clash) => Err(ParseError {
            line,
            column: None,
            kind: ParseErrorKind::Clash(clash),
        }),
        None => Ok(board),
    }
}

/// A one-line puzzle: the token's cells, then an optional solution later on the line.
fn single(
    token: &Token<'_>,
    box_size: usize,
    line: usize,
    check: bool,
) -> Result<Puzzle, ParseError> {
    let board = match parse_ascii_cells(token.text, box_size) {
        Some(board) => board,
        None => parse_cells(token_cells(token), box_size, line, false)?,
    };
    let board = checked(board, line, check)?;
    let solution = csv::solution_field(token.rest, token.rest_column, box_size, line)?;
    Ok(Puzzle { board, solution })
}

/// The common case ahead of the general rules, where [`Reader::standard_lines`] allows it: a line (without its
/// `\n`) that starts with 81 symbols of a 9x9 board, alone or followed by a separator and more fields (Kaggle's
/// `puzzle,solution`), read straight from the reader's buffer. `None` leaves the line to the general rules, which
/// read it the same way (rule 4 of the module documentation: such a line is no comment, decoration or header,
/// since it starts with a digit or `.`) after a copy, UTF-8 validation, the decoration and header tests and the
/// token scan (about 1.5k instructions per line more).
fn standard_line(line: usize, raw: &[u8], check: bool) -> Option<Result<Puzzle, ParseError>> {
    let mut bytes = raw;
    if let Some(stripped) = bytes.strip_suffix(b"\r") {
        bytes = stripped;
    }
    if let Some(stripped) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        bytes = stripped;
    }
    let (grid, rest) = bytes.split_first_chunk::<81>()?;
    if !rest.first().is_none_or(|&b| ends_token(b)) {
        return None;
    }
    let rest = std::str::from_utf8(rest).ok()?;
    let mut values = [0u8; 81];
    if !values_of_ascii9(grid, &mut values) {
        return None;
    }
    let puzzle = || -> Result<Puzzle, ParseError> {
        let board = checked(Board::from_checked(3, Cells::from_buf(values)), line, check)?;
        let solution = if rest.is_empty() {
            None
        } else {
            csv::solution_field(rest, 82, 3, line)?
        };
        Ok(Puzzle { board, solution })
    };
    Some(puzzle())
}

/// The index of the first `\n` in `bytes`: eight bytes per step (SWAR), since a line is read byte by byte
/// otherwise (about 4 instructions per byte, 330 per 81-character line).
fn find_newline(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    let mut base = 0;
    for word in words.by_ref() {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let x = u64::from_le_bytes(w) ^ (ONES * u64::from(b'\n'));
        // The lowest byte flagged is the first zero byte of `x` exactly (false flags lie only above a true zero).
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            return Some(base + zero.trailing_zeros() as usize / 8);
        }
        base += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| base + i)
}

/// A record as [`Reader::next_compact`] returns it: small enough (96 bytes) that moving it costs little.
#[derive(Clone, Debug)]
pub enum Compact {
    /// A bare 9x9 line: exactly 81 symbols and its line feed. Its givens row-major (0 = empty, `1..=9`),
    /// without a [`Board`], and never checked for clashes (the reader runs [`Reader::without_clash_check`]).
    Givens9 {
        /// 1-based line number.
        line: usize,
        /// The cells, row-major.
        givens: [u8; 81],
    },
    /// Any other record, as [`Iterator::next`] returns it; boxed so the common variant stays small.
    Record(Box<Record>),
}

impl Compact {
    /// 1-based line number where the record starts.
    pub fn line(&self) -> usize {
        match self {
            Compact::Givens9 { line, .. } => *line,
            Compact::Record(record) => record.line,
        }
    }
}

impl<R: BufRead> Reader<R> {
    /// The next record as [`Iterator::next`] reads it, with the commonest line of all, a bare 81-symbol puzzle
    /// whole in the input's buffer, returned as its givens ([`Compact::Givens9`]) when the clash check is off.
    /// For a consumer that handles millions of such lines (the CLI's ordered pipeline): a [`Record`] is about 230
    /// bytes, moved several times between the reader and the writer, and holds a `Board` that a 9x9 solver entry
    /// does not need. Any other record comes boxed, one allocation each (CSV lines with an expected solution,
    /// other sizes, errors).
    pub fn next_compact(&mut self) -> Option<Compact> {
        if self.ready.is_empty() && !self.done && !self.clash_check && self.standard_lines() {
            // An error, a short buffer or anything but 81 symbols and a line feed: the general path below.
            if let Ok(available) = self.inner.fill_buf() {
                if let (Some(b'\n'), Some(grid)) =
                    (available.get(81), available.first_chunk::<81>())
                {
                    let mut givens = [0u8; 81];
                    if values_of_ascii9(grid, &mut givens) {
                        self.inner.consume(82);
                        self.line_no += 1;
                        self.seen_content = true;
                        return Some(Compact::Givens9 {
                            line: self.line_no,
                            givens,
                        });
                    }
                }
            }
        }
        self.next().map(|record| Compact::Record(Box::new(record)))
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        loop {
            if let Some(record) = self.ready.pop_front() {
                return Some(record);
            }
            if self.done {
                return None;
            }
            match self.read_raw() {
                Ok(Raw::Standard(record)) => {
                    // Nothing is pending here (`ready` is empty), so the common line skips the queue.
                    self.line_no += 1;
                    self.seen_content = true;
                    return Some(record);
                }
                Ok(Raw::Line { too_long }) => {
                    self.line_no += 1;
                    self.handle_line(too_long);
                }
                Ok(Raw::End) => {
                    self.done = true;
                    self.flush_block();
                }
                Err(e) => {
                    self.done = true;
                    self.flush_block();
                    let line = self.line_no + 1;
                    self.push(
                        line,
                        Err(ParseError {
                            line,
                            column: None,
                            kind: ParseErrorKind::Io(e.to_string()),
                        }),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_newline_search_finds_the_first_newline_anywhere() {
        for len in 0..40 {
            for at in 0..=len {
                let mut bytes = vec![b'x'; len];
                if at < len {
                    bytes[at] = b'\n';
                    // A later newline and bytes around 0x0A must not confuse it.
                    bytes
                        .iter_mut()
                        .skip(at + 1)
                        .step_by(3)
                        .for_each(|b| *b = b'\n');
                    bytes.iter_mut().take(at).step_by(2).for_each(|b| *b = 0x0B);
                }
                let want = bytes.iter().position(|&b| b == b'\n');
                assert_eq!(find_newline(&bytes), want, "len {len} at {at}");
            }
        }
    }

    #[test]
    fn compact_records_are_the_records_of_next_with_bare_lines_as_givens() {
        let p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let s = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let clash = format!("55{}", &p[2..]);
        let text = format!(
            "{p}\n# note\n{p},{s}\n{clash}\n{p}\r\n\u{feff}{p}\n{}\n{p}x\n\n{}\n{p}",
            &p[..80],
            p.replace('5', "0")
        );
        let records: Vec<Record> = Reader::new(text.as_bytes()).without_clash_check().collect();
        let mut reader = Reader::new(text.as_bytes()).without_clash_check();
        let compact: Vec<Compact> = std::iter::from_fn(|| reader.next_compact()).collect();
        assert_eq!(compact.len(), records.len());
        let mut bare = 0;
        for (c, r) in compact.iter().zip(&records) {
            assert_eq!(c.line(), r.line);
            match c {
                Compact::Givens9 { givens, .. } => {
                    bare += 1;
                    let puzzle = r.item.as_ref().unwrap();
                    assert_eq!(&givens[..], puzzle.board.cells());
                    assert!(puzzle.solution.is_none());
                }
                Compact::Record(c) => {
                    assert_eq!(
                        c.item.as_ref().map_err(|e| &e.kind),
                        r.item.as_ref().map_err(|e| &e.kind)
                    );
                }
            }
        }
        // The first line and the clash; the zeros line comes after a blank line, which the general path skips
        // before reading the next line itself; the last line has no line feed.
        assert_eq!(bare, 2);
        // With the clash check on, no line is bare: the check needs the record's board.
        let mut checking = Reader::new(text.as_bytes());
        assert!(
            std::iter::from_fn(|| checking.next_compact()).all(|c| matches!(c, Compact::Record(_)))
        );
    }

    #[test]
    fn standard_lines_read_as_the_general_rules_read_them() {
        // The same lines behind a leading space take the general path (their first 81 bytes are no grid).
        let p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let s = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let clash = format!("55{}", &p[2..]);
        let lines = [
            p.to_string(),
            format!("{p},{s}"),
            format!("{p} # a comment"),
            format!("{p}:{s}:1"),
            format!("{p},{}", &s[..80]),
            format!("{p}\r"),
            clash.clone(),
            format!("{clash},{s}"),
            format!("{p}x"),
        ];
        for line in &lines {
            let read = |text: &str, check: bool| {
                let reader = Reader::new(text.as_bytes());
                let reader = if check {
                    reader
                } else {
                    reader.without_clash_check()
                };
                reader
                    .map(|r| r.item.map_err(|e| e.kind))
                    .collect::<Vec<_>>()
            };
            for check in [true, false] {
                let fast = read(line, check);
                let general = read(&format!(" {line}"), check);
                assert_eq!(fast, general, "{line:?}, clash check {check}");
            }
        }
        let unchecked = Reader::new(clash.as_bytes())
            .without_clash_check()
            .next()
            .unwrap();
        assert!(unchecked.item.is_ok(), "the clash is left to the caller");
    }
}
