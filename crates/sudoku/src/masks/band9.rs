//! The 9x9 solver: candidates as board-wide bitboards, one 27-bit band per digit (the JCZSolve family of designs,
//! written here from the idea, not from any of its code).
//!
//! For each digit `d` and band `b` (rows `3b..3b+3`), `cand[9b + d]` holds the cells of the band where `d` may still
//! go (layout in [`super::tables`]). Propagation, to a fixpoint:
//!
//! 1. *Band update* of one digit in one band, whenever its bits changed: one table lookup keeps only the minirows
//!    that lie on a valid row->box permutation (locked candidates + box hidden singles); a row left with one cell
//!    (found by two more lookups, see [`super::tables::SOLO_ROWS`]) is a hidden single, which is placed: the cell
//!    leaves the other digits (once the band's updates of the sweep are done). A box whose candidates lie in one
//!    column takes that column from the digit's other two bands (pointing; covers the placed cells too).
//! 2. *Naked singles*: bit-sliced counting over the nine digits finds, per band, the unsolved cells with no
//!    candidate (conflict) and with exactly one (placed).
//!
//! Steps 1 and 2 run as JCZSolve's do: sweeps over the 27 entries in band-major order, updating each entry that
//! changed since its last update, then naked singles once a sweep changes nothing.
//!
//! 3. *Column claiming*, in the search once it has met a conflict, when steps 1 and 2 are stuck: a digit whose
//!    candidates in a column all lie in one band is in that column's box there, and leaves the box's other
//!    columns ([`Board9::claim`]; the converse of step 1's pointing, which a band update cannot see, as a column
//!    spans three bands). It also finds the hidden singles of columns, which steps 1 and 2 miss.
//!
//! Data layout and the machine (issue 16, second half; figures in `docs/measurements.md`, "fast solver, wall
//! time"): the state is the 27 entries, the three `unsolved` words, a 27-bit `dirty` mask and the bands' bi-value
//! cells as their last naked-singles pass found them (so a pass skips the bands unchanged since: eighteenth
//! session, serg -4.4% instructions), 160 bytes, copied whole on a guess. Which entries are due is kept up to
//! date by every change (a compare per removal) rather than found by comparing the entries with a copy of them as
//! their last updates left them: that copy doubled the state, and the vector compare of the two read words just
//! stored one at a time (a store-forwarding stall on every sweep). The updates of one band read only their own
//! entries and leave each other's hidden singles to the end of the band, so they overlap in the processor instead
//! of each waiting on the previous one's stores. Both were chosen by thread CPU time against the crates.io crate
//! in the same process, not by instruction counts: they cost more instructions and take less time. A tdoku-style
//! layout (boxes as SIMD lanes) was not tried.
//!
//! Measured trade-offs (callgrind instructions per puzzle, first 1000 puzzles of forum_hardest_1905_11plus,
//! first solution unless noted; each figure against the version just before it):
//! - hidden singles in columns as a third step when 1 and 2 are stuck: guesses 83 -> 73, instructions 320k ->
//!   350k: dropped. Claiming column -> box inside the band update (a column whose candidates lie in one band):
//!   count-2 guesses 130 -> 117, instructions 454k -> 478k: dropped.
//! - box -> column pointing in step 1: 17-clue guesses 1.9 -> 0.7, hardest 77 -> 73; without it (columns of
//!   placed cells only) count-2 instructions go 454k -> 547k.
//! - precise dirty bits instead of the sweep: 350k -> 375k; skipping bands found clean at the start of a sweep:
//!   229k -> 253k (changes made during the sweep wait a sweep longer). Unrolling the sweep so indices are
//!   constants: 572k -> 469k (count 2).
//! - naked singles after every sweep instead of at the band fixpoint: 229k -> 261k.
//!
//! Later measurements (callgrind, solve9 inclusive, per puzzle; forum_hardest_1106 (375) and the first 5000 of
//! forum_hardest_1905, first solution):
//! - root built by placing each given (clash = a given its digit already lost) instead of branch-free per-digit
//!   masks: kaggle 6.99k -> 5.86k; 17-clue 14.6k -> 12.5k.
//! - minirow key by ALU operations instead of three row-table lookups ([`super::tables::minirow_key`]) and a
//!   band-major sweep: 1106 377k -> 361k, 1905 226k -> 216k.
//! - tried and dropped: precise dirty bits (one bit per entry, set on every change, lowest bit first, updates
//!   dispatched by a `match` so indices stay constant): 1106 361k -> 452k, the marking costs more than the sweep's
//!   compares; skipping the confirming empty sweep when no update touched an entry the sweep had passed: 361k ->
//!   385k (few sweeps are empty, and the flag costs registers in the unrolled sweep); scoring bi-value cells by
//!   their bi-value peers in all three bands: 4% fewer guesses but 377k -> 380k (first), 460k over all bands.
//! - rows with one cell by `SOLO_ROWS & LOCKED` instead of a field-wise count: 1106 361k -> 337k.
//! - state passed to the recursion by reference (one copy per branch instead of two): 337k -> 330k; minirow key
//!   by a carry-free group test and one multiply: 330k -> 314k.
//! - the branching cell by row x band-column counts of its digits (see `Board9::choose`): nodes 209 -> 172,
//!   314k -> 278k; the last naked-singles pass counting to three for `choose`: -> 274k; one compare per node
//!   for the limits; a branch's copy reading `cand` once: -> 271k.
//! - tried and dropped (each slower, by instruction count, though each saves work on paper): comparing two
//!   entries per 64-bit compare in the sweep (337k -> 380k), skipping a band whose nine entries a vector compare
//!   finds unchanged (314k -> 445k), per-band inner sweeps (278k -> 335k), the conflict test moved after the
//!   stores, the band counts by table, `naked_singles` or `propagate` out of line (+0.3 to +2%). The unrolled
//!   sweep is fragile: the compiler's register allocation across its 27 inlined updates decides the figures.
//! - node counts against the crate (its `_solve` calls), before the new branching rule: 1106 first 209 vs 205,
//!   count-2 495 vs 615; 1905 first 125 vs 158. After it: 169, 410 and 105.
//! - the dirty entries visited band by band, each band's update a const-generic instance (`update_digits::<B>`),
//!   so the band's offsets, its `unsolved` word and the digit's other two bands are constants instead of `i / 9`
//!   and two conditional subtractions per update: solve9 per puzzle, first / count 2, 1106 298k -> 268k / 690k ->
//!   620k, serg (first 3000) 17.2k -> 15.9k / 18.9k -> 17.5k, kaggle 5.74k -> 5.13k; same nodes and answers.
//!   (Instructions only; the twenty-fourth session went back to one loop for the updates, for wall time: below.)
//!   The same for naked singles (`naked_singles_in::<B>`): 1106 first 268.1k -> 262.4k, serg count 2 17.49k ->
//!   17.10k. And for the root's givens (`place_givens::<B>`), with the placed cell's column mask by table
//!   ([`super::tables::COL_CLEAR`]) instead of `cell % 9`: 1106 first 255.0k -> 250.3k, serg count 2 16.74k ->
//!   16.00k, kaggle first 5.06k -> 4.59k.
//! - the solution grid bit-sliced (four value planes spread to bytes, eight cells per multiply; see
//!   `Board9::grid`) instead of a `trailing_zeros` walk over each digit's cells: kaggle first 4.59k -> 4.50k,
//!   serg count 2 16.00k -> 15.91k. The branching choice's row and column shifts by table
//!   ([`super::tables::ROW_COL_SHIFT`]) instead of `cell / 9` and `cell % 9`: serg count 2 15.91k -> 15.73k, 1106
//!   first 250.2k -> 248.3k.
//! - popcounts in the search by [`POP9`] lookups or by clearing the lowest bit twice (no popcount instruction on
//!   the default target): serg count 2 15.74k -> 15.61k, 1106 first 248.3k -> 247.3k.
//!   The bit copy, which has the instruction, counts the branching choice's bits by `popcnt` instead ([`pop`],
//!   twenty-third session): serg (first 2000) 28.89M -> 28.51M instructions, wall time +1.8% (medians of 9
//!   alternating runs of `--rounds 100`), generated hard unchanged.
//!
//! - the root's first sweep, where all 27 entries are due, with every update computed from the givens' state
//!   and their column clears and hidden singles applied together (`Board9::first_sweep`; the same fixpoint, as
//!   the rules only remove candidates), so that the 27 updates are independent: on AVX-512 they run as three
//!   registers of lanes with the tables replaced by the rules they tabulate (`sweep_lanes`, `wide`), and
//!   repeated while six or more entries are due (`lane_sweeps`). Twenty-third session, wall time against the
//!   previous root (`fast_rate --rounds 150`, medians of 7 alternating runs): kaggle +24%, 17_clue +9%, serg +7%,
//!   magictour +2%; the scalar copy, for processors without AVX-512 (one sweep), -1.3% instructions. The
//!   givens' state before it is built lane by lane there too (`givens_state`, from AVX-512 byte compares):
//!   kaggle +3%, serg +1% (`docs/measurements.md`, "band9's root: the first sweep all at once"). Since the
//!   twenty-fifth session the lanes stay in registers from the givens through the last sweep (`Lanes`), stored
//!   into the board once: kaggle +7%, 17_clue +3%, serg +0.5% ("band9's root kept in registers").
//! - a sweep's updates in one loop over the due entries of all three bands (`Board9::sweep`) instead of one
//!   const-generic loop per band (above): 3-5% more instructions, but fewer mispredicted branches per sweep.
//!   Twenty-fourth session, wall time: 17_clue +7%, serg +5%, magictour +4% / +5% (`docs/measurements.md`,
//!   "band9's sweep in one loop"). Instruction counts alone would have kept the per-band loops, as they did
//!   when those were measured.
//!
//! - column claiming (step 3) in the search after its first conflict, its test on AVX2 where the processor has it
//!   (`simd::claimable`: digits 0..7 of the three bands in three registers, digit 8 scalar), called through
//!   `super::dispatch::claimable`, since band9's bit copy is not compiled for AVX2 (compiled so, with the claim
//!   off, 17_clue lost 2.2% and magictour 1.0%); the rare hit is applied digit by digit. Twenty-sixth session:
//!   nodes per puzzle (`fast_rate`, first / count 2) magictour 13.38 / 23.01 -> 12.35 / 20.89, 17_clue 1.13 /
//!   1.76 -> 1.02 / 1.54, generated hard 5.86 / 9.36 -> 5.38 / 8.34, serg unchanged; wall time (medians of 7
//!   alternating runs) magictour +3.1% / +4.9%, 17_clue +0.9% / +1.2%, generated hard +2.0% / +4.3%, kaggle
//!   +0.1% / -0.4%, serg -0.3% / -1.1% (`docs/measurements.md`, "Column claiming in band9's search").
//!
//! Then the search guesses on a bi-value cell (see `Board9::choose`), copying the whole state (on the call stack)
//! for every branch but the last, which continues in place.
//!
//! Counting to two, the first solution may give the second at once: when the deepest branch point still to be
//! tried lies on a unique rectangle of the solution (four cells open at the root, on two rows and two columns in two
//! boxes, holding `a, e / e, a` with `e` one of the point's untried digits), swapping the two digits is another
//! solution ([`swap_through`], `Search::second_by_swap`). That branch is where the search would look next, and on a
//! puzzle with many solutions it is mostly where the search finds the second. Twenty-fifth session: serg 7.63 ->
//! 7.01 nodes per puzzle and +2.2% to +2.5% wall time counting (medians of 9 alternating runs); the others, whose
//! checks find nothing, -0.2% to -0.5%. A check of every rectangle of the grid saved more nodes (6.71) but cost
//! about 190 cycles, as much as it saved (`docs/measurements.md`, "A second solution by a swap through the last
//! branch point").
//!
//! [`solve9`], the registry's `fast` on 9x9, runs this solver's root, and when the root leaves many candidates
//! open (a hard puzzle) goes on with triad9 ([`super::triad9`]) seeded from this root (narrowed by the digits'
//! templates, [`super::templates`]) instead of this search; [`solve9_band`] is this solver alone. Why and where:
//! `TRIAD_FROM` and `docs/measurements.md`, "band9's root, then band9 or triad9" (seventeenth session) and
//! "Templates at the root" (nineteenth).
//!
//! Where it stands against the crates.io `sudoku` crate 0.8 (JCZSolve-style), in instructions and wall time, and
//! why the band update clears hidden singles without a branch: dated figures in `docs/measurements.md`.
//! What issue 16 tried and dropped (branching rules, an SSE2 dirty scan, since replaced by the kept mask,
//! `target-cpu=native`) is in the same file, "fast solver (issue 16)".
//!
//! Two compiled copies of the search (`band_functions!`, as triad9's): `portable`, for the default target, and
//! `bits`, the same source compiled with `popcnt,bmi1,bmi2` (`tzcnt`, `blsr`, `andn`, and shifts by any register
//! rather than `cl` in the bit loops), run where the processor has the three (`super::dispatch`, which holds the
//! `unsafe` call; this module has none). The copy keeps the shape the compiler gave the single search: `run`,
//! with `propagate`, `assign`, `grid` and the root's construction out of line (inlining `propagate` into `run`
//! gave back most of the gain). Measured (eighteenth session, `docs/measurements.md`, "band9 compiled for
//! BMI"): 8-9% fewer instructions and 3-7% less CPU time on every set band9 serves; the tests hold the two copies
//! to identical answers and statistics.

use std::time::Instant;

use csp_core::{Limits, Outcome, Stats};

use super::dispatch::Path;
use super::tables::{
    minirow_key, BAND, CELL_KEEP, COL_CLEAR, COL_SPREAD, KEEP, LOCKED, PERMS, POP9, ROW_COL_SHIFT,
    SOLO_ROWS, SPREAD8,
};
use super::{InputError, MaskResult, Stop};

/// Propagation found a contradiction: some cell or some digit of some house has no place left.
#[derive(Debug)]
pub(super) struct Conflict;

/// The search state of one node. Copied whole on a guess (160 bytes). Visible to `super::dispatch`, which has
/// the root built on its AVX-512 copy ([`wide`]).
#[derive(Clone, Copy)]
pub(super) struct Board9 {
    /// `cand[9b + d]`: cells of band `b` where digit `d` (0-based) may go, placed cells included. Band-major, so
    /// the nine digits of a band are contiguous (the loops over them vectorise). Invariant: a placed cell appears
    /// in exactly one digit's entry (its own). Entries 27..32 stay 0; 32 entries let an index taken from a 32-bit
    /// mask go unchecked.
    cand: [u32; 32],
    /// `unsolved[b]`: cells of band `b` not yet placed. A placed cell's peers have already lost its digit.
    unsolved: [u32; 4],
    /// Bit `i` set when `cand[i]` lost a cell since its last band update (the update is due). Zero at a fixpoint.
    /// Every change of an entry outside its own update goes through a function that sets its bit when it
    /// removed something ([`Board9::clear`], the loops of [`Board9::assign`], and [`Board9::sweep`], which sets
    /// the whole mask at its end).
    dirty: u32,
    /// `pairs[b]`: the unsolved cells of band `b` with exactly two candidates, as the last naked-singles pass over
    /// the band left them (see [`Board9::propagate`]). Valid at a fixpoint: a band is passed over again only when
    /// its entries changed since.
    pairs: [u32; 3],
}

/// The entries of the same digit in the other two bands: `i + 9` and `i + 18`, modulo 27, masked for indexing.
#[inline(always)]
fn other_bands(i: usize) -> (usize, usize) {
    let j = if i >= 18 { i - 18 } else { i + 9 };
    let k = if i >= 9 { i - 9 } else { i + 18 };
    (j & 31, k & 31)
}

impl Board9 {
    /// [`Board9::set_givens`] on a new state: the tests' way to build a root.
    #[cfg(test)]
    fn from_givens(givens: &[u8; 81]) -> Result<Board9, Conflict> {
        let mut board = Board9 {
            cand: [0; 32],
            unsolved: [0; 4],
            dirty: 0,
            pairs: [0; 3],
        };
        board.set_givens(givens).map(|()| board)
    }

