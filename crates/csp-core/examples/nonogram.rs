//! A Nonogram on `regular`: each row and column is a word over {0, 1} accepted by the automaton of its clue
//! (`0* 1^c1 0+ 1^c2 0+ .. 1^ck 0*`). Shows how a Rust user models a puzzle of their own with csp-core.
//!
//! `cargo run --release -p csp-core --example nonogram -- [SIZE] [SEED]` (default 25 1): draws a random picture
//! (each cell black with probability 1/2, seeded), takes its clues, forgets the picture, solves from the clues and
//! checks the answer against the clues directly (the answer may differ from the picture when the clues allow
//! several pictures).
//!
//! Measured 2026-11-25 (one run each, wall time on the shared 2-core machine): `nonogram 10 1`: 0 nodes (propagation
//! alone); `nonogram 25 1`: 77,876 nodes, 10.3 s. Random pictures are hard for line-by-line reasoning; published
//! puzzles are designed to need less search.
#![allow(clippy::unwrap_used)]

use csp_core::{Model, Outcome, Propagation, SearchConfig, Solver, VarId};

/// Block lengths of a line.
fn clue(line: &[bool]) -> Vec<usize> {
    line.split(|&b| !b)
        .map(|r| r.len())
        .filter(|&l| l > 0)
        .collect()
}

/// The automaton of `clue` over {0, 1}: states `0..=total` walk the pattern; returns (states, transitions,
/// accepting).
fn automaton(clue: &[usize]) -> (usize, Vec<(usize, i64, usize)>, Vec<usize>) {
    // Pattern positions: for each block, its cells, then (between blocks) one mandatory gap.
    // State q = number of pattern symbols matched; "gap" states loop on 0.
    let mut pattern = Vec::new(); // true = a black cell, false = a mandatory white gap
    for (k, &c) in clue.iter().enumerate() {
        if k > 0 {
            pattern.push(false);
        }
        pattern.extend(std::iter::repeat_n(true, c));
    }
    let states = pattern.len() + 1;
    let mut t = Vec::new();
    for q in 0..states {
        // Whites may repeat before the first block, after a mandatory gap, and after the last block.
        let free_white = q == 0 || q == pattern.len() || !pattern[q - 1];
        if free_white {
            t.push((q, 0, q));
        }
        if q < pattern.len() {
            let symbol = i64::from(pattern[q]);
            if !(symbol == 0 && free_white) {
                t.push((q, symbol, q + 1));
            }
        }
    }
    (states, t, vec![pattern.len()])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().map_or(25, |s| s.parse().unwrap());
    let seed: u64 = args.get(1).map_or(1, |s| s.parse().unwrap());
    let mut rng = csp_core::rng::Rng::new(seed);
    let picture: Vec<Vec<bool>> = (0..n)
        .map(|_| (0..n).map(|_| rng.below(2) == 1).collect())
        .collect();
    let rows: Vec<Vec<usize>> = picture.iter().map(|r| clue(r)).collect();
    let cols: Vec<Vec<usize>> = (0..n)
        .map(|j| clue(&picture.iter().map(|r| r[j]).collect::<Vec<_>>()))
        .collect();

    let mut m = Model::new();
    let cell: Vec<Vec<VarId>> = (0..n)
        .map(|_| (0..n).map(|_| m.new_bool().unwrap()).collect())
        .collect();
    for (i, c) in rows.iter().enumerate() {
        let (states, t, acc) = automaton(c);
        m.regular(&cell[i], states, 0, &t, &acc).unwrap();
    }
    for (j, c) in cols.iter().enumerate() {
        let line: Vec<VarId> = (0..n).map(|i| cell[i][j]).collect();
        let (states, t, acc) = automaton(c);
        m.regular(&line, states, 0, &t, &acc).unwrap();
    }
    let p = m.build().unwrap();
    let cfg = SearchConfig::default().propagation(Propagation::ForwardChecking);
    let r = Solver::new(&p, cfg).solve(&[]);
    assert_eq!(r.outcome, Outcome::Solved);
    let s = r.solution.unwrap();
    let grid: Vec<Vec<bool>> = cell
        .iter()
        .map(|row| row.iter().map(|&x| s.value(x) == 1).collect())
        .collect();
    for i in 0..n {
        assert_eq!(clue(&grid[i]), rows[i], "row {i}");
        let col: Vec<bool> = grid.iter().map(|r| r[i]).collect();
        assert_eq!(clue(&col), cols[i], "column {i}");
    }
    for row in &grid {
        println!(
            "{}",
            row.iter()
                .map(|&b| if b { '#' } else { '.' })
                .collect::<String>()
        );
    }
    println!(
        "nonogram {n}x{n} seed {seed}: solved and checked against the clues, {} nodes, {} fails, {:.3} s",
        r.stats.nodes,
        r.stats.fails,
        r.stats.time.as_secs_f64()
    );
}
