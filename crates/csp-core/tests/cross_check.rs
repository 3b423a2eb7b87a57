//! The brute-force oracle: thousands of small random CSPs mixing every constraint kind, solved with every
//! variable order x value order x propagation level (and restarts on/off), compared with enumeration through
//! the constraints' `is_satisfied`.
#![allow(clippy::unwrap_used)]

use std::collections::HashSet;
use std::ops::ControlFlow;

// The oracle (enumeration, solution-set and optimum checks) is shared with the `engine` fuzz target.
use csp_core::constraints::AllDifferentLevel;
use csp_core::fuzz_targets::{brute_force, check_optimum, check_problem};
use csp_core::{
    Limits, Model, Outcome, Problem, Propagation, Relation, Restarts, SearchConfig, Solver,
    ValueOrder, VarId, VarOrder,
};

/// The project's SplitMix64, so the generated problems are the same on every run (remainder mapping, as these
/// problems were always drawn).
struct Gen(csp_core::rng::Rng);

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.0.below_mod(n)
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
    fn subset(&mut self, vars: &[VarId], k: usize) -> Vec<VarId> {
        (0..k).map(|_| self.pick(vars)).collect()
    }
}

/// A random model; `wide_extra` adds one unconstrained variable of that width (fixed by an assumption) so the
/// same problem runs on the u128 or bitvec representation.
fn random_problem(
    g: &mut Gen,
    wide_extra: Option<i64>,
) -> (Problem, Vec<Vec<i64>>, Vec<(VarId, i64)>) {
    random_problem_at(g, wide_extra, None)
}

/// [`random_problem`] where every `all_different` takes a consistency level drawn from `levels` (the draws are
/// those of `random_problem` when `levels` is `None`).
fn random_problem_at(
    g: &mut Gen,
    wide_extra: Option<i64>,
    levels: Option<&[AllDifferentLevel]>,
) -> (Problem, Vec<Vec<i64>>, Vec<(VarId, i64)>) {
    let mut m = Model::new();
    let n = g.range(1, 6) as usize;
    let mut vars = Vec::new();
    let mut doms = Vec::new();
    for _ in 0..n {
        if g.below(3) == 0 {
            let k = g.range(1, 5) as usize;
            let vals: Vec<i64> = (0..k).map(|_| g.range(-4, 6)).collect();
            vars.push(m.new_var_with_values(&vals).unwrap());
            let mut d = vals.clone();
            d.sort_unstable();
            d.dedup();
            doms.push(d);
        } else {
            let lo = g.range(-2, 2);
            let hi = lo + g.range(0, 4);
            vars.push(m.new_var(lo, hi).unwrap());
            doms.push((lo..=hi).collect());
        }
    }
    let nc = g.range(1, 5);
    for _ in 0..nc {
        match g.below(6) {
            0 | 1 => {
                let k = g.range(2, 4) as usize;
                let xs = g.subset(&vars, k);
                if let Some(levels) = levels {
                    let offs: Vec<i64> = (0..k).map(|_| g.range(-2, 2)).collect();
                    let level = g.pick(levels);
                    m.all_different_with(&xs, &offs, level).unwrap();
                } else if g.below(2) == 0 {
                    m.all_different(&xs).unwrap();
                } else {
                    let offs: Vec<i64> = (0..k).map(|_| g.range(-2, 2)).collect();
                    m.all_different_offset(&xs, &offs).unwrap();
                }
            }
            2 => {
                let (x, y) = (g.pick(&vars), g.pick(&vars));
                let c = g.range(-2, 2);
                if g.below(2) == 0 {
                    m.not_equal(x, y, c).unwrap();
                } else {
                    m.equal(x, y, c).unwrap();
                }
            }
            3 | 4 => {
                let k = g.range(1, 3) as usize;
                let terms: Vec<(i64, VarId)> = (0..k)
                    .map(|_| (g.pick(&[-3, -2, -1, 1, 2, 3]), g.pick(&vars)))
                    .collect();
                let rel = g.pick(&[Relation::Eq, Relation::Le, Relation::Ge]);
                m.linear(&terms, rel, g.range(-6, 8)).unwrap();
            }
            _ => {
                let k = g.range(1, 3) as usize;
                let xs = g.subset(&vars, k);
                let t = g.range(0, 8);
                let tuples: Vec<Vec<i64>> = (0..t)
                    .map(|_| (0..k).map(|_| g.range(-3, 5)).collect())
                    .collect();
                m.table(&xs, &tuples).unwrap();
            }
        }
    }
    let mut assumptions = Vec::new();
    if let Some(w) = wide_extra {
        let e = m.new_var(0, w - 1).unwrap();
        doms.push(vec![w / 2]);
        assumptions.push((e, w / 2));
    }
    (m.build().unwrap(), doms, assumptions)
}

fn configs() -> Vec<SearchConfig> {
    let mut v = Vec::new();
    for vo in VarOrder::ALL {
        for val in ValueOrder::ALL {
            for prop in [
                Propagation::None,
                Propagation::ForwardChecking,
                Propagation::Singles,
            ] {
                v.push(
                    SearchConfig::default()
                        .var_order(vo)
                        .value_order(val)
                        .propagation(prop)
                        .seed(3),
                );
            }
        }
    }
    v
}

#[test]
fn random_small_csps_match_brute_force_under_every_strategy() {
    let cfgs = configs();
    let mut g = Gen(csp_core::rng::Rng::new(0x5EED));
    let mut nonempty = 0;
    for case in 0..2000 {
        let (p, doms, a) = random_problem(&mut g, None);
        check_problem(&p, &doms, &a, &cfgs, case);
        nonempty += usize::from(!brute_force(&p, &doms).is_empty());
    }
    // The generator must produce a healthy mix of satisfiable and unsatisfiable problems.
    assert!(nonempty > 400, "only {nonempty} satisfiable cases");
}

