//! Criterion benchmarks of csp-core.
//!
//! - `domain/*`: one remove + one restore + popcount + lowest on u64, u128 and bitvec domains (why the engine keeps
//!   bitvec off the small-domain path);
//! - `fixpoint/*`: one root propagation of a Sudoku-shaped model with givens (an easy puzzle that propagation alone
//!   solves), per propagation level;
//! - `queens_first/*`: N-Queens first solution, MRV + forward checking + median values;
//! - `sudoku/*`: count to 2 (proving uniqueness) on fixed puzzles with a reused solver, hidden singles.
//!
//! Method: criterion defaults (3 s warm-up, 100 samples); inputs are fixed constants so runs compare. Solutions are
//! checked once before timing, not inside the timed loop.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use csp_core::domain::{Domain, WideDomain};
use csp_core::state::State;
use csp_core::{Model, Outcome, Problem, Propagation, SearchConfig, Solver, ValueOrder, VarId};

/// Kaggle (easy), 17-clue (minimal), forum hardest: first lines of the shared datasets.
const PUZZLES: [(&str, &str); 3] = [
    (
        "kaggle",
        "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..",
    ),
    (
        "17clue",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ),
    (
        "hardest",
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
    ),
];

fn sudoku_model() -> (Problem, Vec<VarId>) {
    let mut m = Model::new();
    let cells: Vec<VarId> = (0..81)
        .map(|_| m.new_var(1, 9).expect("valid range"))
        .collect();
    for i in 0..9 {
        let row: Vec<VarId> = (0..9).map(|j| cells[i * 9 + j]).collect();
        let col: Vec<VarId> = (0..9).map(|j| cells[j * 9 + i]).collect();
        let bx: Vec<VarId> = (0..9)
            .map(|j| cells[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3])
            .collect();
        for g in [row, col, bx] {
            m.all_different(&g).expect("own variables");
        }
    }
    (m.build().expect("valid model"), cells)
}

fn givens(cells: &[VarId], line: &str) -> Vec<(VarId, i64)> {
    line.bytes()
        .enumerate()
        .filter(|(_, c)| c.is_ascii_digit() && *c != b'0')
        .map(|(i, c)| (cells[i], i64::from(c - b'0')))
        .collect()
}

fn queens(n: usize) -> Problem {
    let mut m = Model::new();
    let q: Vec<VarId> = (0..n)
        .map(|_| m.new_var(0, n as i64 - 1).expect("valid range"))
        .collect();
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
    m.all_different(&q).expect("own variables");
    m.all_different_offset(&q, &up).expect("own variables");
    m.all_different_offset(&q, &down).expect("own variables");
    m.build().expect("valid model")
}

fn domain_op<D: Domain>(st: &mut State<D>) -> u32 {
    st.push_level();
    let _ = st.remove(0, 5);
    let _ = st.remove(1, 40);
    let c = st.dom(0).count() + st.dom(1).first().unwrap_or(0) as u32;
    st.pop_level();
    c
}

fn bench_domains(c: &mut Criterion) {
    let mut g = c.benchmark_group("domain");
    let mut a: State<u64> = State::new(&[64, 64]);
    g.bench_function("u64", |b| {
        b.iter(|| black_box(domain_op(black_box(&mut a))))
    });
    let mut b2: State<u128> = State::new(&[64, 64]);
    g.bench_function("u128", |b| {
        b.iter(|| black_box(domain_op(black_box(&mut b2))))
    });
    let mut w: State<WideDomain> = State::new(&[64, 64]);
    g.bench_function("bitvec", |b| {
        b.iter(|| black_box(domain_op(black_box(&mut w))))
    });
    g.finish();
}

fn bench_fixpoint(c: &mut Criterion) {
    let (p, cells) = sudoku_model();
    let g0 = givens(&cells, PUZZLES[0].1);
    let mut g = c.benchmark_group("fixpoint");
    for prop in [Propagation::ForwardChecking, Propagation::Singles] {
        let mut solver = Solver::new(&p, SearchConfig::default().propagation(prop));
        assert_eq!(solver.solve(&g0).outcome, Outcome::Solved);
        g.bench_function(BenchmarkId::new("sudoku_easy", format!("{prop:?}")), |b| {
            b.iter(|| black_box(solver.solve(black_box(&g0)).outcome))
        });
    }
    g.finish();
}

fn bench_queens(c: &mut Criterion) {
    let mut g = c.benchmark_group("queens_first");
    g.sample_size(10);
    for n in [8, 64, 256, 1000] {
        let p = queens(n);
        let cfg = SearchConfig::default().value_order(ValueOrder::Median);
        let mut solver = Solver::new(&p, cfg);
        let r = solver.solve(&[]);
        assert!(r.solution.is_some_and(|s| p.is_solution(s.values())));
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| black_box(solver.solve(&[]).outcome))
        });
    }
    g.finish();
}

fn bench_sudoku(c: &mut Criterion) {
    let (p, cells) = sudoku_model();
    let mut solver = Solver::new(
        &p,
        SearchConfig::default().propagation(Propagation::Singles),
    );
    let mut g = c.benchmark_group("sudoku_count2");
    for (name, line) in PUZZLES {
        let gv = givens(&cells, line);
        let r = solver.count(&gv, 2);
        assert_eq!(r.count, 1, "{name} has a unique solution");
        assert!(r.first.is_some_and(|s| p.is_solution(s.values())));
        g.bench_function(name, |b| {
            b.iter(|| black_box(solver.count(black_box(&gv), 2).count))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_domains,
    bench_fixpoint,
    bench_queens,
    bench_sudoku
);
criterion_main!(benches);
