//! The `None` level ("place then check") checks the assigned part of an `all_different` after every assignment,
//! and `Solver::set_limits` changes the limits of a reused solver.

#![allow(clippy::unwrap_used)]

use csp_core::{Limits, Model, Outcome, Propagation, SearchConfig, Solver, VarOrder};

fn naive() -> SearchConfig {
    SearchConfig::default()
        .var_order(VarOrder::Input)
        .propagation(Propagation::None)
}

#[test]
fn place_then_check_fails_at_the_node_that_repeats_a_value() {
    // x0, x1, x2 pairwise different over 1..=3, in input order with ascending values:
    // x0=1; x1=1 fails at once (partial check); x1=2; x2=1 fails, x2=2 fails, x2=3 is left by refutation:
    // 5 nodes. A ground-only check (the previous behaviour) needed 7.
    let mut m = Model::new();
    let xs: Vec<_> = (0..3).map(|_| m.new_var(1, 3).unwrap()).collect();
    m.all_different(&xs).unwrap();
    let p = m.build().unwrap();
    let r = Solver::new(&p, naive()).solve(&[]);
    assert_eq!(r.outcome, Outcome::Solved);
    let s = r.solution.unwrap();
    assert_eq!(s.values(), &[1, 2, 3]);
    assert_eq!(
        r.stats.nodes, 5,
        "x0=1, x1=1 (fails), x1=2, x2=1 (fails), x2=2 (fails)"
    );
    assert_eq!(r.stats.fails, 3);
}

#[test]
fn place_then_check_refutes_a_pigeonhole_without_completing_assignments() {
    // Five variables over four values: unsatisfiable. A ground-only check explores every assignment of the
    // first four variables (1023 nodes with the previous ground-only check); the partial check fails each branch
    // at the first repeat.
    let mut m = Model::new();
    let xs: Vec<_> = (0..5).map(|_| m.new_var(1, 4).unwrap()).collect();
    m.all_different(&xs).unwrap();
    let p = m.build().unwrap();
    let r = Solver::new(&p, naive()).count(&[], u64::MAX);
    assert_eq!(r.outcome, Outcome::Unsatisfiable);
    assert_eq!(r.count, 0);
    assert_eq!(
        r.stats.nodes, 195,
        "the partial check prunes each branch at its first repeated value"
    );
}

#[test]
fn place_then_check_still_checks_offsets_and_assumptions() {
    // Queens-style diagonal: x0 + 0 != x1 + 1, i.e. x0 != x1 + 1, with x1 = 1 assumed: x0 = 2 is refused.
    let mut m = Model::new();
    let x0 = m.new_var(2, 2).unwrap();
    let x1 = m.new_var(1, 3).unwrap();
    m.all_different_offset(&[x0, x1], &[0, 1]).unwrap();
    let p = m.build().unwrap();
    let mut solver = Solver::new(&p, naive());
    assert_eq!(solver.solve(&[(x1, 1)]).outcome, Outcome::Unsatisfiable);
    let r = solver.solve(&[(x1, 3)]);
    assert_eq!(r.solution.unwrap().values(), &[2, 3]);
}

#[test]
fn set_limits_takes_effect_on_the_next_solve() {
    let mut m = Model::new();
    let xs: Vec<_> = (0..6).map(|_| m.new_var(0, 5).unwrap()).collect();
    m.all_different(&xs).unwrap();
    let p = m.build().unwrap();
    let mut solver = Solver::new(
        &p,
        SearchConfig::default().limits(Limits::none().with_nodes(3)),
    );
    let r = solver.count(&[], u64::MAX);
    assert_eq!(r.outcome, Outcome::Limit(csp_core::LimitKind::Nodes));
    assert!(r.stats.nodes <= 3);

    solver.set_limits(Limits::none());
    assert_eq!(solver.config().limits.nodes, None);
    let r = solver.count(&[], u64::MAX);
    assert_eq!(r.outcome, Outcome::Solved);
    assert_eq!(r.count, 720);

    solver.set_limits(Limits::none().with_nodes(1));
    let r = solver.solve(&[]);
    assert_eq!(r.outcome, Outcome::Limit(csp_core::LimitKind::Nodes));
    assert!(r.solution.is_none());
}