    /// Builds the root state from givens (0 = empty, 1..=9) in `self`, whatever it held, or reports a clash as a
    /// conflict. The search builds its root where it runs it, rather than moving a 160-byte result through
    /// `memcpy` calls (which took 4-5% of the CLI's time on kaggle).
    ///
    /// Every digit starts with the whole band; then each given is placed in turn, which takes its digit out of the
    /// given's row, box and column, and finally each digit keeps only the empty cells and its own givens. A given
    /// whose cell an earlier given of the same digit already took out shares a house with it: a clash. The empty
    /// cells come by SWAR ([`empty_cells`]) rather than by OR-ing each cell into a mask per value, whose
    /// read-modify-writes of one memory word each waited on the one before.
    #[inline(always)]
    fn set_givens(&mut self, givens: &[u8; 81]) -> Result<(), Conflict> {
        let (band0, rest) = givens.split_at(27);
        let (band1, band2) = rest.split_at(27);
        let empty = [empty_cells(band0), empty_cells(band1), empty_cells(band2)];
        let board = self;
        board.cand = [0; 32];
        board.unsolved = [empty[0], empty[1], empty[2], 0];
        board.dirty = BAND;
        board.pairs = [0; 3];
        board.cand[..27].fill(BAND);
        let mut own = [0u32; 32];
        let clash = board.place_givens::<0>(&mut own, band0, BAND & !empty[0])
            | board.place_givens::<1>(&mut own, band1, BAND & !empty[1])
            | board.place_givens::<2>(&mut own, band2, BAND & !empty[2]);
        for ((c, o), e) in board.cand[..27]
            .chunks_exact_mut(9)
            .zip(own.chunks_exact(9))
            .zip(empty)
        {
            for (c, o) in c.iter_mut().zip(o) {
                *c &= e | o;
            }
        }
        if clash != 0 {
            return Err(Conflict);
        }
        Ok(())
    }

    /// Places the givens of band `B` (`band`: its 27 cells, values 1..=9 at the cells of `cells`) and records each
    /// in its digit's `own` entry; returns the cells whose digit an earlier given had already taken out (a clash
    /// when nonzero).
    #[inline(always)]
    fn place_givens<const B: usize>(
        &mut self,
        own: &mut [u32; 32],
        band: &[u8],
        mut cells: u32,
    ) -> u32 {
        let mut clash = 0;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            // Values are 1..=9 here (checked by `solve9`); the mask only keeps the index in bounds.
            let d = usize::from(band.get(cell).copied().unwrap_or(1)).wrapping_sub(1) & 15;
            let i = (9 * B + d) & 31;
            clash |= !self.cand[i] & (1 << cell);
            own[i] |= 1 << cell;
            // As `place_in`, without marking entries dirty: at the root all are.
            let not_col = COL_CLEAR[cell & 31];
            self.cand[i] &= CELL_KEEP[cell & 31];
            self.cand[(9 * ((B + 1) % 3) + d) & 31] &= not_col;
            self.cand[(9 * ((B + 2) % 3) + d) & 31] &= not_col;
        }
        clash
    }

    /// The root before propagation, as the portable copy builds it: the givens' state ([`Board9::set_givens`]),
    /// then the first sweep ([`Board9::first_sweep`]). The oracle of the vector copy's `wide::root`.
    #[inline(always)]
    pub(super) fn root(&mut self, givens: &[u8; 81]) -> Result<(), Conflict> {
        self.set_givens(givens)?;
        self.first_sweep()
    }

    /// The root's first sweep: step 1 of the module doc on all 27 entries (every one is due after
    /// [`Board9::set_givens`]), each updated from the state the givens left rather than from the entries updated
    /// before it in the sweep, so that the 27 updates are independent (the vector copy, [`sweep_lanes`],
    /// does them side by side; this one is its oracle and the portable copy's). Then the column clears and the
    /// hidden singles of every update are applied at once, and an entry they changed is due again. The fixpoint
    /// that [`Board9::propagate`] reaches afterwards is the one it reaches without this sweep: the rules only
    /// remove candidates, and removing more never lets a rule remove less (checked on the shipped sets and random
    /// puzzles by `the_first_sweep_leaves_the_root_fixpoint_unchanged`, and by hand on 83,308 roots of the
    /// public sets: `docs/measurements.md`).
    #[inline(always)]
    pub(super) fn first_sweep(&mut self) -> Result<(), Conflict> {
        let mut kept = [0u32; 27];
        let mut locked = [0u32; 27];
        let mut singles = [0u32; 27];
        let mut empty = false;
        for i in 0..27 {
            let a = self.cand[i];
            let key = minirow_key(a) & 511;
            let a = a & KEEP[key];
            empty |= a == 0;
            let l = LOCKED[band_columns(a) as usize];
            singles[i] = a & SOLO_ROWS[key] & l & self.unsolved[i / 9];
            kept[i] = a;
            locked[i] = l;
        }
        let mut twice = 0;
        let mut dirty = 0;
        for b in 0..3 {
            let mut once = 0;
            for &s in &singles[9 * b..9 * b + 9] {
                twice |= once & s;
                once |= s;
            }
            for i in 9 * b..9 * b + 9 {
                let (j, k) = ((i + 9) % 27, (i + 18) % 27);
                let a = kept[i] & !(locked[j] | locked[k]) & !(once & !singles[i]);
                dirty |= u32::from(a != kept[i]) << i;
                self.cand[i] = a;
            }
            self.unsolved[b] &= !once;
        }
        self.dirty = dirty;
        if empty | (twice != 0) {
            return Err(Conflict);
        }
        Ok(())
    }

    /// Places digit `d` at `cell` of band `b`; the digit leaves the cell's peers. The caller has removed (or knows
    /// there are no) other digits at the cell.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, cell: usize) {
        let cell = cell & 31;
        let not_col = COL_CLEAR[cell];
        let i = (9 * b + d) & 31;
        let (j, k) = other_bands(i);
        self.clear(i, !CELL_KEEP[cell]);
        self.clear(j, !not_col);
        self.clear(k, !not_col);
        self.unsolved[b & 3] &= !(1 << cell);
    }

    /// Takes `cells` out of entry `i`, marking it dirty if that removed anything.
    #[inline(always)]
    fn clear(&mut self, i: usize, cells: u32) {
        let old = self.cand[i & 31];
        self.cand[i & 31] = old & !cells;
        self.dirty |= u32::from(old & cells != 0) << (i & 31);
    }

    /// [`Board9::place`] with the band a constant.
    #[inline(always)]
    fn place_in<const B: usize>(&mut self, d: usize, cell: usize) {
        let cell = cell & 31;
        let not_col = COL_CLEAR[cell];
        self.clear((9 * B + d) & 31, !CELL_KEEP[cell]);
        self.clear((9 * ((B + 1) % 3) + d) & 31, !not_col);
        self.clear((9 * ((B + 2) % 3) + d) & 31, !not_col);
        self.unsolved[B % 4] &= !(1 << cell);
    }

    /// Places digit `d` at `cell` of band `b` as a decision: every other digit leaves the cell first.
    #[inline(always)]
    fn assign(&mut self, d: usize, b: usize, cell: usize) {
        let bit = 1u32 << (cell % 27);
        let own = self.cand[(9 * b + d) & 31];
        let mut lost = 0;
        for (k, x) in self.cand[9 * (b % 3)..9 * (b % 3) + 9]
            .iter_mut()
            .enumerate()
        {
            lost |= u32::from(*x & bit != 0) << k;
            *x &= !bit;
        }
        self.cand[(9 * b + d) & 31] = own;
        self.dirty |= (lost & !(1 << d)) << (9 * (b % 3));
        self.place(d, b, cell);
    }

    /// [`Board9::assign`] on a copy of `parent` just made (everything but the decision): band `b`'s entries are
    /// read from `parent`, not from the copy. Reading them back from the copy made each wide load wait for the
    /// copy's stores to reach the cache (a load that spans two stores cannot be forwarded from them).
    #[inline(always)]
    fn assign_child(&mut self, parent: &Board9, d: usize, b: usize, cell: usize) {
        let bit = 1u32 << (cell % 27);
        let own = parent.cand[(9 * b + d) & 31];
        let mut lost = 0;
        for (k, (x, &p)) in self.cand[9 * (b % 3)..9 * (b % 3) + 9]
            .iter_mut()
            .zip(&parent.cand[9 * (b % 3)..9 * (b % 3) + 9])
            .enumerate()
        {
            lost |= u32::from(p & bit != 0) << k;
            *x = p & !bit;
        }
        self.cand[(9 * b + d) & 31] = own;
        self.dirty |= (lost & !(1 << d)) << (9 * (b % 3));
        self.place(d, b, cell);
    }

    /// One sweep of band updates (step 1 of the module doc): every entry whose bit is set in `dirty`, in increasing
    /// order (band by band), in one loop. Leaves due, in `self.dirty`, exactly the entries the sweep changed
    /// besides their own updates.
    ///
    /// Each update reads only its own entry, so the updates do not wait for each other: the hidden singles they
    /// find are collected per band (`once`) and taken out of the band's other digits after the loop, where a digit
    /// that loses a cell is left due for the next sweep. Two digits claiming one cell as a hidden single is a
    /// conflict (`twice`). An update that cleared each single from the band at once would make the next digit's
    /// load wait on that store, a chain through memory of every update of the band.
    ///
    /// One loop over all three bands rather than one per band, each with its band a compile-time constant (as
    /// from the eighteenth session to the twenty-third): the band's offsets then cost a multiply and two
    /// conditional moves, and the copy runs a few percent more instructions, but a sweep ends on one
    /// mispredicted branch instead of up to six (each band's "anything due?" test and its loop's exit; serg's
    /// sweeps update 2.6 entries each). Twenty-fourth session, wall time (`fast_rate --rounds 150`, medians of 7
    /// alternating runs): 17_clue +7%, serg +5%, magictour +4% / +5% (first / count), kaggle +1%; callgrind +3% to
    /// +5% instructions (`docs/measurements.md`, "band9's sweep in one loop").
    ///
    /// `singles[i]` receives the hidden singles entry `i`'s update found. It is zeroed once per propagation, not
    /// per sweep (the zeroing took 1.7% of serg's instructions): an entry left from an earlier sweep names cells
    /// that sweep placed, and `unsolved` only shrinks within a propagation, so those cells are outside `once` now
    /// and the stale entry removes exactly what a zero would.
    #[inline(always)]
    fn sweep(&mut self, dirty: u32, singles: &mut [u32; 32]) -> Result<(), Conflict> {
        let mut once = [0u32; 3];
        let (mut twice, mut empty) = (0u32, false);
        let mut due = 0u32;
        let mut entries = dirty;
        while entries != 0 {
            let i = entries.trailing_zeros() as usize;
            entries &= entries - 1;
            // i / 9 for i < 27 (and at most 3 for any i < 32).
            let b = (i * 57) >> 9;
            let a = self.cand[i & 31];
            let key = minirow_key(a) & 511;
            let a = a & KEEP[key];
            empty |= a == 0;
            // Columns alone in their box: the digit's cell of that box is in that column (see `LOCKED`).
            let locked = LOCKED[band_columns(a) as usize];
            // Unsolved cells alone in their row of the band (see `SOLO_ROWS`): hidden singles.
            let s = a & SOLO_ROWS[key] & locked & self.unsolved[b & 3];
            twice |= once[b % 3] & s;
            once[b % 3] |= s;
            singles[i & 31] = s;
            self.cand[i & 31] = a;
            // An earlier update of this sweep may have made it due; this update has seen that change.
            due &= !(1 << i);
            // The same digit in the other two bands (as `clear`, written out: measured faster so).
            let (j, k) = other_bands(i);
            let old = self.cand[j];
            self.cand[j] = old & !locked;
            due |= u32::from(old & locked != 0) << j;
            let old = self.cand[k];
            self.cand[k] = old & !locked;
            due |= u32::from(old & locked != 0) << k;
        }
        if empty | (twice != 0) {
            return Err(Conflict);
        }
        for (b, &once) in once.iter().enumerate() {
            if once != 0 {
                self.unsolved[b] &= !once;
                let mut lost = 0;
                for (k, (x, s)) in self.cand[9 * b..9 * b + 9]
                    .iter_mut()
                    .zip(&singles[9 * b..9 * b + 9])
                    .enumerate()
                {
                    let gone = *x & once & !s;
                    *x &= !gone;
                    lost |= u32::from(gone != 0) << k;
                }
                due |= lost << (9 * b);
            }
        }
        self.dirty = due;
        Ok(())
    }

    /// Places every naked single (step 2) in the bands whose entries changed since the last pass (bit `9b + d` of
    /// `touched` for entry `9b + d`); a band left alone has had no change since its last pass found no single.
    /// Returns whether anything was placed. Also keeps, per band, the unsolved cells with exactly two candidates
    /// in `pairs` (what `choose` needs when nothing was placed: counting to three here costs less than a second
    /// pass there).
    #[inline(always)]
    fn naked_singles(&mut self, touched: u32) -> Result<bool, Conflict> {
        let any0 = touched & 0x1FF != 0 && self.naked_singles_in::<0>()?;
        let any1 = touched >> 9 & 0x1FF != 0 && self.naked_singles_in::<1>()?;
        let any2 = touched >> 18 & 0x1FF != 0 && self.naked_singles_in::<2>()?;
        Ok(any0 | any1 | any2)
    }

    /// [`Board9::naked_singles`] in band `B` (a constant: offsets and the `unsolved` word fixed at compile time).
    #[inline(always)]
    fn naked_singles_in<const B: usize>(&mut self) -> Result<bool, Conflict> {
        let unsolved = self.unsolved[B % 4];
        if unsolved == 0 {
            self.pairs[B % 3] = 0;
            return Ok(false);
        }
        let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
        for &x in &self.cand[9 * (B % 3)..9 * (B % 3) + 9] {
            three |= two & x;
            two |= one & x;
            one |= x;
        }
        if unsolved & !one != 0 {
            return Err(Conflict);
        }
        self.pairs[B % 3] = two & !three & unsolved;
        let mut singles = unsolved & !two;
        let any = singles != 0;
        while singles != 0 {
            let cell = singles.trailing_zeros() as usize;
            singles &= singles - 1;
            // The cell's one digit, or none when a single placed before it in this pass took it.
            let digits = self.digits_at(B, cell);
            if digits == 0 {
                return Err(Conflict);
            }
            self.place_in::<B>(digits.trailing_zeros() as usize, cell);
        }
        Ok(any)
    }

    /// The digits that are candidates at `cell` of band `b`, as a 9-bit mask.
    ///
    /// Each entry's bit is shifted up to its sign and tested there. Written as `x & bit != 0` (until the
    /// twenty-fifth session), the compiler vectorised the loop for SSE2, whose lanes cannot be shifted by
    /// different counts, so each lane's `<< d` became a multiply (`pmuludq`) and shuffles; this form stays scalar:
    /// serg +2.2% first / +1.7% counting, 17_clue +1.2%, magictour first +1.0% (medians of 7 alternating runs).
    /// Gathering the signs by `movmskps` instead gained only half as much: its 16-byte loads wait on the
    /// entries' 4-byte stores just made by the naked singles placed.
    #[inline(always)]
    fn digits_at(&self, b: usize, cell: usize) -> u32 {
        let up = 31 - cell % 27;
        let mut mask = 0;
        for (d, &x) in self.cand[9 * (b % 3)..9 * (b % 3) + 9].iter().enumerate() {
            mask |= u32::from(((x << up) as i32) < 0) << d;
        }
        mask
    }

    /// Runs steps 1 and 2 to a fixpoint.
    /// Returns the bi-value cells of the fixpoint, per band (see `naked_singles`). `touched` names (as entry bits)
    /// bands to pass over for naked singles even where none of their entries is due: every band at the root,
    /// whose first sweep ([`Board9::first_sweep`]) has left due only the entries it changed; none in the search.
    #[inline(always)]
    fn propagate(&mut self, touched: u32) -> Result<[u32; 3], Conflict> {
        // The entries changed since the last naked-singles pass: every change marks its entry dirty, and every
        // dirty set passes through here.
        let mut touched = touched;
        let mut singles = [0u32; 32];
        loop {
            // Band-major order (measured against digit-major, where a band's column eliminations reach the same
            // digit's other bands within the sweep: 1106 first-solution instructions per puzzle 377k -> 374k).
            // A sweep updates the entries dirty when it starts, visited by `trailing_zeros`; entries changed by
            // its updates wait for the next sweep. The dirty set was once found by a `cand != prev` branch per
            // entry, then by a branch-free compare of the 27 entries with their copies (`prev`, SSE2); the mask
            // kept up to date by every change replaced both (no copies to store and to copy on a guess).
            let dirty = self.dirty;
            if dirty != 0 {
                touched |= dirty;
                self.sweep(dirty, &mut singles)?;
            } else {
                if !self.naked_singles(touched)? {
                    return Ok(self.pairs);
                }
                touched = 0;
            }
        }
    }

    /// Column claiming for the digits `digits` (bit `d`): where a digit's candidates in a column all lie in one
    /// band, the digit's cell of that column is in that band, so in the column's box there it leaves the box's
    /// other two columns. The cells removed make their entries due. Pointing (a box's candidates in one column
    /// clear that column elsewhere) is the band update's; this is its converse, which the band updates do not
    /// see (a column spans three bands). Only removes what [`claim_keep`] says; `digits` is what [`claimable`]
    /// found on this state.
    #[inline(always)]
    fn claim(&mut self, digits: u32) {
        let mut digits = digits & 0x1FF;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let a = [
                self.cand[d & 31],
                self.cand[(9 + d) & 31],
                self.cand[(18 + d) & 31],
            ];
            let kept = claimed(a);
            for b in 0..3 {
                if kept[b] != a[b] {
                    self.cand[(9 * b + d) & 31] = kept[b];
                    self.dirty |= 1 << (9 * b + d);
                }
            }
        }
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The branching cell: in the band with the most bi-value cells, among its first three bi-value cells (in cell
    /// order), the one whose two digits have the fewest candidates in its row and in its column inside the band (the
    /// sum over the two digits of row count times band-column count; ties: the first), i.e. the cell whose branches
    /// are likeliest to leave hidden singles behind; with no bi-value cell, the first cell with the fewest
    /// candidates. Weighing only the first three bi-value cells (seventeenth session, callgrind, `fast`'s solve9
    /// inclusive, first / count 2): serg (first 2000) 36.4M -> 35.1M / 40.6M -> 39.1M instructions, the generated
    /// hard puzzles (2000) -0.1%, and (measured on a build with a run-time switch) generated minimal (3000), 17-clue
    /// (5000) and top95 within -0.6% .. +0.9%; weighing the first one only saved 10% on serg but cost 10-16% on the
    /// generated hard puzzles (more nodes). Figures in `docs/measurements.md`. Measured against the previous rule
    /// (most bi-value peers inside the band), nodes per puzzle: forum_hardest_1106 209 -> 185 (first solution), 495
    /// -> 434 (count 2); forum_hardest_1905 (first 5000) 125 -> 112, 258 -> 231, with row + column; the product took
    /// them to 172, 416, 108, 222 (row + 2 column, or squares of the column, did as well). Counting the whole column,
    /// or the box too, did worse (1106 first: 235, 218); so did every band at once (224). Returns (band, cell in
    /// band, candidate digits as a mask). Only called on an unsolved fixpoint, where every unsolved cell has at least
    /// two candidates.
    ///
    /// Without `weigh`, the band's first bi-value cell, unweighed: what the search takes below its first two
    /// levels until it meets a conflict (see [`WEIGH_ABOVE`]).
    #[inline(always)]
    fn choose<const POPCNT: bool>(&self, pairs: [u32; 3], weigh: bool) -> (usize, usize, u32) {
        if pairs != [0; 3] {
            // In the band with the most bi-value cells, the lightest of its first three (or, unweighed, its first).
            let counts = pairs.map(pop::<POPCNT>);
            // Ties go to the later band (measured against the earlier: nodes per puzzle, first solution,
            // forum_hardest_1106 171.6 -> 169.2, forum_hardest_1905 107.1 -> 105.2, magictour 16.13 -> 16.01; count 2
            // on 1106 416 -> 410; 17-clue 1.35 -> 1.37).
            let b = if counts[2] >= counts[1] && counts[2] >= counts[0] {
                2
            } else if counts[1] >= counts[0] {
                1
            } else {
                0
            };
            // weight[cell]: for each of the cell's two digits, its candidates in the cell's row times those in
            // the cell's band column (the cell itself included in both).
            // The band's first three bi-value cells: its lowest bit cleared three times, the cleared bits kept.
            let mut rest = pairs[b];
            rest &= rest.wrapping_sub(1);
            rest &= rest.wrapping_sub(1);
            rest &= rest.wrapping_sub(1);
            let weighed = pairs[b] & !rest;
            if !weigh {
                let cell = pairs[b].trailing_zeros() as usize;
                return (b, cell, self.digits_at(b, cell));
            }
            // Each cell weighed in registers, from its own two digits (twenty-third session: a byte array of
            // weights filled digit by digit, the earlier form, chained its read-modify-writes through memory).
            let mut best = (0, u32::MAX, 0);
            let mut cells = weighed;
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let (row_shift, col_shift) = ROW_COL_SHIFT[cell & 31];
                let digits = self.digits_at(b, cell);
                let mut weight = 0;
                let mut rest = digits;
                while rest != 0 {
                    let x = self.cand[(9 * b + rest.trailing_zeros() as usize) & 31];
                    rest &= rest - 1;
                    let row = (x >> row_shift) & 0x1FF;
                    // The column's three bits (0, 9, 18) summed at bit 18 by one multiply (no carry reaches 20).
                    let col = ((x >> col_shift) & COL_SPREAD).wrapping_mul(COL_SPREAD) >> 18 & 3;
                    weight += pop::<POPCNT>(row) * col;
                }
                if weight < best.1 {
                    best = (cell, weight, digits);
                }
            }
            return (b, best.0, best.2);
        }
        let mut best = (0, 0, 0, u32::MAX);
        for b in 0..3 {
            let mut cells = self.unsolved[b];
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let mask = self.digits_at(b, cell);
                let size = pop::<POPCNT>(mask & 0x1FF);
                if size < best.3 {
                    best = (b, cell, mask, size);
                }
            }
        }
        (best.0, best.1, best.2)
    }

    /// The number of candidates in unsolved cells, over the whole board: how much a root leaves open
    /// ([`solve9`]'s route). Two entries per 64-bit popcount.
    #[inline(always)]
    fn open_candidates(&self) -> u32 {
        let mut n = 0;
        for (c, &u) in self.cand.chunks_exact(9).zip(&self.unsolved) {
            let u2 = u64::from(u) | u64::from(u) << 32;
            for pair in c[..8].chunks_exact(2) {
                n += ((u64::from(pair[0]) | u64::from(pair[1]) << 32) & u2).count_ones();
            }
            n += (c[8] & u).count_ones();
        }
        n
    }

    /// The six bands' digit configurations for triad9 ([`super::triad9::solve9_seeded`]): bands 0..3 horizontal
    /// (this solver's bands, elements = minirows), 3..6 vertical (box columns, elements = minicolumns). A digit
    /// keeps a configuration when each of the band's boxes still has a candidate for it in the configuration's
    /// element there ([`super::triad9::CONF_LANES`] of its occupancy key). Sound: a solution's configuration
    /// puts the digit on its candidates.
    #[inline(always)]
    fn band_configs(&self) -> [[u64; 2]; 6] {
        use super::triad9::CONF_LANES;
        let mut configs = [[0u64; 2]; 6];
        // cols[d][b]: the columns of band b where digit d has a candidate (bit = column).
        let mut cols = [[0u32; 3]; 9];
        for b in 0..3 {
            for (d, col) in cols.iter_mut().enumerate() {
                let x = self.cand[9 * b + d];
                // The minirow key has bit 3 * box + row: peer 3p + element e, as CONF_LANES reads it.
                let c = CONF_LANES[minirow_key(x) & 511];
                configs[b][0] |= c[0] << d;
                configs[b][1] |= c[1] << d;
                col[b] = band_columns(x);
            }
        }
        for (v, out) in configs[3..].iter_mut().enumerate() {
            for (d, col) in cols.iter().enumerate() {
                // Peer p = band p's box in this box column, element j = its minicolumn j.
                let key = (col[0] >> (3 * v) & 7)
                    | (col[1] >> (3 * v) & 7) << 3
                    | (col[2] >> (3 * v) & 7) << 6;
                let c = CONF_LANES[key as usize & 511];
                out[0] |= c[0] << d;
                out[1] |= c[1] << d;
            }
        }
        configs
    }

    /// [`Board9::grid_into`] into a new array, for the tests.
    #[cfg(test)]
    fn grid(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        self.grid_into(&mut out);
        out
    }

    /// Writes the grid into `out` as digits 1..=9, row-major. Only meaningful when solved (each cell in exactly one
    /// digit's entry).
    ///
    /// Bit-sliced: per band, plane `k` holds the cells whose value (digit + 1) has bit `k`; eight cells at a time,
    /// each plane's bits are spread to one per byte ([`spread_bits`]) and shifted to bit `k`. Measured against
    /// visiting each digit's cells by `trailing_zeros`: see the module doc. Written straight into `out`, eight
    /// bytes at a time (three for a band's last cells), in the caller's own buffer. Until the twenty-fourth
    /// session each band was staged in a buffer and copied on, and the grid returned by value: wide loads that
    /// spanned the narrower stores just made, which cannot be forwarded from them. That took `grid` from 9.3% to
    /// 4.5% of kaggle's samples, but the first copy of the result after it now waits instead: wall time within
    /// 1% (kaggle +0.1% to +0.5%, serg counting +0.6% to +1.2%).
    #[inline(always)]
    fn grid_into(&self, out: &mut [u8; 81]) {
        for (c, band) in self.cand.chunks_exact(9).zip(out.chunks_exact_mut(27)) {
            let planes = [
                c[0] | c[2] | c[4] | c[6] | c[8],
                c[1] | c[2] | c[5] | c[6],
                c[3] | c[4] | c[5] | c[6],
                c[7] | c[8],
            ];
            for (chunk, bytes) in band.chunks_mut(8).enumerate() {
                let mut word = 0u64;
                for (k, &plane) in planes.iter().enumerate() {
                    word |= spread_bits(plane >> (8 * chunk)) << k;
                }
                bytes.copy_from_slice(&word.to_le_bytes()[..bytes.len()]);
            }
        }
    }
}

