//! Sudoku solvers on raw cell arrays with bitmask candidates (no [`Board`](crate::Board), no engine): the
//! building blocks of the registry's `fast` solver (`solvers/fast.rs`) and of the generator's solves.
//!
//! - [`solve9`] (9x9, `fast`'s): band9's root, then band9's search, or triad9's from that root when it leaves many
//!   candidates open (hard puzzles). [`solve9_band`] is band9 alone: candidates as bitboards, one 27-bit band per
//!   digit and band; band-level locked candidates and hidden singles by table lookup, bit-sliced naked singles,
//!   copy-on-guess on a bi-value cell (`band9.rs`). [`solve9_triad`] is triad9 alone: boxes as SIMD registers of
//!   cells and negative triads, band configurations, guesses on a configuration (`triad9.rs`). On a root `fast`
//!   hands to triad9, each digit's configurations are narrowed to those on some whole placement of the digit
//!   (`templates.rs`: fish patterns that triad9's band-by-box propagation does not see), at the root when
//!   counting and after a few nodes when only the first solution is wanted.
//! - Both 9x9 solvers are compiled more than once, for the default target and with extra processor features
//!   (BMI for band9; AVX2 and AVX-512 for triad9), and `dispatch.rs` picks the copy by run-time detection: the
//!   one file here with `unsafe`, whose every call is checked against the detected features.
//! - [`solve_generic`] (every box size 2..=6): per-cell `u64` masks, naked + hidden singles, MRV guessing; a
//!   baseline tested like the rest and the generator's 4x4 and 16x16 solver.
//!
//! Both take cells row-major with 0 = empty and 1..=N = given, and return a [`MaskResult`]: the outcome (a stopped
//! search is [`Outcome::Limit`], never unsatisfiable), the number of solutions found up to the limit, the first
//! solution and the search statistics. Givens that clash are unsatisfiable, not an error; only malformed input
//! (wrong length, value above N, unsupported size) is an [`InputError`].
//!
//! ```
//! use csp_core::{Limits, Outcome};
//! let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
//! let mut cells = [0u8; 81];
//! for (cell, ch) in cells.iter_mut().zip(line.bytes()) {
//!     *cell = if ch == b'.' { 0 } else { ch - b'0' };
//! }
//! let result = sudoku::masks::solve9(&cells, 2, &Limits::none()).expect("values are 0..=9");
//! assert_eq!(result.outcome, Outcome::Solved);
//! assert_eq!(result.count, 1, "the puzzle is proper");
//! assert_eq!(result.solution.expect("solved")[..9], [5, 3, 4, 6, 7, 8, 9, 1, 2]);
//! ```

mod band9;
mod dispatch;
mod generic;
mod tables;
mod templates;
mod triad9;

#[cfg(test)]
mod tests;

pub use band9::{solve9, solve9_band};
pub use generic::solve_generic;
pub use triad9::{solve9_triad, solve9_triad_portable};

use std::sync::atomic::Ordering;
use std::time::Instant;

use csp_core::{LimitKind, Limits, Outcome, Stats};

/// What one solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaskResult<S> {
    /// Solved (at least one solution, and the search finished or reached the solution limit), unsatisfiable
    /// (search exhausted with none), or stopped by a limit (whatever was found so far is still reported).
    pub outcome: Outcome,
    /// Solutions found, at most the solution limit.
    pub count: u64,
    /// The first solution found, row-major, values 1..=N.
    pub solution: Option<S>,
    /// Nodes (values tried at branch points), guesses (branch points; every one has at least two candidates),
    /// fails (propagation conflicts), max_depth (deepest decision level), solutions. `time` is left zero: callers
    /// that want it time the call.
    pub stats: Stats,
}

