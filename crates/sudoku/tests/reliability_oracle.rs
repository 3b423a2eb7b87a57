//! The oracle cross-check at scale: every registered solver and `fast` against an independent checker on
//! 10,000 seeded random 4x4 boards (the checker matches each board against all 288 grids, enumerated by brute
//! force) and 1,000 seeded random 9x9 boards (the checker is a separate most-constrained-cell DFS). Counts are
//! compared up to 2; every returned solution is verified by `sudoku::verify`.
//!
//! The boards mix three kinds so that every outcome is common: holes cut in a random solved grid (solved,
//! unique or multiple), such boards with one given changed (mostly unsatisfiable without any clash), and random
//! givens scattered on an empty board (all outcomes, clashes included).

#![allow(clippy::unwrap_used)]

use csp_core::rng::Rng;
use sudoku::fuzz_targets::{
    count_4x4, random_solved_grid, reference_count, with_holes, CrossCheck,
};
use sudoku::Board;

/// Board `i` of the sample of `box_size`.
fn sample_board(box_size: usize, i: u64) -> Board {
    let mut rng = Rng::new(i.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ box_size as u64);
    let n = box_size * box_size;
    match i % 3 {
        0 | 1 => {
            let grid = random_solved_grid(box_size, rng.next_u64());
            // 9x9: at most 65% holes keeps the naive DFS's counting runs short.
            let max_holes = if box_size == 2 { 1000 } else { 650 };
            let mut board = with_holes(
                &grid,
                rng.below_mod((max_holes + 1) as u64) as u32,
                rng.next_u64(),
            );
            if i % 3 == 1 {
                let cell = rng.below_mod((n * n) as u64) as usize;
                let value = 1 + rng.below_mod(n as u64) as u8;
                board.set(cell, value).unwrap();
            }
            board
        }
        _ => {
            let mut board = Board::empty(box_size).unwrap();
            let givens = rng.below_mod(if box_size == 2 { 9 } else { 25 }) as usize;
            for _ in 0..givens {
                board
                    .set(
                        rng.below_mod((n * n) as u64) as usize,
                        1 + rng.below_mod(n as u64) as u8,
                    )
                    .unwrap();
            }
            board
        }
    }
}

/// Checks `boards` boards of `box_size` against `oracle`; returns how many had 0, 1 and 2+ solutions.
fn cross_check_sample(
    box_size: usize,
    boards: u64,
    node_cap: u64,
    oracle: impl Fn(&Board) -> u64,
) -> ([u64; 3], u64) {
    let mut check = CrossCheck::new(node_cap);
    let mut histogram = [0u64; 3];
    for i in 0..boards {
        let board = sample_board(box_size, i);
        let expected = oracle(&board);
        match check.check(&board) {
            Ok(Some(count)) => assert_eq!(count, expected, "board {i} {board:?}"),
            Ok(None) => {}
            Err(e) => panic!("board {i} {board:?}: {e}"),
        }
        histogram[expected as usize] += 1;
    }
    (histogram, check.limited)
}

#[test]
fn ten_thousand_random_four_by_fours_agree_with_the_enumeration_of_all_288_grids() {
    let (histogram, limited) = cross_check_sample(2, 10_000, 1_000_000, |b| count_4x4(b, 2));
    eprintln!("4x4: {histogram:?} boards with 0 / 1 / 2+ solutions, {limited} runs limited");
    assert_eq!(limited, 0, "no 4x4 board needs a million nodes");
    assert!(
        histogram.iter().all(|&h| h > 1000),
        "every outcome is common: {histogram:?}"
    );
}

#[test]
fn a_thousand_random_nine_by_nines_agree_with_the_reference_dfs() {
    let (histogram, limited) = cross_check_sample(3, 1_000, 5_000_000, |b| {
        reference_count(b, 2, 50_000_000)
            .expect("the reference DFS concludes on every sample board")
    });
    eprintln!("9x9: {histogram:?} boards with 0 / 1 / 2+ solutions, {limited} runs limited");
    assert!(
        limited <= 10,
        "{limited} solver runs hit five million nodes"
    );
    assert!(
        histogram.iter().all(|&h| h > 50),
        "every outcome is common: {histogram:?}"
    );
}
