//! The model builder and the frozen [`Problem`] that searches are built from.
//!
//! The builder validates everything a user can get wrong (empty or too-wide domains, variables from another model,
//! mismatched lengths, table arity, arithmetic overflow) and reports it as a [`ModelError`]; nothing here panics on
//! user data. Building freezes the model: a `Problem` is immutable, `Send + Sync`, and shared by any number of
//! solvers and threads.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use crate::constraints::{
    AllDifferent, AllDifferentBounds, AllDifferentDomain, AllDifferentLevel, Arith, ArithOp,
    Circuit, Clause, Count, CountVar, Element, ElementVar, Equal, Extremum, Inverse, Lex, Linear,
    NotEqual, Parity, Posted, Regular, Reification, ReifiedDifference, ReifiedLinear, Relation,
    Table,
};
use crate::csr::Csr;
use crate::domain::{Domain, Word};
use crate::ids::{ConstraintId, VarId};
use crate::trailed::{Layout, Trailed};
use crate::values::Values;

/// Widest domain accepted (values per variable).
pub const MAX_DOMAIN_WIDTH: usize = 1 << 16;

/// Source of distinct model tags, so a `VarId` from one model is recognised as foreign by another.
static NEXT_MODEL_TAG: AtomicU32 = AtomicU32::new(1);

/// Everything that can be wrong in a model or an assumption.
///
/// Messages name a variable by its index as `x<index>` (its creation order); a front end with names of its own
/// (FlatZinc's) renders them with [`ModelError::describe`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// `new_var(min, max)` with `min > max`.
    EmptyDomain {
        /// Index the variable would have had.
        var: usize,
        /// Requested minimum.
        min: i64,
        /// Requested maximum.
        max: i64,
    },
    /// `new_var_with_values(&[])`.
    NoValues {
        /// Index the variable would have had.
        var: usize,
    },
    /// More values than [`MAX_DOMAIN_WIDTH`].
    DomainTooWide {
        /// Index the variable would have had.
        var: usize,
        /// Requested number of values.
        width: u128,
        /// The limit.
        max: usize,
    },
    /// A `VarId` created by a different model (or otherwise unknown here).
    ForeignVariable {
        /// Which call received it.
        what: &'static str,
        /// Its index.
        var: usize,
    },
    /// Two argument lists that must have the same length do not.
    LengthMismatch {
        /// Which call and argument.
        what: &'static str,
        /// Expected length.
        expected: usize,
        /// Actual length.
        got: usize,
    },
    /// A table tuple whose length differs from the scope.
    TableArity {
        /// Index of the offending tuple.
        tuple: usize,
        /// Scope length.
        expected: usize,
        /// Tuple length.
        got: usize,
    },
    /// Values, offsets or sums that do not fit in `i64`.
    Overflow {
        /// Which call.
        what: &'static str,
        /// The quantity that overflows; it names the variables of `vars` as `x<index>`.
        detail: String,
        /// The variables `detail` names (so [`ModelError::describe`] can rename them).
        vars: Vec<usize>,
    },
    /// A variable used as a Boolean whose domain is not within `{0, 1}`.
    NotBoolean {
        /// Which call.
        what: &'static str,
        /// Its index.
        var: usize,
        /// Smallest value of its domain.
        min: i64,
        /// Largest value of its domain.
        max: i64,
    },
    /// A divisor whose only value is zero.
    DivisionByZero {
        /// Which call.
        what: &'static str,
        /// The divisor's index.
        var: usize,
    },
    /// An argument list that must not be empty is.
    EmptyArgument {
        /// Which call.
        what: &'static str,
        /// Which argument.
        argument: &'static str,
    },
    /// A constraint that needs enumerable (bitset) domains posted on an interval variable.
    NeedsEnumerable {
        /// The constraint's name.
        what: &'static str,
        /// The interval variable.
        var: usize,
        /// Widest bitset domain.
        max: usize,
    },
    /// An automaton with a state outside `0..states`.
    InvalidAutomaton {
        /// What is wrong.
        detail: String,
    },
    /// An assumption that fixes a variable to a value it cannot take.
    AssumptionOutsideDomain {
        /// Variable index.
        var: usize,
        /// Requested value.
        value: i64,
        /// Smallest value of the domain.
        min: i64,
        /// Largest value of the domain.
        max: i64,
    },
}

impl ModelError {
    /// The message, with every variable named by `name(index)` (`Display` uses `x<index>`). A front end passes
    /// the names its user wrote, so a refusal points at the user's variable rather than the engine's number.
    pub fn describe(&self, name: &dyn Fn(usize) -> String) -> String {
        use ModelError as E;
        match self {
            E::EmptyDomain { var, min, max } => format!(
                "variable {}: empty domain {min}..={max} (min is greater than max)",
                name(*var)
            ),
            E::NoValues { var } => format!("variable {}: empty list of values", name(*var)),
            E::DomainTooWide { var, width, max } => format!(
                "variable {}: domain of {width} values exceeds the maximum of {max}",
                name(*var)
            ),
            E::ForeignVariable { what, var } => {
                format!("{what}: variable {} does not belong to this model", name(*var))
            }
            E::LengthMismatch {
                what,
                expected,
                got,
            } => format!("{what}: expected {expected} entries, got {got}"),
            E::TableArity {
                tuple,
                expected,
                got,
            } => format!(
                "table: tuple {tuple} has {got} values but the scope has {expected} variables"
            ),
            E::Overflow { what, detail, vars } => {
                format!("{what}: arithmetic overflows i64 ({})", rename(detail, vars, name))
            }
            E::NotBoolean {
                what,
                var,
                min,
                max,
            } => format!(
                "{what}: variable {} must be Boolean (domain within 0..=1), has {min}..={max}",
                name(*var)
            ),
            E::DivisionByZero { what, var } => format!(
                "{what}: division by the constant zero ({} can only be 0)",
                name(*var)
            ),
            E::EmptyArgument { what, argument } => format!("{what}: the list of {argument} is empty"),
            E::NeedsEnumerable { what, var, max } => format!(
                "{what}: variable {} is an interval (bounds) domain, but {what} needs enumerable domains \
                 (give it a range of at most {max} values)",
                name(*var)
            ),
            E::InvalidAutomaton { detail } => format!("regular: {detail}"),
            E::AssumptionOutsideDomain {
                var,
                value,
                min,
                max,
            } => format!(
                "assumption {} = {value}: value outside the variable's domain {min}..={max}",
                name(*var)
            ),
        }
    }
}

