//! Reified and half-reified linear relations: `b <-> (sum a_i x_i rel rhs)` and `b -> (sum a_i x_i rel rhs)`.
//!
//! One propagator covers every reified comparison the issue lists: `x = c`, `x <= c` (one term), `x = y`,
//! `x <= y`, `x != y` (two terms `x - y`), and any linear relation. From the bounds `[lo, hi]` of the sum it
//! decides entailment (the relation holds for every assignment left) and disentailment (for none); a one-term
//! `=` / `!=` also looks at the domain (`x = c` is disentailed as soon as `c` leaves `dom(x)`). Then:
//! - `b` fixed to 1: the relation is enforced ([`super::linear::enforce`]);
//! - `b` fixed to 0: the negation is enforced (full reification only);
//! - relation entailed: `b = 1` (full reification only); disentailed: `b = 0`.
//!
//! `b` is a 0/1 variable (checked when posting). Gecode's `Reify` with `RM_EQV` / `RM_IMP` is the model.

use super::linear::{enforce, sum_bounds};
use super::util::{has, set_value};
use super::{Constraint, Cost, Propagate, Propagation, Relation, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// Equivalence (`b <-> c`) or implication (`b -> c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reification {
    /// `b <-> c`: `b` is 1 exactly when the relation holds.
    Equivalent,
    /// `b -> c` (half reification): the relation holds when `b` is 1; nothing is said when `b` is 0.
    Implies,
}

/// `b <-> / -> (sum coefs_i vars_i rel rhs)`; `vars` ends with `b`.
#[derive(Clone, Debug)]
pub struct ReifiedLinear {
    /// The terms' variables, then `b` last.
    vars: Vec<u32>,
    /// One coefficient per term (zero coefficients dropped).
    coefs: Vec<i64>,
    rel: Relation,
    rhs: i64,
    mode: Reification,
}

impl ReifiedLinear {
    /// Builds the constraint; the caller checked `b` is Boolean and that the extreme sums fit `i64`.
    pub fn new(
        terms: Vec<u32>,
        coefs: Vec<i64>,
        rel: Relation,
        rhs: i64,
        b: u32,
        mode: Reification,
    ) -> Self {
        let mut vars = terms;
        vars.push(b);
        Self {
            vars,
            coefs,
            rel,
            rhs,
            mode,
        }
    }

    fn terms(&self) -> &[u32] {
        &self.vars[..self.vars.len() - 1]
    }

    fn b(&self) -> u32 {
        self.vars[self.vars.len() - 1]
    }

    /// `Some(true)`: holds for every assignment left; `Some(false)`: for none; `None`: open.
    fn status<D: Domain>(&self, st: &State<D>, values: &[Values]) -> Option<bool> {
        let (lo, hi) = sum_bounds(st, values, self.terms(), &self.coefs);
        let r = self.rhs as i128;
        let one_term = self.coefs.len() == 1;
        let eq_possible = || {
            if r < lo || r > hi {
                return false;
            }
            if one_term {
                let a = self.coefs[0] as i128;
                return r % a == 0 && has(st, values, self.terms()[0], r / a);
            }
            true
        };
        match self.rel {
            Relation::Le if hi <= r => Some(true),
            Relation::Le if lo > r => Some(false),
            Relation::Ge if lo >= r => Some(true),
            Relation::Ge if hi < r => Some(false),
            Relation::Eq | Relation::Ne => {
                let holds_eq = if !eq_possible() {
                    Some(false)
                } else if lo == hi {
                    Some(true)
                } else {
                    None
                };
                if self.rel == Relation::Eq {
                    holds_eq
                } else {
                    holds_eq.map(|h| !h)
                }
            }
            _ => None,
        }
    }
}

impl Constraint for ReifiedLinear {
    fn name(&self) -> &'static str {
        match self.mode {
            Reification::Equivalent => "linear_reif",
            Reification::Implies => "linear_imp",
        }
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let sum: i128 = self
            .terms()
            .iter()
            .zip(&self.coefs)
            .map(|(&v, &a)| a as i128 * value_of(v) as i128)
            .sum();
        let holds = self.rel.holds(sum, self.rhs as i128);
        let b = value_of(self.b()) != 0;
        match self.mode {
            Reification::Equivalent => b == holds,
            Reification::Implies => !b || holds,
        }
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(match self.rel {
            Relation::Le | Relation::Ge => Trigger::Bounds,
            Relation::Eq | Relation::Ne => Trigger::Domain,
        })
    }
    fn cost(&self) -> Cost {
        if self.coefs.len() <= 2 {
            Cost::Cheap
        } else {
            Cost::Linear
        }
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> Propagate<D> for ReifiedLinear {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let b = self.b();
        let r = self.rhs as i128;
        if st.is_fixed(b) {
            if super::util::lo(st, values, b) != 0 {
                return enforce(st, values, self.terms(), &self.coefs, self.rel, r);
            }
            if self.mode == Reification::Equivalent {
                let neg = self.rel.negated();
                let nr = self.rel.rhs_of_negation(r);
                return enforce(st, values, self.terms(), &self.coefs, neg, nr);
            }
            return Ok(());
        }
        match self.status(st, values) {
            Some(true) if self.mode == Reification::Equivalent => set_value(st, values, b, 1),
            Some(false) => set_value(st, values, b, 0),
            _ => Ok(()),
        }
    }
}
