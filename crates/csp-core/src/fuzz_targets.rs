//! The engine's fuzz target body, and the brute-force oracle it shares with the cross-check tests.
//!
//! [`fuzz_engine`] is the whole body of the libFuzzer target `engine` in the repository's `fuzz/` folder: it
//! decodes arbitrary bytes into a small model mixing every constraint kind of [`Model`], a handful of search
//! configurations and a few assumptions, and panics only when the engine disagrees with brute force. Keeping the
//! body here, as a plain function of the library behind the `fuzz` feature, lets a stable `cargo test` replay the
//! saved corpus and every regression input (`tests/fuzz_replay.rs`) without nightly Rust or libFuzzer.
//!
//! The oracle never propagates: [`brute_force`] enumerates the cartesian product of the domains and keeps the
//! assignments [`Problem::is_solution`] accepts, that is, those every constraint's own `is_satisfied` accepts.
//! [`check_problem`] and [`check_optimum`] compare solver runs with that set; `tests/cross_check.rs` runs them on
//! seeded random models, the fuzzer on the models its bytes describe.
//!
//! ```
//! use csp_core::fuzz_targets::{brute_force, fuzz_engine};
//! use csp_core::Model;
//!
//! let mut m = Model::new();
//! let x = m.new_var(0, 2)?;
//! let y = m.new_var(0, 2)?;
//! m.not_equal(x, y, 0)?;
//! let p = m.build()?;
//! assert_eq!(brute_force(&p, &[vec![0, 1, 2], vec![0, 1, 2]]).len(), 6);
//! fuzz_engine(b"any bytes describe some model");
//! # Ok::<(), csp_core::ModelError>(())
//! ```

use std::collections::HashSet;
use std::ops::ControlFlow;

use crate::constraints::{AllDifferentLevel, ArithOp, Reification};
use crate::{
    Limits, Model, Objective, OptOutcome, Outcome, Problem, Propagation, Relation, Restarts,
    SearchConfig, Solver, ValueOrder, VarId, VarOrder,
};

/// Every assignment over `doms` (`doms[i]` = the values tried for variable `i`, in creation order) that
/// [`Problem::is_solution`] accepts, by enumerating the cartesian product.
pub fn brute_force(p: &Problem, doms: &[Vec<i64>]) -> HashSet<Vec<i64>> {
    fn rec(
        p: &Problem,
        doms: &[Vec<i64>],
        i: usize,
        cur: &mut Vec<i64>,
        out: &mut HashSet<Vec<i64>>,
    ) {
        if i == doms.len() {
            if p.is_solution(cur) {
                out.insert(cur.clone());
            }
            return;
        }
        for &v in &doms[i] {
            cur[i] = v;
            rec(p, doms, i + 1, cur, out);
        }
    }
    let mut out = HashSet::new();
    let mut cur = vec![0i64; doms.len()];
    rec(p, doms, 0, &mut cur, &mut out);
    out
}

