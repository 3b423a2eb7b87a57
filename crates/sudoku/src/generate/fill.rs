//! Random complete grids: a randomised depth-first search on an empty board.
//!
//! The independent diagonal boxes (box `k` of band `k`) share no house, so they are first filled with random
//! permutations; then the search fills the rest, always branching on an empty cell with the fewest candidates
//! (ties broken by a random cell order fixed per grid) and trying its candidates in random order. A search
//! that runs past [`RESTART_NODES`] starts over from new diagonal boxes, so one unlucky start cannot hang the
//! generator on the large boards. Everything random comes from the caller's [`Rng`], so a seed fixes the grid.
//!
//! Boards of box size 5 and 6 are completed by [`solve_cells`](super::cells::solve_cells) instead (see
//! [`Filler::fill`]).

use super::rng::{pick_bit, Rng};

/// Nodes (values placed) after which a fill attempt is abandoned and restarted.
pub const RESTART_NODES: u64 = 200_000;

/// The search state of one fill, reused across attempts and grids of the same size.
#[derive(Debug)]
pub struct Filler {
    /// Box size `b`; the side is `n = b * b`.
    box_size: usize,
    /// Side `n`.
    side: usize,
    /// `cells[i]` = value of cell `i` (row-major), 0 = empty.
    cells: Vec<u8>,
    /// `row_used[r]` bit `v - 1` set = value `v` is placed in row `r`; likewise for columns and boxes.
    row_used: Vec<u64>,
    /// See `row_used`.
    col_used: Vec<u64>,
    /// See `row_used`.
    box_used: Vec<u64>,
    /// The cells in the random order used to break MRV ties.
    order: Vec<usize>,
    /// Decision stack: `(cell, candidates not yet tried)`, one entry per placed value of the search.
    stack: Vec<(usize, u64)>,
}

impl Filler {
    /// A filler for boards of `box_size` (2..=6; the caller has checked it).
    pub fn new(box_size: usize) -> Filler {
        let side = box_size * box_size;
        Filler {
            box_size,
            side,
            cells: vec![0; side * side],
            row_used: vec![0; side],
            col_used: vec![0; side],
            box_used: vec![0; side],
            order: (0..side * side).collect(),
            stack: Vec::with_capacity(side * side),
        }
    }

    fn box_of(&self, cell: usize) -> usize {
        let (r, c) = (cell / self.side, cell % self.side);
        (r / self.box_size) * self.box_size + c / self.box_size
    }

    fn place(&mut self, cell: usize, value: u8) {
        let bit = 1u64 << (value - 1);
        let b = self.box_of(cell);
        self.cells[cell] = value;
        self.row_used[cell / self.side] |= bit;
        self.col_used[cell % self.side] |= bit;
        self.box_used[b] |= bit;
    }

    fn clear(&mut self, cell: usize) {
        let value = self.cells[cell];
        if value == 0 {
            return;
        }
        let bit = !(1u64 << (value - 1));
        let b = self.box_of(cell);
        self.cells[cell] = 0;
        self.row_used[cell / self.side] &= bit;
        self.col_used[cell % self.side] &= bit;
        self.box_used[b] &= bit;
    }

    fn candidates(&self, cell: usize) -> u64 {
        let all = (1u64 << self.side) - 1;
        let b = self.box_of(cell);
        all & !(self.row_used[cell / self.side]
            | self.col_used[cell % self.side]
            | self.box_used[b])
    }

    /// The empty cell with the fewest candidates (first in `order` among equals), or `None` when the grid is
    /// full. A cell with no candidate is returned at once: the caller backtracks.
    fn most_constrained(&self) -> Option<(usize, u64)> {
        let mut best: Option<(usize, u64)> = None;
        let mut best_count = u32::MAX;
        for &cell in &self.order {
            if self.cells[cell] != 0 {
                continue;
            }
            let cand = self.candidates(cell);
            let count = cand.count_ones();
            if count < best_count {
                best = Some((cell, cand));
                best_count = count;
                if count <= 1 {
                    break;
                }
            }
        }
        best
    }

    fn reset(&mut self, rng: &mut Rng) {
        self.cells.fill(0);
        self.row_used.fill(0);
        self.col_used.fill(0);
        self.box_used.fill(0);
        self.stack.clear();
        // From the identity each time: a grid must depend on its stream only, not on the grids before it.
        for (i, slot) in self.order.iter_mut().enumerate() {
            *slot = i;
        }
        rng.shuffle(&mut self.order);
        let mut digits: Vec<u8> = (1..=self.side as u8).collect();
        for k in 0..self.box_size {
            rng.shuffle(&mut digits);
            let (r0, c0) = (k * self.box_size, k * self.box_size);
            for (i, &d) in digits.iter().enumerate() {
                let cell = (r0 + i / self.box_size) * self.side + c0 + i % self.box_size;
                self.place(cell, d);
            }
        }
    }

