//! Five puzzle families modelled on csp-core: N-Queens, graph colouring, Latin square completion, Killer Sudoku
//! and KenKen.
//!
//! Each family is one module implementing [`Puzzle`]: it parses its own text format (with line-numbered errors),
//! encodes an instance as a csp-core model, decodes the engine's solution, and verifies the answer with its own
//! checker that never calls the engine. [`puzzle::run_text`] runs any family of [`FAMILIES`] by [`Kind`], which is how the
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
pub use puzzle::{run_text, AnyPuzzle, DynReport, Encoding, Family, Kind, Mode, Puzzle, Report};

/// Every family, in the order the documentation lists them. Adding a family: its module (implementing [`Puzzle`]
/// and defining `pub const FAMILY`), its `pub mod` line above, its [`Kind`] variant and name, and one line here;
/// `run_text`, `--kind` parsing and the bench runner's `--kind` adapter read this list (a test checks that every
/// module implementing [`Puzzle`] is in it and every [`Kind`] has one entry).
pub static FAMILIES: &[Family] = &[
    queens::FAMILY,
    color::FAMILY,
    latin::FAMILY,
    killer::FAMILY,
    kenken::FAMILY,
];

#[cfg(test)]
mod tests {
    use super::FAMILIES;

    /// The recipe in [`FAMILIES`]'s doc holds: every module that implements [`crate::Puzzle`] has its line (the
    /// module is named after its `--kind`), every line's kind and name are distinct, and each kind finds its line.
    #[test]
    fn every_family_module_is_listed_once_and_every_listed_kind_finds_its_line() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut modules: Vec<String> = std::fs::read_dir(&src)
            .expect("src is readable")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| {
                std::fs::read_to_string(p).is_ok_and(|text| text.contains("\nimpl Puzzle for "))
            })
            .filter_map(|p| Some(p.file_stem()?.to_str()?.to_owned()))
            .collect();
        modules.sort();
        let mut listed: Vec<String> = FAMILIES.iter().map(|f| f.kind.name().to_owned()).collect();
        listed.sort();
        assert_eq!(modules, listed, "modules implementing Puzzle vs FAMILIES");
        let before = listed.len();
        listed.dedup();
        assert_eq!(listed.len(), before, "a kind listed twice");
        for f in FAMILIES {
            let found = f.kind.family().expect("every listed kind finds its line");
            assert_eq!(found.kind, f.kind);
            assert_eq!(f.kind.name().parse::<crate::Kind>(), Ok(f.kind));
        }
    }
}
