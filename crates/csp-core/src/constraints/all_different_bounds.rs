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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::constraints::soundness::state_of;
    use crate::ids::VarId;
    use crate::model::{Model, Problem};
    use crate::propagate::Propagator;
    use crate::rng::Rng;
    use crate::stats::Stats;

    /// The interval `[min, max]` of values each variable still has.
    fn bounds_of(p: &Problem, st: &State<u64>) -> Vec<(i64, i64)> {
        (0..p.num_vars() as u32)
            .map(|v| {
                let at = |i| p.values[v as usize].value(i);
                (at(st.min_pos(v)), at(st.max_pos(v)))
            })
            .collect()
    }

    /// Every assignment within `bounds` (every value between each pair) whose shifted values are pairwise distinct.
    fn solutions(bounds: &[(i64, i64)], offsets: &[i64]) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        let mut t: Vec<i64> = bounds.iter().map(|b| b.0).collect();
        if bounds.iter().any(|b| b.0 > b.1) {
            return out;
        }
        'odometer: loop {
            let s: Vec<i64> = t.iter().zip(offsets).map(|(x, o)| x + o).collect();
            if (0..s.len()).all(|i| (i + 1..s.len()).all(|j| s[i] != s[j])) {
                out.push(t.clone());
            }
            for j in 0..t.len() {
                t[j] += 1;
                if t[j] <= bounds[j].1 {
                    continue 'odometer;
                }
                t[j] = bounds[j].0;
            }
            return out;
        }
    }

    /// A random group of 2-5 interval members within -2..=4, offsets -2..=2.
    fn random_group(rng: &mut Rng) -> (Problem, Vec<i64>) {
        let n = 2 + rng.below(4) as usize;
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..n)
            .map(|_| {
                let lo = rng.below(6) as i64 - 2;
                let hi = lo + rng.below((5 - lo) as u64) as i64;
                m.new_interval_var(lo, hi).unwrap()
            })
            .collect();
        let offsets: Vec<i64> = (0..n).map(|_| rng.below(5) as i64 - 2).collect();
        m.all_different_with(&xs, &offsets, crate::constraints::AllDifferentLevel::Bounds)
            .unwrap();
        (m.build().unwrap(), offsets)
    }

    /// Bounds consistency, checked by enumeration: after the root fixpoint and after each of 6 random bound
    /// removals with incremental propagation, every bound of every member belongs to an assignment within the
    /// intervals left, and propagation fails exactly when no assignment is left. Kills a Hall interval missed (a
    /// bound kept that no assignment can take), a wrong end moved, and pruning past the Hall interval (a lost
    /// solution).
    #[test]
    fn every_bound_left_belongs_to_an_assignment_and_failure_means_none_is_left() {
        let mut rng = Rng::new(21);
        let (mut pruned, mut failed) = (0, 0);
        for _ in 0..1500 {
            let (p, offsets) = random_group(&mut rng);
            let mut st = state_of(&p);
            let mut prop = Propagator::new(
                &p.constraints,
                p.num_vars(),
                crate::Propagation::ForwardChecking,
                false,
            );
            let mut stats = Stats::default();
            let mut before = bounds_of(&p, &st);
            let mut ok = prop
                .root(&p.constraints, &p.values, &mut st, &mut stats)
                .is_ok();
            for step in 0..7 {
                let sols = solutions(&before, &offsets);
                if !ok {
                    assert!(
                        sols.is_empty(),
                        "failed on {before:?} + {offsets:?}, which has {sols:?}"
                    );
                    failed += 1;
                    break;
                }
                let after = bounds_of(&p, &st);
                pruned += (after != before) as u32;
                let left = solutions(&after, &offsets);
                assert_eq!(
                    left.len(),
                    sols.len(),
                    "{before:?} -> {after:?} + {offsets:?}: a solution lost"
                );
                for (v, &(lo, hi)) in after.iter().enumerate() {
                    for x in [lo, hi] {
                        assert!(
                            left.iter().any(|t| t[v] == x),
                            "{before:?} -> {after:?} + {offsets:?}: bound {x} of x{v} has no support"
                        );
                    }
                }
                if step == 6 {
                    break;
                }
                let open: Vec<u32> = (0..p.num_vars() as u32)
                    .filter(|&v| !st.is_fixed(v))
                    .collect();
                if open.is_empty() {
                    break;
                }
                let v = open[rng.below(open.len() as u64) as usize];
                let pos = [st.min_pos(v), st.max_pos(v)][rng.below(2) as usize];
                st.push_level();
                st.remove(v, pos).unwrap();
                before = bounds_of(&p, &st);
                ok = prop
                    .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                    .is_ok();
            }
        }
        assert!(
            pruned > 300 && failed > 50,
            "{pruned} prunings, {failed} failures"
        );
    }

    /// One pass on hand-made groups: the Hall interval found, the members outside it pushed off the right end,
    /// the members inside left alone, too many members in too few values refused.
    #[test]
    fn a_hall_interval_pushes_the_other_members_off_its_ends_and_leaves_its_own_alone() {
        // (member intervals, offsets, expected intervals after one pass, or None for a failure)
        type Case = (
            &'static [(i64, i64)],
            &'static [i64],
            Option<&'static [(i64, i64)]>,
        );
        let cases: [Case; 9] = [
            (
                &[(1, 2), (1, 2), (1, 3)],
                &[0, 0, 0],
                Some(&[(1, 2), (1, 2), (3, 3)]),
            ),
            (
                &[(2, 3), (2, 3), (1, 3)],
                &[0, 0, 0],
                Some(&[(2, 3), (2, 3), (1, 1)]),
            ),
            (
                &[(2, 3), (2, 3), (1, 5)],
                &[0, 0, 0],
                Some(&[(2, 3), (2, 3), (1, 5)]),
            ),
            (&[(1, 2), (1, 2), (1, 2)], &[0, 0, 0], None),
            (
                &[(0, 1), (1, 2), (1, 3)],
                &[1, 0, 0],
                Some(&[(0, 1), (1, 2), (3, 3)]),
            ),
            (
                &[(1, 2), (1, 2), (-1, 1)],
                &[0, 0, 2],
                Some(&[(1, 2), (1, 2), (1, 1)]),
            ),
            (&[(5, 5), (4, 6)], &[0, 0], Some(&[(5, 5), (4, 6)])),
            (&[(5, 5), (5, 6)], &[0, 0], Some(&[(5, 5), (6, 6)])),
            (&[(7, 7)], &[0], Some(&[(7, 7)])),
        ];
        for (members, offsets, expected) in cases {
            let mut m = Model::new();
            let xs: Vec<VarId> = members
                .iter()
                .map(|&(lo, hi)| m.new_interval_var(lo, hi).unwrap())
                .collect();
            m.all_different_with(&xs, offsets, crate::constraints::AllDifferentLevel::Bounds)
                .unwrap();
            let p = m.build().unwrap();
            let c = AllDifferentBounds::new((0..xs.len() as u32).collect(), offsets.to_vec());
            let mut st = state_of(&p);
            let got = c
                .propagate(&mut st, &p.values)
                .ok()
                .map(|()| bounds_of(&p, &st));
            assert_eq!(got.as_deref(), expected, "{members:?} + {offsets:?}");
        }
    }

    /// A variable in the scope twice (offsets 0 and 1: `x != x + 1` always holds): after a Hall interval moves
    /// the bounds of one member, the other member on the same variable must see them, or the next Hall test reads
    /// a stale, wider interval.
    #[test]
    fn a_variable_in_the_scope_twice_sees_its_new_bounds_in_both_members() {
        // x in [0, 1], y in [0, 1], z in [0, 3] as members x, y, z, z + 1: {x, y} is the Hall interval [0, 1],
        // so z >= 2; then z and z + 1 in [2, 4] with no other member left beside them: z in [2, 3].
        let mut m = Model::new();
        let x = m.new_interval_var(0, 1).unwrap();
        let y = m.new_interval_var(0, 1).unwrap();
        let z = m.new_interval_var(0, 3).unwrap();
        m.all_different_with(
            &[x, y, z, z],
            &[0, 0, 0, 1],
            crate::constraints::AllDifferentLevel::Bounds,
        )
        .unwrap();
        let p = m.build().unwrap();
        let mut st = state_of(&p);
        let mut prop = Propagator::new(
            &p.constraints,
            p.num_vars(),
            crate::Propagation::ForwardChecking,
            false,
        );
        prop.root(&p.constraints, &p.values, &mut st, &mut Stats::default())
            .unwrap();
        assert_eq!(bounds_of(&p, &st), [(0, 1), (0, 1), (2, 3)]);
    }

    #[test]
    fn the_constraint_wakes_on_bounds_costs_expensive_and_accepts_intervals() {
        let c = AllDifferentBounds::new(vec![3, 1, 2], vec![0, 1, 2]);
        for level in [
            crate::Propagation::None,
            crate::Propagation::ForwardChecking,
            crate::Propagation::Singles,
        ] {
            assert_eq!(c.trigger(level), Some(Trigger::Bounds));
        }
        assert_eq!(c.cost(), Cost::Expensive);
        assert_eq!(c.work_len(&[]), 3);
        assert!(c.accepts_intervals());
        assert_eq!(c.name(), "all_different_bounds");
        assert_eq!(Constraint::vars(&c), &[3, 1, 2]);
        let values = [0, 3, 1, 1];
        assert!(
            Constraint::is_satisfied(&c, &|v| values[v as usize]),
            "1, 4, 3 shifted"
        );
        let values = [0, 3, 2, 1];
        assert!(
            !Constraint::is_satisfied(&c, &|v| values[v as usize]),
            "x1 + 1 = x2 + 2 = 4"
        );
    }
}