/// `detail` with each `x<index>` of `vars` (a whole word) replaced by `name(index)`.
fn rename(detail: &str, vars: &[usize], name: &dyn Fn(usize) -> String) -> String {
    let mut out = String::with_capacity(detail.len());
    let mut rest = detail;
    while let Some(i) = rest.find('x') {
        let (before, from_x) = rest.split_at(i);
        out.push_str(before);
        let digits = from_x[1..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(from_x.len() - 1);
        let word_start = !out
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        match from_x[1..1 + digits].parse::<usize>() {
            Ok(v) if word_start && vars.contains(&v) => out.push_str(&name(v)),
            _ => out.push_str(&from_x[..1 + digits]),
        }
        rest = &from_x[1 + digits..];
    }
    out.push_str(rest);
    out
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(&|v| format!("x{v}")))
    }
}

impl std::error::Error for ModelError {}

/// A model under construction: variables with finite integer domains and constraints on them.
#[derive(Debug)]
pub struct Model {
    tag: u32,
    values: Vec<Values>,
    constraints: Vec<Box<dyn Posted>>,
    /// The first constraint [`Model::post`] received on an interval it cannot handle; [`Model::build`] fails with it.
    refused: Option<ModelError>,
}

impl Default for Model {
    fn default() -> Self {
        Self::new()
    }
}

impl Model {
    /// An empty model with a fresh tag.
    pub fn new() -> Self {
        Self {
            tag: NEXT_MODEL_TAG.fetch_add(1, Ordering::Relaxed),
            values: Vec::new(),
            constraints: Vec::new(),
            refused: None,
        }
    }

    /// Number of variables so far.
    pub fn num_vars(&self) -> usize {
        self.values.len()
    }

    /// Number of constraints so far.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// A variable taking any value in `min..=max`: a bitset domain up to [`MAX_DOMAIN_WIDTH`] values, an interval
    /// (bounds) domain beyond (as [`Model::new_interval_var`]).
    pub fn new_var(&mut self, min: i64, max: i64) -> Result<VarId, ModelError> {
        let var = self.values.len();
        if min > max {
            return Err(ModelError::EmptyDomain { var, min, max });
        }
        let width = (max as i128 - min as i128 + 1) as u128;
        if width > MAX_DOMAIN_WIDTH as u128 {
            return self.new_interval_var(min, max);
        }
        self.values.push(Values::Range {
            min,
            width: width as u32,
        });
        Ok(VarId::new(var as u32, self.tag))
    }

    /// A variable taking any value in `min..=max` kept as an interval: the search stores only its bounds, and
    /// propagators reason on bounds (`linear`, `equal`, arithmetic, `min`/`max`, `all_different` at bounds
    /// consistency, reified linear relations accept intervals; a constraint that needs enumerable domains refuses
    /// one with [`ModelError::NeedsEnumerable`]). Search branches on intervals by bounds: `x = min` / `x != min`
    /// with ascending values, a split `x <= v` / `x > v` with the other value orders. At most
    /// [`crate::values::MAX_INTERVAL_WIDTH`] values.
    pub fn new_interval_var(&mut self, min: i64, max: i64) -> Result<VarId, ModelError> {
        let var = self.values.len();
        if min > max {
            return Err(ModelError::EmptyDomain { var, min, max });
        }
        let width = (max as i128 - min as i128 + 1) as u128;
        if width > crate::values::MAX_INTERVAL_WIDTH as u128 {
            return Err(ModelError::DomainTooWide {
                var,
                width,
                max: crate::values::MAX_INTERVAL_WIDTH as usize,
            });
        }
        self.values.push(Values::Interval {
            min,
            width: width as u64,
        });
        Ok(VarId::new(var as u32, self.tag))
    }

    /// True when variable index `v` is an interval (bounds) domain.
    pub fn is_interval(&self, v: u32) -> bool {
        self.values.get(v as usize).is_some_and(Values::is_interval)
    }

    /// A variable taking one of `values` (any order, duplicates ignored).
    pub fn new_var_with_values(&mut self, values: &[i64]) -> Result<VarId, ModelError> {
        let var = self.values.len();
        let mut v = values.to_vec();
        v.sort_unstable();
        v.dedup();
        if v.is_empty() {
            return Err(ModelError::NoValues { var });
        }
        if v.len() > MAX_DOMAIN_WIDTH {
            return Err(ModelError::DomainTooWide {
                var,
                width: v.len() as u128,
                max: MAX_DOMAIN_WIDTH,
            });
        }
        let contiguous = (v[v.len() - 1] as i128 - v[0] as i128) as usize == v.len() - 1;
        self.values.push(if contiguous {
            Values::Range {
                min: v[0],
                width: v.len() as u32,
            }
        } else {
            Values::List(v.into_boxed_slice())
        });
        Ok(VarId::new(var as u32, self.tag))
    }

    fn check(&self, what: &'static str, x: VarId) -> Result<u32, ModelError> {
        if x.model() != self.tag || x.index() >= self.values.len() {
            return Err(ModelError::ForeignVariable {
                what,
                var: x.index(),
            });
        }
        Ok(x.raw())
    }

    fn check_all(&self, what: &'static str, xs: &[VarId]) -> Result<Vec<u32>, ModelError> {
        xs.iter().map(|&x| self.check(what, x)).collect()
    }

    /// Registers a constraint: the one method every posting method ends in, and the entry point for constraints
    /// written outside this crate (implement [`crate::constraints::Constraint`] and
    /// [`crate::constraints::Propagate`]; get scope indexes from [`Model::scope`]).
    ///
    /// # Panics
    /// Never on user data; a constraint that does not accept intervals (see
    /// [`crate::constraints::Constraint::accepts_intervals`]) posted on an interval is kept out of the model and
    /// reported by [`Model::build`] as [`ModelError::NeedsEnumerable`] (use [`Model::try_post`] to learn it here).
    pub fn post<C: Posted>(&mut self, c: C) -> ConstraintId {
        if let Err(e) = self.interval_check(&c) {
            if self.refused.is_none() {
                self.refused = Some(e);
            }
        }
        self.constraints.push(Box::new(c));
        ConstraintId(self.constraints.len() as u32 - 1)
    }

