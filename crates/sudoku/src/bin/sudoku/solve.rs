//! `sudoku solve [FILE ...]`: solve every puzzle, in parallel, writing results in input order.
//!
//! The run is `sudoku::pipeline::Pipeline`, the one ordered pipeline that bench-runner uses too: records are
//! read in chunks (the first of `pipeline::FIRST_CHUNK`, doubling up to `pipeline::CHUNK`; the next chunk read
//! on a thread of its own while this one is solved, except from stdin), each chunk is solved in parallel (one
//! solver instance per pool thread, built on its first record and reused for the whole run, through
//! [`PerThread`]; `-j 1` solves on the calling thread and writes each result as soon as it is known) and written
//! in input order. Records travel in the reader's compact form (`Reader::next_compact`): a bare 9x9 line as its
//! 81 givens (96 bytes), straight into the solver's 9x9 lane; any other record boxed. Per record nothing is
//! allocated on the common path (bare 9x9 lines, `fast`, line output): a solution the checker accepts leaves the
//! lane as its 81 cells (`Answer::Solved9`) and the line format writes it from them
//! (`ResultFormat::write_solved9`), with no `Board`, result record or `Entry` built for it.
//!
//! Every answer is checked by the independent checker (`sudoku::verify`) before it is written. Givens that clash
//! are looked for only when a puzzle was not solved (the reader runs `without_clash_check`): a verified solution
//! proves its givens consistent, and every solver reports clashing givens as unsatisfiable, so the outcome
//! (`invalid`, with the clash named) is the same as checking every puzzle up front, at no cost to solved ones.
//!
//! Ctrl-C stops the run cleanly (`sudoku::pipeline::interrupt_flag`): solves in flight stop at their next limit
//! check (their `limit` is not reported, it says nothing about the puzzle), the results finished before the first
//! unfinished puzzle are written in input order, stderr names the file and line where the output stops, and the
//! exit code is 130.
//!
//! When the input carries an expected solution (a `puzzle,solution` CSV such as the Kaggle sets), the result is
//! compared with it: a solved puzzle whose solution differs (without `--count`, or with a count of 1), or an
//! expected solution that does not solve the puzzle (any count), is reported on stderr, marked
//! `"expected_mismatch": true` in JSON lines, and makes the exit code 1. With `--count` and two solutions found,
//! a different first solution is no mismatch as long as the expected one is valid.

use std::io::{self, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use csp_core::Limits;

use super::input::{self, is_broken_pipe};
use super::{EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE};
use crate::board::Board;
use crate::format::{Entry, EntryStatus, OutputFormat, ResultFormat, WriterOptions};
use crate::parse::{Compact, ParseError, ParseErrorKind, Reader, ReaderOptions, Record};
use crate::per_thread::PerThread;
use crate::pipeline::{self, Flow, Pipeline};
use crate::registry;
use crate::verify;
use sudoku::shard::Shard;
use sudoku::{Outcome, Request, Solve, SolverInfo};

/// Output format names on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// One line per puzzle: the solution, or the status word (after `FILE:LINE:` with file names).
    Line,
    /// A pretty grid per puzzle with a `# line L: status` header (`# FILE: line L: status` with file names).
    Grid,
    /// One JSON object per puzzle: `file` (as given, `-` for stdin), `line`, `status` (solved | unsatisfiable
    /// | invalid | limit, or `error` when a solver failed internally: a panic or an answer the checker rejected,
    /// always a bug), `solution`, `solutions` (with --count), `expected_mismatch` (when the input's expected
    /// solution is contradicted), `error` (why invalid), `nodes`, `micros`.
    Jsonl,
}

impl From<FormatArg> for OutputFormat {
    fn from(f: FormatArg) -> OutputFormat {
        match f {
            FormatArg::Line => OutputFormat::Line,
            FormatArg::Grid => OutputFormat::Grid,
            FormatArg::Jsonl => OutputFormat::Jsonl,
        }
    }
}

/// What `sudoku solve --help` says after the options.
const AFTER_HELP: &str = "\
Exit status: 0 every puzzle solved; 1 some puzzle invalid, unsatisfiable, stopped by a limit or contradicting \
its expected solution (each named on stderr with file and line); 2 usage or I/O error; 130 interrupted by \
Ctrl-C (the results finished before the first unfinished puzzle are written; a second Ctrl-C quits at once). \
A closed output pipe (`sudoku solve big.txt | head`) ends the run quietly.";

