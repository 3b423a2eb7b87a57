//! `cumulative(starts, durations, resources, capacity)`: tasks `i` run over `[s_i, s_i + d_i)` and use `r_i`
//! units of one resource; at every time the running tasks use at most `b` units (MiniZinc's `cumulative`).
//!
//! Meaning (the checker, [`Cumulative::is_satisfied`]): durations and resources are non-negative, the capacity
//! is non-negative when there is at least one task (MiniZinc's decomposition implies `b >= 0` then), and for
//! every time `t`, `sum { r_i | s_i <= t < s_i + d_i } <= b`. A task with `d_i = 0` or `r_i = 0` uses nothing.
//!
//! Filtering: time-tabling (Gecode's, Choco's and Pumpkin's first cumulative rule; Beldiceanu & Carlsson 2002,
//! Letort et al. 2012 for the sweep). A task whose latest start `lst = max s` lies before its earliest end
//! `ect = min s + min d` is surely running over its *compulsory part* `[lst, ect)`. The compulsory parts of all
//! tasks form a profile: a step function, constant between the sorted start and end times of the parts. Then
//! - a profile step above `max b` fails, and `min b` rises to the profile's peak;
//! - a task `j` (taking `min d_j`, `min r_j`) cannot overlap a step whose height without `j`'s own part,
//!   plus `r_j`, exceeds `max b`: its earliest start is pushed past such steps, sweeping forward from
//!   `min s_j` (every start in `[t, step end)` overlaps the step, so the next candidate is the step's end),
//!   and its latest start symmetrically, sweeping backward from `max s_j + min d_j`.
//!
//! Durations, resources and the capacity may be variables: the lower bounds of `d` and `r` and the upper bound of
//! `b` are what every solution within the current domains uses at least / allows at most, so the rules stay
//! sound; `d`, `r` and `b` lose their negative values at the root. With every variable fixed, the compulsory
//! parts are the tasks themselves and the overload test is exactly the checker.
//!
//! Work per call: a snapshot of every task's bounds goes to the search state's scratch numbers (`State::work`),
//! the `2k` events of the `k` compulsory parts (task indexes in `util::take_order`'s scratch) are sorted in place
//! by time, and one sweep writes the profile's steps after the snapshot, checking the peak. Each task that can
//! meet an overload (`peak + r_j > max b`; the others are skipped) finds the step holding its earliest start by
//! binary search and walks only the steps its run meets, then the same backward from its latest end:
//! `O(n + k log k + m (log k + s))` for `m` such tasks meeting `s` steps each, no allocation once the scratch has
//! grown. A call with no compulsory part returns after one pass over the tasks (the usual case high in the search
//! tree). A task whose smallest use exceeds `max b` while its smallest duration is positive fails at once. Only
//! bounds are read and written, so starts may be interval variables.

