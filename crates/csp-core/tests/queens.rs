//! N-Queens: known solution counts (sequential and parallel) and verified first solutions.
#![allow(clippy::unwrap_used)]

use csp_core::{
    parallel, Model, Outcome, Problem, Propagation, SearchConfig, Solver, ValueOrder, VarId,
    VarOrder,
};

const COUNTS: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

fn queens(n: usize) -> (Problem, Vec<VarId>) {
    let mut m = Model::new();
    let q: Vec<VarId> = (0..n)
        .map(|_| m.new_var(0, n as i64 - 1).unwrap())
        .collect();
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    (m.build().unwrap(), q)
}

/// Independent check: one queen per row by construction; columns and both diagonals distinct.
fn is_valid_placement(cols: &[i64]) -> bool {
    let n = cols.len();
    (0..n).all(|i| {
        (0..n).all(|j| {
            i == j
                || (cols[i] != cols[j]
                    && cols[i] + i as i64 != cols[j] + j as i64
                    && cols[i] - i as i64 != cols[j] - j as i64)
        })
    }) && cols.iter().all(|&c| c >= 0 && (c as usize) < n)
}

#[test]
fn queens_counts_match_the_known_sequence_sequentially() {
    for (k, &expected) in COUNTS.iter().enumerate() {
        let n = k + 1;
        let (p, _) = queens(n);
        for prop in [Propagation::ForwardChecking, Propagation::Singles] {
            let cfg = SearchConfig::default().propagation(prop);
            let r = Solver::new(&p, cfg).count(&[], u64::MAX);
            assert_eq!(r.count, expected, "n = {n}, {prop:?}");
            assert_eq!(
                r.outcome,
                if expected > 0 {
                    Outcome::Solved
                } else {
                    Outcome::Unsatisfiable
                }
            );
        }
    }
}

#[test]
fn queens_counts_match_with_naive_place_then_check() {
    for (k, &expected) in COUNTS.iter().enumerate().take(8) {
        let (p, _) = queens(k + 1);
        let cfg = SearchConfig::default()
            .propagation(Propagation::None)
            .var_order(VarOrder::Input);
        assert_eq!(
            Solver::new(&p, cfg).count(&[], u64::MAX).count,
            expected,
            "n = {}",
            k + 1
        );
    }
}

#[test]
fn queens_counts_match_the_known_sequence_in_parallel() {
    for (k, &expected) in COUNTS.iter().enumerate() {
        let (p, _) = queens(k + 1);
        let r = parallel::count(&p, &SearchConfig::default(), u64::MAX);
        assert_eq!(r.count, expected, "n = {}", k + 1);
    }
}

#[test]
fn every_enumerated_queens_solution_is_a_valid_placement() {
    let (p, q) = queens(8);
    let mut seen = std::collections::HashSet::new();
    let (outcome, stats) = Solver::new(&p, SearchConfig::default()).for_each_solution(&[], |s| {
        let cols: Vec<i64> = q.iter().map(|&x| s.value(x)).collect();
        assert!(is_valid_placement(&cols));
        assert!(seen.insert(cols));
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(outcome, Outcome::Solved);
    assert_eq!(seen.len(), 92);
    assert_eq!(stats.solutions, 92);
}

#[test]
fn first_solutions_of_larger_boards_are_valid_on_every_representation() {
    // 50 -> u64 domains, 100 -> u128, 200 -> bitvec.
    for n in [50, 100, 200] {
        let (p, q) = queens(n);
        let cfg = SearchConfig::default()
            .value_order(ValueOrder::Median)
            .random_ties(true)
            .seed(7);
        let r = Solver::new(&p, cfg.clone()).solve(&[]);
        assert_eq!(r.outcome, Outcome::Solved, "n = {n}");
        let s = r.solution.unwrap();
        let cols: Vec<i64> = q.iter().map(|&x| s.value(x)).collect();
        assert!(is_valid_placement(&cols), "n = {n}");
        let pr = parallel::solve(&p, &cfg);
        let s = pr.solution.unwrap();
        let cols: Vec<i64> = q.iter().map(|&x| s.value(x)).collect();
        assert!(is_valid_placement(&cols), "parallel n = {n}");
    }
}

#[test]
fn counting_twelve_queens_agrees_sequentially_and_in_parallel() {
    let (p, _) = queens(12);
    let cfg = SearchConfig::default();
    let seq = Solver::new(&p, cfg.clone()).count(&[], u64::MAX);
    let par = parallel::count(&p, &cfg, u64::MAX);
    assert_eq!(seq.count, 14_200);
    assert_eq!(par.count, 14_200);
}

#[test]
fn a_count_limit_stops_at_the_limit() {
    let (p, _) = queens(8);
    let r = Solver::new(&p, SearchConfig::default()).count(&[], 2);
    assert_eq!(r.count, 2);
    assert_eq!(r.outcome, Outcome::Solved);
    let r = parallel::count(&p, &SearchConfig::default(), 5);
    assert_eq!(r.count, 5);
}

#[test]
fn parallel_first_solution_does_not_depend_on_thread_timing() {
    let (p, _) = queens(30);
    let cfg = SearchConfig::default();
    let a = parallel::solve(&p, &cfg).solution.unwrap();
    for _ in 0..5 {
        assert_eq!(parallel::solve(&p, &cfg).solution.unwrap(), a);
    }
    assert!(p.is_solution(a.values()));
    let unsat = queens(3).0;
    assert_eq!(
        parallel::solve(&unsat, &cfg).outcome,
        Outcome::Unsatisfiable
    );
}
