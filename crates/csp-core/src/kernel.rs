//! The group kernel: a copy-on-branch search for models made only of aligned `all_different` groups over domains of
//! at most 64 values (Sudoku and its variants, Latin squares, colouring with clique constraints).
//!
//! Such models need none of the general machinery of [`crate::search`]: no trail, no per-variable sizes, queue
//! flags or change deltas, no constraint schedule. The whole search state is one *slot* of words, copied when a
//! decision opens a level and dropped when it is undone:
//!
//! ```text
//! slot = [ dom(0) .. dom(64 K - 1) | assigned(0) .. assigned(G-1) | holders(0) .. holders(W-1) ]
//! ```
//!
//! - `dom(v)`: the domain mask of variable `v` (bit `p` = position `p` of its values; the members of a group share
//!   one index space because the groups are aligned); entries `n..64 K` stay zero, so that the hot loops index
//!   domains by a word number below `K` and a bit number below 64 without bounds checks;
//! - `assigned(g)`: the values of the assigned members of group `g` (kept for non-permutation groups only);
//! - `holders(b)`: the set of variables whose domain holds position `b`, `K` words (`n <= 64 K`; the kernel is
//!   monomorphised on `K` = 1, 2, 4, 16 or 32, which removed 15% of the instructions against a run-time word
//!   count; sets of groups are a `u64`, or a `u128` above 64 groups).
//!   Invariant: `v` is in `holders(b)` exactly when bit `b` is in `dom(v)`.
//!
//! Copying a slot (173 words on 9x9 Sudoku) at a decision costs less than trailing and undoing the changes it causes,
//! and it removes the branches of the trail's "saved at this level yet?" and the queue's "already queued?" tests.
//!
//! Propagation reaches the fixpoint of [`crate::propagate::Propagator`] at the same level, so the search tree
//! (nodes, guesses, fails, solutions and their order) is identical; only the work per node differs:
//! - forward checking of `v = b` intersects `holders(b)` with `v`'s peers: only the peers still holding `b` are
//!   visited (2-3 on average at the hard nodes of 9x9 Sudoku, against 20 peers), and they leave `holders(b)` in one
//!   set difference; a peer left with one value joins the set of pending variables by a shifted bit (no
//!   branch);
//! - hidden singles and the pigeonhole test (level `Singles`), for permutation groups: every removal of value `b`
//!   from a variable marks its groups in `dirtyv[b]`; each marked (group, value) pair is checked by intersecting
//!   `holders(b)` with the group's members: no place left is a conflict, one place not yet assigned is a hidden
//!   single. Non-permutation groups are swept member by member ("seen once / seen twice" masks, the pigeonhole
//!   count) from their own dirty set;
//! - the root of a model made only of permutation groups runs value-major (`root_by_values`): the variables left
//!   with one value are found all at once by bit-sliced counting over the holder sets and forward-checked value by
//!   value with one set difference each, until no naked single is left; only then are the (group, value) checks
//!   run. Puzzles that naked singles solve (all of kaggle_10k) never touch a domain word one variable at a time.
//!
//! Measured with callgrind (`examples/sudoku_rate FILE N count singles [generic]`, instructions per puzzle inside
//! `Solver::count`, first 1000 / 1000 / 300 / 95 lines), general engine -> kernel: kaggle_10k 54.6k -> 10.5k,
//! 17_clue 168k -> 68.2k, forum_hardest_1905_11plus 1,966k -> 938k (5.5k instructions per search node), top95
//! 725k -> 315k. Node counts identical.
//!
//! Instructions are not the whole story: on 9x9 Sudoku a mispredicted branch costs about as much as the work
//! between two of them, and the kernel's loops have data-dependent trip counts. `valgrind --tool=callgrind
//! --branch-sim=yes` on 17_clue (first 1000, count 2) found 1.0 M mispredictions for 65 M instructions. Three
//! changes of 2026-11-25 aimed at them, measured as puzzles/s on the whole 17_clue, count 2, single thread,
//! medians of 5 runs alternating with the crates.io `sudoku` crate (`../shared/peers`): variables as a word
//! number and a bit number into `K` x 64 tables (no bounds checks) with a pending set instead of a queue
//! (+20%, instructions -1%); the (group, value) check without early exits, one branch on "two places or more"
//! (+7% wall time, although +8% instructions; 0.81 M mispredictions); the pending set drained word by word
//! (+4%). Together 119k -> 163k puzzles/s, the crate 462k (ratio 3.88 -> 2.84); reading a value's holder set
//! once per batch of its checks then added 2% (167k, 2.82x; 63.3 M instructions, 0.77 M mispredictions).
//!
//! Tried and dropped: tracking dirty groups instead of (group, value) pairs (63 group sweeps per node on the
//! hardest set); whole-group sweeps when many pairs of a group are pending (never cheaper once the root runs
//! value-major); hidden singles value-major at the root (repeated full passes: +20% on 17_clue, and +35%
//! instructions when tried again on 2026-11-25 with passes limited to the values whose holder sets changed); a
//! first hidden-single pass at the root by member sweeps (-1%: not worth the code); hoisting `holders(b)` out of
//! the check loop (+4-8%: worse code generation); a branch-free check written with boolean `&`/`|` (-16% puzzles/s:
//! the integer form above is the one that pays); per-(group, value) place counts in the slot so that only pairs
//! down to one place are checked (+78% instructions: three counter updates per removal cost more than the checks
//! they save); `fixpoint` monomorphised on "every group is a permutation" (within noise, four times the code).
//!
//! [`applies`] says which configurations the kernel runs: variable order `Input` or `Mrv` without random ties,
//! value order `Ascending`, `Median` or `Random`, level `ForwardChecking` or `Singles` (with or without locked
//! candidates between permutation groups), any restart policy; at most 128 groups, 2048 variables, groups without
//! a repeated member (so 25x25 Sudoku, 75 groups, and 36x36, 1,296 cells and 108 groups, run on it).
//! Everything else (other constraints, wider domains, other heuristics) runs on the general engine, as does any
//! model when [`SearchConfig::generic_engine`] is set. Tests in `tests/kernel.rs` compare the two engines node for
//! node on random group models and Latin squares with random givens, and against brute force.

use crate::config::SearchConfig;
use crate::constraints::as_all_different;
use crate::csr::Csr;
use crate::domain::Word;
use crate::heuristics::{ValueOrder, VarOrder};
use crate::ids::VarId;
use crate::limits::Limits;
use crate::model::{Problem, Representation};
use crate::propagate::Propagation;
use crate::rng::Rng;
use crate::search::{Driven, Expansion};
use crate::stats::Stats;

/// The largest group the kernel takes (a group's members must fit the masks of the hidden-single sweep).
const MAX_GROUP: usize = 64;

/// Most groups the kernel takes: sets of groups are one `u64` or `u128`.
const MAX_GROUPS: usize = 128;

/// Most variables the kernel takes (sets of variables are at most 32 words; larger models use the general engine).
const MAX_VARS: usize = 2048;

/// Propagation failed (a domain emptied, a value lost its last place, or a place took two values).
#[derive(Clone, Copy, Debug)]
struct Fail;

/// `x` has exactly one bit set.
#[inline(always)]
fn single(x: u64) -> bool {
    (x != 0) & (x & x.wrapping_sub(1) == 0)
}

/// True when the kernel can run `problem` under `cfg` with the same search tree as the general engine.
pub(crate) fn applies(problem: &Problem, cfg: &SearchConfig) -> bool {
    !cfg.generic_engine
        && problem.representation() == Representation::Word64
        // An interval variable has no bitset (its width can be anything, and the representation ignores it):
        // the kernel's slot holds a bit per value of every variable, so such a model stays on the general engine
        // even when no group contains the interval (found by fuzzing `parse_fzn`: an unconstrained
        // `var -177777777777..6` beside the groups indexed past the slot).
        && !problem.has_intervals()
        && problem.num_vars() <= MAX_VARS
        && problem.num_constraints() <= MAX_GROUPS
        && matches!(
            cfg.propagation,
            Propagation::ForwardChecking | Propagation::Singles
        )
        && matches!(cfg.var_order, VarOrder::Input | VarOrder::Mrv)
        && !cfg.random_ties
        && cfg.phases.is_empty()
        && !cfg.complete_rest_once
        && matches!(
            cfg.value_order,
            ValueOrder::Ascending | ValueOrder::Median | ValueOrder::Random
        )
        && problem.constraints.iter().all(|c| {
            as_all_different(&**c)
                .is_some_and(|a| a.is_aligned() && a.vars.len() <= MAX_GROUP && distinct(&a.vars))
        })
}

/// The copy-on-branch search of one solver on one group model whose sets of variables are `K` words (`n <= 64 K`).
pub(crate) struct Kernel<'p, const K: usize, M: Word> {
    problem: &'p Problem,
    cfg: SearchConfig,
    /// Number of variables.
    n: usize,
    /// Number of value positions (the widest domain).
    width: usize,
    /// Start of the holder sets in a slot (`64 K + groups`).
    holders_at: usize,
    /// Words per slot: `64 K` domains (the variables' then zeros), one assigned-values mask per group, then `width`
    /// holder sets of `K` words.
    slot: usize,
    /// The initial slot: full domains, nothing assigned, every variable a holder of each of its values.
    init: Vec<u64>,
    /// `peermask[v / 64][v % 64]` = the variables sharing a group with `v`. The tables indexed by variable are
    /// arrays of `64 K` entries (and the group table has `MAX_GROUPS`), so that an index made of a word number
    /// below `K` and a bit number below 64 needs no bounds check in the hot loops.
    peermask: Box<[[[u64; K]; 64]; K]>,
    /// `gvars[g]` = the members of group `g` as a set of variables.
    gvars: Box<[[u64; K]; MAX_GROUPS]>,
    /// `other_groups.row(v)` = the non-permutation groups containing `v`, once each (their assigned masks receive
    /// `v`'s value; permutation groups need none: their checks read the holder sets).
    other_groups: Csr<u32>,
    /// `members.row(g)` = the scope of group `g` as posted.
    members: Csr<u32>,
    /// `full[g]` = the mask of all values when group `g` is a permutation (as many members as values), else 0.
    full: Vec<u64>,
    /// `pgm[v / 64][v % 64]` = the permutation groups containing `v` (bit `g`).
    pgm: Box<[[M; 64]; K]>,
    /// `ngm[v / 64][v % 64]` = the other groups containing `v`.
    ngm: Box<[[M; 64]; K]>,
    /// Hidden singles and the pigeonhole test run (level `Singles`).
    sweep: bool,
    /// Every group is a permutation (as many members as values): the root runs on the holder sets alone.
    all_perm: bool,
    /// `partners.row(g)` = the permutation groups sharing at least two variables with permutation group `g`, when
    /// locked candidates run (`SearchConfig::intersections` at level `Singles`); empty rows otherwise.
    partners: Csr<u32>,
    /// `dirtyv[b]` = permutation groups whose places of value `b` changed since they were last checked.
    dirtyv: Vec<M>,
    /// The values `b` with a non-empty `dirtyv[b]` (or that had one: a superset).
    dv: u64,
    /// Non-permutation groups to sweep.
    dirty: M,
    /// `solved[top + b]` = the permutation groups where value `b` is placed on a forward-checked variable, for the
    /// open levels back to back (`width` masks per level, copied and dropped with the slots). Such a group holds `b`
    /// at that variable alone, so its (group, `b`) checks are skipped: after a decision most of the values its
    /// variable loses are placed already in its groups, and those checks were half of all (measured on 17_clue).
    solved: Vec<M>,
    /// The slots of the open levels back to back; the last one is the current state.
    stack: Vec<u64>,
    /// Decisions of the open levels: variable and the bit it was set to.
    frames: Vec<(u32, u64)>,
    /// Generator of the `Random` value order (reseeded per solve).
    rng: Rng,
    /// `width * words` scratch words (the assumptions' variables by value).
    scratch: Vec<u64>,
    /// Values of the current solution.
    values_buf: Vec<i64>,
    /// The branching variable found by the last solution test (see [`Driven::is_solution`]).
    next: Option<u32>,
    /// Smallest value of every variable when all domains are ranges (value = min + position), else `None`.
    mins: Option<Vec<i64>>,
}

