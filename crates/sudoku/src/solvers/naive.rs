//! `naive`: the seed exercise's depth-first search, as the LeetCode 37 write-ups give it.
//!
//! Empty cells in row-major order; at each, digits `1..=N` in turn: place the digit, then check it by scanning
//! the cell's row, column and box for the same digit; on success go to the next empty cell, on exhaustion undo
//! and go back. No tables, no propagation: the baseline every other solver is measured against.
//!
//! Counters: `nodes` = digits that passed the check (assignments kept), `propagations` = checks made,
//! `fails` = cells that ran out of digits. `guesses` counts cells entered with more than one legal digit; that
//! count needs a scan of the three houses on entry, which the search itself never uses (it only feeds the
//! statistics; it costs 3N reads per entry against up to 3N^2 for the checks).
//!
//! Iterative, with the scratch in [`NaiveSolver`], like [`super::table`].

use std::time::Instant;

use csp_core::Stats;

use super::report;
use crate::board::Board;
use crate::solver::{Report, Request, Solve, SolverInfo};

/// Registry entry.
pub const INFO: SolverInfo = SolverInfo {
    name: "naive",
    description:
        "seed DFS as in the exercise: row-major cells, digits 1..N, place then scan row/column/box",
    supports: |_| true,
    make: || Box::new(NaiveSolver::default()),
    solve9: None,
};

/// The naive DFS and its scratch buffers.
#[derive(Debug, Default)]
pub struct NaiveSolver {
    /// Working grid, row-major, 0 = empty.
    grid: Vec<u8>,
    /// The empty cells of the input, row-major: the DFS assigns `empties[k]` at depth k.
    empties: Vec<usize>,
}

/// The seed's check: does the digit at `cell` appear elsewhere in its row, column or box?
fn placement_is_valid(grid: &[u8], n: usize, b: usize, cell: usize) -> bool {
    let v = grid[cell];
    let (r, c) = (cell / n, cell % n);
    for i in 0..n {
        let in_row = r * n + i;
        let in_col = i * n + c;
        let in_box = ((r / b) * b + i / b) * n + (c / b) * b + i % b;
        if (in_row != cell && grid[in_row] == v)
            || (in_col != cell && grid[in_col] == v)
            || (in_box != cell && grid[in_box] == v)
        {
            return false;
        }
    }
    true
}

/// True when the empty `cell` has at least two legal digits (statistics only).
fn has_several_candidates(grid: &[u8], n: usize, b: usize, cell: usize) -> bool {
    let (r, c) = (cell / n, cell % n);
    let mut used = 0u64;
    for i in 0..n {
        let in_box = ((r / b) * b + i / b) * n + (c / b) * b + i % b;
        for v in [grid[r * n + i], grid[i * n + c], grid[in_box]] {
            if v != 0 {
                used |= 1u64 << (v - 1);
            }
        }
    }
    n - (used.count_ones() as usize) > 1
}

impl Solve for NaiveSolver {
    fn solve(&mut self, board: &Board, req: &Request) -> Report {
        let start = Instant::now();
        let mut stats = Stats::default();
        if board.find_clash().is_some() {
            return report(None, 0, None, stats, start);
        }
        let n = board.side();
        let b = board.box_size();
        let max_digit = n as u8;
        self.grid.clear();
        self.grid.extend_from_slice(board.cells());
        self.empties.clear();
        self.empties.extend(
            board
                .cells()
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v == 0)
                .map(|(i, _)| i),
        );
        let depth = self.empties.len();
        if depth == 0 {
            return report(None, 1, Some(board.clone()), stats, start);
        }
        let limit = req.effective_limit();
        let mut count = 0u64;
        let mut solution = None;

        // Invariant: empties[..k] hold digits that passed the check; grid[empties[k]] is the digit last tried
        // at depth k (0 = none yet).
        let mut k = 0usize;
        if has_several_candidates(&self.grid, n, b, self.empties[0]) {
            stats.guesses += 1;
        }
        loop {
            let cell = self.empties[k];
            let mut placed = false;
            while self.grid[cell] < max_digit {
                self.grid[cell] += 1;
                stats.propagations += 1;
                if placement_is_valid(&self.grid, n, b, cell) {
                    placed = true;
                    break;
                }
            }
            if !placed {
                self.grid[cell] = 0;
                stats.fails += 1;
                if k == 0 {
                    return report(None, count, solution, stats, start);
                }
                k -= 1;
                continue;
            }
            stats.nodes += 1;
            stats.max_depth = stats.max_depth.max(k as u64 + 1);
            if let Some(kind) = req.limits.exceeded(stats.nodes, start) {
                return report(Some(kind), count, solution, stats, start);
            }
            if k + 1 == depth {
                count += 1;
                if solution.is_none() {
                    solution = Board::from_cells(b, self.grid.clone()).ok();
                }
                if count >= limit {
                    return report(None, count, solution, stats, start);
                }
                continue; // try the last cell's next digit
            }
            k += 1;
            if has_several_candidates(&self.grid, n, b, self.empties[k]) {
                stats.guesses += 1;
            }
        }
    }
}
