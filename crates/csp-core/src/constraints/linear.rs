//! `linear`: `sum a_i x_i (<= | = | >= | !=) rhs`, with bounds propagation.
//!
//! Every inequality is stored as one or two "at most" views `sum b_i x_i <= r` (`>=` negates, `=` keeps both);
//! `!=` waits until one term is open and removes the one value that would complete the sum.
//! For a view, `L = sum of the smallest term values`; `L > r` fails, and each term may grow by at most `r - L`, which
//! bounds its variable from above (`b > 0`) or below (`b < 0`). The model rejects posts whose extreme sums overflow
//! `i64`, so this arithmetic cannot overflow.

use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// Comparison of a linear constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `sum == rhs`.
    Eq,
    /// `sum <= rhs`.
    Le,
    /// `sum >= rhs`.
    Ge,
    /// `sum != rhs`.
    Ne,
}

impl Relation {
    /// The relation that holds exactly when this one does not.
    pub fn negated(self) -> Self {
        match self {
            Relation::Eq => Relation::Ne,
            Relation::Ne => Relation::Eq,
            // not (s <= r) = s >= r + 1 and the reverse: handled by `rhs_of_negation`.
            Relation::Le => Relation::Ge,
            Relation::Ge => Relation::Le,
        }
    }

    /// The right-hand side of the negation of `sum rel rhs` (`i128`: `rhs + 1` may leave `i64`).
    pub fn rhs_of_negation(self, rhs: i128) -> i128 {
        match self {
            Relation::Eq | Relation::Ne => rhs,
            Relation::Le => rhs + 1,
            Relation::Ge => rhs - 1,
        }
    }

    /// `sum rel rhs` on numbers.
    pub fn holds(self, sum: i128, rhs: i128) -> bool {
        match self {
            Relation::Eq => sum == rhs,
            Relation::Ne => sum != rhs,
            Relation::Le => sum <= rhs,
            Relation::Ge => sum >= rhs,
        }
    }
}

/// A linear (in)equality.
#[derive(Clone, Debug)]
pub struct Linear {
    /// Scope (one entry per term).
    pub vars: Vec<u32>,
    /// Coefficients as posted (zero coefficients dropped).
    pub coefs: Vec<i64>,
    /// The relation.
    pub rel: Relation,
    /// Right-hand side.
    pub rhs: i64,
    /// "At most" views: coefficient signs (`+1` as posted, `-1` negated) with their bound.
    views: Vec<(i64, i64)>,
    /// `!=` over some interval variable: the value to remove from the last open term can only go once it is one of
    /// its bounds, so the rule wakes on bounds changes, not only on assignments.
    wake_on_bounds: bool,
}

impl Linear {
    /// Builds the constraint; the caller has checked overflow.
    pub fn new(vars: Vec<u32>, coefs: Vec<i64>, rel: Relation, rhs: i64) -> Self {
        let views = match rel {
            Relation::Le => vec![(1, rhs)],
            Relation::Ge => vec![(-1, -rhs)],
            Relation::Eq => vec![(1, rhs), (-1, -rhs)],
            Relation::Ne => Vec::new(),
        };
        Self {
            vars,
            coefs,
            rel,
            rhs,
            views,
            wake_on_bounds: false,
        }
    }

    /// The same constraint, woken by bounds changes even for `!=` (the model sets it when a term is an interval).
    pub fn waking_on_bounds(mut self) -> Self {
        self.wake_on_bounds = true;
        self
    }

    /// Brute force.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let sum: i128 = self
            .vars
            .iter()
            .zip(&self.coefs)
            .map(|(&v, &a)| a as i128 * value_of(v) as i128)
            .sum();
        self.rel.holds(sum, self.rhs as i128)
    }

    /// Bounds propagation on every view.
    pub fn propagate<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        if self.rel == Relation::Ne {
            return not_equal(st, values, &self.vars, &self.coefs, self.rhs as i128);
        }
        for &(sign, r) in &self.views {
            self.propagate_view(st, values, sign, r)?;
        }
        Ok(())
    }

    fn term_min<D: Domain>(st: &State<D>, values: &[Values], b: i64, v: u32) -> i64 {
        let vals = &values[v as usize];
        if b > 0 {
            b * vals.value(st.min_pos(v))
        } else {
            b * vals.value(st.max_pos(v))
        }
    }

    fn propagate_view<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        sign: i64,
        r: i64,
    ) -> Result<(), Conflict> {
        let mut low = 0i64;
        for (&v, &a) in self.vars.iter().zip(&self.coefs) {
            low += Self::term_min(st, values, sign * a, v);
        }
        if low > r {
            return Err(st.conflict());
        }
        for (&v, &a) in self.vars.iter().zip(&self.coefs) {
            let b = sign * a;
            let cap = r - (low - Self::term_min(st, values, b, v));
            let vals = &values[v as usize];
            if b > 0 {
                let max = cap.div_euclid(b);
                st.restrict(v, 0, vals.count_le(max))?;
            } else {
                let min = -(cap.div_euclid(-b));
                st.restrict(v, vals.first_index_ge(min), vals.width())?;
            }
        }
        Ok(())
    }
}

