//! Throughput of the engine on a Sudoku-shaped model (81 variables 1..9, 27 all_different), one reused solver.
//!
//! `cargo run --release -p csp-core --example sudoku_rate -- FILE [LIMIT] [count|solve] [none|fc|singles] [x]
//! [generic]` (`x` turns on locked candidates between overlapping groups, `generic` forces the general engine where
//! the group kernel would run).
//! FILE holds 81-character lines ('.' or '0' blank). Every solution is verified outside the timed loop by a direct
//! grid check (rows, columns, boxes are permutations; givens kept), not through the engine.
//!
//! Measured with callgrind (instructions inside `Solver::count`, count to 2, `singles`, per puzzle; first N lines
//! of each file), before and after the dense group paths of `propagate/groups.rs` (2026-11-22):
//!
//! | file (N)                         | nodes/puzzle | before    | after     |
//! |----------------------------------|-------------:|----------:|----------:|
//! | kaggle_10k (1000)                |          0.0 |    54.3 k |    54.6 k |
//! | 17_clue (1000)                   |          7.0 |   198.3 k |   173.6 k |
//! | forum_hardest_1905_11plus (300)  |        171.5 | 2,872 k   | 2,072 k   |
//! | top95 (95)                       |         57.9 |   967 k   |   725 k   |
//!
//! Branch mispredictions (cachegrind `--branch-sim`, 40 hardest puzzles) barely moved (2.10M -> 2.19M): the
//! place-mask loops trade instructions for data-dependent trip counts, so wall-clock gains are smaller than the
//! instruction counts suggest (about +25% puzzles/s on the hardest set, +5-15% elsewhere, on a loaded machine).
//!
//! Since then this model runs on the group kernel (`kernel.rs`; pass `generic` for the general engine). Same
//! measure, general engine (`generic`) -> kernel, 2026-11-22: kaggle_10k (1000) 54.6k -> 10.5k, 17_clue (1000)
//! 168k -> 68.2k, forum_hardest_1905_11plus (300) 1,966k -> 938k, top95 725k -> 315k; node counts identical.
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use csp_core::{Model, Outcome, Propagation, SearchConfig, Solver, VarId};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .expect("usage: sudoku_rate FILE [LIMIT] [count|solve] [none|fc|singles] [x]");
    let limit: usize = args
        .get(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(usize::MAX);
    let count_mode = args.get(3).map(|s| s == "count").unwrap_or(true);
    let prop = match args.get(4).map(String::as_str) {
        Some("none") => Propagation::None,
        Some("fc") => Propagation::ForwardChecking,
        _ => Propagation::Singles,
    };
    let text = std::fs::read_to_string(path).unwrap();
    let puzzles: Vec<Vec<u8>> = text
        .lines()
        .map(|l| l.trim().as_bytes().to_vec())
        .filter(|l| l.len() == 81)
        .take(limit)
        .collect();

    let mut m = Model::new();
    let cells: Vec<VarId> = (0..81).map(|_| m.new_var(1, 9).unwrap()).collect();
    for i in 0..9 {
        let row: Vec<VarId> = (0..9).map(|j| cells[i * 9 + j]).collect();
        let col: Vec<VarId> = (0..9).map(|j| cells[j * 9 + i]).collect();
        let bx: Vec<VarId> = (0..9)
            .map(|j| cells[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3])
            .collect();
        m.all_different(&row).unwrap();
        m.all_different(&col).unwrap();
        m.all_different(&bx).unwrap();
    }
    let problem = m.build().unwrap();
    let intersections = args[5.min(args.len())..].iter().any(|s| s == "x");
    let generic = args[5.min(args.len())..].iter().any(|s| s == "generic");
    let cfg = SearchConfig::default()
        .propagation(prop)
        .intersections(intersections)
        .generic_engine(generic);
    let mut solver = Solver::new(&problem, cfg);
    eprintln!("engine: {:?}", solver.engine());

    let givens: Vec<Vec<(VarId, i64)>> = puzzles
        .iter()
        .map(|p| {
            p.iter()
                .enumerate()
                .filter(|(_, &c)| c.is_ascii_digit() && c != b'0')
                .map(|(i, &c)| (cells[i], (c - b'0') as i64))
                .collect()
        })
        .collect();
    let mut solutions = Vec::with_capacity(puzzles.len());
    let mut total = csp_core::Stats::default();
    let mut no_guess = 0usize;
    let t = Instant::now();
    let cpu0 = thread_cpu_secs();
    for g in &givens {
        let (sol, stats, unique) = if count_mode {
            let r = solver.count(g, 2);
            (r.first, r.stats, r.count == 1)
        } else {
            let r = solver.solve(g);
            (r.solution, r.stats, r.outcome == Outcome::Solved)
        };
        no_guess += usize::from(stats.guesses == 0);
        total += stats;
        solutions.push((sol, unique));
    }
    let wall = t.elapsed().as_secs_f64();
    let secs = match (cpu0, thread_cpu_secs()) {
        (Some(a), Some(b)) => b - a,
        _ => wall,
    };
    let mut ok = 0;
    for ((sol, _unique), p) in solutions.iter().zip(&puzzles) {
        if let Some(s) = sol {
            let grid: Vec<i64> = cells.iter().map(|&c| s.value(c)).collect();
            assert!(valid(&grid, p), "wrong solution");
            ok += 1;
        }
    }
    let n = puzzles.len();
    println!(
        "{path}: {n} puzzles, {ok} solved+verified, {:.0} puzzles/s (thread CPU time; wall {:.0}/s), {:.2} us/puzzle, {:.1}% no guess, {:.2} guesses/puzzle, {:.1} nodes/puzzle",
        n as f64 / secs,
        n as f64 / wall,
        secs * 1e6 / n as f64,
        100.0 * no_guess as f64 / n as f64,
        total.guesses as f64 / n as f64,
        total.nodes as f64 / n as f64,
    );
}

fn valid(g: &[i64], givens: &[u8]) -> bool {
    let perm = |idx: &mut dyn Iterator<Item = usize>| {
        let mut seen = 0u16;
        for i in idx {
            let v = g[i];
            if !(1..=9).contains(&v) {
                return false;
            }
            seen |= 1 << v;
        }
        seen == 0b11_1111_1110
    };
    (0..9).all(|i| {
        perm(&mut (0..9).map(|j| i * 9 + j))
            && perm(&mut (0..9).map(|j| j * 9 + i))
            && perm(&mut (0..9).map(|j| (i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3))
    }) && givens
        .iter()
        .enumerate()
        .all(|(i, &c)| !(c.is_ascii_digit() && c != b'0') || g[i] == (c - b'0') as i64)
}

/// CPU time of the calling thread in seconds (Linux `/proc/thread-self/schedstat`, first field in ns): on a machine
/// shared with other jobs this measures our work, not the time spent waiting for a core. `None` elsewhere.
fn thread_cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}