/// Checks every configuration of `cfgs` on `p` under `assumptions` against [`brute_force`] over `doms` (which
/// must already reflect the assumptions): every solution enumerated is accepted by the checker and found once, the
/// set equals the enumerated one, the count and the outcome agree, and a first-solution search (without and with
/// Luby restarts and random ties) finds an enumerated solution or proves there is none. Panics, naming `case`
/// and the configuration, at the first difference; returns the enumerated solutions.
pub fn check_problem(
    p: &Problem,
    doms: &[Vec<i64>],
    assumptions: &[(VarId, i64)],
    cfgs: &[SearchConfig],
    case: usize,
) -> HashSet<Vec<i64>> {
    let expected = brute_force(p, doms);
    for cfg in cfgs {
        let mut solver = Solver::new(p, cfg.clone());
        let mut found = HashSet::new();
        let mut in_order = Vec::new();
        let (outcome, stats) = solver.for_each_solution(assumptions, |s| {
            in_order.push(s.values().to_vec());
            assert!(
                p.is_solution(s.values()),
                "case {case}: non-solution {:?} with {cfg:?}",
                s.values()
            );
            assert!(
                found.insert(s.values().to_vec()),
                "case {case}: duplicate solution with {cfg:?}"
            );
            ControlFlow::Continue(())
        });
        assert_eq!(
            found, expected,
            "case {case}: solution sets differ with {cfg:?}"
        );
        // The lazy iterator resumes the same search: same solutions in the same order, same tree. A fresh solver,
        // as the enumeration above had: learned state (dom/wdeg weights, restart schedules) would change the tree.
        let mut fresh = Solver::new(p, cfg.clone());
        let mut it = fresh.solutions_iter(assumptions);
        let lazy: Vec<Vec<i64>> = it.by_ref().map(|s| s.values().to_vec()).collect();
        assert_eq!(lazy, in_order, "case {case}: iterator order with {cfg:?}");
        assert_eq!(it.outcome(), Some(outcome), "case {case}: {cfg:?}");
        assert_eq!(it.stats().nodes, stats.nodes, "case {case}: {cfg:?}");
        assert_eq!(it.stats().solutions, stats.solutions, "case {case}");
        assert_eq!(
            outcome,
            if expected.is_empty() {
                Outcome::Unsatisfiable
            } else {
                Outcome::Solved
            },
            "case {case}: outcome with {cfg:?}"
        );
        let c = solver.count(assumptions, u64::MAX);
        assert_eq!(
            c.count,
            expected.len() as u64,
            "case {case}: count with {cfg:?}"
        );
        for restarts in [Restarts::None, Restarts::Luby { scale: 1 }] {
            let cfg = cfg.clone().restarts(restarts).random_ties(true);
            let r = Solver::new(p, cfg.clone()).solve(assumptions);
            check_first_solution(&r.outcome, r.solution.as_ref(), &expected, case, &cfg);
        }
    }
    expected
}

/// A first-solution search ended with `outcome` and `solution`: a solution must be one of `expected`, and
/// `Unsatisfiable` is only right when `expected` is empty (a limit proves nothing and is always allowed).
fn check_first_solution(
    outcome: &Outcome,
    solution: Option<&crate::Solution>,
    expected: &HashSet<Vec<i64>>,
    case: usize,
    cfg: &SearchConfig,
) {
    match (outcome, solution) {
        (Outcome::Solved, Some(s)) => assert!(
            expected.contains(s.values()),
            "case {case}: bad solution {:?} with {cfg:?}",
            s.values()
        ),
        (Outcome::Unsatisfiable, None) => assert!(
            expected.is_empty(),
            "case {case}: missed a solution with {cfg:?}"
        ),
        (Outcome::Limit(_), None) => {}
        (outcome, solution) => {
            panic!("case {case}: outcome {outcome:?} with solution {solution:?} under {cfg:?}")
        }
    }
}

/// Checks branch and bound on variable number `k` of `p` (minimised or maximised) under `cfg` against the
/// enumerated solutions `all`: every improving solution is accepted by the checker, carries its objective value
/// and beats the previous one, and the result is the enumerated optimum (or unsatisfiable when `all` is empty).
/// Returns the optimum. Panics, naming `case`, at the first difference.
pub fn check_optimum(
    p: &Problem,
    all: &HashSet<Vec<i64>>,
    assumptions: &[(VarId, i64)],
    k: usize,
    minimize: bool,
    cfg: &SearchConfig,
    case: usize,
) -> Option<i64> {
    let Some(x) = p.var(k) else {
        panic!("case {case}: no variable {k}");
    };
    let expected = optimum(all, k, minimize);
    let objective = if minimize {
        Objective::Minimize(x)
    } else {
        Objective::Maximize(x)
    };
    let mut last: Option<i64> = None;
    let r = Solver::new(p, cfg.clone()).optimize(assumptions, objective, |s, value| {
        assert!(p.is_solution(s.values()), "case {case}: non-solution");
        assert!(
            all.contains(s.values()),
            "case {case}: improving solution {:?} outside the enumeration with {cfg:?}",
            s.values()
        );
        assert_eq!(s.values()[k], value);
        if let Some(prev) = last {
            assert!(
                if minimize { value < prev } else { value > prev },
                "case {case}: {value} does not improve on {prev} with {cfg:?}"
            );
        }
        last = Some(value);
        ControlFlow::Continue(())
    });
    let r = match r {
        Ok(r) => r,
        Err(e) => panic!("case {case}: optimize refused its own variable: {e}"),
    };
    assert_eq!(
        r.objective, expected,
        "case {case}, minimize {minimize}, {cfg:?}"
    );
    assert_eq!(
        r.outcome,
        if expected.is_some() {
            OptOutcome::Optimal
        } else {
            OptOutcome::Unsatisfiable
        },
        "case {case}: {cfg:?}"
    );
    expected
}

