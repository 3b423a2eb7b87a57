//! `bench-runner merge PART.json...`: one report from the JSON reports of the shards of one run.
//!
//! Each shard's JSON carries its whole summary under `state` (counts, node and guess sums, log-linear time
//! histograms, the naive-DFS pairing). Merging adds them dataset by dataset and solver by solver, so every count,
//! sum, maximum and percentile equals the unsharded run's up to timing noise. Wall times cannot be added into one
//! wall time: a merged solver's `wall` is the sum of the shards' timed phases (so puzzles/s is per process, as in
//! an unsharded run with the same thread count), and the merged report's `wall_secs` is the slowest shard's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use sudoku::shard::Shard;

use crate::summary::{MergedShard, PuzzleRow, RunConfig, RunSummary};

/// Why shards could not be merged; every message names the file or the shard at fault.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A part could not be read or is not a bench-runner JSON report with a `state`.
    #[error("{path}: {message}")]
    Part {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// The parts do not make up one run exactly once.
    #[error("{0}")]
    Shards(String),
}

struct Part {
    path: PathBuf,
    run: RunSummary,
}

fn part_error(path: &Path, message: impl Into<String>) -> MergeError {
    MergeError::Part {
        path: path.display().to_string(),
        message: message.into(),
    }
}

fn read_part(path: &Path) -> Result<Part, MergeError> {
    let text = std::fs::read_to_string(path).map_err(|e| part_error(path, e.to_string()))?;
    let mut top: Value =
        serde_json::from_str(&text).map_err(|e| part_error(path, format!("not JSON: {e}")))?;
    let state = top.get_mut("state").map(Value::take).ok_or_else(|| {
        part_error(
            path,
            "not a bench-runner JSON report (no `state`); write the parts with --json",
        )
    })?;
    let mut run: RunSummary = serde_json::from_value(state)
        .map_err(|e| part_error(path, format!("unreadable `state`: {e}")))?;
    if let Some(rows) = top.get_mut("per_puzzle").map(Value::take) {
        run.rows = serde_json::from_value::<Vec<PuzzleRow>>(rows)
            .map_err(|e| part_error(path, format!("unreadable `per_puzzle`: {e}")))?;
    }
    if run.partial {
        return Err(part_error(
            path,
            "is a partial run (interrupted by Ctrl-C): run that shard again",
        ));
    }
    if !run.merged.is_empty() {
        return Err(part_error(
            path,
            "is already a merged report: merge the shards' own reports",
        ));
    }
    Ok(Part {
        path: path.to_path_buf(),
        run,
    })
}

/// The options that must be equal for reports to be parts of one run, as (name, value) pairs.
fn run_identity(c: &RunConfig) -> Vec<(&'static str, String)> {
    vec![
        ("kind", c.kind.clone()),
        ("solvers", c.solvers.join(",")),
        ("solution limit", c.solution_limit.to_string()),
        ("node limit", format!("{:?}", c.node_limit)),
        (
            "baseline node limit",
            format!("{:?}", c.baseline_node_limit),
        ),
        ("time limit", format!("{:?}", c.time_limit_ms)),
        ("sample", format!("{:?}", c.sample)),
        ("seed", c.seed.to_string()),
        ("shard count", c.shard.map_or(1, |s| s.count).to_string()),
    ]
}

/// Merges the shards' reports; the result renders like any run (table, JSON, CSV, HTML, plots).
pub fn merge(paths: &[PathBuf]) -> Result<RunSummary, MergeError> {
    let mut parts = paths
        .iter()
        .map(|p| read_part(p))
        .collect::<Result<Vec<Part>, MergeError>>()?;
    let Some(first) = parts.first() else {
        return Err(MergeError::Shards("no report to merge".into()));
    };
    let identity = run_identity(&first.run.config);
    for p in &parts[1..] {
        for ((name, want), (_, got)) in identity.iter().zip(run_identity(&p.run.config)) {
            if *want != got {
                return Err(MergeError::Shards(format!(
                    "{} and {} are not parts of one run: {name} {want} vs {got}",
                    first.path.display(),
                    p.path.display()
                )));
            }
        }
    }
    let count = first.run.config.shard.map_or(1, |s| s.count);
    let mut by_index: BTreeMap<u64, &Part> = BTreeMap::new();
    for p in &parts {
        let shard = p.run.config.shard.unwrap_or(Shard::WHOLE);
        if let Some(other) = by_index.insert(shard.index, p) {
            return Err(MergeError::Shards(format!(
                "shard {shard} is given twice: {} and {}",
                other.path.display(),
                p.path.display()
            )));
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Shards(format!(
            "shard{} {} missing: every shard 0/{count} to {}/{count} must be given once",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            count - 1
        )));
    }
    parts.sort_by_key(|p| p.run.config.shard.map_or(0, |s| s.index));
    let base = &parts[0];
    for p in &parts[1..] {
        let names = |r: &RunSummary| {
            r.datasets
                .iter()
                .map(|d| d.name.clone())
                .collect::<Vec<_>>()
        };
        if names(&p.run) != names(&base.run) {
            return Err(MergeError::Shards(format!(
                "{} and {} ran different datasets: {:?} vs {:?}",
                base.path.display(),
                p.path.display(),
                names(&base.run),
                names(&p.run)
            )));
        }
    }

    let mut merged = base.run.clone();
    merged.config.shard = None;
    merged.scaling = None;
    for p in &parts[1..] {
        for (mine, theirs) in merged.datasets.iter_mut().zip(&p.run.datasets) {
            mine.puzzles += theirs.puzzles;
            mine.disagreements += theirs.disagreements;
            mine.naive_limited += theirs.naive_limited;
            for (a, b) in mine.solvers.iter_mut().zip(&theirs.solvers) {
                a.absorb(b);
            }
        }
        merged.rows.extend(p.run.rows.iter().cloned());
    }
    let order: BTreeMap<&str, usize> = merged
        .datasets
        .iter()
        .enumerate()
        .map(|(i, d)| (d.name.as_str(), i))
        .collect();
    let solver_order: BTreeMap<&str, usize> = merged
        .config
        .solvers
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    merged.rows.sort_by_key(|r| {
        (
            order.get(r.dataset.as_str()).copied(),
            r.line,
            solver_order.get(r.solver.as_str()).copied(),
        )
    });
    merged.merged = parts
        .iter()
        .map(|p| MergedShard {
            shard: p.run.config.shard.unwrap_or(Shard::WHOLE),
            file: p.path.display().to_string(),
            wall_secs: p.run.wall_secs,
            machine: p.run.config.machine.clone(),
            threads: p.run.config.threads,
            git_revision: p.run.config.git_revision.clone(),
        })
        .collect();
    merged.wall_secs = parts.iter().map(|p| p.run.wall_secs).fold(0.0, f64::max);
    let revisions: Vec<&str> = {
        let mut r: Vec<&str> = parts
            .iter()
            .map(|p| p.run.config.git_revision.as_str())
            .collect();
        r.sort_unstable();
        r.dedup();
        r
    };
    merged.config.git_revision = revisions.join("+");
    Ok(merged)
}
