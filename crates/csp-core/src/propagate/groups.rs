//! The dense paths for aligned `all_different` groups on one-word domains (level `Singles`).
//!
//! An aligned group (every member the same range with the same offset) keeps a value at the same bit in every
//! member's word, so whole groups can be handled with word operations. Two structures, both built by
//! [`super::Propagator::for_domain`] when the domains are one word:
//!
//! - [`Counted`]: permutation groups (as many members as values, at most 64), e.g. Sudoku houses and Latin-square
//!   lines. Below the root they keep, per value, the mask of members that may still take it. Draining a removal
//!   updates the masks of the variable's groups; a mask left with one bit is a hidden single (assigned at once),
//!   with none a conflict. Forward checking of an assigned value visits only the members whose mask bit is set,
//!   skipping cells already visited through an earlier group of the same variable. No pass over a group's members
//!   ever runs. Undo copies the masks back from a per-level snapshot (small models) or replays the trail.
//! - [`Groups`]: every merged group, scanned whole for hidden singles ("seen once / seen twice" masks) from a FIFO
//!   of dirty groups instead of the constraint queue. It serves the root (where all assumptions arrive at once and
//!   scanning is cheaper than updating masks value by value) and, below the root, the aligned groups that are not
//!   counted.
//!
//! Both reach the fixpoint of the per-constraint path (forward checking plus hidden singles and the pigeonhole
//! test), so search trees, node counts and solutions do not change; only the instructions per node do
//! (callgrind, 9x9 Sudoku models, count to 2: 16.7k -> 12.1k instructions per search node on forum-hardest
//! puzzles; the table is in `examples/sudoku_rate.rs`).

use crate::constraints::{as_all_different, hidden_singles_one_word, Posted};
use crate::csr::Csr;
use crate::domain::{Domain, Word};
use crate::state::{Conflict, State};

/// The aligned groups of a model in dense form, and their dirty set.
#[derive(Clone, Debug, Default)]
pub(crate) struct Groups {
    /// `members.row(g)` = the scope of group `g` (a variable repeated by the user stays repeated and fails).
    members: Csr<u32>,
    /// `of_var.row(v)` = the groups `v` belongs to (once per group).
    of_var: Csr<u32>,
    /// `of_rest.row(v)` = the groups of `v` that are not also counted (see [`Counted`]): the only ones scanned
    /// once the counted groups take over below the root.
    of_rest: Csr<u32>,
    /// Some group is not counted.
    rest: bool,
    /// `con[g]` = the index of the posted constraint (blamed for conflicts).
    con: Vec<u32>,
    /// `perm[g]` = group `g` has as many members as values (each value used exactly once).
    perm: Vec<bool>,
    /// `dirty[g]` = group `g` is in `queue[head..]`.
    dirty: Vec<bool>,
    /// Groups waiting to run, oldest first (first in, first out: a group waits while more of its members change,
    /// so one pass sees them all; lowest-index-first ordering measured 10% more instructions).
    queue: Vec<u32>,
    /// First pending entry of `queue`.
    head: usize,
}

impl Groups {
    /// The groups among `constraints` selected by `take` (aligned `all_different` groups), over `num_vars`.
    pub(crate) fn new(
        constraints: &[Box<dyn Posted>],
        num_vars: usize,
        take: impl Fn(&dyn Posted) -> bool,
        counted: impl Fn(usize) -> bool,
    ) -> Self {
        let mut members = Vec::new();
        let mut of_var = Vec::new();
        let mut of_rest = Vec::new();
        let mut con = Vec::new();
        let mut perm = Vec::new();
        for (c, constraint) in constraints.iter().enumerate() {
            let Some(a) = as_all_different(&**constraint) else {
                continue;
            };
            if !take(&**constraint) {
                continue;
            }
            let g = con.len() as u32;
            con.push(c as u32);
            perm.push(a.is_permutation());
            let rest = !counted(c);
            for &v in &a.vars {
                members.push((g, v));
                of_var.push((v, g));
                if rest {
                    of_rest.push((v, g));
                }
            }
        }
        of_var.sort_unstable();
        of_var.dedup();
        of_rest.sort_unstable();
        of_rest.dedup();
        Self {
            members: Csr::from_pairs(con.len(), &members),
            of_var: Csr::from_pairs(num_vars, &of_var),
            rest: !of_rest.is_empty(),
            of_rest: Csr::from_pairs(num_vars, &of_rest),
            perm,
            dirty: vec![false; con.len()],
            queue: Vec::with_capacity(con.len()),
            head: 0,
            con,
        }
    }