#[test]
fn random_small_csps_match_brute_force_on_wide_representations() {
    let cfgs: Vec<SearchConfig> = configs().into_iter().step_by(5).collect();
    let mut g = Gen(csp_core::rng::Rng::new(0xB17));
    for case in 0..300 {
        let width = if case % 2 == 0 { 100 } else { 300 };
        let (p, doms, a) = random_problem(&mut g, Some(width));
        check_problem(&p, &doms, &a, &cfgs, case);
    }
}

#[test]
fn random_small_csps_with_all_different_at_every_level_match_brute_force_under_every_strategy() {
    use csp_core::constraints::AllDifferentLevel as L;
    let cfgs = configs();
    let levels = [L::Domain, L::Domain, L::Value, L::Bounds];
    let mut g = Gen(csp_core::rng::Rng::new(0xD0A));
    let mut nonempty = 0;
    for case in 0..1500 {
        let (p, doms, a) = random_problem_at(&mut g, None, Some(&levels));
        check_problem(&p, &doms, &a, &cfgs, case);
        nonempty += usize::from(!brute_force(&p, &doms).is_empty());
    }
    assert!(nonempty > 300, "only {nonempty} satisfiable cases");
    // The same on the u128 and bitvec representations.
    let cfgs: Vec<SearchConfig> = configs().into_iter().step_by(5).collect();
    for case in 0..200 {
        let width = if case % 2 == 0 { 100 } else { 300 };
        let (p, doms, a) = random_problem_at(&mut g, Some(width), Some(&levels));
        check_problem(&p, &doms, &a, &cfgs, case);
    }
}

/// A 4x4 Sudoku (rows, columns, 2x2 boxes: aligned permutation groups that overlap in two cells) with random
/// givens, sometimes contradictory, plus an optional random linear side constraint. Exercises the merged peer lists,
/// hidden singles, the pigeonhole test and the locked-candidate rule.
fn random_mini_sudoku(g: &mut Gen) -> (Problem, Vec<Vec<i64>>, Vec<(VarId, i64)>) {
    let mut m = Model::new();
    let cells: Vec<VarId> = (0..16).map(|_| m.new_var(1, 4).unwrap()).collect();
    for i in 0..4 {
        let row: Vec<VarId> = (0..4).map(|j| cells[i * 4 + j]).collect();
        let col: Vec<VarId> = (0..4).map(|j| cells[j * 4 + i]).collect();
        let bx: Vec<VarId> = (0..4)
            .map(|j| cells[(i / 2 * 2 + j / 2) * 4 + i % 2 * 2 + j % 2])
            .collect();
        m.all_different(&row).unwrap();
        m.all_different(&col).unwrap();
        m.all_different(&bx).unwrap();
    }
    if g.below(3) == 0 {
        let k = g.range(2, 4) as usize;
        let terms: Vec<(i64, VarId)> = (0..k)
            .map(|_| (g.pick(&[-1, 1, 2]), g.pick(&cells)))
            .collect();
        m.linear(&terms, g.pick(&[Relation::Le, Relation::Ge]), g.range(0, 8))
            .unwrap();
    }
    // A valid grid: a base solution with digits permuted.
    let base = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    let mut perm = [1i64, 2, 3, 4];
    for i in (1..4).rev() {
        perm.swap(i, g.below(i as u64 + 1) as usize);
    }
    let mut doms: Vec<Vec<i64>> = vec![(1..=4).collect(); 16];
    let mut assumptions = Vec::new();
    let givens = g.range(8, 12);
    for _ in 0..givens {
        let c = g.below(16) as usize;
        let mut v = perm[base[c] - 1];
        if g.below(12) == 0 {
            v = g.range(1, 4);
        }
        // Two different givens on one cell make it (and the problem) empty for good.
        doms[c] = if doms[c].len() <= 1 && doms[c] != [v] {
            Vec::new()
        } else {
            vec![v]
        };
        assumptions.push((cells[c], v));
    }
    (m.build().unwrap(), doms, assumptions)
}

#[test]
fn random_mini_sudokus_match_brute_force_with_singles_and_intersections() {
    let mut cfgs = Vec::new();
    for vo in VarOrder::ALL {
        for val in ValueOrder::ALL {
            for x in [false, true] {
                cfgs.push(
                    SearchConfig::default()
                        .var_order(vo)
                        .value_order(val)
                        .propagation(Propagation::Singles)
                        .intersections(x),
                );
            }
        }
    }
    cfgs.push(SearchConfig::default().propagation(Propagation::ForwardChecking));
    let mut g = Gen(csp_core::rng::Rng::new(0x5D0));
    for case in 0..150 {
        let (p, doms, a) = random_mini_sudoku(&mut g);
        check_problem(&p, &doms, &a, &cfgs, case);
    }
}

/// A Latin square of side 3 or 4 (rows and columns: permutation groups, which the engine propagates through
/// per-value place masks below the root) with random givens taken from a valid square (sometimes wrong), plus
/// random extras that stay on the other paths: an aligned group with more values than members, a shifted group,
/// a `not_equal`, and a group repeating a variable (unsatisfiable whenever it is posted).
fn random_latin_like(g: &mut Gen) -> (Problem, Vec<Vec<i64>>, Vec<(VarId, i64)>) {
    let n = g.range(3, 4) as usize;
    let mut m = Model::new();
    let cells: Vec<VarId> = (0..n * n)
        .map(|_| m.new_var(1, n as i64).unwrap())
        .collect();
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        m.all_different(&row).unwrap();
        m.all_different(&col).unwrap();
    }
    if g.below(2) == 0 {
        let k = g.range(2, n as i64 - 1) as usize;
        m.all_different(&g.subset(&cells, k)).unwrap();
    }
    if g.below(3) == 0 {
        let xs = g.subset(&cells, 2);
        m.all_different_offset(&xs, &[0, g.range(-1, 1)]).unwrap();
    }
    if g.below(3) == 0 {
        m.not_equal(g.pick(&cells), g.pick(&cells), g.range(-1, 1))
            .unwrap();
    }
    if g.below(20) == 0 {
        let x = g.pick(&cells);
        m.all_different(&[x, g.pick(&cells), x]).unwrap();
    }
    let mut perm: Vec<i64> = (1..=n as i64).collect();
    for i in (1..n).rev() {
        perm.swap(i, g.below(i as u64 + 1) as usize);
    }
    let shift = g.below(n as u64) as usize;
    let mut doms: Vec<Vec<i64>> = vec![(1..=n as i64).collect(); n * n];
    let mut assumptions = Vec::new();
    let givens = if n == 3 {
        g.range(0, 4)
    } else {
        g.range(7, 11)
    };
    for _ in 0..givens {
        let c = g.below((n * n) as u64) as usize;
        let mut v = perm[(c / n + c % n + shift) % n];
        if g.below(10) == 0 {
            v = g.range(1, n as i64);
        }
        doms[c] = if doms[c].len() <= 1 && doms[c] != [v] {
            Vec::new()
        } else {
            vec![v]
        };
        assumptions.push((cells[c], v));
    }
    (m.build().unwrap(), doms, assumptions)
}

