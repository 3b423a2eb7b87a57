//! `count`: `n` = the number of `xs` equal to the constant `value` (FlatZinc `count_eq` with a constant; each
//! value of `global_cardinality` is one of these), and [`CountVar`] for a variable value.
//!
//! With `sure` = members fixed to `value` and `maybe` = members whose domain still holds it, `n` lies in
//! `[sure, maybe]`; when `n` can only be `maybe` every member that may take `value` must, and when it can only be
//! `sure` no open member may. One pass over the scope per call, no allocation, no auxiliary variables (the
//! decomposition it replaces added one Boolean and one reified equality per member). Reads domains through the
//! value helpers only, so members and `n` may be intervals (a member then loses `value` only at a bound).

use super::util::{
    give_order, has, hi, lo, meet, remove_positions, remove_value, set_max, set_min, set_value,
    take_order, widest,
};
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

/// `vars = [xs.., y, n]`: `n = |{i : xs[i] = y}|` (FlatZinc `count_eq` with a variable value).
///
/// With `sure` = members fixed equal to a fixed `y`, and `maybe` = members whose domain meets `dom(y)`, `n` lies in
/// `[sure, maybe]`. When `n` can only be `maybe`, each open member able to equal `y` must: the two domains are
/// intersected; when it can only be `sure`, each such member differs from `y` (a value leaves the open side once
/// the other side is fixed). A value `w` of `y` stays only while the members fixed to `w` and those holding `w`
/// bracket a possible `n`. The decomposition it replaces (one Boolean `b_i <-> x_i = y` per member and a sum)
/// saw only bounds for `x_i = y`; this reads domains, so it removes at least what that did. Bitset domains only
/// (the model keeps the decomposition when a member or `y` is an interval); `n` may be an interval.
#[derive(Clone, Debug)]
pub struct CountVar {
    vars: Vec<u32>,
}

impl CountVar {
    /// `n` counts the `xs` equal to `y`.
    pub fn new(xs: &[u32], y: u32, n: u32) -> Self {
        let mut vars = xs.to_vec();
        vars.push(y);
        vars.push(n);
        Self { vars }
    }

    fn split(&self) -> (&[u32], u32, u32) {
        let k = self.vars.len();
        (&self.vars[..k - 2], self.vars[k - 2], self.vars[k - 1])
    }

    /// The filtering of `propagate`, with `drop` (empty) for the positions one variable loses.
    fn filter<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        drop: &mut Vec<u32>,
    ) -> Result<(), Conflict> {
        let (xs, y, n) = self.split();
        let y_fixed = st.is_fixed(y);
        let (mut sure, mut maybe) = (0i128, 0i128);
        for &x in xs {
            if meet(st, values, x, y) {
                maybe += 1;
                if y_fixed && st.is_fixed(x) {
                    sure += 1;
                }
            }
        }
        set_min(st, values, n, sure)?;
        set_max(st, values, n, maybe)?;
        let (nl, nh) = (lo(st, values, n) as i128, hi(st, values, n) as i128);
        if sure < maybe && (nl == maybe || nh == sure) {
            let equal = nl == maybe;
            for &x in xs {
                if (y_fixed && st.is_fixed(x)) || !meet(st, values, x, y) {
                    continue;
                }
                if equal {
                    // x = y: each keeps the values of the other.
                    keep_common(st, values, x, y, drop)?;
                    keep_common(st, values, y, x, drop)?;
                } else if y_fixed {
                    remove_value(st, values, x, lo(st, values, y) as i128)?;
                } else if st.is_fixed(x) {
                    remove_value(st, values, y, lo(st, values, x) as i128)?;
                }
            }
        }
        // Values of y whose count cannot be n.
        let (nl, nh) = (lo(st, values, n) as i128, hi(st, values, n) as i128);
        let vy = &values[y as usize];
        drop.extend(
            st.dom(y)
                .iter()
                .filter(|&p| {
                    let w = vy.value(p) as i128;
                    let (mut fixed, mut able) = (0i128, 0i128);
                    for &x in xs {
                        if has(st, values, x, w) {
                            able += 1;
                            fixed += i128::from(st.is_fixed(x));
                        }
                    }
                    // A member repeated as y itself counts as equal to any w y takes.
                    able < nl || fixed > nh
                })
                .map(|p| p as u32),
        );
        let result = remove_positions(st, y, drop);
        drop.clear();
        result
    }
}

/// Removes from `dom(u)` every value `dom(v)` lacks (positions listed in `drop`, which is left empty).
fn keep_common<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    u: u32,
    v: u32,
    drop: &mut Vec<u32>,
) -> Result<(), Conflict> {
    let vu = &values[u as usize];
    drop.extend(
        st.dom(u)
            .iter()
            .filter(|&p| !has(st, values, v, vu.value(p) as i128))
            .map(|p| p as u32),
    );
    let result = remove_positions(st, u, drop);
    drop.clear();
    result
}

impl Constraint for CountVar {
    fn name(&self) -> &'static str {
        "count_var"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let (xs, y, n) = self.split();
        let w = value_of(y);
        let c = xs.iter().filter(|&&x| value_of(x) == w).count();
        c as i64 == value_of(n)
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Domain)
    }
    fn cost(&self) -> Cost {
        Cost::Linear
    }
    fn work_len(&self, values: &[Values]) -> usize {
        widest(&self.vars, values)
    }
}

impl<D: Domain> Propagate<D> for CountVar {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let mut drop = take_order(st);
        let result = self.filter(st, values, &mut drop);
        give_order(st, drop);
        result
    }
}