    /// Number of groups.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.con.len()
    }

    /// True when some group is not counted (so scans still run below the root).
    pub(crate) fn has_rest(&self) -> bool {
        self.rest
    }

    /// Queues every group of `v` (only those not counted, unless `all`) that is not queued yet.
    #[inline(always)]
    pub(crate) fn touch(&mut self, v: u32, all: bool) {
        let row = if all {
            self.of_var.row(v)
        } else {
            self.of_rest.row(v)
        };
        for &g in row {
            if let Some(d) = self.dirty.get_mut(g as usize) {
                if !*d {
                    *d = true;
                    self.queue.push(g);
                }
            }
        }
    }

    /// Queues every group (root propagation).
    pub(crate) fn touch_all(&mut self) {
        for g in 0..self.con.len() as u32 {
            if !self.dirty[g as usize] {
                self.dirty[g as usize] = true;
                self.queue.push(g);
            }
        }
    }

    /// Takes the oldest queued group, if any (the queue is reset when it runs dry).
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<usize> {
        let Some(&g) = self.queue.get(self.head) else {
            self.queue.clear();
            self.head = 0;
            return None;
        };
        self.head += 1;
        self.dirty[g as usize] = false;
        Some(g as usize)
    }

    /// Empties the queue (after a conflict).
    pub(crate) fn clear(&mut self) {
        for &g in &self.queue[self.head..] {
            self.dirty[g as usize] = false;
        }
        self.queue.clear();
        self.head = 0;
    }

    /// The constraint index of group `g`.
    #[inline]
    pub(crate) fn constraint(&self, g: usize) -> u32 {
        self.con[g]
    }

    /// Hidden singles and the pigeonhole test on group `g` (level `Singles`), through the one implementation of
    /// that rule on word masks (`constraints::all_different::hidden_singles_one_word`). The caller has set
    /// `st.blame` to the group's constraint. Domains must be one word.
    #[inline]
    pub(crate) fn singles<D: Domain>(&self, g: usize, st: &mut State<D>) -> Result<(), Conflict> {
        debug_assert_eq!(st.blame, self.con[g], "blame the group's constraint");
        hidden_singles_one_word(self.members.row(g as u32), self.perm[g], st)
    }
}

/// Permutation groups (aligned, as many members as values, at most 64 of each) with per-value place masks.
///
/// `places[start(g) + b]` holds bit `p` when member `p` of group `g` may still take value `b`: a superset of the
/// truth between a removal and the moment the engine drains the changed variable (its `delta`), exact at every
/// fixpoint. With it,
/// - forward checking of an assigned value visits only the members that still hold it (instead of every peer);
/// - a value whose mask drops to one bit is a hidden single and is assigned at once; to zero, a conflict (the
///   group needs every value), which is also the pigeonhole test;
///
/// so no pass over a group's members is ever needed.
///
/// Undo: when the masks are small (at most [`Counted::SNAPSHOT_MAX`] words, e.g. 243 on 9x9 Sudoku) they are
/// copied at each new level and copied back on undo, which costs less than replaying the trail; otherwise the bits
/// come back from the trail ([`Counted::restore`], called with the bits each undone trail entry gives back).
#[derive(Clone, Debug, Default)]
pub(crate) struct Counted {
    /// The scopes of the groups back to back; a group's slice starts at its offset `lo` and its length is also
    /// its number of values.
    members: Vec<u32>,
    /// `blame[i]` = the posted constraint of the group owning offset `i` (blamed for conflicts).
    blame: Vec<u32>,
    /// `home[i]` = `(lo << 6) | p` for the member at offset `i`: its group's offset and its position there.
    home: Vec<u32>,
    /// `of_var.row(v)` = `((lo << 6) | p, skip)` for every position `p` of `v` in a group at offset `lo`, where
    /// `skip` = positions of the `k`-th group of `v` that forward checking of `v` leaves alone: `v`'s
    /// own, and those of other variables already met in `v`'s earlier groups (visited there when they hold the
    /// value, since place masks never miss a holder). Saves the repeated, unpredictable visits of cells shared
    /// by two groups (a Sudoku row and box share two).
    of_var: Csr<(u32, u64)>,
    /// `taken[c]` = constraint `c` is counted.
    taken: Vec<bool>,
    /// Number of groups.
    groups: usize,
    /// `places[lo + b]` = positions of the group at `lo` whose member may take value `b`.
    places: Vec<u64>,
    /// Undo by snapshots (`places` small enough) rather than by replaying the trail.
    snapshot: bool,
    /// Snapshots of `places`, one per open decision level (oldest first).
    saved: Vec<u64>,
}