#[test]
fn random_latin_like_models_match_brute_force_under_every_strategy() {
    let cfgs = configs();
    let mut g = Gen(csp_core::rng::Rng::new(0x1A7));
    let mut nonempty = 0;
    for case in 0..120 {
        let (p, doms, a) = random_latin_like(&mut g);
        check_problem(&p, &doms, &a, &cfgs, case);
        nonempty += usize::from(!brute_force(&p, &doms).is_empty());
    }
    assert!(nonempty > 30, "only {nonempty} satisfiable cases");
}

#[test]
fn a_node_limit_stops_the_search_with_a_limit_outcome() {
    let mut m = Model::new();
    let xs: Vec<VarId> = (0..12).map(|_| m.new_var(0, 11).unwrap()).collect();
    m.all_different(&xs).unwrap();
    m.linear(
        &xs.iter().map(|&x| (1, x)).collect::<Vec<_>>(),
        Relation::Eq,
        1000,
    )
    .unwrap();
    let p = m.build().unwrap();
    let cfg = SearchConfig::default().limits(Limits::none().with_nodes(50));
    let r = Solver::new(&p, cfg).count(&[], u64::MAX);
    assert_eq!(
        r.outcome,
        Outcome::Unsatisfiable,
        "bounds propagation refutes the sum at the root"
    );
    let mut m = Model::new();
    let xs: Vec<VarId> = (0..9).map(|_| m.new_var(0, 8).unwrap()).collect();
    m.all_different(&xs).unwrap();
    let p = m.build().unwrap();
    let cfg = SearchConfig::default().limits(Limits::none().with_nodes(50));
    let r = Solver::new(&p, cfg).count(&[], u64::MAX);
    assert_eq!(r.outcome, Outcome::Limit(csp_core::LimitKind::Nodes));
    assert!(r.count > 0 && r.count < 362_880);
}

/// A random model over a few integers (-3..=3) and Booleans mixing the constraints added with the open propagator
/// interface: linear `!=`, clauses, `and` / `or` / `xor` / `not`, reified and half-reified linear relations,
/// arithmetic, min / max and both elements.
fn random_extended_problem(g: &mut Gen) -> (Problem, Vec<Vec<i64>>) {
    use csp_core::constraints::{ArithOp, Reification};
    let mut m = Model::new();
    let mut ints = Vec::new();
    let mut bools = Vec::new();
    let mut doms = Vec::new();
    for _ in 0..g.range(1, 5) {
        let lo = g.range(-3, 1);
        let hi = lo + g.range(0, 3);
        ints.push(m.new_var(lo, hi).unwrap());
        doms.push((lo..=hi).collect::<Vec<i64>>());
    }
    for _ in 0..g.range(1, 3) {
        bools.push(m.new_bool().unwrap());
        doms.push(vec![0, 1]);
    }
    let rel = |g: &mut Gen| g.pick(&[Relation::Eq, Relation::Le, Relation::Ge, Relation::Ne]);
    for _ in 0..g.range(1, 4) {
        let (x, y, z) = (g.pick(&ints), g.pick(&ints), g.pick(&ints));
        let (a, b) = (g.pick(&bools), g.pick(&bools));
        match g.below(17) {
            0 => {
                let r = rel(g);
                m.linear(&[(g.pick(&[-2, -1, 1, 2]), x), (1, y)], r, g.range(-3, 3))
                    .unwrap();
            }
            1 => {
                let k = g.range(0, 2) as usize;
                let lits = g.subset(&bools, 2);
                m.clause(&lits[..k], &lits[k..]).unwrap();
            }
            2 => {
                let xs = g.subset(&bools, 2);
                if g.below(2) == 0 {
                    m.bool_and(&xs, a).unwrap();
                } else {
                    m.bool_or(&xs, a).unwrap();
                }
            }
            3 => {
                let odd = g.below(2) == 0;
                m.bool_xor(&[a, b], odd).unwrap();
            }
            4 => {
                m.bool_not(a, b).unwrap();
            }
            5 => {
                let mode = g.pick(&[Reification::Equivalent, Reification::Implies]);
                let r = rel(g);
                let terms = if g.below(2) == 0 {
                    vec![(1, x)]
                } else {
                    vec![(1, x), (-1, y)]
                };
                m.reify_linear(&terms, r, g.range(-2, 2), a, mode).unwrap();
            }
            6 => {
                let op = g.pick(&[ArithOp::Times, ArithOp::Div, ArithOp::Mod, ArithOp::Pow]);
                // A divisor that can only be 0 is rejected at post: a clear error, not a model.
                if m.arith(op, x, y, z).is_err() {
                    assert!(matches!(op, ArithOp::Div | ArithOp::Mod));
                }
            }
            7 => {
                m.abs(x, y).unwrap();
            }
            8 => {
                if g.below(2) == 0 {
                    m.max_of(&[x, y], z).unwrap();
                } else {
                    m.min_of(&[x, y], z).unwrap();
                }
            }
            9 => {
                let arr: Vec<i64> = (0..3).map(|_| g.range(-3, 3)).collect();
                m.element(x, -1, &arr, y).unwrap();
            }
            10 => {
                let arr = g.subset(&ints, 2);
                m.element_var(x, -1, &arr, z).unwrap();
            }
            11 => {
                let xs = g.subset(&ints, 2);
                if g.below(2) == 0 {
                    m.count(&xs, g.range(-2, 2), y).unwrap();
                } else {
                    m.count_var(&xs, y, z).unwrap();
                }
            }
            12 => {
                let xs = g.subset(&ints, 2);
                m.global_cardinality(&xs, &[0, 1], &[y, z]).unwrap();
            }
            13 => {
                if ints.len() >= 4 {
                    m.inverse(&ints[..2], &ints[2..4], -1).unwrap();
                }
            }
            14 => {
                let (a, b) = (g.subset(&ints, 2), g.subset(&ints, 2));
                let strict = g.below(2) == 0;
                m.lex(&a, &b, strict).unwrap();
            }
            15 => {
                let mut t: Vec<(usize, i64, usize)> = Vec::new();
                for q in 0..2 {
                    for s in -1..=1 {
                        if g.below(3) != 0 {
                            t.push((q, s, g.below(2) as usize));
                        }
                    }
                }
                let xs = g.subset(&ints, 2);
                let acc = [g.below(2) as usize];
                m.regular(&xs, 2, 0, &t, &acc).unwrap();
            }
            _ => {
                if ints.len() >= 3 {
                    if g.below(2) == 0 {
                        m.circuit(&ints[..3], -1).unwrap();
                    } else {
                        m.subcircuit(&ints[..3], -1).unwrap();
                    }
                }
            }
        }
    }
    // Booleans a decomposition introduced (none today: count_var and inverse are dedicated propagators on these
    // bitset domains), enumerated like the others.
    while doms.len() < m.num_vars() {
        doms.push(vec![0, 1]);
    }
    (m.build().unwrap(), doms)
}