/// Options of `sudoku solve`.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct SolveArgs {
    /// Input files (`-` = stdin); stdin when none. Expected solutions in the input (a `puzzle,solution` CSV;
    /// columns found by header name, e.g. Kaggle's `id,puzzle,solution,clues,difficulty`) are compared with the
    /// results: a contradiction is reported on stderr and makes the exit code 1.
    pub files: Vec<String>,
    /// Solver name (`sudoku list` shows them).
    #[arg(long, default_value = registry::DEFAULT_SOLVER)]
    pub solver: String,
    /// Count solutions up to 2: unique (1), multiple (2) or none (0).
    #[arg(long)]
    pub count: bool,
    /// Count solutions exactly up to N (a puzzle with more reports N): `solutions` in jsonl, the count after
    /// the status in line and grid output, as with `--count`.
    #[arg(long, value_name = "N", conflicts_with = "count", value_parser = clap::value_parser!(u64).range(1..))]
    pub count_limit: Option<u64>,
    /// Solve only shard I of N of each input (records whose 0-based index k in their file has k % N == I; I is
    /// 0-based), for a run split over independent processes; the results keep their file and line. Without the
    /// flag, Slurm job arrays (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`) or Kubernetes Indexed Jobs
    /// (`JOB_COMPLETION_INDEX`, `JOB_COMPLETIONS`) give I and N.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Line)]
    pub format: FormatArg,
    /// Worker threads (0 = all cores).
    #[arg(short = 'j', long, default_value_t = 0, value_parser = input::parse_threads)]
    pub threads: usize,
    /// Stop a puzzle's search after this many nodes (status `limit`).
    #[arg(long)]
    pub node_limit: Option<u64>,
    /// Stop a puzzle's search after this long (status `limit`): `250ms`, `2s`, `1.5` (seconds); 0 = no limit, as
    /// in bench-runner.
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Board side (4, 9, 16, 25, 36) instead of inferring it from each puzzle.
    #[arg(long, value_parser = input::parse_size)]
    pub size: Option<usize>,
    /// Prefix every result with its file name, as grep does: `FILE:LINE:` before each line result, `# FILE: line
    /// L: status` as each grid header (`<stdin>` for standard input). On by default with more than one input;
    /// jsonl always has its `file` key.
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,
    /// Never prefix results with the file name, even with several inputs (the output of one input is unchanged).
    #[arg(long, overrides_with = "with_filename")]
    pub no_filename: bool,
}

impl SolveArgs {
    /// Solutions to look for per puzzle, and whether they are counted (`--count`: 2, `--count-limit N`: N).
    pub fn solution_limit(&self) -> (u64, bool) {
        match (self.count_limit, self.count) {
            (Some(n), _) => (n, true),
            (None, true) => (2, true),
            (None, false) => (1, false),
        }
    }

    /// Whether line and grid results name their file: as asked, else when there is more than one input.
    pub fn names_files(&self) -> bool {
        if self.with_filename {
            true
        } else if self.no_filename {
            false
        } else {
            self.files.len() > 1
        }
    }
}