/// The best value of position `k` over `all`.
fn optimum(all: &HashSet<Vec<i64>>, k: usize, minimize: bool) -> Option<i64> {
    let values = all.iter().map(|s| s[k]);
    if minimize {
        values.min()
    } else {
        values.max()
    }
}

/// Largest cartesian product [`fuzz_engine`] enumerates; a model with more assignments is skipped (it would
/// cost more than it could find, as the constraints' checkers run on every assignment).
pub const FUZZ_MAX_ASSIGNMENTS: usize = 4_096;

/// Values a fuzzed variable's explicit domain draws from: small ones mostly, and a few of large magnitude, so
/// that posting methods meet their overflow checks and checkers meet large sums and products.
const VALUES: [i64; 16] = [
    -4,
    -3,
    -2,
    -1,
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    0,
    1,
    1 << 31,
    -(1 << 40),
    i64::MAX / 3,
];

/// Target `engine`: a small model mixing every constraint kind, solved under a few search configurations, against
/// brute force.
///
/// Properties: no panic while building, posting (a rejected argument is a `ModelError`) or solving; under every
/// decoded configuration the enumerated solutions are exactly those [`brute_force`] finds, each accepted by every
/// constraint's checker, with the same count ([`check_problem`]); a search with the configuration's own restart
/// policy finds an enumerated solution or rightly proves there is none; branch and bound reaches the enumerated
/// optimum of a chosen variable ([`check_optimum`]); counting up to a small limit gives `min(count, limit)`; and
/// under a tiny node limit no search calls a satisfiable model unsatisfiable, counts more than exist, or reports an
/// optimum other than the enumerated one.
///
/// Bytes, read one at a time (0 once they run out), in this order: the variables (1-5 integers, each a range of up
/// to 4 values in -3..=5, as a bitset or an interval variable, or an explicit list of up to 4 values, sometimes huge; 0-3 Booleans; sometimes a wide
/// variable of 100 or 300 values, which moves the problem onto the `u128` or `bitvec` domains); 1-6 constraints,
/// each a kind byte then its arguments; 0-2 assumptions; 1-3 search configurations (variable order, value order,
/// propagation level, random ties, seed, intersections, general engine, restarts, 0-2 phases); the objective; the
/// node limit of the limited runs.
pub fn fuzz_engine(data: &[u8]) {
    let mut d = Draw { bytes: data.iter() };
    let Some(mut fuzzed) = decode_model(&mut d) else {
        return;
    };
    let Ok(p) = fuzzed.model.build() else {
        return;
    };
    // Variables a decomposition introduced (count, inverse) are Booleans the model made: read their domains back.
    for i in fuzzed.doms.len()..p.num_vars() {
        let values = p
            .var(i)
            .and_then(|x| p.domain_values(x).ok())
            .unwrap_or_default();
        fuzzed.doms.push(values);
    }
    let mut assumptions = fuzzed.assumptions;
    for _ in 0..d.below(3) {
        let i = d.below(p.num_vars());
        let Some(x) = p.var(i) else { continue };
        let value = if d.flag() {
            d.pick(&fuzzed.doms[i]).unwrap_or(0)
        } else {
            d.range(-5, 7)
        };
        assumptions.push((x, value));
    }
    let mut doms = fuzzed.doms;
    for &(x, value) in &assumptions {
        doms[x.index()].retain(|&v| v == value);
    }
    let assignments = doms
        .iter()
        .try_fold(1usize, |acc, dom| acc.checked_mul(dom.len().max(1)));
    if assignments.is_none_or(|n| n > FUZZ_MAX_ASSIGNMENTS) {
        return;
    }
    let cfgs: Vec<SearchConfig> = (0..1 + d.below(3))
        .map(|_| decode_config(&mut d, &p))
        .collect();

    let all = check_problem(&p, &doms, &assumptions, &cfgs, 0);
    let k = d.below(p.num_vars());
    let minimize = d.flag();
    for cfg in &cfgs {
        check_optimum(&p, &all, &assumptions, k, minimize, cfg, 0);
        let r = Solver::new(&p, cfg.clone()).solve(&assumptions);
        check_first_solution(&r.outcome, r.solution.as_ref(), &all, 0, cfg);
    }
    let limit = 1 + d.below(3) as u64;
    let capped = Solver::new(&p, cfgs[0].clone()).count(&assumptions, limit);
    assert_eq!(
        capped.count,
        (all.len() as u64).min(limit),
        "count up to {limit}"
    );
    check_limited(
        &p,
        &all,
        &assumptions,
        &cfgs[0],
        1 + d.below(16) as u64,
        k,
        minimize,
    );
}

