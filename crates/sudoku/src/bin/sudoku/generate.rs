//! `sudoku generate`: unique puzzles for a board size and seed, rated, one line each on stdout.
//!
//! Output: a `#` header line naming the command and the rater (the reader skips it), then one puzzle per line
//! in the line format with the rating as a trailing comment (see [`sudoku::generate::Generated::to_line`]).
//! Progress goes to stderr when it is a terminal; a summary line always does. Exit codes: 0 when every
//! requested puzzle was written, 1 when the candidate budget ran out first (the puzzles found are written) or
//! the solvers disagreed, 2 on bad options or output errors.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::time::Instant;

use clap::Args;

use super::input::{self, is_broken_pipe};
use super::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use sudoku::generate::{generate_each, GenerateError, GenerateOptions, Generator, Target};
use sudoku::shard::Shard;

/// Options of `sudoku generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Board side: 4, 9, 16, 25 or 36.
    #[arg(long, default_value = "9", value_parser = input::parse_size)]
    pub size: usize,
    /// Number of puzzles to write.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Seed of the run: the same seed and options give the same puzzles, whatever the thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Remove clues until none can go (the default).
    #[arg(long, conflicts_with = "clues")]
    pub minimal: bool,
    /// Remove clues until exactly this many remain (grids that cannot get there are skipped).
    #[arg(long)]
    pub clues: Option<usize>,
    /// Remove clues in 180-degree symmetric pairs.
    #[arg(long)]
    pub symmetric: bool,
    /// Keep only puzzles rated at least this many guesses.
    #[arg(long)]
    pub min_rating: Option<u64>,
    /// Keep only puzzles rated at most this many guesses.
    #[arg(long)]
    pub max_rating: Option<u64>,
    /// Solver whose guesses rate the puzzles (default: csp-mrv-singles if registered, else fast).
    #[arg(long)]
    pub rater: Option<String>,
    /// Node limit of each uniqueness check and rating (default: none up to 9x9, 20000 above). A check stopped
    /// by it keeps its clue (marked `unproven=` on the line).
    #[arg(long)]
    pub node_limit: Option<u64>,
    /// Give up after this many candidates (default: 1000 per requested puzzle).
    #[arg(long)]
    pub max_attempts: Option<u64>,
    /// Worker threads (0 = all cores). The output does not depend on it.
    #[arg(short = 'j', long, default_value_t = 0, value_parser = input::parse_threads)]
    pub threads: usize,
    /// Leave out the `#` header line.
    #[arg(long)]
    pub no_header: bool,
    /// Explore only shard I of N of the candidate stream (candidates whose number k has k % N == I; I is
    /// 0-based) and write this shard's share of `--count` (and of `--max-attempts`): the N shards of one seed,
    /// run as independent processes, try every candidate once and write `--count` puzzles together. Without the
    /// flag, Slurm job arrays or Kubernetes Indexed Jobs give I and N (see `sudoku::shard`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

/// The share of `total` that shard `shard` takes: `total / N`, plus one for the first `total % N` shards.
fn share(total: u64, shard: Shard) -> u64 {
    total / shard.count + u64::from(shard.index < total % shard.count)
}

impl GenerateArgs {
    fn options(&self, shard: Shard) -> GenerateOptions {
        let mut options = GenerateOptions::new(self.size);
        options.shard = shard;
        options.target = match self.clues {
            Some(c) => Target::Clues(c),
            None => Target::Minimal,
        };
        options.symmetric = self.symmetric;
        options.min_rating = self.min_rating;
        options.max_rating = self.max_rating;
        options.rater = self.rater.clone();
        if self.node_limit.is_some() {
            options.node_limit = self.node_limit;
        }
        options
    }

