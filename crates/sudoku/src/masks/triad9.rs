//! A second 9x9 solver with the inference of tdoku's triad design (issue 16), written from its documented idea:
//! boxes hold cells *and* negative triads, bands in both directions hold their digits' configurations, and the
//! search branches on a band configuration rather than on a cell. Reached as [`solve9_triad`]; the registry's
//! `fast` still runs [`super::solve9`] (figures against it in `docs/measurements.md`, "triad9").
//!
//! State of one node (480 bytes, copied on a guess):
//!
//! ```text
//!   box b (3x3 boxes, row-major), 16 lanes of 9-bit digit sets:      band (3 horizontal, 3 vertical):
//!     +----+----+----+----+                                           configs[k], k in 0..6: the digits whose
//!     | c00| c01| c02| H0 |   cij: candidates of the cell              three minirows (minicolumns) in the
//!     | c10| c11| c12| H1 |   Hi : digits NOT in minirow i               band's three boxes follow
//!     | c20| c21| c22| H2 |   Vj : digits NOT in minicolumn j            permutation PERM[k] (box -> element);
//!     | V0 | V1 | V2 | -- |                                            elims[k]: removals not yet applied.
//!     +----+----+----+----+
//! ```
//!
//! Constraints (per digit): in each of the box's rows 0..2 and columns 0..2 of that matrix, exactly one of the
//! four lanes holds the digit (it is in one cell of the minirow, or the minirow lacks it); a cell has at least
//! one digit; a negative triad has at least six (a minirow holds three digits). Per band and digit, exactly one
//! configuration. The two meet through positive triads: `T[p][e]` = digits with a configuration that puts them
//! in element `e` of the band's box `p`; the box's cells of element `e` keep only `T[p][e]`, its negative triad
//! of `e` only the digits of the other two elements' triads; a positive triad with three digits asserts them.
//!
//! Propagation is a worklist over the six bands: a band with pending eliminations applies them, asserts its
//! three-digit triads, then restricts its three boxes; a box restriction runs the box to its own fixpoint
//! (naked singles, hidden singles in matrix rows/columns, six-digit negative triads) and sends what it asserted
//! (a digit in a minirow/minicolumn, or not in it) to its two bands as eliminations.
//!
//! Written in plain array code (the lanes loops vectorise); no `unsafe`, no SIMD intrinsics.

// Loops index several lane arrays by the same matrix coordinates; iterators would hide the layout.
#![allow(clippy::needless_range_loop)]

use std::time::Instant;

use csp_core::{LimitKind, Limits, Outcome, Stats};

use super::{InputError, MaskResult};

/// All nine digits.
const ALL: u16 = 0x1FF;

/// Box lanes: cell (i, j) at `4i + j`, negative horizontal triad of minirow i at `4i + 3`, negative vertical
/// triad of minicolumn j at `12 + j`, lane 15 unused (always 0).
const fn cell_lane(i: usize, j: usize) -> usize {
    4 * i + j
}

/// The six permutations of a band's three boxes (peers) onto three elements (minirows of a horizontal band,
/// minicolumns of a vertical one): `PERM[k][p]` is the element digit's configuration `k` uses in peer `p`.
const PERM: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [0, 2, 1],
    [1, 0, 2],
    [2, 1, 0],
];

/// `IN[p][e][k]`: all ones when configuration `k` puts the digit in element `e` of peer `p`.
const IN: [[[u16; 6]; 3]; 3] = {
    let mut t = [[[0u16; 6]; 3]; 3];
    let mut p = 0;
    while p < 3 {
        let mut k = 0;
        while k < 6 {
            t[p][PERM[k][p]][k] = 0xFFFF;
            k += 1;
        }
        p += 1;
    }
    t
};

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

/// Lane minimums: a cell needs one digit, a negative triad six; lane 15 none.
const MIN: [u16; 16] = [1, 1, 1, 6, 1, 1, 1, 6, 1, 1, 1, 6, 6, 6, 6, 0];