#[test]
fn random_models_with_booleans_reification_and_arithmetic_match_brute_force_under_every_strategy() {
    let cfgs = configs();
    let mut g = Gen(csp_core::rng::Rng::new(0xE17));
    let mut nonempty = 0;
    for case in 0..600 {
        let (p, doms) = random_extended_problem(&mut g);
        check_problem(&p, &doms, &[], &cfgs, case);
        nonempty += usize::from(!brute_force(&p, &doms).is_empty());
    }
    assert!(nonempty > 100, "only {nonempty} satisfiable cases");
}

#[test]
fn branch_and_bound_reaches_the_enumerated_optimum_under_every_strategy() {
    let cfgs: Vec<SearchConfig> = configs()
        .into_iter()
        .flat_map(|c| {
            [
                c.clone(),
                c.restarts(Restarts::Luby { scale: 1 }).random_ties(true),
            ]
        })
        .collect();
    let mut g = Gen(csp_core::rng::Rng::new(0x0B7));
    let mut optimal = 0;
    for case in 0..300 {
        let (p, doms) = if case % 2 == 0 {
            random_extended_problem(&mut g)
        } else {
            let (p, d, _) = random_problem(&mut g, None);
            (p, d)
        };
        let all = brute_force(&p, &doms);
        let k = g.below(p.num_vars() as u64) as usize;
        for minimize in [true, false] {
            for cfg in &cfgs {
                let best = check_optimum(&p, &all, &[], k, minimize, cfg, case);
                optimal += usize::from(best.is_some());
            }
        }
    }
    assert!(
        optimal > 1000,
        "only {optimal} optimisations had a solution"
    );
}

#[test]
fn an_optimisation_stopped_by_a_limit_or_the_callback_reports_feasible_or_unknown() {
    use csp_core::{Objective, OptOutcome};
    // 8 variables 0..=7 pairwise different: minimise the last, which the first solution (ascending values) sets
    // to 7; many improving solutions follow.
    let mut m = Model::new();
    let xs: Vec<VarId> = (0..8).map(|_| m.new_var(0, 7).unwrap()).collect();
    m.all_different(&xs).unwrap();
    let p = m.build().unwrap();
    let full = Solver::new(&p, SearchConfig::default())
        .minimize(&[], xs[7])
        .unwrap();
    assert_eq!(
        (full.outcome, full.objective),
        (OptOutcome::Optimal, Some(0))
    );
    assert!(full.improvements > 1);
    let mut seen = 0;
    let stopped = Solver::new(&p, SearchConfig::default())
        .optimize(&[], Objective::Minimize(xs[7]), |_, _| {
            seen += 1;
            ControlFlow::Break(())
        })
        .unwrap();
    assert_eq!(
        (stopped.outcome, seen, stopped.improvements),
        (OptOutcome::Feasible, 1, 1)
    );
    assert_eq!(stopped.objective, Some(7));
    let cfg = SearchConfig::default().limits(Limits::none().with_nodes(3));
    let cut = Solver::new(&p, cfg).minimize(&[], xs[7]).unwrap();
    assert_eq!(cut.outcome, OptOutcome::Unknown);
    assert!(cut.best.is_none());
    // Seven decisions reach a first solution; a few more nodes do not prove 0 optimal.
    let cfg = SearchConfig::default().limits(Limits::none().with_nodes(9));
    let cut = Solver::new(&p, cfg).minimize(&[], xs[7]).unwrap();
    assert_eq!(cut.outcome, OptOutcome::Feasible);
    assert!(cut.objective.is_some_and(|v| v > 0));
}

