//! Per-propagator soundness against enumeration (Gecode's `test/int.cpp` method), one constraint posted alone:
//! - on random small domains, root propagation and then random removals with propagation never remove a value
//!   that belongs to some solution of the constraint within the domains before the fixpoint;
//! - with every variable assigned, propagation succeeds exactly when the checker accepts the tuple.

#![allow(clippy::unwrap_used)]

use crate::constraints::{
    AllDifferentLevel, ArithOp, Propagate, Propagation, Reification, Relation,
};
use crate::domain::{Domain, WideDomain};
use crate::ids::VarId;
use crate::model::{Model, Problem};
use crate::propagate::Propagator;
use crate::rng::Rng;
use crate::state::State;
use crate::stats::Stats;

/// Posts one constraint on `xs` (its scope), drawing constants from `rng`.
type Poster = fn(&mut Model, &[VarId], &mut Rng);

/// A constraint kind under test: its name, arity, whether its variables are Boolean, and how to post it.
struct Case {
    name: &'static str,
    arity: usize,
    booleans: usize,
    post: Poster,
}

fn coef(rng: &mut Rng) -> i64 {
    [-2, -1, 1, 2, 3][rng.below(5) as usize]
}

fn rel(rng: &mut Rng) -> Relation {
    [Relation::Eq, Relation::Le, Relation::Ge, Relation::Ne][rng.below(4) as usize]
}

