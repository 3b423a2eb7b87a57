//! The one table from FlatZinc builtin name to posting function.
//!
//! "native" means one csp-core constraint posts it; "decomposed" means it is rewritten here onto other csp-core
//! constraints (see [`TABLE`]'s `kind` and the crate README's coverage table). When the engine grows a native
//! constraint, its row changes here and nowhere else.

use csp_core::constraints::{AllDifferentLevel, ArithOp, Reification};
use csp_core::{Relation, VarId};

use crate::ast::{Expr, IntSet};
use crate::translate::{Consistency, Ctx, Fail};

/// A posting function's result: the engine's refusals stay [`Fail::Model`] so the caller names their variables
/// with FlatZinc names.
type R<T> = Result<T, Fail>;

/// How a builtin reaches the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One csp-core constraint of the same meaning.
    Native,
    /// Rewritten onto other csp-core constraints.
    Decomposed,
}

/// One row of the table.
pub struct Builtin {
    /// FlatZinc name.
    pub name: &'static str,
    /// Accepted argument counts.
    pub arity: std::ops::RangeInclusive<usize>,
    /// Native or decomposed.
    pub kind: Kind,
    /// The posting function.
    pub post: fn(&mut Ctx, &[Expr]) -> R<()>,
}

use Kind::{Decomposed as D, Native as N};

macro_rules! row {
    ($name:literal, $n:expr, $kind:expr, $f:expr) => {
        Builtin {
            name: $name,
            arity: $n..=$n,
            kind: $kind,
            post: $f,
        }
    };
}