#[test]
fn phased_searches_find_exactly_the_enumerated_solutions() {
    let mut g = Gen(csp_core::rng::Rng::new(0x5E0));
    for case in 0..300 {
        let (p, doms) = random_extended_problem(&mut g);
        let n = p.num_vars();
        let pick = |g: &mut Gen| -> Vec<VarId> {
            (0..g.range(1, 3))
                .map(|_| p.var(g.below(n as u64) as usize).unwrap())
                .collect()
        };
        let mut cfgs = Vec::new();
        for vo in VarOrder::ALL {
            let (a, b) = (pick(&mut g), pick(&mut g));
            let val = g.pick(&ValueOrder::ALL);
            cfgs.push(
                SearchConfig::default()
                    .phase(&a, vo, val)
                    .phase(&b, VarOrder::Input, ValueOrder::Median)
                    .seed(5),
            );
        }
        check_problem(&p, &doms, &[], &cfgs, case);
    }
}

#[test]
fn a_phase_decides_its_variables_first_with_its_own_value_order() {
    let mut m = Model::new();
    let a = m.new_var(0, 3).unwrap();
    let b = m.new_var(0, 3).unwrap();
    m.not_equal(a, b, 5).unwrap();
    let p = m.build().unwrap();
    let plain = Solver::new(&p, SearchConfig::default()).solve(&[]);
    let s = plain.solution.unwrap();
    assert_eq!((s.value(a), s.value(b)), (0, 0));
    let phased = SearchConfig::default().phase(&[b], VarOrder::Input, ValueOrder::Median);
    let r = Solver::new(&p, phased).solve(&[]);
    let s = r.solution.unwrap();
    // b first, median of 0..=3 first; then a with the default ascending order.
    assert_eq!(s.value(a), 0);
    assert!(s.value(b) == 1 || s.value(b) == 2, "b = {}", s.value(b));
    assert_eq!(r.stats.nodes, 2);
}

/// `complete_rest_once`: the solutions enumerated are exactly one per distinct assignment of the listed variables
/// that extends to a solution (the brute-force solutions projected onto them), each a real solution; `count`
/// agrees; with the objective listed, branch and bound still reaches the optimum.
#[test]
fn completing_the_rest_once_enumerates_each_listed_assignment_once() {
    let mut g = Gen(csp_core::rng::Rng::new(0xC0E));
    let mut repeats_avoided = 0usize;
    for case in 0..300 {
        let (p, doms, _) = if case % 2 == 0 {
            let (p, d) = random_extended_problem(&mut g);
            (p, d, ())
        } else {
            let (p, d, _) = random_problem(&mut g, None);
            (p, d, ())
        };
        let n = p.num_vars();
        let all = brute_force(&p, &doms);
        // Zero to two phases over random (possibly repeated) variables.
        let groups: Vec<Vec<usize>> = (0..g.below(3))
            .map(|_| {
                (0..g.range(1, 3))
                    .map(|_| g.below(n as u64) as usize)
                    .collect()
            })
            .collect();
        let mut listed: Vec<usize> = groups.iter().flatten().copied().collect();
        listed.sort_unstable();
        listed.dedup();
        let project = |s: &[i64]| listed.iter().map(|&i| s[i]).collect::<Vec<i64>>();
        let expected: HashSet<Vec<i64>> = all.iter().map(|s| project(s)).collect();
        repeats_avoided += all.len() - expected.len();
        for vo in VarOrder::ALL {
            let val = g.pick(&ValueOrder::ALL);
            let rest = g.pick(&VarOrder::ALL);
            let mut cfg = SearchConfig::default()
                .var_order(rest)
                .complete_rest_once(true)
                .seed(7);
            for grp in &groups {
                let vars: Vec<VarId> = grp.iter().map(|&i| p.var(i).unwrap()).collect();
                cfg = cfg.phase(&vars, vo, val);
            }
            let mut found = HashSet::new();
            let (outcome, _) = Solver::new(&p, cfg.clone()).for_each_solution(&[], |s| {
                assert!(p.is_solution(s.values()), "case {case}: non-solution");
                assert!(
                    found.insert(project(s.values())),
                    "case {case}: a listed assignment repeated with {cfg:?}"
                );
                ControlFlow::Continue(())
            });
            assert_eq!(found, expected, "case {case}: {cfg:?}");
            let want = if expected.is_empty() {
                Outcome::Unsatisfiable
            } else {
                Outcome::Solved
            };
            assert_eq!(outcome, want, "case {case}");
            let c = Solver::new(&p, cfg.clone()).count(&[], u64::MAX);
            assert_eq!(c.count, expected.len() as u64, "case {case}: {cfg:?}");
            let c = csp_core::parallel::count(&p, &cfg, u64::MAX);
            assert_eq!(c.count, expected.len() as u64, "case {case}: parallel");
            // Branch and bound with the objective in a phase of its own.
            let k = g.below(n as u64) as usize;
            let x = p.var(k).unwrap();
            let r = Solver::new(&p, cfg.clone().phase(&[x], vo, val))
                .minimize(&[], x)
                .unwrap();
            assert_eq!(
                r.objective,
                all.iter().map(|s| s[k]).min(),
                "case {case}: optimum with {cfg:?}"
            );
        }
    }
    assert!(repeats_avoided > 1000, "{repeats_avoided}");
}

#[test]
fn completing_the_rest_once_without_phases_gives_one_solution() {
    let mut m = Model::new();
    let xs: Vec<VarId> = (0..3).map(|_| m.new_var(0, 2).unwrap()).collect();
    m.all_different(&xs).unwrap();
    let p = m.build().unwrap();
    let all = Solver::new(&p, SearchConfig::default()).count(&[], u64::MAX);
    assert_eq!(all.count, 6);
    let cfg = SearchConfig::default().complete_rest_once(true);
    let mut s = Solver::new(&p, cfg.clone());
    assert_eq!(s.engine(), csp_core::EngineKind::General64);
    assert_eq!(s.count(&[], u64::MAX).count, 1);
    // Listing x0: one solution per value of x0.
    let cfg = cfg.phase(&xs[..1], VarOrder::Input, ValueOrder::Ascending);
    let (sols, outcome, _) = Solver::new(&p, cfg).solutions(&[], u64::MAX);
    assert_eq!(outcome, Outcome::Solved);
    let firsts: Vec<i64> = sols.iter().map(|s| s.value(xs[0])).collect();
    assert_eq!(firsts, [0, 1, 2]);
}

