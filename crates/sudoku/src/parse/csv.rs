//! CSV puzzle files (the Kaggle sets and their relatives), and any line that carries a solution after its puzzle.
//!
//! Layouts met in the wild, all read:
//!
//! ```text
//! quizzes,solutions                          # Kaggle 1M
//! puzzle,solution                            # Kaggle 9M, and this project's own files
//! id,puzzle,solution,clues,difficulty        # Kaggle 3M (Radcliffe)
//! puzzle,solution,rating                     # ...and any other order or extra columns
//! ```
//!
//! A header is a line with a comma whose fields are all short names (`[A-Za-z_][A-Za-z0-9_ .-]*`, at most
//! [`MAX_NAME`] characters, at least one of two characters or more, so a comma-separated 16x16 grid row such as
//! `A,B,3,...` is never taken for one). Its puzzle and solution columns are found by name ([`PUZZLE_NAMES`],
//! [`SOLUTION_NAMES`]). When the puzzle is not the first column, the reader takes exactly the named fields of every
//! data line ([`by_columns`]); when it is the first, lines are read as without a header (same result, and the
//! common `puzzle,solution` files keep the fast path).
//!
//! Without a header (or with one naming no puzzle column), a line is read as before: its first token when that is
//! a whole grid, else its first comma-separated field when that is one, else a later field only in an
//! `id,puzzle,solution,...` line ([`find_grid_field`]; a broken first field is that line's error, never replaced
//! by the solution next to it). After the puzzle,
//! the first later field (fields split at whitespace, `,` and `:`, up to a `#` comment) with exactly as many
//! characters as the puzzle has cells is its expected solution ([`solution_field`]); other fields are comments or
//! ratings and are ignored.

use smallvec::SmallVec;

use super::line::{is_field_separator, parse_cells, Token};
use super::{ParseError, ParseErrorKind};
use crate::board::{box_size_for_cells, value_of_symbol, Board};

/// Longest column name a header may have.
pub(super) const MAX_NAME: usize = 40;

/// Header names of the puzzle column (compared without case).
pub const PUZZLE_NAMES: &[&str] = &[
    "puzzle", "puzzles", "quiz", "quizzes", "question", "grid", "sudoku", "board", "problem",
    "unsolved",
];
/// Header names of the solution column (compared without case).
pub const SOLUTION_NAMES: &[&str] = &["solution", "solutions", "answer", "answers", "solved"];

/// Where a header puts the puzzle and the solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Columns {
    /// The header's names, lowercased and trimmed (to recognise a repeated header).
    pub names: Vec<String>,
    /// 0-based index of the puzzle field, when a column has a puzzle name.
    pub puzzle: Option<usize>,
    /// 0-based index of the solution field, when a column has a solution name.
    pub solution: Option<usize>,
}

/// A field without surrounding spaces and double quotes.
fn unquote(field: &str) -> &str {
    let f = field.trim();
    f.strip_prefix('"')
        .and_then(|f| f.strip_suffix('"'))
        .unwrap_or(f)
        .trim()
}

/// The columns of `content` (a line without leading whitespace) when it is a CSV header, else `None`.
pub(super) fn header(content: &str) -> Option<Columns> {
    // Fast rejection of data lines: a header starts with a letter, `_` or a quote, and has a comma.
    let first = content.as_bytes().first()?;
    if !(first.is_ascii_alphabetic() || *first == b'_' || *first == b'"') || !content.contains(',')
    {
        return None;
    }
    let content = content.split('#').next().unwrap_or(content).trim_end();
    let mut names = Vec::new();
    let mut long_name = false;
    for field in content.split(',') {
        let name = unquote(field);
        let mut chars = name.chars();
        let starts_well = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        let rest_ok =
            chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ' ' | '.' | '-'));
        if !starts_well || !rest_ok || name.len() > MAX_NAME {
            return None;
        }
        long_name |= name.len() >= 2;
        names.push(name.to_ascii_lowercase());
    }
    if !long_name {
        return None;
    }
    let position = |known: &[&str]| names.iter().position(|n| known.contains(&n.as_str()));
    Some(Columns {
        puzzle: position(PUZZLE_NAMES),
        solution: position(SOLUTION_NAMES),
        names,
    })
}