/// Parses `250ms`, `2s`, `1.5s` or `1.5` (seconds).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (number, scale) = if let Some(ms) = t.strip_suffix("ms") {
        (ms, 1e-3)
    } else if let Some(sec) = t.strip_suffix('s') {
        (sec, 1.0)
    } else {
        (t, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (e.g. 250ms, 2s)"))?;
    Duration::try_from_secs_f64(value * scale).map_err(|_| format!("`{s}` is not a valid duration"))
}

/// The result of one record, owned so a parallel batch can return it.
#[derive(Debug)]
struct EntryResult {
    status: EntryStatus,
    solution: Option<Board>,
    count: Option<u64>,
    error: Option<String>,
    /// Why the result contradicts the input's expected solution, if it does.
    mismatch: Option<String>,
    /// The clash of givens found after the solve (the reader left it to us), for stderr as the reader's own
    /// errors are reported.
    /// Boxed: results are moved several times on their way to the writer, and clashes are rare.
    clash: Option<Box<ParseError>>,
    nodes: u64,
    micros: u64,
}

impl EntryResult {
    fn failed(status: EntryStatus, error: String) -> EntryResult {
        EntryResult {
            status,
            solution: None,
            count: None,
            error: Some(error),
            mismatch: None,
            clash: None,
            nodes: 0,
            micros: 0,
        }
    }
}

/// A record's result as the step writes it.
#[derive(Debug)]
enum Answer {
    /// A 9x9 solution from the lane, already verified against the givens: written from its cells, without a
    /// `Board` or an [`Entry`] when the format allows ([`ResultFormat::write_solved9`]). The common result of a
    /// bare 9x9 line.
    Solved9(Solved9),
    /// Any other result.
    Full(EntryResult),
}

/// A verified 9x9 solution and what the output may show with it.
#[derive(Debug)]
struct Solved9 {
    /// The solution, row-major, values `1..=9` (checked by [`verify::solves9`]).
    grid: [u8; 81],
    /// Solutions counted, when counting.
    count: Option<u64>,
    /// Search nodes spent.
    nodes: u64,
    /// Microseconds in the solver, when timed.
    micros: u64,
}

impl Answer {
    /// The answer as a full result (for a record whose result is compared with an expected solution).
    fn into_full(self) -> EntryResult {
        match self {
            Answer::Full(outcome) => outcome,
            // The grid passed the checker, so its values are 1..=9 and the board is always built.
            Answer::Solved9(s) => EntryResult {
                status: EntryStatus::Solved,
                solution: Board::from_array9(s.grid).ok(),
                count: s.count,
                error: None,
                mismatch: None,
                clash: None,
                nodes: s.nodes,
                micros: s.micros,
            },
        }
    }

    /// Whether the solve finished: not stopped by the raised Ctrl-C flag (its `limit` says nothing about the
    /// puzzle, so it is not reported as one).
    fn finished(&self, interrupted: impl Fn() -> bool) -> bool {
        match self {
            Answer::Solved9(_) => true,
            Answer::Full(outcome) => outcome.status != EntryStatus::Limit || !interrupted(),
        }
    }
}

/// Solves one record with `solve` (a readable board in, its verified result out) and, for a puzzle left unsolved
/// whose givens clash, reports the clash instead (see the module documentation); then compares the result with
/// the input's expected solution, if any.
fn solve_record(record: &Record, solve: impl FnOnce(&Board) -> EntryResult) -> EntryResult {
    let puzzle = match &record.item {
        Ok(p) => p,
        Err(e) => return EntryResult::failed(EntryStatus::Invalid, e.to_string()),
    };
    let outcome = solve(&puzzle.board);
    if outcome.status != EntryStatus::Solved {
        if let Some(invalid) = clash_result(record.line, &puzzle.board) {
            return invalid;
        }
    }
    let mut outcome = outcome;
    if let Some(expected) = &puzzle.solution {
        outcome.mismatch = compare_expected(&puzzle.board, expected, &outcome);
    }
    outcome
}

/// [`solve_record`] for a bare 9x9 line read as its givens ([`Compact::Givens9`]): through the lane when there
/// is one, else through `boxed` on a `Board` of the givens; no expected solution comes with such a line.
fn solve_givens9(
    line: usize,
    givens: &[u8; 81],
    lane: Option<&Lane9<'_>>,
    boxed: impl FnOnce(&Board) -> EntryResult,
) -> Answer {
    let outcome = match lane {
        Some(lane) => match lane.solve(givens, boxed) {
            Answer::Solved9(solved) => return Answer::Solved9(solved),
            Answer::Full(outcome) => outcome,
        },
        None => solve_boxed9(givens, boxed),
    };
    if outcome.status != EntryStatus::Solved {
        // The reader gives values 0..=9 only, so the board is always built.
        if let Some(invalid) = Board::from_array9(*givens)
            .ok()
            .and_then(|b| clash_result(line, &b))
        {
            return Answer::Full(invalid);
        }
    }
    Answer::Full(outcome)
}

/// `boxed` on a `Board` of the 9x9 `givens` (values `0..=9`, as the reader gives them; any other is reported
/// invalid).
fn solve_boxed9(givens: &[u8; 81], boxed: impl FnOnce(&Board) -> EntryResult) -> EntryResult {
    match Board::from_array9(*givens) {
        Ok(board) => boxed(&board),
        Err(e) => EntryResult::failed(EntryStatus::Invalid, e.to_string()),
    }
}

/// The `invalid` result of a puzzle on `line` whose givens clash, if they do (see the module documentation).
fn clash_result(line: usize, board: &Board) -> Option<EntryResult> {
    let clash = board.find_clash()?;
    let error = ParseError {
        line,
        column: None,
        kind: ParseErrorKind::Clash(clash),
    };
    let mut invalid = EntryResult::failed(EntryStatus::Invalid, error.to_string());
    invalid.clash = Some(Box::new(error));
    Some(invalid)
}

/// The 9x9 lane: a solver's direct 9x9 entry ([`SolverInfo::solve9`]) called without a per-thread instance, a
/// `Board` built for the solve or a clock read unless the output shows the time. Measured on kaggle lines
/// (`docs/measurements.md`, "The CLI at 80% of the solver-only rate").
struct Lane9<'a> {
    /// The solver's entry.
    solve9: sudoku::Solve9,
    /// The solver's registry entry, for messages.
    info: &'a SolverInfo,
    /// The request, as the boxed path gets it.
    req: Request,
    /// Whether the solution count is reported.
    count: bool,
    /// Whether the solve is timed (the output shows `micros`).
    timed: bool,
}