impl Counted {
    /// Largest `places` (in words) undone by snapshots.
    pub(crate) const SNAPSHOT_MAX: usize = 2048;

    /// Most groups one variable may be counted in (bounds the work of one removal).
    const MAX_MEMBERSHIPS: u32 = 15;

    /// The permutation groups among `constraints` selected by `take`, over `num_vars` variables, in posting order;
    /// a group is left out (to the other paths) when one of its variables is already in
    /// [`Counted::MAX_MEMBERSHIPS`] counted groups. [`Counted::takes`] says which were taken.
    pub(crate) fn new(
        constraints: &[Box<dyn Posted>],
        num_vars: usize,
        take: impl Fn(&dyn Posted) -> bool,
    ) -> Self {
        let mut members = Vec::new();
        let mut blame = Vec::new();
        let mut home = Vec::new();
        let mut taken = vec![false; constraints.len()];
        let mut count = vec![0u32; num_vars];
        let mut groups = 0;
        for (c, constraint) in constraints.iter().enumerate() {
            let vars = constraint.vars();
            if !take(&**constraint)
                || members.len() + vars.len() >= 1 << 26
                || vars
                    .iter()
                    .any(|&v| count[v as usize] >= Self::MAX_MEMBERSHIPS)
            {
                continue;
            }
            taken[c] = true;
            groups += 1;
            let lo = members.len() as u32;
            for (p, &v) in vars.iter().enumerate() {
                count[v as usize] += 1;
                members.push(v);
                blame.push(c as u32);
                home.push(lo << 6 | p as u32);
            }
        }
        let of_var: Vec<(u32, u32)> = members.iter().zip(&home).map(|(&v, &h)| (v, h)).collect();
        let of_var = Csr::from_pairs(num_vars, &of_var);
        let mut skip = Vec::new();
        let mut seen = vec![u32::MAX; num_vars];
        for v in 0..num_vars as u32 {
            let row = of_var.row(v);
            for (k, &lp) in row.iter().enumerate() {
                let (lo, p) = ((lp >> 6) as usize, lp & 63);
                let hi = lo
                    + members[lo..]
                        .iter()
                        .zip(&home[lo..])
                        .take_while(|&(_, &h)| (h >> 6) as usize == lo)
                        .count();
                let mut mask = 1u64 << p;
                if k > 0 {
                    for (q, &u) in members[lo..hi].iter().enumerate() {
                        if u != v && seen[u as usize] == v {
                            mask |= 1 << q;
                        }
                    }
                }
                for &u in &members[lo..hi] {
                    seen[u as usize] = v;
                }
                skip.push((v, (lp, mask)));
            }
        }
        Self {
            snapshot: members.len() <= Self::SNAPSHOT_MAX,
            places: vec![0; members.len()],
            members,
            blame,
            home,
            of_var: Csr::from_pairs(num_vars, &skip),
            taken,
            groups,
            saved: Vec::new(),
        }
    }

    /// True when constraint `c` is one of the counted groups.
    pub(crate) fn takes(&self, c: usize) -> bool {
        self.taken.get(c).copied().unwrap_or(false)
    }