    /// One attempt from fresh diagonal boxes: `true` when the grid is full, `false` after [`RESTART_NODES`] or
    /// when the start has no completion.
    fn attempt(&mut self, rng: &mut Rng) -> bool {
        self.reset(rng);
        let mut nodes = 0u64;
        loop {
            // Descend: pick the next cell; a dead cell (no candidate) falls through to backtracking.
            match self.most_constrained() {
                None => return true,
                Some((cell, cand)) if cand != 0 => {
                    let bit = pick_bit(rng, cand);
                    self.place(cell, bit as u8 + 1);
                    self.stack.push((cell, cand & !(1u64 << bit)));
                    nodes += 1;
                    continue;
                }
                Some(_) => {}
            }
            // Backtrack to the newest decision with an untried candidate.
            loop {
                let Some((cell, rest)) = self.stack.pop() else {
                    return false;
                };
                self.clear(cell);
                if rest != 0 {
                    let bit = pick_bit(rng, rest);
                    self.place(cell, bit as u8 + 1);
                    self.stack.push((cell, rest & !(1u64 << bit)));
                    nodes += 1;
                    break;
                }
            }
            if nodes >= RESTART_NODES {
                return false;
            }
        }
    }

    /// One attempt for the large boards (25x25, 36x36): the random diagonal boxes completed by `solve_cells`, whose
    /// hidden singles find a completion where the plain search above thrashes (measured: 36x36 took it about
    /// 20 s a grid). `solve_cells`'s own order is deterministic, so the randomness is the diagonal boxes' and the
    /// random relabelling of rows within bands, bands, columns within stacks and stacks that follows.
    fn attempt_large(&mut self, rng: &mut Rng) -> bool {
        self.reset(rng);
        let limits = csp_core::Limits::none().with_nodes(RESTART_NODES);
        let Ok(result) = super::cells::solve_cells(self.box_size, &self.cells, 1, &limits) else {
            return false;
        };
        let Some(grid) = result.solution else {
            return false;
        };
        let (b, n) = (self.box_size, self.side);
        let mut rows: Vec<usize> = Vec::with_capacity(n);
        let mut cols: Vec<usize> = Vec::with_capacity(n);
        for perm in [&mut rows, &mut cols] {
            let mut bands: Vec<usize> = (0..b).collect();
            rng.shuffle(&mut bands);
            for band in bands {
                let mut within: Vec<usize> = (0..b).collect();
                rng.shuffle(&mut within);
                perm.extend(within.iter().map(|&k| band * b + k));
            }
        }
        for (r, &from_r) in rows.iter().enumerate() {
            for (c, &from_c) in cols.iter().enumerate() {
                self.cells[r * n + c] = grid[from_r * n + from_c];
            }
        }
        true
    }

    /// A random complete grid, row-major, values `1..=n`. Returns the grid and the number of restarts it took.
    pub fn fill(&mut self, rng: &mut Rng) -> (&[u8], u32) {
        let mut restarts = 0;
        loop {
            let done = if self.box_size >= 5 {
                self.attempt_large(rng)
            } else {
                self.attempt(rng)
            };
            if done {
                return (&self.cells, restarts);
            }
            restarts += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::{verify, Board};

    #[test]
    fn filled_grids_are_valid_for_the_small_sizes() {
        for b in 2..=4 {
            let mut filler = Filler::new(b);
            let mut rng = Rng::new(11);
            for _ in 0..5 {
                let (cells, _) = filler.fill(&mut rng);
                let board = Board::from_cells(b, cells.to_vec()).unwrap();
                verify::verify_complete(&board).unwrap();
            }
        }
    }

    #[test]
    fn the_same_seed_fills_the_same_grid_whatever_was_filled_before() {
        let mut filler = Filler::new(3);
        let a = filler.fill(&mut Rng::new(5)).0.to_vec();
        filler.fill(&mut Rng::new(9));
        let b = Filler::new(3).fill(&mut Rng::new(5)).0.to_vec();
        assert_eq!(a, filler.fill(&mut Rng::new(5)).0.to_vec());
        let c = filler.fill(&mut Rng::new(6)).0.to_vec();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