impl Lane9<'_> {
    /// The result of the 9x9 `givens` through the lane, or through `boxed` when the entry declines them: a
    /// solution that passes the checker as [`Answer::Solved9`], anything else (including a solution the checker
    /// rejects, with its reason) as a full result.
    fn solve(&self, givens: &[u8; 81], boxed: impl FnOnce(&Board) -> EntryResult) -> Answer {
        let start = self.timed.then(Instant::now);
        let result = match panic::catch_unwind(|| (self.solve9)(givens, &self.req)) {
            Ok(Ok(r)) => r,
            Ok(Err(_)) => return Answer::Full(solve_boxed9(givens, boxed)),
            Err(payload) => {
                return Answer::Full(EntryResult::failed(
                    EntryStatus::Error,
                    format!(
                        "solver `{}` panicked: {}",
                        self.info.name,
                        panic_message(payload.as_ref())
                    ),
                ))
            }
        };
        let micros = start.map_or(0, |t| {
            u64::try_from(t.elapsed().as_micros()).unwrap_or(u64::MAX)
        });
        let count = self.count.then_some(result.count);
        if let (Outcome::Solved, Some(grid)) = (result.outcome, &result.solution) {
            if verify::solves9(givens, grid) {
                return Answer::Solved9(Solved9 {
                    grid: *grid,
                    count,
                    nodes: result.stats.nodes,
                    micros,
                });
            }
        }
        // Not solved, or a solution the checker rejects: the full path, whose check names the problem.
        let solution = result
            .solution
            .map(Board::from_array9)
            .transpose()
            .map_err(|e| e.to_string());
        Answer::Full(checked_result(
            self.info,
            |solution| verify::verify9(givens, solution),
            result.outcome,
            solution,
            count,
            result.stats.nodes,
            micros,
        ))
    }
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// [`solve_record`] on a readable puzzle, before the clash and the expected solution are looked at.
fn solve_puzzle(
    solver: &mut Box<dyn Solve>,
    info: &SolverInfo,
    board: &Board,
    req: &Request,
    count: bool,
) -> EntryResult {
    if !(info.supports)(board.box_size()) {
        let n = board.side();
        return EntryResult::failed(
            EntryStatus::Invalid,
            format!("solver `{}` does not support {n}x{n} boards", info.name),
        );
    }
    let report = match panic::catch_unwind(AssertUnwindSafe(|| solver.solve(board, req))) {
        Ok(r) => r,
        Err(payload) => {
            *solver = (info.make)();
            return EntryResult::failed(
                EntryStatus::Error,
                format!(
                    "solver `{}` panicked: {}",
                    info.name,
                    panic_message(payload.as_ref())
                ),
            );
        }
    };
    let nodes = report.stats.nodes;
    let micros = u64::try_from(report.stats.time.as_micros()).unwrap_or(u64::MAX);
    let count_field = count.then_some(report.count);
    checked_result(
        info,
        |solution| verify::verify(board, solution),
        report.status,
        Ok(report.solution),
        count_field,
        nodes,
        micros,
    )
}