    /// [`Model::post`], refusing at once a constraint that needs enumerable domains on an interval.
    pub fn try_post<C: Posted>(&mut self, c: C) -> Result<ConstraintId, ModelError> {
        self.interval_check(&c)?;
        Ok(self.post(c))
    }

    fn interval_check<C: Posted>(&self, c: &C) -> Result<(), ModelError> {
        if c.accepts_intervals() {
            return Ok(());
        }
        match c.vars().iter().find(|&&v| self.is_interval(v)) {
            Some(&v) => Err(ModelError::NeedsEnumerable {
                what: c.name(),
                var: v as usize,
                max: MAX_DOMAIN_WIDTH,
            }),
            None => Ok(()),
        }
    }

    /// The engine indexes of `xs` (what a [`crate::constraints::Constraint`] keeps as its scope), or
    /// [`ModelError::ForeignVariable`] for a variable of another model; `what` names the caller in the error.
    pub fn scope(&self, what: &'static str, xs: &[VarId]) -> Result<Vec<u32>, ModelError> {
        self.check_all(what, xs)
    }

    /// The value table of variable index `v` (from [`Model::scope`]).
    pub fn values_of(&self, v: u32) -> Option<&Values> {
        self.values.get(v as usize)
    }

    /// Largest absolute value `x` can take.
    fn magnitude(&self, x: u32) -> i128 {
        let v = &self.values[x as usize];
        (v.min() as i128).abs().max((v.max() as i128).abs())
    }

    /// `xs` take pairwise different values.
    pub fn all_different(&mut self, xs: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.all_different_offset(xs, &vec![0; xs.len()])
    }

    /// The values `xs[i] + offsets[i]` are pairwise different (N-Queens diagonals: offsets `i` and `-i`), at the
    /// value level on bitset domains and at bounds consistency when a member is an interval (see
    /// [`Model::all_different_with`]).
    pub fn all_different_offset(
        &mut self,
        xs: &[VarId],
        offsets: &[i64],
    ) -> Result<ConstraintId, ModelError> {
        let any_interval = xs.iter().any(|&x| {
            self.check("all_different_offset", x)
                .is_ok_and(|v| self.is_interval(v))
        });
        let level = if any_interval {
            AllDifferentLevel::Bounds
        } else {
            AllDifferentLevel::Value
        };
        self.all_different_with(xs, offsets, level)
    }

    /// The values `xs[i] + offsets[i]` are pairwise different, propagated at the chosen [`AllDifferentLevel`]:
    /// `Value` (forward checking; hidden singles at `Propagation::Singles`), `Bounds` (Hall intervals) or `Domain`
    /// (matching; posts `Bounds` when a member is an interval variable, which has no holes to prune).
    pub fn all_different_with(
        &mut self,
        xs: &[VarId],
        offsets: &[i64],
        level: AllDifferentLevel,
    ) -> Result<ConstraintId, ModelError> {
        const WHAT: &str = "all_different_offset";
        let vars = self.check_all(WHAT, xs)?;
        if offsets.len() != xs.len() {
            return Err(ModelError::LengthMismatch {
                what: WHAT,
                expected: xs.len(),
                got: offsets.len(),
            });
        }
        for (&v, &o) in vars.iter().zip(offsets) {
            let vals = &self.values[v as usize];
            if vals.min().checked_add(o).is_none() || vals.max().checked_add(o).is_none() {
                return Err(ModelError::Overflow {
                    what: WHAT,
                    detail: format!("x{v} + {o}"),
                    vars: vec![v as usize],
                });
            }
        }
        match level {
            AllDifferentLevel::Value => {
                let c = AllDifferent::new(vars, offsets.to_vec(), &self.values);
                self.try_post(c)
            }
            AllDifferentLevel::Bounds => {
                self.try_post(AllDifferentBounds::new(vars, offsets.to_vec()))
            }
            AllDifferentLevel::Domain
                if vars.iter().any(|&v| self.is_interval(v))
                    || vars
                        .iter()
                        .map(|&v| self.values[v as usize].width())
                        .sum::<usize>()
                        > AllDifferentDomain::MAX_EDGES =>
            {
                // Intervals have no holes to remove: bounds consistency is all they can hold; and a value graph
                // past `MAX_EDGES` is not built (see `constraints/all_different_domain.rs`).
                self.try_post(AllDifferentBounds::new(vars, offsets.to_vec()))
            }
            AllDifferentLevel::Domain => {
                let c = AllDifferentDomain::new(vars, offsets.to_vec(), &self.values);
                self.try_post(c)
            }
        }
    }

    fn check_offset(&self, what: &'static str, y: u32, c: i64) -> Result<(), ModelError> {
        let vals = &self.values[y as usize];
        if vals.min().checked_add(c).is_none() || vals.max().checked_add(c).is_none() {
            return Err(ModelError::Overflow {
                what,
                detail: format!("x{y} + {c}"),
                vars: vec![y as usize],
            });
        }
        Ok(())
    }

    /// `x != y + c`.
    pub fn not_equal(&mut self, x: VarId, y: VarId, c: i64) -> Result<ConstraintId, ModelError> {
        let (xr, yr) = (self.check("not_equal", x)?, self.check("not_equal", y)?);
        self.check_offset("not_equal", yr, c)?;
        if self.is_interval(xr) || self.is_interval(yr) {
            // `x - y != c` on bounds: forward checking of intervals needs the bounds-woken linear rule.
            return self.linear(&[(1, x), (-1, y)], Relation::Ne, c);
        }
        self.try_post(NotEqual { vars: [xr, yr], c })
    }

    /// `x == y + c`.
    pub fn equal(&mut self, x: VarId, y: VarId, c: i64) -> Result<ConstraintId, ModelError> {
        let (x, y) = (self.check("equal", x)?, self.check("equal", y)?);
        self.check_offset("equal", y, c)?;
        self.try_post(Equal { vars: [x, y], c })
    }

