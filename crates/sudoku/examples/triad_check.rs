//! Cross-check of the triad solver (`masks::solve9_triad`) against `fast`'s `masks::solve9` on puzzle files:
//! for every 9x9 line, both solvers with solution limit 1 and 2 must give the same count and outcome, and every
//! solution must pass the crate's independent verifier. Prints one summary line per file (and each mismatch);
//! exits non-zero on any mismatch.
//!
//! `cargo run --release -p sudoku --example triad_check -- FILE...`
use csp_core::Limits;
use sudoku::masks::{solve9, solve9_triad};
use sudoku::{verify, Board};

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

fn main() {
    let limits = Limits::none();
    let mut bad = 0usize;
    for path in std::env::args().skip(1) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("cannot read {path}");
            bad += 1;
            continue;
        };
        let (mut lines, mut counts) = (0usize, [0usize; 3]);
        let (mut guesses_band, mut guesses_triad) = (0u64, 0u64);
        for line in text.lines() {
            let Some(board) = line.get(..81).and_then(|l| l.parse::<Board>().ok()) else {
                continue;
            };
            let Ok(p) = <[u8; 81]>::try_from(board.cells()) else {
                continue;
            };
            lines += 1;
            for limit in [1, 2] {
                let (Ok(a), Ok(b)) = (solve9(&p, limit, &limits), solve9_triad(&p, limit, &limits))
                else {
                    println!("input error on {line}");
                    bad += 1;
                    continue;
                };
                let ok_a = a.solution.as_ref().is_none_or(|s| valid(&p, s));
                let ok_b = b.solution.as_ref().is_none_or(|s| valid(&p, s));
                if a.count != b.count || a.outcome != b.outcome || !ok_a || !ok_b {
                    println!(
                        "mismatch, limit {limit}: band9 {} {:?} {ok_a}, triad9 {} {:?} {ok_b}: {line}",
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
            "{path}: {lines} puzzles, none/one/two+ {counts:?}, guesses to 2 band9 {guesses_band} triad9 {guesses_triad}"
        );
    }
    if bad > 0 {
        println!("{bad} mismatches");
        std::process::exit(1);
    }
}