/// A box with nothing known: every lane all digits but the unused one.
const FULL_BOX: [u16; 16] = [
    ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, 0,
];

/// Propagation found a contradiction.
#[derive(Debug)]
struct Conflict;

/// One band's state.
#[derive(Clone, Copy)]
struct Band {
    /// `configs[k]`: digits that may still follow permutation `PERM[k]`; lanes 6 and 7 stay 0. Invariant at a
    /// fixpoint: every digit has at least one configuration.
    configs: [u16; 8],
    /// Removals from `configs` sent by boxes and guesses, applied at the band's next update.
    elims: [u16; 8],
}

/// The search state of one node.
#[derive(Clone, Copy)]
struct Triad9 {
    /// Boxes row-major; lanes as [`cell_lane`] says. Invariant: a lane only loses digits.
    boxes: [[u16; 16]; 9],
    /// Bands 0..3 horizontal (box rows), 3..6 vertical (box columns).
    bands: [Band; 6],
    /// Bit `i` set when band `i` may have eliminations to apply.
    pending: u32,
}

/// The number of digits in each lane (vectorises as 16 lanes of 16 bits).
#[inline(always)]
fn popcounts(x: &[u16; 16]) -> [u16; 16] {
    let mut out = [0u16; 16];
    for (o, &v) in out.iter_mut().zip(x) {
        let a = v - ((v >> 1) & 0x5555);
        let b = (a & 0x3333) + ((a >> 2) & 0x3333);
        let c = (b + (b >> 4)) & 0x0F0F;
        *o = (c + (c >> 8)) & 0x1F;
    }
    out
}

/// Digits present in exactly one of four sets, and whether all nine appear at all.
#[inline(always)]
fn once_of_four(a: u16, b: u16, c: u16, d: u16) -> (u16, u16) {
    let one = a | b | c | d;
    let two = (a & b) | (c & d) | ((a | b) & (c | d));
    (one & !two, one)
}

impl Triad9 {
    /// The root: empty boxes and bands, then each box restricted by its givens, then propagation.
    fn from_givens(givens: &[u8; 81]) -> Result<Self, Conflict> {
        let mut state = Triad9 {
            boxes: [FULL_BOX; 9],
            bands: [Band {
                configs: [ALL, ALL, ALL, ALL, ALL, ALL, 0, 0],
                elims: [0; 8],
            }; 6],
            pending: 0,
        };
        let mut masks = [FULL_BOX; 9];
        for (cell, &v) in givens.iter().enumerate() {
            if v == 0 || v > 9 {
                continue;
            }
            let bit = 1u16 << (v - 1);
            let (r, c) = (cell / 9, cell % 9);
            let (i, j) = (r % 3, c % 3);
            let mask = &mut masks[(r / 3) * 3 + c / 3];
            for ii in 0..3 {
                for jj in 0..3 {
                    mask[cell_lane(ii, jj)] &= if (ii, jj) == (i, j) { bit } else { !bit };
                }
            }
            mask[4 * i + 3] &= !bit;
            mask[12 + j] &= !bit;
        }
        for (b, mask) in masks.iter().enumerate() {
            state.restrict(b, mask)?;
        }
        Ok(state)
    }

