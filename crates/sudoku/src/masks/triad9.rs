//! A second 9x9 solver with the inference of tdoku's triad design (issue 16), written from its documented idea:
//! boxes hold cells *and* negative triads, bands in both directions hold their digits' configurations, and the
//! search branches on a band configuration rather than on a cell. Reached alone as [`solve9_triad`], and by the
//! registry's `fast` ([`super::solve9`]) below band9's root on hard puzzles, seeded from band9's candidates
//! ([`solve9_seeded`]; figures in `docs/measurements.md`, "triad9" and "band9's root, then band9 or triad9").
//!
//! State of one node (9 boxes x 32 bytes + 6 bands x 32 bytes + the pending mask, 480 bytes, copied on a guess):
//!
//! ```text
//!   box b (3x3 boxes, row-major), 16 lanes of 9-bit digit sets:      band (3 horizontal, 3 vertical):
//!     +----+----+----+----+  = four u64 rows                          configs lane k, k in 0..6: the digits
//!     | c00| c01| c02| H0 |   cij: candidates of the cell              whose three minirows (minicolumns) in
//!     | c10| c11| c12| H1 |   Hi : digits NOT in minirow i               the band's three boxes follow
//!     | c20| c21| c22| H2 |   Vj : digits NOT in minicolumn j            permutation PERM[k] (box -> element);
//!     | V0 | V1 | V2 | -- |                                            elims lane k: removals not yet applied.
//!     +----+----+----+----+
//! ```
//!
//! Constraints (per digit): in each of the box's rows 0..2 and columns 0..2 of that matrix, exactly one of the
//! four lanes holds the digit (it is in one cell of the minirow, or the minirow lacks it); a cell has at least
//! one digit; a negative triad has at least six (a minirow holds three digits). Per band and digit, exactly one
//! configuration. The two meet through positive triads: `T[p][e]` = digits with a configuration that puts them
//! in element `e` of the band's box `p`; the box's cells of element `e` keep only `T[p][e]`, its negative triad
//! of `e` only the digits of the other two elements' triads; a positive triad with three digits asserts them.
//! A cell that two of those clauses (two hidden singles) both assert a digit into is a conflict: without that
//! check the result of propagation depended on its order (`docs/measurements.md`, thirteenth session).
//! A leaf (every band and digit down to one configuration) is also checked to have one digit per cell before
//! it counts as a solution.
//!
//! Propagation is a worklist over the six bands: a band with pending eliminations applies them, asserts its
//! three-digit triads, then restricts those of its three boxes whose triads changed; a box restriction runs the box to its own fixpoint
//! (naked singles, hidden singles in matrix rows/columns, six-digit negative triads) and sends what it asserted
//! (a digit in a minirow/minicolumn, or not in it) to its two bands as eliminations. The search branches on the
//! band with the fewest configuration bits left and in it the digit with the fewest configurations: first the
//! digit's lowest configuration, then (in place) all but it.
//!
//! Three compiled copies of the search (`search_functions!`): a portable one, whose box fixpoint is SWAR on the
//! four row words and whose band side is 16-bit lane code; one compiled with `avx2,popcnt,bmi1,bmi2`
//! (`simd`), which holds a box in one AVX2 register, a band's configurations in one 128-bit register (its nine
//! triads, their counts and the peers' box masks by byte shuffles), and builds a box's two band messages in
//! its register; and the same AVX2 code compiled with AVX-512 F/VL/BW/BITALG as well (32 registers,
//! three-input logic, `vpopcntw` counts). [`solve9_triad`] picks by run-time detection (`super::dispatch`, the
//! mask solvers' only `unsafe`), and the tests require every copy to return the portable one's results and
//! statistics.
//!
//! Measured (issue 16, `docs/measurements.md`, the "triad9" sections, the fourteenth session's last): slightly
//! fewer guesses per puzzle than tdoku; CPU time below band9's on the hardest sets (0.76-0.93x) and about
//! band9's on serg, but 1.3-1.5x on kaggle and 17_clue, where the root's propagation dominates. A switch after N
//! band9 nodes was measured and lost to one solver or the other on every set; what `fast` does instead is to
//! start triad9 from band9's root fixpoint (its candidates' occupancy keys become the bands' configurations,
//! [`CONF_LANES`]), so triad9's costly root from the givens is never paid there. Those configurations are first
//! narrowed to the digits' templates (`super::templates`): a configuration survives only if it lies on a whole
//! placement of its digit, which this module's propagation (each band against each box on its own) does not
//! check. That one step halves the search on the hardest sets (nineteenth session). It is taken at the root when
//! counting solutions, and after [`TEMPLATES_AFTER_FIRST`] nodes when looking for the first one, from then on
//! removing what it found from every node.

// Loops index several lane arrays by the same matrix coordinates; iterators would hide the layout.
#![allow(clippy::needless_range_loop)]

use std::time::Instant;

use csp_core::{Limits, Outcome, Stats};

use super::dispatch;
use super::tables::POP9;
use super::{InputError, MaskResult, Stop};

/// All nine digits.
const ALL: u16 = 0x1FF;

/// A box is four `u64` rows of four 16-bit lanes: row `i` (0..3) holds the cells `(i, 0..3)` in lanes 0..3 and
/// the negative triad of minirow `i` in lane 3; row 3 holds the negative triads of minicolumns 0..3 in lanes 0..3
/// and 0 in lane 3. Lane `j` of a row is bits `16j..16j + 9`. Rows of the matrix are words, so the row clauses
/// are lane rotations of one word and the column clauses lane-wise operations across the four words (SWAR).
type BoxRows = [u64; 4];

/// Every lane of a word set to all nine digits.
const ALL4: u64 = 0x01FF_01FF_01FF_01FF;
/// Lanes 0..3 set to all nine digits, lane 3 clear: the cells of a row, or the minicolumn triads of row 3.
const CELLS3: u64 = 0x0000_01FF_01FF_01FF;
/// Bit 15 of every lane.
const HI: u64 = 0x8000_8000_8000_8000;
/// Every lane set to 1.
const SPREAD4: u64 = 0x0001_0001_0001_0001;
/// Lane 0, 1 and 2 set to 1: `x * SPREAD3` copies a lane-0 value into lanes 0..3.
const SPREAD3: u64 = 0x0000_0001_0001_0001;
/// Lane minimums per row: a cell needs one digit, a negative triad six (a minirow holds three digits).
const MIN: BoxRows = [
    0x0006_0001_0001_0001,
    0x0006_0001_0001_0001,
    0x0006_0001_0001_0001,
    0x0000_0006_0006_0006,
];
/// `0x8000 - MIN` per lane: adding it to a count sets the lane's bit 15 exactly when the count reaches the
/// minimum (counts are at most 9, so nothing carries into the next lane). Lane 3 of row 3 (no minimum) always.
const REACH: BoxRows = [
    0x7FFA_7FFF_7FFF_7FFF,
    0x7FFA_7FFF_7FFF_7FFF,
    0x7FFA_7FFF_7FFF_7FFF,
    0x8000_7FFA_7FFA_7FFA,
];
/// A box with nothing known.
const FULL_BOX: BoxRows = [ALL4, ALL4, ALL4, CELLS3];

/// The number of digits in each 16-bit lane (SWAR popcount; lanes hold at most 9 bits).
#[inline(always)]
fn pop16(v: u64) -> u64 {
    let a = v - ((v >> 1) & 0x5555_5555_5555_5555);
    let b = (a & 0x3333_3333_3333_3333) + ((a >> 2) & 0x3333_3333_3333_3333);
    let c = (b + (b >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    (c + (c >> 8)) & 0x001F_001F_001F_001F
}

/// Bit 15 of each lane of `v` (lanes at most 0x7FFF) that is nonzero.
#[inline(always)]
fn nonzero_hi(v: u64) -> u64 {
    (v + 0x7FFF_7FFF_7FFF_7FFF) & HI
}

/// Digits present in exactly one of four sets, and the digits present at all (lane-wise).
#[inline(always)]
fn once_of_four(a: u64, b: u64, c: u64, d: u64) -> (u64, u64) {
    let one = a | b | c | d;
    let two = (a & b) | (c & d) | ((a | b) & (c | d));
    (one & !two, one)
}

/// The three cell lanes of a row folded into lane 0.
#[inline(always)]
fn fold3(x: u64) -> u16 {
    ((x | x >> 16 | x >> 32) & 0x1FF) as u16
}

/// Lane `j` of a word.
#[inline(always)]
fn lane(x: u64, j: usize) -> u16 {
    (x >> (16 * j)) as u16 & ALL
}

/// The six permutations of a band's three boxes (peers) onto three elements (minirows of a horizontal band,
/// minicolumns of a vertical one): `PERM[k][p]` is the element digit's configuration `k` uses in peer `p`.
pub(super) const PERM: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [0, 2, 1],
    [1, 0, 2],
    [2, 1, 0],
];

/// The two configurations that put a digit in element `e` of peer `p`: `AT[p][e]`.
const AT: [[[usize; 2]; 3]; 3] = {
    let mut t = [[[0usize; 2]; 3]; 3];
    let mut p = 0;
    while p < 3 {
        let mut e = 0;
        while e < 3 {
            let mut n = 0;
            let mut k = 0;
            while k < 6 {
                if PERM[k][p] == e {
                    t[p][e][n] = k;
                    n += 1;
                }
                k += 1;
            }
            e += 1;
        }
        p += 1;
    }
    t
};

/// The configurations (bit `k`) that fit one digit's occupancy key of a band (bit `3p + e` set when the digit may
/// still be in element `e` of peer `p`): the permutations `k` with bit `3p + PERM[k][p]` set for every peer. The
/// one definition behind [`CONF_LANES`] and the template step's table of the same sets.
pub(super) const fn key_configs(key: usize) -> u8 {
    let mut set = 0;
    let mut k = 0;
    while k < 6 {
        if key >> PERM[k][0] & 1 != 0
            && key >> (3 + PERM[k][1]) & 1 != 0
            && key >> (6 + PERM[k][2]) & 1 != 0
        {
            set |= 1 << k;
        }
        k += 1;
    }
    set
}

/// A set of configurations (bit `k`) in [`Band::configs`]' packing: lane `k` = 1. Shifted left by a digit, the
/// digit's bits of a band's configurations.
pub(super) const fn config_lanes(set: u8) -> [u64; 2] {
    let mut lanes = [0u64; 2];
    let mut k = 0;
    while k < 6 {
        if set >> k & 1 != 0 {
            lanes[k / 4] |= 1 << (16 * (k % 4));
        }
        k += 1;
    }
    lanes
}

/// `CONF_LANES[key]`: [`key_configs`] of an occupancy key, as [`config_lanes`]. Shifted left by `d` and ORed over
/// the digits, these build a seeded root's band configurations (see [`solve9_seeded`]).
pub(super) static CONF_LANES: [[u64; 2]; 512] = {
    let mut t = [[0u64; 2]; 512];
    let mut key = 0;
    while key < 512 {
        t[key] = config_lanes(key_configs(key));
        key += 1;
    }
    t
};

/// Propagation found a contradiction.
#[derive(Debug)]
struct Conflict;

/// One band's state.
#[derive(Clone, Copy)]
struct Band {
    /// Lane `k` (bits `16(k % 4)..` of word `k / 4`): the digits that may still follow permutation `PERM[k]`;
    /// lanes 6 and 7 stay 0. Packed so a message is two word operations. Invariant at a fixpoint: every digit has
    /// at least one configuration.
    configs: [u64; 2],
    /// Removals from `configs` sent by boxes and guesses (same lanes), applied at the band's next update.
    elims: [u64; 2],
}

/// The search state of one node.
#[derive(Clone, Copy)]
struct Triad9 {
    /// Boxes row-major, each as [`BoxRows`]. Invariant: a lane only loses digits.
    boxes: [BoxRows; 9],
    /// Bands 0..3 horizontal (box rows), 3..6 vertical (box columns).
    bands: [Band; 6],
    /// Bit `i` set when band `i` may have eliminations to apply.
    pending: u32,
}

/// `z[PERM[k][P]]` in lane `k` of a band's packed words.
#[inline(always)]
fn gather<const P: usize>(z: &[u16; 3]) -> [u64; 2] {
    pack(&[
        z[PERM[0][P]],
        z[PERM[1][P]],
        z[PERM[2][P]],
        z[PERM[3][P]],
        z[PERM[4][P]],
        z[PERM[5][P]],
    ])
}

/// Six configuration lanes packed as a band stores them.
#[inline(always)]
fn pack(c: &[u16; 6]) -> [u64; 2] {
    let w = |a: u16, b: u16| u64::from(a) | u64::from(b) << 16;
    [w(c[0], c[1]) | w(c[2], c[3]) << 32, w(c[4], c[5])]
}

/// A band's packed words as six configuration lanes.
#[inline(always)]
pub(super) fn unpack(w: &[u64; 2]) -> [u16; 6] {
    [
        w[0] as u16,
        (w[0] >> 16) as u16,
        (w[0] >> 32) as u16,
        (w[0] >> 48) as u16,
        w[1] as u16,
        (w[1] >> 16) as u16,
    ]
}

impl Triad9 {
    /// Nothing known: every box full, every digit in every band with all six configurations, nothing pending.
    /// Both roots start here.
    const EMPTY: Triad9 = Triad9 {
        boxes: [FULL_BOX; 9],
        bands: [Band {
            configs: [ALL4, ALL as u64 * 0x1_0001],
            elims: [0; 2],
        }; 6],
        pending: 0,
    };

    /// Adds a box's message (see [`Messages`]) to band `band`'s pending eliminations.
    #[inline(always)]
    fn send(&mut self, band: usize, msg: &[u64; 2]) {
        let target = &mut self.bands[band];
        let any = (msg[0] & target.configs[0] & !target.elims[0])
            | (msg[1] & target.configs[1] & !target.elims[1]);
        target.elims[0] |= msg[0];
        target.elims[1] |= msg[1];
        if any != 0 {
            self.pending |= 1 << band;
        }
    }

    /// Positive triads of a band: `t[p][e]`.
    #[inline(always)]
    fn triads(configs: &[u16; 6]) -> [[u16; 3]; 3] {
        let mut t = [[0u16; 3]; 3];
        for (p, row) in t.iter_mut().enumerate() {
            for (e, x) in row.iter_mut().enumerate() {
                let [k1, k2] = AT[p][e];
                *x = configs[k1] | configs[k2];
            }
        }
        t
    }

    /// The band and digit to branch on: among bands with a digit of two or more configurations, the one with
    /// the fewest configuration bits in total (the lowest on ties), and in it the digit with the fewest
    /// configurations (the lowest on ties). `None` when every digit of every band has one configuration: solved.
    /// Inlined so the feature-compiled copy counts with `popcnt`.
    #[inline(always)]
    fn choose(&self) -> Option<(usize, usize)> {
        let mut best = (usize::MAX, u32::MAX);
        for (i, b) in self.bands.iter().enumerate() {
            let total = b.configs[0].count_ones() + b.configs[1].count_ones();
            if total > 9 && total < best.1 {
                best = (i, total);
            }
        }
        if best.0 == usize::MAX {
            return None;
        }
        // Each digit's number of configurations, bit-sliced: `ones`, `twos`, `fours` hold its binary digits.
        let (mut ones, mut twos, mut fours) = (0u16, 0u16, 0u16);
        for x in unpack(&self.bands[best.0].configs) {
            let carry = ones & x;
            ones ^= x;
            fours |= twos & carry;
            twos ^= carry;
        }
        // The digits with exactly 2, 3, 4, 5, 6 configurations; the first nonempty set, its lowest digit.
        let exact = [
            !ones & twos & !fours,
            ones & twos & !fours,
            !ones & !twos & fours,
            ones & !twos & fours,
            !ones & twos & fours,
        ];
        let digits = exact.into_iter().find(|&s| s != 0).unwrap_or(1);
        Some((best.0, digits.trailing_zeros() as usize))
    }

    /// The grid as digits 1..=9, row-major. Only meaningful when solved.
    /// Written row by row of the grid (each its three boxes' row words), so every index is a constant once
    /// the loops are unrolled.
    fn grid(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (r, line) in out.chunks_exact_mut(9).enumerate() {
            for (bc, cells) in line.chunks_exact_mut(3).enumerate() {
                let w = self.boxes[3 * (r / 3) + bc][r % 3];
                for (j, cell) in cells.iter_mut().enumerate() {
                    // The lowest digit of lane j (lane j is not empty in a solved state).
                    *cell = ((w >> (16 * j)) as u16).trailing_zeros() as u8 + 1;
                }
            }
        }
        out
    }

    /// Whether every cell holds one digit (checked at a leaf of the search's `run`). Branch-free over the 27
    /// row words: a cell lane is wrong when it is empty or holds two digits (`x & (x - 1)`, exact per lane once
    /// no lane is empty, as then no subtraction borrows across lanes).
    fn cells_fixed(&self) -> bool {
        let mut bad = 0u64;
        for rows in &self.boxes {
            for &r in &rows[..3] {
                let x = r & CELLS3;
                bad |= (nonzero_hi(x) ^ (HI >> 16)) | (x & x.wrapping_sub(SPREAD3));
            }
        }
        bad == 0
    }
}

/// One search: the limits, the counters and the first solution.
struct Search<'a> {
    limits: &'a Limits,
    start: Option<Instant>,
    solution_limit: u64,
    count: u64,
    solution: Option<[u8; 81]>,
    stats: Stats,
    /// The template step not yet taken: band9's root candidates and the seeded configurations, and the node
    /// count at which to take it (see [`Deferred`]).
    deferred: Option<Deferred<'a>>,
    /// Configurations no solution uses, found by the template step, taken out of every node from then on.
    /// Zero before the step (and when it found nothing).
    removed: [[u64; 2]; 6],
    /// Whether `removed` has any bit set.
    any_removed: bool,
    /// `deferred`'s node count, or `u64::MAX` without one: one compare per node.
    defer_at: u64,
}

