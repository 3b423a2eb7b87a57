//! JSON lines: exactly one object per input puzzle, in input order, with these keys in this order:
//!
//! `line` (1-based input line), `status` (`solved` | `unsatisfiable` | `invalid` | `limit`, and `error` for an
//! internal solver failure), `solution` (the grid as one line; only when solved), `solutions` (the count, capped
//! at 2; only when counting; with status `limit` it is what was found before the stop, a lower bound), `error`
//! (only for invalid/error), `nodes`, `micros` (solver time; 0 for invalid input).

use std::io;

use serde::Serialize;

use super::{Entry, ResultFormat};

#[derive(Serialize)]
struct JsonEntry<'a> {
    line: usize,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<u64>,
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
            line: entry.line,
            status: entry.status.as_str(),
            solution: entry.solution.map(|b| b.to_line()),
            solutions: entry.count,
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
            line: 3,
            status: EntryStatus::Invalid,
            solution: None,
            count: Some(0),
            error: Some("wrong \"length\""),
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
}