fn mode(rng: &mut Rng) -> Reification {
    if rng.below(2) == 0 {
        Reification::Equivalent
    } else {
        Reification::Implies
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "all_different",
            arity: 3,
            booleans: 0,
            post: |m, x, _| {
                m.all_different(x).unwrap();
            },
        },
        Case {
            name: "all_different_bounds",
            arity: 4,
            booleans: 0,
            post: |m, x, _| {
                m.all_different_with(x, &[0, 1, -1, 0], AllDifferentLevel::Bounds)
                    .unwrap();
            },
        },
        Case {
            name: "all_different_domain",
            arity: 4,
            booleans: 0,
            post: |m, x, _| {
                m.all_different_with(x, &[0, 1, -1, 0], AllDifferentLevel::Domain)
                    .unwrap();
            },
        },
        Case {
            // A variable twice in the scope (offsets 0 and 2): the member graph over-approximates, and the rule
            // must stay sound and exact on ground tuples.
            name: "all_different_domain, repeated variable",
            arity: 3,
            booleans: 0,
            post: |m, x, _| {
                m.all_different_with(
                    &[x[0], x[1], x[2], x[0]],
                    &[0, 0, 1, 2],
                    AllDifferentLevel::Domain,
                )
                .unwrap();
            },
        },
        Case {
            // Three tasks: starts x0..x2, durations and uses drawn from x3..x5 (shared, so a variable may be both a
            // duration and a use) as is the capacity; values -3..=3, so negative durations, uses and capacities
            // (which the constraint forbids) are drawn too.
            name: "cumulative",
            arity: 6,
            booleans: 0,
            post: |m, x, r| {
                let mut pick = || x[3 + r.below(3) as usize];
                let d = [pick(), pick(), pick()];
                let u = [pick(), pick(), pick()];
                let b = pick();
                m.cumulative(&x[..3], &d, &u, b).unwrap();
            },
        },
        Case {
            name: "count",
            arity: 4,
            booleans: 0,
            post: |m, x, rng| {
                let value = rng.below(5) as i64 - 2;
                m.count(&x[..3], value, x[3]).unwrap();
            },
        },
        Case {
            name: "count_var",
            arity: 5,
            booleans: 0,
            post: |m, x, rng| {
                // Sometimes a member repeats y or n (a repeated variable is a case too).
                let xs = match rng.below(4) {
                    0 => vec![x[0], x[1], x[3]],
                    1 => vec![x[0], x[4], x[2]],
                    _ => x[..3].to_vec(),
                };
                m.count_var(&xs, x[3], x[4]).unwrap();
            },
        },
        Case {
            name: "inverse",
            arity: 6,
            booleans: 0,
            post: |m, x, rng| {
                let first = rng.below(3) as i64 - 1;
                m.inverse(&x[..3], &x[3..], first).unwrap();
            },
        },
        Case {
            name: "all_different_offset",
            arity: 3,
            booleans: 0,
            post: |m, x, _| {
                m.all_different_offset(x, &[0, 1, -1]).unwrap();
            },
        },
        Case {
            name: "not_equal",
            arity: 2,
            booleans: 0,
            post: |m, x, r| {
                m.not_equal(x[0], x[1], r.below(3) as i64 - 1).unwrap();
            },
        },
        Case {
            name: "equal",
            arity: 2,
            booleans: 0,
            post: |m, x, r| {
                m.equal(x[0], x[1], r.below(3) as i64 - 1).unwrap();
            },
        },
        Case {
            name: "linear",
            arity: 3,
            booleans: 0,
            post: |m, x, r| {
                let t = [(coef(r), x[0]), (coef(r), x[1]), (coef(r), x[2])];
                let rel = rel(r);
                m.linear(&t, rel, r.below(7) as i64 - 3).unwrap();
            },
        },
        Case {
            name: "table",
            arity: 2,
            booleans: 0,
            post: |m, x, r| {
                let t: Vec<Vec<i64>> = (0..6)
                    .map(|_| vec![r.below(7) as i64 - 3, r.below(7) as i64 - 3])
                    .collect();
                m.table(x, &t).unwrap();
            },
        },
        Case {
            name: "clause",
            arity: 4,
            booleans: 4,
            post: |m, x, r| {
                let k = r.below(5) as usize;
                m.clause(&x[..k], &x[k..]).unwrap();
            },
        },
        Case {
            name: "bool_and",
            arity: 3,
            booleans: 3,
            post: |m, x, _| {
                m.bool_and(&x[..2], x[2]).unwrap();
            },
        },
        Case {
            name: "bool_or",
            arity: 3,
            booleans: 3,
            post: |m, x, _| {
                m.bool_or(&x[..2], x[2]).unwrap();
            },
        },
        Case {
            name: "bool_xor",
            arity: 3,
            booleans: 3,
            post: |m, x, r| {
                m.bool_xor(x, r.below(2) == 0).unwrap();
            },
        },
        Case {
            name: "bool_not",
            arity: 2,
            booleans: 2,
            post: |m, x, _| {
                m.bool_not(x[0], x[1]).unwrap();
            },
        },
        Case {
            name: "reified linear, two terms",
            arity: 3,
            booleans: 1,
            post: |m, x, r| {
                let (rel, mode) = (rel(r), mode(r));
                m.reify_linear(
                    &[(1, x[1]), (-1, x[2])],
                    rel,
                    r.below(3) as i64 - 1,
                    x[0],
                    mode,
                )
                .unwrap();
            },
        },
        Case {
            name: "reified difference, both spellings (x - y and -x + y)",
            arity: 3,
            booleans: 1,
            post: |m, x, r| {
                let rel = if r.below(2) == 0 {
                    Relation::Le
                } else {
                    Relation::Ge
                };
                let t = if r.below(2) == 0 {
                    [(1, x[1]), (-1, x[2])]
                } else {
                    [(-1, x[1]), (1, x[2])]
                };
                m.reify_linear(&t, rel, r.below(5) as i64 - 2, x[0], mode(r))
                    .unwrap();
            },
        },
        Case {
            name: "reified x = c / x <= c",
            arity: 2,
            booleans: 1,
            post: |m, x, r| {
                let (rel, mode) = (rel(r), mode(r));
                m.reify_linear(&[(coef(r), x[1])], rel, r.below(7) as i64 - 3, x[0], mode)
                    .unwrap();
            },
        },
        Case {
            name: "reified linear, three terms",
            arity: 4,
            booleans: 1,
            post: |m, x, r| {
                let t = [(coef(r), x[1]), (coef(r), x[2]), (coef(r), x[3])];
                let (rel, mode) = (rel(r), mode(r));
                m.reify_linear(&t, rel, r.below(7) as i64 - 3, x[0], mode)
                    .unwrap();
            },
        },
        Case {
            name: "times",
            arity: 3,
            booleans: 0,
            post: |m, x, _| {
                m.arith(ArithOp::Times, x[0], x[1], x[2]).unwrap();
            },
        },
        Case {
            name: "div",
            arity: 3,
            booleans: 0,
            post: |m, x, _| {
                let _ = m.arith(ArithOp::Div, x[0], x[1], x[2]);
            },
        },
        Case {
            name: "mod",
            arity: 3,
            booleans: 0,
            post: |m, x, _| {
                let _ = m.arith(ArithOp::Mod, x[0], x[1], x[2]);
            },
        },
        Case {
            name: "pow",
            arity: 3,
            booleans: 0,
            post: |m, x, _| {
                m.arith(ArithOp::Pow, x[0], x[1], x[2]).unwrap();
            },
        },
        Case {
            name: "abs",
            arity: 2,
            booleans: 0,
            post: |m, x, _| {
                m.abs(x[0], x[1]).unwrap();
            },
        },
        Case {
            name: "max_of",
            arity: 3,
            booleans: 0,
            post: |m, x, _| {
                m.max_of(&x[1..], x[0]).unwrap();
            },
        },
        Case {
            name: "min_of",
            arity: 3,
            booleans: 0,
            post: |m, x, _| {
                m.min_of(&x[1..], x[0]).unwrap();
            },
        },
        Case {
            name: "element",
            arity: 2,
            booleans: 0,
            post: |m, x, r| {
                let a: Vec<i64> = (0..4).map(|_| r.below(7) as i64 - 3).collect();
                m.element(x[0], -1, &a, x[1]).unwrap();
            },
        },
        Case {
            name: "element_var",
            arity: 5,
            booleans: 0,
            post: |m, x, _| {
                m.element_var(x[0], -1, &x[2..], x[1]).unwrap();
            },
        },
        Case {
            name: "lex_lesseq / lex_less",
            arity: 4,
            booleans: 0,
            post: |m, x, r| {
                m.lex(&x[..2], &x[2..], r.below(2) == 0).unwrap();
            },
        },
        Case {
            name: "regular",
            arity: 3,
            booleans: 0,
            post: |m, x, r| {
                let mut t = Vec::new();
                for q in 0..3 {
                    for a in -1..=1 {
                        if r.below(4) != 0 {
                            t.push((q, a, r.below(3) as usize));
                        }
                    }
                }
                let acc: Vec<usize> = (0..3).filter(|_| r.below(2) == 0).collect();
                m.regular(x, 3, 0, &t, &acc).unwrap();
            },
        },
        Case {
            name: "circuit",
            arity: 4,
            booleans: 0,
            post: |m, x, _| {
                m.circuit(x, -1).unwrap();
            },
        },
        Case {
            // Five nodes: a fixed self-loop beside two fixed 2-cycles must be refused (a propagator once accepted
            // it, having stopped looking after the self-loop).
            name: "subcircuit",
            arity: 5,
            booleans: 0,
            post: |m, x, _| {
                m.subcircuit(x, -1).unwrap();
            },
        },
    ]
}