use super::util::{give_order, hi, lo, set_max, set_min, take_order};
use super::{Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::model::{Model, ModelError};
use crate::state::{Conflict, State};
use crate::values::Values;

/// `cumulative(starts, durations, resources, capacity)`; `vars = [starts.., durations.., resources.., capacity]`
/// (`n` tasks, so `3n + 1` entries; a variable may repeat, as the FlatZinc front end shares constants).
#[derive(Clone, Debug)]
pub struct Cumulative {
    vars: Vec<u32>,
    n: usize,
}

/// One task's bounds as the rules read them (values, `i128`: `s + d` cannot overflow).
#[derive(Clone, Copy, Debug)]
struct Task {
    /// Earliest start `min s`.
    est: i128,
    /// Latest start `max s`.
    lst: i128,
    /// Smallest duration, at least 0.
    d: i128,
    /// Smallest resource use, at least 0.
    r: i128,
}

impl Task {
    /// True when the task surely runs over `[lst, est + d)` and uses something there.
    #[inline]
    fn has_part(&self) -> bool {
        self.r > 0 && self.lst < self.est + self.d
    }
}

impl Cumulative {
    /// The constraint over task scopes of equal lengths (checked by [`Model::cumulative`]).
    pub fn new(starts: &[u32], durations: &[u32], resources: &[u32], capacity: u32) -> Self {
        let mut vars = Vec::with_capacity(3 * starts.len() + 1);
        vars.extend_from_slice(starts);
        vars.extend_from_slice(durations);
        vars.extend_from_slice(resources);
        vars.push(capacity);
        Self {
            vars,
            n: starts.len(),
        }
    }

    /// Number of tasks.
    pub fn tasks(&self) -> usize {
        self.n
    }

    #[inline]
    fn capacity(&self) -> u32 {
        self.vars[3 * self.n]
    }

    #[inline]
    fn read_task<D: Domain>(&self, st: &State<D>, values: &[Values], i: usize) -> Task {
        let s = self.vars[i];
        Task {
            est: lo(st, values, s) as i128,
            lst: hi(st, values, s) as i128,
            d: (lo(st, values, self.vars[self.n + i]) as i128).max(0),
            r: (lo(st, values, self.vars[2 * self.n + i]) as i128).max(0),
        }
    }

    /// Brute force: see the module docs for the meaning.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let n = self.n;
        if n == 0 {
            return true;
        }
        let b = value_of(self.capacity()) as i128;
        let task = |i: usize| {
            (
                value_of(self.vars[i]) as i128,
                value_of(self.vars[n + i]) as i128,
                value_of(self.vars[2 * n + i]) as i128,
            )
        };
        if b < 0 || (0..n).any(|i| task(i).1 < 0 || task(i).2 < 0) {
            return false;
        }
        // The load only rises at a start, so checking at every start is checking at every time.
        (0..n).all(|i| {
            let (t, _, _) = task(i);
            let load: i128 = (0..n)
                .map(task)
                .filter(|&(s, d, _)| s <= t && t < s + d)
                .map(|(_, _, r)| r)
                .sum();
            load <= b
        })
    }

    /// Time-tabling (see the module docs) with the search state's scratch: `work[4i..4i + 4]` = task `i`'s
    /// `est, lst, d, r` when the call began (the profile is built from this snapshot, so pushes made during the
    /// call do not disturb the sweep: compulsory parts only grow, so an older profile is still a sound lower
    /// bound), then the profile's steps as pairs `(from, height)` in time order (a step lasts until the next
    /// one's `from`; the last has height 0); `ev` = the profile's events (see `Tasks::event_in`) sorted by time.
    fn time_table<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        work: &mut Vec<i128>,
        ev: &mut Vec<u32>,
    ) -> Result<(), Conflict> {
        let n = self.n;
        if n == 0 {
            return Ok(());
        }
        for i in 0..n {
            set_min(st, values, self.vars[n + i], 0)?;
            set_min(st, values, self.vars[2 * n + i], 0)?;
        }
        let cap_var = self.capacity();
        set_min(st, values, cap_var, 0)?;
        let cap = hi(st, values, cap_var) as i128;
        for i in 0..n {
            let t = self.read_task(st, values, i);
            if t.d > 0 && t.r > cap {
                // The task runs somewhere, alone above the capacity.
                return Err(st.conflict());
            }
            work.extend_from_slice(&[t.est, t.lst, t.d, t.r]);
            if t.has_part() {
                ev.push(i as u32);
                ev.push((i + n) as u32);
            }
        }
        if ev.is_empty() {
            return Ok(());
        }
        ev.sort_unstable_by_key(|&e| Tasks::event_in(work, n, e).0);
        // The steps, the overload test and the peak.
        let (mut h, mut peak, mut k) = (0i128, 0i128, 0);
        while let Some(&first) = ev.get(k) {
            let at = Tasks::event_in(work, n, first).0;
            while let Some(&e) = ev.get(k) {
                let (t, dh) = Tasks::event_in(work, n, e);
                if t != at {
                    break;
                }
                h += dh;
                k += 1;
            }
            work.extend_from_slice(&[at, h]);
            peak = peak.max(h);
        }
        if peak > cap {
            return Err(st.conflict());
        }
        set_min(st, values, cap_var, peak)?;
        let tasks = Tasks { work, steps: 4 * n };
        for j in 0..n {
            let task = tasks.get(j);
            if task.d == 0 || task.r == 0 || task.est == task.lst || peak + task.r <= cap {
                continue;
            }
            let own = if task.has_part() {
                (task.lst, task.est + task.d)
            } else {
                (0, 0)
            };
            let est = tasks.earliest_start(task, own, cap);
            if est > task.lst {
                return Err(st.conflict());
            }
            if est > task.est {
                set_min(st, values, self.vars[j], est)?;
            }
            let lst = tasks.latest_start(task, own, cap);
            if lst < task.est {
                return Err(st.conflict());
            }
            if lst < task.lst {
                set_max(st, values, self.vars[j], lst)?;
            }
        }
        Ok(())
    }
}