/// [`sweep_lanes`] on a board (its state loaded into lanes and stored back): the tests' way to hold the lane sweep
/// to [`Board9::first_sweep`].
#[cfg(test)]
#[inline(always)]
fn first_sweep_lanes(board: &mut Board9) -> Result<(), Conflict> {
    let mut lanes = Lanes::load(board);
    let (dirty, ok) = sweep_lanes(&mut lanes);
    lanes.store(board, dirty);
    if ok {
        Ok(())
    } else {
        Err(Conflict)
    }
}

/// A board's entries and unsolved cells as the AVX-512 root works on them: band `b`'s nine entries in lanes 0..9
/// of `cand[b]` (one 512-bit register; lanes 9..16 zero) and `unsolved[b]`. The root keeps this state in registers
/// from the givens through its sweeps and stores it into the board once at its end: each sweep storing the
/// entries and the next loading them back made the 64-byte loads wait for the narrower stores to reach the cache
/// (a load spanning several stores is not forwarded from them).
#[derive(Clone, Copy)]
struct Lanes {
    cand: [[u32; 16]; 3],
    unsolved: [u32; 3],
}

impl Lanes {
    /// The board's state as lanes.
    #[cfg(test)]
    #[inline(always)]
    fn load(board: &Board9) -> Lanes {
        let mut cand = [[0u32; 16]; 3];
        for (b, lanes) in cand.iter_mut().enumerate() {
            lanes[..9].copy_from_slice(&board.cand[9 * b..9 * b + 9]);
        }
        Lanes {
            cand,
            unsolved: [board.unsolved[0], board.unsolved[1], board.unsolved[2]],
        }
    }

    /// Writes the entries, the unsolved cells and `dirty` into the board (its other fields untouched).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline(always)]
    fn store(&self, board: &mut Board9, dirty: u32) {
        for (b, lanes) in self.cand.iter().enumerate() {
            board.cand[9 * b..9 * b + 9].copy_from_slice(&lanes[..9]);
        }
        board.unsolved[..3].copy_from_slice(&self.unsolved);
        board.dirty = dirty;
    }

    /// [`Lanes::store`] into a board being built as a root: its padding entries and word cleared, and no bi-value
    /// cells known yet.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline(always)]
    fn store_root(&self, board: &mut Board9, dirty: u32) {
        self.store(board, dirty);
        board.cand[27..].fill(0);
        board.unsolved[3] = 0;
        board.pairs = [0; 3];
    }
}

/// [`Board9::first_sweep`] computed lane by lane, for the vector copy ([`wide::root`]), on [`Lanes`]: each band's
/// nine entries in sixteen lanes, and each table lookup of the band update replaced by the rule it tabulates, so
/// that the compiler turns every loop over the lanes into a few vector instructions:
/// - `KEEP`: the minirows on a row -> box permutation all of whose three minirows are occupied (six tests on
///   the occupancy bits that [`super::tables::minirow_key`] gathers);
/// - `LOCKED`: the columns alone in their box among the digit's columns, spread to the band's three rows;
/// - `SOLO_ROWS & LOCKED`: the rows left with exactly one cell.
///
/// Returns the entries left due and whether no conflict was found; the state is updated either way, as the scalar
/// sweep's is. Same results as [`Board9::first_sweep`] (the test `the_vector_first_sweep_is_the_scalar_one`);
/// lanes 9..16 of each band are zero and stay out of every result. Compiled for the default target it is no faster
/// than the table lookups (SSE2's four lanes: kaggle +12% instructions), so only the AVX-512 copy uses it.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn sweep_lanes(state: &mut Lanes) -> (u32, bool) {
    /// The occupancy bits a permutation needs: bit `9 row + 3 box + 2` marks minirow (row, box) occupied.
    const fn needs(p: [u32; 3]) -> u32 {
        1 << (3 * p[0] + 2) | 1 << (9 + 3 * p[1] + 2) | 1 << (18 + 3 * p[2] + 2)
    }
    /// The cells of a permutation's three minirows.
    const fn cells(p: [u32; 3]) -> u32 {
        7 << (3 * p[0]) | 7 << (9 + 3 * p[1]) | 7 << (18 + 3 * p[2])
    }
    /// All ones when `x` holds, else zero: a select the vectorizer turns into a compare and a masked move.
    #[inline(always)]
    fn all(x: bool) -> u32 {
        0u32.wrapping_sub(u32::from(x))
    }
    let mut kept = [[0u32; 16]; 3];
    let mut locked = [[0u32; 16]; 3];
    let mut singles = [[0u32; 16]; 3];
    let mut empty = 0u32;
    for b in 0..3 {
        let unsolved = state.unsolved[b];
        for (d, &a) in state.cand[b].iter().enumerate() {
            let occupied = (((a & 0o333_333_333) + 0o333_333_333) | a) & 0o444_444_444;
            let mut keep = 0;
            for p in PERMS {
                keep |= cells(p) & all(occupied & needs(p) == needs(p));
            }
            let a = a & keep;
            empty |= u32::from(a == 0 && d < 9);
            let cols = band_columns(a);
            let (mut alone, mut solo) = (0, 0);
            for k in 0..3 {
                let box_cols = cols & 7 << (3 * k);
                alone |= box_cols & all(box_cols & box_cols.wrapping_sub(1) == 0);
                let row = a & 0x1FF << (9 * k);
                solo |= row & all(row & row.wrapping_sub(1) == 0);
            }
            let l = alone | alone << 9 | alone << 18;
            kept[b][d] = a;
            locked[b][d] = l;
            singles[b][d] = solo & l & unsolved;
        }
    }
    let mut twice = 0;
    let mut dirty = 0;
    for b in 0..3 {
        let mut once = 0;
        for &s in &singles[b][..9] {
            twice |= once & s;
            once |= s;
        }
        let (j, k) = ((b + 1) % 3, (b + 2) % 3);
        let mut out = [0u32; 16];
        let mut changed = 0u32;
        for (d, o) in out.iter_mut().enumerate() {
            let a = kept[b][d] & !(locked[j][d] | locked[k][d]) & !(once & !singles[b][d]);
            changed |= u32::from(a != kept[b][d]) << d;
            *o = a;
        }
        state.cand[b] = out;
        dirty |= (changed & 0x1FF) << (9 * b);
        state.unsolved[b] &= !once;
    }
    (dirty, empty == 0 && twice == 0)
}