    /// `sum a_i * x_i  rel  rhs` over `terms = [(a_i, x_i), ..]` (`rel`: `=`, `<=`, `>=`, `!=`; bounds propagation,
    /// `!=` once a single term is open). Boolean sums (pseudo-Boolean constraints) are this over 0/1 variables.
    ///
    /// Rejected with [`ModelError::Overflow`] when the largest possible `|sum| + |rhs|` does not fit in `i64`, so
    /// propagation never overflows.
    pub fn linear(
        &mut self,
        terms: &[(i64, VarId)],
        rel: Relation,
        rhs: i64,
    ) -> Result<ConstraintId, ModelError> {
        let (vars, coefs) = self.linear_terms("linear", terms, rhs)?;
        let intervals = vars.iter().any(|&v| self.is_interval(v));
        let c = Linear::new(vars, coefs, rel, rhs);
        self.try_post(if intervals { c.waking_on_bounds() } else { c })
    }

    /// `xs` take one of the `tuples` (each of length `xs.len()`).
    pub fn table(&mut self, xs: &[VarId], tuples: &[Vec<i64>]) -> Result<ConstraintId, ModelError> {
        let vars = self.check_all("table", xs)?;
        let n = vars.len();
        let mut flat = Vec::with_capacity(tuples.len() * n);
        let mut rows = Vec::with_capacity(tuples.len() * n);
        for (k, t) in tuples.iter().enumerate() {
            if t.len() != n {
                return Err(ModelError::TableArity {
                    tuple: k,
                    expected: n,
                    got: t.len(),
                });
            }
            flat.extend_from_slice(t);
            let pos: Option<Vec<u32>> = vars
                .iter()
                .zip(t)
                .map(|(&v, &x)| self.values[v as usize].index_of(x).map(|p| p as u32))
                .collect();
            if let Some(pos) = pos {
                rows.extend(pos);
            }
        }
        let widths = vars
            .iter()
            .map(|&v| self.values[v as usize].width() as u32)
            .collect();
        self.try_post(Table::new(vars, flat, tuples.len(), rows, widths))
    }

    /// A Boolean variable (domain `{0, 1}`; 1 = true).
    pub fn new_bool(&mut self) -> Result<VarId, ModelError> {
        self.new_var(0, 1)
    }

    fn check_bool(&self, what: &'static str, x: VarId) -> Result<u32, ModelError> {
        let v = self.check(what, x)?;
        let vals = &self.values[v as usize];
        if vals.min() < 0 || vals.max() > 1 {
            return Err(ModelError::NotBoolean {
                what,
                var: v as usize,
                min: vals.min(),
                max: vals.max(),
            });
        }
        Ok(v)
    }

    fn check_bools(&self, what: &'static str, xs: &[VarId]) -> Result<Vec<u32>, ModelError> {
        xs.iter().map(|&x| self.check_bool(what, x)).collect()
    }

    /// The clause `pos_1 or .. or pos_p or not neg_1 or .. or not neg_n` over Booleans (FlatZinc `bool_clause`).
    pub fn clause(&mut self, pos: &[VarId], neg: &[VarId]) -> Result<ConstraintId, ModelError> {
        let p = self.check_bools("clause", pos)?;
        let n = self.check_bools("clause", neg)?;
        self.try_post(Clause::new(p, n))
    }

    /// `b <-> (xs_1 and .. and xs_n)` (FlatZinc `array_bool_and`), posted as `n + 1` clauses.
    pub fn bool_and(&mut self, xs: &[VarId], b: VarId) -> Result<ConstraintId, ModelError> {
        let xs_raw = self.check_bools("bool_and", xs)?;
        let br = self.check_bool("bool_and", b)?;
        for &x in &xs_raw {
            self.post(Clause::new(vec![x], vec![br]));
        }
        self.try_post(Clause::new(vec![br], xs_raw))
    }

    /// `b <-> (xs_1 or .. or xs_n)` (FlatZinc `array_bool_or`), posted as `n + 1` clauses.
    pub fn bool_or(&mut self, xs: &[VarId], b: VarId) -> Result<ConstraintId, ModelError> {
        let xs_raw = self.check_bools("bool_or", xs)?;
        let br = self.check_bool("bool_or", b)?;
        for &x in &xs_raw {
            self.post(Clause::new(vec![br], vec![x]));
        }
        self.try_post(Clause::new(xs_raw, vec![br]))
    }

    /// An odd (`odd = true`) or even number of `xs` are true (FlatZinc `array_bool_xor` is `odd = true`).
    pub fn bool_xor(&mut self, xs: &[VarId], odd: bool) -> Result<ConstraintId, ModelError> {
        let xs = self.check_bools("bool_xor", xs)?;
        self.try_post(Parity::new(xs, odd))
    }

    /// `y = not x` on Booleans (`x + y = 1`).
    pub fn bool_not(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.check_bool("bool_not", x)?;
        self.check_bool("bool_not", y)?;
        self.linear(&[(1, x), (1, y)], Relation::Eq, 1)
    }

    /// `x <-> y` on Booleans.
    pub fn bool_equiv(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.check_bool("bool_equiv", x)?;
        self.check_bool("bool_equiv", y)?;
        self.equal(x, y, 0)
    }

    /// Checks the terms of a linear relation and splits them, dropping zero coefficients.
    fn linear_terms(
        &self,
        what: &'static str,
        terms: &[(i64, VarId)],
        rhs: i64,
    ) -> Result<(Vec<u32>, Vec<i64>), ModelError> {
        let mut vars = Vec::with_capacity(terms.len());
        let mut coefs = Vec::with_capacity(terms.len());
        let mut total: i128 = (rhs as i128).abs();
        for &(a, x) in terms {
            let v = self.check(what, x)?;
            total += (a as i128).abs() * self.magnitude(v);
            if total > i64::MAX as i128 {
                return Err(ModelError::Overflow {
                    what,
                    detail: format!(
                        "sum of |a_i| * max|x_i| plus |rhs| exceeds {} at term {a} * x{v}",
                        i64::MAX
                    ),
                    vars: vec![v as usize],
                });
            }
            if a != 0 {
                vars.push(v);
                coefs.push(a);
            }
        }
        Ok((vars, coefs))
    }