/// The comma-separated fields of `text` as `(field text, 1-based column of its first character)`, each without
/// surrounding spaces and quotes. A `#` ends the line.
fn fields(text: &str) -> impl Iterator<Item = (&str, usize)> + '_ {
    let body = text.split('#').next().unwrap_or(text);
    let mut column = 1;
    body.split(',').map(move |raw| {
        let start = column;
        column += raw.chars().count() + 1;
        let inner = unquote(raw);
        // `inner` is a subslice of `raw`: its column is `start` plus the characters before it.
        let offset = inner.as_ptr() as usize - raw.as_ptr() as usize;
        let lead = raw.get(..offset).map_or(0, |p| p.chars().count());
        (inner, start + lead)
    })
}

/// The box size of a grid of `cells` cells: the fixed `explicit` size or the inferred one.
fn grid_box(cells: usize, explicit: Option<usize>) -> Option<usize> {
    match explicit {
        Some(b) => (cells == b.pow(4)).then_some(b),
        None => box_size_for_cells(cells),
    }
}

/// The wrong-length error of a field that should hold a grid.
fn length_error(found: usize, explicit: Option<usize>, line: usize, column: usize) -> ParseError {
    let glued = found.is_multiple_of(2) && found > 0 && grid_box(found / 2, explicit).is_some();
    ParseError {
        line,
        column: Some(column),
        kind: if glued {
            ParseErrorKind::Glued { found }
        } else {
            ParseErrorKind::WrongLength {
                found,
                expected: explicit.map(|b| b.pow(4)),
            }
        },
    }
}

/// The `(column, char)` pairs of a field starting at `column`.
fn located(text: &str, column: usize) -> impl Iterator<Item = (usize, char)> + '_ {
    text.chars().enumerate().map(move |(i, c)| (column + i, c))
}

/// Reads a data line by the header's columns: the puzzle from its field, the solution (when the header names
/// one and the field is not empty) from its own. Returns the board (clashes not yet checked) and the solution.
pub(super) fn by_columns(
    text: &str,
    puzzle_col: usize,
    solution_col: Option<usize>,
    explicit: Option<usize>,
    line: usize,
) -> Result<(Board, Option<Board>), ParseError> {
    let mut puzzle = None;
    let mut solution = None;
    let mut count = 0;
    for (k, field) in fields(text).enumerate() {
        count = k + 1;
        if k == puzzle_col {
            puzzle = Some(field);
        } else if Some(k) == solution_col {
            solution = Some(field);
        }
    }
    let Some((text, column)) = puzzle else {
        return Err(ParseError {
            line,
            column: None,
            kind: ParseErrorKind::MissingColumn {
                column: puzzle_col + 1,
                fields: count,
            },
        });
    };
    let found = text.chars().count();
    let box_size =
        grid_box(found, explicit).ok_or_else(|| length_error(found, explicit, line, column))?;
    let cells = located;
    let board = parse_cells(cells(text, column), box_size, line, false)?;
    let solution = match solution {
        Some(("", _)) => None,
        Some((text, column)) => {
            let found = text.chars().count();
            if found != box_size.pow(4) {
                return Err(ParseError {
                    line,
                    column: Some(column),
                    kind: ParseErrorKind::SolutionLength {
                        found,
                        expected: box_size.pow(4),
                    },
                });
            }
            Some(parse_cells(cells(text, column), box_size, line, true)?)
        }
        None => None,
    };
    Ok((board, solution))
}

