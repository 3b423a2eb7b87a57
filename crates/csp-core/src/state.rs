//! The incremental search state: domains, their sizes, the trail, and the change queues propagation drains.
//!
//! [`State::set_word`] is the one function that changes a domain; it trails the old word, keeps `size` and
//! `unassigned` in step, and queues the variable for propagation. Every other mutator is built on it.
//!
//! # Interval variables
//! A variable whose values are a [`crate::values::Values::Interval`] has no bitset: its domain is the positions
//! `lo..=hi` of `bounds[v]`, changed only by [`State::set_bounds`] (the one mutator for intervals, reached through
//! `restrict`, `assign` and `remove`), trailed in `itrail`. Invariants: `lo <= hi`; `size = min(hi - lo + 1,
//! u32::MAX)` (so `size == 1` exactly when fixed, and the size merits of the heuristics still order variables);
//! `dom(v)` is a placeholder that no one may read (debug builds assert it). The domain has no holes: removing a
//! position strictly inside the interval changes nothing, which is sound (propagation may always keep more values)
//! and is why searches branch on intervals by bounds (`x = lo`, `x = hi` or a split `x <= p`, never `x != p` in the
//! middle). Constraints reach intervals only through `min_pos` / `max_pos` / `contains` and the mutators; a
//! constraint that needs the bitset says so ([`crate::constraints::Constraint::accepts_intervals`]) and the model
//! refuses to post it on an interval.

use crate::domain::{Domain, Event, Word};
use crate::trail::Trail;
use crate::trailed::Trailed;

/// Why propagation stopped: the constraint that emptied a domain or found a violation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// Index of the failing constraint ([`Conflict::DECISION`] when no constraint was running).
    pub constraint: u32,
}

impl Conflict {
    /// Blame used when a failure happens outside any constraint (an assumption or decision).
    pub const DECISION: u32 = u32::MAX;
}

/// One variable's entry in [`State`].
#[derive(Clone, Debug)]
struct VarState<D: Domain> {
    /// Positions the variable may still take; never empty outside a failing operation.
    dom: D,
    /// `dom.count()`, kept incrementally so MRV never counts bits.
    size: u32,
    /// The variable is in `State::changed`.
    queued: bool,
    /// The variable is an interval: `State::bounds[v]` is its domain and `dom` is a placeholder.
    interval: bool,
    /// Bits of word 0 removed since the variable was last drained from `changed` (zero when not queued): lets
    /// propagators that keep per-value counts learn which values left.
    delta: D::W,
    /// Stamp of the level at which the domain word was last trailed (one-word domains only): a second change in
    /// the same level needs no entry, because undo only needs the word as the level found it. With the root never
    /// trailed, this saved 3-7% of instructions on the Sudoku datasets.
    stamp: u64,
}

/// Domains and bookkeeping of one search.
///
/// Field invariants (checked by [`State::check_invariants`] in debug builds):
#[derive(Clone, Debug)]
pub struct State<D: Domain> {
    /// `vars[v]` = domain, size and queue flag of variable `v`, side by side so one bounds check and one cache
    /// line serve a removal (measured: -10% instructions on Sudoku against three parallel vectors).
    vars: Vec<VarState<D>>,
    /// Number of variables with `size > 1`.
    unassigned: u32,
    /// Old words of every change, delimited by decision level.
    trail: Trail<D::W>,
    /// Stamp of the current level; 0 = the root, which is never undone and so never trailed (one-word domains).
    stamp: u64,
    /// Stamps of the enclosing open levels (`stamps.len()` = decision level).
    stamps: Vec<u64>,
    /// Next unused stamp: stamps are never reused within a solve, so a stale `VarState::stamp` never matches.
    next_stamp: u64,
    /// Variables that became assigned (size 1) since the queue was last cleared, in order; `fixed[fixed_head..]`
    /// still await their assignment propagators.
    pub(crate) fixed: Vec<u32>,
    /// Next entry of `fixed` to propagate.
    pub(crate) fixed_head: usize,
    /// Variables whose domain changed and whose domain watchers are not yet scheduled; no duplicates.
    pub(crate) changed: Vec<u32>,
    /// Constraint currently propagating; blamed for any conflict it raises.
    pub(crate) blame: u32,
    /// Scratch domains for propagators (one per position of the widest table), cleared before each use.
    pub(crate) scratch: Vec<D>,
    /// Words that constraints keep between calls (`table`'s valid rows), trailed level by level with the domains.
    pub(crate) cstate: Trailed<D::W>,
    /// Scratch numbers a propagator borrows for one call (`std::mem::take`, then given back), so propagation
    /// allocates nothing once it has grown; empty between calls.
    pub(crate) work: Vec<i128>,
    /// Scratch indexes, borrowed like `work`.
    pub(crate) order: Vec<u32>,
    /// `bounds[v]` = the domain of interval variable `v` (unused for bitset variables); empty when the problem has
    /// no interval.
    bounds: Vec<Bounds>,
    /// `bounds_init[v]` = the full interval of `v` (reset source).
    bounds_init: Vec<Bounds>,
    /// Old bounds of every interval change, `(variable, bounds before)`, at most one entry per variable and level
    /// (the stamp of `VarState` says whether the level already saved it).
    itrail: Vec<(u32, Bounds)>,
    /// `ilevel[i]` = `itrail.len()` when level `i + 1` began (kept only when there are intervals).
    ilevel: Vec<u32>,
}

/// The positions `lo..=hi` left to an interval variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Lowest position left.
    pub lo: usize,
    /// Highest position left (`>= lo`).
    pub hi: usize,
}

impl Bounds {
    /// The size an interval reports: its number of positions, saturated at `u32::MAX`.
    #[inline]
    fn size(self) -> u32 {
        (self.hi - self.lo + 1).min(u32::MAX as usize) as u32
    }
}

impl<D: Domain> State<D> {
    /// A state with the full domains of the given widths, at level 0 (every variable a bitset).
    pub fn new(widths: &[usize]) -> Self {
        Self::with_intervals(widths, &[])
    }