impl<'p, const K: usize, M: Word> Kernel<'p, K, M> {
    /// Builds the kernel; call only when [`applies`] holds and `problem.num_vars() <= 64 * K`.
    pub(crate) fn new(problem: &'p Problem, cfg: SearchConfig) -> Self {
        let n = problem.num_vars();
        let words = K;
        let width = problem.max_width.max(1);
        let mut peer_pairs = Vec::new();
        let mut of_var = Vec::new();
        let mut member_pairs = Vec::new();
        let mut full = Vec::new();
        for c in &problem.constraints {
            let Some(a) = as_all_different(&**c) else {
                continue;
            };
            let g = full.len() as u32;
            let w = a
                .vars
                .first()
                .map_or(0, |&v| problem.values[v as usize].width());
            full.push(if a.is_permutation() { low_mask(w) } else { 0 });
            for (i, &v) in a.vars.iter().enumerate() {
                member_pairs.push((g, v));
                of_var.push((v, g));
                for (j, &u) in a.vars.iter().enumerate() {
                    if i != j {
                        peer_pairs.push((v, u));
                    }
                }
            }
        }
        of_var.sort_unstable();
        of_var.dedup();
        let groups = full.len();
        let mut peermask: Box<[[[u64; K]; 64]; K]> = boxed(vec![[[0u64; K]; 64]; K]);
        for &(v, u) in &peer_pairs {
            peermask[v as usize / 64][v as usize % 64][u as usize / 64] |= 1 << (u % 64);
        }
        let mut gvars: Box<[[u64; K]; MAX_GROUPS]> = boxed(vec![[0u64; K]; MAX_GROUPS]);
        let mut pgm: Box<[[M; 64]; K]> = boxed(vec![[M::ZERO; 64]; K]);
        let mut ngm: Box<[[M; 64]; K]> = boxed(vec![[M::ZERO; 64]; K]);
        for &(v, g) in &of_var {
            let (w, i) = (v as usize / 64, v as usize % 64);
            gvars[g as usize][w] |= 1 << i;
            if full[g as usize] != 0 {
                pgm[w][i] |= M::bit(g);
            } else {
                ngm[w][i] |= M::bit(g);
            }
        }
        let all_perm = full.iter().all(|&f| f != 0);
        // Locked candidates pair two permutation groups sharing at least two variables (the general engine's
        // `Intersection` rule; on Sudoku, boxes with rows and columns).
        let mut partner_pairs = Vec::new();
        if cfg.intersections && cfg.propagation == Propagation::Singles {
            for g in 0..groups {
                for h in 0..groups {
                    let shared: u32 = (0..words)
                        .map(|w| (gvars[g][w] & gvars[h][w]).count_ones())
                        .sum();
                    if g != h && full[g] != 0 && full[h] != 0 && shared >= 2 {
                        partner_pairs.push((g as u32, h as u32));
                    }
                }
            }
        }
        let partners = Csr::from_pairs(groups, &partner_pairs);
        let holders_at = 64 * K + groups;
        let slot = holders_at + width * words;
        let mut init = vec![0u64; slot];
        for (v, w) in problem.values.iter().enumerate() {
            init[v] = low_mask(w.width());
            for b in 0..w.width() {
                init[holders_at + b * words + v / 64] |= 1 << (v % 64);
            }
        }
        Self {
            problem,
            n,
            width,
            holders_at,
            slot,
            init,
            peermask,
            gvars,
            other_groups: Csr::from_pairs(
                n,
                &of_var
                    .iter()
                    .copied()
                    .filter(|&(_, g)| full[g as usize] == 0)
                    .collect::<Vec<_>>(),
            ),
            members: Csr::from_pairs(groups, &member_pairs),
            full,
            pgm,
            ngm,
            sweep: cfg.propagation == Propagation::Singles,
            all_perm,
            partners,
            dirtyv: vec![M::ZERO; width],
            dv: 0,
            dirty: M::ZERO,
            solved: Vec::with_capacity(width * 8),
            stack: Vec::with_capacity(slot * 8),
            frames: Vec::with_capacity(n),
            rng: Rng::new(cfg.seed),
            scratch: vec![0; width * words],
            values_buf: vec![0; n],
            next: None,
            mins: problem.values.iter().map(|v| v.range_min()).collect(),
            cfg,
        }
    }