/// How many entries must be due for the vector copy to sweep the whole board again at the root rather than leave
/// them to `propagate`'s updates one by one: a vector sweep of all 27 costs about what six scalar updates do
/// (twenty-third session: repeating while 3, 6 or 9 were due gave kaggle +3% to +7% and 17_clue +4% to +5% over one
/// vector sweep, serg +0.5%; 12 lost on 17_clue; `docs/measurements.md`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const SWEEP_FROM: u32 = 6;

/// At most this many whole-board sweeps at the root.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const ROOT_SWEEPS: usize = 6;

/// The root's sweeps on a board, for the tests: [`lane_sweeps`] when `LANES` (the board loaded into lanes and
/// stored back), else [`Board9::first_sweep`] repeated by the same rule.
#[cfg(test)]
#[inline(always)]
fn root_sweeps<const LANES: bool>(board: &mut Board9) -> Result<(), Conflict> {
    if LANES {
        let mut lanes = Lanes::load(board);
        let (dirty, ok) = lane_sweeps(&mut lanes);
        lanes.store(board, dirty);
        return if ok { Ok(()) } else { Err(Conflict) };
    }
    board.first_sweep()?;
    for _ in 1..ROOT_SWEEPS {
        if board.dirty.count_ones() < SWEEP_FROM {
            break;
        }
        board.first_sweep()?;
    }
    Ok(())
}

/// The root's first sweep ([`sweep_lanes`]), repeated while at least [`SWEEP_FROM`] entries are due, up to
/// [`ROOT_SWEEPS`] times. A repeated sweep updates every entry from the state the last one left, due or not: an
/// update of an entry that is not due changes nothing, so the state is one that sweep-by-sweep propagation passes
/// through on the way to the same fixpoint. Returns the entries left due, and whether no conflict was found (the
/// state then being the one the failing sweep left, as the scalar copy's).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn lane_sweeps(lanes: &mut Lanes) -> (u32, bool) {
    let (mut dirty, mut ok) = sweep_lanes(lanes);
    for _ in 1..ROOT_SWEEPS {
        if !ok || dirty.count_ones() < SWEEP_FROM {
            break;
        }
        (dirty, ok) = sweep_lanes(lanes);
    }
    (dirty, ok)
}

/// For each value `v` in `0..=9` and band `b`, the cells of band `b` holding `v` (`masks[v][b]`): the scalar
/// oracle of the vector copy's byte compares (`super::dispatch::value_masks_x512`).
#[cfg(test)]
fn value_masks(givens: &[u8; 81]) -> [[u32; 3]; 10] {
    let mut masks = [[0u32; 3]; 10];
    for (cell, &v) in givens.iter().enumerate() {
        if let Some(m) = masks.get_mut(usize::from(v)) {
            m[cell / 27] |= 1 << (cell % 27);
        }
    }
    masks
}

/// [`givens_state`] stored into a board (with `dirty` every entry, as [`Board9::set_givens`] leaves it): the
/// tests' way to hold it to [`Board9::set_givens`].
#[cfg(test)]
#[inline(always)]
fn givens_lanes(board: &mut Board9, masks: &[[u32; 3]; 10]) -> Result<(), Conflict> {
    let (lanes, clash) = givens_state(masks);
    lanes.store_root(board, BAND);
    if clash {
        return Err(Conflict);
    }
    Ok(())
}

/// [`Board9::set_givens`] computed lane by lane, for the vector copy ([`wide::root`]), from the cells holding each
/// value (`masks`, as the tests' oracle `value_masks` gives them): per band, each digit's candidates at once (one
/// lane per digit): the empty cells outside the rows, boxes and columns of its givens (columns over all three
/// bands), plus its givens. Two givens of one digit in one house are a clash, found per lane as a row, box or
/// column holding two of them. Returns the state as [`Lanes`] and whether the givens clash. Same verdict as
/// [`Board9::set_givens`], and the same state when there is no clash (the test
/// `the_vector_root_is_the_scalar_one`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn givens_state(masks: &[[u32; 3]; 10]) -> (Lanes, bool) {
    /// All ones when `x` holds, else zero.
    #[inline(always)]
    fn all(x: bool) -> u32 {
        0u32.wrapping_sub(u32::from(x))
    }
    let mut own = [[0u32; 16]; 3];
    let mut empty = [0u32; 3];
    let mut cols = [[0u32; 16]; 3];
    let mut clash = 0u32;
    for b in 0..3 {
        empty[b] = masks[0][b];
        for (o, m) in own[b].iter_mut().zip(&masks[1..]) {
            *o = m[b];
        }
        for d in 0..16 {
            let o = own[b][d];
            let (r0, r1, r2) = (o & 0x1FF, o >> 9 & 0x1FF, o >> 18);
            // A column of the band twice, a row or a box twice.
            let mut twice = (r0 & r1) | (r0 & r2) | (r1 & r2);
            for k in 0..3 {
                let row = o & 0x1FF << (9 * k);
                let bx = o & (7 * COL_SPREAD) << (3 * k);
                twice |= (row & row.wrapping_sub(1)) | (bx & bx.wrapping_sub(1));
            }
            clash |= twice;
            cols[b][d] = r0 | r1 | r2;
        }
    }
    let mut state = Lanes {
        cand: [[0; 16]; 3],
        unsolved: empty,
    };
    for (b, cand) in state.cand.iter_mut().enumerate() {
        for d in 0..16 {
            let o = own[b][d];
            // A column in two bands is a clash too.
            clash |=
                (cols[0][d] & cols[1][d]) | (cols[0][d] & cols[2][d]) | (cols[1][d] & cols[2][d]);
            let mut kill = (cols[0][d] | cols[1][d] | cols[2][d]) * COL_SPREAD;
            for k in 0..3 {
                let row = 0x1FF << (9 * k);
                let bx = (7 * COL_SPREAD) << (3 * k);
                kill |= (row & all(o & row != 0)) | (bx & all(o & bx != 0));
            }
            cand[d] = (empty[b] & !kill) | o;
        }
    }
    (state, clash != 0)
}

/// The root compiled for AVX-512 ([`givens_state`] and [`lane_sweeps`]: each band's nine entries in one 512-bit
/// register), which `super::dispatch::root` runs where the processor has the features.
#[cfg(target_arch = "x86_64")]
pub(super) mod wide {
    use super::{Board9, Conflict};

    /// The root before propagation on AVX-512: the givens' state ([`super::givens_state`] of the byte compares
    /// of `super::super::dispatch::value_masks_x512`), then [`super::lane_sweeps`] (the first sweep, and more
    /// while they pay), all in registers, stored into `board` once at the end. Values must be at most 9.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,avx512f,avx512vl,avx512bw,avx512bitalg")]
    #[inline(never)]
    pub(in super::super) fn root(board: &mut Board9, givens: &[u8; 81]) -> Result<(), Conflict> {
        let (mut lanes, clash) =
            super::givens_state(&super::super::dispatch::value_masks_x512(givens));
        if clash {
            return Err(Conflict);
        }
        let (dirty, ok) = super::lane_sweeps(&mut lanes);
        lanes.store_root(board, dirty);
        if ok {
            Ok(())
        } else {
            Err(Conflict)
        }
    }
}

/// The columns (bit `c` for column `c`, 0..9) in which a band's cells `a` have a cell: the band's three rows
/// folded onto one.
#[inline(always)]
fn band_columns(a: u32) -> u32 {
    (a | a >> 9 | a >> 18) & 0x1FF
}

/// The cells a digit keeps in one band by column claiming ([`Board9::claim`]), given its columns there (`own`)
/// and in the other two bands (`others`): a column it has here and nowhere else holds its cell of that column's
/// box here, so in each box with such a column only those columns stay (two of them in one box leave the box's
/// conflict to the band update); the other boxes keep everything. As a 27-bit mask of the band's cells.
#[inline(always)]
fn claim_keep(own: u32, others: u32) -> u32 {
    let only = own & !others;
    // Bit 2 of each three-bit group: the box has such a column (the group trick of `minirow_key`), spread to
    // the group's three bits.
    let hit = (((only & 0o333) + 0o333) | only) & 0o444;
    let hit = hit | hit >> 1 | hit >> 2;
    ((only | !hit) & 0x1FF) * COL_SPREAD
}

/// The digits for which column claiming ([`Board9::claim`]) would remove a candidate from `cand` (a state's
/// entries), or a conflict when a digit has no candidate left in some column. The scalar definition: the
/// portable copy's, and the oracle of [`simd::claimable`].
#[inline(always)]
pub(super) fn claimable(cand: &[u32; 32]) -> Result<u32, Conflict> {
    let mut digits = 0;
    for d in 0..9 {
        if claims_digit([cand[d], cand[9 + d], cand[18 + d]])? {
            digits |= 1 << d;
        }
    }
    Ok(digits)
}

/// Whether column claiming removes a candidate of the digit whose entries in the three bands are `a`, or a
/// conflict when it has no candidate in some column.
#[inline(always)]
fn claims_digit(a: [u32; 3]) -> Result<bool, Conflict> {
    if band_columns(a[0] | a[1] | a[2]) != 0x1FF {
        return Err(Conflict);
    }
    Ok(claimed(a) != a)
}

/// What column claiming leaves of one digit whose entries in the three bands are `a` ([`claim_keep`] in each).
#[inline(always)]
fn claimed(a: [u32; 3]) -> [u32; 3] {
    let c = a.map(band_columns);
    std::array::from_fn(|b| a[b] & claim_keep(c[b], c[(b + 1) % 3] | c[(b + 2) % 3]))
}

/// [`claimable`] on AVX2, for band9's bit copy, which calls it through `super::dispatch::claimable` after
/// detecting the feature (the intrinsics need no `unsafe` inside a function compiled with it): digits 0..7 of
/// the three bands as three registers of eight 32-bit lanes, each lane the scalar rule; digit 8 by
/// [`claims_digit`]. The tests hold it to the scalar one.
#[cfg(target_arch = "x86_64")]
pub(super) mod simd {
    use std::arch::x86_64::*;

    use super::Conflict;

    /// See [`super::claimable`]; same results.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(in super::super) fn claimable(cand: &[u32; 32]) -> Result<u32, Conflict> {
        // Entries `o..o + 8`: digits 0..7 of the band starting at `o`.
        let load = |o: usize| {
            let x = |i: usize| cand[(o + i) & 31] as i32;
            _mm256_setr_epi32(x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7))
        };
        let a = [load(0), load(9), load(18)];
        let m9 = _mm256_set1_epi32(0x1FF);
        let columns = |x: __m256i| {
            _mm256_and_si256(
                _mm256_or_si256(
                    _mm256_or_si256(x, _mm256_srli_epi32::<9>(x)),
                    _mm256_srli_epi32::<18>(x),
                ),
                m9,
            )
        };
        let c = [columns(a[0]), columns(a[1]), columns(a[2])];
        let seen = _mm256_or_si256(_mm256_or_si256(c[0], c[1]), c[2]);
        let every = _mm256_movemask_epi8(_mm256_cmpeq_epi32(seen, m9)) == -1;
        let (o333, o444) = (_mm256_set1_epi32(0o333), _mm256_set1_epi32(0o444));
        let mut lost = _mm256_setzero_si256();
        for b in 0..3 {
            let others = _mm256_or_si256(c[(b + 1) % 3], c[(b + 2) % 3]);
            let only = _mm256_andnot_si256(others, c[b]);
            let g = _mm256_and_si256(
                _mm256_or_si256(_mm256_add_epi32(_mm256_and_si256(only, o333), o333), only),
                o444,
            );
            let hit = _mm256_or_si256(
                _mm256_or_si256(g, _mm256_srli_epi32::<1>(g)),
                _mm256_srli_epi32::<2>(g),
            );
            let keep = _mm256_or_si256(only, _mm256_andnot_si256(hit, m9));
            let spread = _mm256_or_si256(
                _mm256_or_si256(keep, _mm256_slli_epi32::<9>(keep)),
                _mm256_slli_epi32::<18>(keep),
            );
            lost = _mm256_or_si256(lost, _mm256_andnot_si256(spread, a[b]));
        }
        let kept = _mm256_cmpeq_epi32(lost, _mm256_setzero_si256());
        let mut digits = !(_mm256_movemask_ps(_mm256_castsi256_ps(kept)) as u32) & 0xFF;
        if super::claims_digit([cand[8], cand[17], cand[26]])? {
            digits |= 1 << 8;
        }
        if every {
            Ok(digits)
        } else {
            Err(Conflict)
        }
    }
}

