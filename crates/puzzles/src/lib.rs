//! Puzzle families modelled on csp-core: N-Queens, graph colouring, Latin square completion, Killer Sudoku,
//! KenKen, Kakuro, Nonograms and Hidato.
//!
//! Each family is one module implementing [`Puzzle`]: it parses its own text format (with line-numbered errors),
//! encodes an instance as a csp-core model, decodes the engine's solution, and verifies the answer with its own
//! checker that never calls the engine. Its [`Family`] descriptor (name, options, generators, datasets) is its
//! line in [`FAMILIES`], the one list the `puzzles` binary and the bench runner's `--kind` read; [`run_text`]
//! runs any of them from text.
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
//! The public surface is this page: the trait and its report types, the family descriptor, the errors, and one
//! public module per family (its instance type, checker and generator). Generators make every instance family the
//! tests need, seeded and deterministic: queen graphs and Mycielski graphs ([`color::queen_graph`],
//! [`color::mycielski_graph`]), quasigroups with holes ([`latin::generate`]), uniquely solvable Killer Sudoku
//! ([`killer::generate_unique`]) and KenKen ([`kenken::generate_unique`]). The fuzz bodies (`fuzz_targets`) build
//! only with the `fuzz` feature, which this crate's own tests turn on.

mod cages;
mod error;
mod family;
#[cfg(feature = "fuzz")]
pub mod fuzz_targets;
mod graph;
mod puzzle;
mod rng;
mod strategy;
mod text;

pub use cages::{grow_cages, Cage};
pub use error::{ParseError, PuzzleError, VerifyError};
pub use family::{family, Family, Generator, Input, Opt, Options};
pub use puzzle::{
    run_puzzle, run_text, solve_encoded, AnyPuzzle, DynReport, Encoding, Mode, Puzzle, Report,
};
pub use rng::Rng;
pub use strategy::{apply as apply_strategy, names as strategy_names};

/// Declares each family module (public: it is the family's namespace, `puzzles::killer::Killer`) and lists its
/// `FAMILY` in [`FAMILIES`], so a family is one name in the one list below.
macro_rules! families {
    ($($(#[$doc:meta])* $module:ident),* $(,)?) => {
        $($(#[$doc])* pub mod $module;)*

        /// Every family, in the order the documentation lists them: the only list the `puzzles` binary (one
        /// subcommand each, plus their generators under `generate`) and the bench runner's `--kind` read.
        ///
        /// Adding a family: one module file implementing [`Puzzle`] and ending with `pub const FAMILY: Family`
        /// (name, description, options, generators, dataset folders), plus its name in the `families!` list in
        /// `lib.rs`. A test checks that every module implementing [`Puzzle`] is listed and that names are
        /// distinct.
        pub static FAMILIES: &[Family] = &[$($module::FAMILY),*];
    };
}

families!(queens, color, latin, killer, kenken, kakuro, nonogram, hidato);

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
        let mut listed: Vec<String> = FAMILIES.iter().map(|f| f.name.to_owned()).collect();
        listed.sort();
        assert_eq!(modules, listed, "modules implementing Puzzle vs FAMILIES");
        let before = listed.len();
        listed.dedup();
        assert_eq!(listed.len(), before, "a kind listed twice");
        for f in FAMILIES {
            let found = crate::family(f.name).expect("every listed name finds its line");
            assert_eq!(found.name, f.name);
            let mut gens: Vec<&str> = f.generators.iter().map(|g| g.name).collect();
            gens.dedup();
            assert_eq!(
                gens.len(),
                f.generators.len(),
                "{}: a generator listed twice",
                f.name
            );
        }
        assert!(crate::family("nope")
            .err()
            .unwrap_or_default()
            .contains("queens"));
    }
}
