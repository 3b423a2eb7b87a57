//! The split value orders (MiniZinc's `indomain_split` / `indomain_reverse_split`): counts against brute force,
//! and the order of the solutions they enumerate, which the bisection fixes exactly.
#![allow(clippy::unwrap_used)]

use std::ops::ControlFlow;

use csp_core::fuzz_targets::brute_force;
use csp_core::{
    Model, Objective, OptOutcome, Outcome, Problem, Relation, SearchConfig, Solver, ValueOrder,
    VarOrder,
};

/// SplitMix64 from the crate, so every run draws the same models.
struct Gen(csp_core::rng::Rng);

impl Gen {
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.0.below_mod((hi - lo + 1) as u64) as i64
    }
}

/// A small random model over domains with holes and negative values (the mean of the bounds then differs from the
/// middle position), with linear and disequality constraints; its domains for brute force.
fn random_model(g: &mut Gen) -> (Problem, Vec<Vec<i64>>) {
    let mut m = Model::new();
    let mut vars = Vec::new();
    let mut doms = Vec::new();
    for _ in 0..g.range(1, 4) {
        let mut vals: Vec<i64> = (0..g.range(1, 6)).map(|_| g.range(-9, 9)).collect();
        vals.sort_unstable();
        vals.dedup();
        vars.push(m.new_var_with_values(&vals).unwrap());
        doms.push(vals);
    }
    for _ in 0..g.range(0, 3) {
        let x = vars[g.range(0, vars.len() as i64 - 1) as usize];
        let y = vars[g.range(0, vars.len() as i64 - 1) as usize];
        if g.range(0, 1) == 0 {
            m.not_equal(x, y, g.range(-2, 2)).unwrap();
        } else {
            let rel = [Relation::Le, Relation::Ge][g.range(0, 1) as usize];
            m.linear(&[(g.range(1, 3), x), (-1, y)], rel, g.range(-5, 5))
                .unwrap();
        }
    }
    (m.build().unwrap(), doms)
}

fn enumerate(p: &Problem, cfg: SearchConfig) -> (Vec<Vec<i64>>, Outcome) {
    let mut out = Vec::new();
    let (outcome, _) = Solver::new(p, cfg).for_each_solution(&[], |s| {
        out.push(s.values().to_vec());
        ControlFlow::Continue(())
    });
    (out, outcome)
}

#[test]
fn split_orders_enumerate_exactly_the_brute_force_solutions_under_every_variable_order() {
    let mut g = Gen(csp_core::rng::Rng::new(11));
    for case in 0..300 {
        let (p, doms) = random_model(&mut g);
        let expected = brute_force(&p, &doms);
        for var_order in VarOrder::ALL {
            for value_order in [ValueOrder::Split, ValueOrder::ReverseSplit] {
                let cfg = SearchConfig::default()
                    .var_order(var_order)
                    .value_order(value_order);
                let (sols, _) = enumerate(&p, cfg.clone());
                assert_eq!(sols.len(), expected.len(), "case {case}, {cfg:?}");
                assert!(sols.iter().all(|s| expected.contains(s)), "case {case}");
                let counted = Solver::new(&p, cfg.clone()).count(&[], u64::MAX).count;
                assert_eq!(counted, expected.len() as u64, "case {case}, {cfg:?}");
            }
        }
    }
}

