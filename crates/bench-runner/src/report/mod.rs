//! Report formats, one file each, all behind [`Output`]: the markdown tables on stdout, JSON, CSV, SVG plots and
//! the self-contained HTML page; [`pivot`] is the summary they open with.

use std::io;
use std::path::PathBuf;

use crate::summary::{RunSummary, SolverSummary};

pub mod csv;
pub mod html;
pub mod json;
pub mod markdown;
pub mod pivot;
pub mod plot;

/// Something that renders a finished (or interrupted) run somewhere.
pub trait Output {
    /// Writes the report; an `Err` names the destination that failed.
    fn emit(&self, run: &RunSummary) -> Result<(), OutputError>;
}

/// A report that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {message}")]
pub struct OutputError {
    /// The file or directory.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

impl OutputError {
    pub(crate) fn io(path: impl Into<PathBuf>, e: io::Error) -> Self {
        OutputError {
            path: path.into(),
            message: e.to_string(),
        }
    }
}

/// The named per-solver figures every tabular format shares, in column order: (key, value).
///
/// Keeping them in one place is what makes the JSON, the CSV and the wide table agree on names and values.
pub(crate) fn figures(s: &SolverSummary) -> Vec<(&'static str, Option<f64>)> {
    let c = &s.counts;
    vec![
        ("puzzles", Some(c.total() as f64)),
        ("solved", Some(c.solved as f64)),
        ("multiple", Some(c.multiple as f64)),
        ("unsatisfiable", Some(c.unsatisfiable as f64)),
        ("invalid", Some(c.invalid as f64)),
        ("limit", Some(c.limit as f64)),
        ("skipped", Some(c.skipped as f64)),
        ("errors", Some(s.errors as f64)),
        ("puzzles_per_sec", Some(s.puzzles_per_sec())),
        (
            "puzzles_per_sec_per_thread",
            Some(s.puzzles_per_sec_per_thread()),
        ),
        ("micros_mean", Some(s.times.mean_micros())),
        ("micros_p50", Some(s.times.quantile_micros(0.5))),
        ("micros_p90", Some(s.times.quantile_micros(0.9))),
        ("micros_p99", Some(s.times.quantile_micros(0.99))),
        ("micros_max", Some(s.times.max_micros())),
        ("nodes_mean", Some(s.nodes_mean())),
        ("nodes_max", Some(s.nodes_max as f64)),
        ("guesses_mean", Some(s.guesses_mean())),
        ("guesses_max", Some(s.guesses_max as f64)),
        ("no_guess_share", Some(s.no_guess_share())),
        ("speedup_vs_naive", s.speedup_vs_naive()),
        ("node_speedup_vs_naive", s.node_speedup_vs_naive()),
    ]
}

/// Keys of [`figures`] that are counts (written without decimals).
pub(crate) fn is_count(key: &str) -> bool {
    matches!(
        key,
        "puzzles"
            | "solved"
            | "multiple"
            | "unsatisfiable"
            | "invalid"
            | "limit"
            | "skipped"
            | "errors"
            | "nodes_max"
            | "guesses_max"
    )
}