/// The template step kept for later: `super::templates::restrict` on `cand` and `configs`, taken once the search
/// has counted `at` nodes.
#[derive(Clone, Copy)]
struct Deferred<'a> {
    cand: &'a [u32; 32],
    configs: [[u64; 2]; 6],
    at: u64,
}

/// When the search for a first solution takes the template step (`super::templates`): after this many nodes.
/// Counting solutions takes it at the root, before the search. Most roots of the moderately hard sets find their
/// first solution within a few nodes, and there the step rarely removes anything: taken at once, it cost
/// magictour 8% and top95 2-6% of CPU time on the first solution. After 8 nodes it costs them 0-2%, and the
/// hardest sets keep most of the gain (forum_hardest_1106 first: 33.0 ms without templates, 19.9 at the root,
/// 20.4 after 8 nodes; forum_hardest_1905, first 1000: 54.1, 32.3, 34.9; `docs/measurements.md`, "Templates
/// at the root").
pub(super) const TEMPLATES_AFTER_FIRST: u64 = 8;

impl Search<'_> {
    /// Counts a node and checks the limits.
    fn node(&mut self) -> Result<(), Stop> {
        self.stats.nodes += 1;
        match super::limit_reached(self.limits, self.stats.nodes, self.start) {
            Some(kind) => Err(Stop::Limit(kind)),
            None => Ok(()),
        }
    }
}

/// What a box asserted at its fixpoint, for its bands: `pr[i]` digits placed in minirow `i`, `nh[i]` digits
/// absent from it, `pc` (lane `j`) digits placed in minicolumn `j`, `nv` (lane `j`) digits absent from it.
struct Found {
    pr: [u16; 3],
    nh: [u16; 3],
    pc: u64,
    nv: u64,
}

/// Runs a band's configurations (packed as [`Band::configs`]) to their fixpoint: every digit keeps a
/// configuration, every positive triad keeps three digits, and a triad with exactly three digits holds them (a
/// minirow has three), so each of them loses the configurations that put it in another element of that peer.
/// First applies the band's pending eliminations; `Ok(None)` when they removed nothing. Returns, per peer `p`,
/// the mask its box is restricted to (see [`peer_mask`]; `horizontal`: the band's elements are minirows), and
/// the peers (bit `p`) whose triads differ from those of the configurations before the eliminations. Scalar;
/// [`simd::avx2::band_fixpoint`] is the same in vector registers.
#[inline(always)]
fn band_fixpoint(
    band: &mut Band,
    horizontal: bool,
) -> Result<Option<([BoxRows; 3], u32)>, Conflict> {
    let before = band.configs;
    let changed = (band.configs[0] & band.elims[0]) | (band.configs[1] & band.elims[1]);
    band.configs[0] &= !band.elims[0];
    band.configs[1] &= !band.elims[1];
    band.elims = [0; 2];
    if changed == 0 {
        return Ok(None);
    }
    let configs = &mut band.configs;
    let mut c = unpack(configs);
    let mut t;
    loop {
        if (c[0] | c[1] | c[2] | c[3] | c[4] | c[5]) != ALL {
            return Err(Conflict);
        }
        t = Triad9::triads(&c);
        // `o[p][e]`: the asserted digits of peer p's elements other than e.
        let mut o = [[0u16; 3]; 3];
        let mut short = false;
        for p in 0..3 {
            let mut a = [0u16; 3];
            for e in 0..3 {
                let n = POP9[usize::from(t[p][e] & ALL)];
                short |= n < 3;
                a[e] = if n == 3 { t[p][e] } else { 0 };
            }
            o[p] = [a[1] | a[2], a[0] | a[2], a[0] | a[1]];
        }
        if short {
            return Err(Conflict);
        }
        let mut removed = 0u16;
        for k in 0..6 {
            let drop = o[0][PERM[k][0]] | o[1][PERM[k][1]] | o[2][PERM[k][2]];
            removed |= c[k] & drop;
            c[k] &= !drop;
        }
        if removed == 0 {
            break;
        }
    }
    *configs = pack(&c);
    let old = Triad9::triads(&unpack(&before));
    let peers = (0..3)
        .filter(|&p| t[p] != old[p])
        .fold(0, |m, p| m | 1 << p);
    let masks = [
        peer_mask(&t[0], horizontal),
        peer_mask(&t[1], horizontal),
        peer_mask(&t[2], horizontal),
    ];
    Ok(Some((masks, peers)))
}

/// What a band's positive triads `t` of one peer allow in the peer's box: the cells of element `e` keep `t[e]`,
/// the negative triad of `e` the digits of the other two elements' triads.
#[inline(always)]
fn peer_mask(t: &[u16; 3], horizontal: bool) -> BoxRows {
    let [t0, t1, t2] = *t;
    if horizontal {
        let row = |x: u16, neg: u16| (u64::from(x) * SPREAD3) | (u64::from(neg) << 48);
        [row(t0, t1 | t2), row(t1, t0 | t2), row(t2, t0 | t1), CELLS3]
    } else {
        let lanes = |a: u16, b: u16, c: u16| u64::from(a) | u64::from(b) << 16 | u64::from(c) << 32;
        let cells = lanes(t0, t1, t2) | u64::from(ALL) << 48;
        [cells, cells, cells, lanes(t1 | t2, t0 | t2, t0 | t1)]
    }
}

/// A mask as the portable copy passes it (itself).
#[inline(always)]
fn box_mask(mask: &BoxRows) -> BoxRows {
    *mask
}

/// Restricts one box to `mask` and runs it to its fixpoint: naked singles, six-digit negative triads, hidden
/// singles of the matrix rows and columns, and what they eliminate. `Ok(None)` when `mask` removed nothing.
/// SWAR on the four row words; [`simd`] is the same with the box in one AVX2 register.
#[inline(always)]
fn box_fixpoint(cells: &mut BoxRows, mask: &BoxRows) -> Result<Option<Found>, Conflict> {
    let mut elim = [0u64; 4];
    for r in 0..4 {
        elim[r] = cells[r] & !mask[r];
    }
    if (elim[0] | elim[1] | elim[2] | elim[3]) == 0 {
        return Ok(None);
    }
    let (mut pr, mut pc, mut nh, mut nv);
    loop {
        let mut asserted = [0u64; 4];
        let mut bad = 0;
        for r in 0..4 {
            cells[r] &= !elim[r];
            let counts = pop16(cells[r]);
            bad |= !(counts + REACH[r]) & HI;
            // Lanes at their minimum assert all they hold (a naked single, a six-digit negative triad).
            let at_min = !nonzero_hi(counts ^ MIN[r]) & HI;
            asserted[r] = cells[r] & ((at_min >> 15) * 0xFFFF);
        }
        // Hidden singles of the exactly-one clauses: matrix rows 0..3 (lane rotations) ...
        for r in 0..3 {
            let x = cells[r];
            let (single, seen) =
                once_of_four(x, x.rotate_left(16), x.rotate_left(32), x.rotate_left(48));
            bad |= (seen ^ ALL4) & ALL4;
            asserted[r] |= x & single;
        }
        // ... and columns 0..3 (lane-wise across the rows).
        let (single, seen) = once_of_four(cells[0], cells[1], cells[2], cells[3]);
        bad |= (seen ^ CELLS3) & CELLS3;
        for r in 0..4 {
            asserted[r] |= cells[r] & single & CELLS3;
        }
        let ca = [
            asserted[0] & CELLS3,
            asserted[1] & CELLS3,
            asserted[2] & CELLS3,
        ];
        // A cell asserted to hold two digits (two hidden singles meeting in one cell).
        for r in 0..3 {
            bad |= ((ca[r] | HI) - SPREAD4) & ca[r];
        }
        if bad != 0 {
            return Err(Conflict);
        }
        pr = [fold3(ca[0]), fold3(ca[1]), fold3(ca[2])];
        pc = ca[0] | ca[1] | ca[2];
        nh = [
            (asserted[0] >> 48) as u16,
            (asserted[1] >> 48) as u16,
            (asserted[2] >> 48) as u16,
        ];
        nv = asserted[3] & CELLS3;
        let all = u64::from(pr[0] | pr[1] | pr[2]) * SPREAD3;
        let mut next = [0u64; 4];
        for r in 0..3 {
            // An asserted cell loses its other digits; its digit leaves the box's other cells and the
            // cell's two negative triads; a digit asserted absent from a minirow/minicolumn leaves its cells.
            let others = ((nonzero_hi(ca[r]) >> 15) * u64::from(ALL)) & !ca[r];
            let c = (all & !ca[r]) | others | (u64::from(nh[r]) * SPREAD3) | nv;
            next[r] = (c | u64::from(pr[r]) << 48) & cells[r];
        }
        next[3] = pc & cells[3];
        if (next[0] | next[1] | next[2] | next[3]) == 0 {
            break;
        }
        elim = next;
    }
    Ok(Some(Found { pr, nh, pc, nv }))
}

