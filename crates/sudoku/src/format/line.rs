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
        if let (EntryStatus::Solved, Some(solution)) = (entry.status, entry.solution) {
            // `write_solved9` prints digits only; an entry may carry an unfilled board, whose `.` the line
            // buffer below prints.
            if let Some(cells) = <&[u8; 81]>::try_from(solution.cells())
                .ok()
                .filter(|cells| !cells.contains(&0))
            {
                if let Some(written) = self.write_solved9(out, cells, entry.count) {
                    return written;
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

    fn write_solved9(
        &mut self,
        out: &mut dyn io::Write,
        cells: &[u8; 81],
        count: Option<u64>,
    ) -> Option<io::Result<()>> {
        // The common line, a 9x9 solution (with a one-digit count when counting): built on the stack over
        // fixed-size arrays (the symbol loop vectorises whole), one write, no line buffer and no formatting
        // machinery (`write!` of the count alone cost about 400 instructions per line).
        if self.with_filename {
            return None;
        }
        let mut line = [b'\n'; 84];
        // Values 1..=9, so no `.` to print: one add per byte (`symbols_into` also maps 0, and cost 49
        // instructions per line against 10).
        for (o, &v) in line.iter_mut().zip(cells) {
            *o = b'0'.wrapping_add(v);
        }
        match count {
            None => Some(out.write_all(&line[..82])),
            Some(count @ 0..=9) => {
                line[81] = b' ';
                // A digit: `count` is at most 9 here.
                line[82] = b'0' + count as u8;
                Some(out.write_all(&line))
            }
            Some(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::board::Board;
    use crate::format::OutputFormat;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn solved_entry(board: &Board, count: Option<u64>) -> Entry<'_> {
        Entry {
            file: Some("in.txt"),
            line: 7,
            status: EntryStatus::Solved,
            solution: Some(board),
            count,
            error: None,
            expected_mismatch: false,
            nodes: 3,
            micros: 5,
        }
    }

    #[test]
    fn a_solved_nine_by_nine_line_is_written_alike_from_its_cells_and_from_its_entry() {
        let board: Board = SOLUTION.parse().unwrap();
        let cells: [u8; 81] = board.cells().try_into().unwrap();
        for count in [None, Some(0), Some(1), Some(2), Some(9)] {
            let (mut fast, mut whole) = (Vec::new(), Vec::new());
            let mut format = LineFormat::new(false);
            format
                .write_solved9(&mut fast, &cells, count)
                .unwrap()
                .unwrap();
            LineFormat::new(false)
                .write_entry(&mut whole, &solved_entry(&board, count))
                .unwrap();
            assert_eq!(fast, whole, "count {count:?}");
            let text = String::from_utf8(fast).unwrap();
            let expected = match count {
                None => format!("{SOLUTION}\n"),
                Some(c) => format!("{SOLUTION} {c}\n"),
            };
            assert_eq!(text, expected);
        }
    }

    #[test]
    fn a_solved_entry_with_an_empty_cell_still_prints_its_dot() {
        let mut board: Board = SOLUTION.parse().unwrap();
        board.set(40, 0).unwrap();
        let mut out = Vec::new();
        LineFormat::new(false)
            .write_entry(&mut out, &solved_entry(&board, None))
            .unwrap();
        let mut expected = SOLUTION.as_bytes().to_vec();
        expected[40] = b'.';
        expected.push(b'\n');
        assert_eq!(out, expected);
    }

    #[test]
    fn the_solved_line_shortcut_declines_what_needs_the_whole_entry() {
        let board: Board = SOLUTION.parse().unwrap();
        let cells: [u8; 81] = board.cells().try_into().unwrap();
        let mut out = Vec::new();
        assert!(LineFormat::new(false)
            .write_solved9(&mut out, &cells, Some(10))
            .is_none());
        assert!(LineFormat::new(true)
            .write_solved9(&mut out, &cells, None)
            .is_none());
        for format in [OutputFormat::Grid, OutputFormat::Jsonl] {
            assert!(format
                .writer()
                .write_solved9(&mut out, &cells, None)
                .is_none());
        }
        assert!(out.is_empty(), "nothing written when declined");
        // A two-digit count goes through the entry, with the same layout.
        LineFormat::new(false)
            .write_entry(&mut out, &solved_entry(&board, Some(10)))
            .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), format!("{SOLUTION} 10\n"));
    }
}
