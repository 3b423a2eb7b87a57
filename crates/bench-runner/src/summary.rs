//! What a run measured, independent of the puzzle family: the input of every report format.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use sudoku::shard::Shard;

use crate::family::Verdict;
use crate::histogram::Histogram;

/// Per-verdict puzzle counts; they add up to the puzzles of the dataset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// At least one solution found and verified or not (see `errors`); includes `multiple`.
    pub solved: u64,
    /// Of `solved`: two or more solutions (only with `--limit 2`).
    pub multiple: u64,
    /// Proved to have no solution.
    pub unsatisfiable: u64,
    /// Unreadable entry or clashing givens.
    pub invalid: u64,
    /// Stopped by a node or time limit.
    pub limit: u64,
    /// Not supported by the solver (e.g. board too large).
    pub skipped: u64,
}

impl Counts {
    /// Counts one verdict.
    pub fn add(&mut self, v: Verdict) {
        match v {
            Verdict::Solved => self.solved += 1,
            Verdict::Multiple => {
                self.solved += 1;
                self.multiple += 1;
            }
            Verdict::Unsatisfiable => self.unsatisfiable += 1,
            Verdict::Invalid => self.invalid += 1,
            Verdict::Limit => self.limit += 1,
            Verdict::Skipped => self.skipped += 1,
        }
    }

    /// Adds another part's counts (a shard of the same dataset).
    pub fn absorb(&mut self, o: &Counts) {
        self.solved += o.solved;
        self.multiple += o.multiple;
        self.unsatisfiable += o.unsatisfiable;
        self.invalid += o.invalid;
        self.limit += o.limit;
        self.skipped += o.skipped;
    }

    /// Every puzzle counted (`multiple` is part of `solved`).
    pub fn total(&self) -> u64 {
        self.solved + self.unsatisfiable + self.invalid + self.limit + self.skipped
    }
}

/// Sums over the puzzles that naive DFS and this solver both concluded (solved or proved unsatisfiable), so the
/// speedup compares the same work; puzzles where naive hit its node limit are left out and counted.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Paired {
    /// Puzzles compared.
    pub puzzles: u64,
    /// This solver's solve time on them.
    pub time: Duration,
    /// Naive DFS's solve time on them.
    pub naive_time: Duration,
    /// This solver's nodes on them.
    pub nodes: u64,
    /// Naive DFS's nodes on them.
    pub naive_nodes: u64,
}

/// Everything measured for one dataset x solver.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SolverSummary {
    /// Registry name of the solver.
    pub solver: String,
    /// Per-verdict counts.
    pub counts: Counts,
    /// Wrong answers: solutions failing the independent check, or differing from the dataset's own solution.
    pub errors: u64,
    /// Wall time of the timed solve phases (verification and reading excluded).
    pub wall: Duration,
    /// Per-puzzle solve times of every puzzle the solver ran (not invalid, not skipped).
    pub times: Histogram,
    /// Per-puzzle solve times of the puzzles it concluded (solved or unsatisfiable): the cactus plot's data.
    pub concluded_times: Histogram,
    /// Sum and maximum of search nodes over the puzzles it ran.
    pub nodes_sum: u64,
    /// Largest node count of one puzzle.
    pub nodes_max: u64,
    /// Sum of guesses (branchings with more than one candidate).
    pub guesses_sum: u64,
    /// Largest guess count of one puzzle.
    pub guesses_max: u64,
    /// Solved puzzles that needed no guess at all.
    pub solved_without_guessing: u64,
    /// The comparison with naive DFS, when naive ran in the same run.
    pub vs_naive: Option<Paired>,
}

