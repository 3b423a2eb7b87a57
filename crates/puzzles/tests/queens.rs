//! N-Queens on the engine: known solution counts, first solutions verified independently, parallel = sequential.
#![allow(clippy::unwrap_used)]

use csp_core::{Outcome, SearchConfig, ValueOrder, VarOrder};
use puzzles::queens::{verify_placement, Queens};
use puzzles::{Mode, Puzzle};

/// OEIS A000170.
const COUNTS: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

#[test]
fn counts_match_the_known_numbers_for_n_1_to_12() {
    for (i, &expected) in COUNTS.iter().enumerate() {
        let q = Queens::new(i + 1).unwrap();
        let r = q.solve(&q.default_config(), Mode::Count(u64::MAX)).unwrap();
        assert_eq!(r.count, Some(expected), "n = {}", i + 1);
        let expected_outcome = if expected == 0 {
            Outcome::Unsatisfiable
        } else {
            Outcome::Solved
        };
        assert_eq!(r.outcome, expected_outcome, "n = {}", i + 1);
        if let Some(v) = r.verified {
            v.unwrap();
        }
    }
}

#[test]
fn counts_agree_across_variable_orders() {
    for order in [
        VarOrder::Input,
        VarOrder::Mrv,
        VarOrder::MrvDegree,
        VarOrder::DomWdeg,
    ] {
        let q = Queens::new(8).unwrap();
        let cfg = SearchConfig::default().var_order(order);
        assert_eq!(
            q.solve(&cfg, Mode::Count(u64::MAX)).unwrap().count,
            Some(92),
            "{order:?}"
        );
    }
}

#[test]
fn parallel_count_equals_the_sequential_count() {
    for n in [6, 8, 10] {
        let q = Queens::new(n).unwrap();
        let enc = q.encode().unwrap();
        let par = csp_core::parallel::count(&enc.problem, &q.default_config(), u64::MAX);
        assert_eq!(par.count, COUNTS[n - 1], "n = {n}");
    }
}

#[test]
fn every_enumerated_solution_is_a_valid_placement() {
    let q = Queens::new(7).unwrap();
    let enc = q.encode().unwrap();
    let mut solver = csp_core::Solver::new(&enc.problem, q.default_config());
    let mut seen = std::collections::HashSet::new();
    solver.for_each_solution(&[], |s| {
        let cols = q.decode(s);
        verify_placement(7, &cols).unwrap();
        assert!(seen.insert(cols), "a solution was reported twice");
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(seen.len(), 40);
}

#[test]
fn first_solutions_of_large_boards_verify() {
    for n in [50, 200, 500] {
        let q = Queens::new(n).unwrap();
        let cfg = q
            .default_config()
            .value_order(ValueOrder::Median)
            .limits(csp_core::Limits::none().with_nodes(2_000_000));
        let r = q.solve(&cfg, Mode::First).unwrap();
        assert_eq!(r.outcome, Outcome::Solved, "n = {n}");
        verify_placement(n, r.answer.as_ref().unwrap()).unwrap();
    }
}