/// A random model over the constraints that accept interval variables (`linear` with every relation, reified
/// linear relations, `equal` / `not_equal`, arithmetic, `min` / `max`, `lex`, `element` over constants and over
/// variables, `all_different` at every level: `Domain` posts `Bounds` on intervals).
/// With `intervals`, every integer variable is an interval (bounds) domain; without, the same model (same draws)
/// on bitsets. Both must give the enumerated solutions, counts and optima.
fn random_bounds_problem(g: &mut Gen, intervals: bool) -> (Problem, Vec<Vec<i64>>) {
    use csp_core::constraints::{ArithOp, Reification};
    let mut m = Model::new();
    let mut ints = Vec::new();
    let mut doms = Vec::new();
    for _ in 0..g.range(1, 5) {
        let lo = g.range(-3, 2);
        let hi = lo + g.range(0, 4);
        ints.push(if intervals {
            m.new_interval_var(lo, hi).unwrap()
        } else {
            m.new_var(lo, hi).unwrap()
        });
        doms.push((lo..=hi).collect::<Vec<i64>>());
    }
    let b = m.new_bool().unwrap();
    doms.push(vec![0, 1]);
    let rel = |g: &mut Gen| g.pick(&[Relation::Eq, Relation::Le, Relation::Ge, Relation::Ne]);
    for _ in 0..g.range(1, 4) {
        let (x, y, z) = (g.pick(&ints), g.pick(&ints), g.pick(&ints));
        match g.below(11) {
            0 | 1 => {
                let k = g.range(1, 3) as usize;
                let terms: Vec<(i64, VarId)> = (0..k)
                    .map(|_| (g.pick(&[-3, -2, -1, 1, 2, 3]), g.pick(&ints)))
                    .collect();
                let r = rel(g);
                m.linear(&terms, r, g.range(-6, 6)).unwrap();
            }
            8 => {
                let arr: Vec<VarId> = (0..g.range(1, 4)).map(|_| g.pick(&ints)).collect();
                m.element_var(x, g.range(-3, 0), &arr, y).unwrap();
            }
            9 => {
                let arr: Vec<i64> = (0..g.range(1, 4)).map(|_| g.range(-3, 3)).collect();
                m.element(x, g.range(-3, 0), &arr, y).unwrap();
            }
            2 => {
                let k = g.range(2, 4) as usize;
                let xs = g.subset(&ints, k);
                let offs: Vec<i64> = (0..k).map(|_| g.range(-2, 2)).collect();
                let level = g.pick(&[
                    AllDifferentLevel::Value,
                    AllDifferentLevel::Bounds,
                    AllDifferentLevel::Domain,
                ]);
                m.all_different_with(&xs, &offs, level).unwrap();
            }
            3 => {
                let c = g.range(-2, 2);
                if g.below(2) == 0 {
                    m.equal(x, y, c).unwrap();
                } else {
                    m.not_equal(x, y, c).unwrap();
                }
            }
            4 => {
                let mode = g.pick(&[Reification::Equivalent, Reification::Implies]);
                let r = rel(g);
                // Both spellings of a difference (the reified difference propagator takes Le and Ge).
                let t = if g.below(2) == 0 {
                    [(1, x), (-1, y)]
                } else {
                    [(-1, x), (1, y)]
                };
                m.reify_linear(&t, r, g.range(-2, 2), b, mode).unwrap();
            }
            5 => {
                let op = g.pick(&[ArithOp::Times, ArithOp::Div, ArithOp::Mod, ArithOp::Pow]);
                if m.arith(op, x, y, z).is_err() {
                    assert!(matches!(op, ArithOp::Div | ArithOp::Mod));
                }
            }
            6 => {
                m.abs(x, y).unwrap();
            }
            7 => {
                if g.below(2) == 0 {
                    m.max_of(&[x, y], z).unwrap();
                } else {
                    m.min_of(&[x, y], z).unwrap();
                }
            }
            _ => {
                let (a, c) = (g.subset(&ints, 2), g.subset(&ints, 2));
                let strict = g.below(2) == 0;
                m.lex(&a, &c, strict).unwrap();
            }
        }
    }
    (m.build().unwrap(), doms)
}

#[test]
fn interval_variables_give_the_enumerated_solutions_counts_and_optima_under_every_strategy() {
    let cfgs = configs();
    let mut nonempty = 0;
    for case in 0..1000 {
        for intervals in [true, false] {
            // The same draws for both representations.
            let mut g = Gen(csp_core::rng::Rng::new(0x1_4000 + case as u64));
            let (p, doms) = random_bounds_problem(&mut g, intervals);
            check_problem(&p, &doms, &[], &cfgs, case);
            let all = brute_force(&p, &doms);
            nonempty += usize::from(!all.is_empty() && intervals);
            let k = case % p.num_vars();
            for minimize in [true, false] {
                for cfg in cfgs.iter().step_by(3) {
                    check_optimum(&p, &all, &[], k, minimize, cfg, case);
                }
            }
        }
    }
    assert!(nonempty > 200, "only {nonempty} satisfiable cases");
}

