//! Propagation to a fixpoint: assignment events first (cheap forward checking), then scheduled constraints.
//!
//! Two watch lists per variable, built once per solver for the chosen [`Propagation`] level:
//! - `fix_watch[v]`: `(constraint, position)` whose `on_fixed` runs when `v` becomes assigned
//!   (at level `None`: every constraint, whose partial check `Constraint::check_partial` runs instead);
//! - `dom_watch[v]`: constraints scheduled (once, FIFO) when `dom(v)` changes in any way.
//!
//! Forward checking of small aligned `all_different` groups (members sharing one index space, e.g. Sudoku houses)
//! is merged per variable: `peers[v]` lists, without duplicates, every variable that shares such a group with `v`,
//! so fixing a Sudoku cell clears one bit in 20 peers in one tight loop instead of three dispatches over 8.
//!
//! The loop drains `State::fixed` (assignments not yet forward-checked), then turns `State::changed` into scheduled
//! constraints, then runs one scheduled constraint, and repeats until nothing is pending. A constraint is unscheduled
//! before it runs, so its own changes schedule it again; rules need not be idempotent.

use crate::constraints::{Constraint, Intersection};
use crate::csr::Csr;
use crate::domain::{Domain, Word};
use crate::state::{Conflict, State};
use crate::stats::Stats;
use crate::values::Values;

/// How much inference runs after each decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Propagation {
    /// Place then check: after each assignment, every constraint on the variable checks its assigned part
    /// (`all_different`: no value repeated among its assigned members; other constraints: once all their variables
    /// are assigned). No value is ever removed, so this is the naive baseline.
    None,
    /// Forward checking: an assigned value is removed from its peers (`all_different`, `not_equal`); `equal`,
    /// `linear` and `table` filter their domains (support / bounds) on every change.
    #[default]
    ForwardChecking,
    /// Forward checking plus hidden singles (and the pigeonhole test) in `all_different` groups.
    Singles,
}

/// Watch lists and the schedule of one solver.
#[derive(Clone, Debug)]
pub struct Propagator {
    /// The level the watch lists were built for.
    level: Propagation,
    /// `fix_watch.row(v)` = `(constraint, position)` reacting to the assignment of `v`.
    fix_watch: Csr<(u32, u32)>,
    /// `peers.row(v)` = variables sharing a merged aligned `all_different` with `v` (may contain `v` itself if the
    /// user repeated it in a group, which then correctly fails).
    /// Each entry is `(peer, group)`; the group is blamed when clearing the peer's bit fails.
    peers: Csr<(u32, u32)>,
    /// `dom_watch.row(v)` = constraints reacting to any change of `v`.
    dom_watch: Csr<u32>,
    /// Constraints with a domain rule: all of them are scheduled at the root.
    domain_rules: Vec<u32>,
    /// `scheduled[c]` = `c` is in `queue`.
    scheduled: Vec<bool>,
    /// Constraints waiting to run are `queue[head..]`, oldest first (a vector reset at each fixpoint is cheaper
    /// than a ring buffer: each constraint enters at most once per pass, so it stays short).
    queue: Vec<u32>,
    /// First pending entry of `queue`.
    head: usize,
    /// Locked-candidate rules between overlapping permutation groups (empty unless enabled).
    pairs: Vec<Intersection>,
    /// `pair_watch.row(v)` = pairs whose groups contain `v`.
    pair_watch: Csr<u32>,
    /// `pair_scheduled[p]` = `p` is in `pair_queue[pair_head..]`.
    pair_scheduled: Vec<bool>,
    /// Pairs waiting to run (lowest priority: only when no constraint is pending).
    pair_queue: Vec<u32>,
    /// First pending entry of `pair_queue`.
    pair_head: usize,
}