/// Runs `cfg` with a node limit of `nodes` and checks that a limit never passes for a proof: counts stay within
/// the enumeration, a model with solutions is never called unsatisfiable, and an optimisation's claims agree with
/// the enumerated optimum of variable number `k`.
fn check_limited(
    p: &Problem,
    all: &HashSet<Vec<i64>>,
    assumptions: &[(VarId, i64)],
    cfg: &SearchConfig,
    nodes: u64,
    k: usize,
    minimize: bool,
) {
    let cfg = cfg.clone().limits(Limits::none().with_nodes(nodes));
    let total = all.len() as u64;
    let c = Solver::new(p, cfg.clone()).count(assumptions, u64::MAX);
    match c.outcome {
        Outcome::Limit(_) => assert!(c.count <= total, "{} of {total} at a limit", c.count),
        Outcome::Solved => assert_eq!(c.count, total, "a complete count with {cfg:?}"),
        Outcome::Unsatisfiable => assert_eq!(total, 0, "a satisfiable model proved empty"),
    }
    if let Some(first) = &c.first {
        assert!(
            all.contains(first.values()),
            "a limited count's first solution"
        );
    }
    let r = Solver::new(p, cfg.clone()).solve(assumptions);
    check_first_solution(&r.outcome, r.solution.as_ref(), all, 0, &cfg);
    let Some(x) = p.var(k) else { return };
    let objective = if minimize {
        Objective::Minimize(x)
    } else {
        Objective::Maximize(x)
    };
    let Ok(o) = Solver::new(p, cfg.clone()).optimize(assumptions, objective, |s, _| {
        assert!(
            all.contains(s.values()),
            "a limited optimisation's solution"
        );
        ControlFlow::Continue(())
    }) else {
        panic!("optimize refused its own variable");
    };
    let best = optimum(all, k, minimize);
    match o.outcome {
        OptOutcome::Optimal => assert_eq!(o.objective, best, "a limited optimum"),
        OptOutcome::Unsatisfiable => assert_eq!(total, 0, "a satisfiable model proved empty"),
        OptOutcome::Unknown => assert!(o.best.is_none()),
        OptOutcome::Feasible => {
            let (Some(found), Some(best)) = (o.objective, best) else {
                panic!("feasible without a solution: {o:?}");
            };
            assert!(
                if minimize {
                    found >= best
                } else {
                    found <= best
                },
                "{found} beats the optimum {best}"
            );
        }
    }
}

/// A model decoded from fuzz bytes: the model, the domain of each variable created so far (creation order), and
/// the assumptions fixing its wide variable, if any.
struct Fuzzed {
    model: Model,
    doms: Vec<Vec<i64>>,
    assumptions: Vec<(VarId, i64)>,
}

