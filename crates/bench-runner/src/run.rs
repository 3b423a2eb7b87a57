//! Running every contender on every puzzle: streaming chunks, the sequential and the rayon path, limits,
//! warm-up, verification and cross-checks outside the timed region, and Ctrl-C.
//!
//! Method (after tdoku's `run_benchmark.cc`):
//! - a dataset goes through `sudoku::pipeline::Pipeline`, the ordered pipeline `sudoku solve` uses too, in chunks
//!   of `chunk` entries (or, with `--sample N`, reservoir-sampled to N entries and shuffled with the seed first),
//!   so memory is bounded by a few chunks whatever the file size; with a spare core the next chunk is read on a
//!   thread of its own while this one is solved (when the solve uses every core, reading in between keeps the
//!   parser from stealing time from the timed phase);
//! - each chunk is solved by each contender in turn; only the solve calls are timed (per puzzle, and the wall time
//!   of the whole chunk for throughput); reading, verification and cross-checks happen outside;
//! - `-j 1` runs a plain loop on the calling thread with one solver instance (clean per-puzzle latency); `-j N`
//!   runs the chunk on a rayon pool of N threads, one solver instance per contender and pool thread, built on the
//!   thread's first puzzle and kept for the whole run (`sudoku::per_thread::PerThread`, which cannot deadlock
//!   when a solver uses rayon inside a solve), and `collect`s so results stay in input
//!   order;
//! - before its first timed chunk, each contender solves puzzles of the first chunk untimed for `warmup`;
//! - when Ctrl-C raises the cancel flag, in-flight solves stop at their next limit check and are dropped, as are
//!   puzzles not yet started; each solver's figures count what it finished, and cross-checks and speedups compare
//!   only puzzles finished by both sides.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use csp_core::rng::Rng;
use csp_core::Limits;
use indicatif::ProgressBar;
use rayon::prelude::*;
use sudoku::per_thread::PerThread;
use sudoku::pipeline::{Flow, Pipeline};
use sudoku::shard::Shard;

use crate::family::{Answer, Family, Record, Verdict};
use crate::summary::{DatasetSummary, Paired, PuzzleRow, SolverSummary};

/// The name of the naive DFS baseline, against which speedups are measured.
pub const NAIVE: &str = "naive";

/// Solvers that search without propagation (the seeds' DFS and its engine analogue): they get the baseline node
/// limit, since one hard 9x9 can cost them billions of nodes. Measured on `datasets/famous/top95.txt`: with 1M
/// nodes `naive` concludes 65 of 95 puzzles, and `csp-check` (about 0.7M nodes/s) would need 5 s per puzzle at
/// 10 s of time limit.
pub const BASELINES: &[&str] = &[NAIVE, "table", "csp-check"];

/// How to run (everything but the inputs and the report formats).
#[derive(Clone, Debug)]
pub struct Options {
    /// Contenders, in report order.
    pub solvers: Vec<String>,
    /// Worker threads; 1 selects the sequential path.
    pub threads: usize,
    /// 1: first solution; 2: prove uniqueness.
    pub solution_limit: u64,
    /// Node limit per puzzle for every solver.
    pub node_limit: Option<u64>,
    /// Node limit per puzzle for the [`BASELINES`] (the tighter of this and `node_limit` applies).
    pub baseline_node_limit: Option<u64>,
    /// Time limit per puzzle.
    pub time_limit: Option<Duration>,
    /// Untimed warm-up per contender and dataset.
    pub warmup: Duration,
    /// Entries per chunk.
    pub chunk: usize,
    /// Reservoir-sample this many entries per dataset, shuffled with `seed`.
    pub sample: Option<usize>,
    /// Seed of the sample and shuffle.
    pub seed: u64,
    /// Keep one row per puzzle x solver.
    pub per_puzzle: bool,
    /// Raised by Ctrl-C: stop soon and report what finished.
    pub cancel: Arc<AtomicBool>,
    /// The part of every dataset to solve: entries whose 0-based index `k` (after `--sample`) has
    /// `k % count == index`; [`Shard::WHOLE`] for everything.
    pub shard: Shard,
}

/// One input file.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// Short name used in reports (file stem).
    pub name: String,
    /// Where to read it; `-` is standard input.
    pub path: PathBuf,
}