    /// True when `c` can be counted: an aligned permutation `all_different` of at most 64 members.
    pub(crate) fn fits(c: &dyn Posted) -> bool {
        as_all_different(c).is_some_and(|a| a.is_permutation() && a.vars.len() <= 64)
    }

    /// Number of groups.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.groups
    }

    /// Rebuilds every place mask from the current domains and forgets the snapshots. Called once the root
    /// fixpoint is reached (there the domains are small, so this is cheap, and the masks start exact).
    pub(crate) fn init_from<D: Domain>(&mut self, st: &State<D>) {
        self.saved.clear();
        self.places.fill(0);
        for (i, &lp) in self.home.iter().enumerate() {
            let (lo, p) = ((lp >> 6) as usize, lp & 63);
            let Some(&u) = self.members.get(i) else {
                continue;
            };
            let mut d = st.word0(u);
            while !d.is_zero() {
                let b = d.lowest() as usize;
                d = d.clear_lowest();
                if let Some(slot) = self.places.get_mut(lo + b) {
                    *slot |= 1 << p;
                }
            }
        }
    }

    /// A new decision level opens (snapshot mode: saves the masks).
    #[inline]
    pub(crate) fn push_level(&mut self) {
        if self.snapshot {
            self.saved.extend_from_slice(&self.places);
        }
    }

    /// True when undo goes through snapshots (then [`Counted::restore`] must not be used).
    #[inline]
    pub(crate) fn snapshots(&self) -> bool {
        self.snapshot
    }

    /// Snapshot mode: the masks as they were when level `level + 1` opened; later snapshots are dropped.
    #[inline]
    pub(crate) fn back_to(&mut self, level: usize) {
        let n = self.places.len();
        let at = level * n;
        if let Some(old) = self.saved.get(at..at + n) {
            self.places.copy_from_slice(old);
            self.saved.truncate(at);
        }
    }

    /// Number of snapshots held (= open levels in snapshot mode).
    #[inline]
    pub(crate) fn saved_levels(&self) -> usize {
        self.saved.len() / self.places.len().max(1)
    }

    /// Value `b` of the group at `lo` has the places `m` (at most one bit): none is a conflict, one a hidden single.
    #[inline]
    fn check<D: Domain>(
        &self,
        lo: usize,
        b: u32,
        m: u64,
        st: &mut State<D>,
    ) -> Result<(), Conflict> {
        let constraint = self.blame.get(lo).copied().unwrap_or(Conflict::DECISION);
        if m == 0 {
            return Err(Conflict { constraint });
        }
        let Some(&u) = self.members.get(lo + m.trailing_zeros() as usize) else {
            return Ok(());
        };
        let d = st.word0(u);
        let bit = D::W::bit(b);
        // A stale place (its removal not drained yet) is left to the drain, which will then see no place.
        if !(d & bit).is_zero() && d != bit {
            st.blame = constraint;
            st.set_word_sized(u, 0, bit, 1)?;
        }
        Ok(())
    }

    /// Drains the removal of values `gone` from `v`: clears `v`'s place bits, and acts on values left with one
    /// place or none.
    #[inline]
    pub(crate) fn removed<D: Domain>(
        &mut self,
        v: u32,
        gone: D::W,
        st: &mut State<D>,
    ) -> Result<(), Conflict> {
        if gone.clear_lowest().is_zero() {
            // One value gone (forward checking's case): straight-line code per group, no inner loop whose trip
            // count the branch predictor would have to guess.
            let b = gone.lowest();
            for &(lp, _) in self.of_var.row(v) {
                let (lo, p) = ((lp >> 6) as usize, lp & 63);
                let Some(slot) = self.places.get_mut(lo + b as usize) else {
                    continue;
                };
                let m = *slot & !(1u64 << p);
                *slot = m;
                if m & m.wrapping_sub(1) == 0 {
                    self.check(lo, b, m, st)?;
                }
            }
            return Ok(());
        }
        for &(lp, _) in self.of_var.row(v) {
            let (lo, p) = ((lp >> 6) as usize, lp & 63);
            let keep = !(1u64 << p);
            let mut bits = gone;
            while !bits.is_zero() {
                let b = bits.lowest();
                bits = bits.clear_lowest();
                let Some(slot) = self.places.get_mut(lo + b as usize) else {
                    continue;
                };
                let m = *slot & keep;
                *slot = m;
                if m & m.wrapping_sub(1) == 0 {
                    self.check(lo, b, m, st)?;
                }
            }
        }
        Ok(())
    }

    /// Forward checking of `v`, just assigned: removes its position from every other member of `v`'s groups that
    /// still holds it. `Err` blames the group whose member lost its last value. A variable in no counted group
    /// (an interval variable among them: counted groups are aligned, so all bitsets) is left alone before its
    /// position is read.
    #[inline]
    pub(crate) fn assigned<D: Domain>(&self, v: u32, st: &mut State<D>) -> Result<(), Conflict> {
        let rows = self.of_var.row(v);
        if rows.is_empty() {
            return Ok(());
        }
        let b = st.min_pos_bits(v) as u32;
        let bit = D::W::bit(b);
        for &(lp, skip) in rows {
            let lo = (lp >> 6) as usize;
            let Some(&m) = self.places.get(lo + b as usize) else {
                continue;
            };
            let mut others = m & !skip;
            while others != 0 {
                let q = others.trailing_zeros() as usize;
                others &= others - 1;
                let Some(&u) = self.members.get(lo + q) else {
                    continue;
                };
                if st.remove_bit(u, 0, bit).is_err() {
                    return Err(Conflict {
                        constraint: self.blame.get(lo).copied().unwrap_or(Conflict::DECISION),
                    });
                }
            }
        }
        Ok(())
    }

    /// Trail mode undo: the values `back` return to `dom(v)`, so `v`'s place bits for them come back.
    #[inline]
    pub(crate) fn restore<W: Word>(&mut self, v: u32, back: W) {
        for &(lp, _) in self.of_var.row(v) {
            let (lo, p) = ((lp >> 6) as usize, lp & 63);
            let mut bits = back;
            while !bits.is_zero() {
                let b = bits.lowest() as usize;
                bits = bits.clear_lowest();
                if let Some(slot) = self.places.get_mut(lo + b) {
                    *slot |= 1 << p;
                }
            }
        }
    }

    /// Test hook: forces undo by trail replay (`false`) or by snapshots (`true`).
    #[cfg(test)]
    pub(crate) fn set_snapshots(&mut self, on: bool) {
        self.snapshot = on;
        self.saved.clear();
    }

    /// Test hook: true when every place mask equals the one recomputed from the domains.
    #[cfg(test)]
    pub(crate) fn places_exact<D: Domain>(&self, st: &State<D>) -> bool {
        let mut copy = self.clone();
        copy.init_from(st);
        copy.places == self.places
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::heuristics::Rng;
    use crate::model::Model;
    use std::collections::VecDeque;

    /// The dirty-group queue against a plain FIFO model (each group queued at most once, oldest first; `touch`
    /// queues a variable's groups, only the uncounted ones unless `all`; `clear` forgets every pending group),
    /// on random operation sequences over a model with counted and uncounted groups sharing variables.
    #[test]
    fn the_dirty_groups_leave_the_queue_once_each_oldest_first() {
        let mut m = Model::new();
        let x: Vec<_> = (0..6).map(|_| m.new_var(0, 2).unwrap()).collect();
        m.all_different(&x[0..3]).unwrap();
        m.all_different(&x[2..5]).unwrap();
        m.all_different(&[x[4], x[5]]).unwrap();
        m.all_different(&[x[0], x[5], x[3]]).unwrap();
        let p = m.build().unwrap();
        let counted = |c: usize| c == 1;
        let mut g = Groups::new(&p.constraints, p.num_vars(), |_| true, counted);
        assert_eq!(g.len(), 4);
        assert!(g.has_rest());
        let of = |v: u32, all: bool| -> Vec<u32> {
            (0..4u32)
                .filter(|&c| {
                    (all || !counted(c as usize)) && p.constraints[c as usize].vars().contains(&v)
                })
                .collect()
        };
        let mut rng = Rng::new(5);
        let mut model: VecDeque<u32> = VecDeque::new();
        let mut popped = 0;
        for _ in 0..2000 {
            match rng.below(8) {
                0..=3 => {
                    let v = rng.below(6) as u32;
                    let all = rng.below(2) == 0;
                    g.touch(v, all);
                    for c in of(v, all) {
                        if !model.contains(&c) {
                            model.push_back(c);
                        }
                    }
                }
                4 | 5 => {
                    let want = model.pop_front();
                    assert_eq!(g.pop(), want.map(|c| c as usize));
                    if let Some(c) = want {
                        assert_eq!(g.constraint(c as usize), c);
                        popped += 1;
                    }
                }
                6 => {
                    g.touch_all();
                    for c in 0..4 {
                        if !model.contains(&c) {
                            model.push_back(c);
                        }
                    }
                }
                _ => {
                    g.clear();
                    model.clear();
                }
            }
        }
        assert!(popped > 300, "{popped}");
    }

    /// Undo through the propagator to any open level, by snapshots and by trail replay, on a 4x4 Latin square
    /// (rows and columns counted) with an uncounted aligned group: after each `pop_level`, `backtrack_to` (also
    /// over several levels) or failed fixpoint, the domains are those of that level and every place mask equals
    /// the one recomputed from them; snapshot mode holds exactly one snapshot per open level
    /// ([`Counted::saved_levels`]'s contract, so memory does not grow with the search), trail mode none.
    #[test]
    fn undo_to_any_level_restores_the_place_masks_and_keeps_one_snapshot_per_open_level() {
        use crate::constraints::soundness::positions;
        use crate::propagate::{Propagation, Propagator};
        use crate::stats::Stats;
        let n = 4;
        let mut m = Model::new();
        let x = crate::constraints::soundness::latin_square(&mut m, n);
        m.all_different(&[x[0], x[5], x[10]]).unwrap();
        let p = m.build().unwrap();
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        let mut jumps = 0; // backtracks over more than one level
        for snapshots in [true, false] {
            for seed in 0..10 {
                let mut prop = Propagator::for_domain::<u64>(
                    &p.constraints,
                    p.num_vars(),
                    Propagation::Singles,
                    false,
                );
                assert_eq!(prop.counted.len(), 2 * n);
                prop.counted.set_snapshots(snapshots);
                let mut st: State<u64> = State::new(&widths);
                let mut stats = Stats::default();
                prop.root(&p.constraints, &p.values, &mut st, &mut stats)
                    .unwrap();
                let mut stack = vec![positions(&st)];
                let mut rng = Rng::new(seed);
                for _ in 0..300 {
                    let open: Vec<u32> = (0..p.num_vars() as u32)
                        .filter(|&v| !st.is_fixed(v))
                        .collect();
                    let level = st.level();
                    if level > 0 && (open.is_empty() || rng.below(4) == 0) {
                        if rng.below(2) == 0 {
                            let to = rng.below(level as u64) as usize;
                            jumps += usize::from(level - to > 1);
                            prop.backtrack_to(&mut st, to);
                        } else {
                            prop.pop_level(&mut st);
                        }
                        stack.truncate(st.level() + 1);
                    } else {
                        let v = open[rng.below(open.len() as u64) as usize];
                        let pos = st.dom(v).nth(rng.below(st.size(v) as u64) as u32).unwrap();
                        prop.push_level(&mut st);
                        let r = if rng.below(2) == 0 {
                            st.assign(v, pos)
                        } else {
                            st.remove(v, pos)
                        };
                        r.unwrap();
                        if prop
                            .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                            .is_ok()
                        {
                            stack.push(positions(&st));
                        } else {
                            prop.pop_level(&mut st);
                        }
                    }
                    assert_eq!(stack.len(), st.level() + 1);
                    assert_eq!(&positions(&st), stack.last().unwrap(), "{snapshots}: undo");
                    assert!(prop.counted.places_exact(&st), "{snapshots}: places");
                    let held = if snapshots { st.level() } else { 0 };
                    assert_eq!(prop.counted.saved_levels(), held, "{snapshots}: snapshots");
                }
            }
        }
        assert!(jumps > 20, "{jumps}");
    }

    /// The place masks of one permutation group against brute force: random batches of removals (several values,
    /// several members) drained in random order through [`Counted::removed`]. Through every drain step domains
    /// only shrink (the hidden-single rule never gives a member a value it has lost, even while the removal that
    /// took it is not drained yet: such a stale place is left to its own drain); a failure leaves no permutation
    /// within the batch's domains; a batch drained without failure keeps every such permutation, leaves the
    /// masks exact, every value at least one place, and a value with one place assigned there.
    #[test]
    fn draining_removals_finds_the_hidden_singles_and_failures_of_a_permutation_and_loses_no_permutation(
    ) {
        let n: usize = 4;
        let mut m = Model::new();
        let x: Vec<_> = (0..n)
            .map(|_| m.new_var(0, n as i64 - 1).unwrap())
            .collect();
        m.all_different(&x).unwrap();
        let p = m.build().unwrap();
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        let perms: Vec<Vec<usize>> = (0..n.pow(n as u32))
            .map(|t| (0..n).map(|i| t / n.pow(i as u32) % n).collect::<Vec<_>>())
            .filter(|t| (0..n).all(|i| !t[..i].contains(&t[i])))
            .collect();
        assert_eq!(perms.len(), 24);
        let words = |st: &State<u64>| -> Vec<u64> { (0..n as u32).map(|v| st.word0(v)).collect() };
        let within = |t: &[usize], w: &[u64]| t.iter().zip(w).all(|(&b, &d)| d >> b & 1 == 1);
        let mut rng = Rng::new(11);
        let mut seen = [0usize; 3]; // failures, batches drained, hidden singles assigned
        for _ in 0..400 {
            let mut st: State<u64> = State::new(&widths);
            let mut counted = Counted::new(&p.constraints, p.num_vars(), Counted::fits);
            assert_eq!(counted.len(), 1);
            counted.init_from(&st);
            for _ in 0..4 {
                for _ in 0..1 + rng.below(4) {
                    let v = rng.below(n as u64) as u32;
                    if st.size(v) > 1 {
                        let pos = st.dom(v).nth(rng.below(st.size(v) as u64) as u32).unwrap();
                        st.remove(v, pos).unwrap();
                    }
                }
                let batch = words(&st);
                let mut failed = false;
                while !st.changed.is_empty() {
                    let k = rng.below(st.changed.len() as u64) as usize;
                    let v = st.changed.swap_remove(k);
                    let gone = st.unqueue(v);
                    let before = words(&st);
                    let r = counted.removed(v, gone, &mut st);
                    for (a, b) in words(&st).iter().zip(&before) {
                        assert_eq!(a & !b, 0, "a domain grew: {before:?} -> {:?}", words(&st));
                    }
                    if r.is_err() {
                        failed = true;
                        break;
                    }
                }
                if failed {
                    assert!(
                        !perms.iter().any(|t| within(t, &batch)),
                        "failed with a permutation left in {batch:?}"
                    );
                    seen[0] += 1;
                    break;
                }
                let after = words(&st);
                for t in &perms {
                    if within(t, &batch) {
                        assert!(within(t, &after), "lost {t:?}: {batch:?} -> {after:?}");
                    }
                }
                assert!(counted.places_exact(&st));
                for b in 0..n {
                    let holders: Vec<usize> = (0..n).filter(|&i| after[i] >> b & 1 == 1).collect();
                    assert!(!holders.is_empty(), "value {b} has no place in {after:?}");
                    if holders.len() == 1 {
                        assert_eq!(after[holders[0]], 1 << b, "hidden single {b} in {after:?}");
                    }
                }
                seen[1] += 1;
                seen[2] += (0..n)
                    .filter(|&i| after[i].count_ones() == 1 && batch[i].count_ones() > 1)
                    .count();
            }
        }
        assert!(seen.iter().all(|&s| s > 50), "{seen:?}");
    }
}