/// Every supported builtin.
pub static TABLE: &[Builtin] = &[
    // Integer comparisons and their (half) reifications.
    row!("int_eq", 2, N, |c, a| {
        let (x, y) = (c.var(&a[0])?, c.var(&a[1])?);
        c.model.equal(x, y, 0).map(drop).map_err(e)
    }),
    row!("int_ne", 2, N, |c, a| {
        let (x, y) = (c.var(&a[0])?, c.var(&a[1])?);
        c.model.not_equal(x, y, 0).map(drop).map_err(e)
    }),
    row!("int_le", 2, N, |c, a| cmp(c, a, Relation::Le, 0)),
    row!("int_lt", 2, N, |c, a| cmp(c, a, Relation::Le, -1)),
    row!("int_eq_reif", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Eq,
        0,
        Reification::Equivalent
    )),
    row!("int_ne_reif", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Ne,
        0,
        Reification::Equivalent
    )),
    row!("int_le_reif", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Le,
        0,
        Reification::Equivalent
    )),
    row!("int_lt_reif", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Le,
        -1,
        Reification::Equivalent
    )),
    row!("int_eq_imp", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Eq,
        0,
        Reification::Implies
    )),
    row!("int_ne_imp", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Ne,
        0,
        Reification::Implies
    )),
    row!("int_le_imp", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Le,
        0,
        Reification::Implies
    )),
    row!("int_lt_imp", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Le,
        -1,
        Reification::Implies
    )),
    // Linear.
    row!("int_lin_eq", 3, N, |c, a| lin(c, a, Relation::Eq)),
    row!("int_lin_le", 3, N, |c, a| lin(c, a, Relation::Le)),
    row!("int_lin_ne", 3, N, |c, a| lin(c, a, Relation::Ne)),
    row!("int_lin_eq_reif", 4, N, |c, a| lin_reif(
        c,
        a,
        Relation::Eq,
        Reification::Equivalent
    )),
    row!("int_lin_le_reif", 4, N, |c, a| lin_reif(
        c,
        a,
        Relation::Le,
        Reification::Equivalent
    )),
    row!("int_lin_ne_reif", 4, N, |c, a| lin_reif(
        c,
        a,
        Relation::Ne,
        Reification::Equivalent
    )),
    row!("int_lin_eq_imp", 4, N, |c, a| lin_reif(
        c,
        a,
        Relation::Eq,
        Reification::Implies
    )),
    row!("int_lin_le_imp", 4, N, |c, a| lin_reif(
        c,
        a,
        Relation::Le,
        Reification::Implies
    )),
    row!("int_lin_ne_imp", 4, N, |c, a| lin_reif(
        c,
        a,
        Relation::Ne,
        Reification::Implies
    )),
    // Arithmetic.
    row!("int_plus", 3, D, |c, a| {
        let (x, y, z) = (c.var(&a[0])?, c.var(&a[1])?, c.var(&a[2])?);
        c.model
            .linear(&[(1, x), (1, y), (-1, z)], Relation::Eq, 0)
            .map(drop)
            .map_err(e)
    }),
    row!("int_minus", 3, D, |c, a| {
        let (x, y, z) = (c.var(&a[0])?, c.var(&a[1])?, c.var(&a[2])?);
        c.model
            .linear(&[(1, x), (-1, y), (-1, z)], Relation::Eq, 0)
            .map(drop)
            .map_err(e)
    }),
    row!("int_times", 3, N, |c, a| arith(c, a, ArithOp::Times)),
    row!("int_div", 3, N, |c, a| arith(c, a, ArithOp::Div)),
    row!("int_mod", 3, N, |c, a| arith(c, a, ArithOp::Mod)),
    row!("int_pow", 3, N, |c, a| arith(c, a, ArithOp::Pow)),
    row!("int_pow_fixed", 3, N, |c, a| arith(c, a, ArithOp::Pow)),
    row!("int_abs", 2, N, |c, a| {
        let (x, z) = (c.var(&a[0])?, c.var(&a[1])?);
        c.model.abs(x, z).map(drop).map_err(e)
    }),
    row!("int_max", 3, N, |c, a| {
        let (x, y, z) = (c.var(&a[0])?, c.var(&a[1])?, c.var(&a[2])?);
        c.model.max_of(&[x, y], z).map(drop).map_err(e)
    }),
    row!("int_min", 3, N, |c, a| {
        let (x, y, z) = (c.var(&a[0])?, c.var(&a[1])?, c.var(&a[2])?);
        c.model.min_of(&[x, y], z).map(drop).map_err(e)
    }),
    row!("array_int_maximum", 2, N, |c, a| {
        let (z, xs) = (c.var(&a[0])?, c.vars(&a[1])?);
        c.model.max_of(&xs, z).map(drop).map_err(e)
    }),
    row!("array_int_minimum", 2, N, |c, a| {
        let (z, xs) = (c.var(&a[0])?, c.vars(&a[1])?);
        c.model.min_of(&xs, z).map(drop).map_err(e)
    }),
    // Element.
    row!("array_int_element", 3, D, element_const),
    row!("array_bool_element", 3, D, element_const),
    row!("array_var_int_element", 3, N, element_var),
    row!("array_var_bool_element", 3, N, element_var),
    // Sets of constants.
    row!("set_in", 2, D, |c, a| {
        let x = c.var(&a[0])?;
        let s = c.set(&a[1])?;
        restrict(c, x, &s)
    }),
    row!("set_in_reif", 3, D, |c, a| set_in_reif(
        c,
        a,
        Reification::Equivalent
    )),
    row!("set_in_imp", 3, D, |c, a| set_in_reif(
        c,
        a,
        Reification::Implies
    )),
    // Booleans.
    row!("bool2int", 2, N, |c, a| {
        let (x, y) = (c.var(&a[0])?, c.var(&a[1])?);
        c.model.equal(y, x, 0).map(drop).map_err(e)
    }),
    row!("bool_eq", 2, N, |c, a| {
        let (x, y) = (c.var(&a[0])?, c.var(&a[1])?);
        c.model.bool_equiv(x, y).map(drop).map_err(e)
    }),
    row!("bool_not", 2, N, |c, a| {
        let (x, y) = (c.var(&a[0])?, c.var(&a[1])?);
        c.model.bool_not(x, y).map(drop).map_err(e)
    }),
    row!("bool_le", 2, N, |c, a| cmp(c, a, Relation::Le, 0)),
    row!("bool_lt", 2, N, |c, a| cmp(c, a, Relation::Le, -1)),
    row!("bool_eq_reif", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Eq,
        0,
        Reification::Equivalent
    )),
    row!("bool_le_reif", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Le,
        0,
        Reification::Equivalent
    )),
    row!("bool_lt_reif", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Le,
        -1,
        Reification::Equivalent
    )),
    row!("bool_eq_imp", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Eq,
        0,
        Reification::Implies
    )),
    row!("bool_le_imp", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Le,
        0,
        Reification::Implies
    )),
    row!("bool_lt_imp", 3, N, |c, a| cmp_reif(
        c,
        a,
        Relation::Le,
        -1,
        Reification::Implies
    )),
    row!("bool_and", 3, N, |c, a| {
        let (x, y, r) = (c.var(&a[0])?, c.var(&a[1])?, c.var(&a[2])?);
        c.model.bool_and(&[x, y], r).map(drop).map_err(e)
    }),
    row!("bool_or", 3, N, |c, a| {
        let (x, y, r) = (c.var(&a[0])?, c.var(&a[1])?, c.var(&a[2])?);
        c.model.bool_or(&[x, y], r).map(drop).map_err(e)
    }),
    Builtin {
        name: "bool_xor",
        arity: 2..=3,
        kind: N,
        post: bool_xor,
    },
    row!("bool_clause", 2, N, |c, a| {
        let (p, n) = (c.vars(&a[0])?, c.vars(&a[1])?);
        c.model.clause(&p, &n).map(drop).map_err(e)
    }),
    row!("bool_clause_reif", 3, D, bool_clause_reif),
    row!("array_bool_and", 2, N, |c, a| {
        let (xs, r) = (c.vars(&a[0])?, c.var(&a[1])?);
        c.model.bool_and(&xs, r).map(drop).map_err(e)
    }),
    row!("array_bool_or", 2, N, |c, a| {
        let (xs, r) = (c.vars(&a[0])?, c.var(&a[1])?);
        c.model.bool_or(&xs, r).map(drop).map_err(e)
    }),
    row!("array_bool_xor", 1, N, |c, a| {
        let xs = c.vars(&a[0])?;
        c.model.bool_xor(&xs, true).map(drop).map_err(e)
    }),
    row!("bool_lin_eq", 3, D, |c, a| bool_lin(c, a, Relation::Eq)),
    row!("bool_lin_le", 3, N, |c, a| bool_lin(c, a, Relation::Le)),
    // Globals chosen by the solver library (share/minizinc/csp-core).
    row!("csp_all_different_int", 1, N, |c, a| {
        let xs = c.vars(&a[0])?;
        // `:: domain` asks for the matching propagator; `:: bounds` for Hall intervals; else the model's default
        // (value level on bitsets, bounds when a member is an interval).
        let level = match c.consistency {
            Some(Consistency::Domain) => Some(AllDifferentLevel::Domain),
            Some(Consistency::Bounds) => Some(AllDifferentLevel::Bounds),
            Some(Consistency::Value) | None => None,
        };
        let zeros = vec![0; xs.len()];
        match level {
            Some(level) => c.model.all_different_with(&xs, &zeros, level),
            None => c.model.all_different(&xs),
        }
        .map(drop)
        .map_err(e)
    }),
    row!("csp_table_int", 2, N, table),
    row!("csp_table_bool", 2, N, table),
    row!("csp_regular", 6, N, regular),
    row!("csp_circuit", 2, N, |c, a| {
        let (xs, first) = (c.vars(&a[0])?, c.int(&a[1])?);
        c.model.circuit(&xs, first).map(drop).map_err(e)
    }),
    row!("csp_subcircuit", 2, N, |c, a| {
        let (xs, first) = (c.vars(&a[0])?, c.int(&a[1])?);
        c.model.subcircuit(&xs, first).map(drop).map_err(e)
    }),
    row!("csp_count_eq", 3, N, |c, a| {
        let (xs, n) = (c.vars(&a[0])?, c.var(&a[2])?);
        match c.const_of(&a[1]) {
            Some(v) => {
                c.model.count(&xs, v, n).map_err(e)?;
                c.note_count(&xs, v, n);
                Ok(())
            }
            None => {
                let y = c.var(&a[1])?;
                c.model.count_var(&xs, y, n).map(drop).map_err(e)
            }
        }
    }),
    row!("csp_global_cardinality", 3, N, |c, a| {
        let (xs, values, counts) = (c.vars(&a[0])?, c.ints(&a[1])?, c.vars(&a[2])?);
        c.model
            .global_cardinality(&xs, &values, &counts)
            .map(drop)
            .map_err(e)
    }),
    row!("csp_inverse", 3, N, |c, a| {
        let (f, g, first) = (c.vars(&a[0])?, c.vars(&a[1])?, c.int(&a[2])?);
        c.model.inverse(&f, &g, first).map(drop).map_err(e)
    }),
    row!("csp_cumulative", 4, N, |c, a| {
        let (s, d, r) = (c.vars(&a[0])?, c.vars(&a[1])?, c.vars(&a[2])?);
        let b = c.var(&a[3])?;
        c.model.cumulative(&s, &d, &r, b).map(drop).map_err(e)
    }),
    row!("csp_lex_int", 3, N, lex),
    row!("csp_lex_bool", 3, N, lex),
];

