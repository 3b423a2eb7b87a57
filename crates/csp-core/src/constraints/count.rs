//! `count`: `n` = the number of `xs` equal to the constant `value` (FlatZinc `count_eq` with a constant; each
//! value of `global_cardinality` is one of these).
//!
//! With `sure` = members fixed to `value` and `maybe` = members whose domain still holds it, `n` lies in
//! `[sure, maybe]`; when `n` can only be `maybe` every member that may take `value` must, and when it can only be
//! `sure` no open member may. One pass over the scope per call, no allocation, no auxiliary variables (the
//! decomposition it replaces added one Boolean and one reified equality per member). Reads domains through the
//! value helpers only, so members and `n` may be intervals (a member then loses `value` only at a bound).

use super::util::{has, hi, lo, remove_value, set_max, set_min, set_value};
use super::{Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// `vars = [xs.., n]`: `n = |{i : xs[i] = value}|`.
#[derive(Clone, Debug)]
pub struct Count {
    vars: Vec<u32>,
    value: i64,
}

impl Count {
    /// `n` counts the `xs` equal to `value`.
    pub fn new(xs: &[u32], value: i64, n: u32) -> Self {
        let mut vars = xs.to_vec();
        vars.push(n);
        Self { vars, value }
    }

    fn split(&self) -> (&[u32], u32) {
        let (xs, n) = self.vars.split_at(self.vars.len() - 1);
        (xs, n[0])
    }
}

impl Constraint for Count {
    fn name(&self) -> &'static str {
        "count"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let (xs, n) = self.split();
        let c = xs.iter().filter(|&&x| value_of(x) == self.value).count();
        c as i64 == value_of(n)
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Domain)
    }
    fn cost(&self) -> Cost {
        Cost::Linear
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> Propagate<D> for Count {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let (xs, n) = self.split();
        let c = self.value as i128;
        let (mut sure, mut maybe) = (0i128, 0i128);
        for &x in xs {
            if has(st, values, x, c) {
                maybe += 1;
                if st.is_fixed(x) {
                    sure += 1;
                }
            }
        }
        set_min(st, values, n, sure)?;
        set_max(st, values, n, maybe)?;
        let (nl, nh) = (lo(st, values, n) as i128, hi(st, values, n) as i128);
        if nl == maybe && sure < maybe {
            for &x in xs {
                if !st.is_fixed(x) && has(st, values, x, c) {
                    set_value(st, values, x, c)?;
                }
            }
        } else if nh == sure && sure < maybe {
            for &x in xs {
                if !st.is_fixed(x) {
                    remove_value(st, values, x, c)?;
                }
            }
        }
        Ok(())
    }
}
