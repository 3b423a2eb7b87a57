//! Command-line arguments.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use sudoku::shard::Shard;

/// Solves puzzle datasets with every chosen solver and reports throughput, latency, nodes and guesses against
/// naive DFS.
///
/// With no FILE, runs the datasets shipped in the workspace's `datasets/` folder (see `--help` of DATASETS).
///
/// Exit status: 0 when the run finished and every answer was verified (puzzles stopped at a node or time limit
/// are results, reported as such); 1 with `--strict` when some puzzle ended without an answer; 2 usage or I/O
/// error; 3 a wrong answer or a disagreement between solvers; 130 interrupted (the partial report is written).
#[derive(Debug, Parser)]
#[command(name = "bench-runner", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Args {
    /// `merge`: one report from the JSON reports of a sharded run.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Dataset files (one puzzle per line, multi-line grids, or `puzzle,solution` CSV); `-` is stdin.
    /// Default: `datasets/generated/*.txt` and `datasets/famous/*.txt` (or every `datasets/**/*.txt` when those are
    /// missing), found from the current directory or the workspace.
    #[arg(value_name = "FILE")]
    pub inputs: Vec<PathBuf>,

    /// Puzzle family of the datasets: `sudoku`, `minizinc` (lists of MiniZinc models run through `minizinc` by
    /// csp-core and Gecode; default list `share/minizinc/models/bench.txt`), or a family of the `puzzles` crate
    /// (its `FAMILIES` list, which [`parse_args`] writes into this help; an unknown name is an error that lists them).
    #[arg(long, value_name = "KIND", default_value = "sudoku", value_parser = parse_kind)]
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

    /// Count solutions exactly up to N per puzzle (instead of `--limit`); solvers must agree on every count.
    #[arg(long, value_name = "N", conflicts_with = "limit", value_parser = clap::value_parser!(u64).range(1..))]
    pub count_limit: Option<u64>,

    /// Solve only shard I of N of every dataset (entries whose 0-based index k has k % N == I; I is 0-based),
    /// for runs split over independent processes; merge their `--json` reports with `bench-runner merge`.
    /// Without the flag, Slurm job arrays (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`) or Kubernetes
    /// Indexed Jobs (`JOB_COMPLETION_INDEX`, `JOB_COMPLETIONS`) give I and N.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,

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

    /// Keep one row per puzzle x solver in the JSON/CSV outputs (memory grows with the dataset).
    #[arg(long)]
    pub per_puzzle: bool,

    /// Report formats and the exit rule, shared with `merge`.
    #[command(flatten)]
    pub report: ReportArgs,

    /// Write the HTML report (summary, tables, plots, configuration; one self-contained page) to FILE.
    /// Default: `target/bench-report/index.html` of the workspace.
    #[arg(long, value_name = "FILE", conflicts_with = "no_html")]
    pub html: Option<PathBuf>,

    /// Do not write the HTML report.
    #[arg(long)]
    pub no_html: bool,

    /// Measure thread scaling of the first chosen solver (default `fast`) at 1, 2, ... all cores.
    #[arg(long)]
    pub scaling: bool,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Merge the `--json` reports of the shards of one run into one report (table, JSON, CSV, HTML, plots).
    ///
    /// Counts, nodes, guesses and solutions add up to what the unsharded run gives; timings cannot be combined
    /// into one wall time: puzzles/s divides by the sum of the shards' timed phases, and the report names the
    /// slowest shard's wall time. Every shard 0..N-1 must be given exactly once, from runs with the same options.
    Merge(MergeArgs),
}

/// Options of `bench-runner merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shards' JSON reports (`bench-runner --shard I/N --json PART.json`), in any order.
    #[arg(value_name = "PART.json", required = true)]
    pub parts: Vec<PathBuf>,

    /// Report formats and the exit rule, as for a run.
    #[command(flatten)]
    pub report: ReportArgs,

    /// Write the merged HTML report to FILE (default: none).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// The report options a run and `merge` share (the HTML page has its own, since their defaults differ).
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// Print every column in the table (counts, per-thread rate, all percentiles, maxima, node speedup).
    #[arg(long)]
    pub wide: bool,

    /// Write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Write the report as CSV to FILE (and per-puzzle rows to FILE.puzzles.csv with --per-puzzle).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,

    /// Write SVG plots (cactus plot per dataset, time histogram per solver) into DIR.
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,

    /// Exit with status 1 when any puzzle ended without an answer (invalid, unsatisfiable, limit or skipped).
    #[arg(long)]
    pub strict: bool,
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

/// The `--kind` of a run: Sudoku (the `sudoku` crate's registry), MiniZinc models (`minizinc`, through the
/// `minizinc` driver), or one of the `puzzles` crate's families, whose one list (`puzzles::FAMILIES`) is the only
/// place a family is named, so a new family needs no line here.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Sudoku datasets.
    Sudoku,
    /// MiniZinc model lists (`bench_runner::minizinc_family`).
    Minizinc,
    /// A family of the `puzzles` crate.
    Puzzles(&'static puzzles::Family),
}

impl Kind {
    /// The `puzzles` crate's family, for the kinds that are one.
    pub fn puzzles_family(self) -> Option<&'static puzzles::Family> {
        match self {
            Kind::Puzzles(k) => Some(k),
            _ => None,
        }
    }
}

/// The arguments of this process, with `--kind`'s help naming every family of `puzzles::FAMILIES` (the list is
/// read at run time, so a family added there shows in `--help` with no edit here).
pub fn parse_args() -> Args {
    use clap::{CommandFactory, FromArgMatches};
    let names: Vec<&str> = puzzles::FAMILIES.iter().map(|f| f.name).collect();
    let help = format!(
        "Puzzle family of the datasets: `sudoku`, `minizinc` (lists of MiniZinc models run through `minizinc` by \
         csp-core and Gecode; default list `share/minizinc/models/bench.txt`), or a family of the `puzzles` crate \
         ({}; each runs the `datasets/puzzles/` folders its descriptor names; an unknown name is an error that \
         lists them)",
        names.join(", ")
    );
    let matches = Args::command()
        .mut_arg("kind", |a| a.help(help))
        .get_matches();
    Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Parses `--kind`: `sudoku`, `minizinc`, or a name of `puzzles::FAMILIES`.
pub fn parse_kind(s: &str) -> Result<Kind, String> {
    match s {
        "sudoku" => return Ok(Kind::Sudoku),
        "minizinc" => return Ok(Kind::Minizinc),
        _ => {}
    }
    puzzles::family(s)
        .map(Kind::Puzzles)
        .map_err(|e| format!("{e}, sudoku or minizinc"))
}