/// `linear` cases whose propagation is consistent, not only sound (the `linear` case above mixes in `=`, whose
/// bounds rule is not): checked by the consistency tests below only, so the other tests' random streams stay as
/// they were.
fn linear_cases() -> Vec<Case> {
    vec![
        Case {
            // `<=` or `>=` alone: the bounds rule leaves every value with a support (all other terms at their
            // smallest contribution), so this case is checked for consistency, not only soundness.
            name: "linear inequality",
            arity: 3,
            booleans: 0,
            post: |m, x, r| {
                let t = [(coef(r), x[0]), (coef(r), x[1]), (coef(r), x[2])];
                let rel = [Relation::Le, Relation::Ge][r.below(2) as usize];
                m.linear(&t, rel, r.below(9) as i64 - 4).unwrap();
            },
        },
        Case {
            // `!=`: once one term is open, the value completing the sum leaves it; before that, every value has
            // a support (another open term can avoid its one completing value).
            name: "linear !=",
            arity: 3,
            booleans: 0,
            post: |m, x, r| {
                let t = [(coef(r), x[0]), (coef(r), x[1]), (coef(r), x[2])];
                m.linear(&t, Relation::Ne, r.below(9) as i64 - 4).unwrap();
            },
        },
        Case {
            // The reified inequality: enforced (or its negation, `<=` turned into `>= rhs + 1`) once b is fixed,
            // b fixed once the bounds of the sum entail or refute the relation.
            name: "reified linear inequality",
            arity: 4,
            booleans: 1,
            post: |m, x, r| {
                let t = [(coef(r), x[1]), (coef(r), x[2]), (coef(r), x[3])];
                let rel = [Relation::Le, Relation::Ge][r.below(2) as usize];
                m.reify_linear(&t, rel, r.below(9) as i64 - 4, x[0], mode(r))
                    .unwrap();
            },
        },
    ]
}

/// The cases whose constraint accepts interval variables (run again with intervals by the tests below).
const ON_INTERVALS: [&str; 22] = [
    "cumulative",
    "element",
    "element_var",
    "all_different",
    "all_different_domain",
    "count",
    "all_different_bounds",
    "all_different_offset",
    "not_equal",
    "equal",
    "linear",
    "reified linear, two terms",
    "reified x = c / x <= c",
    "reified linear, three terms",
    "times",
    "div",
    "mod",
    "pow",
    "abs",
    "max_of",
    "min_of",
    "lex_lesseq / lex_less",
];