/// Under input order the search splits the first variable until it is fixed, lower half first, so every solution
/// with a smaller first value comes before the others: the solutions arrive in ascending lexicographic order
/// (descending for the reverse split), as `indomain_min` (`indomain_max`) gives them.
#[test]
fn input_order_split_yields_solutions_in_lexicographic_order_and_reverse_split_in_reverse() {
    let mut g = Gen(csp_core::rng::Rng::new(5));
    for case in 0..300 {
        let (p, doms) = random_model(&mut g);
        let mut sorted: Vec<Vec<i64>> = brute_force(&p, &doms).into_iter().collect();
        sorted.sort();
        let input = SearchConfig::default().var_order(VarOrder::Input);
        let (up, _) = enumerate(&p, input.clone().value_order(ValueOrder::Split));
        assert_eq!(up, sorted, "case {case}");
        let (min_first, _) = enumerate(&p, input.clone().value_order(ValueOrder::Ascending));
        assert_eq!(up, min_first, "case {case}");
        sorted.reverse();
        let (down, _) = enumerate(&p, input.clone().value_order(ValueOrder::ReverseSplit));
        assert_eq!(down, sorted, "case {case}");
    }
}

/// `x` in {0, 1, 2, 10}: the mean of the bounds is 5, so the first decision is `x <= 5` ({0, 1, 2}, then
/// `x <= 1`, then `x <= 0`): three decisions reach 0, where a cut at the middle position ({0, 1} | {2, 10}) would
/// take two. The reverse split takes `x > 5` first: 10 at once.
#[test]
fn a_split_cuts_at_the_mean_of_the_bounds_not_at_the_middle_position() {
    let mut m = Model::new();
    let x = m.new_var_with_values(&[0, 1, 2, 10]).unwrap();
    let p = m.build().unwrap();
    let first = |order| {
        let r = Solver::new(&p, SearchConfig::default().value_order(order)).solve(&[]);
        (r.solution.unwrap().value(x), r.stats.nodes)
    };
    assert_eq!(first(ValueOrder::Split), (0, 3));
    assert_eq!(first(ValueOrder::ReverseSplit), (10, 1));
    // Negative bounds: -3..0 has the mean -1.5, floored to -2 (as Gecode's INT_VAL_SPLIT_MIN): `x <= -2`, then
    // `x <= -3`.
    let mut m = Model::new();
    let y = m.new_var(-3, 0).unwrap();
    let p = m.build().unwrap();
    let r = Solver::new(&p, SearchConfig::default().value_order(ValueOrder::Split)).solve(&[]);
    assert_eq!((r.solution.unwrap().value(y), r.stats.nodes), (-3, 2));
    let r = Solver::new(
        &p,
        SearchConfig::default().value_order(ValueOrder::ReverseSplit),
    )
    .solve(&[]);
    // `x > -2` ({-1, 0}), then `x > -1`: 0 in two decisions.
    assert_eq!((r.solution.unwrap().value(y), r.stats.nodes), (0, 2));
}

/// Branch and bound with bisection on a million-value interval: the optimum of `x + y` with `3x + 7y >= 1_000_001`.
#[test]
fn split_orders_optimise_on_interval_domains_to_the_direct_optimum() {
    let expected = (0..=200_000i64)
        .map(|y| y + ((1_000_001 - 7 * y).max(0) + 2) / 3)
        .min()
        .unwrap();
    for value_order in [ValueOrder::Split, ValueOrder::ReverseSplit] {
        let mut m = Model::new();
        let x = m.new_var(0, 1_000_000).unwrap();
        let y = m.new_var(0, 200_000).unwrap();
        let cost = m.new_var(0, 2_000_000).unwrap();
        m.linear(&[(3, x), (7, y)], Relation::Ge, 1_000_001)
            .unwrap();
        m.linear(&[(1, x), (1, y), (-1, cost)], Relation::Eq, 0)
            .unwrap();
        let p = m.build().unwrap();
        let cfg = SearchConfig::default()
            .var_order(VarOrder::Input)
            .value_order(value_order);
        let r = Solver::new(&p, cfg)
            .optimize(&[], Objective::Minimize(cost), |s, v| {
                assert!(p.is_solution(s.values()));
                assert_eq!(s.value(x) + s.value(y), v);
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(r.outcome, OptOutcome::Optimal, "{value_order:?}");
        assert_eq!(r.objective, Some(expected), "{value_order:?}");
    }
}
