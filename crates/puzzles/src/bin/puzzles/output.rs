//! The two output formats behind one trait: human-readable text and one JSON object per result.

use std::io::{self, Write};

/// One finished result, as every subcommand reports it.
pub struct Record {
    /// Where the instance came from: a file name, or `queens n`.
    pub source: String,
    /// "solved", "unsatisfiable", "limit", "invalid" or "error" (a verifier rejected an answer: a bug).
    pub status: &'static str,
    /// The answer in the family's text format.
    pub answer_text: Option<String>,
    /// The answer as JSON.
    pub answer_json: Option<serde_json::Value>,
    /// The key it goes under (`"solution"`, or `"coloring"` for graph colouring).
    pub answer_key: &'static str,
    /// With `--count`: solutions counted.
    pub count: Option<u64>,
    /// Message for invalid input or a failed verification.
    pub error: Option<String>,
    /// Search nodes over all engine calls.
    pub nodes: u64,
    /// Branching points with more than one candidate.
    pub guesses: u64,
    /// Wall time in microseconds (search only for a single search; the whole procedure for colouring).
    pub micros: u128,
    /// Fields that identify the instance (`"file"`, `"n"`), written first.
    pub ids: serde_json::Map<String, serde_json::Value>,
    /// Family-specific result fields (colouring: `colors`, `optimal`, `clique`, `dsatur`).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Writes records in one format.
pub trait Printer {
    /// Writes one record.
    fn print(&mut self, out: &mut dyn Write, record: &Record) -> io::Result<()>;
}

/// Text: a status line, then the answer.
pub struct Text;

impl Printer for Text {
    fn print(&mut self, out: &mut dyn Write, r: &Record) -> io::Result<()> {
        write!(out, "{}: {}", r.source, r.status)?;
        if let Some(c) = r.count {
            write!(out, ", {c} solution{}", if c == 1 { "" } else { "s" })?;
        }
        for (k, v) in &r.extra {
            write!(out, ", {k} {v}")?;
        }
        writeln!(
            out,
            " ({} nodes, {} guesses, {:.3} ms)",
            r.nodes,
            r.guesses,
            r.micros as f64 / 1000.0
        )?;
        if let Some(e) = &r.error {
            writeln!(out, "  {e}")?;
        }
        if let Some(a) = &r.answer_text {
            write!(out, "{a}")?;
            if !a.ends_with('\n') {
                writeln!(out)?;
            }
        }
        Ok(())
    }
}

/// JSON lines: exactly one object per result.
pub struct JsonLines;

impl Printer for JsonLines {
    fn print(&mut self, out: &mut dyn Write, r: &Record) -> io::Result<()> {
        let mut o = r.ids.clone();
        o.insert("status".into(), r.status.into());
        if let Some(a) = &r.answer_json {
            o.insert(r.answer_key.into(), a.clone());
        }
        if let Some(c) = r.count {
            o.insert("solutions".into(), c.into());
        }
        if let Some(e) = &r.error {
            o.insert("error".into(), e.clone().into());
        }
        for (k, v) in &r.extra {
            o.insert(k.clone(), v.clone());
        }
        o.insert("nodes".into(), r.nodes.into());
        o.insert("guesses".into(), r.guesses.into());
        o.insert("micros".into(), (r.micros as u64).into());
        writeln!(out, "{}", serde_json::Value::Object(o))
    }
}
