//! `linear`: `sum a_i x_i (<= | = | >=) rhs`, with bounds propagation.
//!
//! Every relation is stored as one or two "at most" views `sum b_i x_i <= r` (`>=` negates, `=` keeps both).
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
}

impl Linear {
    /// Builds the constraint; the caller has checked overflow.
    pub fn new(vars: Vec<u32>, coefs: Vec<i64>, rel: Relation, rhs: i64) -> Self {
        let views = match rel {
            Relation::Le => vec![(1, rhs)],
            Relation::Ge => vec![(-1, -rhs)],
            Relation::Eq => vec![(1, rhs), (-1, -rhs)],
        };
        Self {
            vars,
            coefs,
            rel,
            rhs,
            views,
        }
    }

    /// Brute force.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let sum: i128 = self
            .vars
            .iter()
            .zip(&self.coefs)
            .map(|(&v, &a)| a as i128 * value_of(v) as i128)
            .sum();
        match self.rel {
            Relation::Eq => sum == self.rhs as i128,
            Relation::Le => sum <= self.rhs as i128,
            Relation::Ge => sum >= self.rhs as i128,
        }
    }

    /// Bounds propagation on every view.
    pub fn propagate<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        for &(sign, r) in &self.views {
            self.propagate_view(st, values, sign, r)?;
        }
        Ok(())
    }

    fn term_min<D: Domain>(st: &State<D>, values: &[Values], b: i64, v: u32) -> i64 {
        let d = st.dom(v);
        let vals = &values[v as usize];
        if b > 0 {
            b * vals.value(d.first().unwrap_or(0))
        } else {
            b * vals.value(d.last().unwrap_or(0))
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
        Some(super::Trigger::Bounds)
    }
}

impl<D: Domain> super::Propagate<D> for Linear {
    #[inline]
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        Linear::propagate(self, st, values)
    }
}