    /// `b <-> (sum a_i x_i rel rhs)` (`mode = Equivalent`) or `b -> (..)` (`Implies`, half reification).
    ///
    /// Every reified comparison is one of these: `x = c` is `[(1, x)] Eq c`, `x <= y` is `[(1, x), (-1, y)] Le 0`,
    /// `x != y` is `[(1, x), (-1, y)] Ne 0` (FlatZinc `int_eq_reif`, `int_le_reif`, `int_lin_*_reif`, `*_imp`).
    /// A relation `x - y <= k` or `>= k` over two distinct variables with unit coefficients (either order) is
    /// posted as the cheaper [`ReifiedDifference`] (`x + c <= y`), the same filtering; the rest as
    /// [`ReifiedLinear`].
    pub fn reify_linear(
        &mut self,
        terms: &[(i64, VarId)],
        rel: Relation,
        rhs: i64,
        b: VarId,
        mode: Reification,
    ) -> Result<ConstraintId, ModelError> {
        const WHAT: &str = "reify_linear";
        let (vars, coefs) = self.linear_terms(WHAT, terms, rhs)?;
        let b = self.check_bool(WHAT, b)?;
        if vars.is_empty() {
            // A constant relation: b is fixed (or free under an implication that holds).
            let holds = rel.holds(0, rhs as i128);
            return Ok(match (holds, mode) {
                (true, Reification::Implies) => self.post(Clause::new(vec![b], vec![b])),
                _ => self.post(Clause::new(
                    if holds { vec![b] } else { vec![] },
                    if holds { vec![] } else { vec![b] },
                )),
            });
        }
        // `x - y <= k` (or `>=`) with distinct `x`, `y`: the reified difference `x + (-k) <= y`.
        if let ([v0, v1], [a0, a1]) = (vars.as_slice(), coefs.as_slice()) {
            let (x, y) = match (a0, a1) {
                (1, -1) => (*v0, *v1),
                (-1, 1) => (*v1, *v0),
                _ => (u32::MAX, u32::MAX),
            };
            if x != y {
                match rel {
                    Relation::Le => {
                        return self.try_post(ReifiedDifference::new(x, -rhs, y, b, mode));
                    }
                    // x - y >= k  <=>  y + k <= x.
                    Relation::Ge => {
                        return self.try_post(ReifiedDifference::new(y, rhs, x, b, mode))
                    }
                    Relation::Eq | Relation::Ne => {}
                }
            }
        }
        self.try_post(ReifiedLinear::new(vars, coefs, rel, rhs, b, mode))
    }

    /// `z = op(x, y)` ([`ArithOp`]: `*`, `div`, `mod`, `pow`; for `Abs` use [`Model::abs`]).
    ///
    /// Errors: [`ModelError::Overflow`] when some result within the domains does not fit `i64`;
    /// [`ModelError::DivisionByZero`] for a divisor that can only be 0.
    pub fn arith(
        &mut self,
        op: ArithOp,
        x: VarId,
        y: VarId,
        z: VarId,
    ) -> Result<ConstraintId, ModelError> {
        let what = match op {
            ArithOp::Times => "times",
            ArithOp::Div => "div",
            ArithOp::Mod => "mod",
            ArithOp::Pow => "pow",
            ArithOp::Abs => return self.abs(x, z),
        };
        let (xr, yr, zr) = (
            self.check(what, x)?,
            self.check(what, y)?,
            self.check(what, z)?,
        );
        let (mx, vy) = (self.magnitude(xr), &self.values[yr as usize]);
        let overflow = |detail: String| ModelError::Overflow {
            what,
            detail,
            vars: vec![xr as usize, yr as usize],
        };
        match op {
            ArithOp::Times if mx * self.magnitude(yr) > i64::MAX as i128 => {
                return Err(overflow(format!(
                    "x{xr} * x{yr} can reach {}",
                    mx * self.magnitude(yr)
                )));
            }
            ArithOp::Div | ArithOp::Mod => {
                if vy.min() == 0 && vy.max() == 0 {
                    return Err(ModelError::DivisionByZero {
                        what,
                        var: yr as usize,
                    });
                }
                if mx > i64::MAX as i128 {
                    return Err(overflow(format!("x{xr} / -1 does not fit i64")));
                }
            }
            ArithOp::Pow => {
                let e = u32::try_from(vy.max().max(0)).unwrap_or(u32::MAX);
                if mx > 1 && mx.checked_pow(e).is_none_or(|p| p > i64::MAX as i128) {
                    return Err(overflow(format!("x{xr} ^ {} does not fit i64", vy.max())));
                }
            }
            _ => {}
        }
        self.try_post(Arith::new(op, xr, Some(yr), zr))
    }

    /// `z = x * y`.
    pub fn times(&mut self, x: VarId, y: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.arith(ArithOp::Times, x, y, z)
    }

    /// `z = |x|`.
    pub fn abs(&mut self, x: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        let (xr, zr) = (self.check("abs", x)?, self.check("abs", z)?);
        if self.magnitude(xr) > i64::MAX as i128 {
            return Err(ModelError::Overflow {
                what: "abs",
                detail: format!("|x{xr}| does not fit i64"),
                vars: vec![xr as usize],
            });
        }
        self.try_post(Arith::new(ArithOp::Abs, xr, None, zr))
    }

    /// `z = max(xs)` (`xs` not empty; FlatZinc `array_int_maximum`, and `int_max` with two).
    pub fn max_of(&mut self, xs: &[VarId], z: VarId) -> Result<ConstraintId, ModelError> {
        self.extremum("max_of", xs, z, false)
    }

    /// `z = min(xs)` (`xs` not empty).
    pub fn min_of(&mut self, xs: &[VarId], z: VarId) -> Result<ConstraintId, ModelError> {
        self.extremum("min_of", xs, z, true)
    }

    fn extremum(
        &mut self,
        what: &'static str,
        xs: &[VarId],
        z: VarId,
        min: bool,
    ) -> Result<ConstraintId, ModelError> {
        let xs = self.check_all(what, xs)?;
        let z = self.check(what, z)?;
        if xs.is_empty() {
            return Err(ModelError::EmptyArgument {
                what,
                argument: "variables",
            });
        }
        self.try_post(Extremum::new(z, &xs, min))
    }