/// The mask of the box whose top-left cell is `base` from the givens: a given cell keeps its digit (none if
/// another cell of the box has the same one, a clash the box fixpoint then rejects), an empty cell loses every
/// given digit of the box, `H_i` the digits given in minirow `i`, `V_j` those given in minicolumn `j`.
/// Branch-free, every index a constant once inlined; the duplicate digits by pairs of cells and rows rather
/// than a running `seen` chain over the nine cells. Values are at most 9 (checked by [`solve9_triad`] before
/// any copy of the search runs); the `& 15` only keeps a shift in range.
#[inline(always)]
fn givens_mask(givens: &[u8; 81], base: usize) -> BoxRows {
    let bit = |i: usize, j: usize| ((1u32 << (givens[base + 9 * i + j] & 15)) >> 1) as u16;
    let x = [
        [bit(0, 0), bit(0, 1), bit(0, 2)],
        [bit(1, 0), bit(1, 1), bit(1, 2)],
        [bit(2, 0), bit(2, 1), bit(2, 2)],
    ];
    let row = |i: usize| x[i][0] | x[i][1] | x[i][2];
    let col = |j: usize| x[0][j] | x[1][j] | x[2][j];
    let (r0, r1, r2) = (row(0), row(1), row(2));
    // Digits given in two cells: twice in one row, or in two rows.
    let dup_in = |i: usize| (x[i][0] & x[i][1]) | (x[i][2] & (x[i][0] | x[i][1]));
    let twice = dup_in(0) | dup_in(1) | dup_in(2) | (r0 & r1) | (r2 & (r0 | r1));
    let free = ALL & !(r0 | r1 | r2);
    let cell = |v: u16| u64::from(if v == 0 { free } else { v & !twice });
    let word = |i: usize, r: u16| {
        cell(x[i][0]) | cell(x[i][1]) << 16 | cell(x[i][2]) << 32 | u64::from(ALL & !r) << 48
    };
    [
        word(0, r0),
        word(1, r1),
        word(2, r2),
        u64::from(ALL & !col(0)) | u64::from(ALL & !col(1)) << 16 | u64::from(ALL & !col(2)) << 32,
    ]
}

/// The eliminations a box's assertions send to its two bands, packed as [`Band::elims`]: `[horizontal,
/// vertical]`.
type Messages = [[u64; 2]; 2];

/// The message of peer `p`'s assertions (`pos[e]`: digits in element `e`, `neg[e]`: digits not in it) to a band.
#[inline(always)]
fn message(p: usize, pos: &[u16; 3], neg: &[u16; 3]) -> [u64; 2] {
    // Configuration k puts the digit in element PERM[k][p]: it dies if the digit is asserted absent there or
    // asserted in another element.
    let z = [
        neg[0] | pos[1] | pos[2],
        neg[1] | pos[0] | pos[2],
        neg[2] | pos[0] | pos[1],
    ];
    // The indices made constants (one instance per peer), so the eight lanes go as one vector operation.
    match p {
        0 => gather::<0>(&z),
        1 => gather::<1>(&z),
        _ => gather::<2>(&z),
    }
}

/// Restricts box `b` to `mask` ([`box_fixpoint`]) and returns the messages of its assertions to its bands;
/// `Ok(None)` when `mask` removed nothing. [`simd::avx2::box_restrict`] is the same in one AVX2 register.
#[inline(always)]
fn box_restrict(
    cells: &mut BoxRows,
    mask: &BoxRows,
    b: usize,
) -> Result<Option<Messages>, Conflict> {
    let Some(Found { pr, nh, pc, nv }) = box_fixpoint(cells, mask)? else {
        return Ok(None);
    };
    let pos = [lane(pc, 0), lane(pc, 1), lane(pc, 2)];
    let neg = [lane(nv, 0), lane(nv, 1), lane(nv, 2)];
    Ok(Some([message(b % 3, &pr, &nh), message(b / 3, &pos, &neg)]))
}

