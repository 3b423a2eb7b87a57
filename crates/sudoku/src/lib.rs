//! Sudoku boards of every size (4x4 to 36x36): parsing, baselines, verification, a solver registry.
//!
//! The `sudoku` command line (`src/bin/sudoku/`) is a client of this library, built with the `cli` feature.
//!
//! Data flows one way: text -> [`parse`] -> [`Board`] -> a solver from the [`registry`](mod@registry) -> [`verify`] ->
//! [`format`](mod@format). The checker in [`verify`] never uses a solver, so a solver bug cannot hide a wrong answer.
//! The other way round, [`generate`] makes unique puzzles from a seed (random grid, clues removed while a solver
//! proves uniqueness, rated by a second solver's search effort).
//!
//! ```
//! use sudoku::{registry, verify, Board, Request, Status};
//! let puzzle: Board = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!     .parse()
//!     .expect("a valid 9x9 line");
//! for info in registry() {
//!     let mut solver = (info.make)();
//!     let report = solver.solve(&puzzle, &Request::count_up_to(2));
//!     assert_eq!((report.status, report.count), (Status::Solved, 1), "{} proves uniqueness", info.name);
//!     let solution = report.solution.expect("a solved report carries its solution");
//!     assert!(verify::verify(&puzzle, &solution).is_ok());
//! }
//! ```

pub mod board;
pub mod fast;
pub mod format;
pub mod fuzz_targets;
pub mod generate;
pub mod leetcode;
pub mod parse;
pub mod per_thread;
pub mod registry;
pub mod solvers;
pub mod verify;

pub use board::{Board, House};
pub use registry::{find, registry, Report, Request, Solve, SolverInfo, Status};
