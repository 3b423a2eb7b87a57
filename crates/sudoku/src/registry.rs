//! The registry: every Sudoku solver with its short name and one-line description, slowest baseline first.
//!
//! Tests, the CLI and the bench runner loop over [`registry()`]; adding a solver means one file under `solvers/`
//! exporting a [`SolverInfo`] and one line in `REGISTRY` below (the test `every_solver_module_is_registered`
//! checks the two agree). The interface every entry implements is in [`solver`](mod@crate::solver).

use crate::solver::SolverInfo;
use crate::solvers;

/// The default solver of the CLI and the LeetCode API: the fastest registered one.
pub const DEFAULT_SOLVER: &str = "fast";

/// Every solver, slowest baseline first.
static REGISTRY: &[SolverInfo] = &[
    solvers::naive::INFO,
    solvers::table::INFO,
    solvers::csp::presets::CHECK_INFO,
    solvers::csp::presets::FC_INFO,
    solvers::csp::presets::MRV_INFO,
    solvers::csp::presets::MRV_SINGLES_INFO,
    solvers::csp::presets::MRV_LOCKED_INFO,
    solvers::csp::presets::MRV_DEGREE_INFO,
    solvers::csp::presets::DOM_WDEG_INFO,
    solvers::csp::presets::MEDIAN_INFO,
    solvers::csp::presets::LCV_INFO,
    solvers::csp::presets::RANDOM_INFO,
    solvers::fast::INFO,
];

/// Every registered solver.
pub fn registry() -> &'static [SolverInfo] {
    REGISTRY
}

/// The solver called `name`.
pub fn find(name: &str) -> Option<&'static SolverInfo> {
    REGISTRY.iter().find(|s| s.name == name)
}

/// Names of all solvers, comma-separated (for error messages).
pub fn names() -> String {
    REGISTRY
        .iter()
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_the_default_is_registered() {
        let mut names: Vec<&str> = registry().iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), registry().len());
        assert!(find(DEFAULT_SOLVER).is_some());
        assert!(find("no-such-solver").is_none());
    }

    /// The recipe "one file under `solvers/` plus one line in `REGISTRY`" holds: every solver file (or folder) has
    /// an entry named after it (`naive.rs` -> `naive`, `csp/` -> `csp-*`), and every entry comes from one.
    #[test]
    fn every_solver_module_is_registered_and_every_entry_has_a_module() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/solvers");
        let mut modules: Vec<String> = std::fs::read_dir(&dir)
            .expect("src/solvers is readable")
            .map(|e| e.expect("a directory entry").path())
            .filter_map(|p| Some(p.file_stem()?.to_str()?.to_owned()))
            .filter(|stem| stem != "mod")
            .collect();
        modules.sort();
        for module in &modules {
            assert!(
                registry()
                    .iter()
                    .any(|s| s.name == module || s.name.starts_with(&format!("{module}-"))),
                "solvers/{module} has no line in REGISTRY"
            );
        }
        for s in registry() {
            let module = s.name.split('-').next().unwrap_or(s.name);
            assert!(
                modules.iter().any(|m| m == module),
                "{} has no module under solvers/",
                s.name
            );
        }
    }
}