/// Input the solvers cannot take: a caller's bug or unchecked user data, reported instead of a panic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// The box size is outside 2..=6.
    BadBoxSize(usize),
    /// The cell slice does not have N*N entries.
    BadLength {
        /// N*N for the requested box size.
        expected: usize,
        /// The slice's length.
        found: usize,
    },
    /// A cell holds a value above N.
    BadValue {
        /// Row-major index of the cell.
        cell: usize,
        /// The value found there.
        value: u8,
        /// N, the largest value allowed.
        size: usize,
    },
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::BadBoxSize(n) => write!(f, "box size {n} is not supported (2..=6)"),
            InputError::BadLength { expected, found } => {
                write!(f, "expected {expected} cells, found {found}")
            }
            InputError::BadValue { cell, value, size } => {
                let (row, col) = (cell / size.max(&1) + 1, cell % size.max(&1) + 1);
                write!(
                    f,
                    "cell r{row}c{col} holds {value}, above the largest value {size}"
                )
            }
        }
    }
}

/// The resource limit a mask search has reached after `nodes` nodes, if any: the node limit, then
/// [`Limits::exceeded`] when `start` is set (a time limit exists, so the solver read the clock at its start), else
/// the cancel flag alone, read on the same schedule ([`Limits::CHECK_EVERY`] nodes). A cancel flag without a time
/// limit (the command line always passes its Ctrl-C flag) therefore costs no clock read per solve. Shared by the
/// 9x9 and the generic search so both stop alike.
pub(crate) fn limit_reached(
    limits: &Limits,
    nodes: u64,
    start: Option<Instant>,
) -> Option<LimitKind> {
    if limits.nodes.is_some_and(|max| nodes >= max) {
        return Some(LimitKind::Nodes);
    }
    match start {
        Some(start) => limits.exceeded(nodes, start),
        None => (nodes & (Limits::CHECK_EVERY - 1) == 0
            && limits
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed)))
        .then_some(LimitKind::Cancelled),
    }
}

/// Why a mask search stopped before its tree ran out (band9's, triad9's and the generic one's).
#[derive(Debug)]
enum Stop {
    /// The solution limit was reached.
    Enough,
    /// A resource limit was reached.
    Limit(LimitKind),
}

impl Stop {
    /// The outcome of a search that ended with `ended` after finding `count` solutions: a tree that ran out with
    /// none is unsatisfiable, with some solved; a stop is solved (enough solutions) or at a limit, never
    /// unsatisfiable.
    fn outcome(ended: Result<(), Stop>, count: u64) -> Outcome {
        match ended {
            Ok(()) if count == 0 => Outcome::Unsatisfiable,
            Ok(()) | Err(Stop::Enough) => Outcome::Solved,
            Err(Stop::Limit(kind)) => Outcome::Limit(kind),
        }
    }
}

/// The number of solutions a search stops at: `solution_limit`, 0 meaning all of them.
fn solution_cap(solution_limit: u64) -> u64 {
    if solution_limit == 0 {
        u64::MAX
    } else {
        solution_limit
    }
}

impl std::error::Error for InputError {}

/// A value above 9 in a 9x9 grid as an [`InputError`] naming its first cell: the check of every 9x9 entry here
/// (band9's, triad9's and `fast`'s route).
pub(super) fn check_values9(givens: &[u8; 81]) -> Result<(), InputError> {
    // The maximum vectorises; the position is only looked for on bad input.
    match (givens.iter().fold(0, |m, &v| m.max(v)) > 9)
        .then(|| givens.iter().position(|&v| v > 9))
        .flatten()
    {
        Some(cell) => Err(InputError::BadValue {
            cell,
            value: givens[cell],
            size: 9,
        }),
        None => Ok(()),
    }
}

/// Checks what every solver here assumes of its input: a box size in 2..=6, N*N cells, values in 0..=N. Returns
/// N.
pub(crate) fn check_input(box_size: usize, givens: &[u8]) -> Result<usize, InputError> {
    if !(2..=6).contains(&box_size) {
        return Err(InputError::BadBoxSize(box_size));
    }
    let size = box_size * box_size;
    if givens.len() != size * size {
        return Err(InputError::BadLength {
            expected: size * size,
            found: givens.len(),
        });
    }
    if let Some(cell) = givens.iter().position(|&v| usize::from(v) > size) {
        return Err(InputError::BadValue {
            cell,
            value: givens[cell],
            size,
        });
    }
    Ok(size)
}