/// The result of a finished solve: a solution is verified by the independent checker (`verify`, against the
/// puzzle's givens) before it is reported solved; `solution` is `Err` when the solver's answer is not even a board.
fn checked_result(
    info: &SolverInfo,
    verify: impl FnOnce(&Board) -> Result<(), verify::VerifyError>,
    status: Outcome,
    solution: Result<Option<Board>, String>,
    count_field: Option<u64>,
    nodes: u64,
    micros: u64,
) -> EntryResult {
    let base = |status, solution, error| EntryResult {
        status,
        solution,
        count: count_field,
        error,
        mismatch: None,
        clash: None,
        nodes,
        micros,
    };
    let wrong = |e: &dyn std::fmt::Display| {
        Some(format!(
            "solver `{}` returned a wrong solution: {e}",
            info.name
        ))
    };
    match (status, solution) {
        (Outcome::Solved, Err(e)) => base(EntryStatus::Error, None, wrong(&e)),
        (Outcome::Solved, Ok(Some(solution))) => match verify(&solution) {
            Ok(()) => base(EntryStatus::Solved, Some(solution), None),
            Err(e) => base(EntryStatus::Error, None, wrong(&e)),
        },
        (Outcome::Solved, Ok(None)) => base(
            EntryStatus::Error,
            None,
            Some(format!(
                "solver `{}` reported solved without a solution",
                info.name
            )),
        ),
        (Outcome::Unsatisfiable, _) => base(EntryStatus::Unsatisfiable, None, None),
        (Outcome::Limit(_), _) => base(EntryStatus::Limit, None, None),
    }
}

/// How `outcome` contradicts the `expected` solution that came with the puzzle, if it does (see the module
/// documentation for the rules).
fn compare_expected(board: &Board, expected: &Board, outcome: &EntryResult) -> Option<String> {
    let expected_valid = || verify::verify(board, expected);
    match (outcome.status, &outcome.solution) {
        (EntryStatus::Solved, Some(found)) if found == expected => None,
        (EntryStatus::Solved, Some(_)) => match expected_valid() {
            Err(e) => Some(format!("the expected solution is wrong: {e}")),
            Ok(()) if outcome.count.is_some_and(|c| c >= 2) => None,
            Ok(()) if outcome.count == Some(1) => Some(
                "the solver proved the puzzle unique, yet the expected solution differs and also solves it"
                    .to_string(),
            ),
            Ok(()) => Some(
                "the solution differs from the expected one (both are valid: the puzzle has several solutions)"
                    .to_string(),
            ),
        },
        (EntryStatus::Unsatisfiable, _) => match expected_valid() {
            Ok(()) => Some("unsatisfiable, yet the expected solution solves the puzzle".to_string()),
            Err(_) => None,
        },
        _ => None,
    }
}