#[test]
fn the_lazy_iterator_does_only_the_work_asked_for_and_leaves_the_solver_reusable() {
    let mut m = Model::new();
    let xs: Vec<VarId> = (0..8).map(|_| m.new_var(0, 7).unwrap()).collect();
    m.all_different(&xs).unwrap();
    let offs: Vec<i64> = (0..8).collect();
    m.all_different_offset(&xs, &offs).unwrap();
    let neg: Vec<i64> = (0..8).map(|i| -i).collect();
    m.all_different_offset(&xs, &neg).unwrap();
    let p = m.build().unwrap();
    let mut solver = Solver::new(&p, SearchConfig::default());
    let (all, _, full) = solver.solutions(&[], u64::MAX);
    assert_eq!(all.len(), 92);
    let mut it = solver.solutions_iter(&[]);
    let first: Vec<_> = it.by_ref().take(3).collect();
    assert_eq!(first, all[..3].to_vec());
    assert_eq!(it.outcome(), None, "the search is not over after 3 of 92");
    assert!(it.stats().nodes < full.nodes);
    assert_eq!(it.next().as_ref(), Some(&all[3]));
    drop(it);
    assert_eq!(solver.count(&[], u64::MAX).count, 92);
    // A limit ends the iterator with a limit outcome.
    solver.set_limits(Limits::default().with_nodes(5));
    let mut it = solver.solutions_iter(&[]);
    assert!(it.by_ref().count() < 92);
    assert!(matches!(it.outcome(), Some(Outcome::Limit(_))));
}

/// `n = |{i : xs[i] = y}|` as the decomposition [`Model::count_var`] posted before its dedicated propagator: one
/// Boolean `b_i <-> (x_i = y)` per member and `sum b_i = n`.
fn count_var_decomposed(m: &mut Model, xs: &[VarId], y: VarId, n: VarId) {
    use csp_core::constraints::Reification;
    let mut terms = Vec::new();
    for &x in xs {
        let b = m.new_bool().unwrap();
        m.reify_linear(
            &[(1, x), (-1, y)],
            Relation::Eq,
            0,
            b,
            Reification::Equivalent,
        )
        .unwrap();
        terms.push((1, b));
    }
    terms.push((-1, n));
    m.linear(&terms, Relation::Eq, 0).unwrap();
}

/// `inverse(f, g)` as the decomposition [`Model::inverse`] posted before its dedicated propagator: one Boolean per
/// pair reified on both sides, the range of every variable, and `all_different` on each array.
fn inverse_decomposed(m: &mut Model, f: &[VarId], g: &[VarId], first: i64) {
    use csp_core::constraints::Reification;
    for (i, &fi) in f.iter().enumerate() {
        for (j, &gj) in g.iter().enumerate() {
            let b = m.new_bool().unwrap();
            let eqv = Reification::Equivalent;
            m.reify_linear(&[(1, fi)], Relation::Eq, first + j as i64, b, eqv)
                .unwrap();
            m.reify_linear(&[(1, gj)], Relation::Eq, first + i as i64, b, eqv)
                .unwrap();
        }
    }
    let last = first + f.len() as i64 - 1;
    for &v in f.iter().chain(g) {
        m.linear(&[(1, v)], Relation::Ge, first).unwrap();
        m.linear(&[(1, v)], Relation::Le, last).unwrap();
    }
    m.all_different(f).unwrap();
    m.all_different(g).unwrap();
}

/// A random model of `count_var` and `inverse` with a few `!=` and sums beside, drawn from `seed`: with the
/// dedicated propagators (`dedicated`) or with the decompositions they replaced (whose Booleans come after the
/// model's own variables). Returns the problem and the domains of the model's own variables.
fn random_count_inverse_problem(seed: u64, dedicated: bool) -> (Problem, Vec<Vec<i64>>) {
    let mut g = Gen(csp_core::rng::Rng::new(seed));
    let mut m = Model::new();
    let mut xs = Vec::new();
    let mut doms = Vec::new();
    for _ in 0..g.range(4, 6) {
        let mut d: Vec<i64> = (-1..=3).filter(|_| g.below(4) != 0).collect();
        if d.is_empty() {
            d.push(g.range(-1, 3));
        }
        xs.push(m.new_var_with_values(&d).unwrap());
        doms.push(d);
    }
    for _ in 0..g.range(1, 3) {
        match g.below(5) {
            0 | 1 => {
                let k = g.range(2, 4) as usize;
                let members = g.subset(&xs, k);
                let (y, n) = (g.pick(&xs), g.pick(&xs));
                if dedicated {
                    m.count_var(&members, y, n).unwrap();
                } else {
                    count_var_decomposed(&mut m, &members, y, n);
                }
            }
            2 | 3 => {
                let k = g.range(2, 3) as usize;
                let first = g.range(-1, 1);
                let (f, h) = (g.subset(&xs, k), g.subset(&xs, k));
                if dedicated {
                    m.inverse(&f, &h, first).unwrap();
                } else {
                    inverse_decomposed(&mut m, &f, &h, first);
                }
            }
            _ => {
                let (x, y) = (g.pick(&xs), g.pick(&xs));
                if g.below(2) == 0 {
                    m.not_equal(x, y, g.range(-1, 1)).unwrap();
                } else {
                    m.linear(&[(1, x), (1, y)], Relation::Le, g.range(0, 4))
                        .unwrap();
                }
            }
        }
    }
    (m.build().unwrap(), doms)
}

#[test]
fn count_var_and_inverse_propagators_match_brute_force_under_every_strategy() {
    let cfgs = configs();
    let mut nonempty = 0;
    for case in 0..200 {
        let (p, doms) = random_count_inverse_problem(0xC0DE + case as u64, true);
        assert_eq!(p.num_vars(), doms.len(), "no auxiliary variable");
        check_problem(&p, &doms, &[], &cfgs, case);
        nonempty += usize::from(!brute_force(&p, &doms).is_empty());
    }
    assert!(nonempty > 20, "only {nonempty} satisfiable models");
}

