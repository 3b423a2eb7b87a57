//! Runner overhead: the same solver on the same file, through the runner (`-j 1` path) and in a bare loop,
//! alternated in one process so machine drift hits both alike.
//!
//! `cargo run --release -p bench-runner --example overhead -- FILE [SOLVER] [ROUNDS]` (defaults: `fast`, 5).
//! Prints, per round, the bare loop's puzzles/s (pre-parsed puzzles, one solver instance, nothing but the solve
//! calls timed), the runner's timed-phase puzzles/s (what its report shows) and the runner's end-to-end puzzles/s
//! (reading, solving, verification and aggregation), then the medians and the ratios.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bench_runner::family::Family;
use bench_runner::run::{run, Dataset, Options};
use bench_runner::sudoku_family::SudokuFamily;
use csp_core::Limits;
use indicatif::ProgressBar;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let file = PathBuf::from(
        args.next()
            .ok_or("usage: overhead FILE [SOLVER] [ROUNDS]")?,
    );
    let solver = args.next().unwrap_or_else(|| "fast".to_string());
    let rounds: usize = args.next().map_or(Ok(5), |r| r.parse())?;
    // `bare` or `runner` runs only that side (for `perf stat -e instructions`, which load cannot skew).
    let mode = args.next().unwrap_or_else(|| "both".to_string());
    let (do_bare, do_runner) = (mode != "runner", mode != "bare" && mode != "bare-keep");
    // `bare-keep` keeps every solution alive like the runner does for its untimed verification.
    let keep = mode == "bare-keep";
    let family = SudokuFamily;
    let mut instance = family
        .make(&solver)
        .ok_or_else(|| format!("unknown solver {solver}"))?;

    let puzzles: Vec<_> = family
        .records(Box::new(BufReader::new(File::open(&file)?)))
        .filter_map(|r| r.item.ok())
        .map(|e| e.puzzle)
        .collect();
    // (In `runner` mode the pre-parsed puzzles only serve the warm-up; their parse is counted in both modes.)
    let request = family.request(1, Limits::none());
    let opts = Options {
        solvers: vec![solver.clone()],
        threads: 1,
        solution_limit: 1,
        node_limit: None,
        baseline_node_limit: None,
        time_limit: None,
        warmup: Duration::ZERO,
        chunk: 8192,
        sample: None,
        seed: 1,
        per_puzzle: false,
        cancel: Arc::new(AtomicBool::new(false)),
        shard: sudoku::shard::Shard::WHOLE,
    };
    let datasets = [Dataset::from_path(&file)];

    // Warm-up for both paths.
    for p in &puzzles {
        std::hint::black_box(family.solve(&mut instance, p, &request).count);
    }
    let (mut bare, mut timed, mut whole) = (Vec::new(), Vec::new(), Vec::new());
    for round in 1..=rounds {
        if !do_bare {
            let (summary, _, _) = run(&family, &datasets, &opts, &ProgressBar::hidden())?;
            println!(
                "round {round}: runner timed {:.0}/s",
                summary[0].solvers[0].puzzles_per_sec()
            );
            continue;
        }
        let start = Instant::now();
        let mut solved = 0u64;
        let mut kept = Vec::with_capacity(if keep { puzzles.len() } else { 0 });
        for p in &puzzles {
            let a = family.solve(&mut instance, p, &request);
            solved += a.count;
            if keep {
                kept.push(a.solution);
            }
        }
        let bare_pps = puzzles.len() as f64 / start.elapsed().as_secs_f64();
        std::hint::black_box(solved);
        if !do_runner {
            println!("round {round}: bare loop {bare_pps:.0}/s");
            continue;
        }

        let start = Instant::now();
        let (summary, _, _) = run(&family, &datasets, &opts, &ProgressBar::hidden())?;
        let whole_pps = puzzles.len() as f64 / start.elapsed().as_secs_f64();
        let s = &summary[0].solvers[0];
        let timed_pps = s.puzzles_per_sec();
        println!(
            "round {round}: bare loop {bare_pps:.0}/s, runner timed {timed_pps:.0}/s, runner end-to-end {whole_pps:.0}/s \
             ({} puzzles, {} solved, {} errors)",
            puzzles.len(),
            s.counts.solved,
            s.errors
        );
        bare.push(bare_pps);
        timed.push(timed_pps);
        whole.push(whole_pps);
    }
    if bare.is_empty() {
        return Ok(());
    }
    let (b, t, w) = (median(bare), median(timed), median(whole));
    println!(
        "median: bare {b:.0}/s, runner timed {t:.0}/s ({:+.1}%), runner end-to-end {w:.0}/s ({:+.1}%)",
        100.0 * (t / b - 1.0),
        100.0 * (w / b - 1.0)
    );
    Ok(())
}