/// The row for `name`.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    TABLE.iter().find(|b| b.name == name)
}

fn e(err: csp_core::ModelError) -> Fail {
    Fail::Model(err)
}

/// `a[0] - a[1] rel rhs`.
fn cmp(c: &mut Ctx, a: &[Expr], rel: Relation, rhs: i64) -> R<()> {
    let (x, y) = (c.var(&a[0])?, c.var(&a[1])?);
    c.model
        .linear(&[(1, x), (-1, y)], rel, rhs)
        .map(drop)
        .map_err(e)
}

/// `a[2] <-> / -> (a[0] - a[1] rel rhs)`.
fn cmp_reif(c: &mut Ctx, a: &[Expr], rel: Relation, rhs: i64, mode: Reification) -> R<()> {
    let (x, y, r) = (c.var(&a[0])?, c.var(&a[1])?, c.var(&a[2])?);
    c.model
        .reify_linear(&[(1, x), (-1, y)], rel, rhs, r, mode)
        .map(drop)
        .map_err(e)
}

fn terms(c: &mut Ctx, coefs: &Expr, xs: &Expr) -> R<Vec<(i64, VarId)>> {
    let (k, xs) = (c.ints(coefs)?, c.vars(xs)?);
    if k.len() != xs.len() {
        return Err(Fail::Msg(format!(
            "{} coefficients for {} variables",
            k.len(),
            xs.len()
        )));
    }
    Ok(k.into_iter().zip(xs).collect())
}

