//! Throughput of the `fast` 9x9 solver on a puzzle file, in the same shape as the peers harness
//! (`../shared/peers`), so the two can be run alternately and compared as a ratio:
//!
//! `cargo run --release -p sudoku --example fast_rate -- FILE... [--count] [--rounds R] [--no-warmup] [--band | --triad | --triad-portable] [--check-triad]`
//!
//! Method: every line's first 81 characters are parsed by the crate's own parser (lines that are not a 9x9
//! puzzle are skipped) before the clock starts; the puzzles are solved once untimed (warm-up, which also counts the guesses and nodes; `--no-warmup` skips it, for
//! instruction counts under callgrind), then `R` timed rounds (default 3)
//! single-threaded, each solving every puzzle in file order with solution limit 1 (or 2 with `--count`). Each
//! round's rate is printed and the median reported. Verification by `sudoku::verify` (with `--count`, also
//! exactly one solution) runs after timing, outside the clock.
//!
//! The solver measured: `fast`'s (`masks::solve9`: band9's root, then band9 or triad9) by default; `--band`
//! band9 alone (`solve9_band`), `--triad` triad9 alone from the givens (`solve9_triad`), `--triad-portable` the
//! same on its copy compiled for the default target. Two dispatches measured and dropped earlier, `--switch N`
//! (band9 for N nodes, then triad9 from the start) and `--givens LO HI` (triad9 by the number of givens), were
//! removed when `fast` took the route by band9's root (`docs/measurements.md`, seventeenth session).
use std::time::Instant;

use csp_core::Limits;
use sudoku::masks::{solve9, solve9_band, solve9_triad, solve9_triad_portable};
use sudoku::{verify, Board};

/// The cells of a 9x9 board, for the raw solver.
fn cells9(board: &Board) -> Option<[u8; 81]> {
    board.cells().try_into().ok()
}

/// Whether `solution` solves `puzzle`, by the crate's independent checker.
fn valid(puzzle: &[u8; 81], solution: &[u8; 81]) -> bool {
    match (
        Board::from_cells(3, puzzle.to_vec()),
        Board::from_cells(3, solution.to_vec()),
    ) {
        (Ok(p), Ok(s)) => verify::verify(&p, &s).is_ok(),
        _ => false,
    }
}

/// The cross-check of `fast`'s solver against band9 alone and triad9 alone: every puzzle with solution limits 1
/// and 2 on the three, same counts and outcomes, every solution verified. Prints each mismatch and a summary
/// line; false on any mismatch.
fn check_triad(path: &str, puzzles: &[[u8; 81]]) -> bool {
    let limits = Limits::none();
    let (mut bad, mut counts) = (0usize, [0usize; 3]);
    let mut guesses = [0u64; 3];
    for p in puzzles {
        for limit in [1, 2] {
            let (Ok(a), Ok(b), Ok(c)) = (
                solve9_band(p, limit, &limits),
                solve9_triad(p, limit, &limits),
                solve9(p, limit, &limits),
            ) else {
                bad += 1;
                continue;
            };
            let ok = [&a, &b, &c].map(|r| r.solution.as_ref().is_none_or(|s| valid(p, s)));
            if a.count != b.count
                || a.count != c.count
                || a.outcome != b.outcome
                || a.outcome != c.outcome
                || ok.contains(&false)
            {
                println!(
                    "mismatch, limit {limit}: band9 {} {:?}, triad9 {} {:?}, fast {} {:?}, verified {ok:?}: {p:?}",
                    a.count, a.outcome, b.count, b.outcome, c.count, c.outcome
                );
                bad += 1;
            }
            if limit == 2 {
                counts[a.count.min(2) as usize] += 1;
                for (g, r) in guesses.iter_mut().zip([&a, &b, &c]) {
                    *g += r.stats.guesses;
                }
            }
        }
    }
    println!(
        "{path}: {} puzzles, none/one/two+ {counts:?}, guesses to 2: band9 {}, triad9 {}, fast {}, mismatches {bad}",
        puzzles.len(),
        guesses[0],
        guesses[1],
        guesses[2]
    );
    bad == 0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count = args.iter().any(|a| a == "--count");
    let rounds: usize = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let warmup = !args.iter().any(|a| a == "--no-warmup");
    // `--check-triad`: no timing; the cross-check of `check_triad` on every file.
    let check = args.iter().any(|a| a == "--check-triad");
    // `--triad`: the triad-inference solver (`masks::solve9_triad`) instead of `fast`'s `solve9`.
    // `--triad-portable`: the same, always on its copy compiled for the default target.
    let triad = args.iter().any(|a| a == "--triad");
    let portable = args.iter().any(|a| a == "--triad-portable");
    // `--band`: band9 alone (`masks::solve9_band`), the solver `fast` runs below easy roots.
    let band = args.iter().any(|a| a == "--band");
    let solve = if portable {
        solve9_triad_portable
    } else if triad {
        solve9_triad
    } else if band {
        solve9_band
    } else {
        solve9
    };
    let files: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| !a.starts_with("--") && (i == 0 || args[i - 1] != "--rounds"))
        .map(|(_, a)| a)
        .collect();
    if files.is_empty() {
        eprintln!("usage: fast_rate FILE... [--count] [--rounds R] [--no-warmup] [--band | --triad | --triad-portable] [--check-triad]");
        return;
    }
    let limit = if count { 2 } else { 1 };
    let limits = Limits::none();
    for path in files {
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        let puzzles: Vec<[u8; 81]> = text
            .lines()
            .filter_map(|l| cells9(&l.get(..81)?.parse::<Board>().ok()?))
            .collect();
        if check {
            if !check_triad(path, &puzzles) {
                std::process::exit(1);
            }
            continue;
        }
        let (mut guesses, mut nodes) = (0, 0);
        if warmup {
            for p in &puzzles {
                if let Ok(r) = solve(p, limit, &limits) {
                    guesses += r.stats.guesses;
                    nodes += r.stats.nodes;
                }
            }
        }
        let mut rates = Vec::new();
        let mut results = Vec::with_capacity(puzzles.len());
        for _ in 0..rounds.max(1) {
            results.clear();
            let start = Instant::now();
            for p in &puzzles {
                results.push(solve(p, limit, &limits));
            }
            let secs = start.elapsed().as_secs_f64();
            rates.push(puzzles.len() as f64 / secs);
        }
        let ok = results
            .iter()
            .zip(&puzzles)
            .filter(|(r, p)| match r {
                Ok(r) => {
                    r.solution.as_ref().is_some_and(|s| valid(p, s)) && (!count || r.count == 1)
                }
                Err(_) => false,
            })
            .count();
        let mut sorted = rates.clone();
        sorted.sort_by(f64::total_cmp);
        let rounds_text: Vec<String> = rates.iter().map(|r| format!("{r:.1}")).collect();
        println!(
            "{{\"solver\": \"{}\", \"file\": \"{path}\", \"mode\": \"{}\", \"puzzles\": {}, \"verified\": {ok}, \"guesses_per_puzzle\": {:.2}, \"nodes_per_puzzle\": {:.2}, \"rounds\": [{}], \"puzzles_per_sec\": {:.1}}}",
            if portable {
                "triad-portable"
            } else if triad {
                "triad"
            } else if band {
                "band"
            } else {
                "fast"
            },
            if count { "count2" } else { "first" },
            puzzles.len(),
            guesses as f64 / puzzles.len().max(1) as f64,
            nodes as f64 / puzzles.len().max(1) as f64,
            rounds_text.join(", "),
            sorted[sorted.len() / 2]
        );
    }
}