impl Dataset {
    /// A dataset named after its file stem.
    pub fn from_path(path: &Path) -> Dataset {
        let name = if path.as_os_str() == "-" {
            "stdin".to_string()
        } else {
            path.file_stem().map_or_else(
                || path.display().to_string(),
                |s| s.to_string_lossy().into_owned(),
            )
        };
        Dataset {
            name,
            path: path.to_path_buf(),
        }
    }

    /// Size in bytes when known (for the progress bar).
    pub fn size_bytes(&self) -> Option<u64> {
        if self.path.is_dir() {
            return Some(
                dir_files(&self.path)
                    .iter()
                    .filter_map(|f| std::fs::metadata(f).ok())
                    .map(|m| m.len())
                    .sum(),
            );
        }
        std::fs::metadata(&self.path).ok().map(|m| m.len())
    }
}

/// The instance files of a directory dataset, in name order (hidden files and READMEs left out).
pub fn dir_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .filter(|p| {
                    p.file_name().is_some_and(|n| {
                        let n = n.to_string_lossy();
                        !n.starts_with('.') && !n.to_ascii_lowercase().starts_with("readme")
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

type Records<'a, F> =
    Box<dyn Iterator<Item = Record<<F as Family>::Puzzle, <F as Family>::Solution>> + Send + 'a>;

/// The records of a dataset: a file's, or for a directory (one instance per file, as the `--kind` families ship
/// them) the records of each file in name order, where `line` becomes the file's 1-based position.
fn dataset_records<F: Family>(
    family: &F,
    path: &Path,
    consumed: &Arc<AtomicU64>,
) -> Result<Records<'static, F>, RunError> {
    if !path.is_dir() {
        return Ok(family.records(open(path, consumed.clone())?));
    }
    let mut all: Vec<Record<F::Puzzle, F::Solution>> = Vec::new();
    for (i, file) in dir_files(path).iter().enumerate() {
        // Directory datasets hold few, small instances: reading them up front keeps this simple.
        match open(file, consumed.clone()) {
            Ok(input) => all.extend(family.records(input).map(|mut r| {
                r.line = i + 1;
                r.item = r.item.map_err(|e| format!("{}: {e}", file.display()));
                r
            })),
            Err(e) => all.push(Record {
                line: i + 1,
                item: Err(e.to_string()),
            }),
        }
    }
    Ok(Box::new(all.into_iter()))
}

/// Why a run could not start or continue.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A dataset could not be opened.
    #[error("cannot read {path}: {source}")]
    Open {
        /// The file.
        path: String,
        /// The I/O error.
        source: io::Error,
    },
    /// A solver name is not in the registry.
    #[error("unknown solver `{0}` (see --list)")]
    UnknownSolver(String),
    /// The rayon pool could not be built.
    #[error("cannot start {0} worker threads: {1}")]
    Pool(usize, String),
}

/// True when the cancel flag of `limits` is raised.
pub fn cancel_raised(limits: &Limits) -> bool {
    limits
        .cancel
        .as_ref()
        .is_some_and(|f| f.load(Ordering::Relaxed))
}

/// One contender's outcome on one puzzle; `None` in a chunk's results means "dropped by Ctrl-C".
struct Outcome<S> {
    verdict: Verdict,
    solution: Option<S>,
    count: u64,
    nodes: u64,
    guesses: u64,
    time: Duration,
}

type Entries<F> = Vec<Record<<F as Family>::Puzzle, <F as Family>::Solution>>;

/// A reader that counts the bytes consumed, for the progress bar.
struct Counting<R> {
    inner: R,
    consumed: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.consumed.fetch_add(amt as u64, Ordering::Relaxed);
        self.inner.consume(amt);
    }
}

fn open(path: &Path, consumed: Arc<AtomicU64>) -> Result<Box<dyn BufRead + Send>, RunError> {
    let inner: Box<dyn BufRead + Send> = if path.as_os_str() == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        let f = File::open(path).map_err(|source| RunError::Open {
            path: path.display().to_string(),
            source,
        })?;
        Box::new(BufReader::with_capacity(1 << 16, f))
    };
    Ok(Box::new(Counting { inner, consumed }))
}