impl SolverSummary {
    /// Adds the figures of the same solver on another shard of the same dataset: counts, sums and histograms
    /// add, maxima take the larger; `wall` adds up to the total time the shards spent in their timed phases.
    pub fn absorb(&mut self, o: &SolverSummary) {
        self.counts.absorb(&o.counts);
        self.errors += o.errors;
        self.wall += o.wall;
        self.times.merge(&o.times);
        self.concluded_times.merge(&o.concluded_times);
        self.nodes_sum += o.nodes_sum;
        self.nodes_max = self.nodes_max.max(o.nodes_max);
        self.guesses_sum += o.guesses_sum;
        self.guesses_max = self.guesses_max.max(o.guesses_max);
        self.solved_without_guessing += o.solved_without_guessing;
        if let Some(p) = o.vs_naive {
            let mine = self.vs_naive.get_or_insert_with(Paired::default);
            mine.puzzles += p.puzzles;
            mine.time += p.time;
            mine.naive_time += p.naive_time;
            mine.nodes += p.nodes;
            mine.naive_nodes += p.naive_nodes;
        }
    }

    /// Puzzles the solver actually ran.
    pub fn ran(&self) -> u64 {
        self.times.count()
    }

    /// Puzzles per second of wall time, over the puzzles it ran.
    pub fn puzzles_per_sec(&self) -> f64 {
        per_sec(self.ran(), self.wall)
    }

    /// Puzzles per second of one thread's busy time (sum of per-puzzle solve times).
    pub fn puzzles_per_sec_per_thread(&self) -> f64 {
        per_sec(self.ran(), self.times.sum())
    }

    /// Mean nodes per puzzle run.
    pub fn nodes_mean(&self) -> f64 {
        ratio(self.nodes_sum, self.ran())
    }

    /// Mean guesses per puzzle run.
    pub fn guesses_mean(&self) -> f64 {
        ratio(self.guesses_sum, self.ran())
    }

    /// Share of solved puzzles solved without any guess (0 when none solved).
    pub fn no_guess_share(&self) -> f64 {
        ratio(self.solved_without_guessing, self.counts.solved)
    }

    /// Naive DFS time / this solver's time on the puzzles both concluded (`None` without naive or overlap).
    pub fn speedup_vs_naive(&self) -> Option<f64> {
        let p = self.vs_naive.filter(|p| p.puzzles > 0)?;
        Some(p.naive_time.as_secs_f64() / p.time.as_secs_f64().max(1e-9))
    }

    /// Naive DFS nodes / this solver's nodes on the same puzzles (a solver taking no decision at all counts as 1
    /// node, so the ratio stays finite).
    pub fn node_speedup_vs_naive(&self) -> Option<f64> {
        let p = self.vs_naive.filter(|p| p.puzzles > 0)?;
        Some(p.naive_nodes as f64 / p.nodes.max(1) as f64)
    }
}

fn per_sec(n: u64, d: Duration) -> f64 {
    if n == 0 {
        0.0
    } else {
        n as f64 / d.as_secs_f64().max(1e-9)
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// One dataset's results.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct DatasetSummary {
    /// Short name (file stem).
    pub name: String,
    /// Path as given or found.
    pub path: String,
    /// Entries read (after sampling), including invalid ones, excluding those dropped by Ctrl-C.
    pub puzzles: u64,
    /// Puzzles where solvers that concluded gave different answers.
    pub disagreements: u64,
    /// Puzzles where naive DFS hit its node limit (excluded from the speedup comparison).
    pub naive_limited: u64,
    /// One summary per solver, in the order of `--solvers`.
    pub solvers: Vec<SolverSummary>,
}

/// One row per puzzle x solver, kept only with `--per-puzzle`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PuzzleRow {
    /// Dataset name.
    pub dataset: String,
    /// 1-based input line.
    pub line: usize,
    /// Solver name.
    pub solver: String,
    /// Verdict name (`solved`, `multiple`, `unsatisfiable`, `invalid`, `limit`, `skipped`).
    pub status: String,
    /// Solutions found.
    pub solutions: u64,
    /// Search nodes.
    pub nodes: u64,
    /// Guesses.
    pub guesses: u64,
    /// Solve time in microseconds.
    pub micros: f64,
    /// The solution as one line, when found.
    pub solution: Option<String>,
    /// What went wrong: parse error, failed verification, mismatch with the dataset.
    pub error: Option<String>,
}

