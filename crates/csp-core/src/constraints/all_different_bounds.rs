//! `all_different` at bounds consistency: the values `x_i + offset_i` are pairwise distinct, pruned by Hall
//! intervals (Puget 1998; the quadratic form of Leconte's rule).
//!
//! Let `[l_i, u_i]` be the shifted bounds of member `i`. An interval `[a, b]` holding the whole `[l_i, u_i]` of
//! `b - a + 1` members is a Hall interval: those members use up every value of it, so every other member loses
//! `[a, b]` from its bounds (`l_j` in `[a, b]` moves to `b + 1`, `u_j` in `[a, b]` to `a - 1`). More members than
//! values inside fails. Only `a` among the lower bounds and `b` among the upper bounds need checking: with members
//! sorted by upper bound, each lower bound is one pass, so a call is `O(n^2)` after an `O(n log n)` sort. Values
//! strictly inside a member's bounds are never removed (that is the difference with the value level of
//! [`super::AllDifferent`]), which is why this level is the one for interval variables: it needs no bitset.
//!
//! The sort and the bounds live in `State::work` (taken and given back), so a call allocates nothing once the
//! buffers have grown. One call stops at the first Hall interval that prunes (the sort is stale after it); its
//! own bound changes schedule it again, so the fixpoint is a pass that prunes nothing: bounds consistency.

use super::util::{hi, lo, set_max, set_min};
use super::{Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// Pairwise distinct `vars[i] + offsets[i]`, propagated at bounds consistency.
#[derive(Clone, Debug)]
pub struct AllDifferentBounds {
    /// Scope.
    pub vars: Vec<u32>,
    /// Offset added to each variable's value.
    pub offsets: Vec<i64>,
}

impl AllDifferentBounds {
    /// Builds the constraint; the caller has checked that `value + offset` cannot overflow for any member.
    pub fn new(vars: Vec<u32>, offsets: Vec<i64>) -> Self {
        Self { vars, offsets }
    }

    /// One pass of Hall interval pruning on the current bounds.
    pub fn propagate<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        let n = self.vars.len();
        if n < 2 {
            return Ok(());
        }
        // work[3k], work[3k + 1] = shifted bounds of member k; order = members by upper bound.
        let mut work = std::mem::take(&mut st.work);
        let mut order = std::mem::take(&mut st.order);
        work.clear();
        order.clear();
        for (&v, &o) in self.vars.iter().zip(&self.offsets) {
            work.push(lo(st, values, v) as i128 + o as i128);
            work.push(hi(st, values, v) as i128 + o as i128);
        }
        order.extend(0..n as u32);
        order.sort_unstable_by_key(|&k| work[2 * k as usize + 1]);
        let result = self.hall(st, values, &mut work, &order);
        st.work = work;
        st.order = order;
        result
    }

    fn hall<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        work: &mut [i128],
        order: &[u32],
    ) -> Result<(), Conflict> {
        let n = self.vars.len();
        for i in 0..n {
            let a = work[2 * i];
            let mut inside = 0i128;
            for &k in order {
                let (l, u) = (work[2 * k as usize], work[2 * k as usize + 1]);
                if l < a {
                    continue;
                }
                inside += 1;
                let room = u - a + 1;
                if inside > room {
                    return Err(st.conflict());
                }
                if inside == room {
                    // [a, u] is a Hall interval: push every member not inside it off its ends.
                    let mut changed = false;
                    for j in 0..n {
                        let (lj, uj) = (work[2 * j], work[2 * j + 1]);
                        if lj >= a && uj <= u {
                            continue;
                        }
                        let (v, o) = (self.vars[j], self.offsets[j] as i128);
                        if a <= lj && lj <= u {
                            set_min(st, values, v, u + 1 - o)?;
                            changed = true;
                        }
                        if a <= uj && uj <= u {
                            set_max(st, values, v, a - 1 - o)?;
                            changed = true;
                        }
                        // Every member on `v` (a variable may appear twice) sees its new bounds: the "inside"
                        // test must never read stale, wider bounds.
                        for (k, (&w, &ow)) in self.vars.iter().zip(&self.offsets).enumerate() {
                            if w == v {
                                work[2 * k] = lo(st, values, v) as i128 + ow as i128;
                                work[2 * k + 1] = hi(st, values, v) as i128 + ow as i128;
                            }
                        }
                    }
                    if changed {
                        // The sort by upper bound is stale now: stop here; the changes schedule this
                        // constraint again, which starts a fresh pass.
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }

    /// Brute force: no two shifted values coincide.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let shifted: Vec<i128> = self
            .vars
            .iter()
            .zip(&self.offsets)
            .map(|(&v, &o)| value_of(v) as i128 + o as i128)
            .collect();
        (0..shifted.len()).all(|i| (i + 1..shifted.len()).all(|j| shifted[i] != shifted[j]))
    }
}

impl Constraint for AllDifferentBounds {
    fn name(&self) -> &'static str {
        "all_different_bounds"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        AllDifferentBounds::is_satisfied(self, value_of)
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Bounds)
    }
    fn cost(&self) -> Cost {
        Cost::Expensive
    }
    fn work_len(&self, _values: &[Values]) -> usize {
        self.vars.len()
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> Propagate<D> for AllDifferentBounds {
    #[inline]
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        AllDifferentBounds::propagate(self, st, values)
    }
}