/// A random model: `arity` variables with random non-empty value sets (Booleans within {0, 1}, others within
/// -3..=3; with `intervals`, every non-Boolean variable is an interval of a random range within -3..=3), and the
/// case's constraint. [`random_mixed_problem_on`] makes each non-Boolean variable an interval or not at random. `None` when the post was rejected (a constant zero divisor).
fn random_problem_on(
    case: &Case,
    rng: &mut Rng,
    intervals: bool,
) -> Option<(Problem, Vec<Vec<i64>>)> {
    random_problem_with(case, rng, |_| intervals)
}

/// [`random_problem_on`] with each non-Boolean variable an interval with probability 1/2 (so a constraint meets an
/// interval beside a bitset variable, where its two sides are propagated differently).
fn random_mixed_problem_on(case: &Case, rng: &mut Rng) -> Option<(Problem, Vec<Vec<i64>>)> {
    random_problem_with(case, rng, |rng| rng.below(2) == 0)
}

fn random_problem_with(
    case: &Case,
    rng: &mut Rng,
    interval: impl Fn(&mut Rng) -> bool,
) -> Option<(Problem, Vec<Vec<i64>>)> {
    let mut m = Model::new();
    let mut doms = Vec::new();
    let mut xs = Vec::new();
    for i in 0..case.arity {
        let pool: Vec<i64> = if i < case.booleans {
            vec![0, 1]
        } else {
            (-3..=3).collect()
        };
        if i >= case.booleans && interval(rng) {
            let lo = -3 + rng.below(7) as i64;
            let hi = lo + rng.below((4 - lo) as u64) as i64;
            xs.push(m.new_interval_var(lo, hi).unwrap());
            doms.push((lo..=hi).collect());
            continue;
        }
        let mut d: Vec<i64> = pool.iter().copied().filter(|_| rng.below(3) != 0).collect();
        if d.is_empty() {
            d.push(pool[rng.below(pool.len() as u64) as usize]);
        }
        xs.push(m.new_var_with_values(&d).unwrap());
        doms.push(d);
    }
    let before = m.num_constraints();
    (case.post)(&mut m, &xs, rng);
    if m.num_constraints() == before {
        return None;
    }
    Some((m.build().unwrap(), doms))
}

/// Every full assignment of `doms`, in odometer order.
fn assignments(doms: &[Vec<i64>]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for d in doms {
        out = out
            .into_iter()
            .flat_map(|t| {
                d.iter().map(move |&x| {
                    let mut t = t.clone();
                    t.push(x);
                    t
                })
            })
            .collect();
    }
    out
}

/// A search state for `p` as the search sets one up (scratch domains, reserved scratch indexes, the trailed
/// store of every placed constraint), for the propagator tests of this module and its siblings.
pub(super) fn state_of(p: &Problem) -> State<u64> {
    let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
    let mut st: State<u64> = State::with_intervals(&widths, &p.interval_flags());
    st.scratch = vec![u64::full(p.max_width); p.max_table_arity];
    st.order.reserve(p.max_work);
    st.cstate = p.trailed::<u64>();
    st
}

/// Every variable's positions left, in increasing order (an interval variable's from its bounds).
pub(crate) fn positions<D: Domain>(st: &State<D>) -> Vec<Vec<usize>> {
    (0..st.num_vars() as u32)
        .map(|v| {
            if st.is_interval(v) {
                (st.min_pos(v)..=st.max_pos(v)).collect()
            } else {
                st.dom(v).iter().collect()
            }
        })
        .collect()
}

/// The values each variable still has (an interval variable's whole range).
pub(crate) fn current<D: Domain>(p: &Problem, st: &State<D>) -> Vec<Vec<i64>> {
    positions(st)
        .into_iter()
        .zip(&p.values)
        .map(|(pos, vals)| pos.into_iter().map(|i| vals.value(i)).collect())
        .collect()
}

/// A Latin square of order `n` in `m`: `n * n` new variables over `0..n`, row-major, and one `all_different` per
/// row and per column (the permutation groups the group kernel's tests start from).
pub(crate) fn latin_square(m: &mut Model, n: usize) -> Vec<VarId> {
    let x: Vec<VarId> = (0..n * n)
        .map(|_| m.new_var(0, n as i64 - 1).unwrap())
        .collect();
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| x[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| x[j * n + i]).collect();
        m.all_different(&row).unwrap();
        m.all_different(&col).unwrap();
    }
    x
}

