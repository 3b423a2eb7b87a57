//! `bench-runner`: arguments -> contenders -> run -> verify -> report. See the library for each step.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use bench_runner::cli::{Args, Command, Kind, MergeArgs, ReportArgs};
use bench_runner::family::Family;
use bench_runner::inputs::{
    default_datasets, default_html_path, git_revision, machine_description, utc_now,
};
use bench_runner::report::{
    csv::Csv, html::Html, json::Json, markdown::Markdown, plot::Plot, Output,
};
use bench_runner::run::{run, Dataset, Options, BASELINES};
use bench_runner::summary::{RunConfig, RunSummary, ScalingPoint};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::PathBuf;
use std::time::Instant;
use sudoku::shard::Shard;

/// Exit codes: 0 the run finished and every answer was verified (puzzles stopped at a limit, invalid or
/// unsatisfiable are results); 1 with `--strict`, some puzzle ended without an answer; 2 usage or I/O error;
/// 3 a wrong answer or a disagreement between solvers; 130 interrupted (partial report written).
const EXIT_UNSOLVED: u8 = 1;
const EXIT_USAGE: u8 = 2;
const EXIT_WRONG: u8 = 3;
const EXIT_INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    let args = bench_runner::cli::parse_args();
    if let Some(Command::Merge(m)) = &args.command {
        return merge(m);
    }
    match args.kind {
        Kind::Sudoku => app(&bench_runner::sudoku_family::SudokuFamily, &args),
        Kind::Minizinc => app(&bench_runner::minizinc_family::MinizincFamily, &args),
        Kind::Puzzles(family) => app(&bench_runner::puzzles_family::PuzzlesFamily(family), &args),
    }
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("bench-runner: {msg}");
    ExitCode::from(EXIT_USAGE)
}

/// `bench-runner merge`: reads the shards' reports and writes the merged one like a run's.
fn merge(m: &MergeArgs) -> ExitCode {
    let summary = match bench_runner::merge::merge(&m.parts) {
        Ok(s) => s,
        Err(e) => return fail(format!("merge: {e}")),
    };
    eprintln!(
        "bench-runner: merged {} shards ({} datasets)",
        summary.merged.len(),
        summary.datasets.len()
    );
    report(&summary, &m.report, m.html.clone())
}

/// Writes every requested report of a finished (or merged, or interrupted) run and returns the exit code.
fn report(summary: &RunSummary, args: &ReportArgs, html: Option<PathBuf>) -> ExitCode {
    let mut outputs: Vec<Box<dyn Output>> = vec![Box::new(Markdown { wide: args.wide })];
    if let Some(path) = &args.json {
        outputs.push(Box::new(Json { path: path.clone() }));
    }
    if let Some(path) = &args.csv {
        outputs.push(Box::new(Csv { path: path.clone() }));
    }
    if let Some(dir) = &args.plot {
        outputs.push(Box::new(Plot { dir: dir.clone() }));
    }
    if let Some(path) = &html {
        outputs.push(Box::new(Html { path: path.clone() }));
    }
    let mut code = ExitCode::SUCCESS;
    for out in &outputs {
        if let Err(e) = out.emit(summary) {
            eprintln!("bench-runner: {e}");
            code = ExitCode::from(EXIT_USAGE);
        }
    }
    if let (Some(path), true) = (&html, code == ExitCode::SUCCESS) {
        eprintln!("bench-runner: HTML report written to {}", path.display());
    }
    if code != ExitCode::SUCCESS {
        code
    } else if summary.errors() > 0 {
        eprintln!(
            "bench-runner: {} wrong answers or disagreements (see above)",
            summary.errors()
        );
        ExitCode::from(EXIT_WRONG)
    } else if summary.partial {
        ExitCode::from(EXIT_INTERRUPTED)
    } else if args.strict && !summary.all_solved() {
        eprintln!("bench-runner: --strict: some puzzles ended without an answer (see the table)");
        ExitCode::from(EXIT_UNSOLVED)
    } else {
        ExitCode::SUCCESS
    }
}

