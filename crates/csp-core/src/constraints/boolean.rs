//! Boolean constraints on 0/1 variables: clauses (`or` of literals) and parity (`xor`).
//!
//! Booleans are ordinary variables with the domain `{0, 1}` (one bit pair in a one-word bitset, so they cost what
//! a 2-value integer costs); the posting methods check the domains. `and`, `or`, `not`, equivalence and their
//! reified forms are posted as clauses or linear constraints (see [`crate::Model::bool_and`] and its siblings).
//!
//! From forward checking up, the engine propagates clauses by two watched literals (`propagate/clauses.rs`):
//! a clause is visited only when one of its two watched literals becomes false. The scan below (one true literal
//! satisfies the clause, no open literal left fails it, one open literal left is set true) is the clause's
//! `propagate`, run at the root for the clauses that start unit or failed, and by place-then-check searches.

use super::util::{lo, set_value};
use super::{Constraint, Propagate, Propagation, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// `x_1 or ... or x_p or not y_1 or ... or not y_n`: `vars = [x.., y..]`, the first `positive` are the `x`.
#[derive(Clone, Debug)]
pub struct Clause {
    vars: Vec<u32>,
    positive: usize,
}

impl Clause {
    /// The clause with positive literals `pos` and negative literals `neg`.
    pub fn new(pos: Vec<u32>, neg: Vec<u32>) -> Self {
        let positive = pos.len();
        let mut vars = pos;
        vars.extend(neg);
        Self { vars, positive }
    }
}

impl Clause {
    /// The literals `(variable, positive)`, positive ones first.
    pub fn literals(&self) -> impl Iterator<Item = (u32, bool)> + '_ {
        self.vars
            .iter()
            .enumerate()
            .map(|(k, &v)| (v, k < self.positive))
    }
}

impl Constraint for Clause {
    fn name(&self) -> &'static str {
        "clause"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        self.vars
            .iter()
            .enumerate()
            .any(|(k, &v)| (value_of(v) != 0) == (k < self.positive))
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Fixed)
    }
}

impl<D: Domain> Propagate<D> for Clause {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let mut open = None;
        for (k, &v) in self.vars.iter().enumerate() {
            if st.is_fixed(v) {
                if (lo(st, values, v) != 0) == (k < self.positive) {
                    return Ok(());
                }
            } else if open.is_some() {
                return Ok(());
            } else {
                open = Some(k);
            }
        }
        match open {
            None => Err(st.conflict()),
            Some(k) => set_value(st, values, self.vars[k], i128::from(k < self.positive)),
        }
    }
}

/// `x_1 xor ... xor x_n = odd`: the number of true variables is odd (`odd`) or even.
#[derive(Clone, Debug)]
pub struct Parity {
    vars: Vec<u32>,
    odd: bool,
}

impl Parity {
    /// Odd (`odd = true`) or even number of true variables among `vars`.
    pub fn new(vars: Vec<u32>, odd: bool) -> Self {
        Self { vars, odd }
    }
}

impl Constraint for Parity {
    fn name(&self) -> &'static str {
        "xor"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let trues = self.vars.iter().filter(|&&v| value_of(v) != 0).count();
        (trues % 2 == 1) == self.odd
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Fixed)
    }
}

impl<D: Domain> Propagate<D> for Parity {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let mut open = None;
        let mut odd = false;
        for &v in &self.vars {
            if st.is_fixed(v) {
                odd ^= lo(st, values, v) != 0;
            } else if open.is_some() {
                return Ok(());
            } else {
                open = Some(v);
            }
        }
        match open {
            None if odd == self.odd => Ok(()),
            None => Err(st.conflict()),
            Some(v) => set_value(st, values, v, i128::from(odd != self.odd)),
        }
    }
}
