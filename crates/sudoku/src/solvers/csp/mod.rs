//! `csp-*`: Sudoku mapped onto the csp-core engine, one registry entry per search strategy.
//!
//! The mapping is the textbook one: one variable per cell with values `1..=N`, created row-major so that
//! `VarId::index() == cell index`, and one `all_different` per row, column and box (posted in that order). The
//! model depends only on the box size, so it is built once per size ([`model`], behind a `OnceLock`) and shared
//! by every thread; a puzzle's givens are passed to the engine as assumptions `(cell, digit)`, which the engine
//! fixes and propagates at the root.
//!
//! A [`CspSolver`] (one per thread, built by the registry) keeps one reusable `csp_core::Solver` per box size, so
//! a solve allocates only its assumption buffer (reused) and its result. The engine takes its limits from its
//! configuration; when a request brings limits different from the last ones, they are swapped in with
//! `Solver::set_limits` (no rebuild; never needed in a batch run where every request shares the same limits).
//!
//! The presets (which variable order, value order and propagation level each `csp-*` name means) are listed in
//! [`presets`].

pub mod presets;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use csp_core::{Limits, Model, ModelError, Problem, Solver, Stats, VarId};

use crate::board::{Board, MAX_BOX, MIN_BOX};
use crate::solver::{Report, Request, Solve};
use csp_core::Outcome;

pub use presets::{Preset, Rules};

/// The engine model of an empty board of one box size: `N * N` cell variables over `1..=N`, row-major, and the
/// rules posted as [`Rules`] says: `3 N` `all_different` (rows, then columns, then boxes), or one `not_equal`
/// per pair of cells sharing a house (each pair once, in the order houses are listed).
#[derive(Debug)]
pub struct SudokuModel {
    /// The frozen problem; `Send + Sync`, shared by every solver of this size.
    pub problem: Problem,
    /// `cells[i]` = the variable of cell `i` (row-major); `cells[i].index() == i`.
    pub cells: Vec<VarId>,
}