/// Reads the variables and constraints of a model (see [`fuzz_engine`] for the byte layout).
fn decode_model(d: &mut Draw<'_>) -> Option<Fuzzed> {
    let mut m = Model::new();
    let mut ints = Vec::new();
    let mut doms = Vec::new();
    for _ in 0..1 + d.below(5) {
        let shape = d.below(4);
        if shape == 0 {
            let values: Vec<i64> = (0..1 + d.below(4))
                .map(|_| d.pick(&VALUES).unwrap_or(0))
                .collect();
            ints.push(m.new_var_with_values(&values).ok()?);
            let mut dom = values;
            dom.sort_unstable();
            dom.dedup();
            doms.push(dom);
        } else {
            // Shape 1: an interval (bounds) variable, which moves propagators onto their bounds rules.
            let lo = d.range(-3, 2);
            let hi = lo + d.range(0, 3);
            let var = if shape == 1 {
                m.new_interval_var(lo, hi)
            } else {
                m.new_var(lo, hi)
            };
            ints.push(var.ok()?);
            doms.push((lo..=hi).collect());
        }
    }
    let mut bools = Vec::new();
    for _ in 0..d.below(4) {
        bools.push(m.new_bool().ok()?);
        doms.push(vec![0, 1]);
    }
    let mut assumptions = Vec::new();
    if d.below(8) == 7 {
        let width = d.pick(&[100i64, 300]).unwrap_or(100);
        let value = i64::from(d.byte()) * width / 256;
        assumptions.push((m.new_var(0, width - 1).ok()?, value));
        doms.push((0..width).collect());
    }
    let all: Vec<VarId> = ints.iter().chain(&bools).copied().collect();
    for _ in 0..1 + d.below(6) {
        post_one(d, &mut m, &ints, &bools, &all);
    }
    Some(Fuzzed {
        model: m,
        doms,
        assumptions,
    })
}