/// Runs every contender of `opts` on every dataset; `progress` (possibly hidden) advances by bytes read.
pub fn run<F: Family>(
    family: &F,
    datasets: &[Dataset],
    opts: &Options,
    progress: &ProgressBar,
) -> Result<(Vec<DatasetSummary>, Vec<PuzzleRow>, bool), RunError> {
    for name in &opts.solvers {
        if family.make(name).is_none() {
            return Err(RunError::UnknownSolver(name.clone()));
        }
    }
    let pool = if opts.threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .build()
            .map_err(|e| RunError::Pool(opts.threads, e.to_string()))?;
        Some(pool)
    } else {
        None
    };
    let threads = pool
        .as_ref()
        .map_or(1, rayon::ThreadPool::current_num_threads);
    let workers = opts
        .solvers
        .iter()
        .map(|_| PerThread::new(threads))
        .collect();
    let mut pipeline = Pipeline::new(pool.as_ref(), Some(&*opts.cancel));
    pipeline.first_chunk = opts.chunk.max(1);
    pipeline.chunk = opts.chunk.max(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    pipeline.read_ahead = opts.threads < cores;
    let mut runner = Runner {
        family,
        opts,
        pipeline,
        workers,
        rows: Vec::new(),
        warned: 0,
        invalid_noted: 0,
    };
    let mut summaries = Vec::new();
    let mut done_bytes = 0;
    for ds in datasets {
        if opts.cancel.load(Ordering::Relaxed) {
            break;
        }
        progress.set_message(ds.name.clone());
        let consumed = Arc::new(AtomicU64::new(0));
        let mut summary = DatasetSummary {
            name: ds.name.clone(),
            path: ds.path.display().to_string(),
            solvers: opts
                .solvers
                .iter()
                .map(|s| SolverSummary {
                    solver: s.clone(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let mut records = dataset_records(family, &ds.path, &consumed)?;
        let shard = opts.shard;
        if !shard.is_whole() && opts.sample.is_none() {
            records = Box::new(
                records
                    .enumerate()
                    .filter(move |(k, _)| shard.contains(*k))
                    .map(|(_, r)| r),
            );
        }
        let mut warm = opts.warmup > Duration::ZERO;
        let pipeline = runner.pipeline;
        let mut step = |chunk: Entries<F>| {
            if opts.cancel.load(Ordering::Relaxed) {
                return Flow::Stop;
            }
            if warm {
                runner.warm_up(&chunk);
                warm = false;
            }
            runner.chunk(&chunk, &mut summary);
            progress.set_position(done_bytes + consumed.load(Ordering::Relaxed));
            Flow::Continue
        };
        if let Some(n) = opts.sample {
            // Every shard draws the same sample, then keeps its part of it, so the shards of a sampled run
            // still cover the unsharded run's sample exactly once.
            let mut sample = sample::<F>(&mut records, n, opts.seed);
            if !shard.is_whole() {
                sample = sample
                    .into_iter()
                    .enumerate()
                    .filter(|(k, _)| shard.contains(*k))
                    .map(|(_, r)| r)
                    .collect();
            }
            pipeline.run(sample.into_iter(), &mut step);
        } else {
            pipeline.run(records, &mut step);
        }
        done_bytes += ds.size_bytes().unwrap_or(0);
        progress.set_position(done_bytes);
        summaries.push(summary);
    }
    let partial = opts.cancel.load(Ordering::Relaxed);
    Ok((summaries, runner.rows, partial))
}

/// Reservoir-samples `n` records (Algorithm R) and shuffles them, both driven by `seed`: the same seed gives the
/// same puzzles in the same order, with memory for `n` records only.
fn sample<F: Family>(
    records: &mut dyn Iterator<Item = Record<F::Puzzle, F::Solution>>,
    n: usize,
    seed: u64,
) -> Entries<F> {
    let mut rng = Rng::new(seed);
    let mut kept: Entries<F> = Vec::with_capacity(n.min(1 << 20));
    for (i, rec) in records.enumerate() {
        if kept.len() < n {
            kept.push(rec);
        } else {
            let j = rng.below(i as u64 + 1) as usize;
            if j < n {
                kept[j] = rec;
            }
        }
    }
    for i in (1..kept.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        kept.swap(i, j);
    }
    kept
}

/// The run's state across chunks.
struct Runner<'a, F: Family> {
    family: &'a F,
    opts: &'a Options,
    /// Chunks, read-ahead and the ordered parallel map; its pool is `None` for the sequential path (`-j 1`).
    pipeline: Pipeline<'a>,
    /// `workers[k]` = the instances of contender `k` (`opts.solvers[k]`), one per pool thread (one in all for the
    /// sequential path), kept across chunks and datasets.
    workers: Vec<PerThread<F::Solver>>,
    /// Per-puzzle rows (with `--per-puzzle`).
    rows: Vec<PuzzleRow>,
    /// Loud messages printed so far (capped so a broken solver cannot flood stderr).
    warned: u64,
    /// Invalid entries named so far (capped likewise).
    invalid_noted: u64,
}

const MAX_WARNINGS: u64 = 20;

impl<F: Family> Runner<'_, F> {
    fn limits_for(&self, solver: &str) -> Limits {
        let mut limits = Limits::none().with_cancel(self.opts.cancel.clone());
        let nodes = match (
            self.opts.node_limit,
            BASELINES
                .contains(&solver)
                .then_some(self.opts.baseline_node_limit)
                .flatten(),
        ) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        limits.nodes = nodes;
        limits.time = self.opts.time_limit;
        limits
    }

    /// Solves puzzles of `chunk` untimed with each contender until `warmup` has passed for it.
    fn warm_up(&self, chunk: &Entries<F>) {
        for name in &self.opts.solvers {
            let Some(mut solver) = self.family.make(name) else {
                continue;
            };
            let request = self
                .family
                .request(self.opts.solution_limit, self.limits_for(name));
            let start = Instant::now();
            'outer: while start.elapsed() < self.opts.warmup {
                let mut any = false;
                for rec in chunk {
                    let Ok(entry) = &rec.item else { continue };
                    if !self.family.supports(&solver, &entry.puzzle) {
                        continue;
                    }
                    any = true;
                    if self.opts.cancel.load(Ordering::Relaxed)
                        || start.elapsed() >= self.opts.warmup
                    {
                        break 'outer;
                    }
                    let _ = self.family.solve(&mut solver, &entry.puzzle, &request);
                }
                if !any {
                    break;
                }
            }
        }
    }

    fn solve_one(
        family: &F,
        solver: &mut F::Solver,
        rec: &Record<F::Puzzle, F::Solution>,
        request: &F::Request,
        cancel: &AtomicBool,
    ) -> Option<Outcome<F::Solution>> {
        let entry = match &rec.item {
            Ok(e) => e,
            Err(_) => return Some(Outcome::empty(Verdict::Invalid)),
        };
        if !family.supports(solver, &entry.puzzle) {
            return Some(Outcome::empty(Verdict::Skipped));
        }
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let start = Instant::now();
        let answer: Answer<F::Solution> = family.solve(solver, &entry.puzzle, request);
        let time = start.elapsed();
        if answer.cancelled {
            return None;
        }
        Some(Outcome {
            verdict: answer.verdict,
            solution: answer.solution,
            count: answer.count,
            nodes: answer.stats.nodes,
            guesses: answer.stats.guesses,
            time,
        })
    }

    /// Solves one chunk with every contender (timed), then verifies and aggregates (untimed).
    fn chunk(&mut self, chunk: &Entries<F>, summary: &mut DatasetSummary) {
        let family = self.family;
        let cancel = &*self.opts.cancel;
        let mut results: Vec<Vec<Option<Outcome<F::Solution>>>> =
            Vec::with_capacity(self.opts.solvers.len());
        for (k, name) in self.opts.solvers.iter().enumerate() {
            let request = family.request(self.opts.solution_limit, self.limits_for(name));
            let start = Instant::now();
            let workers = &self.workers[k];
            let solve = |rec: &Record<F::Puzzle, F::Solution>| {
                workers
                    .try_with(
                        || family.make(name),
                        |solver| Self::solve_one(family, solver, rec, &request, cancel),
                    )
                    .flatten()
            };
            // Builds the instance of the calling thread (the one of the sequential path); `None` only for a name
            // `make` rejects.
            if workers.try_with(|| family.make(name), |_| ()).is_none() {
                return;
            }
            let outcomes: Vec<Option<Outcome<F::Solution>>> = self.pipeline.map(chunk, solve);
            summary.solvers[k].wall += start.elapsed();
            results.push(outcomes);
        }
        self.check_and_count(chunk, &results, summary);
    }

    /// Verification, comparison with the dataset and between solvers, and aggregation: all outside the timing.
    ///
    /// After Ctrl-C some outcomes are missing (`None`): each solver's figures count only the puzzles it finished,
    /// and cross-checks and the naive comparison use only the solvers that finished the puzzle.
    fn check_and_count(
        &mut self,
        chunk: &Entries<F>,
        results: &[Vec<Option<Outcome<F::Solution>>>],
        summary: &mut DatasetSummary,
    ) {
        let naive = self.opts.solvers.iter().position(|s| s == NAIVE);
        let family = self.family;
        let check_puzzle = |i: usize| -> Vec<Option<String>> {
            results
                .iter()
                .map(|r| r[i].as_ref().and_then(|o| check(family, &chunk[i], o)))
                .collect()
        };
        // Every finished answer is checked, even after Ctrl-C: `Pipeline::map` would skip them.
        let all_errors: Vec<Vec<Option<String>>> = match self.pipeline.pool {
            None => (0..chunk.len()).map(check_puzzle).collect(),
            Some(pool) => {
                pool.install(|| (0..chunk.len()).into_par_iter().map(check_puzzle).collect())
            }
        };
        for ((i, rec), errors) in chunk.iter().enumerate().zip(all_errors) {
            let outs: Vec<Option<&Outcome<F::Solution>>> =
                results.iter().map(|r| r[i].as_ref()).collect();
            if outs.iter().all(Option::is_none) {
                continue;
            }
            summary.puzzles += 1;
            if let Err(e) = &rec.item {
                self.note_invalid(format!("{}: {e}", summary.path));
            }
            for (k, err) in errors.iter().enumerate() {
                if let Some(err) = err {
                    self.warn(format!(
                        "ERROR {}:{}: {} gave a {err}",
                        summary.name, rec.line, self.opts.solvers[k]
                    ));
                }
            }
            if let Some(msg) = self.disagreement(&outs) {
                summary.disagreements += 1;
                self.warn(format!("DISAGREEMENT {}:{}: {msg}", summary.name, rec.line));
            }
            let naive_out = naive.and_then(|n| outs[n]);
            if naive_out.is_some_and(|o| o.verdict == Verdict::Limit) {
                summary.naive_limited += 1;
            }
            let naive_concluded = naive_out.filter(|o| concluded(o.verdict));
            for (k, o) in outs.iter().enumerate() {
                let Some(o) = o else { continue };
                let s = &mut summary.solvers[k];
                s.counts.add(o.verdict);
                if errors[k].is_some() {
                    s.errors += 1;
                }
                if !matches!(o.verdict, Verdict::Invalid | Verdict::Skipped) {
                    s.times.record(o.time);
                    if concluded(o.verdict) {
                        s.concluded_times.record(o.time);
                    }
                    s.nodes_sum += o.nodes;
                    s.nodes_max = s.nodes_max.max(o.nodes);
                    s.guesses_sum += o.guesses;
                    s.guesses_max = s.guesses_max.max(o.guesses);
                    if matches!(o.verdict, Verdict::Solved | Verdict::Multiple) && o.guesses == 0 {
                        s.solved_without_guessing += 1;
                    }
                }
                if naive.is_some() {
                    let p = s.vs_naive.get_or_insert_with(Paired::default);
                    if let (Some(n), true) = (naive_concluded, concluded(o.verdict)) {
                        p.puzzles += 1;
                        p.time += o.time;
                        p.naive_time += n.time;
                        p.nodes += o.nodes;
                        p.naive_nodes += n.nodes;
                    }
                }
                if self.opts.per_puzzle {
                    self.rows.push(PuzzleRow {
                        dataset: summary.name.clone(),
                        line: rec.line,
                        solver: self.opts.solvers[k].clone(),
                        status: o.verdict.name().to_string(),
                        solutions: o.count,
                        nodes: o.nodes,
                        guesses: o.guesses,
                        micros: o.time.as_secs_f64() * 1e6,
                        solution: o.solution.as_ref().map(|s| self.family.render(s)),
                        error: errors[k]
                            .clone()
                            .or_else(|| rec.item.as_ref().err().cloned()),
                    });
                }
            }
        }
    }

    /// Describes how the concluded answers of the contenders contradict each other, if they do.
    fn disagreement(&self, outs: &[Option<&Outcome<F::Solution>>]) -> Option<String> {
        let concluded: Vec<(usize, &Outcome<F::Solution>)> = outs
            .iter()
            .enumerate()
            .filter_map(|(k, o)| o.filter(|o| concluded(o.verdict)).map(|o| (k, o)))
            .collect();
        let (k0, first) = *concluded.first()?;
        for &(k, o) in &concluded[1..] {
            let differs = o.verdict != first.verdict
                // Concluded counts are exact up to the limit (`--count-limit N`), so they must agree too.
                || o.count != first.count
                // With --limit 2 a proved-unique solution must be the same for everyone.
                || ((self.opts.solution_limit >= 2 || self.family.answers_must_match())
                    && o.verdict == Verdict::Solved
                    && o.solution != first.solution);
            if differs {
                return Some(format!(
                    "{} says {}, {} says {}",
                    self.opts.solvers[k0],
                    describe(first),
                    self.opts.solvers[k],
                    describe(o)
                ));
            }
        }
        None
    }

    /// Names an unreadable entry on stderr (the first few; the report counts them all).
    fn note_invalid(&mut self, msg: String) {
        self.invalid_noted += 1;
        if self.invalid_noted <= MAX_WARNINGS {
            eprintln!("invalid entry: {msg}");
        } else if self.invalid_noted == MAX_WARNINGS + 1 {
            eprintln!("(further invalid entries are counted in the report but not printed)");
        }
    }

    fn warn(&mut self, msg: String) {
        self.warned += 1;
        if self.warned <= MAX_WARNINGS {
            eprintln!("{msg}");
        } else if self.warned == MAX_WARNINGS + 1 {
            eprintln!("(further errors are counted in the report but not printed)");
        }
    }
}

/// The independent check of one answer: its solution must pass `verify` and, when the dataset carries a
/// solution and the answer claims a unique-or-first solution, equal it.
fn check<F: Family>(
    family: &F,
    rec: &Record<F::Puzzle, F::Solution>,
    o: &Outcome<F::Solution>,
) -> Option<String> {
    let (Ok(entry), Some(sol)) = (&rec.item, &o.solution) else {
        return None;
    };
    if let Err(e) = family.verify(&entry.puzzle, sol) {
        return Some(format!("wrong solution: {e}"));
    }
    match (&entry.expected, o.verdict) {
        (Some(expected), Verdict::Solved) if expected != sol => {
            Some("solution differing from the dataset's".into())
        }
        _ => None,
    }
}

fn describe<S>(o: &Outcome<S>) -> String {
    match o.verdict {
        Verdict::Solved if o.solution.is_some() => "solved (a different solution)".to_string(),
        Verdict::Multiple => format!("multiple ({} solutions)", o.count),
        v => v.name().to_string(),
    }
}

fn concluded(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::Solved | Verdict::Multiple | Verdict::Unsatisfiable
    )
}

