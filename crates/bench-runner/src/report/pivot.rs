//! The summary every report opens with: solvers as rows, datasets as columns, so "which heuristic pays off, and by
//! how much against naive DFS" is read at a glance instead of dug out of the detailed table.
//!
//! Per dataset, solvers are ranked by throughput (puzzles per second of wall time; 1 = fastest). Rows are ordered
//! by each solver's mean rank over the datasets it ran, ties kept in run order. Speedups over naive DFS (time and
//! nodes) compare only the puzzles both concluded, as in the detailed table.

use crate::summary::{RunSummary, SolverSummary};

/// One solver on one dataset.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Puzzles per second of wall time.
    pub puzzles_per_sec: f64,
    /// 1-based rank by throughput among the solvers that ran puzzles of this dataset.
    pub rank: usize,
    /// Naive DFS time / this solver's time, when naive ran and both concluded some puzzle.
    pub time_speedup: Option<f64>,
    /// Naive DFS nodes / this solver's nodes on the same puzzles.
    pub node_speedup: Option<f64>,
    /// Puzzles this solver ran but left without an answer (node or time limit).
    pub limited: u64,
}

/// One solver across the datasets.
#[derive(Clone, Debug)]
pub struct Row {
    /// Registry name.
    pub solver: String,
    /// One cell per dataset, in run order; `None` where the solver ran no puzzle of it.
    pub cells: Vec<Option<Cell>>,
    /// Mean of the ranks of the cells present (`f64::INFINITY` when none).
    pub mean_rank: f64,
}

/// The summary rows of a run, best mean rank first.
pub fn rows(run: &RunSummary) -> Vec<Row> {
    let n = run.config.solvers.len();
    let mut rows: Vec<Row> = (0..n)
        .map(|k| Row {
            solver: run.config.solvers[k].clone(),
            cells: Vec::with_capacity(run.datasets.len()),
            mean_rank: f64::INFINITY,
        })
        .collect();
    for d in &run.datasets {
        let ran: Vec<(usize, &SolverSummary)> = d
            .solvers
            .iter()
            .enumerate()
            .filter(|(_, s)| s.ran() > 0)
            .collect();
        for (k, row) in rows.iter_mut().enumerate() {
            let cell = ran.iter().find(|(j, _)| *j == k).map(|(_, s)| {
                let pps = s.puzzles_per_sec();
                Cell {
                    puzzles_per_sec: pps,
                    rank: 1 + ran
                        .iter()
                        .filter(|(_, o)| o.puzzles_per_sec() > pps)
                        .count(),
                    time_speedup: s.speedup_vs_naive(),
                    node_speedup: s.node_speedup_vs_naive(),
                    limited: s.counts.limit,
                }
            });
            row.cells.push(cell);
        }
    }
    for row in &mut rows {
        let ranks: Vec<f64> = row.cells.iter().flatten().map(|c| c.rank as f64).collect();
        if !ranks.is_empty() {
            row.mean_rank = ranks.iter().sum::<f64>() / ranks.len() as f64;
        }
    }
    // A stable sort keeps the run order among equal mean ranks.
    rows.sort_by(|a, b| a.mean_rank.total_cmp(&b.mean_rank));
    rows
}

/// True when some solver of the run has naive-DFS speedups to show.
pub fn has_speedups(rows: &[Row]) -> bool {
    rows.iter()
        .flat_map(|r| r.cells.iter().flatten())
        .any(|c| c.time_speedup.is_some())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::summary::{DatasetSummary, RunConfig};
    use std::time::Duration;

    fn solver(name: &str, puzzles: u64, wall_ms: u64) -> SolverSummary {
        let mut s = SolverSummary {
            solver: name.into(),
            wall: Duration::from_millis(wall_ms),
            ..Default::default()
        };
        for _ in 0..puzzles {
            s.times.record(Duration::from_micros(10));
        }
        s
    }

    fn run(datasets: Vec<Vec<SolverSummary>>) -> RunSummary {
        let solvers = datasets[0].iter().map(|s| s.solver.clone()).collect();
        RunSummary {
            config: RunConfig {
                kind: "sudoku".into(),
                solvers,
                threads: 1,
                cores: 1,
                solution_limit: 1,
                node_limit: None,
                baseline_node_limit: None,
                baselines: vec![],
                time_limit_ms: None,
                warmup_ms: 0,
                sample: None,
                seed: 1,
                chunk: 1,
                git_revision: "x".into(),
                machine: String::new(),
                started: String::new(),
                shard: None,
            },
            datasets: datasets
                .into_iter()
                .enumerate()
                .map(|(i, solvers)| DatasetSummary {
                    name: format!("d{i}"),
                    solvers,
                    ..Default::default()
                })
                .collect(),
            rows: vec![],
            scaling: None,
            partial: false,
            wall_secs: 0.0,
            merged: vec![],
        }
    }

    #[test]
    fn solvers_are_ranked_per_dataset_and_ordered_by_mean_rank() {
        let r = run(vec![
            vec![
                solver("slow", 10, 100),
                solver("fast", 10, 1),
                solver("mid", 10, 10),
            ],
            vec![
                solver("slow", 10, 100),
                solver("fast", 10, 20),
                solver("mid", 10, 10),
            ],
        ]);
        let rows = rows(&r);
        let order: Vec<&str> = rows.iter().map(|r| r.solver.as_str()).collect();
        assert_eq!(
            order,
            ["fast", "mid", "slow"],
            "mean ranks 1.5, 1.5 (run order), 3"
        );
        let fast = &rows[0];
        assert_eq!(fast.cells[0].as_ref().unwrap().rank, 1);
        assert_eq!(fast.cells[1].as_ref().unwrap().rank, 2);
        assert_eq!(rows[2].mean_rank, 3.0);
    }

    #[test]
    fn a_solver_that_ran_nothing_has_no_cell_and_goes_last() {
        let r = run(vec![vec![solver("idle", 0, 0), solver("busy", 5, 5)]]);
        let rows = rows(&r);
        assert_eq!(rows[0].solver, "busy");
        assert!(rows[1].cells[0].is_none());
        assert!(rows[1].mean_rank.is_infinite());
        assert!(!has_speedups(&rows));
    }
}
