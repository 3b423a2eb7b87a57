//! `--json FILE`: one object with the run configuration and a `results` array, one object per dataset x solver.
//!
//! The `state` key holds the whole run summary (counts, sums, histograms), which is what `bench-runner merge`
//! reads back to combine the reports of the shards of one run.

use std::path::PathBuf;

use serde_json::{json, Map, Value};

use super::{figures, is_count, Output, OutputError};
use crate::summary::RunSummary;

/// Writes the JSON report to a file.
pub struct Json {
    /// Destination.
    pub path: PathBuf,
}

/// Builds the report object (public so tests and other tools share the exact layout).
pub fn to_value(run: &RunSummary) -> Value {
    let mut results = Vec::new();
    for d in &run.datasets {
        for s in &d.solvers {
            let mut o = Map::new();
            o.insert("dataset".into(), json!(d.name));
            o.insert("solver".into(), json!(s.solver));
            o.insert("threads".into(), json!(run.config.threads));
            for (key, value) in figures(s) {
                let v = match value {
                    None => Value::Null,
                    Some(x) if is_count(key) => json!(x as u64),
                    Some(x) => json!(x),
                };
                o.insert(key.into(), v);
            }
            o.insert(
                "naive_compared".into(),
                json!(s.vs_naive.map(|p| p.puzzles)),
            );
            results.push(Value::Object(o));
        }
    }
    let datasets: Vec<Value> = run
        .datasets
        .iter()
        .map(|d| {
            json!({
                "name": d.name, "path": d.path, "puzzles": d.puzzles,
                "disagreements": d.disagreements, "naive_limited": d.naive_limited,
            })
        })
        .collect();
    let mut top = json!({
        "config": run.config,
        "seed": run.config.seed,
        "threads": run.config.threads,
        "cores": run.config.cores,
        "git_revision": run.config.git_revision,
        "partial": run.partial,
        "errors": run.errors(),
        "datasets": datasets,
        "results": results,
        "shard": run.config.shard,
        "wall_secs": run.wall_secs,
        "state": run,
    });
    if let Some((solver, points)) = &run.scaling {
        top["scaling"] = json!({ "solver": solver, "points": points });
    }
    if !run.rows.is_empty() {
        top["per_puzzle"] = json!(run.rows);
    }
    top
}

impl Output for Json {
    fn emit(&self, run: &RunSummary) -> Result<(), OutputError> {
        let text = serde_json::to_string_pretty(&to_value(run)).map_err(|e| OutputError {
            path: self.path.clone(),
            message: e.to_string(),
        })?;
        std::fs::write(&self.path, text + "\n").map_err(|e| OutputError::io(&self.path, e))
    }
}