/// Runs `sudoku solve`.
pub fn run(args: &SolveArgs) -> u8 {
    let Some(info) = registry::find(&args.solver) else {
        eprintln!(
            "sudoku: unknown solver `{}` (known: {})",
            args.solver,
            registry::names()
        );
        return EXIT_USAGE;
    };
    // `-j 1` solves on the calling thread; otherwise a pool of that many threads (0 = all cores).
    let pool = match args.threads {
        1 => None,
        n => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("sudoku: cannot start {n} threads: {e}");
                return EXIT_USAGE;
            }
        },
    };
    let mut limits = Limits::none();
    limits.nodes = args.node_limit;
    limits.time = args.time_limit.filter(|t| !t.is_zero());
    let interrupt = pipeline::interrupt_flag(
        "sudoku: interrupted: writing the results finished so far (Ctrl-C again quits)",
        EXIT_INTERRUPTED,
    );
    if let Some(flag) = &interrupt {
        limits = limits.with_cancel(flag.clone());
    }
    let interrupted = || {
        interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    };
    let (solution_limit, counting) = args.solution_limit();
    let req = Request {
        solution_limit,
        limits,
    };
    let shard = match Shard::resolve(args.shard) {
        Ok(s) => s.unwrap_or(Shard::WHOLE),
        Err(e) => {
            eprintln!("sudoku: {e}");
            return EXIT_USAGE;
        }
    };
    if !shard.is_whole() {
        eprintln!(
            "sudoku: shard {shard}: records k of each input with k % {} == {}",
            shard.count, shard.index
        );
    }
    let options = ReaderOptions {
        box_size: args.size,
    };
    let files: Vec<String> = if args.files.is_empty() {
        vec!["-".to_string()]
    } else {
        args.files.clone()
    };

    let mut sink = Sink {
        // 64 KiB: a write call per ~800 lines instead of per ~100 (the output is flushed after each chunk anyway).
        out: BufWriter::with_capacity(1 << 16, io::stdout()),
        writer: OutputFormat::from(args.format).writer_with(WriterOptions {
            with_filename: args.names_files(),
        }),
        all_solved: true,
        io_error: false,
        interrupted_at: None,
    };
    // One solver per pool thread, kept across chunks and files (rayon's `map_init` would build one per split);
    // a solver that uses rayon inside a solve gets a spare instead of deadlocking (see `PerThread`).
    let solvers: PerThread<Box<dyn Solve>> = PerThread::new(
        pool.as_ref()
            .map_or(1, rayon::ThreadPool::current_num_threads),
    );
    let lane = info.solve9.map(|solve9| Lane9 {
        solve9,
        info,
        req: req.clone(),
        count: counting,
        timed: args.format == FormatArg::Jsonl,
    });
    let mut pipeline = Pipeline::new(pool.as_ref(), interrupt.as_deref());

    for path in &files {
        if interrupted() {
            break;
        }
        let input = match input::open(path) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("sudoku: {path}: {e}");
                sink.io_error = true;
                continue;
            }
        };
        let name = input.name;
        let records = Records {
            reader: Reader::with_options(input.reader, options).without_clash_check(),
            shard,
            next_index: 0,
        };
        pipeline.read_ahead = path != "-";
        let boxed = |board: &Board| {
            solvers.with(info.make, |solver| {
                solve_puzzle(solver, info, board, &req, counting)
            })
        };
        let process = |item: &Compact| match item {
            Compact::Givens9 { line, givens } => solve_givens9(*line, givens, lane.as_ref(), boxed),
            Compact::Record(record) => Answer::Full(solve_record(record, |board| {
                match (lane.as_ref(), <&[u8; 81]>::try_from(board.cells())) {
                    (Some(lane), Ok(givens)) => lane.solve(givens, boxed).into_full(),
                    _ => boxed(board),
                }
            })),
        };
        let whole = pipeline.run(records, |chunk| {
            let written = match pipeline.pool {
                // One thread: each result written as soon as it is known, from the stack, instead of collected
                // into a vector of results first (moves of ~200-byte results cost more than the writing).
                None => chunk.iter().all(|item| {
                    if pipeline.cancelled() {
                        return sink.write_one(path, &name, item, None);
                    }
                    let answer = process(item);
                    sink.write_one(
                        path,
                        &name,
                        item,
                        answer.finished(interrupted).then_some(&answer),
                    )
                }),
                Some(_) => {
                    let outcomes = pipeline.map(&chunk, |item| {
                        let answer = process(item);
                        answer.finished(interrupted).then_some(answer)
                    });
                    chunk
                        .iter()
                        .zip(&outcomes)
                        .all(|(item, outcome)| sink.write_one(path, &name, item, outcome.as_ref()))
                }
            };
            if written && sink.flush() {
                Flow::Continue
            } else {
                Flow::Stop
            }
        });
        if !whole {
            break;
        }
    }
    if let Some((name, line)) = &sink.interrupted_at {
        eprintln!(
            "sudoku: interrupted: the results above cover the input before {name}: line {line}"
        );
    }
    if sink.io_error {
        EXIT_USAGE
    } else if sink.interrupted_at.is_some() {
        EXIT_INTERRUPTED
    } else if sink.all_solved {
        EXIT_OK
    } else {
        EXIT_FAILED
    }
}

/// The records of one input that belong to this run's shard, in the reader's compact form.
struct Records<R> {
    reader: Reader<R>,
    shard: Shard,
    /// 0-based index in the input of the next record read.
    next_index: usize,
}

impl<R: std::io::BufRead> Iterator for Records<R> {
    type Item = Compact;

    fn next(&mut self) -> Option<Compact> {
        loop {
            let item = self.reader.next_compact()?;
            let k = self.next_index;
            self.next_index += 1;
            if self.shard.contains(k) {
                return Some(item);
            }
        }
    }
}

/// Where results go, and what the exit code will say.
struct Sink {
    /// Standard output, buffered (not locked: the writing task may run on any pool thread).
    out: BufWriter<io::Stdout>,
    /// The output format.
    writer: Box<dyn ResultFormat>,
    /// False once some puzzle was not solved.
    all_solved: bool,
    /// True once an input or output failed.
    io_error: bool,
    /// Input name and line of the first record Ctrl-C left unfinished: the run stopped there.
    interrupted_at: Option<(String, usize)>,
}