    /// `z = array[x - first]` for a constant array (FlatZinc `array_int_element` has `first = 1`), posted as a
    /// table of the pairs `(first + i, array[i])`, or as [`Element`] (bounds of an interval `x` or `z`) when one
    /// of them is an interval.
    pub fn element(
        &mut self,
        x: VarId,
        first: i64,
        array: &[i64],
        z: VarId,
    ) -> Result<ConstraintId, ModelError> {
        const WHAT: &str = "element";
        if array.is_empty() {
            return Err(ModelError::EmptyArgument {
                what: WHAT,
                argument: "array values",
            });
        }
        if first.checked_add(array.len() as i64).is_none() {
            return Err(ModelError::Overflow {
                what: WHAT,
                detail: format!("index {first} + {}", array.len()),
                vars: Vec::new(),
            });
        }
        let (xr, zr) = (self.check(WHAT, x)?, self.check(WHAT, z)?);
        if self.is_interval(xr) || self.is_interval(zr) {
            return self.try_post(Element::new(xr, first, array.to_vec(), zr));
        }
        let tuples: Vec<Vec<i64>> = array
            .iter()
            .enumerate()
            .map(|(i, &a)| vec![first + i as i64, a])
            .collect();
        self.table(&[x, z], &tuples)
    }

    /// `z = array[x - first]` for an array of variables (FlatZinc `array_var_int_element`, `first = 1`).
    pub fn element_var(
        &mut self,
        x: VarId,
        first: i64,
        array: &[VarId],
        z: VarId,
    ) -> Result<ConstraintId, ModelError> {
        const WHAT: &str = "element_var";
        let items = self.check_all(WHAT, array)?;
        let (xr, zr) = (self.check(WHAT, x)?, self.check(WHAT, z)?);
        if items.is_empty() {
            return Err(ModelError::EmptyArgument {
                what: WHAT,
                argument: "array variables",
            });
        }
        if first.checked_add(items.len() as i64).is_none() {
            return Err(ModelError::Overflow {
                what: WHAT,
                detail: format!("index {first} + {}", items.len()),
                vars: Vec::new(),
            });
        }
        self.try_post(ElementVar::new(xr, first, &items, zr))
    }

    /// `n` = number of `xs` equal to `value` (FlatZinc `count_eq` with a constant): the dedicated propagator
    /// [`crate::constraints::Count`] (bounds of `n` from the members sure and able to take `value`).
    pub fn count(
        &mut self,
        xs: &[VarId],
        value: i64,
        n: VarId,
    ) -> Result<ConstraintId, ModelError> {
        let xs = self.check_all("count", xs)?;
        let n = self.check("count", n)?;
        self.try_post(Count::new(&xs, value, n).with_positions(&self.values))
    }

    /// `n` = number of `xs` equal to the variable `y` (FlatZinc `count_eq`): the dedicated propagator
    /// [`CountVar`]. When a member or `y` is an interval, the decomposition `b_i <-> (x_i = y)`, `sum b_i = n`
    /// (one new Boolean per `x_i`, bounds reasoning only) is posted instead.
    pub fn count_var(
        &mut self,
        xs: &[VarId],
        y: VarId,
        n: VarId,
    ) -> Result<ConstraintId, ModelError> {
        let members = self.check_all("count_var", xs)?;
        let (yr, nr) = (self.check("count_var", y)?, self.check("count_var", n)?);
        if members.iter().all(|&x| !self.is_interval(x)) && !self.is_interval(yr) {
            return self.try_post(CountVar::new(&members, yr, nr));
        }
        let mut terms = Vec::with_capacity(xs.len() + 1);
        for &x in xs {
            let b = self.new_bool()?;
            self.reify_linear(
                &[(1, x), (-1, y)],
                Relation::Eq,
                0,
                b,
                Reification::Equivalent,
            )?;
            terms.push((1, b));
        }
        terms.push((-1, n));
        self.linear(&terms, Relation::Eq, 0)
    }

    /// `counts[k]` = number of `xs` equal to `values[k]` (FlatZinc `global_cardinality`), one [`Model::count`]
    /// per value.
    pub fn global_cardinality(
        &mut self,
        xs: &[VarId],
        values: &[i64],
        counts: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        const WHAT: &str = "global_cardinality";
        if values.len() != counts.len() {
            return Err(ModelError::LengthMismatch {
                what: WHAT,
                expected: values.len(),
                got: counts.len(),
            });
        }
        if values.is_empty() {
            return Err(ModelError::EmptyArgument {
                what: WHAT,
                argument: "values",
            });
        }
        let mut last = None;
        for (&v, &c) in values.iter().zip(counts) {
            last = Some(self.count(xs, v, c)?);
        }
        last.ok_or(ModelError::EmptyArgument {
            what: WHAT,
            argument: "values",
        })
    }

    /// `f[i] = j + first <-> g[j] = i + first` for all `i`, `j` (FlatZinc `inverse`, `first = 1`): the dedicated
    /// propagator [`Inverse`] (arc consistency on each pair of the channel). With an interval among the
    /// variables, the decomposition instead: one Boolean per pair reified on both sides, plus `all_different` on
    /// each array.
    pub fn inverse(
        &mut self,
        f: &[VarId],
        g: &[VarId],
        first: i64,
    ) -> Result<ConstraintId, ModelError> {
        const WHAT: &str = "inverse";
        let fr = self.check_all(WHAT, f)?;
        let gr = self.check_all(WHAT, g)?;
        if f.len() != g.len() {
            return Err(ModelError::LengthMismatch {
                what: WHAT,
                expected: f.len(),
                got: g.len(),
            });
        }
        if first.checked_add(f.len() as i64).is_none() {
            return Err(ModelError::Overflow {
                what: WHAT,
                detail: format!("{first} + {}", f.len()),
                vars: Vec::new(),
            });
        }
        if fr.iter().chain(&gr).all(|&v| !self.is_interval(v)) {
            return self.try_post(Inverse::new(&fr, &gr, first));
        }
        for (i, &fi) in f.iter().enumerate() {
            for (j, &gj) in g.iter().enumerate() {
                let b = self.new_bool()?;
                self.reify_linear(
                    &[(1, fi)],
                    Relation::Eq,
                    first + j as i64,
                    b,
                    Reification::Equivalent,
                )?;
                self.reify_linear(
                    &[(1, gj)],
                    Relation::Eq,
                    first + i as i64,
                    b,
                    Reification::Equivalent,
                )?;
            }
        }
        for (i, &fi) in f.iter().enumerate() {
            // Values outside the index range have no partner.
            self.linear(&[(1, fi)], Relation::Ge, first)?;
            self.linear(&[(1, fi)], Relation::Le, first + f.len() as i64 - 1)?;
            self.linear(&[(1, g[i])], Relation::Ge, first)?;
            self.linear(&[(1, g[i])], Relation::Le, first + f.len() as i64 - 1)?;
        }
        self.all_different(f)?;
        self.all_different(g)
    }