/// The cells of a band (27 bytes) that hold 0, as a 27-bit mask: eight bytes at a time, a zero byte found by
/// SWAR and the eight flags gathered by one multiply.
#[inline(always)]
fn empty_cells(band: &[u8]) -> u32 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zeros = |off: usize| -> u32 {
        let w = band
            .get(off..off + 8)
            .and_then(|s| <[u8; 8]>::try_from(s).ok())
            .map_or(0, u64::from_le_bytes);
        let z = !(((w & LOW7) + LOW7) | w) & HIGH;
        ((z >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    };
    zeros(0) | zeros(8) << 8 | zeros(16) << 16 | (zeros(19) >> 5) << 24
}

/// The low 8 bits of `x` spread to one per byte: bit `j` of `x` becomes bit 0 of byte `j`. One load from
/// [`SPREAD8`] (how it is computed: its doc) instead of the five operations of the computation itself
/// (eighteenth session: kaggle `solve9` 5.03k -> 4.85k instructions per puzzle, CPU time -3% / -5%).
#[inline(always)]
fn spread_bits(x: u32) -> u64 {
    SPREAD8[(x & 0xFF) as usize]
}

/// The number of set bits among the 27 low bits of `x`, by three [`POP9`] lookups (the default x86-64 target has
/// no popcount instruction, and `count_ones` expands to a dozen operations).
#[inline(always)]
fn pop27(x: u32) -> u32 {
    u32::from(POP9[(x & 0x1FF) as usize])
        + u32::from(POP9[(x >> 9 & 0x1FF) as usize])
        + u32::from(POP9[(x >> 18 & 0x1FF) as usize])
}

/// The number of set bits of `x` (at most 27 bits): one `popcnt` in the copy compiled with it (`POPCNT`), else
/// [`pop27`]'s three lookups.
#[inline(always)]
fn pop<const POPCNT: bool>(x: u32) -> u32 {
    if POPCNT {
        x.count_ones()
    } else {
        pop27(x)
    }
}

/// The number of cells of `x` (one digit's cells in a band) in the box of `cell`: the box's three minirows
/// shifted down to bits 0..3, 3..6 and 6..9, then counted by table.
#[inline(always)]
fn box_count<const POPCNT: bool>(x: u32, cell: usize) -> u32 {
    let y = (x >> (3 * ((cell % 9) / 3))) & (7 * COL_SPREAD);
    pop::<POPCNT>((y | y >> 6 | y >> 12) & 0x1FF)
}

/// The search weighs its branching cell ([`Board9::choose`]) at decision levels below this, and everywhere once
/// it has met a conflict; elsewhere it takes the band's first bi-value cell. Where nothing has failed yet, the
/// weighing hardly changes the tree (a puzzle with many solutions, such as serg's, goes down one branch to a
/// solution either way) but costs its time at every node. Twenty-third session, nodes per puzzle (`fast_rate
/// --band`) always weighing -> this rule, first / count 2: serg (first 2000) 5.93 / 7.61 -> 5.96 / 7.64,
/// generated hard 6.06 / 9.39 -> 6.14 / 9.45, magictour 16.17 / 28.86 -> 16.30 / 29.22, 17_clue (first 5000)
/// 1.00 / 1.66 -> 1.02 / 1.70, generated minimal 1.90 / 2.65 -> 1.90 / 2.67. Wall time (medians of 7 and 5
/// alternating runs): serg +3.2% / +2.4%, the others -0.2% to -0.8%. Weighing only after a conflict (at no level
/// before it) lost 5% on the generated hard puzzles; weighing at levels 0 to 2 gained serg 2% instead of 3%.
/// Lowered from 2 to 1 in the twenty-fifth session, after counting to two began taking its second solution from a
/// swap (`Search::second_by_swap`): nodes per puzzle, first / count 2, serg 5.94 / 7.01 -> 5.85 / 6.88, magictour
/// 13.22 / 22.89 -> 13.38 / 23.01, generated hard (1500, `--min-rating 12`, seed 7) counting 9.17 -> 9.36; wall
/// time (`fast_rate --rounds 20`, medians / 75th percentiles of 9 alternating runs): serg +0.9% / +1.4% first and
/// +1.6% / +2.3% counting, 17_clue and magictour within 0.5%, the generated hard puzzles -1.3% / -1.0% first and
/// -2.2% / -0.8% counting.
const WEIGH_ABOVE: u64 = 1;

/// The search adds column claiming ([`Board9::claim`]) to its propagation once it has met this many conflicts,
/// the rule by which it weighs its branching cell ([`WEIGH_ABOVE`]): where nothing has failed yet (a puzzle with
/// many solutions going down to one) claiming removes almost nothing and costs its test at every node.
/// Twenty-sixth session, `fast_rate --count` (medians of 5-7 alternating runs of `--rounds 10`) against claiming
/// from this many conflicts: 0 (every node, the root included) serg -2.3%, 17_clue +1.6%, magictour +1.0%,
/// generated hard +3.7%; 3: serg +0.7%, 17_clue -0.5%, magictour -1.1%; 8: magictour -2.3%, hard -2.2%.
const CLAIM_AFTER_FAILS: u64 = 1;

/// One search: the limits, the counters and the first solution.
struct Search<'a> {
    limits: &'a Limits,
    /// Set when a time limit exists (reading the clock costs more than a small solve's propagation); a cancel flag
    /// alone is read without the clock (`limit_reached`).
    start: Option<Instant>,
    /// The node count from which `node` checks the limits: 0 with a time or cancel limit, the node limit without,
    /// never when there is no limit at all.
    check_from: u64,
    solution_limit: u64,
    count: u64,
    solution: Option<[u8; 81]>,
    stats: Stats,
    /// The deepest branch point whose other values are still to be tried (see [`Untried`]); [`Untried::NONE`]
    /// above the first branch point and on the last value of every one.
    untried: Untried,
    /// The cells open at the root fixpoint, per band: no solution differs from another outside them.
    open: [u32; 3],
}

/// A branch point's values not yet tried: its band and cell, the digit of the branch being searched below it, and
/// the digits still to try, packed into one word (bits 0-1, 2-6, 7-10 and 11-19), since the search saves and
/// restores it around every branch (as four machine-word fields it cost 17_clue's counting 0.8% where the packed
/// word cost 0.3%, medians of 9 alternating runs).
#[derive(Clone, Copy)]
struct Untried(u32);

impl Untried {
    /// No branch point: nothing left to try.
    const NONE: Untried = Untried(0);

    /// Branch point (band `b`, `cell`), searching digit `d`, digits `rest` still to try.
    #[inline(always)]
    fn new(b: usize, cell: usize, d: usize, rest: u32) -> Untried {
        Untried((b | cell << 2 | d << 7) as u32 | rest << 11)
    }

    /// (band, cell in band, digit being searched, digits still to try as a 9-bit mask).
    #[inline(always)]
    fn parts(self) -> (usize, usize, usize, u32) {
        let p = self.0 as usize;
        (p & 3, p >> 2 & 31, p >> 7 & 15, self.0 >> 11)
    }
}

/// Whether the solved state `cand` (as [`Board9::cand`]) holds a unique rectangle through cell `cell` of band `b`
/// with digits `a` (at that cell) and `e`: four cells on two rows and two columns, in two boxes, holding
/// `a, e / e, a`, all four `open` (the cells open at the root, per band). Swapping `a` and `e` on the four then
/// gives another solution: every row, column and box they touch keeps both digits. The cell's other corners:
/// `e`'s column in the cell's row, and `e`'s row in the cell's column. False when the cell does not hold `a`.
#[inline(always)]
fn swap_through(
    cand: &[u32; 32],
    open: [u32; 3],
    b: usize,
    cell: usize,
    a: usize,
    e: usize,
) -> bool {
    let (r1, c1) = (cell / 9, cell % 9);
    let c2 = ((cand[(9 * b + e) & 31] >> (9 * r1)) & 0x1FF).trailing_zeros() as usize % 9;
    for (b2, &o) in open.iter().enumerate() {
        let y = cand[(9 * b2 + e) & 31] & COL_SPREAD << c1;
        if y != 0 {
            // Bits of row r2 of band b2, columns c1 and c2.
            let r2 = y.trailing_zeros() as usize / 9;
            let (x1, x2) = (1u32 << (9 * r2 + c1), 1u32 << ((9 * r2 + c2) % 27));
            // Two boxes: the two rows in one band, or the two columns in one stack (both at once would put
            // `e` twice in a box).
            return (b2 == b || c1 / 3 == c2 / 3)
                && cand[(9 * b + a) & 31] >> cell & 1 != 0
                && cand[(9 * b2 + a) & 31] & x2 != 0
                && open[b % 3] >> (9 * r1 + c2) & 1 != 0
                && o & (x1 | x2) == x1 | x2;
        }
    }
    false
}

impl<'a> Search<'a> {
    /// A search with nothing found yet.
    #[inline(always)]
    fn new(limits: &'a Limits, solution_limit: u64) -> Self {
        Search {
            limits,
            start: limits.time.is_some().then(Instant::now),
            check_from: if limits.time.is_some() || limits.cancel.is_some() {
                0
            } else {
                limits.nodes.unwrap_or(u64::MAX)
            },
            solution_limit: super::solution_cap(solution_limit),
            count: 0,
            solution: None,
            stats: Stats::default(),
            untried: Untried::NONE,
            open: [0; 3],
        }
    }

    /// The result, from how the search below the root ended (`None`: the root itself failed).
    #[inline(always)]
    fn result(mut self, ended: Option<Result<(), Stop>>) -> MaskResult<[u8; 81]> {
        let outcome = match ended {
            None => {
                self.stats.fails += 1;
                Outcome::Unsatisfiable
            }
            Some(ended) => Stop::outcome(ended, self.count),
        };
        self.stats.solutions = self.count;
        MaskResult {
            outcome,
            count: self.count,
            solution: self.solution,
            stats: self.stats,
        }
    }

    /// Counting to two, at the first solution (`cand`): whether a second one is the first with two digits
    /// swapped on a unique rectangle through the deepest branch point still to be tried, its digit in the
    /// solution and one of its digits still to try ([`swap_through`]). That branch is where the search would
    /// look next, and on puzzles with many solutions it is mostly where it finds the second.
    #[inline(always)]
    fn second_by_swap(&self, cand: &[u32; 32]) -> bool {
        let (b, cell, d, mut rest) = self.untried.parts();
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if swap_through(cand, self.open, b, cell, d, e) {
                return true;
            }
        }
        false
    }

    /// Counts a node and checks the limits.
    #[inline(always)]
    fn node(&mut self) -> Result<(), Stop> {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.check_from {
            return self.check_limits();
        }
        Ok(())
    }

    /// The limit checks behind [`Search::node`], out of the hot path.
    #[cold]
    fn check_limits(&self) -> Result<(), Stop> {
        match super::limit_reached(self.limits, self.stats.nodes, self.start) {
            Some(kind) => Err(Stop::Limit(kind)),
            None => Ok(()),
        }
    }
}

/// From how many candidates left in unsolved cells at band9's root fixpoint [`solve9`] continues with triad9
/// instead of band9's search. Chosen on per-puzzle CPU times (the minimum of 7 runs of each route, first solution
/// and count to two) over eight sets, from generated minimal puzzles to forum_hardest_1106: with 200 each set's
/// total is within 3% of the cheaper route's (190-210 within 7%); the number of open cells separates the sets
/// less well (`docs/measurements.md`, "band9's root, then band9 or triad9"). Raised from 200 to 210 in the
/// twenty-fourth session, after band9's search got 4-7% faster: magictour +3% to +9% (the roots with 200-209 open
/// candidates there are cheaper in band9), forum_hardest_1905, forum_hardest_1106, 17_clue, top95 and the
/// generated hard puzzles unchanged within noise; 220 cost forum_hardest_1905 7-9% ("`TRIAD_FROM` re-checked").
const TRIAD_FROM: u32 = 210;

/// Solves a 9x9 grid given as 81 cells, row-major, 0 = empty and 1..=9 = given: the registry's `fast` on 9x9.
///
/// Finds solutions up to `solution_limit` (1 = the first, 2 = prove uniqueness, 0 = count them all) within
/// `limits`. Givens that clash give [`Outcome::Unsatisfiable`]; a value above 9 is an [`InputError`].
///
/// Runs band9's root propagation; a root that fails or solves the puzzle is answered at once. Otherwise a root
/// that leaves `TRIAD_FROM` candidates or more in its unsolved cells (a hard puzzle, where triad9's stronger
/// inference and band-configuration branching pay for themselves) goes on in triad9, seeded with band9's
/// candidates rather than restarted from the givens, and with each digit's configurations narrowed to those on a
/// whole placement of the digit (`super::templates`, which halves the hardest sets' trees: at the root when
/// counting, after a few nodes for a first solution); the others (a
/// guess or two, and most puzzles with many solutions) go on in band9's search. On a processor without triad9's
/// vector copies band9 does all the work. Answers and counts do not depend on the route; the statistics are those
/// of the search that ran. band9 runs its bit-manipulation copy where the processor has it.
pub fn solve9(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
) -> Result<MaskResult<[u8; 81]>, InputError> {
    super::check_values9(givens)?;
    Ok(super::dispatch::solve_fast(
        givens,
        solution_limit,
        limits,
        TRIAD_FROM,
    ))
}

/// band9 alone: [`solve9`]'s contract, its root and search always band9's. The baseline `fast_rate` measures
/// [`solve9`] against, and the oracle of its statistics tests.
pub fn solve9_band(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
) -> Result<MaskResult<[u8; 81]>, InputError> {
    super::check_values9(givens)?;
    Ok(super::dispatch::solve_band(
        givens,
        solution_limit,
        limits,
        None,
        Path::Best,
    ))
}

