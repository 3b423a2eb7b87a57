//! Throughput of registry solvers (the `csp-*` presets by default) on puzzle files, shaped like the peers
//! harness (`../shared/peers`) so the two can be run alternately and compared as a ratio:
//!
//! `cargo run --release -p sudoku --example solver_rate -- FILE... [--count] [--rounds R] [--max P] [--solvers a,b]`
//!
//! Method: every line of the file is parsed by the crate's own parser before the clock starts (lines that are
//! not a 9x9 puzzle are skipped), and at most `P` puzzles are kept (default all). Each solver is a fresh
//! registry instance (`SolverInfo::make`), exactly what the CLI and the bench runner use, so the figure
//! includes the board-to-engine mapping. The solver runs once untimed over the puzzles (warm-up: models built,
//! buffers sized), then `R` timed rounds (default 3), single-threaded, in file order, solution limit 1 (2 with
//! `--count`). The median round is reported with the per-puzzle search statistics. After timing, every answer
//! is checked by `sudoku::verify` (and, with `--count`, that the count is exactly 1).
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use sudoku::{find, verify, Board, Outcome, Report, Request, Solve};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut files = Vec::new();
    let mut count = false;
    let mut rounds = 3usize;
    let mut max = usize::MAX;
    let mut solvers = "csp-mrv-singles".to_string();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--count" => count = true,
            "--rounds" => rounds = it.next().and_then(|r| r.parse().ok()).unwrap_or(3),
            "--max" => max = it.next().and_then(|r| r.parse().ok()).unwrap_or(usize::MAX),
            "--solvers" => solvers = it.next().cloned().unwrap_or_default(),
            f if !f.starts_with("--") => files.push(f.to_string()),
            other => eprintln!("ignored argument {other}"),
        }
    }
    if files.is_empty() {
        eprintln!("usage: solver_rate FILE... [--count] [--rounds R] [--max P] [--solvers a,b]");
        return;
    }
    let req = if count {
        Request::count_up_to(2)
    } else {
        Request::first()
    };
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        let puzzles: Vec<Board> = text
            .lines()
            .filter_map(|l| l.get(..81)?.parse::<Board>().ok())
            .take(max)
            .collect();
        for name in solvers.split(',').filter(|s| !s.is_empty()) {
            let mut solver: Box<dyn Solve> = match find(name) {
                Some(info) => (info.make)(),
                None => {
                    eprintln!("no solver {name}");
                    continue;
                }
            };
            let mut results: Vec<Report> = puzzles.iter().map(|p| solver.solve(p, &req)).collect();
            let mut rates = Vec::new();
            for _ in 0..rounds.max(1) {
                results.clear();
                let start = Instant::now();
                for p in &puzzles {
                    results.push(solver.solve(p, &req));
                }
                rates.push(puzzles.len() as f64 / start.elapsed().as_secs_f64());
            }
            let verified = results
                .iter()
                .zip(&puzzles)
                .filter(|(r, p)| {
                    r.status == Outcome::Solved
                        && r.solution
                            .as_ref()
                            .is_some_and(|s| verify::verify(p, s).is_ok())
                        && (!count || r.count == 1)
                })
                .count();
            let n = puzzles.len().max(1) as f64;
            let stats: csp_core::Stats = results.iter().map(|r| r.stats).sum();
            let no_guess = results.iter().filter(|r| r.stats.guesses == 0).count();
            let mut sorted = rates.clone();
            sorted.sort_by(f64::total_cmp);
            let rounds_text: Vec<String> = rates.iter().map(|r| format!("{r:.1}")).collect();
            println!(
                "{{\"solver\": \"{name}\", \"file\": \"{path}\", \"mode\": \"{}\", \"puzzles\": {}, \"verified\": {verified}, \
                 \"no_guess\": {no_guess}, \"guesses_per_puzzle\": {:.2}, \"nodes_per_puzzle\": {:.2}, \
                 \"propagations_per_puzzle\": {:.1}, \"rounds\": [{}], \"puzzles_per_sec\": {:.1}}}",
                if count { "count2" } else { "first" },
                puzzles.len(),
                stats.guesses as f64 / n,
                stats.nodes as f64 / n,
                stats.propagations as f64 / n,
                rounds_text.join(", "),
                sorted[sorted.len() / 2]
            );
        }
    }
}