    /// `xs <=_lex ys` (`strict = false`) or `xs <_lex ys` (FlatZinc `lex_lesseq` / `lex_less`).
    pub fn lex(
        &mut self,
        xs: &[VarId],
        ys: &[VarId],
        strict: bool,
    ) -> Result<ConstraintId, ModelError> {
        let (a, b) = (self.check_all("lex", xs)?, self.check_all("lex", ys)?);
        if a.len() != b.len() {
            return Err(ModelError::LengthMismatch {
                what: "lex",
                expected: a.len(),
                got: b.len(),
            });
        }
        self.try_post(Lex::new(&a, &b, strict))
    }

    /// The values of `xs`, read in order, form a word accepted by a deterministic automaton with states
    /// `0..states`, start state `start`, `transitions` `(from, symbol, to)` (a missing transition rejects) and
    /// accepting states `accepting` (FlatZinc `regular`, after shifting its 1-based states and dropping state 0).
    ///
    /// Error: [`ModelError::InvalidAutomaton`] for a state out of range or two transitions on one (state, symbol).
    pub fn regular(
        &mut self,
        xs: &[VarId],
        states: usize,
        start: usize,
        transitions: &[(usize, i64, usize)],
        accepting: &[usize],
    ) -> Result<ConstraintId, ModelError> {
        let vars = self.check_all("regular", xs)?;
        let bad = |detail: String| ModelError::InvalidAutomaton { detail };
        if start >= states {
            return Err(bad(format!(
                "start state {start} is not below the {states} states"
            )));
        }
        let mut symbols: Vec<i64> = transitions.iter().map(|t| t.1).collect();
        symbols.sort_unstable();
        symbols.dedup();
        let mut delta = vec![None; states * symbols.len()];
        for &(from, symbol, to) in transitions {
            if from >= states || to >= states {
                return Err(bad(format!(
                    "transition {from} --{symbol}--> {to} leaves the {states} states"
                )));
            }
            let k = symbols.binary_search(&symbol).unwrap_or(0);
            let slot = &mut delta[from * symbols.len() + k];
            if slot.is_some_and(|t| t as usize != to) {
                return Err(bad(format!(
                    "two transitions from state {from} on symbol {symbol}"
                )));
            }
            *slot = Some(to as u32);
        }
        let mut acc = vec![false; states];
        for &q in accepting {
            if q >= states {
                return Err(bad(format!(
                    "accepting state {q} is not below the {states} states"
                )));
            }
            acc[q] = true;
        }
        self.try_post(Regular::new(vars, states, start, symbols, delta, acc))
    }

    /// `xs` is a Hamiltonian circuit in successor form: `xs[i] = j + first` means node `j` follows node `i`
    /// (FlatZinc `circuit`, `first = 1`).
    pub fn circuit(&mut self, xs: &[VarId], first: i64) -> Result<ConstraintId, ModelError> {
        let vars = self.check_all("circuit", xs)?;
        if vars.is_empty() {
            return Err(ModelError::EmptyArgument {
                what: "circuit",
                argument: "successors",
            });
        }
        if first.checked_add(vars.len() as i64).is_none() {
            return Err(ModelError::Overflow {
                what: "circuit",
                detail: format!("{first} + {}", vars.len()),
                vars: Vec::new(),
            });
        }
        self.try_post(Circuit::new(vars, first, false))
    }

    /// `subcircuit` (FlatZinc `subcircuit`, `first = 1`): the nodes `i` with `xs[i] != i + first` form one
    /// circuit in successor form, the others point to themselves (no circuit at all is allowed).
    pub fn subcircuit(&mut self, xs: &[VarId], first: i64) -> Result<ConstraintId, ModelError> {
        let vars = self.check_all("subcircuit", xs)?;
        if vars.is_empty() {
            return Err(ModelError::EmptyArgument {
                what: "subcircuit",
                argument: "successors",
            });
        }
        if first.checked_add(vars.len() as i64).is_none() {
            return Err(ModelError::Overflow {
                what: "subcircuit",
                detail: format!("{first} + {}", vars.len()),
                vars: Vec::new(),
            });
        }
        self.try_post(Circuit::new(vars, first, true))
    }

    /// Freezes the model.
    pub fn build(mut self) -> Result<Problem, ModelError> {
        if let Some(e) = self.refused.take() {
            return Err(e);
        }
        let mut layout = Layout::default();
        for c in &mut self.constraints {
            c.place(&mut layout);
        }
        // Intervals have no bitset: the representation follows the widest bitset domain.
        let max_width = self
            .values
            .iter()
            .filter(|v| !v.is_interval())
            .map(Values::width)
            .max()
            .unwrap_or(1);
        let mut pairs = Vec::new();
        for (c, con) in self.constraints.iter().enumerate() {
            for (pos, &v) in con.vars().iter().enumerate() {
                pairs.push((v, (c as u32, pos as u32)));
            }
        }
        let occurrences = Csr::from_pairs(self.values.len(), &pairs);
        let max_table_arity = self
            .constraints
            .iter()
            .map(|c| c.scratch())
            .max()
            .unwrap_or(0);
        let max_work = self
            .constraints
            .iter()
            .map(|c| c.work_len(&self.values))
            .max()
            .unwrap_or(0);
        Ok(Problem {
            tag: self.tag,
            values: self.values,
            constraints: self.constraints,
            occurrences,
            max_width,
            max_table_arity,
            max_work,
            layout,
            neighbours: OnceLock::new(),
        })
    }
}

/// Which domain representation a problem runs on (chosen from its widest domain).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Representation {
    /// One `u64` per domain (widths up to 64).
    Word64,
    /// One `u128` per domain (widths up to 128).
    Word128,
    /// `bitvec` words (wider).
    Wide,
}