impl<S> Outcome<S> {
    fn empty(verdict: Verdict) -> Self {
        Outcome {
            verdict,
            solution: None,
            count: 0,
            nodes: 0,
            guesses: 0,
            time: Duration::ZERO,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    //! The runner's checks on a toy family: "find x with x * x = n", one line per n, optional `n,x` expected
    //! answer. Solver `honest` answers right, `liar` answers x + 1, `pessimist` calls everything unsatisfiable.
    use super::*;
    use crate::family::{Entry, SolverName};
    use csp_core::Stats;

    struct Squares;

    impl Family for Squares {
        type Puzzle = u64;
        type Solution = u64;
        type Solver = &'static str;
        type Request = Limits;

        fn kind(&self) -> &'static str {
            "squares"
        }
        fn solvers(&self) -> Vec<SolverName> {
            [
                "honest",
                "liar",
                "pessimist",
                "interrupter",
                "parallel",
                NAIVE,
            ]
            .map(|name| SolverName {
                name,
                description: "toy",
            })
            .to_vec()
        }
        fn make(&self, name: &str) -> Option<&'static str> {
            [
                "honest",
                "liar",
                "pessimist",
                "interrupter",
                "parallel",
                NAIVE,
            ]
            .into_iter()
            .find(|s| *s == name)
        }
        fn supports(&self, _: &&'static str, _: &u64) -> bool {
            true
        }
        fn request(&self, _: u64, limits: Limits) -> Limits {
            limits
        }
        fn solve(&self, solver: &mut &'static str, n: &u64, limits: &Limits) -> Answer<u64> {
            if *solver == "interrupter" && *n == 9 {
                // Plays the user pressing Ctrl-C in the middle of this solve.
                limits
                    .cancel
                    .as_ref()
                    .unwrap()
                    .store(true, Ordering::Relaxed);
            }
            if cancel_raised(limits) {
                let stats = Stats::default();
                return Answer {
                    verdict: Verdict::Limit,
                    solution: None,
                    count: 0,
                    stats,
                    cancelled: true,
                };
            }
            let root = if *solver == "parallel" {
                // A solver that calls rayon inside a solve, on the pool that runs the solves: while it waits for
                // its own split work, its thread may run another puzzle's solve.
                (0..=*n).into_par_iter().find_first(|x| x * x == *n)
            } else {
                (0..=*n).find(|x| x * x == *n)
            };
            let (verdict, solution) = match (*solver, root) {
                ("pessimist", _) | (_, None) => (Verdict::Unsatisfiable, None),
                ("liar", Some(x)) => (Verdict::Solved, Some(x + 1)),
                (_, Some(x)) => (Verdict::Solved, Some(x)),
            };
            let stats = Stats {
                nodes: *n,
                ..Stats::default()
            };
            Answer {
                verdict,
                count: u64::from(solution.is_some()),
                solution,
                stats,
                cancelled: false,
            }
        }
        fn verify(&self, n: &u64, x: &u64) -> Result<(), String> {
            if x * x == *n {
                Ok(())
            } else {
                Err(format!("{x} * {x} != {n}"))
            }
        }
        fn render(&self, x: &u64) -> String {
            x.to_string()
        }
        fn records<'a>(
            &self,
            input: Box<dyn BufRead + Send + 'a>,
        ) -> Box<dyn Iterator<Item = Record<u64, u64>> + Send + 'a> {
            Box::new(input.lines().enumerate().map(|(i, l)| {
                let l = l.unwrap();
                let mut parts = l.split(',');
                let item = parts
                    .next()
                    .unwrap()
                    .parse::<u64>()
                    .map_err(|e| e.to_string())
                    .map(|puzzle| Entry {
                        puzzle,
                        expected: parts.next().map(|x| x.parse().unwrap()),
                    });
                Record { line: i + 1, item }
            }))
        }
    }

    fn options(solvers: &[&str], threads: usize) -> Options {
        Options {
            solvers: solvers.iter().map(|s| s.to_string()).collect(),
            threads,
            solution_limit: 1,
            node_limit: None,
            baseline_node_limit: None,
            time_limit: None,
            warmup: Duration::ZERO,
            chunk: 2,
            sample: None,
            seed: 1,
            per_puzzle: true,
            cancel: Arc::new(AtomicBool::new(false)),
            shard: Shard::WHOLE,
        }
    }

    fn dataset(text: &str) -> (tempfile::TempDir, Vec<Dataset>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("toy.txt");
        std::fs::write(&path, text).unwrap();
        let ds = vec![Dataset::from_path(&path)];
        (dir, ds)
    }

    #[test]
    fn wrong_answers_are_counted_as_errors_of_the_solver_that_gave_them() {
        let (_dir, ds) = dataset("4\n9\n16\n");
        let (sum, rows, partial) = run(
            &Squares,
            &ds,
            &options(&["honest", "liar"], 1),
            &ProgressBar::hidden(),
        )
        .unwrap();
        assert!(!partial);
        assert_eq!(sum[0].solvers[0].errors, 0);
        assert_eq!(sum[0].solvers[1].errors, 3);
        assert_eq!(sum[0].solvers[1].counts.solved, 3);
        assert!(rows
            .iter()
            .filter(|r| r.solver == "liar")
            .all(|r| r.error.is_some()));
    }

    #[test]
    fn a_solver_that_uses_rayon_inside_a_solve_finishes_on_the_pool() {
        let squares: String = (1..=300u64).map(|x| format!("{}\n", x * x)).collect();
        let (_dir, ds) = dataset(&squares);
        let (sum, _, partial) = run(
            &Squares,
            &ds,
            &options(&["parallel", "honest"], 2),
            &ProgressBar::hidden(),
        )
        .unwrap();
        assert!(!partial);
        assert_eq!(sum[0].solvers[0].counts.solved, 300);
        assert_eq!((sum[0].solvers[0].errors, sum[0].disagreements), (0, 0));
    }

    #[test]
    fn a_solution_differing_from_the_datasets_is_an_error() {
        let (_dir, ds) = dataset("4,2\n9,4\n");
        let (sum, _, _) = run(
            &Squares,
            &ds,
            &options(&["honest"], 1),
            &ProgressBar::hidden(),
        )
        .unwrap();
        assert_eq!(sum[0].solvers[0].errors, 1);
    }

    #[test]
    fn solvers_contradicting_each_other_count_as_disagreements() {
        let (_dir, ds) = dataset("4\n5\n9\n");
        for threads in [1, 2] {
            let opts = options(&["honest", "pessimist"], threads);
            let (sum, _, _) = run(&Squares, &ds, &opts, &ProgressBar::hidden()).unwrap();
            assert_eq!(
                sum[0].disagreements, 2,
                "4 and 9 have roots; 5 has none and both agree on it"
            );
            assert_eq!(sum[0].solvers[1].counts.unsatisfiable, 3);
        }
    }

    #[test]
    fn unreadable_lines_are_invalid_for_every_solver_and_not_timed() {
        let (_dir, ds) = dataset("4\nfour\n9\n");
        let (sum, rows, _) = run(
            &Squares,
            &ds,
            &options(&["honest"], 1),
            &ProgressBar::hidden(),
        )
        .unwrap();
        let s = &sum[0].solvers[0];
        assert_eq!(
            (s.counts.solved, s.counts.invalid, s.counts.total()),
            (2, 1, 3)
        );
        assert_eq!(s.ran(), 2);
        assert_eq!(rows[1].status, "invalid");
        assert!(rows[1].error.as_deref().unwrap().contains("invalid digit"));
    }

    #[test]
    fn a_raised_cancel_flag_drops_unfinished_puzzles_and_marks_the_run_partial() {
        let (_dir, ds) = dataset("4\n9\n16\n");
        let opts = options(&["honest", "liar"], 2);
        opts.cancel.store(true, Ordering::Relaxed);
        let (sum, rows, partial) = run(&Squares, &ds, &opts, &ProgressBar::hidden()).unwrap();
        assert!(partial);
        assert!(rows.is_empty());
        assert!(sum.iter().all(|d| d.puzzles == 0));
    }

    #[test]
    fn after_an_interrupt_each_solver_counts_the_puzzles_it_finished() {
        let (_dir, ds) = dataset("4\n9\n16\n25\n");
        let opts = options(&["honest", "interrupter"], 1);
        let (sum, rows, partial) = run(&Squares, &ds, &opts, &ProgressBar::hidden()).unwrap();
        assert!(partial);
        let d = &sum[0];
        assert_eq!(
            d.puzzles, 2,
            "the first chunk (4, 9) was started; the second never was"
        );
        assert_eq!(d.solvers[0].counts.total(), 2);
        assert_eq!(
            d.solvers[1].counts.total(),
            1,
            "9 was interrupted and is dropped"
        );
        assert_eq!(rows.len(), 3);
    }

    #[test]
    fn speedup_compares_only_puzzles_naive_concluded() {
        let (_dir, ds) = dataset("4\n9\n");
        let (sum, _, _) = run(
            &Squares,
            &ds,
            &options(&["honest", NAIVE], 1),
            &ProgressBar::hidden(),
        )
        .unwrap();
        let p = sum[0].solvers[0].vs_naive.unwrap();
        assert_eq!((p.puzzles, p.nodes, p.naive_nodes), (2, 13, 13));
        assert_eq!(sum[0].solvers[0].node_speedup_vs_naive(), Some(1.0));
    }

    #[test]
    fn reservoir_sampling_keeps_n_distinct_records_deterministically() {
        let pick = |seed| {
            let text: String = (0..100).map(|i| format!("{i}\n")).collect();
            let mut records = Squares.records(Box::new(io::Cursor::new(text.into_bytes())));
            sample::<Squares>(&mut records, 10, seed)
                .iter()
                .map(|r| r.line)
                .collect::<Vec<_>>()
        };
        let a = pick(3);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 10);
        assert_eq!(a, pick(3));
        assert_ne!(a, pick(4));
    }

    #[test]
    fn the_sampling_stream_is_pinned() {
        // `--sample N --seed S` picks the same puzzles in every version: these numbers must not move.
        let mut r = Rng::new(2024);
        let big: Vec<u64> = (0..6).map(|k| r.below(4_000_000_007 - 97 * k)).collect();
        assert_eq!(
            big,
            [2491062150, 388927625, 1194304588, 464746889, 3322311417, 2209684925]
        );
    }
}
