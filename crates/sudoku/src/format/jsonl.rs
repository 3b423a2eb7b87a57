//! JSON lines: exactly one object per input puzzle, in input order, with these keys in this order:
//!
//! `file` (the input as named on the command line, `-` for stdin; the `sudoku` CLI always writes it, so results
//! of several files stay apart and every object has the same keys whatever the number of inputs), `line` (1-based
//! input line within that file), `status` (`solved` | `unsatisfiable` | `invalid` | `limit`, and `error` for an
//! internal solver failure: a panic, or an answer the independent checker rejected; only a solver bug leads
//! there), `solution` (the grid as one line; only when solved), `solutions` (the count, capped at 2; only when
//! counting; with status `limit` it is what was found before the stop, a lower bound), `expected_mismatch`
//! (`true`, only when the input carried an expected solution and the result contradicts it), `error` (only for
//! invalid/error), `nodes`, `micros` (solver time; 0 for invalid input).

use std::io;

use serde::{Serialize, Serializer};

use super::{Entry, ResultFormat};
use crate::board::{symbols_into, Board, MAX_BOX};

/// A board serialised as its one-line string without building a `String` (one allocation per result saved).
struct Line<'a>(&'a Board);

impl Serialize for Line<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; MAX_BOX.pow(4)];
        let line = &mut buf[..self.0.cell_count()];
        symbols_into(self.0.cells(), self.0.side(), line);
        // Every symbol is ASCII.
        serializer.serialize_str(std::str::from_utf8(line).map_err(serde::ser::Error::custom)?)
    }
}

#[derive(Serialize)]
struct JsonEntry<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    line: usize,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<Line<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<u64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    expected_mismatch: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    nodes: u64,
    micros: u64,
}

/// The JSON-lines result format.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonlFormat;

impl ResultFormat for JsonlFormat {
    fn write_entry(&mut self, out: &mut dyn io::Write, entry: &Entry<'_>) -> io::Result<()> {
        let json = JsonEntry {
            file: entry.file,
            line: entry.line,
            status: entry.status.as_str(),
            solution: entry.solution.map(Line),
            solutions: entry.count,
            expected_mismatch: entry.expected_mismatch,
            error: entry.error,
            nodes: entry.nodes,
            micros: entry.micros,
        };
        serde_json::to_writer(&mut *out, &json)?;
        writeln!(out)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::EntryStatus;
    use super::*;

    #[test]
    fn invalid_entry_has_error_and_no_solution() {
        let entry = Entry {
            file: None,
            line: 3,
            status: EntryStatus::Invalid,
            solution: None,
            count: Some(0),
            error: Some("wrong \"length\""),
            expected_mismatch: false,
            nodes: 0,
            micros: 0,
        };
        let mut out = Vec::new();
        JsonlFormat.write_entry(&mut out, &entry).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"line\":3,\"status\":\"invalid\",\"solutions\":0,\"error\":\"wrong \\\"length\\\"\",\"nodes\":0,\"micros\":0}\n"
        );
    }

    #[test]
    fn file_and_mismatch_keys_appear_only_when_set() {
        let board: crate::board::Board = "1234341221434321".parse().unwrap();
        let entry = Entry {
            file: Some("a.csv"),
            line: 2,
            status: EntryStatus::Solved,
            solution: Some(&board),
            count: None,
            error: None,
            expected_mismatch: true,
            nodes: 1,
            micros: 2,
        };
        let mut out = Vec::new();
        JsonlFormat.write_entry(&mut out, &entry).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"file\":\"a.csv\",\"line\":2,\"status\":\"solved\",\"solution\":\"1234341221434321\",\"expected_mismatch\":true,\"nodes\":1,\"micros\":2}\n"
        );
    }
}