/// The snapshot a call works on: `work[4i..4i + 4]` = `est, lst, d, r` of task `i`; from `steps` on, the
/// profile's steps `(from, height)` in time order (once built).
struct Tasks<'a> {
    work: &'a [i128],
    steps: usize,
}

impl Tasks<'_> {
    #[inline]
    fn get(&self, i: usize) -> Task {
        let w = &self.work[4 * i..4 * i + 4];
        Task {
            est: w[0],
            lst: w[1],
            d: w[2],
            r: w[3],
        }
    }

    /// Event `e` of the profile in the snapshot `work` of `n` tasks: `e < n` is the start of task `e`'s
    /// compulsory part (`+r`), `e >= n` the end of task `e - n`'s (`-r`). Returns its time and height change.
    #[inline]
    fn event_in(work: &[i128], n: usize, e: u32) -> (i128, i128) {
        let e = e as usize;
        let (i, end) = if e < n { (e, false) } else { (e - n, true) };
        let w = &work[4 * i..4 * i + 4];
        if end {
            (w[0] + w[2], -w[3])
        } else {
            (w[1], w[3])
        }
    }

    /// Number of profile steps.
    #[inline]
    fn num_steps(&self) -> usize {
        (self.work.len() - self.steps) / 2
    }

    /// Step `k`: its start and height.
    #[inline]
    fn step(&self, k: usize) -> (i128, i128) {
        (
            self.work[self.steps + 2 * k],
            self.work[self.steps + 2 * k + 1],
        )
    }

    /// The number of steps starting at or before `t`.
    fn steps_up_to(&self, t: i128) -> usize {
        let (mut lo, mut hi) = (0, self.num_steps());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.step(mid).0 <= t {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// True when `task` cannot run over all of step `[a, b)` of height `h` (its own compulsory part `own`
    /// taken out).
    #[inline]
    fn overloaded(task: Task, own: (i128, i128), a: i128, b: i128, h: i128, cap: i128) -> bool {
        let mine = if own.0 <= a && b <= own.1 { task.r } else { 0 };
        h - mine + task.r > cap
    }

    /// The earliest start of `task` at or after its `est` whose run `[t, t + d)` meets no profile step that
    /// cannot take it ([`Self::overloaded`]); a value above `lst` when there is none. Starts at the step holding
    /// `est` (binary search) and stops at the first step past the run.
    fn earliest_start(&self, task: Task, own: (i128, i128), cap: i128) -> i128 {
        let m = self.num_steps();
        let mut t = task.est;
        // The last step (height 0, from the last event on) never overloads: `r <= cap` was checked.
        let mut k = self.steps_up_to(t).saturating_sub(1);
        while k + 1 < m {
            let (a, h) = self.step(k);
            if a >= t + task.d {
                break;
            }
            let b = self.step(k + 1).0;
            if b > t && Self::overloaded(task, own, a, b, h, cap) {
                t = b;
                if t > task.lst {
                    break;
                }
            }
            k += 1;
        }
        t
    }

    /// The mirror of [`Self::earliest_start`]: the latest start at or before `lst` clear of overloaded steps; a
    /// value below `est` when there is none.
    fn latest_start(&self, task: Task, own: (i128, i128), cap: i128) -> i128 {
        let m = self.num_steps();
        // `end` = latest end; the step [a, b) is met by a run ending at `end` when a < end and b > end - d.
        let mut end = task.lst + task.d;
        // Steps starting before `end`, the last one (height 0) left out.
        let mut k = self.steps_up_to(end - 1).min(m.saturating_sub(1));
        while k > 0 {
            k -= 1;
            let (a, h) = self.step(k);
            let b = self.step(k + 1).0;
            if b <= end - task.d {
                break;
            }
            if a < end && Self::overloaded(task, own, a, b, h, cap) {
                end = a;
                if end - task.d < task.est {
                    break;
                }
            }
        }
        end - task.d
    }
}

impl Constraint for Cumulative {
    fn name(&self) -> &'static str {
        "cumulative"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        Cumulative::is_satisfied(self, value_of)
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Bounds)
    }
    fn cost(&self) -> Cost {
        Cost::Expensive
    }
    fn work_len(&self, _values: &[Values]) -> usize {
        2 * self.n
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> Propagate<D> for Cumulative {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let mut ev = take_order(st);
        let mut work = std::mem::take(&mut st.work);
        work.clear();
        let r = self.time_table(st, values, &mut work, &mut ev);
        st.work = work;
        give_order(st, ev);
        r
    }
}