/// Fails the test when a value of a solution within `before` is missing from `after` (or propagation failed
/// although such a solution exists).
fn assert_sound(name: &str, p: &Problem, before: &[Vec<i64>], after: Option<&[Vec<i64>]>) {
    for t in assignments(before) {
        if !p.is_solution(&t) {
            continue;
        }
        let Some(after) = after else {
            panic!("{name}: propagation failed although {t:?} is a solution within {before:?}");
        };
        for (v, x) in t.iter().enumerate() {
            assert!(
                after[v].contains(x),
                "{name}: removed value {x} of x{v}, which belongs to solution {t:?} (domains {before:?} -> {after:?})"
            );
        }
    }
}

#[test]
fn no_propagator_removes_a_value_of_a_solution_on_random_domains() {
    no_removal_of_solution_values(false);
}

#[test]
fn no_propagator_removes_a_value_of_a_solution_on_random_intervals() {
    no_removal_of_solution_values(true);
}

fn no_removal_of_solution_values(intervals: bool) {
    let mut rng = Rng::new(12);
    for case in cases() {
        if intervals && !ON_INTERVALS.contains(&case.name) {
            continue;
        }
        for level in [Propagation::ForwardChecking, Propagation::Singles] {
            for _ in 0..300 {
                let Some((p, doms)) = random_problem_on(&case, &mut rng, intervals) else {
                    continue;
                };
                let mut st = state_of(&p);
                let mut prop = Propagator::new(&p.constraints, p.num_vars(), level, false);
                let mut stats = Stats::default();
                let root = prop.root(&p.constraints, &p.values, &mut st, &mut stats);
                let after = root.is_ok().then(|| current(&p, &st));
                assert_sound(case.name, &p, &doms, after.as_deref());
                if root.is_err() {
                    continue;
                }
                // Random removals, each followed by incremental propagation.
                for _ in 0..6 {
                    let open: Vec<u32> = (0..p.num_vars() as u32)
                        .filter(|&v| !st.is_fixed(v))
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    let v = open[rng.below(open.len() as u64) as usize];
                    let pos = if st.is_interval(v) {
                        // Intervals lose only bounds.
                        [st.min_pos(v), st.max_pos(v)][rng.below(2) as usize]
                    } else {
                        st.dom(v).nth(rng.below(st.size(v) as u64) as u32).unwrap()
                    };
                    st.push_level();
                    st.remove(v, pos).unwrap();
                    let before = current(&p, &st);
                    let ok = prop
                        .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                        .is_ok();
                    let after = ok.then(|| current(&p, &st));
                    assert_sound(case.name, &p, &before, after.as_deref());
                    if !ok {
                        break;
                    }
                }
            }
        }
    }
}

#[test]
fn every_propagator_accepts_exactly_the_assigned_tuples_its_checker_accepts() {
    exact_on_assigned_tuples(false);
}

#[test]
fn every_propagator_on_intervals_accepts_exactly_the_assigned_tuples_its_checker_accepts() {
    exact_on_assigned_tuples(true);
}

fn exact_on_assigned_tuples(intervals: bool) {
    let mut rng = Rng::new(34);
    for case in cases() {
        if intervals && !ON_INTERVALS.contains(&case.name) {
            continue;
        }
        for _ in 0..60 {
            let Some((p, doms)) = random_problem_on(&case, &mut rng, intervals) else {
                continue;
            };
            for t in assignments(&doms) {
                let mut st = state_of(&p);
                for (v, &x) in t.iter().enumerate() {
                    let pos = p.values[v].index_of(x).unwrap();
                    st.assign(v as u32, pos).unwrap();
                }
                let mut prop = Propagator::new(
                    &p.constraints,
                    p.num_vars(),
                    Propagation::ForwardChecking,
                    false,
                );
                let ok = prop
                    .root(&p.constraints, &p.values, &mut st, &mut Stats::default())
                    .is_ok();
                assert_eq!(
                    ok,
                    p.is_solution(&t),
                    "{}: propagation and checker disagree on {t:?}",
                    case.name
                );
            }
        }
    }
}

