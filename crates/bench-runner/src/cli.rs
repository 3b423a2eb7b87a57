//! Command-line arguments.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

/// Solves puzzle datasets with every chosen solver and reports throughput, latency, nodes and guesses against
/// naive DFS.
///
/// With no FILE, runs the datasets shipped in the workspace's `datasets/` folder (see `--help` of DATASETS).
#[derive(Debug, Parser)]
#[command(name = "bench-runner", version, about, long_about = None)]
pub struct Args {
    /// Dataset files (one puzzle per line, multi-line grids, or `puzzle,solution` CSV); `-` is stdin.
    /// Default: `datasets/generated/*.txt` and `datasets/famous/*.txt` (or every `datasets/**/*.txt` when those are
    /// missing), found from the current directory or the workspace.
    #[arg(value_name = "FILE")]
    pub inputs: Vec<PathBuf>,

    /// Puzzle family of the datasets.
    #[arg(long, value_enum, default_value_t = Kind::Sudoku)]
    pub kind: Kind,

    /// Comma-separated solver names (default: the whole registry).
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    pub solvers: Vec<String>,

    /// Print the registry (names and one-line descriptions) and exit.
    #[arg(long)]
    pub list: bool,

    /// Worker threads (default: all cores); 1 is a plain sequential loop for clean per-puzzle latency.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,

    /// Solutions to look for per puzzle: 1 = first solution, 2 = prove uniqueness.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=2))]
    pub limit: u64,

    /// Node limit per puzzle for every solver (default: none).
    #[arg(long, value_name = "NODES")]
    pub node_limit: Option<u64>,

    /// Node limit per puzzle for the DFS baselines without propagation (`naive`, `table`, `csp-check`), which can
    /// take billions of nodes on a hard 9x9, so the default run ends (0 = none).
    #[arg(
        long,
        alias = "naive-node-limit",
        value_name = "NODES",
        default_value_t = 1_000_000
    )]
    pub baseline_node_limit: u64,

    /// Time limit per puzzle in seconds (0 = none).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds)]
    pub time_limit: f64,

    /// Solve a random sample of N entries per dataset (reservoir sampling: memory for N entries), in shuffled order.
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,

    /// Seed for `--sample`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Untimed warm-up per solver and dataset, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub warmup_ms: u64,

    /// Entries read and solved per chunk: the memory bound on large files.
    #[arg(long, value_name = "N", default_value_t = 8192, value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk: u64,

    /// Print every column in the table (counts, per-thread rate, all percentiles, maxima, node speedup).
    #[arg(long)]
    pub wide: bool,

    /// Write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Write the report as CSV to FILE (and per-puzzle rows to FILE.puzzles.csv with --per-puzzle).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// Keep one row per puzzle x solver in the JSON/CSV outputs (memory grows with the dataset).
    #[arg(long)]
    pub per_puzzle: bool,

    /// Write SVG plots (cactus plot per dataset, time histogram per solver) into DIR.
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,

    /// Measure thread scaling of the first chosen solver (default `fast`) at 1, 2, ... all cores.
    #[arg(long)]
    pub scaling: bool,
}

/// Parses `--time-limit`: a finite, non-negative number of seconds that fits a `Duration` (not NaN, `inf` or
/// `1e30`, which would make the conversion panic).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if secs < 0.0 || std::time::Duration::try_from_secs_f64(secs).is_err() {
        return Err(format!(
            "`{s}` is not a time limit (seconds from 0 = none to about 1.8e19)"
        ));
    }
    Ok(secs)
}

/// Puzzle families the runner knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// Sudoku of every size, through the `sudoku` crate's registry.
    Sudoku,
    /// N-Queens (one board size per file).
    Queens,
    /// Graph colouring of DIMACS `.col` graphs.
    Color,
    /// Latin square completion.
    Latin,
    /// Killer Sudoku.
    Killer,
    /// KenKen.
    Kenken,
}

impl Kind {
    /// The `puzzles` crate's family, for every kind but Sudoku.
    pub fn puzzles_kind(self) -> Option<puzzles::Kind> {
        match self {
            Kind::Sudoku => None,
            Kind::Queens => Some(puzzles::Kind::Queens),
            Kind::Color => Some(puzzles::Kind::Color),
            Kind::Latin => Some(puzzles::Kind::Latin),
            Kind::Killer => Some(puzzles::Kind::Killer),
            Kind::Kenken => Some(puzzles::Kind::Kenken),
        }
    }
}