fn lin(c: &mut Ctx, a: &[Expr], rel: Relation) -> R<()> {
    let t = terms(c, &a[0], &a[1])?;
    let rhs = c.int(&a[2])?;
    // `k*x - k*y = k*d` is `x = y + d`: MiniZinc writes it for every offset view (`all_different([q[i] + i])`
    // becomes fresh variables tied by such equalities). csp-core's `equal` keeps it domain-consistent, where
    // `linear` would only move bounds and leave the holes `all_different` punches on one side; N-Queens n = 60
    // goes from no solution in 10 s to 0.01 s. `!=` maps to `not_equal` the same way.
    if let Some((x, y, d)) = offset_pair(&t, rhs) {
        return match rel {
            Relation::Eq => c.model.equal(x, y, d).map(drop).map_err(e),
            Relation::Ne => c.model.not_equal(x, y, d).map(drop).map_err(e),
            _ => c.model.linear(&t, rel, rhs).map(drop).map_err(e),
        };
    }
    c.model.linear(&t, rel, rhs).map(drop).map_err(e)
}

/// `(x, y, d)` with `x = y + d` equivalent to `k*x - k*y = rhs`, for two distinct variables.
fn offset_pair(t: &[(i64, VarId)], rhs: i64) -> Option<(VarId, VarId, i64)> {
    let [(a, x), (b, y)] = t else {
        return None;
    };
    if *a == 0 || a.checked_neg() != Some(*b) || x == y || rhs % a != 0 {
        return None;
    }
    Some((*x, *y, rhs / a))
}