    /// A state with the full domains of the given widths, at level 0, where `interval[v]` (if present and true)
    /// makes `v` an interval variable of positions `0..widths[v]` instead of a bitset.
    pub fn with_intervals(widths: &[usize], interval: &[bool]) -> Self {
        let n = widths.len();
        let is_iv = |v: usize| interval.get(v).copied().unwrap_or(false);
        let any = (0..n).any(is_iv);
        let bounds_init: Vec<Bounds> = if any {
            widths
                .iter()
                .map(|&w| Bounds {
                    lo: 0,
                    hi: w.max(1) - 1,
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut st = Self {
            vars: widths
                .iter()
                .enumerate()
                .map(|(v, &w)| VarState {
                    dom: D::full(if is_iv(v) { 1 } else { w }),
                    size: 0,
                    queued: false,
                    interval: is_iv(v),
                    delta: D::W::ZERO,
                    stamp: 0,
                })
                .collect(),
            unassigned: 0,
            trail: Trail::new(),
            stamp: 0,
            stamps: Vec::new(),
            next_stamp: 1,
            fixed: Vec::with_capacity(n),
            fixed_head: 0,
            changed: Vec::with_capacity(n),
            blame: Conflict::DECISION,
            scratch: Vec::new(),
            cstate: Trailed::empty(),
            work: Vec::new(),
            order: Vec::new(),
            bounds: bounds_init.clone(),
            bounds_init,
            itrail: Vec::new(),
            ilevel: Vec::new(),
        };
        let init: Vec<D> = (0..n)
            .map(|v| D::full(if is_iv(v) { 1 } else { widths[v] }))
            .collect();
        st.reset(&init);
        st
    }

    /// True when some variable is an interval.
    #[inline]
    pub fn has_intervals(&self) -> bool {
        !self.bounds.is_empty()
    }

    /// True when `v` is an interval variable.
    #[inline]
    pub fn is_interval(&self, v: u32) -> bool {
        self.vars[v as usize].interval
    }

    /// Restores the given initial domains and empties trail and queues: O(vars), no allocation. Interval variables
    /// return to their full interval (their entry of `init` is ignored).
    ///
    /// Variables whose initial domain is a single value are queued as assigned, so their propagators run at the
    /// root like any other assignment.
    pub fn reset(&mut self, init: &[D]) {
        self.trail.clear();
        self.itrail.clear();
        self.ilevel.clear();
        self.cstate.reset();
        self.stamp = 0;
        self.stamps.clear();
        self.next_stamp = 1;
        self.fixed.clear();
        self.fixed_head = 0;
        self.clear_changed();
        self.unassigned = 0;
        for (v, d0) in init.iter().enumerate() {
            let d = &mut self.vars[v].dom;
            for s in 0..d0.slots() {
                d.set_word(s, d0.word(s));
            }
            let c = if self.vars[v].interval {
                self.bounds[v] = self.bounds_init[v];
                self.bounds[v].size()
            } else {
                d0.count()
            };
            self.vars[v].size = c;
            self.vars[v].stamp = 0;
            self.vars[v].delta = D::W::ZERO;
            if c > 1 {
                self.unassigned += 1;
            } else {
                self.fixed.push(v as u32);
            }
        }
    }

    /// Empties the change queue (after a conflict or a fixpoint).
    pub fn clear_changed(&mut self) {
        for &v in &self.changed {
            let x = &mut self.vars[v as usize];
            x.queued = false;
            x.delta = D::W::ZERO;
        }
        self.changed.clear();
    }

    /// Number of variables.
    #[inline]
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// Domain of bitset variable `v` (never of an interval: use `min_pos`, `max_pos`, `contains`, `bounds`).
    #[inline]
    pub fn dom(&self, v: u32) -> &D {
        debug_assert!(!self.vars[v as usize].interval, "dom() of interval x{v}");
        &self.vars[v as usize].dom
    }

    /// The interval of interval variable `v`.
    #[inline]
    pub fn bounds(&self, v: u32) -> Bounds {
        self.bounds[v as usize]
    }

    /// `dom(v)` and the constraints' trailed store at once (a propagator reads the one while updating the other).
    #[inline]
    pub(crate) fn dom_and_cstate(&mut self, v: u32) -> (&D, &mut Trailed<D::W>) {
        (&self.vars[v as usize].dom, &mut self.cstate)
    }

    /// Word 0 of `dom(v)`: the whole domain for one-word representations.
    #[inline(always)]
    pub(crate) fn word0(&self, v: u32) -> D::W {
        self.vars[v as usize].dom.word(0)
    }

    /// Domain sizes in variable order.
    #[inline]
    pub fn sizes(&self) -> impl Iterator<Item = u32> + Clone + '_ {
        self.vars.iter().map(|x| x.size)
    }

    /// Marks `v` as no longer queued in `changed` (the propagator drained it).
    #[inline]
    pub(crate) fn unqueue(&mut self, v: u32) -> D::W {
        let x = &mut self.vars[v as usize];
        x.queued = false;
        std::mem::replace(&mut x.delta, D::W::ZERO)
    }

    /// Size of `dom(v)`.
    #[inline]
    pub fn size(&self, v: u32) -> u32 {
        self.vars[v as usize].size
    }

    /// True when `v` has exactly one position left.
    #[inline]
    pub fn is_fixed(&self, v: u32) -> bool {
        self.vars[v as usize].size == 1
    }

    /// Lowest position of `v` (its value's position once fixed).
    #[inline]
    pub fn min_pos(&self, v: u32) -> usize {
        let x = &self.vars[v as usize];
        if x.interval {
            self.bounds[v as usize].lo
        } else {
            x.dom.first().unwrap_or(0)
        }
    }

    /// Lowest position of bitset variable `v`: [`State::min_pos`] without the interval test, for the forward
    /// checking paths of aligned groups, which never hold intervals.
    #[inline(always)]
    pub(crate) fn min_pos_bits(&self, v: u32) -> usize {
        debug_assert!(!self.vars[v as usize].interval);
        self.vars[v as usize].dom.first().unwrap_or(0)
    }

    /// Highest position of `v`.
    #[inline]
    pub fn max_pos(&self, v: u32) -> usize {
        let x = &self.vars[v as usize];
        if x.interval {
            self.bounds[v as usize].hi
        } else {
            x.dom.last().unwrap_or(0)
        }
    }

    /// True when position `p` is in the domain of `v`.
    #[inline]
    pub fn contains(&self, v: u32, p: usize) -> bool {
        let x = &self.vars[v as usize];
        if x.interval {
            let b = self.bounds[v as usize];
            b.lo <= p && p <= b.hi
        } else {
            x.dom.contains(p)
        }
    }

    /// True when [`State::remove`] of position `p` would change `dom(v)`: `p` is in a bitset, or is a bound of an
    /// interval (forward checking's "would this value go", for value-order hints and the fixpoint check).
    #[inline]
    pub fn removable(&self, v: u32, p: usize) -> bool {
        let x = &self.vars[v as usize];
        if x.interval {
            let b = self.bounds[v as usize];
            p == b.lo || p == b.hi
        } else {
            x.dom.contains(p)
        }
    }

    /// Narrows interval variable `v` to positions `lo..=hi` intersected with its current interval: the only
    /// mutator of intervals. Trails the old bounds once per level, updates `size` / `unassigned`, queues `v`;
    /// an empty result is refused (nothing written) and reported as `Err`.
    pub fn set_bounds(&mut self, v: u32, lo: usize, hi: usize) -> Result<Event, Conflict> {
        let vi = v as usize;
        debug_assert!(self.vars[vi].interval);
        let old = self.bounds[vi];
        let new = Bounds {
            lo: lo.max(old.lo),
            hi: hi.min(old.hi),
        };
        if new.lo > new.hi {
            return Err(self.conflict());
        }
        if new == old {
            return Ok(Event::Unchanged);
        }
        let x = &mut self.vars[vi];
        if x.stamp != self.stamp {
            self.itrail.push((v, old));
            x.stamp = self.stamp;
        }
        self.bounds[vi] = new;
        let size = new.size();
        x.size = size;
        if !x.queued {
            x.queued = true;
            self.changed.push(v);
        }
        if size == 1 {
            self.unassigned -= 1;
            self.fixed.push(v);
            Ok(Event::Assigned)
        } else {
            Ok(Event::Reduced)
        }
    }

    /// Removes position `i` from interval `v`: only a bound can go (no holes).
    fn remove_from_interval(&mut self, v: u32, i: usize) -> Result<Event, Conflict> {
        let b = self.bounds[v as usize];
        if i == b.lo {
            self.set_bounds(v, i.saturating_add(1), b.hi)
        } else if i == b.hi {
            match i.checked_sub(1) {
                Some(h) => self.set_bounds(v, b.lo, h),
                None => Err(self.conflict()),
            }
        } else {
            Ok(Event::Unchanged)
        }
    }

    /// Number of variables with more than one position.
    #[inline]
    pub fn unassigned(&self) -> u32 {
        self.unassigned
    }

    /// Current decision level.
    #[inline]
    pub fn level(&self) -> usize {
        self.trail.level()
    }

    /// Number of trail entries (for tests and statistics).
    pub fn trail_len(&self) -> usize {
        self.trail.len()
    }

    /// A conflict blamed on the running constraint.
    #[inline]
    pub fn conflict(&self) -> Conflict {
        Conflict {
            constraint: self.blame,
        }
    }

    /// Replaces word `s` of `dom(v)` by `new`, which must be a subset of the old word: the only domain mutator.
    ///
    /// Trails the old word, updates `size` / `unassigned`, and queues `v` for propagation. Emptying the domain is
    /// refused (nothing is written) and reported as `Err`.
    #[inline]
    pub fn set_word(&mut self, v: u32, s: usize, new: D::W) -> Result<Event, Conflict> {
        let vi = v as usize;
        let x = &self.vars[vi];
        debug_assert!(!x.interval, "set_word on interval x{v}");
        let old = x.dom.word(s);
        if new == old {
            return Ok(Event::Unchanged);
        }
        let size = x.size - (old.count() - new.count());
        self.set_word_sized(v, s, new, size)
    }

    /// [`State::set_word`] when the caller knows the resulting domain size `size` (saves two popcounts).
    #[inline]
    pub fn set_word_sized(
        &mut self,
        v: u32,
        s: usize,
        new: D::W,
        size: u32,
    ) -> Result<Event, Conflict> {
        let vi = v as usize;
        let x = &mut self.vars[vi];
        let old = x.dom.word(s);
        debug_assert!((new & !old).is_zero(), "domains only shrink");
        debug_assert_eq!(
            size,
            x.size - (old.count() - new.count()),
            "caller's size is wrong"
        );
        if new == old {
            return Ok(Event::Unchanged);
        }
        if size == 0 {
            return Err(self.conflict());
        }
        if D::MAX_WIDTH > 128 || x.stamp != self.stamp {
            self.trail.record(v, s as u32, x.size, old);
            x.stamp = self.stamp;
        }
        x.dom.set_word(s, new);
        x.size = size;
        if s == 0 {
            x.delta |= old & !new;
        }
        if !x.queued {
            x.queued = true;
            self.changed.push(v);
        }
        if size == 1 {
            self.unassigned -= 1;
            self.fixed.push(v);
            Ok(Event::Assigned)
        } else {
            Ok(Event::Reduced)
        }
    }

    /// Removes position `i` from `dom(v)` (from an interval only when `i` is one of its bounds).
    #[inline(always)]
    pub fn remove(&mut self, v: u32, i: usize) -> Result<Event, Conflict> {
        if self.vars[v as usize].interval {
            return self.remove_from_interval(v, i);
        }
        let (s, b) = D::locate(i);
        self.remove_bit(v, s, D::W::bit(b))
    }

    /// [`State::remove`] on a variable known to be a bitset (forward checking of range-shaped `all_different`
    /// groups, which never hold intervals): no interval test on this hot path (measured: queens 1000 +3.7%
    /// instructions with the test).
    #[inline(always)]
    pub(crate) fn remove_from_bits(&mut self, v: u32, i: usize) -> Result<Event, Conflict> {
        let (s, b) = D::locate(i);
        self.remove_bit(v, s, D::W::bit(b))
    }

    /// Removes the single bit `bit` of slot `s` from `dom(v)`: [`State::set_word`] specialised to one bit, the hot
    /// path of forward checking (no popcount: the size drops by exactly one).
    #[inline(always)]
    pub fn remove_bit(&mut self, v: u32, s: usize, bit: D::W) -> Result<Event, Conflict> {
        let vi = v as usize;
        let x = &mut self.vars[vi];
        debug_assert!(!x.interval, "remove_bit on interval x{v}");
        let d = &mut x.dom;
        if s >= d.slots() {
            return Ok(Event::Unchanged);
        }
        let old = d.word(s);
        if (old & bit).is_zero() {
            return Ok(Event::Unchanged);
        }
        let size = x.size - 1;
        if size == 0 {
            return Err(Conflict {
                constraint: self.blame,
            });
        }
        d.set_word(s, old & !bit);
        if D::MAX_WIDTH > 128 || x.stamp != self.stamp {
            self.trail.record(v, s as u32, size + 1, old);
            x.stamp = self.stamp;
        }
        x.size = size;
        if s == 0 {
            x.delta |= bit;
        }
        if !x.queued {
            x.queued = true;
            self.changed.push(v);
        }
        if size == 1 {
            self.unassigned -= 1;
            self.fixed.push(v);
            Ok(Event::Assigned)
        } else {
            Ok(Event::Reduced)
        }
    }

    /// [`State::remove_bit`] on every variable of `peers` (forward checking of one assigned value), with the
    /// state's fields held in registers across the loop. `Err(k)` when `peers[k]` would lose its last value (the
    /// earlier removals stay, as with a failing `remove_bit`). Variables are valid indexes (checked by the model).
    #[inline(always)]
    pub(crate) fn remove_bit_peers(
        &mut self,
        peers: &[u32],
        s: usize,
        bit: D::W,
    ) -> Result<(), usize> {
        let stamp = self.stamp;
        // One-word domains have only slot 0: saying so lets the slot test fold away.
        let s = if D::MAX_WIDTH <= 128 { 0 } else { s };
        let vars = &mut self.vars[..];
        for (k, &u) in peers.iter().enumerate() {
            let Some(x) = vars.get_mut(u as usize) else {
                continue;
            };
            if s >= x.dom.slots() {
                continue;
            }
            let old = x.dom.word(s);
            if (old & bit).is_zero() {
                continue;
            }
            let size = x.size - 1;
            if size == 0 {
                return Err(k);
            }
            x.dom.set_word(s, old & !bit);
            if D::MAX_WIDTH > 128 || x.stamp != stamp {
                self.trail.record(u, s as u32, size + 1, old);
                x.stamp = stamp;
            }
            x.size = size;
            if s == 0 {
                x.delta |= bit;
            }
            if !x.queued {
                x.queued = true;
                self.changed.push(u);
            }
            if size == 1 {
                self.unassigned -= 1;
                self.fixed.push(u);
            }
        }
        Ok(())
    }

    /// Reduces `dom(v)` to position `i`; `Err` if `i` is not in it.
    pub fn assign(&mut self, v: u32, i: usize) -> Result<Event, Conflict> {
        if self.vars[v as usize].interval {
            return self.set_bounds(v, i, i);
        }
        if !self.vars[v as usize].dom.contains(i) {
            return Err(self.conflict());
        }
        let (si, b) = D::locate(i);
        let slots = self.vars[v as usize].dom.slots();
        let mut ev = Event::Unchanged;
        for s in 0..slots {
            let keep = if s == si { D::W::bit(b) } else { D::W::ZERO };
            let w = self.vars[v as usize].dom.word(s);
            let e = self.set_word(v, s, w & keep)?;
            if e != Event::Unchanged {
                ev = e;
            }
        }
        Ok(ev)
    }

    /// Keeps only positions `lo..hi` of `dom(v)`.
    pub fn restrict(&mut self, v: u32, lo: usize, hi: usize) -> Result<Event, Conflict> {
        if lo >= hi {
            return Err(self.conflict());
        }
        if self.vars[v as usize].interval {
            return self.set_bounds(v, lo, hi - 1);
        }
        let bits = D::W::BITS as usize;
        let slots = self.vars[v as usize].dom.slots();
        let mut ev = Event::Unchanged;
        for s in 0..slots {
            let start = s * bits;
            let end = start + bits;
            let mut mask = !D::W::ZERO;
            if lo > start {
                mask = if lo >= end {
                    D::W::ZERO
                } else {
                    mask & !D::W::low_mask((lo - start) as u32)
                };
            }
            if hi < end {
                mask = if hi <= start {
                    D::W::ZERO
                } else {
                    mask & D::W::low_mask((hi - start) as u32)
                };
            }
            let w = self.vars[v as usize].dom.word(s);
            let e = self.set_word(v, s, w & mask)?;
            if e != Event::Unchanged {
                ev = e;
            }
        }
        Ok(ev)
    }

    /// Intersects `dom(v)` with `mask` (a domain of the same width).
    pub fn intersect(&mut self, v: u32, mask: &D) -> Result<Event, Conflict> {
        debug_assert!(
            !self.vars[v as usize].interval,
            "intersect on interval x{v}"
        );
        let slots = self.vars[v as usize].dom.slots();
        let mut ev = Event::Unchanged;
        for s in 0..slots {
            let w = self.vars[v as usize].dom.word(s);
            let e = self.set_word(v, s, w & mask.word(s))?;
            if e != Event::Unchanged {
                ev = e;
            }
        }
        Ok(ev)
    }

    /// Opens a new decision level.
    #[inline]
    pub fn push_level(&mut self) {
        self.trail.push_level();
        self.cstate.push_level();
        if !self.bounds.is_empty() {
            self.ilevel.push(self.itrail.len() as u32);
        }
        self.stamps.push(self.stamp);
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
    }

    /// Undoes the newest level: old words come back newest-first, sizes and counts follow.
    pub fn pop_level(&mut self) {
        self.pop_level_with(|_, _| {});
    }

    /// [`State::pop_level`], telling `restored(v, bits)` which bits of word 0 of `dom(v)` come back (for
    /// propagators that keep per-value counts in step with the domains).
    #[inline]
    pub fn pop_level_with(&mut self, mut restored: impl FnMut(u32, D::W)) {
        let (vars, unassigned) = (&mut self.vars, &mut self.unassigned);
        self.trail.pop_level(|e| {
            let v = e.var as usize;
            let x = &mut vars[v];
            // Branch-free: whether an entry reopens a variable is unpredictable.
            *unassigned += u32::from(x.size == 1) & u32::from(e.old_size() > 1);
            x.size = e.old_size();
            let s = e.slot();
            if s == 0 {
                restored(e.var, e.old & !x.dom.word(0));
            }
            x.dom.set_word(s, e.old);
        });
        self.cstate.pop_level();
        if let Some(start) = self.ilevel.pop() {
            while self.itrail.len() > start as usize {
                let Some((v, old)) = self.itrail.pop() else {
                    break;
                };
                let x = &mut self.vars[v as usize];
                let size = old.size();
                self.unassigned += u32::from(x.size == 1) & u32::from(size > 1);
                x.size = size;
                self.bounds[v as usize] = old;
            }
        }
        if let Some(stamp) = self.stamps.pop() {
            self.stamp = stamp;
        }
    }

    /// Undoes levels until the current level is `level`.
    pub fn backtrack_to(&mut self, level: usize) {
        self.backtrack_to_with(level, |_, _| {});
    }

    /// [`State::backtrack_to`] with the `restored` callback of [`State::pop_level_with`].
    pub fn backtrack_to_with(&mut self, level: usize, mut restored: impl FnMut(u32, D::W)) {
        while self.trail.level() > level {
            self.pop_level_with(&mut restored);
        }
    }

    /// Recomputes sizes and the unassigned count from scratch and compares them with the incremental values.
    ///
    /// Returns a description of the first mismatch. Called after each fixpoint under `debug_assertions`.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut unassigned = 0;
        for (v, x) in self.vars.iter().enumerate() {
            if x.interval {
                let b = self.bounds[v];
                if b.lo > b.hi || b.size() != x.size {
                    return Err(format!("interval x{v}: {b:?} with size {}", x.size));
                }
                unassigned += u32::from(x.size > 1);
                continue;
            }
            let d = &x.dom;
            let c = d.count();
            if c != x.size {
                return Err(format!("size[{v}] = {} but dom has {c} values", x.size));
            }
            if c == 0 {
                return Err(format!("dom[{v}] is empty"));
            }
            if c > 1 {
                unassigned += 1;
            }
        }
        if unassigned != self.unassigned {
            return Err(format!(
                "unassigned = {} but {unassigned} variables are open",
                self.unassigned
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn undo_restores_level_zero_domains() {
        let widths = [9, 9, 200, 1];
        let mut st: State<crate::domain::WideDomain> = State::new(&widths);
        let before: Vec<_> = (0..4).map(|v| st.dom(v).clone()).collect();
        st.push_level();
        st.remove(0, 3).unwrap();
        // A multi-word representation trails every change: one entry so far.
        assert_eq!(st.trail_len(), 1);
        st.assign(2, 150).unwrap();
        st.push_level();
        st.restrict(1, 2, 5).unwrap();
        assert_eq!(st.size(1), 3);
        assert!(st.check_invariants().is_ok());
        st.backtrack_to(0);
        let after: Vec<_> = (0..4).map(|v| st.dom(v).clone()).collect();
        assert_eq!(before, after);
        assert!(st.check_invariants().is_ok());
    }

    #[test]
    fn emptying_a_domain_is_a_conflict_and_changes_nothing() {
        let mut st: State<u64> = State::new(&[2]);
        st.remove(0, 0).unwrap();
        assert!(st.remove(0, 1).is_err());
        assert_eq!(st.size(0), 1);
    }

    /// What one variable's domain should be, kept the slow way.
    #[derive(Clone, Debug, PartialEq)]
    enum Slow {
        /// A bitset variable's positions.
        Bits(std::collections::BTreeSet<usize>),
        /// An interval variable's bounds `lo..=hi`.
        Interval(usize, usize),
    }

    impl Slow {
        fn size(&self) -> u32 {
            match self {
                Slow::Bits(b) => b.len() as u32,
                Slow::Interval(lo, hi) => (hi - lo + 1) as u32,
            }
        }
        fn contains(&self, p: usize) -> bool {
            match self {
                Slow::Bits(b) => b.contains(&p),
                Slow::Interval(lo, hi) => *lo <= p && p <= *hi,
            }
        }
        fn bits(&self) -> std::collections::BTreeSet<usize> {
            match self {
                Slow::Bits(b) => b.clone(),
                Slow::Interval(..) => Default::default(),
            }
        }
    }

    /// The state as a model: domains, the saved domains of each open level, and the propagation queues.
    struct Mirror {
        doms: Vec<Slow>,
        levels: Vec<Vec<Slow>>,
        /// `queued[v]`: `v` changed since it was last drained.
        queued: Vec<bool>,
        /// Positions of word 0 removed since `v` was last drained.
        delta: Vec<std::collections::BTreeSet<usize>>,
        /// Variables that became assigned, in order, since the queue was last emptied.
        fixed: Vec<u32>,
    }

    impl Mirror {
        /// Records the outcome of an operation on `v` that left `after` (or failed) and checks the event.
        fn apply(
            &mut self,
            v: u32,
            after: Option<Slow>,
            word_bits: usize,
            got: Result<Event, Conflict>,
        ) {
            let vi = v as usize;
            let Some(after) = after.filter(|a| a.size() > 0) else {
                assert!(got.is_err(), "x{v}: emptied but {got:?}");
                return;
            };
            let before = std::mem::replace(&mut self.doms[vi], after.clone());
            let want = if before == after {
                Event::Unchanged
            } else if after.size() == 1 {
                Event::Assigned
            } else {
                Event::Reduced
            };
            assert_eq!(got, Ok(want), "x{v}: {before:?} -> {after:?}");
            if want == Event::Unchanged {
                return;
            }
            self.queued[vi] = true;
            let gone = before
                .bits()
                .difference(&after.bits())
                .copied()
                .collect::<Vec<_>>();
            self.delta[vi].extend(gone.into_iter().filter(|&p| p < word_bits));
            if want == Event::Assigned {
                self.fixed.push(v);
            }
        }
    }

    /// The positions of a word's set bits, from `base`.
    fn positions<W: Word>(mut w: W, base: usize) -> Vec<usize> {
        let mut out = Vec::new();
        while !w.is_zero() {
            out.push(base + w.lowest() as usize);
            w = w.clear_lowest();
        }
        out
    }

    fn check<D: Domain>(st: &State<D>, m: &Mirror, widths: &[usize], step: usize) {
        let bits = D::W::BITS as usize;
        assert_eq!(st.level(), m.levels.len(), "step {step}");
        assert_eq!(st.num_vars(), widths.len());
        let sizes: Vec<u32> = m.doms.iter().map(Slow::size).collect();
        assert_eq!(st.sizes().collect::<Vec<_>>(), sizes, "step {step}");
        let open = sizes.iter().filter(|&&s| s > 1).count() as u32;
        assert_eq!(st.unassigned(), open, "step {step}");
        for (v, d) in m.doms.iter().enumerate() {
            let (v32, w) = (v as u32, widths[v]);
            assert_eq!(st.size(v32), d.size(), "step {step} x{v}");
            assert_eq!(st.is_fixed(v32), d.size() == 1, "step {step} x{v}");
            for p in 0..w + 2 {
                assert_eq!(st.contains(v32, p), d.contains(p), "step {step} x{v} {p}");
            }
            match d {
                Slow::Interval(lo, hi) => {
                    assert!(st.is_interval(v32));
                    assert_eq!(
                        st.bounds(v32),
                        Bounds { lo: *lo, hi: *hi },
                        "step {step} x{v}"
                    );
                    assert_eq!((st.min_pos(v32), st.max_pos(v32)), (*lo, *hi));
                    for p in 0..w + 2 {
                        assert_eq!(
                            st.removable(v32, p),
                            p == *lo || p == *hi,
                            "step {step} x{v} {p}"
                        );
                    }
                }
                Slow::Bits(b) => {
                    assert!(!st.is_interval(v32));
                    let listed: Vec<usize> = b.iter().copied().collect();
                    let dom: Vec<usize> = st.dom(v32).iter().collect();
                    assert_eq!(dom, listed, "step {step} x{v}");
                    assert_eq!(st.min_pos(v32), listed[0], "step {step} x{v}");
                    assert_eq!(st.min_pos_bits(v32), listed[0], "step {step} x{v}");
                    assert_eq!(
                        st.max_pos(v32),
                        listed[listed.len() - 1],
                        "step {step} x{v}"
                    );
                    let low: Vec<usize> = listed.iter().copied().filter(|&p| p < bits).collect();
                    assert_eq!(positions(st.word0(v32), 0), low, "step {step} x{v}");
                    for p in 0..w + 2 {
                        assert_eq!(st.removable(v32, p), b.contains(&p), "step {step} x{v} {p}");
                    }
                }
            }
        }
        assert_eq!(st.check_invariants(), Ok(()), "step {step}");
    }

    /// Random operations through every mutator, level and queue of `State<D>`, each checked against [`Mirror`].
    fn random_operations_match_the_model<D: Domain>(
        widths: &[usize],
        intervals: &[bool],
        seed: u64,
    ) {
        let mut rng = crate::rng::Rng::new(seed);
        let bits = D::W::BITS as usize;
        let n = widths.len();
        let is_iv = |v: usize| intervals.get(v).copied().unwrap_or(false);
        let full = |v: usize| {
            if is_iv(v) {
                Slow::Interval(0, widths[v] - 1)
            } else {
                Slow::Bits((0..widths[v]).collect())
            }
        };
        let mut st: State<D> = State::with_intervals(widths, intervals);
        assert_eq!(st.has_intervals(), (0..n).any(is_iv));
        let mut m = Mirror {
            doms: (0..n).map(full).collect(),
            levels: Vec::new(),
            queued: vec![false; n],
            delta: vec![Default::default(); n],
            fixed: (0..n)
                .filter(|&v| widths[v] == 1)
                .map(|v| v as u32)
                .collect(),
        };
        let bitsets: Vec<u32> = (0..n).filter(|&v| !is_iv(v)).map(|v| v as u32).collect();
        check(&st, &m, widths, 0);
        for step in 1..=3000 {
            let v = rng.below(n as u64) as u32;
            let vi = v as usize;
            let w = widths[vi];
            let p = rng.below(w as u64 + 1) as usize;
            let cur = m.doms[vi].clone();
            let multi_slot = !is_iv(vi) && w > bits;
            match rng.below(16) {
                0..=2 => {
                    let after = match &cur {
                        Slow::Bits(b) => {
                            let mut b = b.clone();
                            b.remove(&p);
                            Slow::Bits(b)
                        }
                        Slow::Interval(lo, hi) if p == *lo => Slow::Interval(lo + 1, *hi),
                        Slow::Interval(lo, hi) if p == *hi => {
                            Slow::Interval(*lo, hi.wrapping_sub(1))
                        }
                        iv => iv.clone(),
                    };
                    let after = match after {
                        Slow::Interval(lo, hi) if lo > hi || hi == usize::MAX => None,
                        a => Some(a),
                    };
                    let got = st.remove(v, p);
                    m.apply(v, after, bits, got);
                }
                3 if !is_iv(vi) => {
                    // remove_bit, also on a slot past the domain's words.
                    let (s, b) = D::locate(p + rng.below(2) as usize * bits * 4);
                    let pos = s * bits + b as usize;
                    let mut after = cur.bits();
                    after.remove(&pos);
                    let got = st.remove_bit(v, s, D::W::bit(b));
                    m.apply(v, Some(Slow::Bits(after)), bits, got);
                }
                4 => {
                    let after = match &cur {
                        Slow::Bits(b) => b.contains(&p).then(|| Slow::Bits([p].into())),
                        Slow::Interval(lo, hi) => {
                            (*lo <= p && p <= *hi).then_some(Slow::Interval(p, p))
                        }
                    };
                    let got = st.assign(v, p);
                    m.apply(v, after, bits, got);
                }
                5 | 6 => {
                    let lo = rng.below(w as u64 + 1) as usize;
                    let hi = lo + rng.below((w - lo.min(w)) as u64 + 2) as usize;
                    let after = if lo >= hi {
                        None
                    } else {
                        match &cur {
                            Slow::Bits(b) => Some(Slow::Bits(b.range(lo..hi).copied().collect())),
                            Slow::Interval(a, b) => {
                                let (a, b) = (lo.max(*a), (hi - 1).min(*b));
                                (a <= b).then_some(Slow::Interval(a, b))
                            }
                        }
                    };
                    if multi_slot && after.as_ref().is_none_or(|a| a.size() == 0) && lo < hi {
                        continue; // may fail half-way through the words: see op 9 for failures
                    }
                    let got = st.restrict(v, lo, hi);
                    m.apply(v, after, bits, got);
                }
                7 if is_iv(vi) => {
                    let lo = rng.below(w as u64) as usize;
                    let hi = rng.below(w as u64) as usize;
                    let Slow::Interval(a, b) = cur else {
                        unreachable!()
                    };
                    let (a, b) = (lo.max(a), hi.min(b));
                    let after = (a <= b).then_some(Slow::Interval(a, b));
                    let got = st.set_bounds(v, lo, hi);
                    m.apply(v, after, bits, got);
                }
                8 if !is_iv(vi) => {
                    // set_word and intersect with a random mask of the domain's width.
                    let mut mask = D::full(w);
                    let mut keep = cur.bits();
                    for q in 0..w {
                        if rng.below(3) == 0 {
                            let (s, b) = D::locate(q);
                            mask.set_word(s, mask.word(s) & !D::W::bit(b));
                            keep.remove(&q);
                        }
                    }
                    let slot = rng.below(st.dom(v).slots() as u64) as usize;
                    if rng.below(2) == 0 || !multi_slot {
                        let old = st.dom(v).word(slot);
                        let mut after = cur.bits();
                        for q in positions(old & !mask.word(slot), slot * bits) {
                            after.remove(&q);
                        }
                        let got = st.set_word(v, slot, old & mask.word(slot));
                        m.apply(v, Some(Slow::Bits(after)), bits, got);
                    } else if !keep.is_empty() {
                        let got = st.intersect(v, &mask);
                        m.apply(v, Some(Slow::Bits(keep)), bits, got);
                    }
                }
                9 => {
                    // A failing multi-word restriction may have written some words: the search always undoes the
                    // level then, and so does this.
                    if m.levels.is_empty() || !multi_slot {
                        continue;
                    }
                    let got = st.restrict(v, w, w + 1);
                    assert!(got.is_err());
                    st.pop_level();
                    m.doms = m.levels.pop().expect("a level");
                    st.clear_changed();
                    st.fixed.clear();
                    m.queued.iter_mut().for_each(|q| *q = false);
                    m.delta.iter_mut().for_each(|d| d.clear());
                    m.fixed.clear();
                }
                10 => {
                    // Forward checking of one value over several bitset peers; stops at the first that would empty.
                    let k = rng.below(bitsets.len() as u64 + 1) as usize;
                    let peers: Vec<u32> = (0..k)
                        .map(|_| bitsets[rng.below(bitsets.len() as u64) as usize])
                        .collect();
                    let mut peers = peers;
                    peers.dedup();
                    let slot = if D::MAX_WIDTH <= 128 {
                        0
                    } else {
                        rng.below(2) as usize
                    };
                    let b = rng.below(bits as u64) as u32;
                    let pos = slot * bits + b as usize;
                    let got = st.remove_bit_peers(&peers, slot, D::W::bit(b));
                    let mut want = Ok(());
                    for (k, &u) in peers.iter().enumerate() {
                        let mut after = m.doms[u as usize].bits();
                        if !after.remove(&pos) {
                            continue;
                        }
                        if after.is_empty() {
                            want = Err(k);
                            break;
                        }
                        let ev = if after.len() == 1 {
                            Event::Assigned
                        } else {
                            Event::Reduced
                        };
                        m.apply(u, Some(Slow::Bits(after)), bits, Ok(ev));
                    }
                    assert_eq!(got, want, "step {step}: {peers:?} lose {pos}");
                }
                11 | 12 => {
                    st.push_level();
                    m.levels.push(m.doms.clone());
                }
                13 => {
                    // Undo one level, or several at once; word-0 bits that come back are reported per variable.
                    let to = rng.below(m.levels.len() as u64 + 1) as usize;
                    let mut back = vec![std::collections::BTreeSet::new(); n];
                    let before = m.doms.clone();
                    st.backtrack_to_with(to, |u, word| back[u as usize].extend(positions(word, 0)));
                    m.levels.truncate(to + 1);
                    if m.levels.len() > to {
                        m.doms = m.levels.pop().expect("a level");
                    }
                    for u in 0..n {
                        let want: std::collections::BTreeSet<usize> = m.doms[u]
                            .bits()
                            .difference(&before[u].bits())
                            .copied()
                            .filter(|&q| q < bits)
                            .collect();
                        assert_eq!(back[u], want, "step {step} x{u}");
                    }
                }
                14 => {
                    // Drain the queues as the propagation loop does.
                    let changed = std::mem::take(&mut st.changed);
                    let mut seen = changed.clone();
                    seen.sort_unstable();
                    seen.dedup();
                    assert_eq!(
                        seen.len(),
                        changed.len(),
                        "step {step}: a variable queued twice"
                    );
                    let want: Vec<u32> = (0..n as u32).filter(|&u| m.queued[u as usize]).collect();
                    assert_eq!(seen, want, "step {step}");
                    for u in changed {
                        let delta = st.unqueue(u);
                        let want: Vec<usize> = m.delta[u as usize].iter().copied().collect();
                        assert_eq!(positions(delta, 0), want, "step {step} x{u}");
                        m.queued[u as usize] = false;
                        m.delta[u as usize].clear();
                    }
                    assert_eq!(&st.fixed[st.fixed_head..], &m.fixed[..], "step {step}");
                    st.fixed.clear();
                    st.fixed_head = 0;
                    m.fixed.clear();
                }
                15 if rng.below(8) == 0 => {
                    // A new solve from random initial domains (every bitset keeps at least one value).
                    let init: Vec<D> = (0..n)
                        .map(|u| {
                            let mut d = D::full(if is_iv(u) { 1 } else { widths[u] });
                            if !is_iv(u) {
                                for q in 1..widths[u] {
                                    if rng.below(2) == 0 {
                                        let (s, b) = D::locate(q);
                                        d.set_word(s, d.word(s) & !D::W::bit(b));
                                    }
                                }
                            }
                            d
                        })
                        .collect();
                    st.reset(&init);
                    m.doms = (0..n)
                        .map(|u| match full(u) {
                            Slow::Bits(_) => Slow::Bits(init[u].iter().collect()),
                            iv => iv,
                        })
                        .collect();
                    m.levels.clear();
                    m.queued.iter_mut().for_each(|q| *q = false);
                    m.delta.iter_mut().for_each(|d| d.clear());
                    m.fixed = (0..n as u32)
                        .filter(|&u| m.doms[u as usize].size() == 1)
                        .collect();
                    assert!(st.changed.is_empty());
                    assert_eq!(st.trail_len(), 0);
                }
                _ => continue,
            }
            check(&st, &m, widths, step);
        }
    }

    #[test]
    fn random_operations_on_one_word_domains_match_a_set_model() {
        for seed in 0..4 {
            random_operations_match_the_model::<u64>(&[5, 64, 1, 2, 33], &[], seed);
            random_operations_match_the_model::<u64>(
                &[7, 40, 3, 100, 9],
                &[false, false, false, true, false],
                seed,
            );
            random_operations_match_the_model::<u128>(
                &[128, 70, 2, 6, 1000],
                &[false, false, false, false, true],
                seed,
            );
        }
    }

    #[test]
    fn random_operations_on_multi_word_domains_match_a_set_model() {
        for seed in 0..4 {
            random_operations_match_the_model::<crate::domain::WideDomain>(
                &[200, 64, 130, 3, 500],
                &[false, false, false, false, true],
                seed,
            );
        }
    }

    #[test]
    fn check_invariants_reports_each_kind_of_broken_bookkeeping() {
        let widths = [4, 4, 10];
        let intervals = [false, false, true];
        let fresh = || -> State<u64> { State::with_intervals(&widths, &intervals) };
        assert_eq!(fresh().check_invariants(), Ok(()));
        let mut st = fresh();
        st.vars[0].size = 3;
        assert_eq!(
            st.check_invariants(),
            Err("size[0] = 3 but dom has 4 values".to_string())
        );
        let mut st = fresh();
        st.vars[1].dom.set_word(0, 0);
        st.vars[1].size = 0;
        assert_eq!(st.check_invariants(), Err("dom[1] is empty".to_string()));
        let mut st = fresh();
        st.unassigned = 2;
        assert_eq!(
            st.check_invariants(),
            Err("unassigned = 2 but 3 variables are open".to_string())
        );
        let mut st = fresh();
        st.bounds[2] = Bounds { lo: 5, hi: 4 };
        assert!(st.check_invariants().is_err());
        let mut st = fresh();
        st.vars[2].size = 9;
        assert!(st.check_invariants().is_err());
        // An interval of one value is assigned: the open count must drop.
        let mut st = fresh();
        st.bounds[2] = Bounds { lo: 4, hi: 4 };
        st.vars[2].size = 1;
        assert!(st.check_invariants().is_err());
        st.unassigned = 2;
        assert_eq!(st.check_invariants(), Ok(()));
        // A bitset variable of one value likewise.
        st.vars[0].dom.set_word(0, 0b100);
        st.vars[0].size = 1;
        assert!(st.check_invariants().is_err());
        st.unassigned = 1;
        assert_eq!(st.check_invariants(), Ok(()));
    }

    /// The trail's length after changing `x0` twice by `remove_bit`, then by `set_word`, then `x0` and `x1` through
    /// the peers' removal, then `x0` again at a new level.
    fn trail_lengths<D: Domain>() -> Vec<usize> {
        let mut st: State<D> = State::new(&[10, 10, 10]);
        let mut lens = Vec::new();
        st.push_level();
        st.remove(0, 1).unwrap(); // remove_bit
        lens.push(st.trail_len());
        st.remove(0, 3).unwrap();
        lens.push(st.trail_len());
        st.set_word(0, 0, D::W::low_mask(9)).unwrap(); // set_word_sized: position 9 goes
        lens.push(st.trail_len());
        st.remove_bit_peers(&[0, 1], 0, D::W::bit(5)).unwrap();
        lens.push(st.trail_len());
        st.push_level();
        st.remove(0, 2).unwrap();
        lens.push(st.trail_len());
        st.backtrack_to(0);
        assert_eq!(st.trail_len(), 0);
        assert_eq!(st.size(0), 10);
        assert_eq!(st.size(1), 10);
        lens
    }

    #[test]
    fn one_word_domains_trail_a_variable_once_per_level_and_multi_word_ones_every_change() {
        // A one-word domain's first entry of a level already holds the whole domain, so later changes at that
        // level need none; a multi-word one saves one word per entry, so every change is recorded.
        assert_eq!(trail_lengths::<u64>(), [1, 1, 1, 2, 3]);
        assert_eq!(trail_lengths::<u128>(), [1, 1, 1, 2, 3]);
        assert_eq!(
            trail_lengths::<crate::domain::WideDomain>(),
            [1, 2, 3, 5, 6]
        );
    }
}