impl Sink {
    /// Writes the result of one record of input `path` (as given; `name` in messages), with stderr messages for
    /// failures; false when the run must stop: output failed (a closed pipe stops it quietly), or the record was
    /// left unfinished by Ctrl-C (`outcome` is `None`: everything before it is written, nothing after).
    fn write_one(
        &mut self,
        path: &str,
        name: &str,
        item: &Compact,
        answer: Option<&Answer>,
    ) -> bool {
        let line = item.line();
        let outcome = match answer {
            Some(Answer::Full(outcome)) => outcome,
            Some(Answer::Solved9(solved)) => return self.write_solved9(path, line, solved),
            None => {
                self.interrupted_at = Some((name.to_string(), line));
                self.flush();
                return false;
            }
        };
        let parse_error = match item {
            Compact::Record(record) => record.item.as_ref().err(),
            Compact::Givens9 { .. } => None,
        };
        if let Some(e) = parse_error {
            if e.is_io() {
                eprintln!("sudoku: {name}: {}", e.kind);
                self.io_error = true;
                return true;
            }
        }
        if outcome.status != EntryStatus::Solved {
            self.all_solved = false;
            report_failure(name, line, parse_error, outcome);
        }
        if let Some(why) = &outcome.mismatch {
            self.all_solved = false;
            eprintln!(
                "{name}: line {line}: {}, but {why}",
                outcome.status.as_str()
            );
        }
        let entry = Entry {
            file: Some(path),
            line,
            status: outcome.status,
            solution: outcome.solution.as_ref(),
            count: outcome.count,
            error: outcome.error.as_deref(),
            expected_mismatch: outcome.mismatch.is_some(),
            nodes: outcome.nodes,
            micros: outcome.micros,
        };
        match self.writer.write_entry(&mut self.out, &entry) {
            Ok(()) => true,
            Err(e) => self.output_failed(&e),
        }
    }

    /// Writes a verified 9x9 solution of input `path`'s `line`: from its cells when the format allows, else as a
    /// whole entry. False when the output failed.
    fn write_solved9(&mut self, path: &str, line: usize, solved: &Solved9) -> bool {
        let written = match self
            .writer
            .write_solved9(&mut self.out, &solved.grid, solved.count)
        {
            Some(written) => written,
            None => {
                // Values 1..=9 (checked), so the board is always built.
                let board = Board::from_array9(solved.grid).ok();
                let entry = Entry {
                    file: Some(path),
                    line,
                    status: EntryStatus::Solved,
                    solution: board.as_ref(),
                    count: solved.count,
                    error: None,
                    expected_mismatch: false,
                    nodes: solved.nodes,
                    micros: solved.micros,
                };
                self.writer.write_entry(&mut self.out, &entry)
            }
        };
        match written {
            Ok(()) => true,
            Err(e) => self.output_failed(&e),
        }
    }

    /// Flushes the output (after each chunk, so the results of a slow run show early); false when it failed.
    fn flush(&mut self) -> bool {
        match self.out.flush() {
            Ok(()) => true,
            Err(e) => self.output_failed(&e),
        }
    }

    /// Stops the run: a closed pipe quietly (the reader has what it wanted; the exit code covers the results
    /// written), any other write failure with a message and exit code 2.
    fn output_failed(&mut self, e: &io::Error) -> bool {
        if !is_broken_pipe(e) {
            eprintln!("sudoku: writing output: {e}");
            self.io_error = true;
        }
        false
    }
}

