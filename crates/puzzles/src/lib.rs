//! Five puzzle families modelled on csp-core: N-Queens, graph colouring, Latin square completion, Killer Sudoku
//! and KenKen.
//!
//! Each family is one module implementing [`Puzzle`]: it parses its own text format (with line-numbered errors),
//! encodes an instance as a csp-core model, decodes the engine's solution, and verifies the answer with its own
//! checker that never calls the engine. [`puzzle::run_text`] runs any family by [`Kind`], which is how the
//! `puzzles` binary and the bench runner's `--kind` reach them.
//!
//! ```
//! use puzzles::{Mode, Puzzle, queens::Queens};
//!
//! let q = Queens::new(8).expect("8 is a valid size");
//! let report = q.solve(&q.default_config(), Mode::Count(u64::MAX)).expect("the model builds");
//! assert_eq!(report.count, Some(92));
//! assert!(report.verified.expect("an answer was found").is_ok());
//! ```
//!
//! Generators make every instance family the tests need, seeded and deterministic: queen graphs and Mycielski
//! graphs ([`graph`]), quasigroups with holes ([`latin::generate`]), uniquely solvable Killer Sudoku
//! ([`killer::generate_unique`]) and KenKen ([`kenken::generate_unique`]). The fuzz bodies (`fuzz_targets`) build
//! only with the `fuzz` feature, which this crate's own tests turn on.

pub mod cages;
pub mod color;
pub mod error;
#[cfg(feature = "fuzz")]
pub mod fuzz_targets;
pub mod graph;
pub mod kenken;
pub mod killer;
pub mod latin;
pub mod puzzle;
pub mod queens;
pub mod rng;
pub mod strategy;
pub mod text;

pub use error::{ParseError, PuzzleError, VerifyError};
pub use puzzle::{run_text, DynReport, Encoding, Kind, Mode, Puzzle, Report};