/// Posts one constraint of a fuzzed kind; a `ModelError` (an argument the posting method rejects) is a valid
/// outcome and leaves nothing to check.
fn post_one(d: &mut Draw<'_>, m: &mut Model, ints: &[VarId], bools: &[VarId], all: &[VarId]) {
    let int = |d: &mut Draw<'_>| d.pick(ints).unwrap_or(VarId::new(0, 0));
    // Boolean arguments come from the Booleans when there are some, from any variable otherwise (then the model
    // must refuse a non-Boolean with an error).
    let boolean = |d: &mut Draw<'_>| {
        if bools.is_empty() || d.below(16) == 0 {
            d.pick(all).unwrap_or(VarId::new(0, 0))
        } else {
            d.pick(bools).unwrap_or(VarId::new(0, 0))
        }
    };
    let rel = |d: &mut Draw<'_>| {
        d.pick(&[Relation::Eq, Relation::Le, Relation::Ge, Relation::Ne])
            .unwrap_or(Relation::Eq)
    };
    let terms = |d: &mut Draw<'_>, n: usize| -> Vec<(i64, VarId)> {
        (0..n)
            .map(|_| (d.range(-3, 3), d.pick(all).unwrap_or(VarId::new(0, 0))))
            .collect()
    };
    let kind = d.below(28);
    let (x, y, z) = (int(d), int(d), int(d));
    let _ = match kind {
        0 => m.all_different(&d.vars(all, 2, 4)),
        1 => {
            let xs = d.vars(all, 1, 4);
            let offsets: Vec<i64> = xs.iter().map(|_| d.range(-2, 2)).collect();
            m.all_different_offset(&xs, &offsets)
        }
        2 => m.not_equal(x, y, d.range(-2, 2)),
        3 => m.equal(x, y, d.range(-2, 2)),
        4 => {
            let n = 1 + d.below(3);
            let t = terms(d, n);
            m.linear(&t, rel(d), d.range(-6, 8))
        }
        5 => {
            let xs = d.vars(all, 1, 3);
            let tuples: Vec<Vec<i64>> = (0..d.below(9))
                .map(|_| xs.iter().map(|_| d.range(-3, 5)).collect())
                .collect();
            m.table(&xs, &tuples)
        }
        6 => {
            let lits: Vec<VarId> = (0..d.below(4)).map(|_| boolean(d)).collect();
            let split = d.below(lits.len() + 1);
            m.clause(&lits[..split], &lits[split..])
        }
        7 => {
            let xs: Vec<VarId> = (0..d.below(4)).map(|_| boolean(d)).collect();
            m.bool_and(&xs, boolean(d))
        }
        8 => {
            let xs: Vec<VarId> = (0..d.below(4)).map(|_| boolean(d)).collect();
            m.bool_or(&xs, boolean(d))
        }
        9 => {
            let xs: Vec<VarId> = (0..d.below(4)).map(|_| boolean(d)).collect();
            m.bool_xor(&xs, d.flag())
        }
        10 => m.bool_not(boolean(d), boolean(d)),
        11 => m.bool_equiv(boolean(d), boolean(d)),
        12 => {
            let n = 1 + d.below(2);
            let t = terms(d, n);
            let mode = d
                .pick(&[Reification::Equivalent, Reification::Implies])
                .unwrap_or(Reification::Equivalent);
            m.reify_linear(&t, rel(d), d.range(-3, 3), boolean(d), mode)
        }
        13 => {
            let op = d
                .pick(&[ArithOp::Times, ArithOp::Div, ArithOp::Mod, ArithOp::Pow])
                .unwrap_or(ArithOp::Times);
            m.arith(op, x, y, z)
        }
        14 => m.abs(x, z),
        15 => {
            let xs = d.vars(all, 0, 3);
            if d.flag() {
                m.max_of(&xs, z)
            } else {
                m.min_of(&xs, z)
            }
        }
        16 => {
            let array: Vec<i64> = (0..d.below(4)).map(|_| d.range(-3, 3)).collect();
            m.element(x, d.range(-2, 1), &array, y)
        }
        17 => {
            let array = d.vars(all, 0, 3);
            m.element_var(x, d.range(-2, 1), &array, z)
        }
        18 => m.count(&d.vars(all, 0, 3), d.range(-2, 2), y),
        19 => m.count_var(&d.vars(all, 0, 3), y, z),
        20 => {
            let xs = d.vars(all, 1, 3);
            let n = d.below(3);
            let values: Vec<i64> = (0..n).map(|_| d.range(-1, 2)).collect();
            let extra = usize::from(d.below(8) == 0);
            let counts = d.vars(all, n, n + extra);
            m.global_cardinality(&xs, &values, &counts)
        }
        21 => {
            let n = d.below(3);
            let f = d.vars(all, n, n);
            let extra = usize::from(d.below(8) == 0);
            let g = d.vars(all, n, n + extra);
            m.inverse(&f, &g, d.range(-1, 1))
        }
        22 => {
            let n = d.below(3);
            let a = d.vars(all, n, n);
            let extra = usize::from(d.below(8) == 0);
            let b = d.vars(all, n, n + extra);
            m.lex(&a, &b, d.flag())
        }
        23 => {
            let states = 1 + d.below(3);
            let transitions: Vec<(usize, i64, usize)> = (0..d.below(7))
                .map(|_| (d.below(states + 1), d.range(-1, 2), d.below(states + 1)))
                .collect();
            let accepting: Vec<usize> = (0..d.below(3)).map(|_| d.below(states + 1)).collect();
            let xs = d.vars(all, 0, 3);
            m.regular(&xs, states, d.below(states + 1), &transitions, &accepting)
        }
        24 => m.circuit(&d.vars(all, 0, 4), d.range(-1, 1)),
        25 => m.subcircuit(&d.vars(all, 0, 4), d.range(-1, 1)),
        26 => {
            // The three levels; the domain level (matching) posts the bounds level on an interval member.
            let xs = d.vars(all, 1, 5);
            let offsets: Vec<i64> = xs.iter().map(|_| d.range(-2, 2)).collect();
            let level = d
                .pick(&[
                    AllDifferentLevel::Domain,
                    AllDifferentLevel::Bounds,
                    AllDifferentLevel::Value,
                ])
                .unwrap_or(AllDifferentLevel::Domain);
            m.all_different_with(&xs, &offsets, level)
        }
        _ => {
            // Tasks' starts, durations and uses from any variables (negative ones included); sometimes one duration
            // too many, which the model must refuse.
            let n = d.below(4);
            let starts = d.vars(all, n, n);
            let extra = usize::from(d.below(8) == 0);
            let durations = d.vars(all, n, n + extra);
            let uses = d.vars(all, n, n);
            m.cumulative(&starts, &durations, &uses, z)
        }
    };
}

