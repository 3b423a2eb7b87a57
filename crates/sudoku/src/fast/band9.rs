//! The 9x9 solver: candidates as board-wide bitboards, one 27-bit band per digit (the JCZSolve family of designs,
//! written here from the idea, not from any of its code).
//!
//! For each digit `d` and band `b` (rows `3b..3b+3`), `cand[3d + b]` holds the cells of the band where `d` may still
//! go (layout in [`super::tables`]). Propagation, to a fixpoint:
//!
//! 1. *Band update* of one digit in one band, whenever its bits changed: one table lookup keeps only the minirows
//!    that lie on a valid row->box permutation (locked candidates + box hidden singles); a row left with one cell
//!    is a hidden single, which is placed: the cell leaves the other digits and its column leaves the digit's other
//!    two bands.
//! 2. *Naked singles*: bit-sliced counting over the nine digits finds, per band, the unsolved cells with no
//!    candidate (conflict) and with exactly one (placed).
//! 3. *Column hidden singles*, only when 1 and 2 are stuck: the same counting down each digit's nine rows.
//!
//! Then the search guesses on a cell with the fewest candidates (a bi-value cell when one exists), copying the
//! whole state (about 230 bytes, on the call stack) for every branch but the last, which continues in place.

use std::time::Instant;

use csp_core::{LimitKind, Limits, Outcome, Stats};

use super::tables::{BAND, CELL_KEEP, COL_SPREAD, KEEP, MINIROWS};
use super::{FastResult, InputError};

/// Propagation found a contradiction: some cell or some digit of some house has no place left.
#[derive(Debug)]
struct Conflict;

/// The search state of one node. Copied whole on a guess.
#[derive(Clone, Copy)]
struct Board9 {
    /// `cand[3d + b]`: cells of band `b` where digit `d` (0-based) may go, placed cells included.
    /// Invariant: a placed cell appears in exactly one digit's band (its own). Entries 27..32 stay 0; the array has
    /// 32 entries so that an index taken from a 32-bit mask needs no bounds check.
    cand: [u32; 32],
    /// `unsolved[b]`: cells of band `b` not yet placed. A placed cell's peers have already lost its digit.
    unsolved: [u32; 4],
    /// Bit `3d + b` set: `cand[3d + b]` changed since its last band update.
    dirty: u32,
}