/// The stderr message of a puzzle on `line` that was not solved (`parse_error`: why its record was unreadable):
/// `FILE: line L: status: detail`.
fn report_failure(
    name: &str,
    line: usize,
    parse_error: Option<&ParseError>,
    outcome: &EntryResult,
) {
    match (parse_error.or(outcome.clash.as_deref()), &outcome.error) {
        (Some(e), _) => {
            let column = e
                .column
                .map(|c| format!(", column {c}"))
                .unwrap_or_default();
            eprintln!("{name}: line {}{column}: invalid: {}", e.line, e.kind);
        }
        (None, Some(error)) => {
            eprintln!("{name}: line {line}: {}: {error}", outcome.status.as_str())
        }
        (None, None) => eprintln!(
            "{name}: line {line}: {}{}",
            outcome.status.as_str(),
            if outcome.status == EntryStatus::Limit {
                let n = outcome.nodes;
                format!(
                    " (search stopped after {n} node{})",
                    if n == 1 { "" } else { "s" }
                )
            } else {
                String::new()
            }
        ),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    use crate::parse::Reader;
    use csp_core::Stats;
    use sudoku::masks::{InputError, MaskResult};
    use sudoku::Report;

    /// Panics on its first solve, then answers like `table`.
    struct Flaky;

    impl Solve for Flaky {
        fn solve(&mut self, _board: &Board, _req: &Request) -> Report {
            panic!("flaky solver exploded");
        }
    }

    const FLAKY: SolverInfo = SolverInfo {
        name: "flaky",
        description: "panics",
        supports: |_| true,
        make: || (crate::solvers::table::INFO.make)(),
        solve9: None,
    };

    #[test]
    fn a_panicking_solve_is_reported_for_its_record_and_the_solver_rebuilt() {
        let text =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
        let record = Reader::new(text.as_bytes()).next().unwrap();
        let mut solver: Box<dyn Solve> = Box::new(Flaky);
        let mut solve =
            |board: &Board| solve_puzzle(&mut solver, &FLAKY, board, &Request::first(), false);
        let outcome = solve_record(&record, &mut solve);
        assert_eq!(outcome.status, EntryStatus::Error);
        assert_eq!(
            outcome.error.as_deref(),
            Some("solver `flaky` panicked: flaky solver exploded")
        );
        // The replacement instance solves the next record.
        let outcome = solve_record(&record, &mut solve);
        assert_eq!(outcome.status, EntryStatus::Solved);
    }

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn cells(line: &str) -> [u8; 81] {
        let board: Board = line.parse().unwrap();
        board.cells().try_into().unwrap()
    }

    /// A lane through `solve9`, counting and untimed, under `FLAKY`'s name.
    fn lane_answering(solve9: sudoku::Solve9) -> Lane9<'static> {
        Lane9 {
            solve9,
            info: &FLAKY,
            req: Request::first(),
            count: true,
            timed: false,
        }
    }

    fn answer_with(grid: [u8; 81]) -> Result<MaskResult<[u8; 81]>, InputError> {
        Ok(MaskResult {
            outcome: Outcome::Solved,
            count: 1,
            solution: Some(grid),
            stats: Stats::default(),
        })
    }

    fn unexpected(answer: Answer) -> ! {
        panic!("unexpected answer {answer:?}")
    }

    #[test]
    fn the_lane_passes_on_a_checked_solution_as_its_cells() {
        let lane = lane_answering(|_, _| answer_with(cells(SOLUTION)));
        match lane.solve(&cells(PUZZLE), |_| unreachable!("the lane answers")) {
            Answer::Solved9(solved) => {
                assert_eq!(solved.grid, cells(SOLUTION));
                assert_eq!(solved.count, Some(1));
            }
            other => unexpected(other),
        }
    }

    #[test]
    fn the_lane_reports_a_solution_the_checker_rejects_as_an_error_naming_why() {
        let lanes: [(sudoku::Solve9, &str); 3] = [
            (
                |_, _| {
                    let mut g = cells(SOLUTION);
                    g.swap(2, 3);
                    answer_with(g)
                },
                "lacks",
            ),
            (
                |_, _| {
                    let mut g = cells(SOLUTION);
                    g[80] = 12;
                    answer_with(g)
                },
                "12",
            ),
            (
                // Rows 1 and 2 exchanged: still a valid grid, but row 1's givens move.
                |_, _| {
                    let mut g = cells(SOLUTION);
                    g.copy_within(9..18, 0);
                    g[9..18].copy_from_slice(&cells(SOLUTION)[..9]);
                    answer_with(g)
                },
                "changes the given",
            ),
        ];
        for (solve9, why) in lanes {
            match lane_answering(solve9).solve(&cells(PUZZLE), |_| unreachable!()) {
                Answer::Full(outcome) => {
                    assert_eq!(outcome.status, EntryStatus::Error);
                    let error = outcome.error.unwrap();
                    assert!(error.starts_with("solver `flaky` returned a wrong solution"));
                    assert!(error.contains(why), "{error}");
                }
                other => unexpected(other),
            }
        }
    }

    #[test]
    fn a_checked_solution_as_a_full_result_keeps_its_board_count_and_nodes() {
        let solved = Answer::Solved9(Solved9 {
            grid: cells(SOLUTION),
            count: Some(2),
            nodes: 4,
            micros: 0,
        });
        let full = solved.into_full();
        assert_eq!(full.status, EntryStatus::Solved);
        assert_eq!(full.solution, Some(SOLUTION.parse().unwrap()));
        assert_eq!((full.count, full.nodes), (Some(2), 4));
    }

    #[test]
    fn durations_parse_with_and_without_units() {
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("2s").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("1.5").unwrap(), Duration::from_millis(1500));
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("soon").is_err());
    }
}