    pub(crate) fn config(&self) -> &SearchConfig {
        &self.cfg
    }

    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.cfg.limits = limits;
    }

    /// Start of the current slot in `stack`.
    #[inline(always)]
    fn top(&self) -> usize {
        self.stack.len() - self.slot
    }

    /// Sets `dom(v)` of the current slot to `new` (a subset of it) outside forward checking: removes `v` from the
    /// holder sets of the values it loses and marks its groups for those values.
    #[inline]
    fn restrict(&mut self, v: u32, new: u64) {
        let top = self.top();
        let (dom, rest) = self.stack[top..].split_at_mut(64 * K);
        let holders = rest[self.holders_at - 64 * K..].as_chunks_mut::<K>().0;
        let (w, i) = (v as usize / 64, v as usize % 64);
        restrict(
            w,
            i,
            new,
            grid::<K>(dom),
            holders,
            &mut self.dirtyv,
            &mut self.dv,
            &mut self.dirty,
            self.pgm[w][i],
            self.ngm[w][i],
        );
    }

    /// Forgets pending group checks (after a failed propagation, whose slot is dropped).
    fn clear_dirty(&mut self) {
        self.dirtyv.fill(M::ZERO);
        self.dv = 0;
        self.dirty = M::ZERO;
    }

    /// Resets to the initial slot, applies the assumptions and propagates at the root.
    fn start(&mut self, assumptions: &[(VarId, i64)], stats: &mut Stats) -> Result<(), Fail> {
        self.stack.clear();
        self.stack.extend_from_slice(&self.init);
        self.solved.clear();
        self.solved.resize(self.width, M::ZERO);
        self.frames.clear();
        self.clear_dirty();
        self.rng = Rng::new(self.cfg.seed);
        // The assumptions: each variable set to its value, then every holder set restricted at once (a variable
        // holds only its own value), instead of one update per lost value.
        let k = K;
        let mut fixed_vars = [0u64; K];
        for &(x, value) in assumptions {
            let v = self.problem.check_var("assumption", x).map_err(|_| Fail)?;
            let pos = self.problem.values[v as usize]
                .index_of(value)
                .ok_or(Fail)?;
            let bit = 1u64 << pos;
            if self.stack[v as usize] & bit == 0 {
                return Err(Fail);
            }
            self.stack[v as usize] = bit;
            fixed_vars[v as usize / 64] |= 1 << (v % 64);
        }
        // holders[c] loses the assumed variables whose value is not c.
        let by_value = &mut self.scratch[..self.width * k];
        by_value.fill(0);
        for w in 0..k {
            let mut f = fixed_vars[w];
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                let b = self.stack[w * 64 + i].trailing_zeros() as usize;
                by_value[b * k + w] |= 1 << i;
            }
        }
        for (c, keep) in by_value.chunks_exact(k).enumerate() {
            for w in 0..k {
                self.stack[self.holders_at + c * k + w] &= !fixed_vars[w] | keep[w];
            }
        }
        if self.all_perm {
            let mut runs = 0u64;
            let r = self.root_by_values(&mut runs);
            stats.propagations += runs;
            return r;
        }
        // Every (group, value) check is pending at the root.
        self.mark_all();
        for (g, &f) in self.full.iter().enumerate() {
            if f == 0 {
                self.dirty |= M::bit(g as u32);
            }
        }
        let mut pending = [0u64; K];
        for v in 0..self.n {
            if single(self.stack[v]) {
                pending[v / 64] |= 1 << (v % 64);
            }
        }
        let r = self.propagate(pending, stats);
        if r.is_err() {
            self.clear_dirty();
        }
        r
    }

    /// Root propagation when every group is a permutation, on the holder sets alone (value-major): all variables
    /// left with one value are found at once by bit-sliced counting over the holder sets, forward-checked value
    /// by value (one set difference per value instead of one update per peer), and hidden singles are looked for
    /// only when no naked single is left. Then the domains are rebuilt from the holder sets. At the root most
    /// variables get assigned (every one on easy puzzles), which this does in a few hundred word operations
    /// instead of one pass over the peers per variable. Same fixpoint as [`Kernel::propagate`].
    #[inline(never)]
    fn root_by_values(&mut self, runs: &mut u64) -> Result<(), Fail> {
        let k = K;
        let n = self.n;
        let top = self.top();
        let (dom, rest) = self.stack[top..].split_at_mut(64 * K);
        let holders = &mut rest[self.holders_at - 64 * K..];
        // Every domain is non-empty here (a failed assumption returned earlier).
        let mut live = [0u64; K];
        for (w, l) in live.iter_mut().enumerate() {
            *l = low_mask(n.saturating_sub(w * 64).min(64));
        }
        // Forward-checked variables, and the variables assigned by the last count.
        let mut done = [0u64; K];
        let mut fresh = [0u64; K];
        let mut hidden = false;
        loop {
            *runs += 1;
            let mut any = 0u64;
            for w in 0..k {
                let (mut once, mut twice) = (0u64, 0u64);
                for b in 0..self.width {
                    let h = holders[b * k + w];
                    twice |= once & h;
                    once |= h;
                }
                if live[w] & !once != 0 {
                    return Err(Fail);
                }
                fresh[w] = once & !twice & !done[w];
                any |= fresh[w];
            }
            if any == 0 {
                if !self.sweep || done[..k] == live[..k] {
                    break;
                }
                // No naked single left: hidden singles (and the pigeonhole test) go through the (group, value)
                // checks of `fixpoint`, all pending.
                hidden = true;
                break;
            }
            for b in 0..self.width {
                let mut out = [0u64; K];
                for w in 0..k {
                    let mut f = fresh[w] & holders[b * k + w];
                    while f != 0 {
                        let v = w * 64 + f.trailing_zeros() as usize;
                        f &= f - 1;
                        let pm = &self.peermask[v / 64][v % 64];
                        for (o, &m) in out[..k].iter_mut().zip(pm) {
                            *o |= m;
                        }
                    }
                }
                for w in 0..k {
                    holders[b * k + w] &= !out[w];
                }
            }
            for w in 0..k {
                done[w] |= fresh[w];
            }
        }
        dom.fill(0);
        for b in 0..self.width {
            for w in 0..k {
                let mut h = holders[b * k + w];
                while h != 0 {
                    dom[w * 64 + h.trailing_zeros() as usize] |= 1 << b;
                    h &= h - 1;
                }
            }
        }
        // The forward-checked variables' values are placed in their groups.
        for (w, &d) in done.iter().enumerate() {
            let mut f = d;
            while f != 0 {
                let v = w * 64 + f.trailing_zeros() as usize;
                f &= f - 1;
                self.solved[dom[v].trailing_zeros() as usize] |= self.pgm[w][v % 64];
            }
        }
        if !hidden {
            return Ok(());
        }
        self.mark_all();
        if self.partners.is_empty() {
            self.fixpoint::<false>([0; K], runs)
        } else {
            self.fixpoint::<true>([0; K], runs)
        }
    }

    /// Marks every (permutation group, value) check pending.
    fn mark_all(&mut self) {
        for (g, &f) in self.full.iter().enumerate() {
            let mut values = f;
            self.dv |= f;
            while values != 0 {
                self.dirtyv[values.trailing_zeros() as usize] |= M::bit(g as u32);
                values &= values - 1;
            }
        }
    }

    /// Runs forward checking and (at `Singles`) the pending group checks on the current slot until nothing
    /// changes, starting with the variables of `pending` to forward-check. On success every pending check is done;
    /// on failure the caller drops the slot and clears the pending checks.
    fn propagate(&mut self, pending: [u64; K], stats: &mut Stats) -> Result<(), Fail> {
        let mut runs = 0u64;
        let r = if self.partners.is_empty() {
            self.fixpoint::<false>(pending, &mut runs)
        } else {
            self.fixpoint::<true>(pending, &mut runs)
        };
        stats.propagations += runs;
        r
    }

    /// [`Kernel::propagate`], counting forward-checking steps and group checks in `runs`.
    ///
    /// Variables are sets of `K` words here (`pending`, the holder sets, the groups' members) and every table
    /// indexed by a variable is an array of `K` rows of 64 entries, so a variable taken from a set is a word number
    /// `w < K` and a bit number `i < 64` that index those tables without a bounds check (measured: the checks and
    /// the registers they held were a sixth of this function's instructions). A pending set instead of a queue
    /// also takes each variable once, whatever the order its peers were assigned in; the fixpoint is the same.
    #[inline(never)]
    fn fixpoint<const LOCKED: bool>(
        &mut self,
        mut pending: [u64; K],
        runs: &mut u64,
    ) -> Result<(), Fail> {
        let top = self.top();
        let (dom, rest) = self.stack[top..].split_at_mut(64 * K);
        let dom = grid::<K>(dom);
        let (assigned, holders) = rest.split_at_mut(self.holders_at - 64 * K);
        let holders = holders.as_chunks_mut::<K>().0;
        let solved_at = self.solved.len() - self.width;
        let solved = &mut self.solved[solved_at..];
        let dirtyv = &mut self.dirtyv[..];
        let (pgm, ngm) = (&*self.pgm, &*self.ngm);
        let (peers, gvars) = (&*self.peermask, &*self.gvars);
        let all_perm = self.all_perm;
        let mut dirty = self.dirty;
        let mut dv = self.dv;
        let mut count = 0u64;
        let result = 'run: loop {
            // Forward checking, word by word (a variable queued in an earlier word waits for the next round).
            while pending.iter().any(|&p| p != 0) {
                for w in 0..K {
                    while pending[w] != 0 {
                        let i = pending[w].trailing_zeros() as usize & 63;
                        pending[w] &= pending[w] - 1;
                        let bit = dom[w][i];
                        if bit == 0 {
                            break 'run Err(Fail);
                        }
                        count += 1;
                        if !all_perm {
                            for &g in self.other_groups.row((w * 64 + i) as u32) {
                                assigned[g as usize] |= bit;
                            }
                        }
                        // Only the peers holding the value are visited (holder sets are exact), and they leave its holder
                        // set at once.
                        let b = bit.trailing_zeros() as usize;
                        let Some(hs) = holders.get_mut(b) else {
                            break 'run Err(Fail);
                        };
                        let pm = &peers[w][i];
                        let mut touched = M::ZERO;
                        for x in 0..K {
                            let mut h = hs[x] & pm[x];
                            hs[x] &= !pm[x];
                            while h != 0 {
                                let j = h.trailing_zeros() as usize & 63;
                                h &= h - 1;
                                let new = dom[x][j] & !bit;
                                dom[x][j] = new;
                                touched |= pgm[x][j];
                                if !all_perm {
                                    dirty |= ngm[x][j];
                                }
                                // Left with one value or none: forward-check it (or fail) when taken.
                                pending[x] |= u64::from(new & new.wrapping_sub(1) == 0) << j;
                            }
                        }
                        // `v`'s own groups hold `b` at `v` alone now: nothing to check there, now or later.
                        solved[b] |= pgm[w][i];
                        dirtyv[b] |= touched & !solved[b];
                        dv |= bit;
                    }
                }
            }
            if !self.sweep {
                dirtyv.fill(M::ZERO);
                self.dv = 0;
                self.dirty = M::ZERO;
                break 'run Ok(());
            }
            // Every pending variable is forward-checked: holder sets and `assigned` are exact. Pending (group,
            // value) checks run one by one. (Whole-group sweeps when many pairs of a group are pending were
            // measured too: never cheaper once the root's naked singles run value-major, see `root_by_values`.)
            // The values marked during this pass wait for the next one, after the forward checking of the
            // singles found here has made their holder sets exact again.
            let mut values = std::mem::take(&mut dv);
            while values != 0 {
                let b = values.trailing_zeros() as usize;
                values &= values - 1;
                let (Some(d), Some(&s)) = (dirtyv.get_mut(b), solved.get(b)) else {
                    continue;
                };
                let mut gs = std::mem::replace(d, M::ZERO) & !s;
                let bit = 1u64 << b;
                // The places of `b`, read once per value: assigning a hidden single of `b` changes the holder
                // sets of the other values only; locked candidates re-read them after a removal.
                let Some(&(mut hs)) = holders.get(b) else {
                    continue;
                };
                while !gs.is_zero() {
                    let g = gs.lowest() as usize & (MAX_GROUPS - 1);
                    gs = gs.clear_lowest();
                    count += 1;
                    // The places of value `b` in group `g`: none = conflict, one = a hidden single.
                    let gv = &gvars[g];
                    // Word by word without branches (the early exits mispredicted): `multi` is non-zero once a
                    // word holds two places, or a place follows one in an earlier word.
                    let (mut any, mut multi) = (0u64, 0u64);
                    for w in 0..K {
                        let m = hs[w] & gv[w];
                        multi |=
                            (m & m.wrapping_sub(1)) | (0u64.wrapping_sub(u64::from(any != 0)) & m);
                        any |= m;
                    }
                    let several = multi != 0;
                    if several && !LOCKED {
                        continue;
                    }
                    if several {
                        // Locked candidates: when every place of `b` in `g` lies in a partner group, that
                        // group's other members cannot take `b`.
                        let places: [u64; K] = std::array::from_fn(|w| hs[w] & gv[w]);
                        for &h in self.partners.row(g as u32) {
                            let hv = &gvars[h as usize & (MAX_GROUPS - 1)];
                            if (0..K).all(|w| places[w] & !hv[w] == 0) {
                                if let Err(f) = strip::<K, M>(
                                    b,
                                    &places,
                                    hv,
                                    dom,
                                    holders,
                                    &mut pending,
                                    dirtyv,
                                    &mut dv,
                                    &mut dirty,
                                    pgm,
                                    ngm,
                                    all_perm,
                                ) {
                                    break 'run Err(f);
                                }
                                if let Some(&now) = holders.get(b) {
                                    hs = now;
                                }
                            }
                        }
                        continue;
                    }
                    if any == 0 {
                        break 'run Err(Fail);
                    }
                    let Some(w) = (0..K).find(|&w| hs[w] & gv[w] != 0) else {
                        continue;
                    };
                    let i = (hs[w] & gv[w]).trailing_zeros() as usize & 63;
                    if dom[w][i] == bit {
                        continue;
                    }
                    restrict(
                        w, i, bit, dom, holders, dirtyv, &mut dv, &mut dirty, pgm[w][i], ngm[w][i],
                    );
                    pending[w] |= 1 << i;
                }
            }
            let mut groups = std::mem::replace(&mut dirty, M::ZERO);
            while !groups.is_zero() {
                let g = groups.lowest() as usize;
                groups = groups.clear_lowest();
                count += 1;
                let members = self.members.row(g as u32);
                let lone = match lone_values(members, dom, assigned[g]) {
                    Err(f) => break 'run Err(f),
                    Ok(None) => continue,
                    Ok(Some(lone)) => lone,
                };
                for &u in members {
                    let (w, i) = (u as usize / 64, u as usize % 64);
                    let x = dom[w][i];
                    let hit = x & lone;
                    if hit == 0 {
                        continue;
                    }
                    if !single(hit) {
                        break 'run Err(Fail);
                    }
                    if hit == x {
                        // Assigned earlier in this round (through another group), not yet forward-checked.
                        continue;
                    }
                    restrict(
                        w, i, hit, dom, holders, dirtyv, &mut dv, &mut dirty, pgm[w][i], ngm[w][i],
                    );
                    pending[w] |= 1 << i;
                }
            }
            // Locked candidates may leave checks pending without assigning anything.
            if pending.iter().all(|&p| p == 0) && dv == 0 && dirty.is_zero() {
                self.dv = 0;
                self.dirty = M::ZERO;
                break 'run Ok(());
            }
        };
        *runs += count;
        result
    }

    /// The variable to branch on, `None` when every variable is assigned.
    #[inline]
    fn branch_var(&self) -> Option<u32> {
        let dom = &self.stack[self.top()..self.top() + self.n];
        match self.cfg.var_order {
            VarOrder::Input => dom.iter().position(|&x| !single(x)).map(|v| v as u32),
            _ => {
                // MRV, ties to the lowest index: the first variable with two values if there is one (no popcount
                // needed), else the smallest domain.
                if let Some(v) = dom.iter().position(|&x| {
                    let rest = x & x.wrapping_sub(1);
                    single(rest)
                }) {
                    return Some(v as u32);
                }
                let mut best = u64::MAX;
                for (v, &x) in dom.iter().enumerate() {
                    let size = u64::from(x.count_ones());
                    let key = if size > 1 {
                        (size << 32) | v as u64
                    } else {
                        u64::MAX
                    };
                    best = best.min(key);
                }
                (best != u64::MAX).then_some(best as u32)
            }
        }
    }

    /// The position of `v` to try first.
    #[inline]
    fn select_value(&mut self, v: u32) -> usize {
        let x = self.stack[self.top() + v as usize];
        match self.cfg.value_order {
            ValueOrder::Median => nth_bit(x, (x.count_ones() - 1) / 2),
            ValueOrder::Random => {
                let k = self.rng.below(u64::from(x.count_ones())) as u32;
                nth_bit(x, k)
            }
            _ => x.trailing_zeros() as usize,
        }
    }

    fn fill_values(&mut self) {
        let top = self.top();
        match &self.mins {
            Some(mins) => {
                for ((out, &d), &min) in
                    self.values_buf.iter_mut().zip(&self.stack[top..]).zip(mins)
                {
                    *out = min + i64::from(d.trailing_zeros());
                }
            }
            None => {
                for v in 0..self.n {
                    let pos = self.stack[top + v].trailing_zeros() as usize;
                    self.values_buf[v] = self.problem.values[v].value(pos);
                }
            }
        }
        debug_assert!(
            self.problem.is_solution(&self.values_buf),
            "group kernel produced a non-solution"
        );
    }

    /// Pops frames until a refutation `x != v` propagates without conflict. `false` = tree exhausted.
    fn backtrack(&mut self, stats: &mut Stats, continuing: &mut Option<u32>) -> bool {
        while let Some((v, bit)) = self.frames.pop() {
            self.stack.truncate(self.stack.len() - self.slot);
            self.solved.truncate(self.solved.len() - self.width);
            let top = self.top();
            let d = self.stack[top + v as usize] & !bit;
            self.restrict(v, d);
            let mut pending = [0u64; K];
            if single(d) {
                pending[v as usize / 64] |= 1 << (v % 64);
            }
            if d == 0 || self.propagate(pending, stats).is_err() {
                self.clear_dirty();
                stats.fails += 1;
                continue;
            }
            *continuing = Some(v);
            return true;
        }
        false
    }

    /// Propagates `assumptions` and describes the root: failed, solved, or the branching variable and its values.
    pub(crate) fn expand(&mut self, assumptions: &[(VarId, i64)], stats: &mut Stats) -> Expansion {
        if self.start(assumptions, stats).is_err() {
            return Expansion::Failed;
        }
        let Some(v) = self.branch_var() else {
            self.fill_values();
            return Expansion::Solution(self.values_buf.clone());
        };
        let vals = &self.problem.values[v as usize];
        let first = self.select_value(v);
        let x = self.stack[self.top() + v as usize];
        let mut values = vec![vals.value(first)];
        values.extend(
            (0..64)
                .filter(|&p| p != first && x >> p & 1 == 1)
                .map(|p| vals.value(p)),
        );
        match self.problem.var(v as usize) {
            Some(x) => Expansion::Branch(x, values),
            None => Expansion::Failed,
        }
    }
}