    /// The options that decide the output, as a command line (for the header). The node limit is spelled out
    /// even when it is the size's default, so the line reproduces the file if the default ever changes.
    fn command_line(&self, rater: &str, node_limit: Option<u64>, shard: Shard) -> String {
        let side = self.size * self.size;
        let mut cmd = format!(
            "sudoku generate --size {side} --count {} --seed {}",
            self.count, self.seed
        );
        match self.clues {
            Some(c) => cmd.push_str(&format!(" --clues {c}")),
            None => cmd.push_str(" --minimal"),
        }
        if self.symmetric {
            cmd.push_str(" --symmetric");
        }
        if let Some(r) = self.min_rating {
            cmd.push_str(&format!(" --min-rating {r}"));
        }
        if let Some(r) = self.max_rating {
            cmd.push_str(&format!(" --max-rating {r}"));
        }
        cmd.push_str(&format!(" --rater {rater}"));
        if let Some(n) = node_limit {
            cmd.push_str(&format!(" --node-limit {n}"));
        }
        if !shard.is_whole() {
            cmd.push_str(&format!(" --shard {shard}"));
        }
        cmd
    }
}

/// Runs `sudoku generate`.
pub fn run(args: &GenerateArgs) -> u8 {
    let shard = match Shard::resolve(args.shard) {
        Ok(s) => s.unwrap_or(Shard::WHOLE),
        Err(e) => {
            eprintln!("sudoku generate: {e}");
            return EXIT_USAGE;
        }
    };
    let options = args.options(shard);
    // This shard's part of the puzzles and of the candidate budget (all of them without shards).
    let count = usize::try_from(share(args.count as u64, shard)).unwrap_or(usize::MAX);
    if !shard.is_whole() {
        eprintln!(
            "sudoku generate: shard {shard}: candidates k with k % {} == {}, {count} of the {} puzzles",
            shard.count, shard.index, args.count
        );
    }
    let rater = match Generator::new(&options) {
        Ok(g) => g.rater_name(),
        Err(e) => {
            eprintln!("sudoku generate: {e}");
            return EXIT_USAGE;
        }
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "sudoku generate: cannot start {} threads: {e}",
                args.threads
            );
            return EXIT_USAGE;
        }
    };
    let budget = match args.max_attempts {
        Some(total) => share(total, shard),
        None => (count as u64).saturating_mul(1000).max(1000),
    };
    let show_progress = io::stderr().is_terminal();
    let start = Instant::now();
    // Not `stdout().lock()`: the sink runs inside the pool's `install`, which needs a `Send` writer.
    let mut out = BufWriter::new(io::stdout());
    let mut write_error: Option<io::Error> = None;
    if !args.no_header {
        let limit = match options.node_limit {
            Some(n) => format!("node limit {n}"),
            None => "no node limit".to_string(),
        };
        if let Err(e) = writeln!(
            out,
            "# {} ({limit}; rating = guesses of `{rater}` counting solutions to 2)",
            args.command_line(rater, options.node_limit, shard)
        ) {
            write_error = Some(e);
        }
    }
    let mut written = 0usize;
    let result = if write_error.is_some() {
        None
    } else {
        Some(pool.install(|| {
            generate_each(&options, args.seed, count, budget, |g| {
                let line = g.to_line();
                if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                    write_error = Some(e);
                    return ControlFlow::Break(());
                }
                written += 1;
                if show_progress {
                    eprint!("\rgenerated {written}/{count}");
                }
                ControlFlow::Continue(())
            })
        }))
    };
    if show_progress && written > 0 {
        eprintln!();
    }
    if let Err(e) = out.flush() {
        write_error.get_or_insert(e);
    }
    if let Some(e) = write_error {
        // A closed pipe (`sudoku generate --count 1000 | head`): every puzzle written is good, stop quietly.
        if is_broken_pipe(&e) {
            return EXIT_OK;
        }
        eprintln!("sudoku generate: writing output: {e}");
        return EXIT_USAGE;
    }
    let secs = start.elapsed().as_secs_f64();
    match result {
        Some(Ok(summary)) => {
            eprintln!(
                "sudoku generate: {} puzzles from {} candidates in {secs:.2}s (rater {})",
                summary.kept, summary.tried, summary.rater
            );
            EXIT_OK
        }
        Some(Err(e @ GenerateError::OutOfCandidates { .. })) => {
            eprintln!("sudoku generate: {e}");
            EXIT_FAILED
        }
        Some(Err(e @ GenerateError::Disagreement { .. })) => {
            eprintln!("sudoku generate: {e}");
            EXIT_FAILED
        }
        Some(Err(e)) => {
            eprintln!("sudoku generate: {e}");
            EXIT_USAGE
        }
        None => EXIT_USAGE,
    }
}