/// A frozen model: variables, their value tables, constraints and occurrence lists. `Send + Sync`.
#[derive(Debug)]
pub struct Problem {
    tag: u32,
    /// `values[v]` = value table of variable `v`.
    pub(crate) values: Vec<Values>,
    /// Constraints in posting order.
    pub(crate) constraints: Vec<Box<dyn Posted>>,
    /// `occurrences.row(v)` = `(constraint, position in its scope)` for every occurrence of `v`.
    pub(crate) occurrences: Csr<(u32, u32)>,
    /// Widest domain.
    pub(crate) max_width: usize,
    /// Most scratch domains one constraint needs (the longest table scope).
    pub(crate) max_table_arity: usize,
    /// Most scratch indexes one constraint borrows per call ([`crate::constraints::Constraint::work_len`]).
    pub(crate) max_work: usize,
    /// Where constraints keep their trailed words (see [`crate::trailed`]).
    layout: Layout,
    /// `neighbours.row(v)` = the distinct variables other than `v` sharing a constraint with `v`, ascending. Built
    /// on first use (only the degree heuristic needs it; it is quadratic in the size of large groups).
    neighbours: OnceLock<Csr<u32>>,
}

impl Problem {
    /// A fresh trailed store for one search on representation `D`, in its initial state.
    pub(crate) fn trailed<D: Domain>(&self) -> Trailed<D::W> {
        let l = &self.layout;
        let mut doms = vec![D::W::ZERO; l.doms];
        for c in &self.constraints {
            D::view(&**c).init_trailed(&mut doms);
        }
        Trailed::new(l.words.clone(), doms, l.free.clone(), l.tmp)
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.values.len()
    }

    /// Number of constraints.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// The neighbour lists: `row(v)` holds every other variable sharing at least one constraint with `v`, once
    /// each, ascending. Computed on the first call and shared by every solver of this problem.
    pub fn neighbours(&self) -> &Csr<u32> {
        self.neighbours.get_or_init(|| {
            let n = self.values.len();
            // seen[u] == v + 1 marks u as already listed for v: deduplication without sorting or hashing.
            let mut seen = vec![0u32; n];
            let mut pairs = Vec::new();
            for v in 0..n as u32 {
                let first = pairs.len();
                for &(c, _) in self.occurrences.row(v) {
                    for &u in self.constraints[c as usize].vars() {
                        if u != v && seen[u as usize] != v + 1 {
                            seen[u as usize] = v + 1;
                            pairs.push((v, u));
                        }
                    }
                }
                pairs[first..].sort_unstable();
            }
            Csr::from_pairs(n, &pairs)
        })
    }

    /// The representation searches on this problem use.
    pub fn representation(&self) -> Representation {
        if self.max_width <= 64 {
            Representation::Word64
        } else if self.max_width <= 128 {
            Representation::Word128
        } else {
            Representation::Wide
        }
    }

    /// The variable with creation index `index`, if it exists.
    pub fn var(&self, index: usize) -> Option<VarId> {
        (index < self.values.len()).then(|| VarId::new(index as u32, self.tag))
    }

    /// All values variable `x` can take initially, ascending ([`ModelError::NeedsEnumerable`] for an interval:
    /// see [`Problem::initial_bounds`]).
    pub fn domain_values(&self, x: VarId) -> Result<Vec<i64>, ModelError> {
        let v = self.check_var("domain_values", x)?;
        let vals = &self.values[v as usize];
        if vals.is_interval() {
            return Err(ModelError::NeedsEnumerable {
                what: "domain_values",
                var: v as usize,
                max: MAX_DOMAIN_WIDTH,
            });
        }
        Ok((0..vals.width()).map(|i| vals.value(i)).collect())
    }

    /// The smallest and largest initial value of `x`.
    pub fn initial_bounds(&self, x: VarId) -> Result<(i64, i64), ModelError> {
        let v = self.check_var("initial_bounds", x)?;
        let vals = &self.values[v as usize];
        Ok((vals.min(), vals.max()))
    }

    /// True when some variable is an interval (bounds) domain.
    pub fn has_intervals(&self) -> bool {
        self.values.iter().any(Values::is_interval)
    }

    /// `interval[v]` = variable `v` is an interval (the state's layout).
    pub(crate) fn interval_flags(&self) -> Vec<bool> {
        self.values.iter().map(Values::is_interval).collect()
    }

    pub(crate) fn check_var(&self, what: &'static str, x: VarId) -> Result<u32, ModelError> {
        if x.model() != self.tag || x.index() >= self.values.len() {
            return Err(ModelError::ForeignVariable {
                what,
                var: x.index(),
            });
        }
        Ok(x.raw())
    }

    /// Checks assumptions the way a solve would use them, with a precise error for the first bad one.
    ///
    /// (A solve itself reports a bad assumption as `Outcome::Unsatisfiable`; call this to learn why.)
    pub fn check_assumptions(&self, assumptions: &[(VarId, i64)]) -> Result<(), ModelError> {
        for &(x, value) in assumptions {
            let v = self.check_var("assumption", x)?;
            let vals = &self.values[v as usize];
            if vals.index_of(value).is_none() {
                return Err(ModelError::AssumptionOutsideDomain {
                    var: v as usize,
                    value,
                    min: vals.min(),
                    max: vals.max(),
                });
            }
        }
        Ok(())
    }

    /// True when `values` (one per variable, in creation order) lie in their domains and satisfy every constraint.
    ///
    /// A brute-force check independent of propagation, for tests and verification.
    pub fn is_solution(&self, values: &[i64]) -> bool {
        if values.len() != self.values.len() {
            return false;
        }
        if values
            .iter()
            .zip(&self.values)
            .any(|(&x, vals)| vals.index_of(x).is_none())
        {
            return false;
        }
        let value_of = |v: u32| values[v as usize];
        self.constraints.iter().all(|c| c.is_satisfied(&value_of))
    }

    /// Indexes of the constraints violated by a full assignment (empty for a solution).
    pub fn violated(&self, values: &[i64]) -> Vec<ConstraintId> {
        if values.len() != self.values.len() {
            return Vec::new();
        }
        let value_of = |v: u32| values[v as usize];
        (0..self.constraints.len())
            .filter(|&c| !self.constraints[c].is_satisfied(&value_of))
            .map(|c| ConstraintId(c as u32))
            .collect()
    }
}
