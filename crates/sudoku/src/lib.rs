//! Sudoku boards of every size (4x4 to 36x36): parsing, baselines, verification, a solver registry.
//!
//! Data flows one way, and the files follow it:
//!
//! ```text
//! text -> parse/ -> board.rs (Board) -> a solver (solver.rs: the interface; registry.rs: the list;
//!                                      solvers/: one file each) -> verify.rs -> format/ (line, grid, jsonl)
//! ```
//!
//! The checker in [`verify`] never uses a solver, so a solver bug cannot hide a wrong answer. The other way round,
//! [`generate`] makes unique puzzles from a seed (random grid, clues removed while a solver proves uniqueness,
//! rated by a second solver's search effort). [`masks`] holds the raw-cell solvers the `fast` entry and the
//! generator are built from; [`leetcode`] the exercise's `solve_sudoku(&mut Vec<Vec<char>>)`; [`per_thread`] the
//! per-thread solver slots of parallel runs; [`pipeline`] the ordered parallel pipeline and the Ctrl-C handling
//! of every file run (the `sudoku` CLI and bench-runner). The `sudoku` command line (`src/bin/sudoku/`) is a client of this
//! library, built with the `cli` feature. The fuzz bodies and their reference oracles (`fuzz_targets`) build only
//! with the `fuzz` feature, which this crate's own tests turn on.
//!
//! Adding a solver: one file under `solvers/` exporting a [`SolverInfo`], and one line in `registry.rs`.
//!
//! ```
//! use sudoku::{registry, verify, Board, Outcome, Request};
//! let puzzle: Board = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .parse()
//!     .expect("a valid 9x9 line");
//! for info in registry() {
//!     let mut solver = (info.make)();
//!     let report = solver.solve(&puzzle, &Request::count_up_to(2));
//!     assert_eq!((report.status, report.count), (Outcome::Solved, 1), "{} proves uniqueness", info.name);
//!     let solution = report.solution.expect("a solved report carries its solution");
//!     assert!(verify::verify(&puzzle, &solution).is_ok());
//! }
//! ```

pub mod board;
pub mod format;
#[cfg(feature = "fuzz")]
pub mod fuzz_targets;
pub mod generate;
pub mod leetcode;
pub mod masks;
pub mod parse;
pub mod per_thread;
pub mod pipeline;
pub mod registry;
pub mod shard;
pub mod solver;
pub mod solvers;
pub mod verify;

pub use board::{Board, House};
pub use csp_core::{LimitKind, Outcome};
pub use leetcode::{solve_sudoku, try_solve_sudoku};
pub use registry::{find, registry};
pub use solver::{Report, Request, Solve, Solve9, SolverInfo};

/// The workspace README's Rust blocks, compiled and run by `cargo test --doc -p sudoku`, so every path the README
/// shows (`sudoku::solve_sudoku`, `sudoku::try_solve_sudoku`, ...) keeps compiling.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
