//! The solver for every box size 2..=6 (4x4 up to 36x36): one `u64` candidate mask per cell, naked and hidden
//! singles to a fixpoint, then a guess on the first cell with the fewest candidates (MRV).
//!
//! Slower per node than the 9x9 bitboards but the same propagation strength (minus locked candidates), and small:
//! it doubles as a cross-check of [`super::solve9`] in the tests.
//!
//! Copy-on-guess without allocation per node: the states of the open decision levels live one after the other in
//! one buffer (`levels[depth * cells..]`), which grows only the first time a depth is reached.

use std::time::Instant;

use csp_core::{Limits, Stats};

use super::{InputError, MaskResult, Stop};

/// Bit 63 of a cell's mask: the cell holds one value and that value has been removed from its peers.
const DONE: u64 = 1 << 63;

/// Propagation found a cell or a house with no value left.
struct Conflict;

/// The shape of a board: its peers and houses, computed once per solve.
struct Geometry {
    /// Side length N = box size squared.
    size: usize,
    /// N * N.
    cells: usize,
    /// The N low bits.
    all: u64,
    /// `peers[c * per..(c + 1) * per]`: the cells sharing a row, column or box with `c` (each once).
    peers: Vec<u16>,
    /// Peers per cell: 2(N - 1) + (n - 1)^2.
    per: usize,
    /// `houses[h * N..(h + 1) * N]`: the cells of house `h` (rows, then columns, then boxes).
    houses: Vec<u16>,
}

impl Geometry {
    fn new(box_size: usize) -> Geometry {
        let n = box_size;
        let size = n * n;
        let cells = size * size;
        let mut houses = Vec::with_capacity(3 * cells);
        for r in 0..size {
            houses.extend((0..size).map(|c| (r * size + c) as u16));
        }
        for c in 0..size {
            houses.extend((0..size).map(|r| (r * size + c) as u16));
        }
        for x in 0..size {
            let (r0, c0) = ((x / n) * n, (x % n) * n);
            houses.extend((0..size).map(|k| ((r0 + k / n) * size + c0 + k % n) as u16));
        }
        let per = 2 * (size - 1) + (n - 1) * (n - 1);
        let mut peers = Vec::with_capacity(cells * per);
        for cell in 0..cells {
            let (r, c) = (cell / size, cell % size);
            let start = peers.len();
            for other in 0..cells {
                let (r2, c2) = (other / size, other % size);
                let same_box = r2 / n == r / n && c2 / n == c / n;
                if other != cell && (r2 == r || c2 == c || same_box) {
                    peers.push(other as u16);
                }
            }
            debug_assert_eq!(peers.len() - start, per);
        }
        Geometry {
            size,
            cells,
            all: (1u64 << size) - 1,
            peers,
            per,
            houses,
        }
    }
}

/// Buffers reused across solves by one solver instance: the geometry of the last box size and the level stack.
#[derive(Default)]
pub(super) struct Scratch {
    geo: Option<Geometry>,
    levels: Vec<u64>,
    queue: Vec<usize>,
}

struct Search<'a> {
    geo: &'a Geometry,
    /// The states of decision levels 0..=depth, `cells` masks each.
    levels: &'a mut Vec<u64>,
    /// Cells fixed to one value whose value has not yet left their peers.
    queue: &'a mut Vec<usize>,
    limits: &'a Limits,
    start: Option<Instant>,
    solution_limit: u64,
    count: u64,
    solution: Option<Vec<u8>>,
    stats: Stats,
}

