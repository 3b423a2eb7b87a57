//! Boolean constraints on 0/1 variables: clauses (`or` of literals) and parity (`xor`).
//!
//! Booleans are ordinary variables with the domain `{0, 1}` (one bit pair in a one-word bitset, so they cost what
//! a 2-value integer costs); the posting methods check the domains. `and`, `or`, `not`, equivalence and their
//! reified forms are posted as clauses or linear constraints (see [`crate::Model::bool_and`] and its siblings).
//!
//! From forward checking up, the engine propagates clauses by two watched literals (`propagate/clauses.rs`):
//! a clause is visited only when one of its two watched literals becomes false. The scan below (one true literal
//! satisfies the clause, no open literal left fails it, one open literal left is set true) is the clause's
//! `propagate` for other callers: the engine never runs it (watches cover the root, place-then-check only checks).

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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::constraints::check_ground;

    /// Four Booleans with `fixed` (variable, value) assigned, then `f` on the state: each variable's value when
    /// fixed afterwards (`None` while open), or `None` when `f` failed.
    fn after(
        fixed: &[(u32, usize)],
        f: impl Fn(&mut State<u64>, &[Values]) -> Result<(), Conflict>,
    ) -> Option<Vec<Option<usize>>> {
        let values = vec![Values::Range { min: 0, width: 2 }; 4];
        let mut st: State<u64> = State::new(&[2; 4]);
        for &(v, x) in fixed {
            st.assign(v, x).unwrap();
        }
        f(&mut st, &values).ok()?;
        Some(
            (0..4)
                .map(|v| st.is_fixed(v).then(|| st.min_pos(v)))
                .collect(),
        )
    }

    /// The engine watches a clause's literals (`propagate/clauses.rs`) and never calls this scan; it is the
    /// clause's `Propagate` for any other caller, so it must be right on its own.
    #[test]
    fn a_clause_scan_sets_the_last_open_literal_true_fails_with_none_and_waits_while_two_are_open()
    {
        // x0 or x1 or not x2 (x3 is not in the clause).
        let clause = Clause::new(vec![0, 1], vec![2]);
        assert_eq!(
            clause.literals().collect::<Vec<_>>(),
            [(0, true), (1, true), (2, false)]
        );
        let scan = |fixed: &[(u32, usize)]| {
            after(fixed, |st, values| {
                Propagate::<u64>::propagate(&clause, st, values)
            })
        };
        let open = None;
        assert_eq!(scan(&[]), Some(vec![open; 4]));
        assert_eq!(scan(&[(0, 0)]), Some(vec![Some(0), open, open, open]));
        // The last open literal is made true: a positive one takes 1, a negative one 0.
        assert_eq!(
            scan(&[(0, 0), (1, 0)]),
            Some(vec![Some(0), Some(0), Some(0), open])
        );
        assert_eq!(
            scan(&[(0, 0), (2, 1)]),
            Some(vec![Some(0), Some(1), Some(1), open])
        );
        assert_eq!(
            scan(&[(1, 0), (2, 1)]),
            Some(vec![Some(1), Some(0), Some(1), open])
        );
        // A true literal satisfies the clause, whatever is open.
        assert_eq!(scan(&[(1, 1)]), Some(vec![open, Some(1), open, open]));
        assert_eq!(
            scan(&[(2, 0), (3, 1)]),
            Some(vec![open, open, Some(0), Some(1)])
        );
        assert_eq!(scan(&[(0, 0), (1, 0), (2, 0)]).map(|_| ()), Some(()));
        // Every literal false: a conflict.
        assert_eq!(scan(&[(0, 0), (1, 0), (2, 1)]), None);
    }

    /// Place-then-check (`Propagation::None`) checks a constraint once every variable of its scope is fixed: a
    /// clause whose scope missed a literal would be checked early, on the open literal's smallest value.
    #[test]
    fn a_clause_is_checked_only_once_every_literal_is_fixed() {
        let clause = Clause::new(vec![0, 1, 2], vec![]);
        assert_eq!(Constraint::vars(&clause), [0, 1, 2]);
        let check = |fixed: &[(u32, usize)]| {
            after(fixed, |st, values| check_ground(&clause, st, values)).is_some()
        };
        assert!(check(&[]));
        assert!(check(&[(0, 0)]));
        assert!(check(&[(0, 0), (1, 0)]));
        assert!(!check(&[(0, 0), (1, 0), (2, 0)]));
        assert!(check(&[(0, 0), (1, 0), (2, 1)]));
    }

    /// A constraint's name reaches users when it refuses an interval variable (it needs enumerable domains).
    #[test]
    fn a_clause_or_an_xor_over_an_interval_boolean_is_refused_by_its_name() {
        let mut m = crate::model::Model::new();
        let b = m.new_interval_var(0, 1).unwrap();
        let refused = |e: crate::model::ModelError| match e {
            crate::model::ModelError::NeedsEnumerable { what, .. } => what,
            other => panic!("{other}"),
        };
        assert_eq!(refused(m.clause(&[b], &[]).unwrap_err()), "clause");
        assert_eq!(refused(m.bool_xor(&[b], true).unwrap_err()), "xor");
    }
}