/// The cases whose propagator promises domain consistency on bitset domains, each posted as one constraint:
/// `equal` ("each value of one side needs a partner in the other"), `not_equal` (once one side is fixed, its value
/// leaves the other side, which is all a binary `!=` can infer), `table` (compact table keeps exactly the
/// supported values), `clause` (unit propagation), `xor` (the last open variable gets the parity),
/// `element_var` (an index stays while its entry meets `z`, a value of `z` while a kept entry holds it, and the
/// entry of a fixed index takes `z`'s domain) and `count` (the counted members can number anything from `sure`
/// to `maybe`, so `n` keeps `[sure, maybe]`, and an open member loses the value exactly when `n` can only be
/// `sure` and must take it exactly when `n` can only be `maybe`: the incremental counters must be exact, not
/// only sound).
const DOMAIN_CONSISTENT: [&str; 7] = [
    "count",
    "equal",
    "not_equal",
    "table",
    "clause",
    "bool_xor",
    "element_var",
];

/// The cases whose propagator promises bounds consistency on interval variables (and domain consistency on the
/// bitset ones beside them): `equal` ("an interval side gets the bounds of the other side"), `not_equal` (a fixed
/// side's value leaves an interval when it is one of its bounds), `element_var` (`z`'s bounds are the extreme
/// values the kept entries hold within them; an interval index shrinks to its first and last kept index).
const BOUNDS_CONSISTENT: [&str; 3] = ["equal", "not_equal", "element_var"];

/// Fails the test when a value left in `after` has no solution within `after` that takes it (a pruning the
/// propagator promises but missed), or when propagation succeeded with no solution left. Of an interval variable
/// (`interval[v]`), only the two bounds must have a support.
fn assert_supported(name: &str, p: &Problem, after: &[Vec<i64>], interval: &[bool]) {
    let solutions: Vec<Vec<i64>> = assignments(after)
        .into_iter()
        .filter(|t| p.is_solution(t))
        .collect();
    for (v, dom) in after.iter().enumerate() {
        let checked: Vec<i64> = match (interval[v], dom.first(), dom.last()) {
            (true, Some(&lo), Some(&hi)) => vec![lo, hi],
            _ => dom.clone(),
        };
        for x in &checked {
            assert!(
                solutions.iter().any(|t| t[v] == *x),
                "{name}: value {x} of x{v} is left without a support (domains {after:?})"
            );
        }
    }
}

#[test]
fn domain_consistent_propagators_leave_no_value_without_a_support() {
    consistent_after_every_fixpoint(only(cases(), &DOMAIN_CONSISTENT), Shapes::Bitsets);
}

#[test]
fn bounds_consistent_propagators_leave_no_interval_bound_without_a_support() {
    consistent_after_every_fixpoint(only(cases(), &BOUNDS_CONSISTENT), Shapes::Mixed);
}

/// Kills pruning that goes missing from `linear` and the reified inequality: a bound not tightened (a wrong cap,
/// a view skipped, a term's contribution misread), the completing value of a `!=` left in its last open term, b
/// left open although the sum's bounds decide the relation. Users would see more nodes, never a wrong answer;
/// the soundness tests catch the other direction.
#[test]
fn linear_inequalities_and_disequalities_leave_no_value_without_a_support() {
    consistent_after_every_fixpoint(linear_cases(), Shapes::Bitsets);
}

/// The same with interval variables beside bitset ones (the bounds of an interval must have a support).
#[test]
fn linear_inequalities_and_disequalities_leave_no_interval_bound_without_a_support() {
    consistent_after_every_fixpoint(linear_cases(), Shapes::Mixed);
}

/// The cases of `all` named in `names`, in order.
fn only(all: Vec<Case>, names: &[&str]) -> Vec<Case> {
    all.into_iter()
        .filter(|c| names.contains(&c.name))
        .collect()
}

/// The shapes of the non-Boolean variables of [`consistent_after_every_fixpoint`]'s random problems.
#[derive(Clone, Copy)]
enum Shapes {
    /// Random value sets (bitset domains, holes included).
    Bitsets,
    /// Each variable an interval or a bitset at random ([`random_mixed_problem_on`]).
    Mixed,
    /// Every variable an interval.
    Intervals,
}