/// `sum a_i x_i != rhs`: with every term but one fixed, removes the value that would complete the sum; with every
/// term fixed, fails on equality.
pub(crate) fn not_equal<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    vars: &[u32],
    coefs: &[i64],
    rhs: i128,
) -> Result<(), Conflict> {
    let mut open = None;
    let mut sum: i128 = 0;
    for (k, &v) in vars.iter().enumerate() {
        if st.is_fixed(v) {
            sum += coefs[k] as i128 * super::util::lo(st, values, v) as i128;
        } else if open.is_some() {
            return Ok(());
        } else {
            open = Some(k);
        }
    }
    match open {
        None if sum == rhs => Err(st.conflict()),
        None => Ok(()),
        Some(k) => {
            let rest = rhs - sum;
            let a = coefs[k] as i128;
            if rest % a == 0 {
                super::util::remove_value(st, values, vars[k], rest / a)?;
            }
            Ok(())
        }
    }
}

/// Enforces `sum a_i x_i rel rhs` once (bounds for `<=`, `>=`, `=`; the last open term for `!=`), for the
/// reified forms. `rhs` is `i128` because a negated relation moves it by one.
pub(crate) fn enforce<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    vars: &[u32],
    coefs: &[i64],
    rel: Relation,
    rhs: i128,
) -> Result<(), Conflict> {
    let at_most = |st: &mut State<D>, sign: i128, r: i128| -> Result<(), Conflict> {
        let mut low: i128 = 0;
        for (&v, &a) in vars.iter().zip(coefs) {
            low += term_min(st, values, sign * a as i128, v);
        }
        if low > r {
            return Err(st.conflict());
        }
        for (&v, &a) in vars.iter().zip(coefs) {
            let b = sign * a as i128;
            let cap = r - (low - term_min(st, values, b, v));
            if b > 0 {
                super::util::set_max(st, values, v, cap.div_euclid(b))?;
            } else {
                super::util::set_min(st, values, v, -(cap.div_euclid(-b)))?;
            }
        }
        Ok(())
    };
    match rel {
        Relation::Le => at_most(st, 1, rhs),
        Relation::Ge => at_most(st, -1, -rhs),
        Relation::Eq => {
            at_most(st, 1, rhs)?;
            at_most(st, -1, -rhs)
        }
        Relation::Ne => not_equal(st, values, vars, coefs, rhs),
    }
}

/// Smallest value of the term `b * x`.
fn term_min<D: Domain>(st: &State<D>, values: &[Values], b: i128, v: u32) -> i128 {
    if b > 0 {
        b * super::util::lo(st, values, v) as i128
    } else {
        b * super::util::hi(st, values, v) as i128
    }
}

/// Smallest and largest value of `sum a_i x_i` over the current bounds.
pub(crate) fn sum_bounds<D: Domain>(
    st: &State<D>,
    values: &[Values],
    vars: &[u32],
    coefs: &[i64],
) -> (i128, i128) {
    let (mut lo, mut hi) = (0i128, 0i128);
    for (&v, &a) in vars.iter().zip(coefs) {
        lo += term_min(st, values, a as i128, v);
        hi -= term_min(st, values, -(a as i128), v);
    }
    (lo, hi)
}

impl super::Constraint for Linear {
    fn name(&self) -> &'static str {
        "linear"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        Linear::is_satisfied(self, value_of)
    }
    fn trigger(&self, _level: super::Propagation) -> Option<super::Trigger> {
        Some(if self.rel == Relation::Ne && !self.wake_on_bounds {
            super::Trigger::Fixed
        } else {
            super::Trigger::Bounds
        })
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> super::Propagate<D> for Linear {
    #[inline]
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        Linear::propagate(self, st, values)
    }
}