/// Longest id [`find_grid_field`] skips before the puzzle (the shortest grid has 16 cells, so an id never looks
/// like one).
const MAX_ID: usize = 11;

/// True for a field that can be a line's id: 1 to [`MAX_ID`] ASCII letters, digits, `_` or `-`. No `.`: a field
/// with a blank in it is a puzzle gone wrong, never an id.
fn is_id(field: &str) -> bool {
    (1..=MAX_ID).contains(&field.len())
        && field
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// What a headerless line with commas holds where its puzzle should be ([`find_grid_field`]).
#[derive(Debug)]
pub(super) enum GridField<'a> {
    /// The puzzle field, as a [`Token`] whose `rest` is the line after it (where [`solution_field`] looks for the
    /// solution), with its box size.
    Found(Token<'a>, usize),
    /// A later field holds a grid, but the line does not have the shape that lets it be the puzzle: the field
    /// before it (the first one, when a header puts the puzzle first) is the puzzle, broken. The error names it.
    Broken(ParseError),
    /// No field holds a grid: not a CSV puzzle line (perhaps a grid row with commas).
    NoGrid,
}

/// One comma-separated field located in its line.
struct Field<'a> {
    /// The text without surrounding spaces and quotes.
    text: &'a str,
    /// Byte offset of `text` in the line.
    start: usize,
    /// 1-based column of its first character.
    column: usize,
    /// Length in characters.
    chars: usize,
}

/// Finds the puzzle of a headerless line with commas.
///
/// The first field is the puzzle when it is a grid. Otherwise a later field is taken only in the shape of an
/// `id,puzzle,solution,...` line (e.g. a Kaggle 3M file cut after its header): every field before it is an id
/// ([`is_id`]: short, no `.`), and the field right after it has exactly as many characters (its solution). Anything
/// else with a grid in a later field is [`GridField::Broken`]: a puzzle field cut short (a 4x4 puzzle that lost a
/// few cells looks like an id) must be reported as that line's error, never replaced by the solution next to it.
/// With `id_allowed` false (a header put the puzzle in the first column), no field is skipped.
pub(super) fn find_grid_field(
    text: &str,
    explicit: Option<usize>,
    id_allowed: bool,
    line: usize,
) -> GridField<'_> {
    let body = &text[..text.find('#').unwrap_or(text.len())];
    let mut fields: SmallVec<[Field<'_>; 8]> = SmallVec::new();
    let mut start = 0;
    let mut column = 1;
    for raw in body.split(',') {
        let inner = unquote(raw);
        // `inner` is a subslice of `raw`: its offset and column follow from the characters before it.
        let offset = inner.as_ptr() as usize - raw.as_ptr() as usize;
        let lead = raw.get(..offset).map_or(0, |p| p.chars().count());
        fields.push(Field {
            text: inner,
            start: start + offset,
            column: column + lead,
            chars: inner.chars().count(),
        });
        start += raw.len() + 1;
        column += raw.chars().count() + 1;
    }
    let grid_of = |f: &Field<'_>| {
        grid_box(f.chars, explicit).filter(|&b| {
            let n = b * b;
            f.text.chars().all(|c| value_of_symbol(c, n).is_some())
        })
    };
    let Some((index, box_size)) = fields
        .iter()
        .enumerate()
        .find_map(|(k, f)| grid_of(f).map(|b| (k, b)))
    else {
        return GridField::NoGrid;
    };
    let cells = box_size.pow(4);
    let shaped = index == 0
        || (id_allowed
            && fields[..index].iter().all(|f| is_id(f.text))
            && fields.get(index + 1).is_some_and(|f| f.chars == cells));
    if !shaped {
        // With the puzzle first by header, the first field is the puzzle. Without, in the shape
        // `ids,puzzle,solution` the grid found is the solution: the field before it is the puzzle.
        let blamed = if id_allowed { index - 1 } else { 0 };
        let puzzle = &fields[blamed];
        if puzzle.chars == cells {
            // The right length with a character that is not a symbol: name that character.
            if let Err(e) = parse_cells(located(puzzle.text, puzzle.column), box_size, line, false)
            {
                return GridField::Broken(e);
            }
        }
        if !id_allowed {
            return GridField::Broken(length_error(puzzle.chars, explicit, line, puzzle.column));
        }
        return GridField::Broken(ParseError {
            line,
            column: Some(puzzle.column),
            kind: ParseErrorKind::PuzzleField {
                field: blamed + 1,
                found: puzzle.chars,
                expected: cells,
                grid_field: index + 1,
            },
        });
    }
    let field = &fields[index];
    let end = field.start + field.text.len();
    GridField::Found(
        Token {
            text: field.text,
            column: field.column,
            chars: field.chars,
            rest: &text[end..],
            rest_column: field.column + field.chars,
        },
        box_size,
    )
}