impl Board9 {
    /// Builds the root state from givens (0 = empty, 1..=9), or reports a clash as a conflict.
    fn from_givens(givens: &[u8; 81]) -> Result<Board9, Conflict> {
        // Houses holding each digit: bit r of rows[d], bit c of cols[d], bit x of boxes[d].
        let mut rows = [0u32; 9];
        let mut cols = [0u32; 9];
        let mut boxes = [0u32; 9];
        // placed[d][b]: given cells of digit d in band b; taken[b]: all given cells of band b.
        let mut placed = [[0u32; 4]; 9];
        let mut taken = [0u32; 4];
        for (i, &v) in givens.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let d = (v as usize - 1) % 9;
            let (r, c) = (i / 9, i % 9);
            let x = (r / 3) * 3 + c / 3;
            if (rows[d] >> r | cols[d] >> c | boxes[d] >> x) & 1 != 0 {
                return Err(Conflict);
            }
            rows[d] |= 1 << r;
            cols[d] |= 1 << c;
            boxes[d] |= 1 << x;
            let bit = 1 << ((r % 3) * 9 + c);
            placed[d][r / 3] |= bit;
            taken[r / 3] |= bit;
        }
        let mut cand = [0u32; 32];
        for d in 0..9 {
            let col_block = (cols[d] * COL_SPREAD) & BAND;
            for b in 0..3 {
                let band_rows = (rows[d] >> (3 * b)) & 7;
                let row_block = ((band_rows & 1) * 0x1FF)
                    | ((band_rows >> 1 & 1) * (0x1FF << 9))
                    | ((band_rows >> 2 & 1) * (0x1FF << 18));
                let band_boxes = (boxes[d] >> (3 * b)) & 7;
                let box_block = ((band_boxes & 1) * (7 * COL_SPREAD))
                    | ((band_boxes >> 1 & 1) * ((7 * COL_SPREAD) << 3))
                    | ((band_boxes >> 2 & 1) * ((7 * COL_SPREAD) << 6));
                let free = BAND & !(taken[b] | row_block | col_block | box_block);
                cand[3 * d + b] = free | placed[d][b];
            }
        }
        Ok(Board9 {
            cand,
            unsolved: [BAND & !taken[0], BAND & !taken[1], BAND & !taken[2], 0],
            dirty: (1 << 27) - 1,
        })
    }

    /// `cand[i] &= keep`, marking `i` dirty when that removed something.
    #[inline(always)]
    fn and(&mut self, i: usize, keep: u32) {
        let i = i & 31;
        let old = self.cand[i];
        let new = old & keep;
        self.cand[i] = new;
        self.dirty |= u32::from(new != old) << i;
    }

    /// Places digit `d` at `cell` of band `b`; the digit leaves the cell's peers. The caller has removed (or knows
    /// there are no) other digits at the cell.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, cell: usize) {
        let cell = cell % 27;
        let col = cell % 9;
        self.and(3 * d + b, CELL_KEEP[cell]);
        let not_col = !(COL_SPREAD << col);
        self.and(3 * d + (b + 1) % 3, not_col);
        self.and(3 * d + (b + 2) % 3, not_col);
        self.unsolved[b & 3] &= !(1 << cell);
    }

    /// Places digit `d` at `cell` of band `b` as a decision: every other digit leaves the cell first.
    fn assign(&mut self, d: usize, b: usize, cell: usize) {
        let keep = !(1u32 << (cell % 27));
        for e in 0..9 {
            if e != d {
                self.and(3 * e + b, keep);
            }
        }
        self.place(d, b, cell);
    }

    /// Band update of entry `i` (digit `i / 3`, band `i % 3`): see the module doc, step 1.
    #[inline(always)]
    fn update_band(&mut self, i: usize) -> Result<(), Conflict> {
        let i = i & 31;
        let (d, b) = (i / 3, i % 3);
        let a = self.cand[i];
        let m = MINIROWS[(a & 0x1FF) as usize] as usize
            | (MINIROWS[(a >> 9 & 0x1FF) as usize] as usize) << 3
            | (MINIROWS[(a >> 18 & 0x1FF) as usize] as usize) << 6;
        let a = a & KEEP[m & 511];
        if a == 0 {
            return Err(Conflict);
        }
        self.cand[i] = a;
        // Rows of the band holding exactly one cell of the digit.
        let mut single = 0;
        for r in 0..3 {
            let x = (a >> (9 * r)) & 0x1FF;
            if x & (x - 1) == 0 {
                single |= x << (9 * r);
            }
        }
        let new = single & self.unsolved[b & 3];
        if new != 0 {
            self.unsolved[b & 3] &= !new;
            for e in 0..9 {
                if e != d {
                    self.and(3 * e + b, !new);
                }
            }
            let cols = (new | new >> 9 | new >> 18) & 0x1FF;
            let not_cols = !(cols * COL_SPREAD);
            self.and(3 * d + (b + 1) % 3, not_cols);
            self.and(3 * d + (b + 2) % 3, not_cols);
        }
        Ok(())
    }

    /// Places every naked single (step 2). Returns whether anything was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<bool, Conflict> {
        let mut any = false;
        for b in 0..3 {
            let unsolved = self.unsolved[b];
            if unsolved == 0 {
                continue;
            }
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[3 * d + b];
                two |= one & x;
                one |= x;
            }
            if unsolved & !one != 0 {
                return Err(Conflict);
            }
            let mut singles = unsolved & !two;
            any |= singles != 0;
            while singles != 0 {
                let cell = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                let d = self.digit_at(b, cell).ok_or(Conflict)?;
                self.place(d, b, cell);
            }
        }
        Ok(any)
    }

    /// Places every hidden single of a column (step 3). Returns whether anything was placed.
    fn column_singles(&mut self) -> Result<bool, Conflict> {
        let mut any = false;
        for d in 0..9 {
            let (mut one, mut two) = (0u32, 0u32);
            for b in 0..3 {
                let a = self.cand[3 * d + b];
                for r in 0..3 {
                    let x = (a >> (9 * r)) & 0x1FF;
                    two |= one & x;
                    one |= x;
                }
            }
            if one != 0x1FF {
                return Err(Conflict);
            }
            let lone = one & !two;
            if lone == 0 {
                continue;
            }
            let spread = lone * COL_SPREAD;
            for b in 0..3 {
                let new = self.cand[3 * d + b] & spread & self.unsolved[b];
                let mut cells = new;
                while cells != 0 {
                    let cell = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    if self.cand[3 * d + b] & (1 << cell) == 0 {
                        // An earlier single of this digit took this one's row or box: its column is now empty.
                        return Err(Conflict);
                    }
                    any = true;
                    self.assign(d, b, cell);
                }
            }
        }
        Ok(any)
    }

    /// The digit whose candidates include `cell` of band `b` (the first one, if several).
    #[inline(always)]
    fn digit_at(&self, b: usize, cell: usize) -> Option<usize> {
        let bit = 1u32 << (cell % 27);
        (0..9).find(|&d| self.cand[3 * d + b] & bit != 0)
    }

    /// The digits that are candidates at `cell` of band `b`, as a 9-bit mask.
    fn digits_at(&self, b: usize, cell: usize) -> u32 {
        let bit = 1u32 << (cell % 27);
        let mut mask = 0;
        for d in 0..9 {
            if self.cand[3 * d + b] & bit != 0 {
                mask |= 1 << d;
            }
        }
        mask
    }

    /// Runs steps 1-3 to a fixpoint.
    fn propagate(&mut self) -> Result<(), Conflict> {
        loop {
            while self.dirty != 0 {
                let i = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                self.update_band(i)?;
            }
            if self.naked_singles()? {
                continue;
            }
            if self.is_solved() || !self.column_singles()? {
                return Ok(());
            }
        }
    }

    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The branching cell: the first bi-value cell in band order, else the first cell with the fewest candidates.
    /// Returns (band, cell in band, candidate digits as a mask). Only called on an unsolved fixpoint, where every
    /// unsolved cell has at least two candidates.
    fn choose(&self) -> (usize, usize, u32) {
        let mut counts = [[0u32; 4]; 3];
        for (b, count) in counts.iter_mut().enumerate() {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[3 * d + b];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let pairs = two & !three & self.unsolved[b];
            if pairs != 0 {
                let cell = pairs.trailing_zeros() as usize;
                return (b, cell, self.digits_at(b, cell));
            }
            *count = [one, two, three, 0];
        }
        let mut best = (0, 0, 0, u32::MAX);
        for b in 0..3 {
            let mut cells = self.unsolved[b];
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let mask = self.digits_at(b, cell);
                if mask.count_ones() < best.3 {
                    best = (b, cell, mask, mask.count_ones());
                }
            }
        }
        (best.0, best.1, best.2)
    }

    /// The grid as digits 1..=9, row-major. Only meaningful when solved.
    fn grid(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut cells = self.cand[3 * d + b];
                while cells != 0 {
                    let cell = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    out[(27 * b + cell) % 81] = d as u8 + 1;
                }
            }
        }
        out
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
    /// Set when a time or cancel limit exists (reading the clock costs more than a small solve's propagation).
    start: Option<Instant>,
    solution_limit: u64,
    count: u64,
    solution: Option<[u8; 81]>,
    stats: Stats,
}