    /// Restricts box `b` to `mask` (lane-wise), runs the box to its fixpoint and sends its assertions to its
    /// horizontal and vertical band.
    fn restrict(&mut self, b: usize, mask: &[u16; 16]) -> Result<(), Conflict> {
        let cells = &mut self.boxes[b];
        let mut elim = [0u16; 16];
        let mut any = 0;
        for l in 0..16 {
            elim[l] = cells[l] & !mask[l];
            any |= elim[l];
        }
        if any == 0 {
            return Ok(());
        }
        let (mut pr, mut pc, mut nh, mut nv);
        loop {
            for l in 0..16 {
                cells[l] &= !elim[l];
            }
            let counts = popcounts(cells);
            let mut bad = 0u16;
            let mut asserted = [0u16; 16];
            for l in 0..16 {
                bad |= u16::from(counts[l] < MIN[l]);
                asserted[l] = if counts[l] == MIN[l] { cells[l] } else { 0 };
            }
            if bad != 0 {
                return Err(Conflict);
            }
            // Hidden singles of the exactly-one clauses: matrix rows 0..2 and columns 0..2.
            for i in 0..3 {
                let (single, seen) = once_of_four(
                    cells[4 * i],
                    cells[4 * i + 1],
                    cells[4 * i + 2],
                    cells[4 * i + 3],
                );
                if seen != ALL {
                    return Err(Conflict);
                }
                for l in 4 * i..4 * i + 4 {
                    asserted[l] |= cells[l] & single;
                }
            }
            for j in 0..3 {
                let (single, seen) =
                    once_of_four(cells[j], cells[j + 4], cells[j + 8], cells[j + 12]);
                if seen != ALL {
                    return Err(Conflict);
                }
                for l in [j, j + 4, j + 8, j + 12] {
                    asserted[l] |= cells[l] & single;
                }
            }
            pr = [0u16; 3];
            pc = [0u16; 3];
            let mut all = 0u16;
            for i in 0..3 {
                for j in 0..3 {
                    let a = asserted[cell_lane(i, j)];
                    pr[i] |= a;
                    pc[j] |= a;
                    all |= a;
                }
            }
            nh = [asserted[3], asserted[7], asserted[11]];
            nv = [asserted[12], asserted[13], asserted[14]];
            let mut next = [0u16; 16];
            let mut any = 0;
            for i in 0..3 {
                for j in 0..3 {
                    let l = cell_lane(i, j);
                    let a = asserted[l];
                    let others = if a != 0 { ALL & !a } else { 0 };
                    next[l] = ((all & !a) | others | nh[i] | nv[j]) & cells[l];
                    any |= next[l];
                }
                next[4 * i + 3] = pr[i] & cells[4 * i + 3];
                next[12 + i] = pc[i] & cells[12 + i];
                any |= next[4 * i + 3] | next[12 + i];
            }
            if any == 0 {
                break;
            }
            elim = next;
        }
        // Messages: a digit asserted in element e of this box removes the configurations that put it elsewhere;
        // a digit asserted absent removes those that put it there.
        let (bi, bj) = (b / 3, b % 3);
        self.send(bi, bj, &pr, &nh);
        self.send(3 + bj, bi, &pc, &nv);
        Ok(())
    }

    /// Adds the eliminations from peer `p`'s assertions (`pos[e]`: digits in element `e`, `neg[e]`: digits not
    /// in it) to band `band`.
    #[inline(always)]
    fn send(&mut self, band: usize, p: usize, pos: &[u16; 3], neg: &[u16; 3]) {
        let mut msg = [0u16; 8];
        for e in 0..3 {
            for k in 0..6 {
                let m = IN[p][e][k];
                msg[k] |= (neg[e] & m) | (pos[e] & !m);
            }
        }
        let target = &mut self.bands[band];
        let mut any = 0;
        for k in 0..8 {
            any |= msg[k] & target.configs[k] & !target.elims[k];
            target.elims[k] |= msg[k];
        }
        if any != 0 {
            self.pending |= 1 << band;
        }
    }

    /// Positive triads of a band: `t[p][e]`.
    #[inline(always)]
    fn triads(configs: &[u16; 8]) -> [[u16; 3]; 3] {
        let mut t = [[0u16; 3]; 3];
        for (p, row) in t.iter_mut().enumerate() {
            for (e, x) in row.iter_mut().enumerate() {
                let [k1, k2] = AT[p][e];
                *x = configs[k1] | configs[k2];
            }
        }
        t
    }