impl Search<'_> {
    fn node(&mut self) -> Result<(), Stop> {
        self.stats.nodes += 1;
        match super::limit_reached(self.limits, self.stats.nodes, self.start) {
            Some(kind) => Err(Stop::Limit(kind)),
            None => Ok(()),
        }
    }

    /// Naked and hidden singles to a fixpoint on the state of level `depth`.
    fn propagate(&mut self, depth: usize) -> Result<(), Conflict> {
        let Search {
            geo, levels, queue, ..
        } = self;
        let g = &mut levels[depth * geo.cells..(depth + 1) * geo.cells];
        queue.clear();
        queue.extend((0..geo.cells).filter(|&c| g[c] & DONE == 0 && g[c].count_ones() == 1));
        loop {
            while let Some(cell) = queue.pop() {
                let v = g[cell] & geo.all;
                g[cell] |= DONE;
                for &p in &geo.peers[cell * geo.per..(cell + 1) * geo.per] {
                    let p = p as usize;
                    if g[p] & v != 0 {
                        g[p] &= !v;
                        let rest = g[p] & geo.all;
                        if rest == 0 {
                            return Err(Conflict);
                        }
                        if rest & (rest - 1) == 0 {
                            queue.push(p);
                        }
                    }
                }
            }
            // Hidden singles: a value with one place left in a house.
            for house in geo.houses.chunks_exact(geo.size) {
                let (mut once, mut twice) = (0u64, 0u64);
                for &c in house {
                    let m = g[c as usize] & geo.all;
                    twice |= once & m;
                    once |= m;
                }
                if once != geo.all {
                    return Err(Conflict);
                }
                let mut lone = once & !twice;
                while lone != 0 {
                    let v = lone & lone.wrapping_neg();
                    lone &= lone - 1;
                    if let Some(&c) = house.iter().find(|&&c| g[c as usize] & v != 0) {
                        let c = c as usize;
                        if g[c] & geo.all != v {
                            g[c] = v;
                            queue.push(c);
                        }
                    }
                }
            }
            if queue.is_empty() {
                return Ok(());
            }
        }
    }

    /// Depth-first search below the state of level `depth`.
    fn run(&mut self, depth: usize) -> Result<(), Stop> {
        let cells = self.geo.cells;
        loop {
            if self.propagate(depth).is_err() {
                self.stats.fails += 1;
                return Ok(());
            }
            let g = &self.levels[depth * cells..(depth + 1) * cells];
            // MRV: the first open cell with the fewest values.
            let mut best: Option<(usize, u32)> = None;
            for (c, &m) in g.iter().enumerate() {
                if m & DONE == 0 {
                    let k = m.count_ones();
                    if best.is_none_or(|(_, bk)| k < bk) {
                        best = Some((c, k));
                    }
                }
            }
            let Some((cell, _)) = best else {
                self.count += 1;
                if self.solution.is_none() {
                    self.solution = Some(
                        g.iter()
                            .map(|m| (m & self.geo.all).trailing_zeros() as u8 + 1)
                            .collect(),
                    );
                }
                return if self.count >= self.solution_limit {
                    Err(Stop::Enough)
                } else {
                    Ok(())
                };
            };
            let mut values = g[cell] & self.geo.all;
            self.stats.guesses += 1;
            self.stats.max_depth = self.stats.max_depth.max(depth as u64 + 1);
            if self.levels.len() < (depth + 2) * cells {
                self.levels.resize((depth + 2) * cells, 0);
            }
            while values & (values - 1) != 0 {
                let v = values & values.wrapping_neg();
                values &= values - 1;
                self.node()?;
                self.levels
                    .copy_within(depth * cells..(depth + 1) * cells, (depth + 1) * cells);
                self.levels[(depth + 1) * cells + cell] = v;
                self.run(depth + 1)?;
            }
            self.node()?;
            self.levels[depth * cells + cell] = values;
        }
    }
}

/// Solves a board of box size `box_size` (2..=6; side N = box_size^2) given as N*N cells, row-major, 0 = empty and
/// 1..=N = given. Same contract as [`super::solve9`]; wrong sizes and values are [`InputError`]s.
pub fn solve_generic(
    box_size: usize,
    givens: &[u8],
    solution_limit: u64,
    limits: &Limits,
) -> Result<MaskResult<Vec<u8>>, InputError> {
    solve_with(
        &mut Scratch::default(),
        box_size,
        givens,
        solution_limit,
        limits,
    )
}

/// [`solve_generic`] with buffers kept from earlier solves.
pub(super) fn solve_with(
    scratch: &mut Scratch,
    box_size: usize,
    givens: &[u8],
    solution_limit: u64,
    limits: &Limits,
) -> Result<MaskResult<Vec<u8>>, InputError> {
    let size = super::check_input(box_size, givens)?;
    if scratch.geo.as_ref().is_none_or(|g| g.size != size) {
        scratch.geo = Some(Geometry::new(box_size));
    }
    let Scratch { geo, levels, queue } = scratch;
    let Some(geo) = geo.as_ref() else {
        return Err(InputError::BadBoxSize(box_size));
    };
    let all = geo.all;
    levels.clear();
    levels.extend(
        givens
            .iter()
            .map(|&v| if v == 0 { all } else { 1u64 << (v - 1) }),
    );
    let mut search = Search {
        geo,
        levels,
        queue,
        limits,
        start: limits.time.is_some().then(Instant::now),
        solution_limit: super::solution_cap(solution_limit),
        count: 0,
        solution: None,
        stats: Stats::default(),
    };
    let outcome = Stop::outcome(search.run(0), search.count);
    search.stats.solutions = search.count;
    Ok(MaskResult {
        outcome,
        count: search.count,
        solution: search.solution,
        stats: search.stats,
    })
}