impl Search<'_> {
    /// Counts a node and checks the limits.
    #[inline(always)]
    fn node(&mut self) -> Result<(), Stop> {
        self.stats.nodes += 1;
        if let Some(max) = self.limits.nodes {
            if self.stats.nodes > max {
                return Err(Stop::Limit(LimitKind::Nodes));
            }
        }
        if let Some(start) = self.start {
            if let Some(kind) = self.limits.exceeded(self.stats.nodes, start) {
                return Err(Stop::Limit(kind));
            }
        }
        Ok(())
    }

    /// Depth-first search below `board` (already at decision level `depth`).
    fn run(&mut self, mut board: Board9, mut depth: u64) -> Result<(), Stop> {
        loop {
            if board.propagate().is_err() {
                self.stats.fails += 1;
                return Ok(());
            }
            if board.is_solved() {
                self.count += 1;
                if self.solution.is_none() {
                    self.solution = Some(board.grid());
                }
                return if self.count >= self.solution_limit {
                    Err(Stop::Enough)
                } else {
                    Ok(())
                };
            }
            let (b, cell, mut digits) = board.choose();
            self.stats.guesses += 1;
            depth += 1;
            self.stats.max_depth = self.stats.max_depth.max(depth);
            while digits & (digits - 1) != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                self.node()?;
                let mut child = board;
                child.assign(d, b, cell);
                self.run(child, depth)?;
            }
            self.node()?;
            board.assign(digits.trailing_zeros() as usize, b, cell);
        }
    }
}

/// Solves a 9x9 grid given as 81 cells, row-major, 0 = empty and 1..=9 = given.
///
/// Finds solutions up to `solution_limit` (1 = the first, 2 = prove uniqueness, 0 = count them all) within
/// `limits`. Givens that clash give [`Outcome::Unsatisfiable`]; a value above 9 is an [`InputError`].
pub fn solve9(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
) -> Result<FastResult<[u8; 81]>, InputError> {
    if let Some(cell) = givens.iter().position(|&v| v > 9) {
        return Err(InputError::BadValue {
            cell,
            value: givens[cell],
            size: 9,
        });
    }
    let mut search = Search {
        limits,
        start: (limits.time.is_some() || limits.cancel.is_some()).then(Instant::now),
        solution_limit: if solution_limit == 0 {
            u64::MAX
        } else {
            solution_limit
        },
        count: 0,
        solution: None,
        stats: Stats::default(),
    };
    let outcome = match Board9::from_givens(givens) {
        Err(Conflict) => {
            search.stats.fails += 1;
            Outcome::Unsatisfiable
        }
        Ok(root) => match search.run(root, 0) {
            Ok(()) if search.count == 0 => Outcome::Unsatisfiable,
            Ok(()) | Err(Stop::Enough) => Outcome::Solved,
            Err(Stop::Limit(kind)) => Outcome::Limit(kind),
        },
    };
    search.stats.solutions = search.count;
    Ok(FastResult {
        outcome,
        count: search.count,
        solution: search.solution,
        stats: search.stats,
    })
}