impl<const K: usize, M: Word> Driven for Kernel<'_, K, M> {
    fn config(&self) -> &SearchConfig {
        &self.cfg
    }

    fn start_root(&mut self, assumptions: &[(VarId, i64)], stats: &mut Stats) -> bool {
        self.start(assumptions, stats).is_ok()
    }

    fn is_solution(&mut self) -> bool {
        // The scan that finds the branching variable also proves a solution; keep its answer for `select_var`.
        self.next = self.branch_var();
        self.next.is_none()
    }

    fn select_var(&mut self) -> Option<u32> {
        self.next.take()
    }

    fn solution(&mut self) -> &[i64] {
        self.fill_values();
        &self.values_buf
    }

    fn decide(&mut self, v: u32, stats: &mut Stats) -> bool {
        let pos = self.select_value(v);
        let bit = 1u64 << pos;
        self.frames.push((v, bit));
        let top = self.top();
        self.stack.extend_from_within(top..);
        self.solved
            .extend_from_within(self.solved.len() - self.width..);
        self.restrict(v, bit);
        let mut pending = [0u64; K];
        pending[v as usize / 64] |= 1 << (v % 64);
        if self.propagate(pending, stats).is_err() {
            self.clear_dirty();
            return false;
        }
        true
    }

    fn backtrack(&mut self, stats: &mut Stats, continuing: &mut Option<u32>) -> bool {
        Kernel::backtrack(self, stats, continuing)
    }

    fn depth(&self) -> usize {
        self.frames.len()
    }

    fn restart(&mut self) {
        self.stack.truncate(self.slot);
        self.solved.truncate(self.width);
        self.frames.clear();
    }
}

/// True when no variable appears twice in `vars` (a group repeating a variable cannot be satisfied; the general
/// engine's rules for such groups differ from the kernel's, so those models stay on the general engine).
fn distinct(vars: &[u32]) -> bool {
    let mut sorted = vars.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[0] != w[1])
}

/// The mask of positions `0..width` (`width <= 64`).
fn low_mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Position of the `k`-th set bit of `x` (counting from 0, lowest first); `x` must have more than `k` bits.
fn nth_bit(mut x: u64, k: u32) -> usize {
    for _ in 0..k {
        x &= x.wrapping_sub(1);
    }
    x.trailing_zeros() as usize
}

/// The domain words of a slot (`64 K` of them) as `K` rows of 64.
fn grid<const K: usize>(words: &mut [u64]) -> &mut [[u64; 64]; K] {
    match words.as_chunks_mut::<64>().0.try_into() {
        Ok(rows) => rows,
        Err(_) => unreachable!("a slot's domain region is 64 K words"),
    }
}

/// `v` (of length `N`) as a boxed array.
fn boxed<T, const N: usize>(v: Vec<T>) -> Box<[T; N]> {
    match v.into_boxed_slice().try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("built with N elements"),
    }
}

/// Sets the domain of variable `(w, i)` (word `w`, bit `i`) to `new` (a subset): it leaves the holder sets of the
/// values it loses, and its groups are marked for those values (`pgm`, `ngm`: its permutation and other groups;
/// `dv` receives the values).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn restrict<const K: usize, M: Word>(
    w: usize,
    i: usize,
    new: u64,
    dom: &mut [[u64; 64]; K],
    holders: &mut [[u64; K]],
    dirtyv: &mut [M],
    dv: &mut u64,
    dirty: &mut M,
    pgm: M,
    ngm: M,
) {
    let mut lost = dom[w][i] & !new;
    dom[w][i] = new;
    if lost != 0 {
        *dirty |= ngm;
    }
    *dv |= lost;
    while lost != 0 {
        let c = lost.trailing_zeros() as usize;
        lost &= lost - 1;
        holders[c][w] &= !(1 << i);
        dirtyv[c] |= pgm;
    }
}

/// The values of a non-permutation group that must be used and have one place left: `Ok(None)` when the
/// group's members can still take more values than they are (nothing forced), `Err` when they can take fewer
/// (pigeonhole), else the values seen in exactly one member and not yet assigned (`assigned`).
///
/// The same rule as `constraints::all_different::Sweep` (the one implementation the general engine's two paths
/// share), kept as its own copy here: written through `Sweep` (inlined or out of line), `fixpoint` compiled to 2.5%
/// more instructions in its own lines (8.28 M -> 8.49 M) although Sudoku never reaches this function (callgrind,
/// `sudoku solve --solver csp-mrv-singles --count-limit 2 -j 1` on the first 300 lines of 17_clue: 17.69 M in all
/// with this copy, 17.79 M through `Sweep`).
fn lone_values<const K: usize>(
    members: &[u32],
    dom: &[[u64; 64]; K],
    assigned: u64,
) -> Result<Option<u64>, Fail> {
    let (mut once, mut twice) = (0u64, 0u64);
    for &u in members {
        let x = dom[u as usize / 64][u as usize % 64];
        twice |= once & x;
        once |= x;
    }
    let values = once.count_ones() as usize;
    if values < members.len() {
        return Err(Fail);
    }
    if values > members.len() {
        return Ok(None);
    }
    let lone = once & !twice & !assigned;
    Ok((lone != 0).then_some(lone))
}