fn lin_reif(c: &mut Ctx, a: &[Expr], rel: Relation, mode: Reification) -> R<()> {
    let t = terms(c, &a[0], &a[1])?;
    let rhs = c.int(&a[2])?;
    let r = c.var(&a[3])?;
    c.model
        .reify_linear(&t, rel, rhs, r, mode)
        .map(drop)
        .map_err(e)
}

/// `bool_lin_eq(as, bs, c)` with `c` possibly a variable (then moved to the left: `sum - c = 0`).
fn bool_lin(c: &mut Ctx, a: &[Expr], rel: Relation) -> R<()> {
    let mut t = terms(c, &a[0], &a[1])?;
    let rhs = match c.const_of(&a[2]) {
        Some(k) => k,
        None => {
            t.push((-1, c.var(&a[2])?));
            0
        }
    };
    c.model.linear(&t, rel, rhs).map(drop).map_err(e)
}

fn arith(c: &mut Ctx, a: &[Expr], op: ArithOp) -> R<()> {
    let (x, y, z) = (c.var(&a[0])?, c.var(&a[1])?, c.var(&a[2])?);
    c.model.arith(op, x, y, z).map(drop).map_err(e)
}

/// `array[idx] = z` for a constant array, as a table of (index, value) pairs.
fn element_const(c: &mut Ctx, a: &[Expr]) -> R<()> {
    let (x, arr, z) = (c.var(&a[0])?, c.ints(&a[1])?, c.var(&a[2])?);
    c.model.element(x, 1, &arr, z).map(drop).map_err(e)
}

fn element_var(c: &mut Ctx, a: &[Expr]) -> R<()> {
    let (x, arr, z) = (c.var(&a[0])?, c.vars(&a[1])?, c.var(&a[2])?);
    c.model.element_var(x, 1, &arr, z).map(drop).map_err(e)
}

/// `x in s` for a constant set: bounds as linear constraints, holes as a unary table.
pub fn restrict(c: &mut Ctx, x: VarId, s: &IntSet) -> R<()> {
    match s {
        IntSet::Range(lo, hi) => {
            c.model.linear(&[(1, x)], Relation::Ge, *lo).map_err(e)?;
            c.model.linear(&[(1, x)], Relation::Le, *hi).map_err(e)?;
        }
        IntSet::List(v) => {
            let rows: Vec<Vec<i64>> = v.iter().map(|&k| vec![k]).collect();
            c.model.table(&[x], &rows).map_err(e)?;
        }
    }
    Ok(())
}

/// `r <-> x in s` (or `r -> x in s`) as a table over `(x, r)` on `x`'s domain.
fn set_in_reif(c: &mut Ctx, a: &[Expr], mode: Reification) -> R<()> {
    let (x, s, r) = (c.var(&a[0])?, c.set(&a[1])?, c.var(&a[2])?);
    let mut rows = Vec::new();
    for v in c.domain(x)? {
        let inside = s.contains(v);
        rows.push(vec![v, inside as i64]);
        if mode == Reification::Implies && !inside {
            continue;
        }
        if mode == Reification::Implies {
            rows.push(vec![v, 0]);
        }
    }
    c.model.table(&[x, r], &rows).map(drop).map_err(e)
}