/// Throughput of one solver at one thread count (`--scaling`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScalingPoint {
    /// Worker threads.
    pub threads: usize,
    /// Puzzles per second of wall time over all datasets.
    pub puzzles_per_sec: f64,
    /// Throughput relative to one thread.
    pub speedup: f64,
    /// `speedup / threads`.
    pub efficiency: f64,
}

/// How the run was configured, recorded in machine-readable outputs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunConfig {
    /// Puzzle family (`--kind`).
    pub kind: String,
    /// Solvers in report order.
    pub solvers: Vec<String>,
    /// Worker threads (`-j`).
    pub threads: usize,
    /// Logical cores of the machine.
    pub cores: usize,
    /// Solutions asked for per puzzle: 1 first solution, 2 proves uniqueness.
    pub solution_limit: u64,
    /// Node limit per puzzle for every solver (`None`: unbounded).
    pub node_limit: Option<u64>,
    /// Node limit per puzzle for the baselines without propagation.
    pub baseline_node_limit: Option<u64>,
    /// The solvers of this run that the baseline node limit applies to.
    pub baselines: Vec<String>,
    /// Time limit per puzzle in milliseconds.
    pub time_limit_ms: Option<u64>,
    /// Warm-up per solver in milliseconds.
    pub warmup_ms: u64,
    /// Sample size per dataset (`None`: every entry, in file order).
    pub sample: Option<usize>,
    /// Seed of the sampling shuffle.
    pub seed: u64,
    /// Entries read and solved per chunk (the memory bound).
    pub chunk: usize,
    /// `git rev-parse --short HEAD` of the source tree, or "unknown".
    pub git_revision: String,
    /// The machine: host name, CPU model, OS and architecture (as far as they can be read).
    #[serde(default)]
    pub machine: String,
    /// When the run started, `YYYY-MM-DD HH:MM UTC`.
    #[serde(default)]
    pub started: String,
    /// The part of each dataset this run solved (`--shard`, Slurm or Kubernetes); `None` for the whole input.
    #[serde(default)]
    pub shard: Option<Shard>,
}

/// How the shards of a merged report ran (`bench-runner merge`): their timings cannot be combined into one
/// wall time, so the report says what it added up.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MergedShard {
    /// Which shard.
    pub shard: Shard,
    /// The JSON file it came from.
    pub file: String,
    /// Wall time of the whole shard run (reading, solving, checking), in seconds.
    pub wall_secs: f64,
    /// Its machine.
    pub machine: String,
    /// Its worker threads.
    pub threads: usize,
    /// Its source revision.
    pub git_revision: String,
}

/// A whole run: what every report format renders, and (without the per-puzzle rows, which travel in the JSON's
/// `per_puzzle` array) what a shard's JSON report carries for `bench-runner merge`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunSummary {
    /// The configuration.
    pub config: RunConfig,
    /// Per-dataset results in input order.
    pub datasets: Vec<DatasetSummary>,
    /// Per-puzzle rows (empty unless `--per-puzzle`).
    #[serde(skip)]
    pub rows: Vec<PuzzleRow>,
    /// Thread-scaling points (empty unless `--scaling`), with the solver measured.
    pub scaling: Option<(String, Vec<ScalingPoint>)>,
    /// True when Ctrl-C stopped the run before every puzzle was solved.
    pub partial: bool,
    /// Wall time of the whole run (reading, solving, checking), in seconds; for a merged report, the slowest
    /// shard's.
    #[serde(default)]
    pub wall_secs: f64,
    /// The shards a merged report was built from, in shard order; empty for a run of its own.
    #[serde(default)]
    pub merged: Vec<MergedShard>,
}

impl RunSummary {
    /// Wrong answers plus disagreements over the whole run.
    pub fn errors(&self) -> u64 {
        self.datasets
            .iter()
            .map(|d| d.disagreements + d.solvers.iter().map(|s| s.errors).sum::<u64>())
            .sum()
    }

    /// True when every puzzle was solved by every solver (nothing invalid, unsatisfiable, limited or skipped).
    pub fn all_solved(&self) -> bool {
        self.datasets
            .iter()
            .flat_map(|d| &d.solvers)
            .all(|s| s.counts.solved == s.counts.total())
    }
}