/// band9's entry and search, compiled once per copy (as triad9's `search_functions!`): `solve` builds the root,
/// routes it (answered, on to triad9, or band9's search), `run` is the search, and four steps stay out of line;
/// each with the copy's target features, so that everything they inline (the band updates, the branching choice,
/// the state copies) is compiled with them too.
macro_rules! band_functions {
    ($root:path, $claimable:path, $popcnt:literal; $(#[$feature:meta])*) => {
        /// [`super::solve9`]'s work after the value check: `route` = `Some((from, path))` hands a root with at
        /// least `from` open candidates to triad9's copy `path` (0: every root band9 leaves open), `None` keeps
        /// band9 throughout (as [`super::solve9_band`]). Values must be at most 9.
        $(#[$feature])*
        pub(crate) fn solve(
            givens: &[u8; 81],
            solution_limit: u64,
            limits: &Limits,
            route: Option<(u32, Path)>,
        ) -> MaskResult<[u8; 81]> {
            let mut board = Board9 {
                cand: [0; 32],
                unsolved: [0; 4],
                dirty: 0,
                pairs: [0; 3],
            };
            let root =
                set_givens(&mut board, givens).and_then(|()| propagate(&mut board, BAND).map(|_| ()));
            if let Some((from, path)) = route {
                match root {
                    // Solved by propagation alone: the one solution, as band9's search would report it.
                    Ok(()) if board.is_solved() => {
                        let mut solution = [0; 81];
                        grid(&board, &mut solution);
                        return MaskResult {
                            outcome: Outcome::Solved,
                            count: 1,
                            solution: Some(solution),
                            stats: Stats {
                                solutions: 1,
                                ..Stats::default()
                            },
                        };
                    }
                    Ok(()) if board.open_candidates() >= from => {
                        return super::super::triad9::solve9_seeded(
                            &board.band_configs(),
                            &board.cand,
                            solution_limit,
                            limits,
                            path,
                        );
                    }
                    // band9's search propagates the root again: a no-op at a fixpoint (no entry is dirty, so the
                    // naked-singles pass skips every band and returns the bi-value cells the root left).
                    _ => {}
                }
            }
            let mut search = Search::new(limits, solution_limit);
            search.open = [board.unsolved[0], board.unsolved[1], board.unsolved[2]];
            let ended = match root {
                Err(Conflict) => None,
                Ok(()) => Some(run(&mut search, &mut board, 0)),
            };
            search.result(ended)
        }

        /// The out-of-line steps of the search (kept out of line as the compiler left them before the copies:
        /// inlining `propagate` into `run` measured slower).
        $(#[$feature])*
        #[inline(never)]
        fn set_givens(board: &mut Board9, givens: &[u8; 81]) -> Result<(), Conflict> {
            // The givens' state and the first sweep's updates all at once, by the copy's `$root`.
            $root(board, givens)
        }

        /// See [`set_givens`].
        $(#[$feature])*
        #[inline(never)]
        fn propagate(board: &mut Board9, touched: u32) -> Result<[u32; 3], Conflict> {
            board.propagate(touched)
        }

        /// See [`set_givens`].
        $(#[$feature])*
        #[inline(never)]
        fn assign(board: &mut Board9, d: usize, b: usize, cell: usize) {
            board.assign(d, b, cell)
        }

        /// See [`set_givens`].
        $(#[$feature])*
        #[inline(never)]
        fn assign_child(child: &mut Board9, parent: &Board9, d: usize, b: usize, cell: usize) {
            child.assign_child(parent, d, b, cell)
        }

        /// See [`set_givens`].
        $(#[$feature])*
        #[inline(never)]
        fn grid(board: &Board9, out: &mut [u8; 81]) {
            board.grid_into(out)
        }

        /// Depth-first search below `board` (already at decision level `depth`).
        /// The state is taken by reference: each branch but the last copies it once, into the child's frame.
        $(#[$feature])*
        fn run(search: &mut Search<'_>, board: &mut Board9, mut depth: u64) -> Result<(), Stop> {
            loop {
                let Ok(pairs) = propagate(board, 0) else {
                    search.stats.fails += 1;
                    return Ok(());
                };
                if board.is_solved() {
                    search.count += 1;
                    if search.solution.is_none() {
                        grid(board, search.solution.insert([0; 81]));
                    }
                    if search.count == 1 && search.solution_limit == 2 && search.second_by_swap(&board.cand) {
                        #[cfg(test)]
                        super::tests::SWAPS.with(|n| n.set(n.get() + 1));
                        search.count = 2;
                    }
                    return if search.count >= search.solution_limit {
                        Err(Stop::Enough)
                    } else {
                        Ok(())
                    };
                }
                if search.stats.fails >= super::CLAIM_AFTER_FAILS {
                    match $claimable(&board.cand) {
                        Err(Conflict) => {
                            search.stats.fails += 1;
                            return Ok(());
                        }
                        Ok(0) => {}
                        Ok(digits) => {
                            board.claim(digits);
                            continue;
                        }
                    }
                }
                let weigh = depth < super::WEIGH_ABOVE || search.stats.fails > 0;
                let (b, cell, mut digits) = board.choose::<$popcnt>(pairs, weigh);
                search.stats.guesses += 1;
                depth += 1;
                search.stats.max_depth = search.stats.max_depth.max(depth);
                while digits & (digits - 1) != 0 {
                    // Of two values, the digit with more candidate cells in the cell's box goes first, then the one
                    // with more in the band (measured, nodes per puzzle, first solution, against band count alone:
                    // forum_hardest_1106 185 -> 178, magictour 16.67 -> 16.53, forum_hardest_1905 110.9 -> 111.0;
                    // band count alone against the lower digit first: hardest guesses 66 -> 64; fewer-first: 73).
                    let mut d = digits.trailing_zeros() as usize;
                    // Exactly two digits left: clearing the lowest bit twice leaves nothing (no popcount instruction
                    // on the default target).
                    let rest = digits & (digits - 1);
                    if rest & (rest - 1) == 0 {
                        let e = (31 - digits.leading_zeros()) as usize;
                        let (x, y) = (board.cand[(9 * b + e) & 31], board.cand[(9 * b + d) & 31]);
                        let (bx, by) = (box_count::<$popcnt>(x, cell), box_count::<$popcnt>(y, cell));
                        if bx > by || (bx == by && pop::<$popcnt>(x) > pop::<$popcnt>(y)) {
                            d = e;
                        }
                    }
                    digits &= !(1 << d);
                    search.node()?;
                    debug_assert_eq!(board.dirty, 0, "the copy is taken at a fixpoint");
                    // The copy written out here, field by field and `cand` in four chunks: a plain copy
                    // (`*board`, 160 bytes) is past the size the compiler copies inline for the default target
                    // and became a call to the C library's `memcpy` (2.8% of serg's CPU samples), and so did a
                    // helper returning the copy (twenty-third session: serg +0.6% to +1.3%, the others unchanged).
                    let mut child = Board9 {
                        cand: [0; 32],
                        unsolved: board.unsolved,
                        dirty: board.dirty,
                        pairs: board.pairs,
                    };
                    for (to, from) in child.cand.chunks_exact_mut(8).zip(board.cand.chunks_exact(8)) {
                        to.copy_from_slice(from);
                    }
                    assign_child(&mut child, board, d, b, cell);
                    let outer = search.untried;
                    search.untried = Untried::new(b, cell, d, digits);
                    run(search, &mut child, depth)?;
                    search.untried = outer;
                }
                search.node()?;
                assign(board, digits.trailing_zeros() as usize, b, cell);
            }
        }
    };
}

/// band9 compiled for the default target: the copy the tests hold the other to.
pub(crate) mod portable {
    use super::{box_count, pop};
    use super::{
        Board9, Conflict, Limits, MaskResult, Outcome, Path, Search, Stats, Stop, Untried, BAND,
    };

    band_functions!(Board9::root, super::claimable, false;);
}

/// band9 compiled with `popcnt,bmi1,bmi2` (`tzcnt`, `blsr`, `andn` and shifts by a register other than `cl`
/// for the bit loops): run only where `masks::dispatch` has detected the three.
#[cfg(target_arch = "x86_64")]
pub(crate) mod bits {
    use super::{box_count, pop};
    use super::{
        Board9, Conflict, Limits, MaskResult, Outcome, Path, Search, Stats, Stop, Untried, BAND,
    };

    band_functions!(super::super::dispatch::root, super::super::dispatch::claimable, true; #[target_feature(enable = "popcnt,bmi1,bmi2")]);
}

#[cfg(test)]
mod tests {
    use super::{box_count, empty_cells, pop27, spread_bits};

    thread_local! {
        /// Second solutions the search has taken from a swap ([`super::Search::second_by_swap`]) on this thread.
        pub(super) static SWAPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// A random solved grid from the generator's randomised search. The tests' usual `random_grid9` relabels and
    /// permutes one pattern grid, whose rows within a band are shifts of each other: it has no unique rectangle.
    fn searched_grid(
        filler: &mut crate::generate::fill::Filler,
        rng: &mut csp_core::rng::Rng,
    ) -> [u8; 81] {
        let mut grid = [0; 81];
        grid.copy_from_slice(filler.fill(rng).0);
        grid
    }

    /// [`super::swap_through`] against its definition, on random solved grids with random cells open: for every
    /// open cell and every two digits, yes exactly when the cell holds the first and two more cells complete a
    /// rectangle with it and the second, all four open, whose swap leaves a valid grid (checked whole: rows, columns
    /// and boxes).
    #[test]
    fn a_swap_is_found_exactly_where_a_rectangle_of_open_cells_swaps_into_another_solution() {
        let mut rng = csp_core::rng::Rng::new(0x5a_a9);
        let mut filler = crate::generate::fill::Filler::new(3);
        let mut found = 0;
        for _ in 0..200 {
            let grid = searched_grid(&mut filler, &mut rng);
            let Ok(board) = super::Board9::from_givens(&grid) else {
                panic!("a full grid is its own root: {grid:?}");
            };
            let mut open = [0u32; 3];
            for i in 0..81 {
                if rng.below_mod(5) != 0 {
                    open[i / 27] |= 1 << (i % 27);
                }
            }
            let is_open = |i: usize| open[i / 27] >> (i % 27) & 1 != 0;
            for i in (0..81).filter(|&i| is_open(i)) {
                let (r1, c1) = (i / 9, i % 9);
                for (a, e) in (1..=9)
                    .flat_map(|a| (1..=9).map(move |e| (a, e)))
                    .filter(|(a, e)| a != e)
                {
                    let want = grid[i] == a
                        && (0..81).any(|j| {
                            let (r2, c2) = (j / 9, j % 9);
                            let corners = [i, 9 * r1 + c2, 9 * r2 + c1, j];
                            if r2 == r1 || c2 == c1 || !corners.iter().all(|&k| is_open(k)) {
                                return false;
                            }
                            if [grid[9 * r1 + c2], grid[9 * r2 + c1], grid[j]] != [e, e, a] {
                                return false;
                            }
                            let mut swapped = grid;
                            for k in corners {
                                swapped[k] = if grid[k] == a { e } else { a };
                            }
                            crate::masks::tests::verify(3, &[0; 81], &swapped)
                        });
                    let got = super::swap_through(
                        &board.cand,
                        open,
                        i / 27,
                        i % 27,
                        usize::from(a - 1),
                        usize::from(e - 1),
                    );
                    assert_eq!(
                        got, want,
                        "cell {i}, digits {a} and {e}, grid {grid:?}, open {open:?}"
                    );
                    found += usize::from(want);
                }
            }
        }
        assert!(found > 500, "too few rectangles to test the check: {found}");
    }

    /// Random entries for the column claiming tests: each digit's cells in each band drawn sparse or dense, and
    /// then, unless `holes`, every column given the digit somewhere (so that no column lacks it), so that
    /// claims are common; with `holes` a digit may lack a column (a conflict).
    fn claim_states(seed: u64, n: usize, holes: bool) -> Vec<[u32; 32]> {
        let mut rng = csp_core::rng::Rng::new(seed);
        (0..n)
            .map(|_| {
                let mut cand = [0u32; 32];
                for d in 0..9 {
                    for b in 0..3 {
                        let mut x = rng.next_u64() as u32;
                        for _ in 0..rng.below_mod(4) {
                            x &= rng.next_u64() as u32;
                        }
                        cand[9 * b + d] = x & super::BAND;
                    }
                    if !holes || rng.below_mod(4) != 0 {
                        for col in 0..9 {
                            let column = super::COL_SPREAD << col;
                            if (cand[d] | cand[9 + d] | cand[18 + d]) & column == 0 {
                                let b = rng.below_mod(3) as usize;
                                cand[9 * b + d] |= 1 << (9 * rng.below_mod(3) + col);
                            }
                        }
                    }
                }
                cand
            })
            .collect()
    }

    /// Column claiming, cell by cell as its rule is stated: digit `d` leaves cell (`b`, row, `col`) exactly when
    /// another column of the cell's box has candidates for `d` in band `b` and in no other band and `col` does
    /// not (two such columns in one box both stay: the band update finds that conflict); every other candidate
    /// stays, and exactly the entries that lost one are made due. `claimable` names exactly the digits that lose
    /// something.
    #[test]
    fn column_claiming_removes_exactly_the_candidates_its_rule_names() {
        let mut claims = 0;
        for cand in claim_states(0xc1a1, 3000, false) {
            let in_column =
                |d: usize, b: usize, col: usize| cand[9 * b + d] & super::COL_SPREAD << col != 0;
            let mut want = cand;
            for d in 0..9 {
                for b in 0..3 {
                    for cell in 0..27 {
                        let col = cell % 9;
                        let only_here = |c: usize| {
                            in_column(d, b, c) && (0..3).all(|b2| b2 == b || !in_column(d, b2, c))
                        };
                        let claimed_elsewhere =
                            (0..9).any(|c2| c2 != col && c2 / 3 == col / 3 && only_here(c2));
                        if claimed_elsewhere && !only_here(col) {
                            want[9 * b + d] &= !(1 << cell);
                        }
                    }
                }
            }
            let mut board = super::Board9 {
                cand,
                unsolved: [super::BAND, super::BAND, super::BAND, 0],
                dirty: 0,
                pairs: [0; 3],
            };
            let lost: u32 = (0..27)
                .filter(|&i| want[i] != cand[i])
                .map(|i| 1 << i)
                .sum();
            let digits = (0..9)
                .filter(|&d| lost & (0x0004_0201 << d) != 0)
                .map(|d| 1 << d)
                .sum();
            assert_eq!(super::claimable(&cand).ok(), Some(digits), "{cand:?}");
            board.claim(0x1FF);
            assert_eq!(board.cand, want, "{cand:?}");
            assert_eq!(board.dirty, lost, "{cand:?}");
            claims += usize::from(lost != 0);
        }
        assert!(
            claims > 1000,
            "too few states with a claim to test the rule: {claims}"
        );
    }

    /// A digit without a candidate in some column is a conflict of `claimable`, and only then.
    #[test]
    fn a_column_without_a_candidate_for_some_digit_is_a_conflict_of_the_claim_test() {
        let mut conflicts = 0;
        for cand in claim_states(0xc1a2, 3000, true) {
            let hole = (0..9).any(|d| {
                (0..9).any(|col| {
                    (cand[d] | cand[9 + d] | cand[18 + d]) & super::COL_SPREAD << col == 0
                })
            });
            assert_eq!(super::claimable(&cand).is_err(), hole, "{cand:?}");
            conflicts += usize::from(hole);
        }
        assert!((500..2500).contains(&conflicts), "{conflicts} conflicts");
    }

    /// The AVX2 claim test (the bit copy's, where the processor has AVX2) gives the scalar one's answer on every
    /// state, conflicts included.
    #[test]
    fn the_vector_claim_test_agrees_with_the_scalar_one() {
        for holes in [false, true] {
            for cand in claim_states(0xc1a3 + u64::from(holes), 3000, holes) {
                assert_eq!(
                    crate::masks::dispatch::claimable(&cand).ok(),
                    super::claimable(&cand).ok(),
                    "{cand:?}"
                );
            }
        }
    }

    /// Counting to two on random puzzles, from unique to wide open: both copies of band9 count like the plain DFS
    /// counter (a swap taken on a puzzle with one solution would count two), and on the many-solution ones the
    /// second solution often comes from the swap (the count would be the same without it: this holds the shortcut
    /// to firing).
    #[test]
    fn counting_to_two_takes_many_second_solutions_from_a_swap_and_counts_like_plain_dfs() {
        let mut rng = csp_core::rng::Rng::new(0x2_5a9);
        let limits = csp_core::Limits::none();
        let mut filler = crate::generate::fill::Filler::new(3);
        let (mut many, before) = (0, SWAPS.with(std::cell::Cell::get));
        for _ in 0..300 {
            let mut g = searched_grid(&mut filler, &mut rng);
            let blanks = 35 + rng.below_mod(35) as usize;
            while g.iter().filter(|&&v| v == 0).count() < blanks {
                g[rng.below_mod(81) as usize] = 0;
            }
            let want = crate::masks::tests::dfs_count(3, &g, 2);
            many += usize::from(want == 2);
            let Ok(fast) = super::solve9_band(&g, 2, &limits) else {
                panic!("values checked: {g:?}");
            };
            let portable = super::portable::solve(&g, 2, &limits, None);
            assert_eq!((fast.count, portable.count), (want, want), "puzzle {g:?}");
            assert_eq!(fast.stats, portable.stats, "puzzle {g:?}");
            let Some(solution) = fast.solution else {
                panic!("no solution reported for {g:?}");
            };
            assert!(
                crate::masks::tests::verify(3, &g, &solution),
                "puzzle {g:?}"
            );
        }
        let swaps = SWAPS.with(std::cell::Cell::get) - before;
        // Proper hard puzzles: one solution, found after guesses, so the check runs on every one and must not fire
        // (a rectangle with a given among its corners is no swap).
        for g in crate::masks::tests::shipped_9x9(&["famous/top95.txt", "generated/9x9-hard.txt"]) {
            let counts = (
                super::solve9_band(&g, 2, &limits).map(|r| r.count),
                super::portable::solve(&g, 2, &limits, None).count,
            );
            assert_eq!(counts, (Ok(1), 1), "puzzle {g:?}");
        }
        assert!(
            (150..280).contains(&many),
            "puzzles with several solutions: {many} of 300"
        );
        // Each puzzle is solved by both copies, and each copy's swaps count.
        assert!(
            swaps / 2 > many as u64 / 4,
            "{} swaps on {many} puzzles with several solutions",
            swaps / 2
        );
    }

    #[test]
    fn empty_cells_marks_exactly_the_zero_bytes_of_a_band() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut band = [0u8; 27];
            for (k, cell) in band.iter_mut().enumerate() {
                // Mostly 0..=9, now and then any byte (the SWAR test must not depend on the value range).
                let r = (state >> (2 * k % 60)) as u8;
                *cell = if round % 5 == 0 { r } else { r % 10 };
            }
            let want = band
                .iter()
                .enumerate()
                .fold(0, |m, (k, &v)| m | u32::from(v == 0) << k);
            assert_eq!(empty_cells(&band), want, "band {band:?}");
        }
        assert_eq!(empty_cells(&[0; 27]), (1 << 27) - 1);
        assert_eq!(empty_cells(&[9; 27]), 0);
    }

    #[test]
    fn pop27_counts_the_low_27_bits() {
        for x in [
            0,
            1,
            0x1FF,
            0x7FF_FFFF,
            0x0F0_F0F0,
            1 << 26,
            0xFFFF_FFFF,
            0x0123_4567,
        ] {
            assert_eq!(pop27(x), (x & 0x7FF_FFFF).count_ones(), "x = {x:#x}");
        }
    }

    #[test]
    fn spread_bits_puts_bit_j_at_bit_zero_of_byte_j_for_every_byte_value() {
        for x in 0..=255u32 {
            let mut expected = 0u64;
            for j in 0..8 {
                expected |= u64::from(x >> j & 1) << (8 * j);
            }
            assert_eq!(spread_bits(x), expected, "x = {x:#b}");
            assert_eq!(
                spread_bits(x | 0xFFFF_FF00),
                expected,
                "only the low byte counts"
            );
        }
    }

    #[test]
    fn box_count_counts_only_the_cells_of_the_given_cells_box() {
        // Cells 0 (box 0), 4 and 13 and 23 (box 1), 26 (box 2).
        let x = 1 | 1 << 4 | 1 << 13 | 1 << 23 | 1 << 26;
        for popcnt in [false, true] {
            let count = |x, cell| {
                if popcnt {
                    box_count::<true>(x, cell)
                } else {
                    box_count::<false>(x, cell)
                }
            };
            assert_eq!(count(x, 1), 1);
            assert_eq!(count(x, 21), 3);
            assert_eq!(count(x, 8), 1);
            assert_eq!(count((1 << 27) - 1, 14), 9);
        }
    }

    /// A state for the first sweep: the givens' state of a random puzzle (25 to 74 blanks cut from a random
    /// grid), with up to 40 random candidates removed (conflicts, hidden singles, double claims); or, one time in
    /// ten, any bit pattern (the sweep is a function of the bits alone, invariants or not).
    fn sweep_state(rng: &mut csp_core::rng::Rng) -> super::Board9 {
        let mut board = super::Board9 {
            cand: [0; 32],
            unsolved: [0; 4],
            dirty: super::BAND,
            pairs: [0; 3],
        };
        if rng.below_mod(10) == 0 {
            for i in 0..27 {
                board.cand[i] = rng.next_u64() as u32 & super::BAND;
            }
            for b in 0..3 {
                board.unsolved[b] = rng.next_u64() as u32 & super::BAND;
            }
            return board;
        }
        let mut givens = crate::masks::tests::random_grid9(rng);
        for _ in 0..25 + rng.below_mod(50) {
            givens[rng.below_mod(81) as usize] = 0;
        }
        // A clash fails before any entry is cut: the state is still one the sweep must take.
        let _ = board.set_givens(&givens);
        for _ in 0..rng.below_mod(41) {
            board.cand[rng.below_mod(27) as usize] &= !(1 << rng.below_mod(27));
        }
        board
    }

    /// The vector first sweep (`first_sweep_lanes`, here compiled for the test's target) leaves exactly the state
    /// and verdict of the scalar one (`Board9::first_sweep`), alone and repeated as `root_sweeps` repeats it, on
    /// 100,000 states of `sweep_state`.
    #[test]
    fn the_vector_first_sweep_is_the_scalar_one() {
        let mut rng = csp_core::rng::Rng::new(0x5eed_f125);
        let summary = |b: &super::Board9| (b.cand, b.unsolved, b.dirty);
        let (mut conflicts, mut changed, mut placed, mut repeated) = (0, 0, 0, 0);
        for n in 0..100_000 {
            let state = sweep_state(&mut rng);
            let mut scalar = state;
            let verdict = scalar.first_sweep().is_ok();
            conflicts += usize::from(!verdict);
            changed += usize::from(verdict && scalar.dirty != 0);
            placed += usize::from(verdict && scalar.unsolved != state.unsolved);
            let mut lanes = state;
            let lanes_verdict = super::first_sweep_lanes(&mut lanes).is_ok();
            assert_eq!(lanes_verdict, verdict, "state {n}");
            assert_eq!(summary(&lanes), summary(&scalar), "state {n}");

            let mut scalar_repeated = state;
            let repeated_verdict = super::root_sweeps::<false>(&mut scalar_repeated).is_ok();
            repeated +=
                usize::from(repeated_verdict && summary(&scalar_repeated) != summary(&scalar));
            let mut lanes_repeated = state;
            let lanes_repeated_verdict = super::root_sweeps::<true>(&mut lanes_repeated).is_ok();
            assert_eq!(lanes_repeated_verdict, repeated_verdict, "state {n}");
            assert_eq!(
                summary(&lanes_repeated),
                summary(&scalar_repeated),
                "state {n}"
            );
        }
        // Each kind of outcome occurs often enough to be compared.
        assert!(
            conflicts > 5_000 && changed > 5_000 && placed > 5_000 && repeated > 5_000,
            "{conflicts} conflicts, {changed} with entries due again, {placed} with hidden singles, \
             {repeated} changed by a repeated sweep"
        );
    }

    /// The vector givens' state (`givens_lanes`, here compiled for the test's target, on `value_masks`) gives
    /// `Board9::set_givens`'s verdict, and its state when the givens do not clash, on 50,000 random puzzles (a
    /// quarter with a given changed, so that many clash) and the shipped hard ones; the AVX-512 byte compares
    /// (`dispatch::value_masks_x512`) give `value_masks`'s masks where the processor has them; and
    /// `dispatch::root` does what it documents: the
    /// vector root with repeated sweeps (`wide::root`) where the processor has the features, whose state is the
    /// scalar givens' state followed by `root_sweeps`, else `Board9::root`.
    #[test]
    fn the_vector_root_is_the_scalar_one() {
        use crate::masks::dispatch::{choose, detect, root, Compiled, Path};
        let wide = choose(Path::Best, detect()) == Compiled::Avx512;
        let mut rng = csp_core::rng::Rng::new(0x0005_eed5);
        let mut all: Vec<[u8; 81]> = puzzles().into_iter().map(|(g, _)| g).collect();
        for _ in 0..50_000 {
            let mut g = crate::masks::tests::random_grid9(&mut rng);
            for _ in 0..20 + rng.below_mod(60) {
                g[rng.below_mod(81) as usize] = 0;
            }
            if rng.below_mod(4) == 0 {
                g[rng.below_mod(81) as usize] = 1 + rng.below_mod(9) as u8;
            }
            all.push(g);
        }
        let summary = |b: &super::Board9| (b.cand, b.unsolved, b.dirty, b.pairs);
        let blank = super::Board9 {
            cand: [0; 32],
            unsolved: [0; 4],
            dirty: 0,
            pairs: [0; 3],
        };
        let (mut clashes, mut roots) = (0, 0);
        for givens in &all {
            let mut scalar = blank;
            let verdict = scalar.set_givens(givens).is_ok();
            clashes += usize::from(!verdict);
            let masks = super::value_masks(givens);
            if wide {
                assert_eq!(
                    crate::masks::dispatch::value_masks_x512_checked(givens),
                    Some(masks)
                );
            }
            let mut lanes = blank;
            assert_eq!(
                super::givens_lanes(&mut lanes, &masks).is_ok(),
                verdict,
                "{givens:?}"
            );
            if verdict {
                assert_eq!(summary(&lanes), summary(&scalar), "{givens:?}");
            }

            let mut want = scalar;
            let want_verdict = verdict
                && if wide {
                    super::root_sweeps::<false>(&mut want).is_ok()
                } else {
                    want.first_sweep().is_ok()
                };
            let mut got = blank;
            assert_eq!(root(&mut got, givens).is_ok(), want_verdict, "{givens:?}");
            if want_verdict {
                roots += 1;
                assert_eq!(summary(&got), summary(&want), "{givens:?}");
            }
        }
        assert!(
            clashes > 5_000 && roots > 30_000,
            "{clashes} clashes, {roots} roots"
        );
    }

    /// Starting the root with the first sweep, every update from the givens' state (what `solve` does), alone or
    /// repeated as the vector copy repeats it (`root_sweeps`), reaches the fixpoint, bi-value cells and verdict of
    /// the sweep-by-sweep propagation alone, on the shipped 9x9 sets and random puzzles (unique, with many
    /// solutions, unsatisfiable).
    #[test]
    fn the_first_sweep_leaves_the_root_fixpoint_unchanged() {
        let mut all: Vec<[u8; 81]> = puzzles().into_iter().map(|(g, _)| g).collect();
        all.extend(crate::masks::tests::shipped_9x9(&[
            "generated/9x9-easy.txt",
            "generated/9x9-minimal.txt",
        ]));
        let (mut solved, mut failed) = (0, 0);
        for givens in &all {
            let plain = super::Board9::from_givens(givens)
                .and_then(|mut b| b.propagate(0).map(|pairs| (b.cand, b.unsolved, pairs)));
            let swept = super::Board9::from_givens(givens).and_then(|mut b| {
                b.first_sweep()?;
                b.propagate(super::BAND)
                    .map(|pairs| (b.cand, b.unsolved, pairs))
            });
            let repeated = super::Board9::from_givens(givens).and_then(|mut b| {
                super::root_sweeps::<false>(&mut b)?;
                b.propagate(super::BAND)
                    .map(|pairs| (b.cand, b.unsolved, pairs))
            });
            match (&swept, &repeated) {
                (Ok(s), Ok(r)) => assert_eq!(s, r, "{givens:?}"),
                (Err(_), Err(_)) => {}
                _ => panic!("repeated sweeps change the verdict on {givens:?}"),
            }
            match (&plain, &swept) {
                (Ok(p), Ok(s)) => {
                    assert_eq!(p, s, "{givens:?}");
                    solved += usize::from(p.1 == [0; 4]);
                }
                (Err(_), Err(_)) => failed += 1,
                _ => panic!("verdicts differ on {givens:?}"),
            }
        }
        assert!(
            solved > 100 && failed > 50,
            "{solved} solved, {failed} failed at the root"
        );
    }

    /// band9's root fixpoint of `givens`, or `None` when it fails.
    fn root(givens: &[u8; 81]) -> Option<super::Board9> {
        let mut board = super::Board9::from_givens(givens).ok()?;
        board.propagate(0).ok()?;
        Some(board)
    }

    /// Random 9x9 puzzles (unique, with many solutions, or unsatisfiable) and the shipped hard ones, with the grid
    /// each random one was cut from (`None` for the shipped ones and where a given was changed).
    fn puzzles() -> Vec<([u8; 81], Option<[u8; 81]>)> {
        let mut rng = csp_core::rng::Rng::new(0x0ba9_dc0f);
        let mut out = Vec::new();
        for round in 0..600 {
            let grid = crate::masks::tests::random_grid9(&mut rng);
            let mut g = grid;
            for _ in 0..25 + rng.below_mod(50) {
                g[rng.below_mod(81) as usize] = 0;
            }
            let mut changed = false;
            if round % 5 == 0 {
                g[rng.below_mod(81) as usize] = 1 + rng.below_mod(9) as u8;
                changed = true;
            }
            out.push((g, (!changed).then_some(grid)));
        }
        // Sparser ones (58-67 empty cells), most of whose roots leave enough candidates open for the triad route.
        for _ in 0..200 {
            let mut g = crate::masks::tests::random_grid9(&mut rng);
            let blanks = 58 + rng.below_mod(10) as usize;
            while g.iter().filter(|&&v| v == 0).count() < blanks {
                g[rng.below_mod(81) as usize] = 0;
            }
            // Nearly all have many solutions: the grid is not their solution.
            out.push((g, None));
        }
        for g in crate::masks::tests::shipped_9x9(&["famous/top95.txt", "generated/9x9-hard.txt"]) {
            out.push((g, None));
        }
        out
    }

    /// A naked-singles pass looks only at the bands its `touched` mask names: with one blank cell per band (a
    /// naked single in each at the root), an empty mask places nothing and changes nothing, and a mask naming one
    /// band places that band's single alone, keeping its bi-value cells (none) and leaving the others' as they were.
    #[test]
    fn a_naked_singles_pass_visits_only_the_bands_whose_entries_changed() {
        let mut rng = csp_core::rng::Rng::new(0x7a_ed);
        for _ in 0..50 {
            let grid = crate::masks::tests::random_grid9(&mut rng);
            let mut givens = grid;
            let blanks = [0, 1, 2].map(|b| 27 * b + rng.below_mod(27) as usize);
            for &cell in &blanks {
                givens[cell] = 0;
            }
            let Ok(root) = super::Board9::from_givens(&givens) else {
                panic!("a grid with three blanks cannot clash: {givens:?}");
            };
            let mut board = root;
            assert!(matches!(board.naked_singles(0), Ok(false)), "{givens:?}");
            assert_eq!(board.cand, root.cand);
            assert_eq!(board.unsolved, root.unsolved);
            for (b, &blank) in blanks.iter().enumerate() {
                let mut board = root;
                board.pairs = [7; 3];
                assert!(
                    matches!(board.naked_singles(1 << (9 * b + 4)), Ok(true)),
                    "band {b}: {givens:?}"
                );
                for other in 0..3 {
                    let placed = root.unsolved[other] & !board.unsolved[other];
                    let want = if other == b { 1 << (blank - 27 * b) } else { 0 };
                    assert_eq!(placed, want, "band {b}, band {other}: {givens:?}");
                    assert_eq!(board.pairs[other], if other == b { 0 } else { 7 });
                }
            }
        }
    }

    #[test]
    fn open_candidates_counts_every_candidate_of_every_unsolved_cell_once() {
        for (g, _) in puzzles() {
            let Some(board) = root(&g) else { continue };
            let mut want = 0;
            for b in 0..3 {
                for cell in 0..27 {
                    if board.unsolved[b] >> cell & 1 == 1 {
                        want += model_digits(&board, b, cell).count_ones();
                    }
                }
            }
            assert_eq!(board.open_candidates(), want, "{g:?}");
        }
    }

    /// A band's configurations as the rule states them, digit by digit: configuration `k` stays for digit `d`
    /// when, in every peer box `p` of the band, some cell of element `PERM[k][p]` (a minirow of a horizontal band,
    /// a minicolumn of a vertical one) is a candidate for `d`.
    fn model_configs(board: &super::Board9, band: usize, d: usize) -> [bool; 6] {
        const PERM: [[usize; 3]; 6] = [
            [0, 1, 2],
            [1, 2, 0],
            [2, 0, 1],
            [0, 2, 1],
            [1, 0, 2],
            [2, 1, 0],
        ];
        let has = |row: usize, col: usize| {
            board.cand[9 * (row / 3) + d] >> (9 * (row % 3) + col) & 1 == 1
        };
        std::array::from_fn(|k| {
            (0..3).all(|p| {
                let e = PERM[k][p];
                (0..3).any(|i| {
                    if band < 3 {
                        has(3 * band + e, 3 * p + i)
                    } else {
                        has(3 * p + i, 3 * (band - 3) + e)
                    }
                })
            })
        })
    }

    #[test]
    fn band_configs_are_the_configurations_the_candidates_allow_and_keep_every_solutions() {
        let mut checked_solutions = 0;
        for (g, grid) in puzzles() {
            let Some(board) = root(&g) else { continue };
            let configs = board.band_configs();
            for (band, config) in configs.iter().enumerate() {
                for d in 0..9 {
                    let got: [bool; 6] =
                        std::array::from_fn(|k| config[k / 4] >> (16 * (k % 4) + d) & 1 == 1);
                    assert_eq!(
                        got,
                        model_configs(&board, band, d),
                        "band {band}, digit {d}, {g:?}"
                    );
                }
                assert_eq!(config[1] >> 32, 0, "lanes 6 and 7 stay empty");
            }
            // The grid the puzzle was cut from is a solution: its digits are candidates, so its configurations stay.
            if let Some(grid) = grid {
                let mut sol = board;
                for b in 0..3 {
                    for d in 0..9 {
                        sol.cand[9 * b + d] = (0..27).fold(0, |m, c| {
                            m | u32::from(grid[27 * b + c] == d as u8 + 1) << c
                        });
                        assert_eq!(
                            sol.cand[9 * b + d] & !board.cand[9 * b + d],
                            0,
                            "band9's root kept the solution"
                        );
                    }
                }
                for (band, config) in configs.iter().enumerate() {
                    for d in 0..9 {
                        let want = model_configs(&sol, band, d);
                        assert_eq!(
                            want.iter().filter(|&&x| x).count(),
                            1,
                            "a solved digit has one configuration"
                        );
                        let k = want.iter().position(|&x| x).unwrap_or(0);
                        assert_eq!(
                            config[k / 4] >> (16 * (k % 4) + d) & 1,
                            1,
                            "band {band}, digit {d}"
                        );
                    }
                }
                checked_solutions += 1;
            }
        }
        assert!(
            checked_solutions > 300,
            "only {checked_solutions} roots with a known solution"
        );
    }

    /// The template step on the triad route: when counting it prunes at the root; for a first solution it waits
    /// for `TEMPLATES_AFTER_FIRST` nodes, so a search that needs fewer is exactly the search without it. Without
    /// templates means every cell a candidate for the step (all configurations then lie on a template).
    #[test]
    fn the_template_step_prunes_when_counting_and_waits_eight_nodes_for_a_first_solution() {
        use crate::masks::dispatch::{has_vector_copy, Path};
        let none = csp_core::Limits::none();
        let open_everywhere = [super::BAND; 32];
        let (mut short, mut long) = (0, 0);
        let mut nodes = [[0u64; 2]; 2];
        for (g, grid) in puzzles() {
            let Some(b) = root(&g).filter(|b| !b.is_solved()) else {
                continue;
            };
            // Every open root, not only those `solve9` routes to triad9: the harder ones below `TRIAD_FROM` keep
            // enough long first-solution searches in the sample.
            if !has_vector_copy() {
                continue;
            }
            for (i, limit) in [1u64, 2].into_iter().enumerate() {
                let seeded = |cand: &[u32; 32]| {
                    crate::masks::triad9::solve9_seeded(
                        &b.band_configs(),
                        cand,
                        limit,
                        &none,
                        Path::Best,
                    )
                };
                let (with, without) = (seeded(&b.cand), seeded(&open_everywhere));
                assert_eq!(with.count, without.count, "limit {limit}, {g:?}");
                assert_eq!(with.outcome, without.outcome, "limit {limit}, {g:?}");
                // Counting to two and finding one: the puzzle is unique, so its solution is the grid it was cut
                // from (a first solution of a puzzle with several may be another).
                if let (Some(grid), 2, 1) = (grid, limit, with.count) {
                    assert_eq!(with.solution, Some(grid), "the one solution, {g:?}");
                }
                nodes[i][0] += with.stats.nodes;
                nodes[i][1] += without.stats.nodes;
                if limit == 1 && without.stats.nodes < crate::masks::triad9::TEMPLATES_AFTER_FIRST {
                    assert_eq!(
                        with, without,
                        "a short first-solution search is untouched, {g:?}"
                    );
                    short += 1;
                } else if limit == 1 {
                    long += 1;
                }
            }
        }
        if has_vector_copy() {
            assert!(
                short > 20 && long > 20,
                "short / long searches: {short} / {long}"
            );
            assert!(
                nodes[0][0] < nodes[0][1],
                "first solution, nodes with / without: {:?}",
                nodes[0]
            );
            assert!(
                nodes[1][0] < nodes[1][1],
                "counting, nodes with / without: {:?}",
                nodes[1]
            );
        }
    }

    /// `solve9` hands a root to triad9 exactly when band9's root leaves the puzzle open with at least
    /// `TRIAD_FROM` candidates (and the machine has a vector copy of triad9): its results, statistics included,
    /// are those of that route, and the shipped and random puzzles take both routes.
    #[test]
    fn solve9_takes_the_triad_route_exactly_on_open_roots_with_enough_candidates() {
        use crate::masks::dispatch::{has_vector_copy, Path};
        let none = csp_core::Limits::none();
        let mut routes = [0usize; 2];
        let mut differ = 0;
        for (g, _) in puzzles() {
            let open = root(&g).filter(|b| !b.is_solved());
            let to_triad =
                has_vector_copy() && open.is_some_and(|b| b.open_candidates() >= super::TRIAD_FROM);
            routes[usize::from(to_triad)] += 1;
            for limit in [1, 2] {
                let got = super::solve9(&g, limit, &none).expect("values are 0..=9");
                let band = super::solve9_band(&g, limit, &none).expect("values are 0..=9");
                // The triad route's oracle: triad9 called directly on the root's candidates' configurations, narrowed
                // to their templates.
                let seeded = open.map(|b| {
                    crate::masks::triad9::solve9_seeded(
                        &b.band_configs(),
                        &b.cand,
                        limit,
                        &none,
                        Path::Best,
                    )
                });
                let want = match seeded {
                    Some(seeded) if to_triad => seeded,
                    _ => band.clone(),
                };
                assert_eq!(got, want, "limit {limit}, {g:?}");
                differ += usize::from(to_triad && got.stats != band.stats);
            }
        }
        if has_vector_copy() {
            assert!(
                differ > 20,
                "the two routes' statistics differ on only {differ} solves"
            );
        }
        if has_vector_copy() {
            assert!(
                routes[0] > 100 && routes[1] > 50,
                "routes band9 / triad9: {routes:?}"
            );
        }
    }

    /// The digits (a 9-bit mask) that are candidates at `cell` of band `b`, read bit by bit.
    fn model_digits(board: &super::Board9, b: usize, cell: usize) -> u32 {
        (0..9).fold(0, |m, d| m | (board.cand[9 * b + d] >> cell & 1) << d)
    }

    /// The branching rule of `Board9::choose` as its doc states it, computed cell by cell: in the band with the
    /// most bi-value cells (ties: the later band), among its first three bi-value cells, the one with the smallest
    /// sum over its two digits of
    /// (candidates in the cell's row of the band) x (candidates in the cell's column of the band), ties the first;
    /// with no bi-value cell, the first unsolved cell with the fewest candidates.
    /// `choose` without weighing, by the rule its documentation states: the band with the most bi-value cells
    /// (ties: the later), its first bi-value cell; with no bi-value cell anywhere, as `model_choose`.
    fn model_first(board: &super::Board9) -> (usize, usize, u32) {
        let pairs = |b: usize| -> Vec<usize> {
            (0..27)
                .filter(|&c| {
                    board.unsolved[b] >> c & 1 == 1 && model_digits(board, b, c).count_ones() == 2
                })
                .collect()
        };
        let b = (0..3)
            .rev()
            .max_by_key(|&b| (pairs(b).len(), b))
            .unwrap_or(0);
        match pairs(b).first() {
            Some(&cell) => (b, cell, model_digits(board, b, cell)),
            None => model_choose(board),
        }
    }

    fn model_choose(board: &super::Board9) -> (usize, usize, u32) {
        let pairs: Vec<Vec<usize>> = (0..3)
            .map(|b| {
                (0..27)
                    .filter(|&c| {
                        board.unsolved[b] >> c & 1 == 1
                            && model_digits(board, b, c).count_ones() == 2
                    })
                    .collect()
            })
            .collect();
        if pairs.iter().any(|p| !p.is_empty()) {
            let b = (0..3)
                .rev()
                .max_by_key(|&b| (pairs[b].len(), b))
                .unwrap_or(0);
            let weight = |cell: usize| -> u32 {
                let digits = model_digits(board, b, cell);
                (0..9)
                    .filter(|d| digits >> d & 1 == 1)
                    .map(|d| {
                        let x = board.cand[9 * b + d];
                        let row = (0..9)
                            .filter(|k| x >> (9 * (cell / 9) + k) & 1 == 1)
                            .count();
                        let col = (0..3).filter(|r| x >> (9 * r + cell % 9) & 1 == 1).count();
                        (row * col) as u32
                    })
                    .sum()
            };
            let mut best = (0, u32::MAX);
            for &cell in pairs[b].iter().take(3) {
                if weight(cell) < best.1 {
                    best = (cell, weight(cell));
                }
            }
            return (b, best.0, model_digits(board, b, best.0));
        }
        let mut best = (0, 0, 0, u32::MAX);
        for b in 0..3 {
            for cell in (0..27).filter(|&c| board.unsolved[b] >> c & 1 == 1) {
                let digits = model_digits(board, b, cell);
                if digits.count_ones() < best.3 {
                    best = (b, cell, digits, digits.count_ones());
                }
            }
        }
        (best.0, best.1, best.2)
    }

    /// Checks a fixpoint that `propagate` returned (with its bi-value cells `pairs`) against the rules, cell by
    /// cell, and that `solution` (a solution of the puzzle that the path so far agrees with) is still possible.
    fn check_fixpoint(board: &super::Board9, pairs: [u32; 3], solution: Option<&[u8]>, what: &str) {
        use super::super::tables::{minirow_key, KEEP};
        assert_eq!(board.dirty, 0, "{what}: nothing left to update");
        for b in 0..3 {
            let mut bivalue = 0;
            for cell in 0..27 {
                let digits = model_digits(board, b, cell);
                if board.unsolved[b] >> cell & 1 == 1 {
                    assert!(
                        digits.count_ones() >= 2,
                        "{what}: a naked single or an empty cell is left"
                    );
                    bivalue |= u32::from(digits.count_ones() == 2) << cell;
                } else {
                    assert_eq!(
                        digits.count_ones(),
                        1,
                        "{what}: a placed cell keeps its digit only"
                    );
                    let d = digits.trailing_zeros() as usize;
                    // The digit has left the placed cell's row and box in its band and its column in the others.
                    let x = board.cand[9 * b + d];
                    for other in (0..27).filter(|&o| o != cell) {
                        let peer = other / 9 == cell / 9
                            || other % 9 / 3 == cell % 9 / 3
                            || other % 9 == cell % 9;
                        assert!(
                            !peer || x >> other & 1 == 0,
                            "{what}: a placed digit stays at a peer"
                        );
                    }
                    for ob in (0..3).filter(|&ob| ob != b) {
                        for r in 0..3 {
                            let x = board.cand[9 * ob + d];
                            assert_eq!(
                                x >> (9 * r + cell % 9) & 1,
                                0,
                                "{what}: placed digit in its column"
                            );
                        }
                    }
                }
                if let Some(s) = solution {
                    let want = s[27 * b + cell] as usize - 1;
                    assert_eq!(
                        digits >> want & 1,
                        1,
                        "{what}: the solution's digit was removed"
                    );
                }
            }
            assert_eq!(pairs[b], bivalue, "{what}: bi-value cells of band {b}");
            for d in 0..9 {
                let a = board.cand[9 * b + d];
                assert_eq!(
                    a & KEEP[minirow_key(a)],
                    a,
                    "{what}: digit {d} band {b} not locked"
                );
                for r in 0..3 {
                    let row = a >> (9 * r) & 0x1FF;
                    assert!(row != 0, "{what}: digit {d} has no place in a row");
                    if row.count_ones() == 1 {
                        let cell = 9 * r + row.trailing_zeros() as usize;
                        assert_eq!(
                            board.unsolved[b] >> cell & 1,
                            0,
                            "{what}: hidden single left unplaced"
                        );
                    }
                }
            }
        }
    }

    /// From the root of the shipped top95 puzzles and of random puzzles cut from known grids, down a path of decisions
    /// that follows the known grid (each decision the grid's digit at the chosen cell), then one decision off it:
    /// every fixpoint `propagate` reaches obeys the rules it implements (no naked single, hidden single in a row,
    /// or unlocked candidate left; placed digits gone from their peers; the bi-value cells reported exactly),
    /// keeps the known grid possible on the path, and `choose` picks the cell its documented rule picks.
    #[test]
    fn every_fixpoint_obeys_the_propagation_rules_and_choose_follows_its_documented_rule() {
        use csp_core::Limits;
        let mut state = 0x0DD_BA11_u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let (mut decisions, mut without_pairs, mut dead) = (0, 0, 0);
        // The shipped top95 (hard, one solution each: every step off the path dies), then random cut grids.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/famous");
        let top95 = std::fs::read_to_string(dir.join("top95.txt")).unwrap_or_default();
        let mut puzzles: Vec<([u8; 81], Vec<u8>)> = top95
            .lines()
            .filter(|l| !l.starts_with('#') && l.len() >= 81)
            .map(|l| {
                let mut g = [0u8; 81];
                for (c, ch) in g.iter_mut().zip(l.bytes()) {
                    *c = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
                }
                let solved = super::super::solve_generic(3, &g, 2, &Limits::none());
                let grid = solved.ok().and_then(|r| r.solution).unwrap_or_default();
                (g, grid)
            })
            .collect();
        assert!(puzzles.len() >= 90, "top95 read: {}", puzzles.len());
        for round in 0..300 {
            let grid = crate::fuzz_targets::random_solved_grid(3, round)
                .cells()
                .to_vec();
            let mut givens: [u8; 81] = grid.clone().try_into().unwrap_or([0; 81]);
            let holes = 45 + next(30) as usize;
            for _ in 0..holes {
                givens[next(81) as usize] = 0;
            }
            puzzles.push((givens, grid));
        }
        for (givens, grid) in puzzles {
            let what = format!("puzzle {givens:?}");
            let Ok(mut board) = super::Board9::from_givens(&givens) else {
                panic!("{what}: a puzzle cut from a grid does not clash");
            };
            loop {
                let Ok(pairs) = board.propagate(0) else {
                    panic!("{what}: a path that follows a solution cannot fail");
                };
                check_fixpoint(&board, pairs, Some(&grid), &what);
                if board.is_solved() {
                    assert_eq!(board.grid().to_vec(), grid, "{what}: the solved grid");
                    break;
                }
                let chosen = board.choose::<false>(pairs, true);
                assert_eq!(chosen, model_choose(&board), "{what}: the branching cell");
                assert_eq!(
                    board.choose::<true>(pairs, true),
                    chosen,
                    "{what}: with popcnt"
                );
                let unweighed = board.choose::<false>(pairs, false);
                assert_eq!(unweighed, model_first(&board), "{what}: the unweighed cell");
                assert_eq!(
                    board.choose::<true>(pairs, false),
                    unweighed,
                    "{what}: unweighed, popcnt"
                );
                decisions += 1;
                without_pairs += usize::from(pairs == [0; 3]);
                let (b, cell, digits) = chosen;
                let right = usize::from(grid[27 * b + cell]) - 1;
                assert_eq!(
                    digits >> right & 1,
                    1,
                    "{what}: the solution's digit is a choice"
                );
                // Off the path, down the lowest digits: every fixpoint there obeys the rules too.
                let mut off = board;
                let mut step = (b, cell, digits & !(1 << right));
                loop {
                    off.assign(step.2.trailing_zeros() as usize, step.0, step.1);
                    let Ok(pairs) = off.propagate(0) else {
                        dead += 1;
                        break;
                    };
                    check_fixpoint(&off, pairs, None, &what);
                    if off.is_solved() {
                        break;
                    }
                    step = off.choose::<false>(pairs, true);
                    assert_eq!(
                        step,
                        model_choose(&off),
                        "{what}: the branching cell off the path"
                    );
                }
                board.assign(right, b, cell);
            }
        }
        assert!(
            decisions > 800 && without_pairs > 0 && dead > 300,
            "the paths must branch, on cells without two candidates too, and fail: {decisions} {without_pairs} {dead}"
        );
    }

    /// A band update reports a conflict when a digit has no cell left in the band, when two digits claim one cell
    /// as their hidden single, and when both happen in the same update (so the two tests must be combined by OR:
    /// with XOR the last case would pass as consistent).
    #[test]
    fn a_band_update_reports_an_empty_digit_and_a_doubly_claimed_cell_alone_or_together() {
        let Ok(empty_grid) = super::Board9::from_givens(&[0; 81]) else {
            panic!("the empty grid does not clash");
        };
        // Cells 0, 12 and 24: one per row and per box of the band, each alone in its row (hidden singles).
        let diagonal = 1 | 1 << 12 | 1 << 24;
        for (what, empty, twice) in [
            ("an empty digit", true, false),
            ("a doubly claimed cell", false, true),
            ("both", true, true),
            ("neither", false, false),
        ] {
            let mut board = empty_grid;
            if empty {
                board.cand[0] = 0;
            }
            board.cand[1] = diagonal;
            board.cand[2] = if twice { diagonal } else { super::BAND };
            let conflict = board.sweep(0b111, &mut [0; 32]).is_err();
            assert_eq!(conflict, empty || twice, "{what}");
        }
    }
}
