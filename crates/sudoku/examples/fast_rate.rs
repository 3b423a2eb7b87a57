//! Throughput of the `fast` 9x9 solver on a puzzle file, in the same shape as the peers harness
//! (`../shared/peers`), so the two can be run alternately and compared as a ratio:
//!
//! `cargo run --release -p sudoku --example fast_rate -- FILE... [--count] [--rounds R] [--no-warmup] [--triad | --triad-portable | --switch N | --givens LO HI] [--check-triad]`
//!
//! Method: every line's first 81 characters are parsed by the crate's own parser (lines that are not a 9x9
//! puzzle are skipped) before the clock starts; the puzzles are solved once untimed (warm-up, which also counts the guesses and nodes; `--no-warmup` skips it, for
//! instruction counts under callgrind), then `R` timed rounds (default 3)
//! single-threaded, each solving every puzzle in file order with solution limit 1 (or 2 with `--count`). Each
//! round's rate is printed and the median reported. Verification by `sudoku::verify` (with `--count`, also
//! exactly one solution) runs after timing, outside the clock.
//!
//! `--switch N` measures a dispatch `fast` does not use: band9 (`solve9`) with a budget of `N` nodes, and when
//! that runs out, triad9 (`solve9_triad`) from the start, band9's nodes paid in full. `--givens LO HI` measures
//! another: triad9 for puzzles with `LO..=HI` givens, band9 for the others (`docs/measurements.md`, sixteenth
//! session: it loses on generated puzzles of typical difficulty).
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use csp_core::{LimitKind, Limits, Outcome};
use sudoku::masks::{solve9, solve9_triad, solve9_triad_portable, InputError, MaskResult};
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

/// The node budget of `--switch`.
static SWITCH_NODES: AtomicU64 = AtomicU64::new(0);

/// `--switch N`: band9 with a budget of `N` nodes, then, if the budget ran out, triad9 from the start with
/// `limits` (statistics: both runs' nodes, guesses and fails added).
fn solve_switch(
    givens: &[u8; 81],
    limit: u64,
    limits: &Limits,
) -> Result<MaskResult<[u8; 81]>, InputError> {
    let budget = Limits::none().with_nodes(SWITCH_NODES.load(Ordering::Relaxed));
    let first = solve9(givens, limit, &budget)?;
    if first.outcome != Outcome::Limit(LimitKind::Nodes) {
        return Ok(first);
    }
    let mut second = solve9_triad(givens, limit, limits)?;
    second.stats.nodes += first.stats.nodes;
    second.stats.guesses += first.stats.guesses;
    second.stats.fails += first.stats.fails;
    Ok(second)
}

/// The givens range of `--givens LO HI`.
static GIVENS_LO: AtomicU64 = AtomicU64::new(0);
static GIVENS_HI: AtomicU64 = AtomicU64::new(0);

/// `--givens LO HI`: triad9 for puzzles with LO..=HI givens, band9 for the others.
fn solve_by_givens(
    givens: &[u8; 81],
    limit: u64,
    limits: &Limits,
) -> Result<MaskResult<[u8; 81]>, InputError> {
    let n = givens.iter().filter(|&&v| v != 0).count() as u64;
    if (GIVENS_LO.load(Ordering::Relaxed)..=GIVENS_HI.load(Ordering::Relaxed)).contains(&n) {
        solve9_triad(givens, limit, limits)
    } else {
        solve9(givens, limit, limits)
    }
}

/// The cross-check of the triad solver against `fast`'s: every puzzle with solution limits 1 and 2 on both, same
/// counts and outcomes, every solution verified. Prints each mismatch and a summary line; false on any mismatch.
fn check_triad(path: &str, puzzles: &[[u8; 81]]) -> bool {
    let limits = Limits::none();
    let (mut bad, mut counts) = (0usize, [0usize; 3]);
    let (mut guesses_band, mut guesses_triad) = (0u64, 0u64);
    for p in puzzles {
        for limit in [1, 2] {
            let (Ok(a), Ok(b)) = (solve9(p, limit, &limits), solve9_triad(p, limit, &limits))
            else {
                bad += 1;
                continue;
            };
            let ok_a = a.solution.as_ref().is_none_or(|s| valid(p, s));
            let ok_b = b.solution.as_ref().is_none_or(|s| valid(p, s));
            if a.count != b.count || a.outcome != b.outcome || !ok_a || !ok_b {
                println!(
                    "mismatch, limit {limit}: band9 {} {:?} {ok_a}, triad9 {} {:?} {ok_b}: {p:?}",
                    a.count, a.outcome, b.count, b.outcome
                );
                bad += 1;
            }
            if limit == 2 {
                counts[a.count.min(2) as usize] += 1;
                guesses_band += a.stats.guesses;
                guesses_triad += b.stats.guesses;
            }
        }
    }
    println!(
        "{path}: {} puzzles, none/one/two+ {counts:?}, guesses to 2: band9 {guesses_band}, triad9 {guesses_triad}, mismatches {bad}",
        puzzles.len()
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
    let switch = args
        .iter()
        .position(|a| a == "--switch")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<u64>().ok());
    if let Some(n) = switch {
        SWITCH_NODES.store(n, Ordering::Relaxed);
    }
    let by_givens = args.iter().position(|a| a == "--givens").and_then(|i| {
        Some((
            args.get(i + 1)?.parse::<u64>().ok()?,
            args.get(i + 2)?.parse::<u64>().ok()?,
        ))
    });
    if let Some((lo, hi)) = by_givens {
        GIVENS_LO.store(lo, Ordering::Relaxed);
        GIVENS_HI.store(hi, Ordering::Relaxed);
    }
    let solve = if by_givens.is_some() {
        solve_by_givens
    } else if switch.is_some() {
        solve_switch
    } else if portable {
        solve9_triad_portable
    } else if triad {
        solve9_triad
    } else {
        solve9
    };
    let files: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| {
            !a.starts_with("--")
                && (i == 0 || (args[i - 1] != "--rounds" && args[i - 1] != "--switch"))
                && !(i >= 1 && args[i - 1] == "--givens")
                && !(i >= 2 && args[i - 2] == "--givens")
        })
        .map(|(_, a)| a)
        .collect();
    if files.is_empty() {
        eprintln!("usage: fast_rate FILE... [--count] [--rounds R] [--no-warmup] [--triad | --triad-portable | --switch N | --givens LO HI] [--check-triad]");
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
            if by_givens.is_some() {
                "by-givens"
            } else if switch.is_some() {
                "switch"
            } else if portable {
                "triad-portable"
            } else if triad {
                "triad"
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
