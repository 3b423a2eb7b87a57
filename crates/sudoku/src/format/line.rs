//! The line format: a board as one line of symbols (`.` for empty), the same symbols the reader accepts.
//!
//! As a result format: a solved puzzle prints its solution (followed by the solution count when counting);
//! any other outcome prints its status word (`unsatisfiable`, `limit`, `invalid: <why>`, `error: <why>`), so the
//! output keeps exactly one line per input puzzle. With file names on (several inputs), each line starts with
//! `FILE:LINE:`, as `grep -Hn` prints (`<stdin>` for standard input).

use std::io::{self, Write};

use super::{display_name, Entry, EntryStatus, ResultFormat};
use crate::board::symbols_into;

/// The line result format. Keeps one line buffer so a result costs one `write_all`, not one call per cell.
#[derive(Clone, Debug, Default)]
pub struct LineFormat {
    buf: Vec<u8>,
    /// Prefix each result with `FILE:LINE:` (see [`WriterOptions`](super::WriterOptions)).
    with_filename: bool,
}

impl LineFormat {
    /// A line writer, prefixing results with `FILE:LINE:` when `with_filename` is set.
    pub fn new(with_filename: bool) -> Self {
        LineFormat {
            buf: Vec::new(),
            with_filename,
        }
    }
}

impl ResultFormat for LineFormat {
    fn write_entry(&mut self, out: &mut dyn io::Write, entry: &Entry<'_>) -> io::Result<()> {
        // The common line, a 9x9 solution (with a one-digit count when counting): built on the stack over
        // fixed-size arrays (the symbol loop vectorises whole), one write, no line buffer and no formatting
        // machinery (`write!` of the count alone cost about 400 instructions per line).
        if let (false, EntryStatus::Solved, Some(solution)) =
            (self.with_filename, entry.status, entry.solution)
        {
            if let Ok(cells) = <&[u8; 81]>::try_from(solution.cells()) {
                let mut line = [b'\n'; 84];
                symbols_into(cells, 9, &mut line[..81]);
                match entry.count {
                    None => return out.write_all(&line[..82]),
                    Some(count @ 0..=9) => {
                        line[81] = b' ';
                        // A digit: `count` is at most 9 here.
                        line[82] = b'0' + count as u8;
                        return out.write_all(&line);
                    }
                    Some(_) => {}
                }
            }
        }
        self.buf.clear();
        if self.with_filename {
            let name = display_name(entry.file.unwrap_or("-"));
            // Writing into a Vec cannot fail.
            let _ = write!(self.buf, "{name}:{}:", entry.line);
        }
        match (entry.status, entry.solution) {
            (EntryStatus::Solved, Some(solution)) => {
                let start = self.buf.len();
                self.buf.resize(start + solution.cell_count(), 0);
                symbols_into(solution.cells(), solution.side(), &mut self.buf[start..]);
                if let Some(count) = entry.count {
                    let _ = write!(self.buf, " {count}");
                }
            }
            (status, _) => {
                self.buf.extend_from_slice(status.as_str().as_bytes());
                if let Some(error) = entry.error {
                    let _ = write!(self.buf, ": {error}");
                }
            }
        }
        self.buf.push(b'\n');
        out.write_all(&self.buf)
    }
}
