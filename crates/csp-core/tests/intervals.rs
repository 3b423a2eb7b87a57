//! Interval (bounds) domains on models whose ranges no bitset could hold, against answers computed directly.
#![allow(clippy::unwrap_used)]

use std::ops::ControlFlow;

use csp_core::{
    Model, ModelError, Objective, OptOutcome, Outcome, Relation, SearchConfig, Solver, ValueOrder,
    VarOrder,
};

/// Cheapest `3x + 5y` with `7x + 11y >= 1_000_003`, `x, y` in `0..=10^6`: the optimum by a direct scan.
fn cheapest_cover() -> i64 {
    (0..=1_000_000i64)
        .map(|y| {
            let rest = (1_000_003 - 11 * y).max(0);
            let x = (rest + 6) / 7;
            3 * x + 5 * y
        })
        .min()
        .unwrap()
}

#[test]
fn a_linear_optimisation_over_million_value_ranges_reaches_the_direct_optimum() {
    let expected = cheapest_cover();
    for value_order in [ValueOrder::Ascending, ValueOrder::Median] {
        let mut m = Model::new();
        let x = m.new_var(0, 1_000_000).unwrap();
        let y = m.new_var(0, 1_000_000).unwrap();
        let cost = m.new_var(0, 100_000_000).unwrap();
        m.linear(&[(7, x), (11, y)], Relation::Ge, 1_000_003)
            .unwrap();
        m.linear(&[(3, x), (5, y), (-1, cost)], Relation::Eq, 0)
            .unwrap();
        let p = m.build().unwrap();
        let cfg = SearchConfig::default()
            .var_order(VarOrder::Input)
            .value_order(value_order);
        let mut improvements = 0;
        let r = Solver::new(&p, cfg)
            .optimize(&[], Objective::Minimize(cost), |s, v| {
                assert!(p.is_solution(s.values()));
                assert_eq!(3 * s.value(x) + 5 * s.value(y), v);
                improvements += 1;
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(r.outcome, OptOutcome::Optimal, "{value_order:?}");
        assert_eq!(r.objective, Some(expected), "{value_order:?}");
        assert!(improvements >= 1);
    }
}

#[test]
fn all_different_on_billion_value_intervals_counts_permutations_and_proves_the_pigeonhole() {
    const L: i64 = 999_999_990;
    for (n, expected) in [(4usize, 24u64), (5, 0)] {
        let mut m = Model::new();
        let xs: Vec<_> = (0..n)
            .map(|_| m.new_var(-1_000_000_000, 1_000_000_000).unwrap())
            .collect();
        for &x in &xs {
            m.linear(&[(1, x)], Relation::Ge, L).unwrap();
            m.linear(&[(1, x)], Relation::Le, L + 3).unwrap();
        }
        m.all_different(&xs).unwrap();
        let p = m.build().unwrap();
        for value_order in ValueOrder::ALL {
            let cfg = SearchConfig::default().value_order(value_order);
            let c = Solver::new(&p, cfg.clone()).count(&[], u64::MAX);
            assert_eq!(c.count, expected, "n = {n}, {value_order:?}");
            if expected == 0 {
                // Hall's rule fails the root: five values wanted from four.
                assert_eq!(c.stats.nodes, 0);
            }
            let par = csp_core::parallel::count(&p, &cfg, u64::MAX);
            assert_eq!(par.count, expected, "parallel, n = {n}");
        }
    }
}

#[test]
fn a_model_of_only_all_different_on_intervals_runs_on_the_general_engine_and_counts_permutations() {
    // The group kernel keeps a bitset per variable; a model it would otherwise take (only value-level
    // all_different) must not reach it with intervals.
    let mut m = Model::new();
    let xs: Vec<_> = (0..3).map(|_| m.new_interval_var(5, 7).unwrap()).collect();
    m.all_different_with(
        &xs,
        &[0, 0, 0],
        csp_core::constraints::AllDifferentLevel::Value,
    )
    .unwrap();
    let p = m.build().unwrap();
    for value_order in ValueOrder::ALL {
        let cfg = SearchConfig::default().value_order(value_order);
        let mut solver = Solver::new(&p, cfg);
        assert_ne!(solver.engine(), csp_core::EngineKind::Groups);
        assert_eq!(solver.count(&[], u64::MAX).count, 6, "{value_order:?}");
    }
}

#[test]
fn an_element_over_interval_entries_finds_the_index_whose_entry_reaches_the_target() {
    // z = a[x] with a[0], a[2] in 0..=10 and a[1] in 500_000..=10^9 (intervals): z >= 1000 leaves only x = 1,
    // and a[1] takes z's bounds.
    let mut m = Model::new();
    let x = m.new_var(0, 2).unwrap();
    let a = [
        m.new_var(0, 10).unwrap(),
        m.new_interval_var(500_000, 1_000_000_000).unwrap(),
        m.new_var(0, 10).unwrap(),
    ];
    let z = m.new_interval_var(0, 2_000_000_000).unwrap();
    m.element_var(x, 0, &a, z).unwrap();
    m.linear(&[(1, z)], Relation::Ge, 1000).unwrap();
    let p = m.build().unwrap();
    let r = Solver::new(&p, SearchConfig::default())
        .minimize(&[], z)
        .unwrap();
    assert_eq!(r.objective, Some(500_000));
    let s = r.best.unwrap();
    assert_eq!((s.value(x), s.value(a[1])), (1, 500_000));
    assert!(p.is_solution(s.values()));
    // The largest z, largest values first (ascending values would climb one value per solution).
    let cfg = SearchConfig::default().value_order(ValueOrder::Descending);
    let r = Solver::new(&p, cfg).maximize(&[], z).unwrap();
    assert_eq!(r.objective, Some(1_000_000_000));
    assert_eq!(r.outcome, OptOutcome::Optimal);
}

#[test]
fn constraints_that_need_enumerable_domains_refuse_an_interval_with_a_clear_error() {
    let mut m = Model::new();
    let big = m.new_var(0, 10_000_000).unwrap();
    let small = m.new_var(0, 3).unwrap();
    let e = m.table(&[big, small], &[vec![1, 2]]).unwrap_err();
    assert!(
        matches!(e, ModelError::NeedsEnumerable { what: "table", .. }),
        "{e}"
    );
    assert!(e.to_string().contains("needs enumerable domains"), "{e}");
    assert!(m.regular(&[big], 1, 0, &[(0, 1, 0)], &[0]).is_err());
    assert!(m.circuit(&[big, small], 0).is_err());
    // What accepts intervals still does.
    assert!(m.element_var(small, 0, &[big], small).is_ok());
    assert!(m.linear(&[(2, big), (-1, small)], Relation::Le, 7).is_ok());
    let p = m.build().unwrap();
    assert!(p.domain_values(p.var(0).unwrap()).is_err());
    assert_eq!(
        p.initial_bounds(p.var(0).unwrap()).unwrap(),
        (0, 10_000_000)
    );
    // The full i64 range is still too wide even as an interval.
    let mut m = Model::new();
    assert!(matches!(
        m.new_interval_var(i64::MIN, i64::MAX),
        Err(ModelError::DomainTooWide { .. })
    ));
}

#[test]
fn a_constraint_posted_through_the_open_interface_on_an_interval_fails_the_build() {
    let mut m = Model::new();
    let big = m.new_var(0, 1 << 40).unwrap();
    let vars = m.scope("test", &[big]).unwrap();
    m.post(csp_core::constraints::Table::new(
        vars,
        vec![0],
        1,
        vec![0],
        vec![1],
    ));
    assert!(matches!(m.build(), Err(ModelError::NeedsEnumerable { .. })));
}

#[test]
fn an_interval_objective_is_minimised_by_bisection_in_few_nodes() {
    // x * y = z with z as an interval, |x - y| >= 1 via linear: smallest z >= 10^12 + 7 over x, y in 1..=2 * 10^6.
    let mut m = Model::new();
    let x = m.new_var(1, 2_000_000).unwrap();
    let y = m.new_var(1, 2_000_000).unwrap();
    let z = m.new_var(0, 4_000_000_000_000).unwrap();
    m.times(x, y, z).unwrap();
    m.linear(&[(1, z)], Relation::Ge, 1_000_000_000_007)
        .unwrap();
    m.linear(&[(1, x)], Relation::Eq, 1_000_003).unwrap();
    let p = m.build().unwrap();
    let cfg = SearchConfig::default()
        .var_order(VarOrder::Input)
        .value_order(ValueOrder::Median);
    let r = Solver::new(&p, cfg)
        .optimize(
            &[],
            Objective::Minimize(z),
            |_, _| ControlFlow::Continue(()),
        )
        .unwrap();
    // y = ceil((10^12 + 7) / 1_000_003) = 999_998 -> z = 1_000_003 * 999_998.
    assert_eq!(r.objective, Some(1_000_003 * 999_998));
    assert_eq!(r.outcome, OptOutcome::Optimal);
    assert!(r.stats.nodes < 2_000, "{} nodes", r.stats.nodes);
    let s = Solver::new(&p, SearchConfig::default()).solve(&[]);
    assert_eq!(s.outcome, Outcome::Solved);
}