fn app<F: Family>(family: &F, args: &Args) -> ExitCode {
    let started = Instant::now();
    let started_utc = utc_now();
    let registry = family.solvers();
    if args.list {
        // Not `println!`, which panics when stdout is closed or full.
        let width = registry.iter().map(|s| s.name.len()).max().unwrap_or(0);
        let mut out = std::io::stdout().lock();
        let written = registry
            .iter()
            .try_for_each(|s| writeln!(out, "{:width$}  {}", s.name, s.description))
            .and_then(|()| out.flush());
        return match written {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                fail(format!("cannot write stdout: {e}"))
            }
            _ => ExitCode::SUCCESS,
        };
    }
    let solvers: Vec<String> = if args.solvers.is_empty() {
        registry.iter().map(|s| s.name.to_string()).collect()
    } else {
        args.solvers.clone()
    };
    if let Some(bad) = solvers
        .iter()
        .find(|s| !registry.iter().any(|r| r.name == s.as_str()))
    {
        return fail(format!(
            "unknown solver `{bad}` for --kind {}; --list shows the registry",
            family.kind()
        ));
    }
    let paths = if args.inputs.is_empty() {
        default_datasets(family.kind())
    } else {
        args.inputs.clone()
    };
    if paths.is_empty() {
        return fail("no dataset given and none found under datasets/");
    }
    let datasets: Vec<Dataset> = paths.iter().map(|p| Dataset::from_path(p)).collect();
    let shard = match Shard::resolve(args.shard) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Some(s) = shard {
        eprintln!(
            "bench-runner: shard {s}: entries whose index k has k % {} == {}",
            s.count, s.index
        );
    }

    let cancel = sudoku::pipeline::interrupt_flag(
        "interrupted: finishing the puzzles in flight and writing a partial report (Ctrl-C again quits)",
        EXIT_INTERRUPTED,
    )
    .unwrap_or_else(|| {
        eprintln!("bench-runner: Ctrl-C will not stop cleanly: no signal handler could be installed");
        Arc::new(AtomicBool::new(false))
    });

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = args.threads.map_or(cores, |t| t as usize);
    let zero_none = |x: u64| (x > 0).then_some(x);
    let mut opts = Options {
        solvers,
        threads,
        solution_limit: args.count_limit.unwrap_or(args.limit),
        node_limit: args.node_limit,
        baseline_node_limit: zero_none(args.baseline_node_limit),
        time_limit: (args.time_limit > 0.0).then(|| Duration::from_secs_f64(args.time_limit)),
        warmup: Duration::from_millis(args.warmup_ms),
        chunk: args.chunk as usize,
        sample: args.sample,
        seed: args.seed,
        per_puzzle: args.per_puzzle,
        cancel,
        shard: shard.unwrap_or(Shard::WHOLE),
    };

    let total_bytes: u64 = datasets.iter().filter_map(Dataset::size_bytes).sum();
    let progress = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total_bytes), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} {msg:20} [{bar:40}] {bytes}/{total_bytes} {elapsed}",
    ) {
        progress.set_style(style.progress_chars("=> "));
    }

    let mut scaling = None;
    let result = if args.scaling {
        let solver = if args.solvers.is_empty() {
            registry
                .iter()
                .find(|s| s.name == "fast")
                .or(registry.last())
                .map(|s| s.name.to_string())
        } else {
            opts.solvers.first().cloned()
        };
        let Some(solver) = solver else {
            return fail("no solver to measure");
        };
        opts.solvers = vec![solver.clone()];
        let mut points: Vec<ScalingPoint> = Vec::new();
        let mut last = None;
        for t in 1..=cores {
            opts.threads = t;
            progress.reset();
            let r = run(family, &datasets, &opts, &progress);
            if let Ok((ds, _, false)) = &r {
                let (n, wall) = ds
                    .iter()
                    .flat_map(|d| &d.solvers)
                    .fold((0, 0.0), |(n, w), s| {
                        (n + s.ran(), w + s.wall.as_secs_f64())
                    });
                let pps = if wall > 0.0 { n as f64 / wall } else { 0.0 };
                let base = points.first().map_or(pps, |p| p.puzzles_per_sec);
                let speedup = if base > 0.0 { pps / base } else { 0.0 };
                points.push(ScalingPoint {
                    threads: t,
                    puzzles_per_sec: pps,
                    speedup,
                    efficiency: speedup / t as f64,
                });
            }
            let stop = !matches!(r, Ok((_, _, false)));
            last = Some(r);
            if stop {
                break;
            }
        }
        scaling = Some((solver, points));
        last.unwrap_or_else(|| Ok((Vec::new(), Vec::new(), false)))
    } else {
        run(family, &datasets, &opts, &progress)
    };
    progress.finish_and_clear();
    let (datasets, rows, partial) = match result {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if !partial {
        for ds in datasets.iter().filter(|d| d.puzzles == 0) {
            eprintln!("bench-runner: {}: no puzzles found", ds.path);
        }
    }

    let summary = RunSummary {
        config: RunConfig {
            kind: family.kind().to_string(),
            solvers: opts.solvers.clone(),
            threads: opts.threads,
            cores,
            solution_limit: opts.solution_limit,
            node_limit: opts.node_limit,
            baseline_node_limit: opts.baseline_node_limit,
            baselines: BASELINES
                .iter()
                .filter(|b| opts.solvers.iter().any(|s| s == *b))
                .map(|b| b.to_string())
                .collect(),
            time_limit_ms: opts.time_limit.map(|d| d.as_millis() as u64),
            warmup_ms: args.warmup_ms,
            sample: opts.sample,
            seed: opts.seed,
            chunk: opts.chunk,
            git_revision: git_revision(),
            machine: machine_description(),
            started: started_utc,
            shard,
        },
        datasets,
        rows,
        scaling,
        partial,
        wall_secs: started.elapsed().as_secs_f64(),
        merged: Vec::new(),
    };
    let html = if args.no_html {
        None
    } else {
        Some(args.html.clone().unwrap_or_else(default_html_path))
    };
    report(&summary, &args.report, html)
}