impl SudokuModel {
    /// Builds the model of an empty board with boxes of `box_size x box_size` cells (`box_size` in 2..=6, which
    /// [`model`] checks).
    fn build(box_size: usize, rules: Rules) -> Result<SudokuModel, ModelError> {
        let n = box_size * box_size;
        let mut m = Model::new();
        let cells = (0..n * n)
            .map(|_| m.new_var(1, n as i64))
            .collect::<Result<Vec<VarId>, ModelError>>()?;
        let mut house = Vec::with_capacity(n);
        for kind in 0..3 {
            for h in 0..n {
                house.clear();
                house.extend((0..n).map(|k| {
                    cells[match kind {
                        0 => h * n + k,
                        1 => k * n + h,
                        _ => {
                            ((h / box_size) * box_size + k / box_size) * n
                                + (h % box_size) * box_size
                                + k % box_size
                        }
                    }]
                }));
                match rules {
                    Rules::Houses => {
                        m.all_different(&house)?;
                    }
                    Rules::Pairs => {
                        for (i, &x) in house.iter().enumerate() {
                            for &y in &house[i + 1..] {
                                // A pair in a row (or column) and a box is posted with the row (column) only.
                                let (a, b) = (x.index(), y.index());
                                let same_line = a / n == b / n || a % n == b % n;
                                if kind < 2 || !same_line {
                                    m.not_equal(x, y, 0)?;
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(SudokuModel {
            problem: m.build()?,
            cells,
        })
    }
}

/// The shared model for `box_size` (2..=6) and `rules`, built on first use; `None` for an unsupported size.
///
/// Building cannot fail for a supported size (the model uses no input data); a failure would be an engine bug,
/// and is reported as a panic naming it rather than hidden.
pub fn model(box_size: usize, rules: Rules) -> Option<&'static SudokuModel> {
    const SIZES: usize = MAX_BOX - MIN_BOX + 1;
    static HOUSES: [OnceLock<SudokuModel>; SIZES] = [const { OnceLock::new() }; SIZES];
    static PAIRS: [OnceLock<SudokuModel>; SIZES] = [const { OnceLock::new() }; SIZES];
    let models = match rules {
        Rules::Houses => &HOUSES,
        Rules::Pairs => &PAIRS,
    };
    let slot = models.get(box_size.checked_sub(MIN_BOX)?)?;
    Some(slot.get_or_init(|| {
        SudokuModel::build(box_size, rules)
            .unwrap_or_else(|e| panic!("the {box_size}-box Sudoku model is invalid: {e}"))
    }))
}

/// The limits a per-size engine solver was configured with, compared by value (the cancel flag by identity).
///
/// Comparing the flag's address is sound: the cached solver's configuration holds a clone of that `Arc`, so its
/// allocation cannot be freed and reused by a different flag while the key is alive.
#[derive(Clone, Debug, PartialEq)]
struct LimitsKey {
    nodes: Option<u64>,
    time: Option<Duration>,
    cancel: Option<usize>,
}

impl LimitsKey {
    fn of(l: &Limits) -> LimitsKey {
        LimitsKey {
            nodes: l.nodes,
            time: l.time,
            cancel: l.cancel.as_ref().map(|a| Arc::as_ptr(a) as usize),
        }
    }
}

/// A `csp-*` registry instance: one preset, and one reusable engine solver per box size met so far.
pub struct CspSolver {
    preset: &'static Preset,
    /// `engines[b - MIN_BOX]` = the solver for box size `b` and the limits it currently has.
    engines: [Option<(Solver<'static>, LimitsKey)>; MAX_BOX - MIN_BOX + 1],
    /// The givens of the current puzzle as `(cell variable, digit)`; reused across solves.
    assumptions: Vec<(VarId, i64)>,
}

impl CspSolver {
    /// A solver searching as `preset` says.
    pub fn new(preset: &'static Preset) -> CspSolver {
        CspSolver {
            preset,
            engines: [const { None }; MAX_BOX - MIN_BOX + 1],
            assumptions: Vec::new(),
        }
    }

    /// The preset this solver runs.
    pub fn preset(&self) -> &'static Preset {
        self.preset
    }
}

impl std::fmt::Debug for CspSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CspSolver")
            .field("preset", &self.preset.name)
            .finish_non_exhaustive()
    }
}

/// Turns the engine's values (indexed like the cells) into a board. A value outside `1..=N` (an engine bug)
/// becomes an empty cell, which the independent checker then rejects: never a panic, never a silent wrong digit.
fn decode(box_size: usize, values: &[i64]) -> Option<Board> {
    let side = box_size * box_size;
    let cells = values
        .iter()
        .map(|&v| match u8::try_from(v) {
            Ok(d) if usize::from(d) <= side => d,
            _ => 0,
        })
        .collect();
    Board::from_cells(box_size, cells).ok()
}

impl Solve for CspSolver {
    fn solve(&mut self, board: &Board, req: &Request) -> Report {
        let box_size = board.box_size();
        let (Some(sm), Some(slot)) = (
            model(box_size, self.preset.rules),
            box_size
                .checked_sub(MIN_BOX)
                .and_then(|i| self.engines.get_mut(i)),
        ) else {
            // A Board always has a supported box size; this arm only keeps the code panic-free.
            return Report {
                status: Outcome::Unsatisfiable,
                solution: None,
                count: 0,
                stats: Stats::default(),
            };
        };
        let key = LimitsKey::of(&req.limits);
        if let Some((solver, k)) = slot.as_mut() {
            if *k != key {
                solver.set_limits(req.limits.clone());
                *k = key.clone();
            }
        }
        let preset = self.preset;
        let (solver, _) = slot.get_or_insert_with(|| {
            let cfg = preset.config().limits(req.limits.clone());
            (Solver::new(&sm.problem, cfg), key)
        });

        self.assumptions.clear();
        self.assumptions.extend(
            board
                .cells()
                .iter()
                .zip(&sm.cells)
                .filter(|(&d, _)| d != 0)
                .map(|(&d, &x)| (x, i64::from(d))),
        );

        let limit = req.effective_limit();
        let (outcome, count, first, mut stats) = if limit == 1 {
            // First-solution mode: the engine may restart (presets with a restart policy).
            let r = solver.solve(&self.assumptions);
            let count = u64::from(r.solution.is_some());
            (r.outcome, count, r.solution, r.stats)
        } else {
            let r = solver.count(&self.assumptions, limit);
            (r.outcome, r.count, r.first, r.stats)
        };
        stats.solutions = count;
        let status = outcome;
        Report {
            status,
            solution: first.and_then(|s| decode(box_size, s.values())),
            count,
            stats,
        }
    }
}