impl Model {
    /// `cumulative(starts, durations, resources, capacity)`: task `i` runs over `[starts[i], starts[i] +
    /// durations[i])` using `resources[i]` units, and the running tasks never use more than `capacity` units at
    /// once (MiniZinc's `cumulative`; a task of duration or use 0 uses nothing; durations, uses and, when there is
    /// a task, the capacity are non-negative). Propagated by time-tabling on bounds, so every argument may be an
    /// interval variable (constants are fixed variables). See `constraints/cumulative.rs`.
    ///
    /// Errors: [`ModelError::LengthMismatch`] when the three arrays differ in length,
    /// [`ModelError::ForeignVariable`].
    pub fn cumulative(
        &mut self,
        starts: &[VarId],
        durations: &[VarId],
        resources: &[VarId],
        capacity: VarId,
    ) -> Result<ConstraintId, ModelError> {
        for (what, xs) in [
            ("cumulative durations", durations),
            ("cumulative resources", resources),
        ] {
            if xs.len() != starts.len() {
                return Err(ModelError::LengthMismatch {
                    what,
                    expected: starts.len(),
                    got: xs.len(),
                });
            }
        }
        let s = self.scope("cumulative", starts)?;
        let d = self.scope("cumulative", durations)?;
        let r = self.scope("cumulative", resources)?;
        let b = self.scope("cumulative", &[capacity])?;
        let &[b] = b.as_slice() else {
            unreachable!("one variable in, one index out")
        };
        self.try_post(Cumulative::new(&s, &d, &r, b))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::domain::{Domain, WideDomain};
    use crate::model::Model;
    use crate::propagate::{Propagation, Propagator};
    use crate::state::State;
    use crate::stats::Stats;
    use crate::VarId;

    /// Root propagation of `m` alone: every variable's bounds afterwards, `None` when it fails.
    fn root(m: Model) -> Option<Vec<(i64, i64)>> {
        let p = m.build().unwrap();
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        let mut st: State<WideDomain> = State::with_intervals(&widths, &p.interval_flags());
        st.scratch = vec![WideDomain::full(p.max_width); p.max_table_arity];
        st.order.reserve(p.max_work);
        st.cstate = p.trailed::<WideDomain>();
        let mut prop = Propagator::new(
            &p.constraints,
            p.num_vars(),
            Propagation::ForwardChecking,
            false,
        );
        prop.root(&p.constraints, &p.values, &mut st, &mut Stats::default())
            .ok()?;
        Some(
            (0..p.num_vars() as u32)
                .map(|v| {
                    let vals = &p.values[v as usize];
                    (vals.value(st.min_pos(v)), vals.value(st.max_pos(v)))
                })
                .collect(),
        )
    }

    fn consts(m: &mut Model, xs: &[i64]) -> Vec<VarId> {
        xs.iter().map(|&x| m.new_var(x, x).unwrap()).collect()
    }

    #[test]
    fn a_profile_above_the_capacity_fails() {
        // Two tasks fixed at 0 and 1, 3 long, 2 units each, capacity 3: both run at time 1 and 2.
        let mut m = Model::new();
        let s = consts(&mut m, &[0, 1]);
        let d = consts(&mut m, &[3, 3]);
        let r = consts(&mut m, &[2, 2]);
        let b = m.new_var(3, 3).unwrap();
        m.cumulative(&s, &d, &r, b).unwrap();
        assert_eq!(root(m), None);
    }

    #[test]
    fn an_overload_of_compulsory_parts_fails_before_any_start_is_fixed() {
        // Starts in 0..=1 and 1..=2, 4 long: both surely run over [2, 4); 2 + 2 > 3.
        let mut m = Model::new();
        let s = [m.new_var(0, 1).unwrap(), m.new_var(1, 2).unwrap()];
        let d = consts(&mut m, &[4, 4]);
        let r = consts(&mut m, &[2, 2]);
        let b = m.new_var(0, 3).unwrap();
        m.cumulative(&s, &d, &r, b).unwrap();
        assert_eq!(root(m), None);
    }

    /// Task A: start 0..=1, 5 long, 2 units (compulsory over [1, 5)); task B: start in `b_start`, 2 long, 2 units;
    /// capacity 3. Returns B's start bounds after the root.
    fn pushed_b(b_start: (i64, i64), intervals: bool) -> Option<(i64, i64)> {
        let mut m = Model::new();
        let new = |m: &mut Model, lo, hi| {
            if intervals {
                m.new_interval_var(lo, hi).unwrap()
            } else {
                m.new_var(lo, hi).unwrap()
            }
        };
        let s = [new(&mut m, 0, 1), new(&mut m, b_start.0, b_start.1)];
        let d = consts(&mut m, &[5, 2]);
        let r = consts(&mut m, &[2, 2]);
        let b = m.new_var(3, 3).unwrap();
        m.cumulative(&s, &d, &r, b).unwrap();
        root(m).map(|bounds| bounds[1])
    }

    #[test]
    fn a_start_is_pushed_past_a_compulsory_part_it_cannot_share() {
        assert_eq!(pushed_b((0, 10), false), Some((5, 10)));
    }

    #[test]
    fn a_latest_start_is_pulled_before_a_compulsory_part_it_cannot_share() {
        // B in -6..=3: a run [s, s + 2) must end by 1, so s <= -1.
        assert_eq!(pushed_b((-6, 3), false), Some((-6, -1)));
    }

    #[test]
    fn a_task_with_no_room_on_either_side_fails() {
        assert_eq!(pushed_b((0, 3), false), None);
    }

    #[test]
    fn interval_starts_are_pushed_as_bitset_starts_are() {
        assert_eq!(pushed_b((0, 10), true), Some((5, 10)));
        assert_eq!(pushed_b((-6, 3), true), Some((-6, -1)));
        assert_eq!(pushed_b((0, 3), true), None);
        assert_eq!(pushed_b((0, 1_000_000_000), true), Some((5, 1_000_000_000)));
    }

    #[test]
    fn the_capacity_rises_to_the_compulsory_peak_and_negative_arguments_go() {
        // A fixed task [0, 3) using 3; a second at 1 whose duration and use may be negative, so may be 0.
        let mut m = Model::new();
        let s = consts(&mut m, &[0, 1]);
        let d = [m.new_var(3, 3).unwrap(), m.new_var(-2, 4).unwrap()];
        let r = [m.new_var(3, 5).unwrap(), m.new_var(-2, 2).unwrap()];
        let b = m.new_var(-5, 9).unwrap();
        m.cumulative(&s, &d, &r, b).unwrap();
        let bounds = root(m).unwrap();
        assert_eq!(bounds[3], (0, 4), "duration of the second task");
        assert_eq!(bounds[5], (0, 2), "use of the second task");
        assert_eq!(bounds[6], (3, 9), "capacity: the first task surely uses 3");
    }

    #[test]
    fn tasks_of_zero_duration_or_zero_use_take_no_room() {
        let mut m = Model::new();
        let s = consts(&mut m, &[0, 0, 0]);
        let d = consts(&mut m, &[4, 0, 4]);
        let r = consts(&mut m, &[3, 9, 0]);
        let b = m.new_var(3, 3).unwrap();
        m.cumulative(&s, &d, &r, b).unwrap();
        assert!(root(m).is_some());
    }

    /// Time-tabling to its fixpoint, recomputed on sorted value lists (`doms`: `n` starts, `n` durations, `n`
    /// uses, the capacity), the rules of the module docs written out time by time: `None` on a conflict.
    fn time_tabling_fixpoint(mut doms: Vec<Vec<i64>>, n: usize) -> Option<Vec<Vec<i64>>> {
        if n == 0 {
            return Some(doms);
        }
        loop {
            let before = doms.clone();
            for dom in &mut doms[n..] {
                dom.retain(|&v| v >= 0);
            }
            if doms.iter().any(|d| d.is_empty()) {
                return None;
            }
            let cap = *doms[3 * n].last().unwrap();
            // (est, lst, d, r) per task.
            let task = |doms: &[Vec<i64>], i: usize| {
                (
                    doms[i][0],
                    *doms[i].last().unwrap(),
                    doms[n + i][0],
                    doms[2 * n + i][0],
                )
            };
            if (0..n).any(|i| task(&doms, i).2 > 0 && task(&doms, i).3 > cap) {
                return None;
            }
            // The compulsory parts [lst, est + d) of the tasks using something, and the profile they make at `t`,
            // without task `skip`'s own part.
            let parts: Vec<(i64, i64, i64)> = (0..n)
                .map(|i| {
                    let (est, lst, d, r) = task(&doms, i);
                    if r > 0 && lst < est + d {
                        (lst, est + d, r)
                    } else {
                        (0, 0, 0)
                    }
                })
                .collect();
            let load = |t: i64, skip: usize| -> i64 {
                (0..n)
                    .filter(|&i| i != skip && parts[i].0 <= t && t < parts[i].1)
                    .map(|i| parts[i].2)
                    .sum()
            };
            let peak = parts.iter().map(|&(a, _, _)| load(a, n)).max().unwrap_or(0);
            if peak > cap {
                return None;
            }
            doms[3 * n].retain(|&v| v >= peak);
            for j in 0..n {
                let (_, _, d, r) = task(&doms, j);
                if d == 0 || r == 0 {
                    continue;
                }
                let fits = |s: i64| (s..s + d).all(|t| load(t, j) + r <= cap);
                while doms[j].first().is_some_and(|&s| !fits(s)) {
                    doms[j].remove(0);
                }
                while doms[j].last().is_some_and(|&s| !fits(s)) {
                    doms[j].pop();
                }
                if doms[j].is_empty() {
                    return None;
                }
            }
            if doms == before {
                return Some(doms);
            }
        }
    }

    /// On 3000 random instances of one to five tasks (starts as value sets with holes, or as intervals;
    /// durations, uses and capacity from small sets that may hold negative values), the root propagation ends
    /// at exactly the bounds, or the conflict, of the time-tabling rules run to their fixpoint on value lists.
    /// The soundness harness only sees lost solutions; this also fails on pruning that is too weak (an earliest
    /// start stopped short, a step missed by the binary search, the capacity left below the peak).
    #[test]
    fn the_root_reaches_the_fixpoint_of_the_time_tabling_rules_recomputed_on_value_lists() {
        use crate::rng::Rng;
        let mut rng = Rng::new(0xc0_3417);
        let set = |rng: &mut Rng, lo: i64, hi: i64| -> Vec<i64> {
            let mut v: Vec<i64> = (lo..=hi).filter(|_| rng.below_mod(3) != 0).collect();
            if v.is_empty() {
                v.push(lo + rng.below_mod((hi - lo + 1) as u64) as i64);
            }
            v
        };
        let (mut conflicts, mut pushed) = (0, 0);
        for round in 0..3000 {
            let n = 1 + rng.below_mod(5) as usize;
            let intervals = round % 2 == 1;
            let mut doms: Vec<Vec<i64>> = Vec::new();
            for _ in 0..n {
                // A window of 1-6 starts: narrow ones give compulsory parts.
                let lo = rng.below_mod(9) as i64 - 2;
                let hi = lo + rng.below_mod(6) as i64;
                let mut s = set(&mut rng, lo, hi);
                if intervals {
                    s = (s[0]..=*s.last().unwrap()).collect();
                }
                doms.push(s);
            }
            for hi in [6, 3] {
                for _ in 0..n {
                    let lo = rng.below_mod(hi as u64 + 1) as i64 - 1;
                    doms.push(set(&mut rng, lo, hi));
                }
            }
            doms.push(set(&mut rng, -1, 4));
            let mut m = Model::new();
            let vars: Vec<VarId> = doms
                .iter()
                .enumerate()
                .map(|(k, d)| {
                    if intervals && k < n {
                        m.new_interval_var(d[0], *d.last().unwrap()).unwrap()
                    } else {
                        m.new_var_with_values(d).unwrap()
                    }
                })
                .collect();
            m.cumulative(
                &vars[..n],
                &vars[n..2 * n],
                &vars[2 * n..3 * n],
                vars[3 * n],
            )
            .unwrap();
            let want = time_tabling_fixpoint(doms.clone(), n).map(|ds| {
                ds.iter()
                    .map(|d| (d[0], *d.last().unwrap()))
                    .collect::<Vec<_>>()
            });
            conflicts += usize::from(want.is_none());
            pushed +=
                usize::from(want.as_ref().is_some_and(|w| {
                    (0..n).any(|i| w[i] != (doms[i][0], *doms[i].last().unwrap()))
                }));
            assert_eq!(root(m), want, "round {round}, domains {doms:?}");
        }
        assert!(
            conflicts > 200 && pushed > 100,
            "conflicts {conflicts}, pushed {pushed}"
        );
    }

    #[test]
    fn a_cumulative_reports_its_tasks_its_scope_in_argument_order_and_its_scheduling_flags() {
        use super::Cumulative;
        use crate::constraints::{Constraint, Cost, Propagation, Trigger};
        let c = Cumulative::new(&[0, 1, 2], &[3, 4, 5], &[6, 7, 8], 9);
        assert_eq!(c.tasks(), 3);
        assert_eq!(Constraint::vars(&c), &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(Constraint::name(&c), "cumulative");
        assert_eq!(
            c.trigger(Propagation::ForwardChecking),
            Some(Trigger::Bounds)
        );
        assert_eq!(c.cost(), Cost::Expensive);
        assert_eq!(c.work_len(&[]), 6);
        assert!(c.accepts_intervals());
        assert_eq!(Cumulative::new(&[], &[], &[], 4).tasks(), 0);
    }

    /// One call of the propagator alone on tasks A (fixed at `at`, 2 long) and C (fixed at `at + 2`, 3 long),
    /// 2 units each, and B (start in `b`, 2 long, 2 units), capacity 3: B's start bounds after it.
    fn b_after_one_call(at: i64, b: (i64, i64)) -> Option<(i64, i64)> {
        use super::Cumulative;
        use crate::constraints::soundness::{current, state_of};
        use crate::constraints::Propagate;
        let mut m = Model::new();
        let s = [
            m.new_var(at, at).unwrap(),
            m.new_var(at + 2, at + 2).unwrap(),
            m.new_var(b.0, b.1).unwrap(),
        ];
        let d = consts(&mut m, &[2, 3, 2]);
        let r = consts(&mut m, &[2, 2, 2]);
        let cap = m.new_var(3, 3).unwrap();
        let p = m.build().unwrap();
        let index = |xs: &[VarId]| xs.iter().map(|x| x.index() as u32).collect::<Vec<_>>();
        let c = Cumulative::new(&index(&s), &index(&d), &index(&r), cap.index() as u32);
        let mut st = state_of(&p);
        Propagate::<u64>::propagate(&c, &mut st, &p.values).ok()?;
        let left = &current(&p, &st)[2];
        Some((left[0], left[left.len() - 1]))
    }

    /// The profile is A's part then C's, back to back; B fits beside neither. A single call must sweep B's
    /// earliest start past both (not stop after the first push and leave the second to another call), and its
    /// latest start likewise, also where the latest end divided by the duration would already be below `est`.
    #[test]
    fn one_call_sweeps_a_start_past_every_overloaded_step_its_run_meets() {
        // Parts [1, 3) and [3, 6): from 0, B is pushed to 3, then to 6.
        assert_eq!(b_after_one_call(1, (0, 20)), Some((6, 20)));
        // Latest end 7: back before [3, 6) to end 3, then before [1, 3) to end 1, so start -1.
        assert_eq!(b_after_one_call(1, (-10, 5)), Some((-10, -1)));
        // Parts [11, 13) and [13, 16); B in 8..=15: latest end 17, then 13, then 11, so start 9.
        assert_eq!(b_after_one_call(11, (8, 15)), Some((8, 9)));
    }

    #[test]
    fn arrays_of_different_lengths_are_refused() {
        let mut m = Model::new();
        let s = consts(&mut m, &[0, 1]);
        let d = consts(&mut m, &[1]);
        let b = m.new_var(1, 1).unwrap();
        let err = m.cumulative(&s, &d, &s, b).unwrap_err();
        assert!(err.to_string().contains("cumulative durations"), "{err}");
    }
}