/// `bool_xor(a, b)`: `a != b`; `bool_xor(a, b, r)`: `r <-> a xor b`, i.e. `a + b + r` even.
fn bool_xor(c: &mut Ctx, a: &[Expr]) -> R<()> {
    let mut xs = Vec::with_capacity(3);
    for x in a {
        xs.push(c.var(x)?);
    }
    let odd = xs.len() == 2;
    c.model.bool_xor(&xs, odd).map(drop).map_err(e)
}

/// `r <-> (or(pos) or or(not neg))` as the reified pseudo-Boolean `sum(pos) - sum(neg) >= 1 - |neg|`.
fn bool_clause_reif(c: &mut Ctx, a: &[Expr]) -> R<()> {
    let (p, n, r) = (c.vars(&a[0])?, c.vars(&a[1])?, c.var(&a[2])?);
    let mut t: Vec<(i64, VarId)> = p.iter().map(|&x| (1, x)).collect();
    t.extend(n.iter().map(|&x| (-1, x)));
    c.model
        .reify_linear(
            &t,
            Relation::Ge,
            1 - n.len() as i64,
            r,
            Reification::Equivalent,
        )
        .map(drop)
        .map_err(e)
}

/// `table(xs, flat)`: `flat` lists the tuples row after row.
fn table(c: &mut Ctx, a: &[Expr]) -> R<()> {
    let (xs, flat) = (c.vars(&a[0])?, c.ints(&a[1])?);
    if xs.is_empty() {
        return Ok(());
    }
    if flat.len() % xs.len() != 0 {
        return Err(Fail::Msg(format!(
            "{} table values do not split into rows of {}",
            flat.len(),
            xs.len()
        )));
    }
    let rows: Vec<Vec<i64>> = flat.chunks(xs.len()).map(<[i64]>::to_vec).collect();
    c.model.table(&xs, &rows).map(drop).map_err(e)
}

/// `csp_regular(x, Q, S, d, q0, F)`: MiniZinc's DFA (states `1..Q`, symbols `1..S`, `d` row after row with `0` for
/// "no transition") shifted to csp-core's 0-based states, state 0 dropped.
fn regular(c: &mut Ctx, a: &[Expr]) -> R<()> {
    let xs = c.vars(&a[0])?;
    let (q, s, d) = (c.int(&a[1])?, c.int(&a[2])?, c.ints(&a[3])?);
    let (q0, f) = (c.int(&a[4])?, c.set(&a[5])?);
    let states = usize::try_from(q).map_err(|_| format!("regular: {q} states"))?;
    let symbols = usize::try_from(s).map_err(|_| format!("regular: {s} symbols"))?;
    if d.len() != states * symbols {
        return Err(Fail::Msg(format!(
            "regular: {} transitions for {states} states and {symbols} symbols",
            d.len()
        )));
    }
    if q0 < 1 || q0 > q {
        return Err(Fail::Msg(format!(
            "regular: start state {q0} is not in 1..{q}"
        )));
    }
    let mut transitions = Vec::new();
    for (k, &to) in d.iter().enumerate() {
        if to == 0 {
            continue;
        }
        if to < 1 || to > q {
            return Err(Fail::Msg(format!(
                "regular: transition to state {to}, not in 1..{q}"
            )));
        }
        let (from, symbol) = (k / symbols, (k % symbols) as i64 + 1);
        transitions.push((from, symbol, to as usize - 1));
    }
    let accepting: Vec<usize> = (1..=q)
        .filter(|&k| f.contains(k))
        .map(|k| k as usize - 1)
        .collect();
    c.model
        .regular(&xs, states, q0 as usize - 1, &transitions, &accepting)
        .map(drop)
        .map_err(e)
}

/// `csp_lex_int(x, y, strict)`: `x <_lex y` (`strict`) or `x <=_lex y`, arrays of one length.
fn lex(c: &mut Ctx, a: &[Expr]) -> R<()> {
    let (xs, ys, strict) = (c.vars(&a[0])?, c.vars(&a[1])?, c.int(&a[2])? != 0);
    c.model.lex(&xs, &ys, strict).map(drop).map_err(e)
}
