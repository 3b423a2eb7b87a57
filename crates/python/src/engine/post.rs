//! The calls a Python model records ([`Post`]) and their replay on a `csp_core::Model`.
//!
//! Indices in a `Post` are positions in the Python model's creation order. Some csp-core calls (`count_var`
//! and `inverse` on interval variables) create hidden Booleans of their own; they never get a Python index, and
//! [`apply`] keeps the map from Python index to engine variable in `vars`, so a replay in the same order makes the
//! same engine model every time.

use csp_core::constraints::{AllDifferentLevel, ArithOp, Reification};
use csp_core::{ModelError, Relation, VarId};

/// A linear expression: `(coefficient, variable index)` terms.
pub(super) type Terms = Vec<(i64, usize)>;

/// One call made on a Python model, replayed on each rebuild.
#[derive(Clone, Debug)]
pub(super) enum Post {
    Var {
        min: i64,
        max: i64,
    },
    VarValues(Vec<i64>),
    Bool,
    AllDifferent(Vec<usize>),
    AllDifferentLevel(Vec<usize>, AllDifferentLevel),
    AllDifferentOffset(Vec<usize>, Vec<i64>),
    NotEqual(usize, usize, i64),
    Equal(usize, usize, i64),
    Linear(Terms, Relation, i64),
    Table(Vec<usize>, Vec<Vec<i64>>),
    Clause {
        pos: Vec<usize>,
        neg: Vec<usize>,
    },
    BoolAnd(Vec<usize>, usize),
    BoolOr(Vec<usize>, usize),
    BoolXor(Vec<usize>, bool),
    BoolNot(usize, usize),
    BoolEquiv(usize, usize),
    Reify {
        terms: Terms,
        rel: Relation,
        rhs: i64,
        b: usize,
        mode: Reification,
    },
    /// `z = op(x, y)` for times, div, mod and pow.
    Arith(ArithOp, usize, usize, usize),
    Abs(usize, usize),
    /// `z = min(xs)` (`min = true`) or `max(xs)`.
    Extremum {
        xs: Vec<usize>,
        z: usize,
        min: bool,
    },
    Element {
        index: usize,
        first: i64,
        array: Vec<i64>,
        z: usize,
    },
    ElementVar {
        index: usize,
        first: i64,
        array: Vec<usize>,
        z: usize,
    },
    Count {
        xs: Vec<usize>,
        value: i64,
        n: usize,
    },
    CountVar {
        xs: Vec<usize>,
        y: usize,
        n: usize,
    },
    GlobalCardinality {
        xs: Vec<usize>,
        values: Vec<i64>,
        counts: Vec<usize>,
    },
    Inverse {
        f: Vec<usize>,
        g: Vec<usize>,
        first: i64,
    },
    Lex {
        xs: Vec<usize>,
        ys: Vec<usize>,
        strict: bool,
    },
    Regular {
        xs: Vec<usize>,
        states: usize,
        start: usize,
        transitions: Vec<(usize, i64, usize)>,
        accepting: Vec<usize>,
    },
    Circuit {
        xs: Vec<usize>,
        first: i64,
        sub: bool,
    },
}

/// Replays `post` on `model`, whose Python variables so far are `vars` (a new Python variable is pushed).
pub(super) fn apply(
    model: &mut csp_core::Model,
    vars: &mut Vec<VarId>,
    post: &Post,
) -> Result<(), ModelError> {
    let ids = |xs: &[usize]| -> Vec<VarId> { xs.iter().map(|&i| vars[i]).collect() };
    let terms =
        |ts: &Terms| -> Vec<(i64, VarId)> { ts.iter().map(|&(a, x)| (a, vars[x])).collect() };
    match post {
        Post::Var { min, max } => model.new_var(*min, *max).map(|v| vars.push(v)),
        Post::VarValues(values) => model.new_var_with_values(values).map(|v| vars.push(v)),
        Post::Bool => model.new_bool().map(|v| vars.push(v)),
        Post::AllDifferent(xs) => model.all_different(&ids(xs)).map(drop),
        Post::AllDifferentLevel(xs, level) => model
            .all_different_with(&ids(xs), &vec![0; xs.len()], *level)
            .map(drop),
        Post::AllDifferentOffset(xs, offsets) => {
            model.all_different_offset(&ids(xs), offsets).map(drop)
        }
        Post::NotEqual(x, y, c) => model.not_equal(vars[*x], vars[*y], *c).map(drop),
        Post::Equal(x, y, c) => model.equal(vars[*x], vars[*y], *c).map(drop),
        Post::Linear(ts, rel, rhs) => model.linear(&terms(ts), *rel, *rhs).map(drop),
        Post::Table(xs, tuples) => model.table(&ids(xs), tuples).map(drop),
        Post::Clause { pos, neg } => model.clause(&ids(pos), &ids(neg)).map(drop),
        Post::BoolAnd(xs, b) => model.bool_and(&ids(xs), vars[*b]).map(drop),
        Post::BoolOr(xs, b) => model.bool_or(&ids(xs), vars[*b]).map(drop),
        Post::BoolXor(xs, odd) => model.bool_xor(&ids(xs), *odd).map(drop),
        Post::BoolNot(x, y) => model.bool_not(vars[*x], vars[*y]).map(drop),
        Post::BoolEquiv(x, y) => model.bool_equiv(vars[*x], vars[*y]).map(drop),
        Post::Reify {
            terms: ts,
            rel,
            rhs,
            b,
            mode,
        } => model
            .reify_linear(&terms(ts), *rel, *rhs, vars[*b], *mode)
            .map(drop),
        Post::Arith(op, x, y, z) => model.arith(*op, vars[*x], vars[*y], vars[*z]).map(drop),
        Post::Abs(x, z) => model.abs(vars[*x], vars[*z]).map(drop),
        Post::Extremum { xs, z, min: true } => model.min_of(&ids(xs), vars[*z]).map(drop),
        Post::Extremum { xs, z, min: false } => model.max_of(&ids(xs), vars[*z]).map(drop),
        Post::Element {
            index,
            first,
            array,
            z,
        } => model
            .element(vars[*index], *first, array, vars[*z])
            .map(drop),
        Post::ElementVar {
            index,
            first,
            array,
            z,
        } => model
            .element_var(vars[*index], *first, &ids(array), vars[*z])
            .map(drop),
        Post::Count { xs, value, n } => model.count(&ids(xs), *value, vars[*n]).map(drop),
        Post::CountVar { xs, y, n } => model.count_var(&ids(xs), vars[*y], vars[*n]).map(drop),
        Post::GlobalCardinality { xs, values, counts } => model
            .global_cardinality(&ids(xs), values, &ids(counts))
            .map(drop),
        Post::Inverse { f, g, first } => model.inverse(&ids(f), &ids(g), *first).map(drop),
        Post::Lex { xs, ys, strict } => model.lex(&ids(xs), &ids(ys), *strict).map(drop),
        Post::Regular {
            xs,
            states,
            start,
            transitions,
            accepting,
        } => model
            .regular(&ids(xs), *states, *start, transitions, accepting)
            .map(drop),
        Post::Circuit {
            xs,
            first,
            sub: false,
        } => model.circuit(&ids(xs), *first).map(drop),
        Post::Circuit {
            xs,
            first,
            sub: true,
        } => model.subcircuit(&ids(xs), *first).map(drop),
    }
}