    /// Applies band `band`'s pending eliminations, asserts its three-digit triads, and restricts its boxes.
    fn update_band(&mut self, band: usize) -> Result<(), Conflict> {
        let b = &mut self.bands[band];
        let mut changed = 0;
        for k in 0..8 {
            changed |= b.configs[k] & b.elims[k];
            b.configs[k] &= !b.elims[k];
            b.elims[k] = 0;
        }
        if changed == 0 {
            return Ok(());
        }
        let mut t;
        loop {
            let c = &mut b.configs;
            if (c[0] | c[1] | c[2] | c[3] | c[4] | c[5]) != ALL {
                return Err(Conflict);
            }
            t = Self::triads(c);
            let mut removed = 0u16;
            for p in 0..3 {
                for e in 0..3 {
                    let x = t[p][e];
                    let n = x.count_ones();
                    if n < 3 {
                        return Err(Conflict);
                    }
                    if n == 3 {
                        for k in 0..6 {
                            let drop = x & !IN[p][e][k];
                            removed |= c[k] & drop;
                            c[k] &= !drop;
                        }
                    }
                }
            }
            if removed == 0 {
                break;
            }
        }
        let vertical = band >= 3;
        let line = band % 3;
        for p in 0..3 {
            let mut mask = FULL_BOX;
            for e in 0..3 {
                let neg = t[p][(e + 1) % 3] | t[p][(e + 2) % 3];
                for x in 0..3 {
                    // Element e is minirow e (horizontal) or minicolumn e (vertical).
                    let l = if vertical {
                        cell_lane(x, e)
                    } else {
                        cell_lane(e, x)
                    };
                    mask[l] = t[p][e];
                }
                mask[if vertical { 12 + e } else { 4 * e + 3 }] = neg;
            }
            let bx = if vertical { 3 * p + line } else { 3 * line + p };
            self.restrict(bx, &mask)?;
        }
        Ok(())
    }

    /// Runs the worklist until no band has eliminations left.
    fn propagate(&mut self) -> Result<(), Conflict> {
        while self.pending != 0 {
            let band = self.pending.trailing_zeros() as usize;
            self.pending &= self.pending - 1;
            self.update_band(band % 6)?;
        }
        Ok(())
    }

    /// The band and digit to branch on: among bands with a digit of two or more configurations, the one with
    /// the fewest configuration bits in total, and in it the digit with the fewest configurations (the lowest
    /// on ties). `None` when every digit of every band has one configuration: solved.
    fn choose(&self) -> Option<(usize, usize)> {
        let mut best = (usize::MAX, u32::MAX);
        for (i, b) in self.bands.iter().enumerate() {
            let total: u32 = b.configs.iter().map(|c| c.count_ones()).sum();
            if total > 9 && total < best.1 {
                best = (i, total);
            }
        }
        if best.0 == usize::MAX {
            return None;
        }
        let c = &self.bands[best.0].configs;
        let mut pick = (0usize, u32::MAX);
        for d in 0..9 {
            let n: u32 = c[..6].iter().map(|&x| u32::from(x >> d & 1)).sum();
            if n >= 2 && n < pick.1 {
                pick = (d, n);
            }
        }
        Some((best.0, pick.0))
    }

    /// The grid as digits 1..=9, row-major. Only meaningful when solved.
    fn grid(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for (b, cells) in self.boxes.iter().enumerate() {
            for i in 0..3 {
                for j in 0..3 {
                    let cell = (3 * (b / 3) + i) * 9 + 3 * (b % 3) + j;
                    out[cell] = cells[cell_lane(i, j)].trailing_zeros() as u8 + 1;
                }
            }
        }
        out
    }

    /// Whether every cell holds one digit (checked at a leaf; see [`Search::run`]).
    fn cells_fixed(&self) -> bool {
        self.boxes
            .iter()
            .all(|cells| (0..3).all(|i| (0..3).all(|j| cells[cell_lane(i, j)].count_ones() == 1)))
    }
}