/// Finds and parses the solution field in `rest` (the line after the puzzle token, starting at `column`).
pub(super) fn solution_field(
    rest: &str,
    column: usize,
    box_size: usize,
    line: usize,
) -> Result<Option<Board>, ParseError> {
    let cells = box_size.pow(4);
    let mut field_start: Option<(usize, usize)> = None; // (byte offset, column)
    let mut field_chars = 0;
    // A sentinel separator at the end closes the last field.
    let chars = rest
        .char_indices()
        .chain(std::iter::once((rest.len(), ' ')));
    for (col, (i, c)) in (column..).zip(chars) {
        if is_field_separator(c) || c == '"' {
            if let Some((start, start_col)) = field_start.take() {
                if field_chars == cells {
                    let text = &rest[start..i];
                    let chars = text.chars().enumerate().map(|(k, ch)| (start_col + k, ch));
                    return parse_cells(chars, box_size, line, true).map(Some);
                }
            }
            if c == '#' {
                break;
            }
        } else {
            if field_start.is_none() {
                field_start = Some((i, col));
                field_chars = 0;
            }
            field_chars += 1;
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn header_is_a_line_of_short_comma_separated_names() {
        let h = header("quizzes,solutions").unwrap();
        assert_eq!((h.puzzle, h.solution), (Some(0), Some(1)));
        let h = header("id,puzzle,solution,clues,difficulty").unwrap();
        assert_eq!((h.puzzle, h.solution), (Some(1), Some(2)));
        let h = header("\"Puzzle\", \"Solution\" ,rating").unwrap();
        assert_eq!((h.puzzle, h.solution), (Some(0), Some(1)));
        let h = header("ab,cd").unwrap();
        assert_eq!((h.puzzle, h.solution), (None, None));
        assert!(header("1234,4321").is_none());
        assert!(header("quizzes").is_none());
        assert!(header("a,b").is_none());
        // A comma-separated 16x16 grid row is not a header, nor is a one-line puzzle with letters.
        assert!(header("A,B,C,D,E,F,G,1,2,3,4,5,6,7,8,9").is_none());
        assert!(header("AB.D,1234").is_none());
    }

    #[test]
    fn columns_by_header_take_their_fields_and_locate_errors() {
        let (board, solution) =
            by_columns("7,1.3.............,1234341221434321,3", 1, Some(2), None, 4)
                .unwrap_or_else(|e| panic!("{e}"));
        assert!(board.to_line().starts_with("1.3."));
        assert_eq!(solution.unwrap().to_line(), "1234341221434321");
        let err = by_columns("7,1.3.", 1, Some(2), None, 4).unwrap_err();
        assert_eq!(err.to_string(), "line 4, column 3: wrong length: 4 cells (a one-line puzzle has 16, 81, 256, 625 or 1296 cells, a grid row 4, 9, 16, 25 or 36)");
        let err = by_columns("7", 1, None, None, 4).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4: no column 2 (the line has 1 field)"
        );
        let err = by_columns("7,1...............,12", 1, Some(2), None, 4).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4, column 20: solution has 2 cells, expected 16"
        );
    }

    /// The found field's text, column and rest, or panics.
    fn found(line: &str) -> (&str, usize, &str, usize) {
        match find_grid_field(line, None, true, 1) {
            GridField::Found(t, b) => (t.text, t.column, t.rest, b),
            other => panic!("{line}: {other:?}"),
        }
    }

    /// The error of a broken line, or panics.
    fn broken(line: &str) -> String {
        match find_grid_field(line, None, true, 5) {
            GridField::Broken(e) => e.to_string(),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn a_grid_field_is_found_after_an_id_when_its_solution_follows() {
        assert_eq!(
            found("12, \"1...............\",1234341221434321"),
            ("1...............", 6, "\",1234341221434321", 2)
        );
        assert_eq!(
            found("row_7,1...............,1234341221434321,2.5").0,
            "1..............."
        );
        assert_eq!(found("1...............,12").0, "1...............");
        assert!(matches!(
            find_grid_field("12,abc,1.3", None, true, 1),
            GridField::NoGrid
        ));
        // Not a valid grid: a symbol above 4 in a 16-character field.
        assert!(matches!(
            find_grid_field("1,1234567812345678", None, true, 1),
            GridField::NoGrid
        ));
    }

    #[test]
    fn a_broken_first_field_is_reported_not_replaced_by_the_grid_after_it() {
        // Cut short: 15, 12, 11 and 2 cells (the short ones look like ids, but no solution follows the grid).
        for (puzzle, found) in [
            ("1.3............", 15),
            ("1.3.........", 12),
            ("1.3........", 11),
            ("12", 2),
        ] {
            let err = broken(&format!("{puzzle},1234341221434321"));
            assert!(
                err.starts_with(&format!(
                    "line 5, column 1: wrong length: {found} cells in field 1, expected 16 (field 2 holds a grid"
                )),
                "{puzzle}: {err}"
            );
        }
        // A broken puzzle after an id, before its solution: the grid found is the solution, with nothing after it.
        assert!(broken("7,1.3.....,1234341221434321,27,1.5").starts_with(
            "line 5, column 3: wrong length: 8 cells in field 2, expected 16 (field 3 holds a grid"
        ));
        // An id and a puzzle without a solution: ambiguous without a header, so reported with the fix.
        assert_eq!(
            broken("12,1...............,"),
            "line 5, column 1: wrong length: 2 cells in field 1, expected 16 (field 2 holds a grid, but without \
             a header naming the columns a later field is read as the puzzle only in an `id,puzzle,solution` line)"
        );
        // The right length with a bad character names the character.
        assert_eq!(
            broken("1.3.x...........,1234341221434321"),
            "line 5, column 5: unexpected character 'x' in cell r2c1 (a 4x4 board uses 1-4, . or 0)"
        );
        // With the puzzle in the first column by header, no id is skipped, and the error is the field's length.
        match find_grid_field("12,1...............,1234341221434321", None, false, 1) {
            GridField::Broken(e) => assert_eq!(
                e.to_string(),
                "line 1, column 1: wrong length: 2 cells (a one-line puzzle has 16, 81, 256, 625 or 1296 cells, \
                 a grid row 4, 9, 16, 25 or 36)"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn solution_is_the_first_field_of_the_puzzle_length() {
        let s = solution_field(",rating 2.5,1234341221434321 # c", 17, 2, 3)
            .unwrap()
            .unwrap();
        assert_eq!(s.to_line(), "1234341221434321");
        assert_eq!(
            solution_field(" 2.5 # 1234341221434321", 17, 2, 3).unwrap(),
            None
        );
    }

    #[test]
    fn bad_character_in_the_solution_is_located() {
        let err = solution_field(",123434122143432x", 17, 2, 3).unwrap_err();
        assert_eq!(err.column, Some(33));
    }
}
