//! What a Sudoku solver is: the one signature every solver implements ([`Solve`]), what it is asked
//! ([`Request`]) and what it answers ([`Report`], with csp-core's [`Outcome`] as its status), and its registry entry ([`SolverInfo`]).
//!
//! The solvers themselves live under `solvers/`, the list of them in [`registry`](mod@crate::registry). Solvers
//! are not global objects: [`SolverInfo::make`] builds an instance that owns its scratch buffers, one per thread
//! (e.g. through rayon's `map_init`), reused across solves.

use csp_core::{Limits, Outcome, Stats};

use crate::board::Board;

/// What a solve should do.
#[derive(Clone, Debug)]
pub struct Request {
    /// Stop after this many solutions: 1 = first solution, 2 = uniqueness check. 0 is treated as 1.
    pub solution_limit: u64,
    /// Node / time / cancel limits of this one solve.
    pub limits: Limits,
}

impl Request {
    /// First solution, no limits.
    pub fn first() -> Request {
        Request {
            solution_limit: 1,
            limits: Limits::none(),
        }
    }

    /// Count solutions up to `limit` (2 proves uniqueness), no limits.
    pub fn count_up_to(limit: u64) -> Request {
        Request {
            solution_limit: limit,
            limits: Limits::none(),
        }
    }

    /// The same request with these limits.
    pub fn with_limits(mut self, limits: Limits) -> Request {
        self.limits = limits;
        self
    }

    /// The solution limit, at least 1.
    pub fn effective_limit(&self) -> u64 {
        self.solution_limit.max(1)
    }
}

/// The result of one solve.
#[derive(Clone, Debug)]
pub struct Report {
    /// How the solve ended: the engine's own [`Outcome`], for every solver. Puzzles that are not valid input
    /// are rejected before solving, so there is no "invalid" here; clashing givens are
    /// [`Outcome::Unsatisfiable`]. A node/time limit or a cancel gives [`Outcome::Limit`] with its kind, never
    /// unsatisfiable; `count` and `solution` then hold what was found before the stop.
    pub status: Outcome,
    /// The first solution found, if any.
    pub solution: Option<Board>,
    /// Solutions found, at most the solution limit.
    pub count: u64,
    /// What the solve cost: `nodes`, `guesses` (branch points with more than one candidate), `fails`,
    /// `max_depth`, `time`.
    pub stats: Stats,
}

/// A solver instance. It owns its per-thread scratch and may be reused for any number of boards of any
/// supported size. A board with clashing givens is unsatisfiable, never a panic.
pub trait Solve: Send {
    /// Solves `board` as `req` asks.
    fn solve(&mut self, board: &Board, req: &Request) -> Report;
}

/// A registered solver.
#[derive(Clone, Copy, Debug)]
pub struct SolverInfo {
    /// Short name used on the command line (`naive`, `table`, ...).
    pub name: &'static str,
    /// One line for `--list` and reports.
    pub description: &'static str,
    /// Whether the solver handles boards of this box size (2..=6).
    pub supports: fn(box_size: usize) -> bool,
    /// Builds a fresh instance.
    pub make: fn() -> Box<dyn Solve>,
    /// The solver's direct 9x9 entry, if it has one (see [`Solve9`]): what a caller with millions of 9x9
    /// puzzles uses instead of an instance from `make` (the CLI's 9x9 lane). It must answer as the instance would.
    pub solve9: Option<Solve9>,
}

/// A stateless 9x9 entry of a solver: the givens row-major (0 = empty, 1..=9) in, the outcome, count, first
/// solution (row-major, 1..=9) and statistics out, without a [`Board`], a boxed instance or a clock read (the
/// `time` of the statistics is left zero: a caller that reports it times the call). An error when the entry
/// declines the cells (the caller then asks an instance from [`SolverInfo::make`]): a `Result`, as `solve9`
/// returns it, rather than an `Option`, whose conversion copied the ~150-byte result once more per puzzle.
///
/// Why beside [`Solve`]: on easy 9x9 puzzles the solve itself costs about 4.5k instructions, and the per-thread
/// instance, the `Board` of the solution and the two clock reads of the boxed path were 0.5k more per puzzle
/// (`docs/measurements.md`, "The CLI at 80% of the solver-only rate").
pub type Solve9 =
    fn(&[u8; 81], &Request) -> Result<crate::masks::MaskResult<[u8; 81]>, crate::masks::InputError>;