/// Reads one search configuration, with phases over the variables of `p`.
fn decode_config(d: &mut Draw<'_>, p: &Problem) -> SearchConfig {
    let var_order = d.pick(&VarOrder::ALL).unwrap_or_default();
    let value_order = d.pick(&ValueOrder::ALL).unwrap_or_default();
    let propagation = d
        .pick(&[
            Propagation::None,
            Propagation::ForwardChecking,
            Propagation::Singles,
        ])
        .unwrap_or_default();
    let restarts = match d.below(4) {
        0 | 1 => Restarts::None,
        2 => Restarts::Luby {
            scale: 1 + d.below(4) as u64,
        },
        _ => Restarts::Geometric {
            base: 1 + d.below(4) as u64,
            factor: d.pick(&[1.5, 2.0]).unwrap_or(2.0),
        },
    };
    let mut cfg = SearchConfig::default()
        .var_order(var_order)
        .value_order(value_order)
        .propagation(propagation)
        .random_ties(d.flag())
        .seed(u64::from(d.byte()))
        .intersections(d.flag())
        .generic_engine(d.flag())
        .restarts(restarts);
    for _ in 0..d.below(3) {
        let vars: Vec<VarId> = (0..1 + d.below(3))
            .filter_map(|_| p.var(d.below(p.num_vars())))
            .collect();
        let var_order = d.pick(&VarOrder::ALL).unwrap_or_default();
        let value_order = d.pick(&ValueOrder::ALL).unwrap_or_default();
        cfg = cfg.phase(&vars, var_order, value_order);
    }
    cfg
}

/// The fuzz bytes as a stream of small choices; every choice reads one byte, and 0 once the bytes run out, so any
/// input decodes and a longer input only adds detail.
struct Draw<'a> {
    bytes: std::slice::Iter<'a, u8>,
}

impl Draw<'_> {
    fn byte(&mut self) -> u8 {
        self.bytes.next().copied().unwrap_or(0)
    }

    /// A choice in `0..n` (0 for `n == 0`).
    fn below(&mut self, n: usize) -> usize {
        let b = usize::from(self.byte());
        if n == 0 {
            0
        } else {
            b % n
        }
    }

    fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// A value in `lo..=hi` (`lo <= hi`, a span of at most 256).
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> Option<T> {
        let i = self.below(xs.len());
        xs.get(i).copied()
    }

    /// Between `lo` and `hi` variables drawn from `from` (repeats allowed: a repeated variable is a case too).
    fn vars(&mut self, from: &[VarId], lo: usize, hi: usize) -> Vec<VarId> {
        let n = lo + self.below(hi - lo + 1);
        (0..n).filter_map(|_| self.pick(from)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_target_accepts_empty_short_and_constant_inputs() {
        for data in [&b""[..], b"\x00", b"\xff", &[7u8; 64], &[0xA5u8; 300]] {
            fuzz_engine(data);
        }
    }

    #[test]
    fn every_constraint_kind_is_reachable_from_the_bytes() {
        // One integer of range -3..=0 (bytes 0, 2, 0, 3; shape 1 instead of 2 makes it an interval variable), no
        // Boolean (0), no wide variable (0), one constraint (0) of kind k: all 28 kinds decode and check without a
        // panic, on either representation.
        for shape in [1, 2] {
            for kind in 0..28u8 {
                fuzz_engine(&[0, shape, 0, 3, 0, 0, 0, kind, 1, 2, 3, 4, 5, 6, 7, 8]);
            }
        }
    }
}