/// Root propagation and then random removals with propagation leave every value (every bound of an interval)
/// of the `cases` with a support, on random domains of the given `shapes`.
fn consistent_after_every_fixpoint(cases: Vec<Case>, shapes: Shapes) {
    let mut rng = Rng::new(56);
    for case in cases {
        for level in [Propagation::ForwardChecking, Propagation::Singles] {
            for _ in 0..300 {
                let made = match shapes {
                    Shapes::Bitsets => random_problem_on(&case, &mut rng, false),
                    Shapes::Mixed => random_mixed_problem_on(&case, &mut rng),
                    Shapes::Intervals => random_problem_on(&case, &mut rng, true),
                };
                let Some((p, _)) = made else {
                    continue;
                };
                let interval = p.interval_flags();
                assert_eq!(
                    p.constraints.len(),
                    1,
                    "{}: posted as one constraint",
                    case.name
                );
                let mut st = state_of(&p);
                let mut prop = Propagator::new(&p.constraints, p.num_vars(), level, false);
                let mut stats = Stats::default();
                if prop
                    .root(&p.constraints, &p.values, &mut st, &mut stats)
                    .is_err()
                {
                    continue;
                }
                assert_supported(case.name, &p, &current(&p, &st), &interval);
                // Random removals, each followed by incremental propagation.
                for _ in 0..6 {
                    let open: Vec<u32> = (0..p.num_vars() as u32)
                        .filter(|&v| !st.is_fixed(v))
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    let v = open[rng.below(open.len() as u64) as usize];
                    let pos = if st.is_interval(v) {
                        [st.min_pos(v), st.max_pos(v)][rng.below(2) as usize]
                    } else {
                        st.dom(v).nth(rng.below(st.size(v) as u64) as u32).unwrap()
                    };
                    st.push_level();
                    st.remove(v, pos).unwrap();
                    if prop
                        .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                        .is_err()
                    {
                        break;
                    }
                    assert_supported(case.name, &p, &current(&p, &st), &interval);
                }
            }
        }
    }
}

#[test]
fn equal_keeps_exactly_the_partnered_values_past_the_first_word_of_a_wide_domain() {
    // x, y in 0..200 (four words of a bitvec domain), x == y + 130: x keeps 130..=199, y keeps 0..=69. Positions
    // in later words map to values through their word index, which a one-word domain never exercises.
    let mut m = Model::new();
    let x = m.new_var(0, 199).unwrap();
    let y = m.new_var(0, 199).unwrap();
    m.equal(x, y, 130).unwrap();
    let p = m.build().unwrap();
    let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
    let mut st: State<WideDomain> = State::with_intervals(&widths, &p.interval_flags());
    let mut prop = Propagator::new(
        &p.constraints,
        p.num_vars(),
        Propagation::ForwardChecking,
        false,
    );
    prop.root(&p.constraints, &p.values, &mut st, &mut Stats::default())
        .unwrap();
    let left = |v: u32| -> Vec<i64> {
        st.dom(v)
            .iter()
            .map(|i| p.values[v as usize].value(i))
            .collect()
    };
    assert_eq!(left(0), (130..=199).collect::<Vec<i64>>());
    assert_eq!(left(1), (0..=69).collect::<Vec<i64>>());
}

#[test]
fn not_equal_counts_the_partner_a_value_would_remove_so_lcv_can_avoid_it() {
    // x in {0, 1, 2}, y in {0, 1, 2}, x != y + 1: x = a removes y = a - 1, y = b removes x = b + 1. The count is
    // the value-order hint of the least-constraining-value heuristic (it decides which solution comes first).
    let mut m = Model::new();
    let x = m.new_var(0, 2).unwrap();
    let y = m.new_var(0, 2).unwrap();
    m.not_equal(x, y, 1).unwrap();
    let p = m.build().unwrap();
    let ne = crate::constraints::NotEqual { vars: [0, 1], c: 1 };
    let mut st = state_of(&p);
    let removals = |st: &State<u64>, pos: usize| -> Vec<u32> {
        (0..3)
            .map(|q| Propagate::<u64>::removals_if_fixed(&ne, pos, q, st, &p.values))
            .collect()
    };
    assert_eq!(
        removals(&st, 0),
        [0, 1, 1],
        "x = 0 removes nothing, x = 1 or 2 removes y = x - 1"
    );
    assert_eq!(
        removals(&st, 1),
        [1, 1, 0],
        "y = 0 or 1 removes x = y + 1, y = 2 removes nothing"
    );
    st.remove(1, 0).unwrap();
    assert_eq!(
        removals(&st, 0),
        [0, 0, 1],
        "y = 0 is already gone, so x = 1 removes nothing"
    );
    st.assign(1, 2).unwrap();
    assert_eq!(
        removals(&st, 0),
        [0, 0, 0],
        "a fixed y loses no value to the hint"
    );
}

