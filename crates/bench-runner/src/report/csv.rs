//! `--csv FILE`: one row per dataset x solver with the same keys as the JSON `results`; with `--per-puzzle`,
//! one row per puzzle x solver in `FILE` with `.puzzles` before its extension.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{figures, is_count, Output, OutputError};
use crate::summary::RunSummary;

/// Writes the CSV report(s).
pub struct Csv {
    /// Destination of the summary rows.
    pub path: PathBuf,
}

/// Quotes a field when it holds a comma, a quote or a line break (RFC 4180).
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The summary CSV text.
pub fn summary_csv(run: &RunSummary) -> String {
    let mut out = String::new();
    let mut header = false;
    for d in &run.datasets {
        for s in &d.solvers {
            let figs = figures(s);
            if !header {
                let keys: Vec<&str> = figs.iter().map(|(k, _)| *k).collect();
                let _ = writeln!(out, "dataset,solver,threads,{}", keys.join(","));
                header = true;
            }
            let values: Vec<String> = figs
                .iter()
                .map(|(k, v)| match v {
                    None => String::new(),
                    Some(x) if is_count(k) => format!("{}", *x as u64),
                    Some(x) => format!("{x:.3}"),
                })
                .collect();
            let _ = writeln!(
                out,
                "{},{},{},{}",
                field(&d.name),
                field(&s.solver),
                run.config.threads,
                values.join(",")
            );
        }
    }
    out
}

/// The per-puzzle CSV text.
pub fn puzzles_csv(run: &RunSummary) -> String {
    let mut out =
        String::from("dataset,line,solver,status,solutions,nodes,guesses,micros,solution,error\n");
    for r in &run.rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{:.3},{},{}",
            field(&r.dataset),
            r.line,
            field(&r.solver),
            r.status,
            r.solutions,
            r.nodes,
            r.guesses,
            r.micros,
            field(r.solution.as_deref().unwrap_or("")),
            field(r.error.as_deref().unwrap_or("")),
        );
    }
    out
}

/// `results.csv` -> `results.puzzles.csv`.
pub fn puzzles_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "report".into(), |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(|| "csv".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}.puzzles.{ext}"))
}

impl Output for Csv {
    fn emit(&self, run: &RunSummary) -> Result<(), OutputError> {
        std::fs::write(&self.path, summary_csv(run)).map_err(|e| OutputError::io(&self.path, e))?;
        if !run.rows.is_empty() {
            let p = puzzles_path(&self.path);
            std::fs::write(&p, puzzles_csv(run)).map_err(|e| OutputError::io(&p, e))?;
        }
        Ok(())
    }
}
