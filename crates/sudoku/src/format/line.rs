//! The line format: a board as one line of symbols (`.` for empty), the same symbols the reader accepts.
//!
//! As a result format: a solved puzzle prints its solution (followed by the solution count when counting);
//! any other outcome prints its status word (`unsatisfiable`, `limit`, `invalid: <why>`, `error: <why>`), so the
//! output keeps exactly one line per input puzzle.

use std::fmt;
use std::io;

use super::{Entry, EntryStatus, ResultFormat};
use crate::board::{symbol, Board};

/// Writes `board` as one line (no newline).
pub fn write_board(out: &mut impl fmt::Write, board: &Board) -> fmt::Result {
    for &v in board.cells() {
        out.write_char(symbol(v))?;
    }
    Ok(())
}

/// The line result format. Keeps one line buffer so a result costs one `write_all`, not one call per cell.
#[derive(Clone, Debug, Default)]
pub struct LineFormat {
    buf: Vec<u8>,
}

impl ResultFormat for LineFormat {
    fn write_entry(&mut self, out: &mut dyn io::Write, entry: &Entry<'_>) -> io::Result<()> {
        match (entry.status, entry.solution) {
            (EntryStatus::Solved, Some(solution)) => {
                self.buf.clear();
                // Every symbol is ASCII.
                self.buf
                    .extend(solution.cells().iter().map(|&v| symbol(v) as u8));
                out.write_all(&self.buf)?;
                if let Some(count) = entry.count {
                    write!(out, " {count}")?;
                }
                writeln!(out)
            }
            (status, _) => match entry.error {
                Some(error) => writeln!(out, "{}: {error}", status.as_str()),
                None => writeln!(out, "{}", status.as_str()),
            },
        }
    }
}