/// [`box_fixpoint`] with the box in one AVX2 register (row `r` = 64-bit lane `r`): the row clauses by byte
/// shuffles inside each row, the column clauses by permutations of the rows, popcounts by a nibble table. Only
/// called from the copy of the search compiled with these features (see [`dispatch`]); intrinsics are safe to
/// call there, so this holds no `unsafe`. The tests compare it with the SWAR version through the two copies.
#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    use super::BoxRows;

    /// The four rows as one register.
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    pub(super) fn load(x: &BoxRows) -> __m256i {
        // As two halves: `_mm256_set_epi64x` of the four words compiled to five loads and shuffles, this to three
        // (fast_rate forum_hardest_1106 --triad: CPU time -2%).
        let lo = _mm_set_epi64x(x[1] as i64, x[0] as i64);
        let hi = _mm_set_epi64x(x[3] as i64, x[2] as i64);
        _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi)
    }

    /// The register as four rows.
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    fn store(v: __m256i) -> BoxRows {
        [
            _mm256_extract_epi64::<0>(v) as u64,
            _mm256_extract_epi64::<1>(v) as u64,
            _mm256_extract_epi64::<2>(v) as u64,
            _mm256_extract_epi64::<3>(v) as u64,
        ]
    }

    /// A 256-bit byte-shuffle control (or constant) from its 32 bytes; constant-folded.
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    fn v256(b: [i8; 32]) -> __m256i {
        _mm256_setr_epi8(
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15], b[16], b[17], b[18], b[19], b[20], b[21], b[22], b[23], b[24], b[25],
            b[26], b[27], b[28], b[29], b[30], b[31],
        )
    }

    /// The shuffle control that moves 16-bit lane `lanes[h][l]` of half `h` of the source into lane `l` of half
    /// `h` (`-1`: zero).
    const fn control(lanes: [[i8; 8]; 2]) -> [i8; 32] {
        let mut out = [0i8; 32];
        let mut h = 0;
        while h < 2 {
            let mut l = 0;
            while l < 8 {
                let src = lanes[h][l];
                let (lo, hi) = if src < 0 {
                    (-128, -128)
                } else {
                    (2 * src, 2 * src + 1)
                };
                out[16 * h + 2 * l] = lo;
                out[16 * h + 2 * l + 1] = hi;
                l += 1;
            }
            h += 1;
        }
        out
    }

    // The band's triads in one register: half 0 holds peer 0's three triads in lanes 0..3 and peer 1's in lanes
    // 4..7, half 1 peer 2's in lanes 0..3; the other lanes are fillers (all nine digits, so never short, never
    // asserted). The configurations sit in lanes 0..6 of both halves.

    /// `T_SRC[i]`: the `i`-th of the two configurations whose union is the triad in each lane ([`super::AT`]).
    const T_SRC: [[i8; 32]; 2] = {
        let mut lanes = [[[-1i8; 8]; 2]; 2];
        let mut i = 0;
        while i < 2 {
            let mut e = 0;
            while e < 3 {
                lanes[i][0][e] = super::AT[0][e][i] as i8;
                lanes[i][0][4 + e] = super::AT[1][e][i] as i8;
                lanes[i][1][e] = super::AT[2][e][i] as i8;
                e += 1;
            }
            i += 1;
        }
        [control(lanes[0]), control(lanes[1])]
    };

    /// The filler lanes of the triad register set to all nine digits.
    const FILL: [i8; 32] = {
        let mut out = [0i8; 32];
        let fill = [[3usize, 7, 7, 7, 7], [3, 4, 5, 6, 7]];
        let mut h = 0;
        while h < 2 {
            let mut i = 0;
            while i < 5 {
                out[16 * h + 2 * fill[h][i]] = -1;
                out[16 * h + 2 * fill[h][i] + 1] = 1;
                i += 1;
            }
            h += 1;
        }
        out
    };

    /// `NEXT[s]`: within each peer's three lanes, the lane of element `e + 1 + s` (mod 3); fillers zero.
    const NEXT: [[i8; 32]; 2] = {
        let mut lanes = [[[-1i8; 8]; 2]; 2];
        let mut s = 0;
        while s < 2 {
            let mut e = 0;
            while e < 3 {
                let f = ((e + 1 + s) % 3) as i8;
                lanes[s][0][e] = f;
                lanes[s][0][4 + e] = 4 + f;
                lanes[s][1][e] = f;
                e += 1;
            }
            s += 1;
        }
        [control(lanes[0]), control(lanes[1])]
    };

    /// Per configuration `k` (lanes 0..6): `DROP[0]` takes peer 0's lane `PERM[k][0]` in half 0 and peer 2's lane
    /// `PERM[k][2]` in half 1, `DROP[1]` peer 1's lane `PERM[k][1]` in half 0 (half 1 zero).
    const DROP: [[i8; 32]; 2] = {
        let mut lanes = [[[-1i8; 8]; 2]; 2];
        let mut k = 0;
        while k < 6 {
            lanes[0][0][k] = super::PERM[k][0] as i8;
            lanes[0][1][k] = super::PERM[k][2] as i8;
            lanes[1][0][k] = 4 + super::PERM[k][1] as i8;
            k += 1;
        }
        [control(lanes[0]), control(lanes[1])]
    };

    /// Shuffle of a peer's `[t0, t1, t2, _, u0, u1, u2, _]` (`u`: unions of the other two triads) into the box
    /// mask of a horizontal band's peer: row `i` = `(ti, ti, ti, ui)`, row 3 from [`MASK_H_FILL`].
    const MASK_H: [i8; 32] = control([[0, 0, 0, 4, 1, 1, 1, 5], [2, 2, 2, 6, -1, -1, -1, -1]]);
    /// Row 3 of a horizontal band's box mask: the minicolumn triads unrestricted.
    const MASK_H_FILL: [i8; 32] = {
        let mut out = [0i8; 32];
        let mut l = 0;
        while l < 3 {
            out[24 + 2 * l] = -1;
            out[24 + 2 * l + 1] = 1;
            l += 1;
        }
        out
    };
    /// The same for a vertical band's peer: rows 0..3 = `(t0, t1, t2, all)`, row 3 = `(u0, u1, u2, 0)`.
    const MASK_V: [i8; 32] = control([[0, 1, 2, -1, 0, 1, 2, -1], [0, 1, 2, -1, 4, 5, 6, -1]]);
    /// Lane 3 of rows 0..3 of a vertical band's box mask: the minirow triads unrestricted.
    const MASK_V_FILL: [i8; 32] = {
        let mut out = [0i8; 32];
        let mut r = 0;
        while r < 3 {
            out[8 * r + 6] = -1;
            out[8 * r + 7] = 1;
            r += 1;
        }
        out
    };

    /// Two packed words as one register.
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    fn load2(x: &[u64; 2]) -> __m128i {
        _mm_set_epi64x(x[1] as i64, x[0] as i64)
    }

    /// One register as two packed words.
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    fn store2(v: __m128i) -> [u64; 2] {
        [
            _mm_extract_epi64::<0>(v) as u64,
            _mm_extract_epi64::<1>(v) as u64,
        ]
    }

    /// See [`super::Triad9::send`]; the band's words loaded and stored whole, the pending bit set without a
    /// branch (lab CPU time: 1106 -4%, 1905 -5%, magictour -6%, kaggle -6%, serg +5%).
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    pub(super) fn send(s: &mut super::Triad9, band: usize, msg: &[u64; 2]) {
        let m = load2(msg);
        let target = &mut s.bands[band];
        let elims = load2(&target.elims);
        let fresh = _mm_andnot_si128(elims, load2(&target.configs));
        target.elims = store2(_mm_or_si128(elims, m));
        s.pending |= u32::from(_mm_testz_si128(m, fresh) == 0) << band;
    }

    /// 32 control bytes as four little-endian words, so a control picked at run time loads like a box.
    const fn words(b: [i8; 32]) -> BoxRows {
        let mut w = [0u64; 4];
        let mut i = 0;
        while i < 32 {
            w[i / 8] |= (b[i] as u8 as u64) << (8 * (i % 8));
            i += 1;
        }
        w
    }

    /// `MSG[bi][bj]`: after the box's message sources are gathered by [`MSG_DWORDS`] (half 0: the horizontal
    /// band's `z[e]` in lanes 1, 3, 5; half 1: the vertical band's in lanes 0, 1, 2), the shuffle that puts lane
    /// `k` of the message of box `(bi, bj)` to its horizontal band (half 0) and vertical band (half 1) in place.
    const MSG: [[BoxRows; 3]; 3] = {
        let mut out = [[[0u64; 4]; 3]; 3];
        let mut bi = 0;
        while bi < 3 {
            let mut bj = 0;
            while bj < 3 {
                let mut lanes = [[-1i8; 8]; 2];
                let mut k = 0;
                while k < 6 {
                    lanes[0][k] = 2 * super::PERM[k][bj] as i8 + 1;
                    lanes[1][k] = super::PERM[k][bi] as i8;
                    k += 1;
                }
                out[bi][bj] = words(control(lanes));
                bj += 1;
            }
            bi += 1;
        }
        out
    };

    /// The 32-bit words holding the message sources: lanes 2..4, 6..8, 10..12 (`z` of minirows 0, 1, 2 in lanes
    /// 3, 7, 11) into half 0, lanes 12..16 (`z` of minicolumns 0, 1, 2 in lanes 12..15) into half 1.
    const MSG_DWORDS: [i32; 8] = [1, 3, 5, 5, 6, 7, 7, 7];

    /// The two hot functions of the vector copies, written once and compiled twice (like `search_functions!`):
    /// `$pop16` counts the digits of each 16-bit lane, and the attributes give the features.
    macro_rules! fixpoints {
        ($pop16:path $(, #[$feature:meta])*) => {
            use std::arch::x86_64::*;

            use super::{load, load2, store, store2, v256, DROP, FILL, MASK_H, MASK_H_FILL, MASK_V};
            use super::{MASK_V_FILL, MSG, MSG_DWORDS, NEXT, T_SRC};
            use super::super::{BoxRows, Conflict, ALL, ALL4, CELLS3, MIN};

        /// See [`super::super::band_fixpoint`]; same results. The configurations in one 128-bit register, the nine triads
        /// in one 256-bit register built by two byte shuffles, their counts by a nibble table.
        #[inline]
        $(#[$feature])*
        pub(crate) fn band_fixpoint(
            band: &mut super::super::Band,
            horizontal: bool,
        ) -> Result<Option<([__m256i; 3], u32)>, Conflict> {
            // Loaded and stored whole (as `send` does), so a load never spans two narrower stores.
            let before = load2(&band.configs);
            let elims = load2(&band.elims);
            band.elims = store2(_mm_setzero_si128());
            if _mm_testz_si128(before, elims) != 0 {
                return Ok(None);
            }
            let mut c = _mm_andnot_si128(elims, before);
            let (ta, tb, fill) = (v256(T_SRC[0]), v256(T_SRC[1]), v256(FILL));
            let triads = |c: __m128i| {
                let cc = _mm256_broadcastsi128_si256(c);
                _mm256_or_si256(
                    _mm256_or_si256(_mm256_shuffle_epi8(cc, ta), _mm256_shuffle_epi8(cc, tb)),
                    fill,
                )
            };
            let old = triads(before);
            let (n1, n2) = (v256(NEXT[0]), v256(NEXT[1]));
            let (d1, d2) = (v256(DROP[0]), v256(DROP[1]));
            let three = _mm256_set1_epi16(3);
            let all = _mm256_set1_epi16(ALL as i16);
            let (mut t, mut others);
            loop {
                t = triads(c);
                // A peer's three triads together hold every digit that has a configuration.
                others = _mm256_or_si256(_mm256_shuffle_epi8(t, n1), _mm256_shuffle_epi8(t, n2));
                let union = _mm256_or_si256(t, others);
                let counts = $pop16(t);
                let bad = _mm256_or_si256(
                    _mm256_andnot_si256(union, all),
                    _mm256_cmpgt_epi16(three, counts),
                );
                if _mm256_testz_si256(bad, bad) == 0 {
                    return Err(Conflict);
                }
                let a = _mm256_and_si256(t, _mm256_cmpeq_epi16(counts, three));
                let o = _mm256_or_si256(_mm256_shuffle_epi8(a, n1), _mm256_shuffle_epi8(a, n2));
                let d = _mm256_or_si256(_mm256_shuffle_epi8(o, d1), _mm256_shuffle_epi8(o, d2));
                let drop = _mm_or_si128(_mm256_castsi256_si128(d), _mm256_extracti128_si256::<1>(d));
                if _mm_testz_si128(c, drop) != 0 {
                    break;
                }
                c = _mm_andnot_si128(drop, c);
            }
            band.configs = store2(c);
            // Bit p: peer p's 64 bits differ (the fillers are equal).
            let same = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(t, old))) as u32;
            // Per peer: lanes 0..3 its triads, lanes 4..7 the unions of the other two (`others`), then shuffled
            // into the box layout of `super::peer_mask`.
            let (t_lo, t_hi) = (_mm256_castsi256_si128(t), _mm256_extracti128_si256::<1>(t));
            let (o_lo, o_hi) = (
                _mm256_castsi256_si128(others),
                _mm256_extracti128_si256::<1>(others),
            );
            let (shape, fill) = if horizontal {
                (v256(MASK_H), v256(MASK_H_FILL))
            } else {
                (v256(MASK_V), v256(MASK_V_FILL))
            };
            let mask = |x: __m128i| {
                _mm256_or_si256(
                    _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(x), shape),
                    fill,
                )
            };
            Ok(Some((
                [
                    mask(_mm_unpacklo_epi64(t_lo, o_lo)),
                    mask(_mm_unpackhi_epi64(t_lo, o_lo)),
                    mask(_mm_unpacklo_epi64(t_hi, o_hi)),
                ],
                !same & 7,
            )))
        }


        /// The constants of the box loop (see [`box_step`]), loaded once per restriction.
        struct BoxConsts {
            rot1: __m256i,
            rot2: __m256i,
            rot3: __m256i,
            lane3: __m256i,
            min: __m256i,
            all: __m256i,
            rows3: __m256i,
            cols3: __m256i,
            cell_mask: __m256i,
            h_mask: __m256i,
            v_mask: __m256i,
        }

        /// See [`BoxConsts`].
        #[inline]
        $(#[$feature])*
        fn box_consts() -> BoxConsts {
            BoxConsts {
                // Byte shuffles rotating the four 16-bit lanes of each row by one, two and three, and copying lane
                // 3 (the negative minirow triad) to all four.
                rot1: _mm256_setr_epi8(
                    2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9, 2, 3, 4, 5, 6, 7, 0, 1, 10, 11,
                    12, 13, 14, 15, 8, 9,
                ),
                rot2: _mm256_setr_epi8(
                    4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13,
                    14, 15, 8, 9, 10, 11,
                ),
                rot3: _mm256_setr_epi8(
                    6, 7, 0, 1, 2, 3, 4, 5, 14, 15, 8, 9, 10, 11, 12, 13, 6, 7, 0, 1, 2, 3, 4, 5, 14, 15,
                    8, 9, 10, 11, 12, 13,
                ),
                lane3: _mm256_setr_epi8(
                    6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15, 6, 7, 6, 7, 6, 7, 6, 7, 14, 15,
                    14, 15, 14, 15, 14, 15,
                ),
                min: load(&MIN),
                all: _mm256_set1_epi16(ALL as i16),
                // Rows 0..3 whole; lanes 0..3 of every row; the cells; lane 3 of rows 0..3; row 3's lanes 0..3.
                rows3: load(&[ALL4, ALL4, ALL4, 0]),
                cols3: load(&[CELLS3; 4]),
                cell_mask: load(&[CELLS3, CELLS3, CELLS3, 0]),
                h_mask: load(&[
                    u64::from(ALL) << 48,
                    u64::from(ALL) << 48,
                    u64::from(ALL) << 48,
                    0,
                ]),
                v_mask: load(&[0, 0, 0, CELLS3]),
            }
        }

        /// One iteration of the box loop on the box `c` (its eliminations applied): what it asserts (`asserted`;
        /// `row_or` / `col_or` its asserted cells ORed along each matrix row / column), whether a clause is
        /// violated (`bad` nonzero), and the eliminations the assertions imply (`next`, within `c`).
        #[inline]
        $(#[$feature])*
        fn box_step(k: &BoxConsts, c: __m256i) -> [__m256i; 5] {
            let counts = $pop16(c);
            let below = _mm256_cmpgt_epi16(k.min, counts);
            let mut asserted = _mm256_and_si256(c, _mm256_cmpeq_epi16(counts, k.min));
            // Rows: the digits in exactly one of the four lanes.
            let (x, y) = (c, _mm256_shuffle_epi8(c, k.rot1));
            let (z, w) = (_mm256_shuffle_epi8(c, k.rot2), _mm256_shuffle_epi8(c, k.rot3));
            let one_r = _mm256_or_si256(_mm256_or_si256(x, y), _mm256_or_si256(z, w));
            let two_r = _mm256_or_si256(
                _mm256_or_si256(_mm256_and_si256(x, y), _mm256_and_si256(z, w)),
                _mm256_and_si256(_mm256_or_si256(x, y), _mm256_or_si256(z, w)),
            );
            // Columns: the same across the four rows.
            let (y, z, w) = (
                _mm256_permute4x64_epi64::<0x39>(c),
                _mm256_permute4x64_epi64::<0x4E>(c),
                _mm256_permute4x64_epi64::<0x93>(c),
            );
            let one_c = _mm256_or_si256(_mm256_or_si256(x, y), _mm256_or_si256(z, w));
            let two_c = _mm256_or_si256(
                _mm256_or_si256(_mm256_and_si256(x, y), _mm256_and_si256(z, w)),
                _mm256_and_si256(_mm256_or_si256(x, y), _mm256_or_si256(z, w)),
            );
            let missing = _mm256_or_si256(
                _mm256_andnot_si256(one_r, k.rows3),
                _mm256_andnot_si256(one_c, k.cols3),
            );
            let singles = _mm256_or_si256(
                _mm256_and_si256(_mm256_andnot_si256(two_r, one_r), k.rows3),
                _mm256_and_si256(_mm256_andnot_si256(two_c, one_c), k.cols3),
            );
            asserted = _mm256_or_si256(asserted, _mm256_and_si256(c, singles));
            let ca = _mm256_and_si256(asserted, k.cell_mask);
            // A cell asserted to hold two digits (two hidden singles meeting in one cell).
            let two_in_cell = _mm256_and_si256(ca, _mm256_sub_epi16(ca, _mm256_set1_epi16(1)));
            let bad = _mm256_or_si256(_mm256_or_si256(below, missing), two_in_cell);
            let r1 = _mm256_or_si256(ca, _mm256_shuffle_epi8(ca, k.rot1));
            let row_or = _mm256_or_si256(r1, _mm256_shuffle_epi8(r1, k.rot2));
            let c1 = _mm256_or_si256(ca, _mm256_permute4x64_epi64::<0x39>(ca));
            let col_or = _mm256_or_si256(c1, _mm256_permute4x64_epi64::<0x4E>(c1));
            let a1 = _mm256_or_si256(row_or, _mm256_permute4x64_epi64::<0x39>(row_or));
            let box_or = _mm256_or_si256(a1, _mm256_permute4x64_epi64::<0x4E>(a1));
            let nh = _mm256_shuffle_epi8(asserted, k.lane3);
            let nv = _mm256_permute4x64_epi64::<0xFF>(asserted);
            let placed = _mm256_andnot_si256(_mm256_cmpeq_epi16(ca, _mm256_setzero_si256()), k.all);
            let others = _mm256_andnot_si256(ca, placed);
            let cell_part = _mm256_and_si256(
                _mm256_or_si256(
                    _mm256_or_si256(_mm256_andnot_si256(ca, box_or), others),
                    _mm256_or_si256(nh, nv),
                ),
                k.cell_mask,
            );
            let next = _mm256_and_si256(
                _mm256_or_si256(
                    cell_part,
                    _mm256_or_si256(
                        _mm256_and_si256(row_or, k.h_mask),
                        _mm256_and_si256(col_or, k.v_mask),
                    ),
                ),
                c,
            );
            [asserted, row_or, col_or, bad, next]
        }

        /// The messages of box `b`'s assertions (from [`box_step`] at its fixpoint) to its two bands.
        #[inline]
        $(#[$feature])*
        fn box_messages(
            k: &BoxConsts,
            asserted: __m256i,
            row_or: __m256i,
            col_or: __m256i,
            b: usize,
        ) -> super::super::Messages {
            // z of minirow i (lane 3 of row i): the digits asserted absent from it or placed in another minirow; z of
            // minicolumn j (lane j of row 3): the same for minicolumns. Row 3 of `row_or` and lane 3 of `col_or` are 0.
            let other_rows = _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_permute4x64_epi64::<0x39>(row_or),
                    _mm256_permute4x64_epi64::<0x4E>(row_or),
                ),
                _mm256_permute4x64_epi64::<0x93>(row_or),
            );
            let other_cols = _mm256_or_si256(
                _mm256_or_si256(
                    _mm256_shuffle_epi8(col_or, k.rot1),
                    _mm256_shuffle_epi8(col_or, k.rot2),
                ),
                _mm256_shuffle_epi8(col_or, k.rot3),
            );
            let z = _mm256_or_si256(
                asserted,
                _mm256_or_si256(
                    _mm256_and_si256(other_rows, k.h_mask),
                    _mm256_and_si256(other_cols, k.v_mask),
                ),
            );
            let gathered = _mm256_permutevar8x32_epi32(
                z,
                _mm256_setr_epi32(
                    MSG_DWORDS[0],
                    MSG_DWORDS[1],
                    MSG_DWORDS[2],
                    MSG_DWORDS[3],
                    MSG_DWORDS[4],
                    MSG_DWORDS[5],
                    MSG_DWORDS[6],
                    MSG_DWORDS[7],
                ),
            );
            let msg = _mm256_shuffle_epi8(gathered, load(&MSG[b / 3][b % 3]));
            [
                [
                    _mm256_extract_epi64::<0>(msg) as u64,
                    _mm256_extract_epi64::<1>(msg) as u64,
                ],
                [
                    _mm256_extract_epi64::<2>(msg) as u64,
                    _mm256_extract_epi64::<3>(msg) as u64,
                ],
            ]
        }

        /// See [`super::super::box_restrict`]; same results.
        #[inline]
        $(#[$feature])*
        pub(crate) fn box_restrict(
            cells: &mut BoxRows,
            mask: &__m256i,
            b: usize,
        ) -> Result<Option<super::super::Messages>, Conflict> {
            let mut c = load(cells);
            let mut elim = _mm256_andnot_si256(*mask, c);
            if _mm256_testz_si256(elim, elim) != 0 {
                return Ok(None);
            }
            let k = box_consts();
            loop {
                c = _mm256_andnot_si256(elim, c);
                let [asserted, row_or, col_or, bad, next] = box_step(&k, c);
                if _mm256_testz_si256(bad, bad) == 0 {
                    return Err(Conflict);
                }
                if _mm256_testz_si256(next, next) != 0 {
                    *cells = store(c);
                    return Ok(Some(box_messages(&k, asserted, row_or, col_or, b)));
                }
                elim = next;
            }
        }

        /// The fixpoint loops of `N` boxes `c` with their first eliminations `elim`, side by side until the last
        /// is at its fixpoint (a box there computes nothing new); the last [`box_step`] of each.
        #[inline]
        $(#[$feature])*
        fn box_loops<const N: usize>(
            k: &BoxConsts,
            c: &mut [__m256i; N],
            mut elim: [__m256i; N],
        ) -> Result<[[__m256i; 5]; N], Conflict> {
            let mut out = [[_mm256_setzero_si256(); 5]; N];
            loop {
                let mut bad = _mm256_setzero_si256();
                let mut next = _mm256_setzero_si256();
                for p in 0..N {
                    c[p] = _mm256_andnot_si256(elim[p], c[p]);
                    out[p] = box_step(k, c[p]);
                    bad = _mm256_or_si256(bad, out[p][3]);
                    next = _mm256_or_si256(next, out[p][4]);
                }
                if _mm256_testz_si256(bad, bad) == 0 {
                    return Err(Conflict);
                }
                if _mm256_testz_si256(next, next) != 0 {
                    return Ok(out);
                }
                for p in 0..N {
                    elim[p] = out[p][4];
                }
            }
        }

        /// Stores the boxes `ids` (now `c`), peers of band `band`, and sends their messages (from `out`, their
        /// last [`box_step`]).
        #[inline]
        $(#[$feature])*
        fn finish<const N: usize>(
            s: &mut super::super::Triad9,
            k: &BoxConsts,
            c: &[__m256i; N],
            out: &[[__m256i; 5]; N],
            ids: [usize; N],
            band: usize,
        ) {
            // The messages to `band` (each box's band in the band's orientation) ORed and sent once: the same
            // eliminations and pending bit as one send each (fast_rate 1106 and magictour: CPU time -3%).
            let mut shared = [0u64; 2];
            for p in 0..N {
                let b = ids[p];
                s.boxes[b] = store(c[p]);
                let [h, v] = box_messages(k, out[p][0], out[p][1], out[p][2], b);
                let (mine, other, to) = if band < 3 {
                    (h, v, 3 + b % 3)
                } else {
                    (v, h, b / 3)
                };
                shared = [shared[0] | mine[0], shared[1] | mine[1]];
                super::send(s, to, &other);
            }
            super::send(s, band, &shared);
        }

        /// Restricts the peers `peers` (bit `p`) of band `band` to their masks and sends their messages, like
        /// [`box_restrict`] and `send` on each in turn, with the same results, but the boxes' fixpoint loops
        /// interleaved: the three boxes are independent until their messages reach the bands, so their loops
        /// run side by side in one loop (until the last of them is at its fixpoint; a box already there
        /// computes nothing new), one loop-exit branch for all.
        #[inline]
        $(#[$feature])*
        pub(crate) fn restrict_peers(
            s: &mut super::super::Triad9,
            band: usize,
            masks: &[__m256i; 3],
            peers: u32,
        ) -> Result<(), Conflict> {
            let line = band % 3;
            let ids = if band < 3 {
                [3 * line, 3 * line + 1, 3 * line + 2]
            } else {
                [line, 3 + line, 6 + line]
            };
            let mut c = [load(&s.boxes[ids[0]]), load(&s.boxes[ids[1]]), load(&s.boxes[ids[2]])];
            let zero = _mm256_setzero_si256();
            let mut elim = [zero; 3];
            let mut active = 0u32;
            for p in 0..3 {
                if peers >> p & 1 != 0 {
                    elim[p] = _mm256_andnot_si256(masks[p], c[p]);
                    if _mm256_testz_si256(elim[p], elim[p]) == 0 {
                        active |= 1 << p;
                    }
                }
            }
            if active == 0 {
                return Ok(());
            }
            let k = box_consts();
            match active {
                1 | 2 | 4 => {
                    let p = active.trailing_zeros() as usize;
                    let mut cs = [c[p]];
                    let out = box_loops(&k, &mut cs, [elim[p]])?;
                    finish(s, &k, &cs, &out, [ids[p]], band);
                }
                3 | 5 | 6 => {
                    let p = active.trailing_zeros() as usize;
                    let q = (active & (active - 1)).trailing_zeros() as usize;
                    let mut cs = [c[p], c[q]];
                    let out = box_loops(&k, &mut cs, [elim[p], elim[q]])?;
                    finish(s, &k, &cs, &out, [ids[p], ids[q]], band);
                }
                _ => {
                    let out = box_loops(&k, &mut c, elim)?;
                    finish(s, &k, &c, &out, ids, band);
                }
            }
            Ok(())
        }
        };
    }

    /// The digits in each 16-bit lane (lanes hold at most 9 bits), by a nibble table: AVX2 has no such count.
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    fn pop16_nibble(x: __m256i) -> __m256i {
        let nibble_pop = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let low4 = _mm256_set1_epi8(0x0F);
        let lo = _mm256_and_si256(x, low4);
        let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(x), low4);
        let bytes = _mm256_add_epi8(
            _mm256_shuffle_epi8(nibble_pop, lo),
            _mm256_shuffle_epi8(nibble_pop, hi),
        );
        _mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1))
    }

    /// The same by AVX-512 BITALG's `vpopcntw` (AVX-512 target features and intrinsics are stable since Rust
    /// 1.89, the workspace's `rust-version` for this reason).
    #[inline]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,avx512f,avx512vl,avx512bw,avx512bitalg")]
    fn pop16_bitalg(x: __m256i) -> __m256i {
        _mm256_popcnt_epi16(x)
    }

    /// The fixpoints compiled with AVX2 (run where [`super::dispatch::choose`] says).
    pub(super) mod avx2 {
        fixpoints!(super::pop16_nibble, #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]);
    }

    /// The fixpoints compiled with AVX-512 as well (run where [`super::dispatch::choose`] says): the same intrinsics,
    /// but 32 vector registers, three-input logic (`vpternlog`) and `vpopcntw` for the counts.
    pub(super) mod avx512 {
        fixpoints!(super::pop16_bitalg, #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,avx512f,avx512vl,avx512bw,avx512bitalg")]);
    }
}

/// The hot functions of the search (root, box restriction, band update, propagation, the recursion), written
/// once and compiled twice: plainly, and with the x86-64 features the machine may have (`avx2`, `popcnt`,
/// `bmi1`, `bmi2`), picked at run time by [`solve9_triad`]. Free functions over [`Triad9`] so both copies can sit
/// side by side.
macro_rules! search_functions {
    ($mask:ty, $to_mask:path, $fixpoint:path, $band_fixpoint:path, $send:path, $peers:path $(, #[$feature:meta])*) => {
        /// The root: empty boxes and bands, then each box restricted by its givens, then propagation.
        $(#[$feature])*
        fn root(givens: &[u8; 81]) -> Result<Triad9, Conflict> {
            let mut state = Triad9::EMPTY;
            // Per box, from its givens (see `givens_mask`); built box by box with fixed indices: the per-given
            // read-modify-write of the masks was a chain of store-to-load forwards.
            let m = |b: usize| givens_mask(givens, 27 * (b / 3) + 3 * (b % 3));
            let masks = [m(0), m(1), m(2), m(3), m(4), m(5), m(6), m(7), m(8)];
            for (b, mask) in masks.iter().enumerate() {
                restrict(&mut state, b, &$to_mask(mask))?;
            }
            Ok(state)
        }

        /// The seeded root (see [`super::solve9_seeded`]): the bands start at `configs` and run to their band
        /// fixpoint, then each box is restricted to its two bands' triads, which leaves every box restricted to
        /// its bands' current triads, as `update_band` assumes; propagation follows in `run`.
        $(#[$feature])*
        fn root_seeded(configs: &[[u64; 2]; 6]) -> Result<Triad9, Conflict> {
            let mut state = Triad9::EMPTY;
            for (band, c) in state.bands.iter_mut().zip(configs) {
                band.elims = [band.configs[0] & !c[0], band.configs[1] & !c[1]];
            }
            for band in 0..6 {
                $band_fixpoint(&mut state.bands[band], band < 3)?;
            }
            let t: [[[u16; 3]; 3]; 6] = std::array::from_fn(|i| Triad9::triads(&unpack(&state.bands[i].configs)));
            for b in 0..9 {
                let h = peer_mask(&t[b / 3][b % 3], true);
                let v = peer_mask(&t[3 + b % 3][b / 3], false);
                let mask = [h[0] & v[0], h[1] & v[1], h[2] & v[2], h[3] & v[3]];
                restrict(&mut state, b, &$to_mask(&mask))?;
            }
            Ok(state)
        }

        /// [`solve`] from a seeded root, with the template step at the root or deferred. See
        /// [`super::solve9_seeded`].
        $(#[$feature])*
        pub(crate) fn solve_seeded(
            configs: &[[u64; 2]; 6],
            cand: &[u32; 32],
            solution_limit: u64,
            limits: &Limits,
        ) -> MaskResult<[u8; 81]> {
            let at = if solution_limit == 1 { TEMPLATES_AFTER_FIRST } else { 0 };
            if at == 0 {
                let mut narrowed = *configs;
                crate::masks::templates::restrict(cand, &mut narrowed);
                return finish(root_seeded(&narrowed), solution_limit, limits, None);
            }
            let deferred = Deferred { cand, configs: *configs, at };
            finish(root_seeded(configs), solution_limit, limits, Some(deferred))
        }

        /// Restricts box `b` to `mask` (lane-wise), runs the box to its fixpoint and sends its assertions to its
        /// horizontal and vertical band.
        $(#[$feature])*
        fn restrict(s: &mut Triad9, b: usize, mask: &$mask) -> Result<(), Conflict> {
            let Some([h, v]) = $fixpoint(&mut s.boxes[b], mask, b)? else {
                return Ok(());
            };
            // Messages: a digit asserted in element e of this box removes the configurations that put it elsewhere;
            // a digit asserted absent removes those that put it there.
            $send(s, b / 3, &h);
            $send(s, 3 + b % 3, &v);
            Ok(())
        }

        /// Applies band `band`'s pending eliminations, asserts its three-digit triads, and restricts its boxes.
        $(#[$feature])*
        fn update_band(s: &mut Triad9, band: usize) -> Result<(), Conflict> {
            // Only the peers whose triads changed are restricted again: the band's configurations change only
            // here, and the last update (or the empty root) already restricted every peer to the triads of the
            // configurations before this update, and a box only loses digits.
            let Some((masks, peers)) = $band_fixpoint(&mut s.bands[band], band < 3)? else {
                return Ok(());
            };
            $peers(s, band, &masks, peers)
        }

        /// Restricts the peers `peers` (bit `p`) of band `band` to their masks, one after the other.
        #[allow(dead_code)]
        $(#[$feature])*
        fn restrict_each(s: &mut Triad9, band: usize, masks: &[$mask; 3], mut peers: u32) -> Result<(), Conflict> {
            let line = band % 3;
            while peers != 0 {
                let p = peers.trailing_zeros() as usize;
                peers &= peers - 1;
                let bx = if band < 3 { 3 * line + p } else { 3 * p + line };
                restrict(s, bx, &masks[p])?;
            }
            Ok(())
        }

        /// Runs the worklist until no band has eliminations left.
        $(#[$feature])*
        fn propagate(s: &mut Triad9) -> Result<(), Conflict> {
            while s.pending != 0 {
                let band = s.pending.trailing_zeros() as usize;
                s.pending &= s.pending - 1;
                update_band(s, band % 6)?;
            }
            Ok(())
        }

        /// Depth-first search below `state` (at decision level `depth`, propagation pending).
        $(#[$feature])*
        fn run(search: &mut Search<'_>, state: &mut Triad9, mut depth: u64) -> Result<(), Stop> {
            loop {
                // The deferred template step, once, at the first node past its count; what it removes is sound
                // everywhere (no solution uses it), so every node from then on drops it before propagating,
                // the nodes on the stack included when the search comes back to them.
                if search.stats.nodes >= search.defer_at {
                    search.defer_at = u64::MAX;
                    if let Some(d) = search.deferred.take() {
                        let mut narrowed = d.configs;
                        crate::masks::templates::restrict(d.cand, &mut narrowed);
                        for (r, (was, now)) in search.removed.iter_mut().zip(d.configs.iter().zip(&narrowed)) {
                            *r = [was[0] & !now[0], was[1] & !now[1]];
                            search.any_removed |= r[0] | r[1] != 0;
                        }
                    }
                }
                if search.any_removed {
                    for (b, (band, r)) in state.bands.iter_mut().zip(&search.removed).enumerate() {
                        let e = [band.configs[0] & r[0], band.configs[1] & r[1]];
                        if e[0] | e[1] != 0 {
                            band.elims[0] |= e[0];
                            band.elims[1] |= e[1];
                            state.pending |= 1 << b;
                        }
                    }
                }
                if propagate(state).is_err() {
                    search.stats.fails += 1;
                    return Ok(());
                }
                let Some((band, d)) = state.choose() else {
                    // Every band fixed; the cells follow from the configurations (a box restriction ran after the
                    // last change of each band), but check them, as a wrong answer must never be reported.
                    if !state.cells_fixed() {
                        search.stats.fails += 1;
                        return Ok(());
                    }
                    search.count += 1;
                    if search.solution.is_none() {
                        search.solution = Some(state.grid());
                    }
                    return if search.count >= search.solution_limit {
                        Err(Stop::Enough)
                    } else {
                        Ok(())
                    };
                };
                search.stats.guesses += 1;
                depth += 1;
                search.stats.max_depth = search.stats.max_depth.max(depth);
                let bit = 1u16 << d;
                let configs = unpack(&state.bands[band].configs);
                let first = (0..6).find(|&k| configs[k] & bit != 0).unwrap_or(0);
                // First branch: digit d follows configuration `first` in this band.
                search.node()?;
                let mut child = *state;
                for k in 0..6 {
                    if k != first {
                        child.bands[band].elims[k / 4] |= u64::from(bit) << (16 * (k % 4));
                    }
                }
                child.pending |= 1 << band;
                run(search, &mut child, depth)?;
                // Second branch, in place: it does not.
                search.node()?;
                state.bands[band].elims[first / 4] |= u64::from(bit) << (16 * (first % 4));
                state.pending |= 1 << band;
            }
        }

        /// One whole solve: the root, then the search. See [`super::solve9_triad`].
        $(#[$feature])*
        pub(crate) fn solve(givens: &[u8; 81], solution_limit: u64, limits: &Limits) -> MaskResult<[u8; 81]> {
            finish(root(givens), solution_limit, limits, None)
        }

        /// The search below a root (or its conflict), and the result.
        $(#[$feature])*
        fn finish<'a>(
            root: Result<Triad9, Conflict>,
            solution_limit: u64,
            limits: &'a Limits,
            deferred: Option<Deferred<'a>>,
        ) -> MaskResult<[u8; 81]> {
            let mut search = Search {
                limits,
                start: limits.time.is_some().then(Instant::now),
                solution_limit: crate::masks::solution_cap(solution_limit),
                count: 0,
                solution: None,
                stats: Stats::default(),
                defer_at: deferred.map_or(u64::MAX, |d| d.at),
                deferred,
                removed: [[0; 2]; 6],
                any_removed: false,
            };
            let outcome = match root {
                Err(Conflict) => {
                    search.stats.fails += 1;
                    Outcome::Unsatisfiable
                }
                Ok(mut state) => Stop::outcome(run(&mut search, &mut state, 0), search.count),
            };
            search.stats.solutions = search.count;
            MaskResult {
                outcome,
                count: search.count,
                solution: search.solution,
                stats: search.stats,
            }
        }
    };
}

/// The search compiled for the default target (the test oracle of the other copy).
pub(super) mod portable {
    use super::*;
    search_functions!(
        BoxRows,
        box_mask,
        box_restrict,
        band_fixpoint,
        Triad9::send,
        restrict_each
    );
}

/// The search compiled with `avx2`, `popcnt`, `bmi1` and `bmi2`; only called after run-time detection.
#[cfg(target_arch = "x86_64")]
pub(super) mod x86 {
    use super::*;
    search_functions!(std::arch::x86_64::__m256i, simd::load, simd::avx2::box_restrict, simd::avx2::band_fixpoint, simd::send, simd::avx2::restrict_peers, #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]);
}

/// The same search compiled with AVX-512 (`avx512f`, `avx512vl`, `avx512bw`) on top of the [`x86`] copy's
/// features: the same AVX2 intrinsics, but the compiler gets 32 vector registers (no spills in the box
/// fixpoint) and fuses chains of logic operations into three-input `vpternlog`s, which shortens the box fixpoint
/// by about a third of its instructions. Only called after run-time detection.
#[cfg(target_arch = "x86_64")]
pub(super) mod x512 {
    use super::*;
    search_functions!(std::arch::x86_64::__m256i, simd::load, simd::avx512::box_restrict, simd::avx512::band_fixpoint, simd::send, simd::avx512::restrict_peers, #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,avx512f,avx512vl,avx512bw,avx512bitalg")]);
}

/// Solves a 9x9 grid given as 81 cells, row-major, 0 = empty and 1..=9 = given, with the triad inference; the
/// same contract as [`super::solve9`] (solution limit 0 = count all; clashing givens are unsatisfiable; a value
/// above 9 is an [`InputError`]).
pub fn solve9_triad(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
) -> Result<MaskResult<[u8; 81]>, InputError> {
    super::check_values9(givens)?;
    Ok(dispatch::solve(
        givens,
        solution_limit,
        limits,
        dispatch::Path::Best,
    ))
}

/// [`solve9_triad`] always on the copy of the search compiled for the default target, never the
/// feature-compiled one: for tests (the two must agree on everything) and measurements.
pub fn solve9_triad_portable(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
) -> Result<MaskResult<[u8; 81]>, InputError> {
    super::check_values9(givens)?;
    Ok(dispatch::solve(
        givens,
        solution_limit,
        limits,
        dispatch::Path::Portable,
    ))
}

/// triad9 below a root seeded from band9's fixpoint (`masks::solve9`'s route for puzzles band9's root leaves
/// open with many candidates): `configs` are the six bands' digit configurations built from band9's candidates
/// with [`CONF_LANES`], bands 0..3 horizontal and 3..6 vertical. They must be sound (every solution's
/// configurations among them); the solutions, their count and the outcome are then the puzzle's. The boxes start
/// from the configurations' triads alone: band9's candidates per cell, given as cell masks as well, changed no
/// guess on any set measured (`docs/measurements.md`, seventeenth session), as a given or a band9 elimination
/// is already in the configurations of its digit in both directions and triad9's box fixpoint derives the rest.
/// The statistics are triad9's search below this root (without the template step, its guesses equal those from
/// the givens on every public set).
///
/// `cand` are band9's candidates at that fixpoint, for the template step (`super::templates`): the
/// configurations on no template of their digit are taken out at the root when counting solutions, and after
/// [`TEMPLATES_AFTER_FIRST`] nodes (out of every node from then on) when looking for the first one.
pub(super) fn solve9_seeded(
    configs: &[[u64; 2]; 6],
    cand: &[u32; 32],
    solution_limit: u64,
    limits: &Limits,
    path: dispatch::Path,
) -> MaskResult<[u8; 81]> {
    dispatch::solve_seeded(configs, cand, solution_limit, limits, path)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use csp_core::rng::Rng;
    use csp_core::Limits;

    use super::dispatch::{self, Path};

    /// Random 9x9 puzzles: a solved grid from the test generator with 25..75 holes, every fourth with one cell
    /// overwritten (often unsatisfiable); with few holes the solution limit 0 (count all) is cheap.
    fn random_puzzles(seed: u64, rounds: usize) -> Vec<[u8; 81]> {
        let mut rng = Rng::new(seed);
        (0..rounds)
            .map(|round| {
                let grid = crate::fuzz_targets::random_solved_grid(3, rng.next_u64());
                let mut g: [u8; 81] = grid.cells().try_into().unwrap();
                let holes = 25 + rng.below_mod(50) as usize;
                for _ in 0..holes {
                    g[rng.below_mod(81) as usize] = 0;
                }
                if round % 4 == 0 {
                    g[rng.below_mod(81) as usize] = 1 + rng.below_mod(9) as u8;
                }
                g
            })
            .collect()
    }

    /// Requires `path` to return exactly what the portable copy returns (outcome, count, solution, statistics)
    /// at solution limits 1, 2 and, for puzzles with many givens, 0.
    fn agrees_with_portable(path: Path, puzzles: &[[u8; 81]]) {
        for givens in puzzles {
            let given = givens.iter().filter(|&&v| v != 0).count();
            let limits: &[u64] = if given > 36 { &[1, 2, 0] } else { &[1, 2] };
            for &limit in limits {
                let a = dispatch::solve(givens, limit, &Limits::none(), path);
                let b = dispatch::solve(givens, limit, &Limits::none(), Path::Portable);
                assert_eq!(a, b, "{path:?}, limit {limit}, puzzle {givens:?}");
            }
        }
    }

    /// The AVX2 copy (run only where the machine has AVX2, which the test reports) gives the portable copy's
    /// results and statistics on random unique, multi-solution and unsatisfiable puzzles. `Best` may be the
    /// AVX-512 copy, so this one is reached by its own path.
    #[test]
    fn the_avx2_copy_agrees_with_the_portable_copy_on_results_and_statistics() {
        eprintln!(
            "copy in use: {:?}",
            dispatch::choose(Path::Avx2, dispatch::detect())
        );
        agrees_with_portable(Path::Avx2, &random_puzzles(0x16_a2, 1500));
    }

    /// Two givens of one digit in one box (and in one row, one column, or only the box) are unsatisfiable at
    /// the root on every copy: no node, one fail, the same statistics as the portable copy.
    #[test]
    fn clashing_givens_in_one_box_fail_at_the_root_on_every_copy() {
        let classic =
            b"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let mut base = [0u8; 81];
        for (cell, &ch) in base.iter_mut().zip(classic.iter()) {
            *cell = if ch == b'.' { 0 } else { ch - b'0' };
        }
        // r1c3 = 5 clashes with r1c1 in row and box, r3c1 = 5 with it in column and box, r2c2 = 8 with r3c3
        // in the box only.
        for (cell, digit) in [(2, 5), (18, 5), (10, 8)] {
            let mut givens = base;
            givens[cell] = digit;
            for path in [Path::Best, Path::Avx2, Path::Portable] {
                let r = dispatch::solve(&givens, 2, &Limits::none(), path);
                assert_eq!(
                    r.outcome,
                    csp_core::Outcome::Unsatisfiable,
                    "{path:?}, cell {cell}"
                );
                assert_eq!(
                    (r.count, r.stats.nodes, r.stats.fails),
                    (0, 0, 1),
                    "{path:?}, cell {cell}"
                );
            }
        }
    }

    /// A box whose matrix row 1 leaves digits 2 and 5 only in cell (1, 0) (two hidden singles in one cell) is
    /// a conflict. Without that check the box was a fixpoint holding the cell as {2, 5}, while an order of
    /// propagation that met the two singles one at a time placed one digit and removed the other, so the
    /// result of propagation depended on its order (magictour_top1465, puzzle 137: one guess more in one order).
    #[test]
    fn two_hidden_singles_in_one_cell_are_a_conflict_of_the_box() {
        use super::{box_fixpoint, lane, BoxRows, ALL, ALL4, CELLS3, FULL_BOX};
        // Row 1: (1, 0) = {2, 5}, the other three lanes all digits but 2 and 5; the rest of the box open.
        let x = u64::from(ALL & !0x12);
        let row1 = 0x12 | x << 16 | x << 32 | x << 48;
        let stuck: BoxRows = [ALL4, row1, ALL4, CELLS3];
        let mut cells = FULL_BOX;
        assert!(box_fixpoint(&mut cells, &stuck).is_err());
        // With 5 also possible in (1, 2), the box is consistent: 2 goes to (1, 0), then 5 to (1, 2).
        let open: BoxRows = [ALL4, row1 | 0x10 << 32, ALL4, CELLS3];
        let mut cells = FULL_BOX;
        assert!(box_fixpoint(&mut cells, &open).unwrap().is_some());
        assert_eq!((lane(cells[1], 0), lane(cells[1], 2)), (0x02, 0x10));
    }

    /// One box restricted by masks reaches the fixpoint of the module doc's box rules, computed here one rule
    /// application at a time on a 4x4 matrix of digit sets (`m[r][j]`: cells for `r, j < 3`, `H_r` at `j = 3`,
    /// `V_j` at `r = 3`), and reports what that fixpoint asserts (`Found`): a cell holds a digit, a negative
    /// triad six; each clause (matrix row or column) holds every digit; a lane holding a clause's digit alone,
    /// or a cell or triad at its minimum, asserts it; an asserted cell loses its other digits, its digit leaves
    /// the other cells and the cell's two triads, a triad's asserted digits leave its minirow or minicolumn. Two
    /// restrictions in a row, each a superset of a random solved box (so the box stays consistent and the
    /// fixpoint is exact), and also arbitrary masks, compared where the rules end without a conflict (the
    /// SWAR box meets a digit placed twice in one round only through its bands, the module doc says, so a
    /// conflict of the rules is not required of it). A mask that removes nothing must return `Ok(None)`.
    #[test]
    fn a_box_restriction_reaches_the_fixpoint_of_the_box_rules_on_random_boxes() {
        use super::{box_fixpoint, lane, BoxRows, ALL, FULL_BOX};
        type Matrix = [[u16; 4]; 4];
        let to_rows = |m: &Matrix| -> BoxRows {
            std::array::from_fn(|r| (0..4).fold(0, |w, j| w | u64::from(m[r][j]) << (16 * j)))
        };
        let to_matrix = |b: &BoxRows| -> Matrix {
            std::array::from_fn(|r| std::array::from_fn(|j| lane(b[r], j)))
        };
        let count = |x: u16| x.count_ones();
        // The rules' fixpoint, `None` on a conflict.
        let reference = |mut m: Matrix| -> Option<Matrix> {
            loop {
                for r in 0..3 {
                    if (0..3).any(|j| m[r][j] == 0) || count(m[r][3]) < 6 || count(m[3][r]) < 6 {
                        return None;
                    }
                    if m[r].iter().fold(0, |u, &x| u | x) != ALL
                        || (0..4).fold(0, |u, i| u | m[i][r]) != ALL
                    {
                        return None;
                    }
                }
                let before = m;
                for r in 0..3 {
                    for j in 0..3 {
                        let x = m[r][j];
                        let in_row = (0..4).filter(|&k| k != j).fold(0, |u, k| u | m[r][k]);
                        let in_col = (0..4).filter(|&i| i != r).fold(0, |u, i| u | m[i][j]);
                        let mut asserted = x & (!in_row | !in_col);
                        if count(x) == 1 {
                            asserted |= x;
                        }
                        if count(asserted) > 1 {
                            return None;
                        }
                        if asserted == 0 {
                            continue;
                        }
                        for i in 0..3 {
                            for k in 0..3 {
                                if (i, k) != (r, j) {
                                    m[i][k] &= !asserted;
                                }
                            }
                        }
                        m[r][j] = asserted;
                        m[r][3] &= !asserted;
                        m[3][j] &= !asserted;
                    }
                }
                for t in 0..3 {
                    let (h, v) = (m[t][3], m[3][t]);
                    let h_out = if count(h) == 6 {
                        h
                    } else {
                        h & !(m[t][0] | m[t][1] | m[t][2])
                    };
                    let v_out = if count(v) == 6 {
                        v
                    } else {
                        v & !(m[0][t] | m[1][t] | m[2][t])
                    };
                    for k in 0..3 {
                        m[t][k] &= !h_out;
                        m[k][t] &= !v_out;
                    }
                }
                if m == before {
                    return Some(m);
                }
            }
        };
        // What the fixpoint `m` asserts, as `Found`'s fields.
        let found = |m: &Matrix| -> ([u16; 3], [u16; 3], [u16; 3], [u16; 3]) {
            let placed = |r: usize, j: usize| if count(m[r][j]) == 1 { m[r][j] } else { 0 };
            let pr = std::array::from_fn(|r| (0..3).fold(0, |u, j| u | placed(r, j)));
            let pc = std::array::from_fn(|j| (0..3).fold(0, |u, r| u | placed(r, j)));
            let nh = std::array::from_fn(|r| {
                let h = m[r][3];
                if count(h) == 6 {
                    h
                } else {
                    h & !(m[r][0] | m[r][1] | m[r][2])
                }
            });
            let nv = std::array::from_fn(|j| {
                let v = m[3][j];
                if count(v) == 6 {
                    v
                } else {
                    v & !(m[0][j] | m[1][j] | m[2][j])
                }
            });
            (pr, nh, pc, nv)
        };
        let mut rng = Rng::new(0xb0c5);
        let mut seen = [0usize; 4]; // unchanged, compared, a rule conflict, the fixpoint placed every cell
        for round in 0..6000 {
            let mut digits: Vec<u16> = (0..9).map(|d| 1 << d).collect();
            rng.shuffle(&mut digits);
            let mut truth: Matrix = [[0; 4]; 4];
            for r in 0..3 {
                for j in 0..3 {
                    truth[r][j] = digits[3 * r + j];
                }
            }
            for t in 0..3 {
                truth[t][3] = ALL & !(truth[t][0] | truth[t][1] | truth[t][2]);
                truth[3][t] = ALL & !(truth[0][t] | truth[1][t] | truth[2][t]);
            }
            let arbitrary = round % 4 == 3;
            let keep = [3, 6, 8][rng.below_usize(3)];
            let mut cells = FULL_BOX;
            let mut expected = Some(to_matrix(&FULL_BOX));
            for step in 0..2 {
                let mask: Matrix = std::array::from_fn(|r| {
                    std::array::from_fn(|j| {
                        if (r, j) == (3, 3) {
                            return 0;
                        }
                        let extra = (0..9)
                            .fold(0u16, |u, d| u | u16::from(rng.below_usize(10) < keep) << d);
                        if arbitrary {
                            extra
                        } else {
                            truth[r][j] | extra
                        }
                    })
                });
                let start = cells;
                let what = format!(
                    "round {round} step {step}: box {:?}, mask {mask:?}",
                    to_matrix(&start)
                );
                let result = box_fixpoint(&mut cells, &to_rows(&mask));
                let Some(before) = expected else { break };
                let removes = (0..4).any(|r| start[r] & !to_rows(&mask)[r] != 0);
                if !removes {
                    assert!(matches!(result, Ok(None)), "{what}: nothing removed");
                    assert_eq!(cells, start, "{what}: nothing removed");
                    seen[0] += 1;
                    continue;
                }
                let restricted: Matrix =
                    std::array::from_fn(|r| std::array::from_fn(|j| before[r][j] & mask[r][j]));
                expected = reference(restricted);
                let Some(fix) = expected else {
                    assert!(arbitrary, "{what}: a solved box's superset has no conflict");
                    seen[2] += 1;
                    break;
                };
                let got =
                    result.unwrap_or_else(|_| panic!("{what}: a conflict the rules do not find"));
                let got = got.unwrap_or_else(|| panic!("{what}: removals reported as none"));
                assert_eq!(to_matrix(&cells), fix, "{what}: the box");
                assert_eq!(
                    (got.pr, got.nh),
                    (found(&fix).0, found(&fix).1),
                    "{what}: minirows"
                );
                let lanes = |x: [u16; 3]| (0..3).fold(0u64, |w, j| w | u64::from(x[j]) << (16 * j));
                assert_eq!(
                    (got.pc, got.nv),
                    (lanes(found(&fix).2), lanes(found(&fix).3)),
                    "{what}: minicolumns"
                );
                seen[1] += 1;
                seen[3] += usize::from((0..3).all(|r| (0..3).all(|j| count(fix[r][j]) == 1)));
            }
        }
        assert!(seen.iter().all(|&s| s > 200), "outcomes {seen:?}");
    }

    /// The same for the copy `Best` picks (AVX-512 where the machine has it, which the test reports).
    #[test]
    fn conf_lanes_holds_exactly_the_configurations_that_fit_each_occupancy_key() {
        for key in 0..512usize {
            let got = super::CONF_LANES[key];
            for k in 0..6 {
                let fits = (0..3).all(|p| key >> (3 * p + super::PERM[k][p]) & 1 == 1);
                assert_eq!(
                    got[k / 4] >> (16 * (k % 4)) & 0xFFFF,
                    u64::from(fits),
                    "key {key:#b}, configuration {k}"
                );
            }
            assert_eq!(got[1] >> 32, 0, "lanes 6 and 7 stay empty, key {key}");
        }
    }

    #[test]
    fn the_best_copy_agrees_with_the_portable_copy_on_results_and_statistics() {
        eprintln!(
            "copy in use: {:?}",
            dispatch::choose(Path::Best, dispatch::detect())
        );
        agrees_with_portable(Path::Best, &random_puzzles(0x16_a5, 1500));
    }

    /// The state of a solved grid `g` as the search holds it at a leaf: every cell lane one digit, each negative
    /// triad the digits its minirow (minicolumn) lacks, and every band's digits on one configuration (which one
    /// does not matter to `grid`, `cells_fixed` or `choose`).
    fn solved_state(g: &[u8; 81]) -> super::Triad9 {
        use super::{Band, ALL, FULL_BOX};
        let mut boxes = [FULL_BOX; 9];
        for (b, rows) in boxes.iter_mut().enumerate() {
            let base = 27 * (b / 3) + 3 * (b % 3);
            let bit = |i: usize, j: usize| 1u16 << (g[base + 9 * i + j] - 1);
            for i in 0..3 {
                let mut row = 0u64;
                for j in 0..3 {
                    row |= u64::from(bit(i, j)) << (16 * j);
                }
                let minirow = bit(i, 0) | bit(i, 1) | bit(i, 2);
                rows[i] = row | u64::from(ALL & !minirow) << 48;
            }
            rows[3] = (0..3).fold(0, |w, j| {
                w | u64::from(ALL & !(bit(0, j) | bit(1, j) | bit(2, j))) << (16 * j)
            });
        }
        let band = Band {
            configs: [u64::from(ALL), 0],
            elims: [0; 2],
        };
        super::Triad9 {
            boxes,
            bands: [band; 6],
            pending: 0,
        }
    }

    /// A solved state gives back its grid and passes the leaf check; a cell left empty, or holding a second
    /// digit, fails it, alone or together with the same fault in the same place of another box (the two faults
    /// would cancel in an XOR), while the negative triads are not the check's business.
    #[test]
    fn the_leaf_check_accepts_one_digit_per_cell_and_the_grid_reads_it_back() {
        let mut rng = Rng::new(0x18_1eaf);
        for _ in 0..200 {
            let grid = crate::fuzz_targets::random_solved_grid(3, rng.next_u64());
            let g: [u8; 81] = grid.cells().try_into().unwrap();
            let state = solved_state(&g);
            assert_eq!(state.grid(), g);
            assert!(state.cells_fixed());
            // The negative triads may hold anything.
            let mut open = state;
            for rows in &mut open.boxes {
                for r in 0..3 {
                    rows[r] |= 0x1FF << 48;
                }
                rows[3] = super::CELLS3;
            }
            assert!(open.cells_fixed());
            let (b, i, j) = (
                rng.below_mod(9) as usize,
                rng.below_mod(3) as usize,
                rng.below_mod(3) as usize,
            );
            let other = (b + 1 + rng.below_mod(8) as usize) % 9;
            let extra = 1u64 << (16 * j + rng.below_mod(9) as usize);
            let lane_mask = 0x1FFu64 << (16 * j);
            for both in [false, true] {
                let mut empty = state;
                let mut twice = state;
                for bx in [b, other].into_iter().take(1 + usize::from(both)) {
                    empty.boxes[bx][i] &= !lane_mask;
                    let before = twice.boxes[bx][i];
                    twice.boxes[bx][i] |= extra;
                    if twice.boxes[bx][i] == before {
                        // The extra digit was the cell's own: take the next one.
                        twice.boxes[bx][i] |= (extra << 1 | extra >> 8) & lane_mask;
                    }
                }
                assert!(
                    !empty.cells_fixed(),
                    "empty cell ({i}, {j}) of box {b}, both {both}"
                );
                assert!(
                    !twice.cells_fixed(),
                    "two digits in ({i}, {j}) of box {b}, both {both}"
                );
            }
        }
    }

    /// `choose` follows its documented rule on random band states (every digit of every band keeps one to six
    /// configurations; many bands fixed): among the bands with more than nine configuration bits, the one with
    /// the fewest (the lowest on ties), and in it the digit with the fewest configurations above one (the
    /// lowest on ties); nothing when every band is fixed. The rule is recomputed here digit by digit.
    #[test]
    fn choose_picks_the_band_with_the_fewest_configurations_and_its_tightest_digit() {
        let mut rng = Rng::new(0x18_c405e);
        let mut state = solved_state(&[1; 81]);
        let mut seen_none = 0;
        for round in 0..3000 {
            // Per band and digit, the configurations it keeps (a bitset of six).
            let mut keep = [[0u8; 9]; 6];
            for band in &mut keep {
                let fixed = rng.below_mod(3) == 0 || round % 16 == 0;
                for d in band.iter_mut() {
                    *d = if fixed || rng.below_mod(4) != 0 {
                        1 << rng.below_mod(6)
                    } else {
                        1 + rng.below_mod(63) as u8
                    };
                }
            }
            for (band, digits) in state.bands.iter_mut().zip(&keep) {
                let mut lanes = [0u16; 6];
                for (d, &k) in digits.iter().enumerate() {
                    for (c, lane) in lanes.iter_mut().enumerate() {
                        if k >> c & 1 != 0 {
                            *lane |= 1 << d;
                        }
                    }
                }
                band.configs = super::pack(&lanes);
            }
            let mut want = None;
            let mut fewest = u32::MAX;
            for (i, digits) in keep.iter().enumerate() {
                let total: u32 = digits.iter().map(|k| k.count_ones()).sum();
                if total > 9 && total < fewest {
                    fewest = total;
                    let tightest = (0..9)
                        .filter(|&d| digits[d].count_ones() > 1)
                        .min_by_key(|&d| (digits[d].count_ones(), d));
                    want = tightest.map(|d| (i, d));
                }
            }
            seen_none += usize::from(want.is_none());
            assert_eq!(state.choose(), want, "bands {keep:?}");
        }
        assert!(seen_none > 50, "only {seen_none} fixed states");
    }

    /// `givens_mask` gives each box what its doc states, recomputed cell by cell on random givens (many with a
    /// digit twice in a box): a given cell keeps its digit unless the digit is given twice in the box (then
    /// nothing), an empty cell every digit not given in the box, a minirow's (minicolumn's) negative triad every
    /// digit not given in it, and the spare lane of row 3 nothing.
    #[test]
    fn the_givens_mask_of_a_box_is_the_documented_one() {
        use super::{givens_mask, lane, ALL};
        let mut rng = Rng::new(0x18_9e5);
        for _ in 0..2000 {
            let mut givens = [0u8; 81];
            let density = 1 + rng.below_mod(9);
            for v in givens.iter_mut() {
                if rng.below_mod(10) < density {
                    *v = 1 + rng.below_mod(9) as u8;
                }
            }
            for b in 0..9 {
                let base = 27 * (b / 3) + 3 * (b % 3);
                let at = |i: usize, j: usize| givens[base + 9 * i + j];
                let bit = |v: u8| if v == 0 { 0 } else { 1u16 << (v - 1) };
                let mut given = 0u16;
                let mut twice = 0u16;
                for i in 0..3 {
                    for j in 0..3 {
                        twice |= given & bit(at(i, j));
                        given |= bit(at(i, j));
                    }
                }
                let mask = givens_mask(&givens, base);
                for i in 0..3 {
                    for j in 0..3 {
                        let want = match at(i, j) {
                            0 => ALL & !given,
                            v => bit(v) & !twice,
                        };
                        assert_eq!(lane(mask[i], j), want, "cell ({i}, {j}) of box {b}");
                    }
                    let row = (0..3).fold(0, |m, j| m | bit(at(i, j)));
                    let col = (0..3).fold(0, |m, r| m | bit(at(r, i)));
                    assert_eq!(lane(mask[i], 3), ALL & !row, "minirow {i} of box {b}");
                    assert_eq!(lane(mask[3], i), ALL & !col, "minicolumn {i} of box {b}");
                }
                assert_eq!(mask[3] >> 48, 0, "row 3's spare lane of box {b}");
            }
        }
    }

    /// A box's message marks its band pending exactly when it removes a configuration the band still has and
    /// was not already sent (the vector copies' `send` computes the same bit without a branch), and the message
    /// joins the band's eliminations either way; the other bands' bits stay as they were. Random bands and
    /// messages, many of them already sent or removing only what is gone, some removing everything left.
    #[test]
    fn a_message_marks_its_band_pending_exactly_when_it_removes_something_new() {
        use super::ALL;
        let mut rng = Rng::new(0x18_5e4d);
        let lanes = [0x01FF_01FF_01FF_01FFu64, u64::from(ALL) * 0x1_0001];
        let mut state = solved_state(&[1; 81]);
        let mut kinds = [0usize; 2];
        for _ in 0..5000 {
            let band = rng.below_mod(6) as usize;
            let words = |rng: &mut Rng| [rng.next_u64() & lanes[0], rng.next_u64() & lanes[1]];
            let configs = words(&mut rng);
            let elims = words(&mut rng);
            let msg = match rng.below_mod(4) {
                // Only what the band no longer has or was already sent.
                0 => {
                    let m = words(&mut rng);
                    [
                        m[0] & (!configs[0] | elims[0]),
                        m[1] & (!configs[1] | elims[1]),
                    ]
                }
                // Everything the band has left.
                1 => [configs[0] & !elims[0], configs[1] & !elims[1]],
                _ => words(&mut rng),
            };
            state.bands[band].configs = configs;
            state.bands[band].elims = elims;
            let others = rng.next_u64() as u32 & 0x3F & !(1 << band);
            state.pending = others;
            state.send(band, &msg);
            let new = (msg[0] & configs[0] & !elims[0]) | (msg[1] & configs[1] & !elims[1]) != 0;
            kinds[usize::from(new)] += 1;
            assert_eq!(
                state.pending,
                others | u32::from(new) << band,
                "band {band}, {msg:x?}"
            );
            assert_eq!(state.bands[band].configs, configs);
            assert_eq!(
                state.bands[band].elims,
                [elims[0] | msg[0], elims[1] | msg[1]]
            );
        }
        assert!(
            kinds.iter().all(|&k| k > 1000),
            "nothing new / new: {kinds:?}"
        );
    }

    /// A band update with eliminations that remove nothing the band has reports nothing (and clears them); one
    /// that removes every configuration left, or leaves a positive triad with fewer than three digits, is a
    /// conflict. Hand-built bands on the six lanes (`PERM[0]` puts a digit in element `p` of peer `p`).
    #[test]
    fn a_band_update_reports_nothing_for_stale_eliminations_and_a_conflict_for_an_empty_band_or_short_triad(
    ) {
        use super::{band_fixpoint, pack, Band, ALL};
        let mut rng = Rng::new(0x18_ba4d);
        for _ in 0..500 {
            let lanes: [u16; 6] = std::array::from_fn(|_| rng.next_u64() as u16 & ALL);
            let mut stale: [u16; 6] = std::array::from_fn(|_| rng.next_u64() as u16 & ALL);
            for k in 0..6 {
                stale[k] &= !lanes[k];
            }
            let configs = pack(&lanes);
            for horizontal in [true, false] {
                // Only configurations already gone.
                let mut band = Band {
                    configs,
                    elims: pack(&stale),
                };
                assert!(band_fixpoint(&mut band, horizontal).unwrap().is_none());
                assert_eq!((band.configs, band.elims), (configs, [0; 2]));
                // Everything left (no stale bits beside it).
                if configs != [0; 2] {
                    let mut band = Band {
                        configs,
                        elims: configs,
                    };
                    assert!(band_fixpoint(&mut band, horizontal).is_err());
                }
            }
        }
        // Every digit on configuration 0 once digit 1's configuration 1 is gone: peer 0's triad of element 1
        // (configurations 1 and 4) is empty.
        for horizontal in [true, false] {
            let mut band = Band {
                configs: pack(&[ALL, 1, 0, 0, 0, 0]),
                elims: pack(&[0, 1, 0, 0, 0, 0]),
            };
            assert!(band_fixpoint(&mut band, horizontal).is_err());
        }
    }

    /// A band update reaches the fixpoint its doc states, recomputed here digit by digit on random bands (each
    /// digit on one to six configurations, some of them eliminated): round by round, a conflict when a digit has
    /// no configuration left or a positive triad fewer than three digits, else every digit of a three-digit
    /// triad loses its configurations that put it in another element of that peer. At the fixpoint, the box
    /// masks are `peer_mask` of the triads and the peers reported are those whose triads changed.
    #[test]
    fn a_band_update_reaches_its_documented_fixpoint_on_random_bands() {
        use super::{band_fixpoint, pack, peer_mask, unpack, Band, PERM};
        // Per digit, the configurations it keeps (bit k: `PERM[k]`), as the band's lanes.
        let lanes = |keep: &[u8; 9]| -> [u16; 6] {
            std::array::from_fn(|k| (0..9).fold(0, |m, d| m | u16::from(keep[d] >> k & 1) << d))
        };
        let triads = |keep: &[u8; 9]| -> [[u16; 3]; 3] {
            let mut t = [[0u16; 3]; 3];
            for d in 0..9 {
                for k in 0..6 {
                    if keep[d] >> k & 1 != 0 {
                        for p in 0..3 {
                            t[p][PERM[k][p]] |= 1 << d;
                        }
                    }
                }
            }
            t
        };
        let mut rng = Rng::new(0x18_f1c5);
        let mut kinds = [0usize; 3];
        for round in 0..4000 {
            let before: [u8; 9] = std::array::from_fn(|_| {
                if rng.below_mod(3) == 0 {
                    1 << rng.below_mod(6)
                } else {
                    1 + rng.below_mod(63) as u8
                }
            });
            let elims: [u8; 9] = std::array::from_fn(|_| {
                if rng.below_mod(2) == 0 {
                    0
                } else {
                    rng.below_mod(64) as u8 & rng.below_mod(64) as u8
                }
            });
            let mut keep: [u8; 9] = std::array::from_fn(|d| before[d] & !elims[d]);
            let want = if keep == before {
                None
            } else {
                loop {
                    if keep.contains(&0) {
                        break Some(None);
                    }
                    let t = triads(&keep);
                    if t.iter().flatten().any(|x| x.count_ones() < 3) {
                        break Some(None);
                    }
                    let mut next = keep;
                    for p in 0..3 {
                        for e in 0..3 {
                            if t[p][e].count_ones() == 3 {
                                for d in 0..9 {
                                    if t[p][e] >> d & 1 != 0 {
                                        for k in 0..6 {
                                            if PERM[k][p] != e {
                                                next[d] &= !(1 << k);
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    if next == keep {
                        break Some(Some(keep));
                    }
                    keep = next;
                }
            };
            let horizontal = round % 2 == 0;
            let mut band = Band {
                configs: pack(&lanes(&before)),
                elims: pack(&lanes(&elims)),
            };
            let got = band_fixpoint(&mut band, horizontal);
            assert_eq!(band.elims, [0; 2]);
            match want {
                None => {
                    assert!(got.unwrap().is_none(), "{before:?} {elims:?}");
                    kinds[0] += 1;
                }
                Some(None) => {
                    assert!(got.is_err(), "{before:?} {elims:?}");
                    kinds[1] += 1;
                }
                Some(Some(keep)) => {
                    let (masks, peers) = got.unwrap().unwrap();
                    assert_eq!(unpack(&band.configs), lanes(&keep), "{before:?} {elims:?}");
                    let (t, old) = (triads(&keep), triads(&before));
                    let changed = (0..3)
                        .filter(|&p| t[p] != old[p])
                        .fold(0, |m, p| m | 1 << p);
                    assert_eq!(peers, changed, "{before:?} {elims:?}");
                    for p in 0..3 {
                        assert_eq!(masks[p], peer_mask(&t[p], horizontal), "peer {p}");
                    }
                    kinds[2] += 1;
                }
            }
        }
        assert!(
            kinds.iter().all(|&k| k > 300),
            "unchanged / conflict / fixpoint: {kinds:?}"
        );
    }

    /// Summed over random puzzles (solution limits 1 and 2, and 0 with many givens) and the shipped hard 9x9
    /// files (limits 1 and 2), `[solutions, nodes, guesses, fails, sum of the maximum depths]` of the triad
    /// search are the figures measured for its propagation and branching rule. The answers do not depend on the
    /// rule (the search is complete and every leaf checked), and the copies are compared with each other, not
    /// with a figure, so a change to the code they share (`choose`, `givens_mask`, the leaf check) is otherwise
    /// invisible. A deliberate change of the rule changes these figures; update them with the measurements.
    #[test]
    fn the_triad_search_statistics_on_fixed_puzzles_are_the_measured_ones() {
        let total = |puzzles: &[[u8; 81]], limit: u64| {
            crate::masks::tests::summed_stats(puzzles, |g| {
                let r = dispatch::solve(g, limit, &Limits::none(), Path::Portable);
                (r.count, r.stats)
            })
        };
        let random = random_puzzles(0x18_57a7, 600);
        let many: Vec<[u8; 81]> = random
            .iter()
            .filter(|g| g.iter().filter(|&&v| v != 0).count() > 36)
            .copied()
            .collect();
        let hard = crate::masks::tests::shipped_9x9(&[
            "famous/top95.txt",
            "generated/9x9-hard.txt",
            "generated/9x9-minimal.txt",
        ]);
        let got = [
            total(&random, 1),
            total(&random, 2),
            total(&many, 0),
            total(&hard, 1),
            total(&hard, 2),
        ];
        // [solutions, nodes, guesses, fails, sum of the maximum depths]
        let measured = [
            [469, 420, 416, 135, 416],
            [662, 655, 458, 135, 458],
            [739, 708, 354, 110, 219],
            [795, 2597, 1569, 1028, 1216],
            [795, 4400, 2200, 2200, 1349],
        ];
        assert_eq!(
            got,
            measured,
            "random 1, 2, all ({} countable); hard 1, 2 ({})",
            many.len(),
            hard.len()
        );
    }
}