/// Reified comparisons whose propagation is exact: one term (any coefficient, any domain), where the bounds and the
/// one completing value decide the relation; and sums of terms with coefficient +-1 over intervals, whose sums
/// take every value between their bounds, so the bounds decide `=` and `!=` as well as `<=` and `>=`.
fn exact_reified_cases() -> Vec<Case> {
    vec![
        Case {
            name: "reified one-term comparison, any relation",
            arity: 2,
            booleans: 1,
            post: |m, x, r| {
                let (rel, mode) = (rel(r), mode(r));
                m.reify_linear(&[(coef(r), x[1])], rel, r.below(9) as i64 - 4, x[0], mode)
                    .unwrap();
            },
        },
        Case {
            name: "reified sum of unit terms, any relation",
            arity: 4,
            booleans: 1,
            post: |m, x, r| {
                let unit = |r: &mut Rng| [-1, 1][r.below(2) as usize];
                let k = 2 + r.below(2) as usize;
                let t: Vec<(i64, VarId)> = x[1..=k].iter().map(|&v| (unit(r), v)).collect();
                let (rel, mode) = (rel(r), mode(r));
                m.reify_linear(&t, rel, r.below(9) as i64 - 4, x[0], mode)
                    .unwrap();
            },
        },
    ]
}

/// Kills a reified comparison that leaves b open although every assignment left decides the relation the same
/// way (a lost entailment or disentailment rule, a wrong bound in one), or that enforces the relation (or its
/// negation) more weakly than it can once b is fixed. The soundness tests above catch b fixed the wrong way; this
/// catches pruning that goes missing, which costs users nodes and, under an optimisation, time.
#[test]
fn a_reified_comparison_of_one_term_leaves_no_value_without_a_support() {
    consistent_after_every_fixpoint(
        exact_reified_cases().into_iter().take(1).collect(),
        Shapes::Bitsets,
    );
}

/// The same on intervals, for one term and for sums of unit terms (every bound must have a support).
#[test]
fn a_reified_sum_of_unit_terms_over_intervals_leaves_no_bound_without_a_support() {
    consistent_after_every_fixpoint(exact_reified_cases(), Shapes::Intervals);
}

/// The tests above judge propagation by the constraint's own checker, so a mistake shared by both (the terms or `b`
/// read from the wrong end of the scope, a relation or a mode read the wrong way) passes them. This one counts
/// the solutions of each reified relation by the search against a sum computed here, independently.
#[test]
fn every_reified_relation_has_exactly_the_solutions_an_independent_sum_gives() {
    use crate::{SearchConfig, Solver};
    use std::ops::ControlFlow;
    let doms: [&[i64]; 3] = [&[-1, 0, 2], &[0, 1, 2], &[-2, 1]];
    let term_sets: [&[i64]; 4] = [&[1], &[-2], &[1, -1], &[2, 1, -1]];
    for coefs in term_sets {
        for rel in [Relation::Eq, Relation::Ne, Relation::Le, Relation::Ge] {
            for mode in [Reification::Equivalent, Reification::Implies] {
                for rhs in -2..=2 {
                    // b last, so that no index of b coincides with the first term's or with 0.
                    let mut m = Model::new();
                    let xs: Vec<VarId> = doms[..coefs.len()]
                        .iter()
                        .map(|d| m.new_var_with_values(d).unwrap())
                        .collect();
                    let b = m.new_var(0, 1).unwrap();
                    let terms: Vec<(i64, VarId)> = coefs.iter().copied().zip(xs).collect();
                    m.reify_linear(&terms, rel, rhs, b, mode).unwrap();
                    let p = m.build().unwrap();
                    let mut found = Vec::new();
                    let mut s = Solver::new(&p, SearchConfig::default());
                    s.for_each_solution(&[], |sol| {
                        found.push(sol.values().to_vec());
                        ControlFlow::Continue(())
                    });
                    found.sort();
                    let mut expected: Vec<Vec<i64>> = assignments(
                        &doms[..coefs.len()]
                            .iter()
                            .map(|d| d.to_vec())
                            .chain(std::iter::once(vec![0, 1]))
                            .collect::<Vec<_>>(),
                    )
                    .into_iter()
                    .filter(|t| {
                        let (x, b) = t.split_at(coefs.len());
                        let sum: i64 = coefs.iter().zip(x).map(|(a, x)| a * x).sum();
                        let holds = match rel {
                            Relation::Eq => sum == rhs,
                            Relation::Ne => sum != rhs,
                            Relation::Le => sum <= rhs,
                            Relation::Ge => sum >= rhs,
                        };
                        match mode {
                            Reification::Equivalent => (b[0] == 1) == holds,
                            Reification::Implies => b[0] == 0 || holds,
                        }
                    })
                    .collect();
                    expected.sort();
                    assert_eq!(
                        found, expected,
                        "b <-> / -> ({coefs:?} . x {rel:?} {rhs}), {mode:?}"
                    );
                }
            }
        }
    }
}