#[test]
fn count_var_and_inverse_propagators_prune_at_least_what_their_decompositions_did() {
    // A static order (the model's own variables first, the decompositions' Booleans last) and a fixed value order
    // make the trees comparable: a node of the dedicated tree is a node of the decomposition's, unless the
    // decomposition removed a value the dedicated propagator kept.
    let (mut dedicated_nodes, mut decomposed_nodes) = (0, 0);
    for case in 0..400u64 {
        let (p, _) = random_count_inverse_problem(0xC0DE + case, true);
        let (q, _) = random_count_inverse_problem(0xC0DE + case, false);
        for prop in [Propagation::ForwardChecking, Propagation::Singles] {
            let cfg = SearchConfig::default()
                .var_order(VarOrder::Input)
                .value_order(ValueOrder::Ascending)
                .propagation(prop);
            let a = Solver::new(&p, cfg.clone()).count(&[], u64::MAX);
            let b = Solver::new(&q, cfg).count(&[], u64::MAX);
            assert_eq!(a.count, b.count, "case {case}, {prop:?}: counts");
            assert!(
                a.stats.nodes <= b.stats.nodes,
                "case {case}, {prop:?}: {} nodes against {} with the decomposition",
                a.stats.nodes,
                b.stats.nodes
            );
            dedicated_nodes += a.stats.nodes;
            decomposed_nodes += b.stats.nodes;
        }
    }
    eprintln!("count_var / inverse: {dedicated_nodes} nodes, decompositions {decomposed_nodes}");
    assert!(dedicated_nodes < decomposed_nodes);
}

#[test]
fn random_3sat_formulas_on_watched_clauses_match_brute_force_under_every_strategy() {
    // Around the satisfiability threshold (7 variables, 12..=32 clauses of three literals drawn with repeats, so
    // a literal may repeat or meet its negation): the watched literals must find exactly the enumerated models.
    let cfgs = configs();
    let mut g = Gen(csp_core::rng::Rng::new(0x3_5A7));
    let (mut sat, mut unsat) = (0, 0);
    for case in 0..150 {
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..7).map(|_| m.new_bool().unwrap()).collect();
        for _ in 0..g.range(12, 32) {
            let k = 3;
            let lits = g.subset(&xs, k);
            let split = g.range(0, k as i64) as usize;
            m.clause(&lits[..split], &lits[split..]).unwrap();
        }
        let p = m.build().unwrap();
        let doms = vec![vec![0, 1]; 7];
        let models = check_problem(&p, &doms, &[], &cfgs, case);
        if models.is_empty() {
            unsat += 1;
        } else {
            sat += 1;
        }
    }
    assert!(sat > 10 && unsat > 10, "{sat} satisfiable, {unsat} not");
}

/// A random scheduling model: 1 to 4 tasks with starts in small ranges (bitset domains with holes, or intervals
/// with `intervals`), durations and uses constant or variable (from 0, so tasks of zero length or use occur),
/// a capacity constant or variable, sometimes a precedence, and a makespan `z >= s_i + d_i`, all on one
/// `cumulative`; sometimes a second `cumulative` over a subset. Variable domains are kept small so enumeration
/// stays cheap.
fn random_scheduling_problem(g: &mut Gen, intervals: bool) -> (Problem, Vec<Vec<i64>>) {
    let mut m = Model::new();
    let mut doms = Vec::new();
    let mut var = |m: &mut Model, g: &mut Gen, lo: i64, hi: i64, holes: bool| {
        let vals: Vec<i64> = if holes && !intervals {
            let v: Vec<i64> = (lo..=hi).filter(|_| g.below(4) != 0).collect();
            if v.is_empty() {
                vec![lo]
            } else {
                v
            }
        } else {
            (lo..=hi).collect()
        };
        let x = if intervals && vals.len() > 1 {
            m.new_interval_var(lo, hi).unwrap()
        } else {
            m.new_var_with_values(&vals).unwrap()
        };
        doms.push(vals);
        x
    };
    // The makespan first: variable 0.
    let z = var(&mut m, g, 0, 9, false);
    let n = g.range(1, 4) as usize;
    let mut s = Vec::new();
    let mut d = Vec::new();
    let mut r = Vec::new();
    for _ in 0..n {
        let lo = g.range(0, 2);
        let hi = lo + g.range(0, 4);
        s.push(var(&mut m, g, lo, hi, true));
        let dl = g.range(0, 3);
        let dh = if g.below(4) == 0 { dl + 1 } else { dl };
        d.push(var(&mut m, g, dl, dh, false));
        let rl = g.range(0, 3);
        let rh = if g.below(4) == 0 { rl + 1 } else { rl };
        r.push(var(&mut m, g, rl, rh, false));
    }
    let bl = g.range(1, 4);
    let bh = if g.below(3) == 0 { bl + 2 } else { bl };
    let b = var(&mut m, g, bl, bh, false);
    m.cumulative(&s, &d, &r, b).unwrap();
    for i in 0..n {
        m.linear(&[(1, s[i]), (1, d[i]), (-1, z)], Relation::Le, 0)
            .unwrap();
    }
    if n >= 2 && g.below(3) == 0 {
        m.linear(&[(1, s[0]), (1, d[0]), (-1, s[1])], Relation::Le, 0)
            .unwrap();
    }
    if n >= 3 && g.below(3) == 0 {
        let b2 = var(&mut m, g, 1, 2, false);
        m.cumulative(&s[1..], &d[1..], &r[1..], b2).unwrap();
    }
    (m.build().unwrap(), doms)
}

#[test]
fn random_scheduling_models_with_cumulative_match_brute_force_under_every_strategy() {
    let cfgs = configs();
    let (mut nonempty, mut empty) = (0, 0);
    for case in 0..150 {
        for intervals in [false, true] {
            // The same draws for both representations (the bitset side also gets holes in its starts).
            let mut g = Gen(csp_core::rng::Rng::new(0xC0_0000 + case as u64));
            let (p, doms) = random_scheduling_problem(&mut g, intervals);
            check_problem(&p, &doms, &[], &cfgs, case);
            let all = brute_force(&p, &doms);
            if all.is_empty() {
                empty += 1;
            } else {
                nonempty += 1;
            }
            // The makespan (variable 0) and one random variable.
            for k in [0, case % p.num_vars()] {
                for minimize in [true, false] {
                    for cfg in cfgs.iter().step_by(5) {
                        check_optimum(&p, &all, &[], k, minimize, cfg, case);
                    }
                }
            }
        }
    }
    assert!(
        nonempty > 60 && empty > 6,
        "{nonempty} satisfiable, {empty} unsatisfiable cases"
    );
}