impl Propagator {
    /// Builds the watch lists of `constraints` over `num_vars` variables for `level`.
    pub fn new(
        constraints: &[Constraint],
        num_vars: usize,
        level: Propagation,
        intersections: bool,
    ) -> Self {
        let mut fix = Vec::new();
        let mut dom = Vec::new();
        let mut domain_rules = Vec::new();
        let mut peer_pairs = Vec::new();
        let singles = level == Propagation::Singles;
        for (c, con) in constraints.iter().enumerate() {
            let c = c as u32;
            let merged = level != Propagation::None && Self::is_merged(con);
            if merged {
                let vars = con.vars();
                for (i, &v) in vars.iter().enumerate() {
                    for (j, &u) in vars.iter().enumerate() {
                        if i != j {
                            peer_pairs.push((v, (u, c)));
                        }
                    }
                }
            }
            let (wants_fix, wants_dom) = match level {
                Propagation::None => (true, false),
                _ => (
                    con.has_fixed_rule() && !merged,
                    con.has_domain_rule(singles),
                ),
            };
            for (pos, &v) in con.vars().iter().enumerate() {
                if wants_fix {
                    fix.push((v, (c, pos as u32)));
                }
                if wants_dom {
                    dom.push((v, c));
                }
            }
            if wants_dom {
                domain_rules.push(c);
            }
        }
        // One entry per (variable, peer), keeping the first group that links them.
        peer_pairs.sort_unstable();
        peer_pairs.dedup_by_key(|&mut (v, (u, _))| (v, u));
        let pairs = if intersections && singles {
            Self::intersections(constraints, num_vars)
        } else {
            Vec::new()
        };
        let pair_watch: Vec<(u32, u32)> = pairs
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.vars().iter().map(move |&v| (v, i as u32)))
            .collect();
        Self {
            level,
            pair_watch: Csr::from_pairs(num_vars, &pair_watch),
            pair_scheduled: vec![false; pairs.len()],
            pair_queue: Vec::with_capacity(pairs.len()),
            pair_head: 0,
            pairs,
            fix_watch: Csr::from_pairs(num_vars, &fix),
            peers: Csr::from_pairs(num_vars, &peer_pairs),
            dom_watch: Csr::from_pairs(num_vars, &dom),
            domain_rules,
            scheduled: vec![false; constraints.len()],
            queue: Vec::with_capacity(constraints.len()),
            head: 0,
        }
    }

    /// Every pair of merged permutation groups sharing at least two variables.
    fn intersections(constraints: &[Constraint], num_vars: usize) -> Vec<Intersection> {
        let groups: Vec<(u32, u32)> = constraints
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                Self::is_merged(c) && matches!(c, Constraint::AllDifferent(a) if a.is_permutation())
            })
            .flat_map(|(i, c)| c.vars().iter().map(move |&v| (v, i as u32)))
            .collect();
        let by_var = Csr::from_pairs(num_vars, &groups);
        let mut candidates = Vec::new();
        for v in 0..num_vars as u32 {
            let gs = by_var.row(v);
            for (i, &a) in gs.iter().enumerate() {
                for &b in &gs[i + 1..] {
                    if a != b {
                        candidates.push((a.min(b), a.max(b)));
                    }
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        candidates
            .into_iter()
            .filter_map(|(a, b)| {
                let (ca, cb) = (&constraints[a as usize], &constraints[b as usize]);
                Intersection::new(a, ca.vars(), b, cb.vars())
            })
            .collect()
    }

    /// Groups whose forward checking goes through the merged peer lists: aligned, at most `MERGE_MAX` members
    /// (a larger group would make the quadratic peer lists too big; it keeps its own `on_fixed`).
    fn is_merged(con: &Constraint) -> bool {
        const MERGE_MAX: usize = 64;
        matches!(con, Constraint::AllDifferent(a) if a.is_aligned() && a.vars.len() <= MERGE_MAX)
    }

    /// The level this propagator implements.
    pub fn level(&self) -> Propagation {
        self.level
    }

    /// Root propagation: every domain rule once, every ground constraint checked, then the fixpoint.
    pub fn root<D: Domain>(
        &mut self,
        constraints: &[Constraint],
        values: &[Values],
        st: &mut State<D>,
        stats: &mut Stats,
    ) -> Result<(), Conflict> {
        if self.level == Propagation::None {
            for (c, con) in constraints.iter().enumerate() {
                st.blame = c as u32;
                stats.propagations += 1;
                if let Err(e) = con.check_ground(st, values) {
                    self.clear(st);
                    return Err(e);
                }
            }
        }
        for p in 0..self.pairs.len() {
            if !self.pair_scheduled[p] {
                self.pair_scheduled[p] = true;
                self.pair_queue.push(p as u32);
            }
        }
        for &c in &self.domain_rules {
            if !self.scheduled[c as usize] {
                self.scheduled[c as usize] = true;
                self.queue.push(c);
            }
        }
        self.fixpoint(constraints, values, st, stats)
    }

    /// Runs propagation until nothing is pending or a conflict occurs. Queues are empty afterwards either way.
    pub fn fixpoint<D: Domain>(
        &mut self,
        constraints: &[Constraint],
        values: &[Values],
        st: &mut State<D>,
        stats: &mut Stats,
    ) -> Result<(), Conflict> {
        let result = self.run(constraints, values, st, stats);
        if result.is_err() {
            self.clear(st);
        } else {
            st.fixed.clear();
            st.fixed_head = 0;
        }
        #[cfg(debug_assertions)]
        if result.is_ok() {
            if let Err(msg) = st.check_invariants() {
                panic!("state invariant broken after propagation: {msg}");
            }
            if let Err(msg) = self.check_fixpoint(constraints, values, st) {
                panic!("propagation stopped short of its fixpoint: {msg}");
            }
        }
        result
    }

    /// From-scratch check of what a fixpoint at this level guarantees, independent of the incremental queues:
    /// every ground constraint holds; at level `None` every fixed variable passes the partial checks of its
    /// constraints (no repeated value among the fixed members of an `all_different`); from forward checking up, no
    /// fixed member of an `all_different` or `not_equal` leaves its value open to a peer. Debug builds run it after
    /// every successful fixpoint.
    pub fn check_fixpoint<D: Domain>(
        &self,
        constraints: &[Constraint],
        values: &[Values],
        st: &State<D>,
    ) -> Result<(), String> {
        for (c, con) in constraints.iter().enumerate() {
            if con.check_ground(st, values).is_err() {
                return Err(format!("constraint {c} is ground and violated"));
            }
            if self.level == Propagation::None {
                for (pos, &v) in con.vars().iter().enumerate() {
                    if st.is_fixed(v) && con.check_partial(pos, st, values).is_err() {
                        return Err(format!(
                            "constraint {c}: fixed x{v} fails the partial check"
                        ));
                    }
                }
                continue;
            }
            if !con.has_fixed_rule() {
                continue;
            }
            for (pos, &v) in con.vars().iter().enumerate() {
                if st.is_fixed(v) && con.removals_if_fixed(pos, st.min_pos(v), st, values) > 0 {
                    return Err(format!(
                        "constraint {c}: fixed x{v} still clashes with an open peer"
                    ));
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn run<D: Domain>(
        &mut self,
        constraints: &[Constraint],
        values: &[Values],
        st: &mut State<D>,
        stats: &mut Stats,
    ) -> Result<(), Conflict> {
        let check_only = self.level == Propagation::None;
        let has_pairs = !self.pairs.is_empty();
        loop {
            while st.fixed_head < st.fixed.len() {
                let v = st.fixed[st.fixed_head];
                st.fixed_head += 1;
                let peers = self.peers.row(v);
                if !peers.is_empty() {
                    let (s, b) = D::locate(st.min_pos(v));
                    let bit = D::W::bit(b);
                    stats.propagations += 1;
                    for &(u, c) in peers {
                        if st.remove_bit(u, s, bit).is_err() {
                            return Err(Conflict { constraint: c });
                        }
                    }
                }
                for &(c, pos) in self.fix_watch.row(v) {
                    st.blame = c;
                    stats.propagations += 1;
                    let con = &constraints[c as usize];
                    if check_only {
                        con.check_partial(pos as usize, st, values)?;
                    } else {
                        con.on_fixed(pos as usize, st, values)?;
                    }
                }
            }
            for k in 0..st.changed.len() {
                let v = st.changed[k];
                st.unqueue(v);
                if has_pairs {
                    for &p in self.pair_watch.row(v) {
                        if !self.pair_scheduled[p as usize] {
                            self.pair_scheduled[p as usize] = true;
                            self.pair_queue.push(p);
                        }
                    }
                }
                for &c in self.dom_watch.row(v) {
                    if !self.scheduled[c as usize] {
                        self.scheduled[c as usize] = true;
                        self.queue.push(c);
                    }
                }
            }
            st.changed.clear();
            if self.head >= self.queue.len() {
                if st.fixed_head < st.fixed.len() {
                    continue;
                }
                if self.pair_head < self.pair_queue.len() {
                    let p = self.pair_queue[self.pair_head];
                    self.pair_head += 1;
                    self.pair_scheduled[p as usize] = false;
                    stats.propagations += 1;
                    self.pairs[p as usize].propagate(st)?;
                    continue;
                }
                self.queue.clear();
                self.head = 0;
                self.pair_queue.clear();
                self.pair_head = 0;
                return Ok(());
            }
            let c = self.queue[self.head];
            self.head += 1;
            self.scheduled[c as usize] = false;
            st.blame = c;
            stats.propagations += 1;
            constraints[c as usize].propagate(st, values)?;
        }
    }

    /// Empties every queue (after a conflict).
    pub fn clear<D: Domain>(&mut self, st: &mut State<D>) {
        for &c in &self.queue[self.head..] {
            self.scheduled[c as usize] = false;
        }
        self.queue.clear();
        self.head = 0;
        for &p in &self.pair_queue[self.pair_head..] {
            self.pair_scheduled[p as usize] = false;
        }
        self.pair_queue.clear();
        self.pair_head = 0;
        st.fixed.clear();
        st.fixed_head = 0;
        st.clear_changed();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::domain::WideDomain;
    use crate::heuristics::Rng;
    use crate::model::Model;
    use crate::Relation;

    fn snapshot<D: Domain>(st: &State<D>) -> Vec<D> {
        (0..st.num_vars() as u32)
            .map(|v| st.dom(v).clone())
            .collect()
    }

    /// Random decisions (assign or remove) with propagation; every undone level must restore the exact domains it
    /// started from, and undoing to level 0 must restore the root.
    fn undo_restores_every_level<D: Domain + PartialEq>(n: usize, seed: u64) {
        let mut m = Model::new();
        let q: Vec<_> = (0..n)
            .map(|_| m.new_var(0, n as i64 - 1).unwrap())
            .collect();
        m.all_different(&q).unwrap();
        m.all_different_offset(&q, &(0..n as i64).collect::<Vec<_>>())
            .unwrap();
        m.linear(&[(1, q[0]), (2, q[1]), (-1, q[2])], Relation::Le, n as i64)
            .unwrap();
        m.equal(q[3], q[4], 1).unwrap();
        m.table(
            &[q[5], q[6]],
            &[vec![0, 1], vec![1, 2], vec![2, 0], vec![3, 3]],
        )
        .unwrap();
        let p = m.build().unwrap();
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        for level in [
            Propagation::None,
            Propagation::ForwardChecking,
            Propagation::Singles,
        ] {
            let mut st: State<D> = State::new(&widths);
            st.scratch = vec![D::full(p.max_width); p.max_table_arity];
            st.cstate = p.trailed::<D>();
            let mut prop = Propagator::new(&p.constraints, p.num_vars(), level, true);
            let mut stats = Stats::default();
            prop.root(&p.constraints, &p.values, &mut st, &mut stats)
                .unwrap();
            let root = snapshot(&st);
            let mut rng = Rng::new(seed);
            let mut stack = vec![root.clone()];
            for _ in 0..400 {
                let open: Vec<u32> = (0..n as u32).filter(|&v| !st.is_fixed(v)).collect();
                if open.is_empty() || (stack.len() > 1 && rng.below(3) == 0) {
                    st.pop_level();
                    stack.pop();
                    assert!(
                        snapshot(&st) == *stack.last().unwrap(),
                        "undo did not restore the level"
                    );
                    continue;
                }
                let v = open[rng.below(open.len() as u64) as usize];
                let pos = st.dom(v).nth(rng.below(st.size(v) as u64) as u32).unwrap();
                st.push_level();
                let r = if rng.below(2) == 0 {
                    st.assign(v, pos)
                } else {
                    st.remove(v, pos)
                };
                let ok = r.is_ok()
                    && prop
                        .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                        .is_ok();
                if !ok {
                    prop.clear(&mut st);
                    st.pop_level();
                    assert!(
                        snapshot(&st) == *stack.last().unwrap(),
                        "undo after a conflict did not restore"
                    );
                } else {
                    st.check_invariants().unwrap();
                    stack.push(snapshot(&st));
                }
            }
            st.backtrack_to(0);
            assert!(
                snapshot(&st) == root,
                "undo to level 0 did not restore the root domains"
            );
            st.check_invariants().unwrap();
        }
    }

    #[test]
    fn undo_restores_exact_domains_after_random_propagation_on_one_word_domains() {
        for seed in 0..20 {
            undo_restores_every_level::<u64>(9, seed);
        }
    }

    #[test]
    fn undo_restores_exact_domains_after_random_propagation_on_two_word_domains() {
        for seed in 0..10 {
            undo_restores_every_level::<u128>(100, seed);
        }
    }

    #[test]
    fn undo_restores_exact_domains_after_random_propagation_on_bitvec_domains() {
        for seed in 0..5 {
            undo_restores_every_level::<WideDomain>(300, seed);
        }
    }
}
