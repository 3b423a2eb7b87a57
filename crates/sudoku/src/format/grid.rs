//! The grid format: a board as N rows with box separators, as people print and paste it:
//!
//! ```text
//! 5 3 4 | 6 7 8 | 9 1 2
//! 6 7 2 | 1 9 5 | 3 4 8
//! 1 9 8 | 3 4 2 | 5 6 7
//! ------+-------+------
//! ```
//!
//! As a result format, each puzzle gets a `# line L: status` header (`# FILE: line L: status` with file names on,
//! for several inputs), its solution grid when solved, and a blank line; the reader skips `#` lines, so the output
//! reads back as a file of solutions.

use std::fmt;
use std::io;

use super::{display_name, Entry, EntryStatus, ResultFormat};
use crate::board::{symbol, Board};

/// Writes `board` as a pretty grid, one row per line, each line ending in `\n`. Allocates nothing.
pub fn write_board(out: &mut impl fmt::Write, board: &Board) -> fmt::Result {
    let b = board.box_size();
    let n = board.side();
    for (r, row) in board.cells().chunks(n).enumerate() {
        if r > 0 && r % b == 0 {
            for bx in 0..b {
                if bx > 0 {
                    out.write_char('+')?;
                }
                let width = 2 * b + usize::from(bx > 0 && bx + 1 < b);
                for _ in 0..width {
                    out.write_char('-')?;
                }
            }
            out.write_char('\n')?;
        }
        for (c, &v) in row.iter().enumerate() {
            if c > 0 {
                out.write_str(if c % b == 0 { " | " } else { " " })?;
            }
            out.write_char(symbol(v))?;
        }
        out.write_char('\n')?;
    }
    Ok(())
}

/// The board as a pretty grid string.
pub fn to_grid_string(board: &Board) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail.
    let _ = write_board(&mut s, board);
    s
}

/// The grid result format. Keeps one grid buffer, so a result allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct GridFormat {
    /// Name the file in each header: `# FILE: line L: status` (see [`WriterOptions`](super::WriterOptions)).
    with_filename: bool,
    /// The solution grid being written, reused across results.
    buf: String,
}

impl GridFormat {
    /// A grid writer, naming the file in each header when `with_filename` is set.
    pub fn new(with_filename: bool) -> Self {
        GridFormat {
            with_filename,
            buf: String::new(),
        }
    }
}

impl ResultFormat for GridFormat {
    fn write_entry(&mut self, out: &mut dyn io::Write, entry: &Entry<'_>) -> io::Result<()> {
        if self.with_filename {
            write!(out, "# {}: ", display_name(entry.file.unwrap_or("-")))?;
        } else {
            write!(out, "# ")?;
        }
        write!(out, "line {}: {}", entry.line, entry.status.as_str())?;
        if let Some(count) = entry.count {
            write!(
                out,
                ", {count} solution{}",
                if count == 1 { "" } else { "s" }
            )?;
        }
        if entry.expected_mismatch {
            write!(out, ", not the expected solution")?;
        }
        if let Some(error) = entry.error {
            write!(out, ": {error}")?;
        }
        writeln!(out)?;
        if let (EntryStatus::Solved, Some(solution)) = (entry.status, entry.solution) {
            self.buf.clear();
            // Writing into a String cannot fail.
            let _ = write_board(&mut self.buf, solution);
            out.write_all(self.buf.as_bytes())?;
        }
        writeln!(out)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn nine_by_nine_grid_has_box_separators() {
        let b: Board =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .parse()
                .unwrap();
        let s = to_grid_string(&b);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "5 3 4 | 6 7 8 | 9 1 2");
        assert_eq!(lines[3], "------+-------+------");
        assert_eq!(lines[3].len(), lines[0].len());
    }

    #[test]
    fn every_size_reads_back_from_its_grid() {
        for b in 2..=6 {
            let n = b * b;
            let cells: Vec<u8> = (0..n * n)
                .map(|i| ((i * 7 + i / n) % (n + 1)) as u8)
                .collect();
            let board = Board::from_cells(b, cells).unwrap();
            let text = to_grid_string(&board);
            let lines: Vec<&str> = text.lines().collect();
            assert!(lines.iter().all(|l| l.len() == lines[0].len()), "size {n}");
            let mut reader = crate::parse::Reader::new(text.as_bytes());
            let back = reader.next().unwrap();
            // Clashes are expected in this arbitrary grid; the cells must still come back when there are none.
            match back.item {
                Ok(p) => assert_eq!(p.board, board),
                Err(e) => assert!(
                    matches!(e.kind, crate::parse::ParseErrorKind::Clash(_)),
                    "size {n}: {e}"
                ),
            }
            assert!(reader.next().is_none());
        }
    }
}