/// Why the search stopped early.
enum Stop {
    /// The solution limit was reached.
    Enough,
    /// A resource limit was reached.
    Limit(LimitKind),
}

/// One search: the limits, the counters and the first solution.
struct Search<'a> {
    limits: &'a Limits,
    start: Option<Instant>,
    solution_limit: u64,
    count: u64,
    solution: Option<[u8; 81]>,
    stats: Stats,
}

impl Search<'_> {
    /// Counts a node and checks the limits.
    fn node(&mut self) -> Result<(), Stop> {
        self.stats.nodes += 1;
        match super::limit_reached(self.limits, self.stats.nodes, self.start) {
            Some(kind) => Err(Stop::Limit(kind)),
            None => Ok(()),
        }
    }

    /// Depth-first search below `state` (at decision level `depth`, propagation pending).
    fn run(&mut self, state: &mut Triad9, mut depth: u64) -> Result<(), Stop> {
        loop {
            if state.propagate().is_err() {
                self.stats.fails += 1;
                return Ok(());
            }
            let Some((band, d)) = state.choose() else {
                // Every band fixed; the cells follow from the configurations (a box restriction ran after the
                // last change of each band), but check them, as a wrong answer must never be reported.
                if !state.cells_fixed() {
                    self.stats.fails += 1;
                    return Ok(());
                }
                self.count += 1;
                if self.solution.is_none() {
                    self.solution = Some(state.grid());
                }
                return if self.count >= self.solution_limit {
                    Err(Stop::Enough)
                } else {
                    Ok(())
                };
            };
            self.stats.guesses += 1;
            depth += 1;
            self.stats.max_depth = self.stats.max_depth.max(depth);
            let bit = 1u16 << d;
            let configs = state.bands[band].configs;
            let first = (0..6).find(|&k| configs[k] & bit != 0).unwrap_or(0);
            // First branch: digit d follows configuration `first` in this band.
            self.node()?;
            let mut child = *state;
            for k in 0..6 {
                if k != first {
                    child.bands[band].elims[k] |= bit;
                }
            }
            child.pending |= 1 << band;
            self.run(&mut child, depth)?;
            // Second branch, in place: it does not.
            self.node()?;
            state.bands[band].elims[first] |= bit;
            state.pending |= 1 << band;
        }
    }
}

/// Solves a 9x9 grid given as 81 cells, row-major, 0 = empty and 1..=9 = given, with the triad inference; the
/// same contract as [`super::solve9`] (solution limit 0 = count all; clashing givens are unsatisfiable; a value
/// above 9 is an [`InputError`]).
pub fn solve9_triad(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
) -> Result<MaskResult<[u8; 81]>, InputError> {
    if let Some(cell) = givens.iter().position(|&v| v > 9) {
        return Err(InputError::BadValue {
            cell,
            value: givens[cell],
            size: 9,
        });
    }
    let mut search = Search {
        limits,
        start: limits.time.is_some().then(Instant::now),
        solution_limit: if solution_limit == 0 {
            u64::MAX
        } else {
            solution_limit
        },
        count: 0,
        solution: None,
        stats: Stats::default(),
    };
    let outcome = match Triad9::from_givens(givens) {
        Err(Conflict) => {
            search.stats.fails += 1;
            Outcome::Unsatisfiable
        }
        Ok(mut root) => match search.run(&mut root, 0) {
            Ok(()) if search.count == 0 => Outcome::Unsatisfiable,
            Ok(()) | Err(Stop::Enough) => Outcome::Solved,
            Err(Stop::Limit(kind)) => Outcome::Limit(kind),
        },
    };
    search.stats.solutions = search.count;
    Ok(MaskResult {
        outcome,
        count: search.count,
        solution: search.solution,
        stats: search.stats,
    })
}
