//! `table`: the seed exercise's depth-first search with per-row, per-column and per-box used-tables.
//!
//! Same search tree as [`super::naive`] (empty cells row-major, digits ascending), but the digits a cell may
//! take are `!(row_used | col_used | box_used)`, one bitmask operation instead of scanning three houses. Digits
//! `1..=N` are bits `0..N` of a `u64` (N <= 36).
//!
//! The search is iterative (no recursion, so a 36x36 board cannot overflow a thread's stack), and every buffer
//! lives in [`TableSolver`], so a solve allocates only its result.

use std::time::Instant;

use csp_core::Stats;

use super::report;
use crate::board::Board;
use crate::solver::{Report, Request, Solve, SolverInfo};

/// Registry entry.
pub const INFO: SolverInfo = SolverInfo {
    name: "table",
    description:
        "seed DFS with row/column/box used-bitmasks: row-major cells, digits ascending, O(1) checks",
    supports: |_| true,
    make: || Box::new(TableSolver::default()),
    solve9: None,
};

/// The table DFS and its scratch buffers.
#[derive(Debug, Default)]
pub struct TableSolver {
    /// Working grid, row-major, 0 = empty.
    grid: Vec<u8>,
    /// `rows[r]` = digits placed in row r (bit d-1 for digit d); likewise `cols`, `boxes`.
    rows: Vec<u64>,
    cols: Vec<u64>,
    boxes: Vec<u64>,
    /// The empty cells of the input, row-major: the DFS assigns `empties[k]` at depth k.
    empties: Vec<usize>,
    /// `(row, col, box)` of `empties[k]`.
    houses: Vec<(usize, usize, usize)>,
    /// `untried[k]` = candidate digits of `empties[k]` not yet tried at the current visit.
    untried: Vec<u64>,
}

impl TableSolver {
    /// Loads `board`; false when its givens clash.
    fn load(&mut self, board: &Board) -> bool {
        let n = board.side();
        let b = board.box_size();
        self.grid.clear();
        self.grid.extend_from_slice(board.cells());
        for v in [&mut self.rows, &mut self.cols, &mut self.boxes] {
            v.clear();
            v.resize(n, 0);
        }
        self.empties.clear();
        self.houses.clear();
        for (cell, &value) in board.cells().iter().enumerate() {
            let (r, c) = (cell / n, cell % n);
            let bx = (r / b) * b + c / b;
            if value == 0 {
                self.empties.push(cell);
                self.houses.push((r, c, bx));
                continue;
            }
            let bit = 1u64 << (value - 1);
            if (self.rows[r] | self.cols[c] | self.boxes[bx]) & bit != 0 {
                return false;
            }
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[bx] |= bit;
        }
        self.untried.clear();
        self.untried.resize(self.empties.len(), 0);
        true
    }

    #[inline]
    fn candidates(&self, k: usize, full: u64) -> u64 {
        let (r, c, bx) = self.houses[k];
        full & !(self.rows[r] | self.cols[c] | self.boxes[bx])
    }

    #[inline]
    fn toggle(&mut self, k: usize, bit: u64) {
        let (r, c, bx) = self.houses[k];
        self.rows[r] ^= bit;
        self.cols[c] ^= bit;
        self.boxes[bx] ^= bit;
    }
}

impl Solve for TableSolver {
    fn solve(&mut self, board: &Board, req: &Request) -> Report {
        let start = Instant::now();
        let mut stats = Stats::default();
        if !self.load(board) {
            return report(None, 0, None, stats, start);
        }
        let n = board.side();
        let full = (1u64 << n) - 1; // n <= 36
        let limit = req.effective_limit();
        let depth = self.empties.len();
        let mut count = 0u64;
        let mut solution = None;
        if depth == 0 {
            return report(None, 1, Some(board.clone()), stats, start);
        }

        // Invariant: cells empties[..k] hold placed digits, recorded in the tables; untried[k] is current.
        let mut k = 0usize;
        self.untried[0] = self.candidates(0, full);
        if self.untried[0].count_ones() > 1 {
            stats.guesses += 1;
        }
        loop {
            let untried = self.untried[k];
            if untried == 0 {
                // This cell has no digit left: undo the previous cell's digit and resume there.
                stats.fails += 1;
                if k == 0 {
                    return report(None, count, solution, stats, start);
                }
                k -= 1;
                let cell = self.empties[k];
                let bit = 1u64 << (self.grid[cell] - 1);
                self.toggle(k, bit);
                self.grid[cell] = 0;
                continue;
            }
            let bit = untried & untried.wrapping_neg();
            self.untried[k] = untried ^ bit;
            let cell = self.empties[k];
            self.grid[cell] = bit.trailing_zeros() as u8 + 1;
            self.toggle(k, bit);
            stats.nodes += 1;
            stats.max_depth = stats.max_depth.max(k as u64 + 1);
            if let Some(kind) = req.limits.exceeded(stats.nodes, start) {
                return report(Some(kind), count, solution, stats, start);
            }
            if k + 1 == depth {
                count += 1;
                if solution.is_none() {
                    solution = Board::from_cells(board.box_size(), self.grid.clone()).ok();
                }
                if count >= limit {
                    return report(None, count, solution, stats, start);
                }
                // Take the digit back and try the cell's next one.
                self.toggle(k, bit);
                self.grid[cell] = 0;
                continue;
            }
            k += 1;
            self.untried[k] = self.candidates(k, full);
            if self.untried[k].count_ones() > 1 {
                stats.guesses += 1;
            }
        }
    }
}