/// Locked candidates, the removal: value `b` leaves the members of a partner group (`hv`) outside the group whose
/// places of `b` are `places` (all inside `hv`). The members left with one value become pending. Kept out of line:
/// it runs rarely, and inlined it cost the hot loop of `fixpoint` 10% more instructions.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn strip<const K: usize, M: Word>(
    b: usize,
    places: &[u64; K],
    hv: &[u64; K],
    dom: &mut [[u64; 64]; K],
    holders: &mut [[u64; K]],
    pending: &mut [u64; K],
    dirtyv: &mut [M],
    dv: &mut u64,
    dirty: &mut M,
    pgm: &[[M; 64]; K],
    ngm: &[[M; 64]; K],
    all_perm: bool,
) -> Result<(), Fail> {
    let bit = 1u64 << b;
    let (Some(hs), Some(d)) = (holders.get_mut(b), dirtyv.get_mut(b)) else {
        return Ok(());
    };
    for w in 0..K {
        // `hv`'s members holding `b` outside the confining group: those shared with it are among its `places`.
        let mut out = hs[w] & hv[w] & !places[w];
        hs[w] &= !out;
        while out != 0 {
            let i = out.trailing_zeros() as usize & 63;
            out &= out - 1;
            let new = dom[w][i] & !bit;
            if new == 0 {
                return Err(Fail);
            }
            dom[w][i] = new;
            *d |= pgm[w][i];
            *dv |= bit;
            if !all_perm {
                *dirty |= ngm[w][i];
            }
            pending[w] |= u64::from(single(new)) << i;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! The kernel checked from inside, step by step, against definitions written here: after every root
    //! propagation, decision and refutation its domains must be the fixpoint of the propagation rules of its level
    //! (computed from scratch by [`reference`]), its holder sets, assigned masks, solved masks and pending checks
    //! must keep their documented invariants, and it must branch on the variable and value its configuration names.
    //! Every solution is decoded and checked, and complete walks are compared with enumeration. The integration
    //! tests (`tests/kernel.rs`) compare whole search trees with the general engine; these tests see each fixpoint.
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::heuristics::Restarts;
    use crate::model::Model;

    /// A group of the model as the definition sees it: its members, and whether it has as many members as values.
    struct Group {
        members: Vec<u32>,
        perm: bool,
    }

    /// A model with its groups, every variable's value list (for decoding and enumeration) and its width.
    struct Case {
        problem: Problem,
        groups: Vec<Group>,
        values: Vec<Vec<i64>>,
    }

    impl Case {
        fn new(m: Model, posted: Vec<Vec<VarId>>) -> Self {
            let problem = m.build().unwrap();
            let values: Vec<Vec<i64>> = problem
                .values
                .iter()
                .map(|v| (0..v.width()).map(|p| v.value(p)).collect())
                .collect();
            let groups = posted
                .into_iter()
                .map(|g| {
                    let members: Vec<u32> = g.iter().map(|x| x.index() as u32).collect();
                    let perm = values[members[0] as usize].len() == members.len();
                    Group { members, perm }
                })
                .collect();
            Self {
                problem,
                groups,
                values,
            }
        }

        /// The locked-candidate pairs of `cfg`: distinct permutation groups sharing two variables or more.
        fn partners(&self, cfg: &SearchConfig) -> Vec<(usize, usize)> {
            let mut out = Vec::new();
            if !(cfg.intersections && cfg.propagation == Propagation::Singles) {
                return out;
            }
            for (g, a) in self.groups.iter().enumerate() {
                for (h, b) in self.groups.iter().enumerate() {
                    let shared = a.members.iter().filter(|u| b.members.contains(u)).count();
                    if g != h && a.perm && b.perm && shared >= 2 {
                        out.push((g, h));
                    }
                }
            }
            out
        }

        /// The root domains with `assumptions` applied, `None` when one is foreign, outside its domain or in
        /// conflict with another.
        fn root(&self, assumptions: &[(VarId, i64)]) -> Option<Vec<u64>> {
            let mut d: Vec<u64> = self.values.iter().map(|v| low_mask(v.len())).collect();
            for &(x, value) in assumptions {
                let v = self.problem.check_var("assumption", x).ok()? as usize;
                let bit = 1u64 << self.values[v].iter().position(|&y| y == value)?;
                if d[v] & bit == 0 {
                    return None;
                }
                d[v] = bit;
            }
            Some(d)
        }

        fn decode(&self, d: &[u64]) -> Vec<i64> {
            d.iter()
                .enumerate()
                .map(|(v, &x)| self.values[v][x.trailing_zeros() as usize])
                .collect()
        }

        /// Every solution agreeing with `assumptions`, by enumerating the cartesian product of the domains.
        fn brute_force(&self, assumptions: &[(VarId, i64)]) -> Vec<Vec<i64>> {
            let mut out = Vec::new();
            if assumptions
                .iter()
                .any(|&(x, _)| self.problem.check_var("assumption", x).is_err())
            {
                return out;
            }
            let mut t = vec![0usize; self.values.len()];
            'odometer: loop {
                let s: Vec<i64> = t
                    .iter()
                    .enumerate()
                    .map(|(v, &p)| self.values[v][p])
                    .collect();
                if self.problem.is_solution(&s)
                    && assumptions.iter().all(|&(x, value)| s[x.index()] == value)
                {
                    out.push(s);
                }
                for (v, p) in t.iter_mut().enumerate() {
                    *p += 1;
                    if *p < self.values[v].len() {
                        continue 'odometer;
                    }
                    *p = 0;
                }
                break;
            }
            out
        }
    }

    /// The fixpoint of the kernel's rules, from scratch: forward checking (an assigned member's value leaves the
    /// other members of its groups); at `Singles` also the pigeonhole test and hidden singles of every group (fewer
    /// values than members fails; as many: a value held by one member is that member's, and a member holding two
    /// such values fails), and locked candidates (the places of a value in a permutation group all inside a
    /// partner: the partner's other members lose it). `false` when a domain empties or a group fails.
    fn reference(
        d: &mut [u64],
        groups: &[Group],
        partners: &[(usize, usize)],
        singles: bool,
    ) -> bool {
        loop {
            let before = d.to_vec();
            for g in groups {
                for &u in &g.members {
                    let x = d[u as usize];
                    if x.count_ones() == 1 {
                        for &o in g.members.iter().filter(|&&o| o != u) {
                            d[o as usize] &= !x;
                        }
                    }
                }
            }
            if d.contains(&0) {
                return false;
            }
            if singles {
                for g in groups {
                    let (mut once, mut twice) = (0u64, 0u64);
                    for &u in &g.members {
                        twice |= once & d[u as usize];
                        once |= d[u as usize];
                    }
                    let values = once.count_ones() as usize;
                    if values < g.members.len() {
                        return false;
                    }
                    if values > g.members.len() {
                        continue;
                    }
                    for &u in &g.members {
                        let hit = d[u as usize] & once & !twice;
                        if hit.count_ones() > 1 {
                            return false;
                        }
                        if hit != 0 {
                            d[u as usize] = hit;
                        }
                    }
                }
                for &(g, h) in partners {
                    let (gm, hm) = (&groups[g].members, &groups[h].members);
                    for b in 0..64 {
                        let places: Vec<u32> = gm
                            .iter()
                            .copied()
                            .filter(|&u| d[u as usize] >> b & 1 == 1)
                            .collect();
                        if !places.is_empty() && places.iter().all(|u| hm.contains(u)) {
                            for &u in hm.iter().filter(|u| !places.contains(u)) {
                                d[u as usize] &= !(1u64 << b);
                            }
                        }
                    }
                }
                if d.contains(&0) {
                    return false;
                }
            }
            if d == before {
                return true;
            }
        }
    }

    /// The variable the configuration branches on: the first unassigned one (`Input`), or the smallest domain
    /// with ties to the lowest index (`Mrv`).
    fn expected_var(d: &[u64], order: VarOrder) -> Option<u32> {
        let open = d.iter().enumerate().filter(|(_, x)| x.count_ones() > 1);
        match order {
            VarOrder::Input => open.map(|(v, _)| v as u32).next(),
            _ => open
                .min_by_key(|&(v, x)| (x.count_ones(), v))
                .map(|(v, _)| v as u32),
        }
    }

    /// The positions of `x`, lowest first.
    fn positions(x: u64) -> Vec<usize> {
        (0..64).filter(|&p| x >> p & 1 == 1).collect()
    }

    /// True when `pos` is a position the value order may try first in `x` (any for `Random`).
    fn value_rule_allows(order: ValueOrder, x: u64, pos: usize) -> bool {
        let ps = positions(x);
        match order {
            ValueOrder::Median => ps[(ps.len() - 1) / 2] == pos,
            ValueOrder::Random => ps.contains(&pos),
            _ => ps[0] == pos,
        }
    }

    /// The kernel's current slot against the reference domains `d` and its documented invariants.
    fn check_slot<const K: usize, M: Word>(k: &Kernel<'_, K, M>, case: &Case, d: &[u64], at: &str) {
        let top = k.top();
        assert_eq!(
            k.stack.len(),
            k.slot * (k.frames.len() + 1),
            "{at}: one slot per level"
        );
        assert_eq!(
            k.solved.len(),
            k.width * (k.frames.len() + 1),
            "{at}: solved masks per level"
        );
        let slot = &k.stack[top..];
        assert_eq!(
            &slot[..k.n],
            d,
            "{at}: domains against the reference fixpoint"
        );
        assert!(slot[k.n..64 * K].iter().all(|&x| x == 0), "{at}: padding");
        for b in 0..k.width {
            for v in 0..64 * K {
                let held = v < k.n && d[v] >> b & 1 == 1;
                let h = slot[k.holders_at + b * K + v / 64] >> (v % 64) & 1 == 1;
                assert_eq!(h, held, "{at}: holders({b}) and variable {v}");
            }
        }
        for (g, group) in case.groups.iter().enumerate() {
            let assigned = slot[64 * K + g];
            let expected = if group.perm {
                0
            } else {
                group
                    .members
                    .iter()
                    .map(|&u| d[u as usize])
                    .filter(|x| x.count_ones() == 1)
                    .fold(0, |a, x| a | x)
            };
            assert_eq!(assigned, expected, "{at}: assigned({g})");
            // Every assigned variable is forward-checked at a fixpoint, which places its value in its
            // permutation groups: those (group, value) checks are skipped from then on.
            for b in 0..k.width {
                let marked = k.solved[k.solved.len() - k.width + b] & M::bit(g as u32) != M::ZERO;
                let placed = group.perm && group.members.iter().any(|&u| d[u as usize] == 1 << b);
                assert_eq!(
                    marked, placed,
                    "{at}: group {g} marked solved for value {b}"
                );
            }
        }
        assert!(
            k.dirtyv.iter().all(|x| x.is_zero()) && k.dv == 0 && k.dirty.is_zero(),
            "{at}: no check left pending"
        );
    }

    /// At a fixpoint (the kernel's slot equal to the reference domains `d`), every check marked pending again
    /// runs once and changes nothing: at `Singles` one count per (permutation group, value) pair whose value is
    /// not placed in the group yet (the placed ones are skipped) and one per other group's sweep; at forward
    /// checking none. The slot is unchanged afterwards.
    fn check_rerun<const K: usize, M: Word>(
        k: &mut Kernel<'_, K, M>,
        case: &Case,
        d: &[u64],
        at: &str,
    ) {
        k.mark_all();
        for (g, group) in case.groups.iter().enumerate() {
            if !group.perm {
                k.dirty |= M::bit(g as u32);
            }
        }
        let mut stats = Stats::default();
        assert!(
            k.propagate([0; K], &mut stats).is_ok(),
            "{at}: fixpoint rerun"
        );
        let mut expected = 0;
        if k.sweep {
            for group in &case.groups {
                expected += if group.perm {
                    let placed = |b: usize| group.members.iter().any(|&u| d[u as usize] == 1 << b);
                    (0..group.members.len()).filter(|&b| !placed(b)).count() as u64
                } else {
                    1
                };
            }
        }
        assert_eq!(stats.propagations, expected, "{at}: checks of a rerun");
        check_slot(k, case, d, at);
    }

    /// What a walk saw.
    struct Walk {
        solutions: Vec<Vec<i64>>,
        complete: bool,
        restarted: bool,
    }

    /// A depth-first search driven through [`Driven`] as `search::drive` drives it (without limits), checking
    /// every step against [`reference`]; stops after `cap` decisions, and restarts once after `restart_at`
    /// decisions when given. `k` may have run before (a solver is reused across solves).
    fn walk<const K: usize, M: Word>(
        k: &mut Kernel<'_, K, M>,
        case: &Case,
        assumptions: &[(VarId, i64)],
        cap: u64,
        restart_at: Option<u64>,
    ) -> Walk {
        let cfg = k.cfg.clone();
        let singles = cfg.propagation == Propagation::Singles;
        let partners = case.partners(&cfg);
        let fix = |d: &mut Vec<u64>| reference(d, &case.groups, &partners, singles);
        let newly = |a: &[u64], b: &[u64]| {
            let ones = |d: &[u64]| d.iter().filter(|x| x.count_ones() == 1).count() as u64;
            ones(b) - ones(a)
        };
        // One propagation (`Kernel::propagate`) counts a forward-checking step per variable it assigns (each
        // variable at most once) and, at `Singles`, one per (group, value) check and per group sweep: each at
        // most once per round, and every round but the last removes a value, so at most `n w + 1` rounds.
        let (n, w, g) = (
            case.values.len() as u64,
            k.width as u64,
            case.groups.len() as u64,
        );
        let most = |calls: u64| calls * (n + (n * w + 1) * (g * w + g));
        // At `Singles`, a check was counted beyond the forward-checking steps whenever the fixpoint of the
        // level differs from forward checking's from the same domains (only a check removes more).
        let checked = |start: &[u64], fixed: &[u64]| {
            let mut fc = start.to_vec();
            assert!(reference(&mut fc, &case.groups, &[], false));
            u64::from(fc != fixed)
        };
        let mut stats = Stats::default();
        let mut out = Walk {
            solutions: Vec::new(),
            complete: true,
            restarted: false,
        };
        let root = case
            .root(assumptions)
            .and_then(|mut d| fix(&mut d).then_some(d));
        let ok = k.start_root(assumptions, &mut stats);
        assert_eq!(ok, root.is_some(), "root of {assumptions:?}");
        let Some(mut cur) = root else {
            return out;
        };
        check_slot(k, case, &cur, "root");
        check_rerun(k, case, &cur, "root");
        if !singles && !k.all_perm {
            // Each variable assigned at the root is forward-checked exactly once.
            assert_eq!(stats.propagations, newly(&vec![0; cur.len()], &cur));
        } else if !k.all_perm {
            let low =
                newly(&vec![0; cur.len()], &cur) + checked(&case.root(assumptions).unwrap(), &cur);
            assert!(
                (low..=most(1)).contains(&stats.propagations),
                "root propagations {} outside {low}..={}",
                stats.propagations,
                most(1)
            );
        } else {
            // The value-major root counts its passes (one at least, and one more per pass that assigned
            // something), then the forward-checking steps and group checks of its fixpoint: a step per variable
            // at most, and every (group, value) check at most once per round, each round but the last removing
            // a value.
            let most = (n + 1) + n + (n * w + 1) * g * w;
            assert!(
                (1..=most).contains(&stats.propagations),
                "root propagations {}",
                stats.propagations
            );
        }
        assert_eq!(k.depth(), 0);
        let mut stack: Vec<(Vec<u64>, u32, u64)> = Vec::new();
        let (mut nodes, mut fails) = (0u64, 0u64);
        loop {
            let mut refute = false;
            if k.is_solution() {
                assert!(expected_var(&cur, cfg.var_order).is_none());
                let values = k.solution().to_vec();
                assert_eq!(values, case.decode(&cur));
                assert!(case.problem.is_solution(&values));
                out.solutions.push(values);
                refute = true;
            } else {
                let v = k.select_var();
                assert_eq!(v, expected_var(&cur, cfg.var_order), "branching variable");
                let v = v.unwrap();
                if nodes == cap {
                    out.complete = false;
                    return out;
                }
                nodes += 1;
                if restart_at == Some(nodes) && !stack.is_empty() {
                    k.restart();
                    out.restarted = true;
                    cur = stack[0].0.clone();
                    stack.clear();
                    assert_eq!(k.depth(), 0);
                    check_slot(k, case, &cur, "after a restart");
                    check_rerun(k, case, &cur, "after a restart");
                    continue;
                }
                let props = stats.propagations;
                let ok = k.decide(v, &mut stats);
                let &(fv, bit) = k.frames.last().unwrap();
                assert_eq!(fv, v);
                assert!(single(bit) && cur[v as usize] & bit != 0);
                let pos = bit.trailing_zeros() as usize;
                assert!(
                    value_rule_allows(cfg.value_order, cur[v as usize], pos),
                    "first value"
                );
                let mut child = cur.clone();
                child[v as usize] = bit;
                let ok_ref = fix(&mut child);
                assert_eq!(ok, ok_ref, "decision {v} = {pos}");
                stack.push((std::mem::replace(&mut cur, child), v, bit));
                assert_eq!(k.depth(), stack.len());
                if ok {
                    let gained = newly(&stack[stack.len() - 1].0, &cur);
                    let spent = stats.propagations.wrapping_sub(props);
                    if singles {
                        let mut start = stack[stack.len() - 1].0.clone();
                        start[v as usize] = bit;
                        let low = gained + checked(&start, &cur);
                        assert!(
                            (low..=most(1)).contains(&spent),
                            "propagations {spent} outside {low}..={}",
                            most(1)
                        );
                    } else {
                        assert_eq!(
                            spent, gained,
                            "one forward-checking step per variable assigned"
                        );
                    }
                    check_slot(k, case, &cur, "after a decision");
                    check_rerun(k, case, &cur, "after a decision");
                } else {
                    refute = true;
                }
            }
            if refute {
                // The kernel pops levels until a refutation propagates; the reference does the same.
                let mut found = None;
                while let Some((parent, v, bit)) = stack.pop() {
                    let mut child = parent;
                    child[v as usize] &= !bit;
                    if fix(&mut child) {
                        found = Some((child, v));
                        break;
                    }
                    fails += 1;
                }
                let mut continuing = None;
                let (props, fails_before) = (stats.propagations, stats.fails);
                let more = Kernel::backtrack(k, &mut stats, &mut continuing);
                assert_eq!(stats.fails, fails, "failed refutations");
                // At most one propagation per refutation tried.
                let tried = fails - fails_before + u64::from(more);
                let spent = stats.propagations.wrapping_sub(props);
                assert!(spent <= most(tried), "refutations: {spent} propagations");
                let Some((child, v)) = found else {
                    assert!(!more, "the tree is exhausted");
                    return out;
                };
                assert!(more);
                assert_eq!(continuing, Some(v));
                assert_eq!(k.depth(), stack.len());
                cur = child;
                check_slot(k, case, &cur, "after a refutation");
                check_rerun(k, case, &cur, "after a refutation");
            }
        }
    }

    /// The kernel's expansion of the root against the reference: failed, solved, or the branching variable with
    /// its first value by the value order and the others ascending.
    fn check_expand<const K: usize, M: Word>(
        k: &mut Kernel<'_, K, M>,
        case: &Case,
        assumptions: &[(VarId, i64)],
    ) {
        let cfg = k.cfg.clone();
        let partners = case.partners(&cfg);
        let singles = cfg.propagation == Propagation::Singles;
        let root = case
            .root(assumptions)
            .and_then(|mut d| reference(&mut d, &case.groups, &partners, singles).then_some(d));
        let got = k.expand(assumptions, &mut Stats::default());
        match (root, got) {
            (None, Expansion::Failed) => {}
            (Some(d), Expansion::Solution(values)) => {
                assert!(expected_var(&d, cfg.var_order).is_none());
                assert_eq!(values, case.decode(&d));
            }
            (Some(d), Expansion::Branch(x, values)) => {
                let v = expected_var(&d, cfg.var_order).unwrap();
                assert_eq!(x.index(), v as usize);
                let all: Vec<i64> = positions(d[v as usize])
                    .into_iter()
                    .map(|p| case.values[v as usize][p])
                    .collect();
                let first = all.iter().position(|&y| y == values[0]).unwrap();
                assert!(value_rule_allows(
                    cfg.value_order,
                    d[v as usize],
                    positions(d[v as usize])[first]
                ));
                let mut rest = all.clone();
                rest.remove(first);
                assert_eq!(&values[1..], &rest[..]);
            }
            (root, got) => panic!("expand: reference {root:?}, kernel {got:?}"),
        }
    }

    /// Every strategy the kernel runs.
    fn configs() -> Vec<SearchConfig> {
        let mut out = Vec::new();
        for var in [VarOrder::Input, VarOrder::Mrv] {
            for value in [
                ValueOrder::Ascending,
                ValueOrder::Median,
                ValueOrder::Random,
            ] {
                for prop in [Propagation::ForwardChecking, Propagation::Singles] {
                    for locked in [false, true] {
                        out.push(
                            SearchConfig::default()
                                .var_order(var)
                                .value_order(value)
                                .propagation(prop)
                                .intersections(locked)
                                .seed(11),
                        );
                    }
                }
            }
        }
        out
    }

    /// A random model of aligned groups over one or two components (each its own range), sometimes with a
    /// variable in no group (one value, or a value list with holes), and random assumptions (mostly values of
    /// the domain; sometimes outside it, repeated, or of another model).
    fn random_case(rng: &mut Rng, perm_only: bool) -> (Case, Vec<Vec<(VarId, i64)>>) {
        let mut m = Model::new();
        let mut posted = Vec::new();
        let mut all = Vec::new();
        for _ in 0..1 + rng.below(2) {
            let lo = rng.below(5) as i64 - 2;
            let width = 2 + rng.below(3) as i64;
            let n = 1 + rng.below(4) as usize;
            let vars: Vec<VarId> = (0..n)
                .map(|_| m.new_var(lo, lo + width - 1).unwrap())
                .collect();
            for _ in 0..rng.below(5) {
                let k = if perm_only {
                    width as usize
                } else {
                    2 + rng.below(width as u64) as usize
                };
                let mut pool = vars.clone();
                let mut group = Vec::new();
                while group.len() < k && !pool.is_empty() {
                    group.push(pool.swap_remove(rng.below(pool.len() as u64) as usize));
                }
                if group.len() >= 2 && (!perm_only || group.len() == width as usize) {
                    m.all_different(&group).unwrap();
                    posted.push(group);
                }
            }
            all.extend(vars);
        }
        match rng.below(4) {
            0 => all.push(m.new_var_with_values(&[-1, 2, 3, 7]).unwrap()),
            1 => all.push(m.new_var(5, 5).unwrap()),
            _ => {}
        }
        let mut other = Model::new();
        let foreign = other.new_var(0, 3).unwrap();
        let mut sets = vec![Vec::new()];
        for _ in 0..3 {
            let mut a = Vec::new();
            for _ in 0..rng.below(3) {
                let x = if rng.below(20) == 0 {
                    foreign
                } else {
                    all[rng.below(all.len() as u64) as usize]
                };
                a.push((x, rng.below(8) as i64 - 3));
            }
            sets.push(a);
        }
        (Case::new(m, posted), sets)
    }

    /// The walks of one case under every configuration, on a kernel of `K` words and group sets `M`, reused
    /// across the assumption sets; complete walks give exactly the enumerated solutions.
    fn check_case<const K: usize, M: Word>(
        case: &Case,
        sets: &[Vec<(VarId, i64)>],
        seen: &mut [u64; 4],
    ) {
        for (c, cfg) in configs().into_iter().enumerate() {
            let mut k = Kernel::<K, M>::new(&case.problem, cfg);
            for (i, a) in sets.iter().enumerate() {
                let restart_at = (c % 3 == 0).then_some(1 + i as u64);
                let w = walk(&mut k, case, a, 10_000, restart_at);
                assert!(w.complete);
                let mut expected = case.brute_force(a);
                let mut got = w.solutions.clone();
                if w.restarted {
                    got.sort();
                    got.dedup();
                    seen[3] += 1;
                } else {
                    let n = got.len();
                    got.sort();
                    got.dedup();
                    assert_eq!(got.len(), n, "a solution found twice");
                }
                expected.sort();
                assert_eq!(got, expected, "solutions of {a:?}");
                seen[usize::from(expected.is_empty())] += 1;
                check_expand(&mut k, case, a);
            }
        }
        seen[2] += 1;
    }

    #[test]
    fn every_fixpoint_decision_and_refutation_matches_the_rules_computed_from_scratch_on_random_group_models(
    ) {
        let mut rng = Rng::new(2026);
        let mut seen = [0u64; 4];
        let mut round = 0;
        while round < 120 {
            let (case, sets) = random_case(&mut rng, round % 4 == 3);
            // Small enough to enumerate, and for every walk to finish.
            if case.values.iter().map(Vec::len).product::<usize>() > 1000 {
                continue;
            }
            round += 1;
            check_case::<1, u64>(&case, &sets, &mut seen);
            if round % 6 == 1 {
                // The same models on wider variable and group sets (zero words above the first).
                check_case::<2, u128>(&case, &sets, &mut seen);
            }
        }
        // Satisfiable and unsatisfiable walks, and restarts, were all seen.
        assert!(seen[0] > 500 && seen[1] > 500 && seen[3] > 100, "{seen:?}");
    }

    /// A model of `n` variables over `0..width` with the groups `groups` (indices), built.
    fn groups_model(n: usize, width: i64, groups: &[Vec<usize>]) -> Problem {
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..n).map(|_| m.new_var(0, width - 1).unwrap()).collect();
        for g in groups {
            let vars: Vec<VarId> = g.iter().map(|&i| xs[i]).collect();
            m.all_different(&vars).unwrap();
        }
        m.build().unwrap()
    }

    #[test]
    fn the_kernel_takes_exactly_the_models_and_strategies_its_documentation_lists() {
        let p = groups_model(3, 3, &[vec![0, 1, 2]]);
        for cfg in configs() {
            assert!(applies(&p, &cfg), "{cfg:?}");
        }
        let base = SearchConfig::default();
        let outside = [
            SearchConfig {
                generic_engine: true,
                ..base.clone()
            },
            base.clone().propagation(Propagation::None),
            base.clone().var_order(VarOrder::MrvDegree),
            base.clone().var_order(VarOrder::DomWdeg),
            base.clone().random_ties(true),
            base.clone().value_order(ValueOrder::Lcv),
            base.clone().value_order(ValueOrder::Descending),
            base.clone().value_order(ValueOrder::Split),
            SearchConfig {
                phases: vec![crate::config::Phase {
                    vars: p.var(0).into_iter().collect(),
                    var_order: VarOrder::Input,
                    value_order: ValueOrder::Ascending,
                }],
                ..base.clone()
            },
            SearchConfig {
                complete_rest_once: true,
                ..base.clone()
            },
        ];
        for cfg in &outside {
            assert!(!applies(&p, cfg), "{cfg:?}");
        }
        // Restarts and limits do not matter.
        assert!(applies(
            &p,
            &base.clone().restarts(Restarts::Luby { scale: 1 })
        ));

        // Sizes at and past each bound.
        let chain = |n: usize, groups: usize| -> Vec<Vec<usize>> {
            (0..groups).map(|g| vec![g % n, (g + 1) % n]).collect()
        };
        assert!(applies(
            &groups_model(MAX_VARS, 2, &chain(MAX_VARS, 4)),
            &base
        ));
        assert!(!applies(
            &groups_model(MAX_VARS + 1, 2, &chain(MAX_VARS + 1, 4)),
            &base
        ));
        assert!(applies(
            &groups_model(200, 2, &chain(200, MAX_GROUPS)),
            &base
        ));
        assert!(!applies(
            &groups_model(200, 2, &chain(200, MAX_GROUPS + 1)),
            &base
        ));
        let big: Vec<usize> = (0..MAX_GROUP).collect();
        assert!(applies(&groups_model(MAX_GROUP, 64, &[big]), &base));
        let bigger: Vec<usize> = (0..=MAX_GROUP).collect();
        assert!(!applies(&groups_model(MAX_GROUP + 1, 64, &[bigger]), &base));
        // A repeated member, domains past 64 values, an interval, another constraint, a shifted group.
        assert!(!applies(&groups_model(3, 3, &[vec![0, 1, 0]]), &base));
        assert!(!applies(&groups_model(3, 65, &[vec![0, 1, 2]]), &base));
        let pair = || {
            let mut m = Model::new();
            let x = m.new_var(0, 2).unwrap();
            let y = m.new_var(0, 2).unwrap();
            m.all_different(&[x, y]).unwrap();
            (m, x, y)
        };
        let (mut m, _, _) = pair();
        m.new_interval_var(0, 2).unwrap();
        assert!(!applies(&m.build().unwrap(), &base));
        let (mut m, x, y) = pair();
        m.not_equal(x, y, 1).unwrap();
        assert!(!applies(&m.build().unwrap(), &base));
        let (mut m, x, y) = pair();
        m.all_different_offset(&[x, y], &[0, 1]).unwrap();
        assert!(!applies(&m.build().unwrap(), &base));
        assert!(applies(&pair().0.build().unwrap(), &base));
    }

    #[test]
    fn the_bit_helpers_follow_their_definitions() {
        for x in [
            0u64,
            1,
            2,
            3,
            6,
            8,
            1 << 63,
            u64::MAX,
            0x8000_0000_0000_0001,
        ] {
            assert_eq!(single(x), x.count_ones() == 1, "{x:#x}");
            let ps = positions(x);
            for (k, &p) in ps.iter().enumerate() {
                assert_eq!(nth_bit(x, k as u32), p, "{x:#x}, bit {k}");
            }
        }
        for w in 0..=64 {
            assert_eq!(
                low_mask(w),
                positions(u64::MAX)[..w].iter().fold(0, |a, &p| a | 1 << p)
            );
        }
        assert!(
            distinct(&[3, 1, 2]) && distinct(&[]) && !distinct(&[1, 2, 1]) && !distinct(&[4, 4])
        );
    }

    /// The solutions the general engine finds first, at most `n` (the kernel promises the same order).
    fn general_engine_first(
        case: &Case,
        cfg: &SearchConfig,
        a: &[(VarId, i64)],
        n: usize,
    ) -> Vec<Vec<i64>> {
        let cfg = SearchConfig {
            generic_engine: true,
            ..cfg.clone()
        };
        let mut out = Vec::new();
        if n > 0 {
            crate::Solver::new(&case.problem, cfg).for_each_solution(a, |s| {
                out.push(s.values().to_vec());
                if out.len() == n {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            });
        }
        out
    }

    /// Walks of a model under every configuration, capped at `cap` decisions, on kernels of `K` words; the
    /// solutions found must be the general engine's first ones, in order.
    fn check_big<const K: usize, M: Word>(
        case: &Case,
        sets: &[Vec<(VarId, i64)>],
        cap: u64,
    ) -> usize {
        let mut found = 0;
        for cfg in configs() {
            let mut k = Kernel::<K, M>::new(&case.problem, cfg.clone());
            for a in sets {
                let w = walk(&mut k, case, a, cap, None);
                assert_eq!(
                    w.solutions,
                    general_engine_first(case, &cfg, a, w.solutions.len())
                );
                found += w.solutions.len();
                check_expand(&mut k, case, a);
            }
        }
        found
    }

    #[test]
    fn past_64_variables_and_64_groups_every_step_still_matches_the_rules() {
        // 9x9 Sudoku: 81 cells (two words), 27 permutation groups, boxes partnered with rows and columns.
        let mut m = Model::new();
        let cells: Vec<VarId> = (0..81).map(|_| m.new_var(1, 9).unwrap()).collect();
        let mut posted: Vec<Vec<VarId>> = Vec::new();
        for i in 0..9 {
            posted.push((0..9).map(|j| cells[i * 9 + j]).collect());
            posted.push((0..9).map(|j| cells[j * 9 + i]).collect());
            posted.push(
                (0..9)
                    .map(|j| cells[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3])
                    .collect(),
            );
        }
        for g in &posted {
            m.all_different(g).unwrap();
        }
        let case = Case::new(m, posted);
        let puzzle =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let givens: Vec<(VarId, i64)> = puzzle
            .bytes()
            .enumerate()
            .filter(|&(_, c)| c.is_ascii_digit())
            .map(|(i, c)| (cells[i], i64::from(c - b'0')))
            .collect();
        let mut clash = givens.clone();
        clash.push((cells[1], 4));
        let sets = vec![givens.clone(), givens[..12].to_vec(), clash];
        let found = check_big::<2, u64>(&case, &sets, 60);
        assert!(found > 0);

        // 99 variables of three values: 33 triangles (permutations), 32 edges between them and 6 more
        // triangles across: 71 groups, so group sets are `u128`.
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..99).map(|_| m.new_var(0, 2).unwrap()).collect();
        let mut posted: Vec<Vec<VarId>> = Vec::new();
        for j in 0..33 {
            posted.push(vec![xs[3 * j], xs[3 * j + 1], xs[3 * j + 2]]);
        }
        for j in 0..32 {
            posted.push(vec![xs[3 * j + 2], xs[3 * j + 3]]);
        }
        for j in 0..6 {
            posted.push(vec![xs[j], xs[40 + 7 * j], xs[98 - j]]);
        }
        for g in &posted {
            m.all_different(g).unwrap();
        }
        let case = Case::new(m, posted);
        let sets = vec![
            Vec::new(),
            vec![(xs[0], 1), (xs[50], 2), (xs[97], 0)],
            vec![(xs[2], 0), (xs[3], 0)],
        ];
        let found =
            check_big::<2, u128>(&case, &sets, 90) + check_big::<4, u128>(&case, &sets[..1], 90);
        assert!(found > 0);
    }

    #[test]
    fn the_kernel_reports_its_configuration_and_takes_new_limits() {
        let p = groups_model(3, 3, &[vec![0, 1, 2]]);
        let cfg = SearchConfig::default()
            .var_order(VarOrder::Input)
            .value_order(ValueOrder::Median)
            .seed(99)
            .limits(Limits::none().with_nodes(7));
        let mut k = Kernel::<1, u64>::new(&p, cfg);
        for c in [k.config(), Driven::config(&k)] {
            assert_eq!(
                (c.var_order, c.value_order, c.seed),
                (VarOrder::Input, ValueOrder::Median, 99)
            );
            assert_eq!(c.limits.nodes, Some(7));
        }
        k.set_limits(Limits::none().with_nodes(3));
        assert_eq!(k.config().limits.nodes, Some(3));
        assert_eq!(k.config().seed, 99);
    }

    /// Removes values at random from the root of `case` (no assumptions) and propagates after each removal, as a
    /// refutation does but from states no search reaches (holes anywhere, several values lost at once): every
    /// propagation must fail exactly when the reference fixpoint fails, and otherwise leave that fixpoint with
    /// the slot's invariants, and a rerun of every check must change nothing. `seen` counts the removals that
    /// failed and those that propagated.
    fn check_removals<const K: usize, M: Word>(case: &Case, rng: &mut Rng, seen: &mut [u64; 2]) {
        for cfg in configs() {
            let singles = cfg.propagation == Propagation::Singles;
            let partners = case.partners(&cfg);
            let mut k = Kernel::<K, M>::new(&case.problem, cfg);
            for _ in 0..3 {
                let mut cur = case.root(&[]).unwrap();
                let root_ok = reference(&mut cur, &case.groups, &partners, singles);
                assert_eq!(k.start(&[], &mut Stats::default()).is_ok(), root_ok);
                if !root_ok {
                    break;
                }
                for step in 0..8 {
                    let open: Vec<usize> = (0..cur.len())
                        .filter(|&v| cur[v].count_ones() > 1)
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    let v = open[rng.below(open.len() as u64) as usize];
                    let new = loop {
                        let kept = cur[v] & rng.next_u64();
                        if kept != 0 && kept != cur[v] {
                            break kept;
                        }
                    };
                    let at = format!(
                        "removal {step}: variable {v} from {:#b} to {new:#b}",
                        cur[v]
                    );
                    k.restrict(v as u32, new);
                    let mut pending = [0u64; K];
                    if single(new) {
                        pending[v / 64] |= 1 << (v % 64);
                    }
                    let ok = k.propagate(pending, &mut Stats::default()).is_ok();
                    cur[v] = new;
                    let ok_ref = reference(&mut cur, &case.groups, &partners, singles);
                    assert_eq!(ok, ok_ref, "{at}");
                    seen[usize::from(ok)] += 1;
                    if !ok {
                        k.clear_dirty();
                        break;
                    }
                    check_slot(&k, case, &cur, &at);
                    check_rerun(&mut k, case, &cur, &at);
                }
            }
        }
    }

    #[test]
    fn after_arbitrary_value_removals_every_propagation_reaches_the_fixpoint_computed_from_scratch()
    {
        let mut rng = Rng::new(1807);
        let mut seen = [0u64; 2];
        let mut round = 0;
        while round < 150 {
            let (case, _) = random_case(&mut rng, round % 4 == 3);
            round += 1;
            check_removals::<1, u64>(&case, &mut rng, &mut seen);
            if round % 6 == 1 {
                check_removals::<2, u128>(&case, &mut rng, &mut seen);
            }
        }
        // Removals that failed and that propagated were both seen, many times.
        assert!(seen[0] > 300 && seen[1] > 3000, "{seen:?}");
    }

    /// Sets the domains of `removals` in the kernel's root slot and in `cur` (variables left with one value are
    /// forward-checked), propagates, and checks the kernel against the reference fixpoint of `cur`, which it
    /// updates; both must succeed.
    fn remove_and_propagate(
        k: &mut Kernel<'_, 1, u64>,
        case: &Case,
        cur: &mut [u64],
        removals: &[(VarId, u64)],
        at: &str,
    ) {
        let mut pending = [0u64];
        for &(v, new) in removals {
            k.restrict(v.index() as u32, new);
            cur[v.index()] = new;
            if single(new) {
                pending[0] |= 1 << v.index();
            }
        }
        assert!(k.propagate(pending, &mut Stats::default()).is_ok(), "{at}");
        let partners = case.partners(&k.cfg);
        assert!(reference(cur, &case.groups, &partners, k.sweep), "{at}");
        check_slot(k, case, cur, at);
        check_rerun(k, case, cur, at);
    }

    #[test]
    fn locked_candidates_send_the_groups_of_the_variables_they_strip_to_be_checked_again() {
        // Values 0..3. G = {a, b, c, x} and H = {b, c, d, y} are permutations sharing b and c (partners), P =
        // {d, p, q, r} a permutation, N = {d, e, f} a group of three.
        let mut m = Model::new();
        let [a, b, c, x, d, y, p, q, r, e, f] = std::array::from_fn(|_| m.new_var(0, 3).unwrap());
        let posted = vec![
            vec![a, b, c, x],
            vec![b, c, d, y],
            vec![d, p, q, r],
            vec![d, e, f],
        ];
        for g in &posted {
            m.all_different(g).unwrap();
        }
        let case = Case::new(m, posted);
        let cfg = SearchConfig::default()
            .propagation(Propagation::Singles)
            .intersections(true);
        assert_eq!(case.partners(&cfg), vec![(0, 1), (1, 0)]);
        let mut k = Kernel::<1, u64>::new(&case.problem, cfg);
        assert!(k.start(&[], &mut Stats::default()).is_ok());
        let mut cur = case.root(&[]).unwrap();
        // A fixpoint where 3 can go in P at d or r only, and N's members take 0..3 with only d holding 0 and 3.
        let first = [
            (e, 0b0110),
            (f, 0b0110),
            (p, 0b0111),
            (q, 0b0111),
            (d, 0b1011),
        ];
        remove_and_propagate(&mut k, &case, &mut cur, &first, "first removals");
        let removed: Vec<u64> = first.iter().map(|&(_, new)| new).collect();
        let after: Vec<u64> = first.iter().map(|&(v, _)| cur[v.index()]).collect();
        assert_eq!(after, removed, "the first removals alone deduce nothing");
        // a and x lose 3: in G, 3 is locked in b and c, so d and y lose it (the strip). Then 3 has one place
        // left in P (r), and N holds 0..2 with 0 at d only: both deductions need the stripped d's groups checked.
        let second = [(a, 0b0111), (x, 0b0111)];
        remove_and_propagate(&mut k, &case, &mut cur, &second, "after the strip");
        assert_eq!((cur[d.index()], cur[r.index()]), (0b0001, 0b1000));
    }

    #[test]
    fn forward_checking_sends_the_other_groups_of_the_peers_it_prunes_to_be_swept() {
        // Values 0..3. G = {v, x} and N = {x, y, z}: groups smaller than the domain (swept, not checked by value).
        for propagation in [Propagation::ForwardChecking, Propagation::Singles] {
            let mut m = Model::new();
            let [v, x, y, z] = std::array::from_fn(|_| m.new_var(0, 3).unwrap());
            let posted = vec![vec![v, x], vec![x, y, z]];
            for g in &posted {
                m.all_different(g).unwrap();
            }
            let case = Case::new(m, posted);
            let cfg = SearchConfig::default().propagation(propagation);
            let mut k = Kernel::<1, u64>::new(&case.problem, cfg);
            assert!(k.start(&[], &mut Stats::default()).is_ok());
            let mut cur = case.root(&[]).unwrap();
            let first = [(x, 0b1011), (y, 0b0110), (z, 0b0110)];
            remove_and_propagate(&mut k, &case, &mut cur, &first, "first removals");
            assert_eq!(cur[x.index()], 0b1011, "N takes 0..3: nothing forced");
            // v = 3 takes 3 from x (forward checking, through G); then N holds 0..2 with 0 at x only, which
            // only N's sweep sees.
            remove_and_propagate(&mut k, &case, &mut cur, &[(v, 0b1000)], "v = 3");
            let expected = if k.sweep { 0b0001 } else { 0b0011 };
            assert_eq!(cur[x.index()], expected, "{propagation:?}");
        }
    }

    #[test]
    fn without_a_two_value_domain_mrv_branches_on_the_smallest_open_domain_lowest_index_first() {
        // Six variables over 0..5 and one group of two (no value is lost at the root). Each row is a slot's
        // domains, set without propagation; none holds exactly two values but the last, which takes the fast path.
        let p = groups_model(6, 5, &[vec![0, 5]]);
        let slots: [[u64; 6]; 6] = [
            // Assigned variables first and last, the smallest open domain (3) at 2 and 3: 2.
            [0b00001, 0b11110, 0b01110, 0b10101, 0b11111, 0b00100],
            // Sizes 4, 4, 3, 5, 3 after an assigned one: the first of size 3 is past larger ones.
            [0b00010, 0b11011, 0b01111, 0b11100, 0b11111, 0b10110],
            // Sizes 5, 4, 4, 4, 4, 3: the smallest is last.
            [0b11111, 0b01111, 0b11110, 0b10111, 0b11101, 0b00111],
            // One open variable among assigned ones, not the first.
            [0b01000, 0b00001, 0b10000, 0b10011, 0b00010, 0b00100],
            // Every variable assigned: no branching.
            [0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b00100],
            // A two-value domain after larger ones: taken at once.
            [0b11111, 0b01110, 0b00001, 0b10100, 0b00111, 0b01011],
        ];
        for order in [VarOrder::Mrv, VarOrder::Input] {
            let mut k = Kernel::<1, u64>::new(&p, SearchConfig::default().var_order(order));
            for slot in &slots {
                assert!(k.start(&[], &mut Stats::default()).is_ok());
                for (v, &x) in slot.iter().enumerate() {
                    k.restrict(v as u32, x);
                }
                let expected = expected_var(slot, order);
                assert_eq!(k.branch_var(), expected, "{order:?}, {slot:?}");
                assert_eq!(k.is_solution(), expected.is_none());
                assert_eq!(k.select_var(), expected);
            }
        }
    }

    #[test]
    fn the_random_value_order_draws_each_first_value_from_the_seeded_generator() {
        // One variable over 0..8, its domain with holes; each draw picks the k-th value left, k uniform below
        // their number, from the generator seeded with the configuration's seed at the start.
        let p = groups_model(2, 8, &[vec![0, 1]]);
        for seed in [0, 5, 2026] {
            let cfg = SearchConfig::default()
                .value_order(ValueOrder::Random)
                .seed(seed);
            let mut k = Kernel::<1, u64>::new(&p, cfg);
            assert!(k.start(&[], &mut Stats::default()).is_ok());
            let x = 0b1011_0110u64;
            k.restrict(0, x);
            let mut rng = Rng::new(seed);
            let mut seen = 0u64;
            for _ in 0..40 {
                let k_th = rng.below(u64::from(x.count_ones())) as usize;
                let pos = k.select_value(0);
                assert_eq!(pos, positions(x)[k_th], "seed {seed}");
                seen |= 1 << pos;
            }
            assert_eq!(seen, x, "every value drawn first at some point");
        }
    }
}
