//! What the runner needs from a puzzle family: read records, list and build solvers, solve, verify.
//!
//! The runner, its statistics and its reports are written once against [`Family`]; each puzzle family
//! (Sudoku through the `sudoku` crate's registry, the other puzzles through the `puzzles` crate) is one
//! adapter implementing it. A new family of the `puzzles` crate needs no code here: `puzzles_family.rs` reads the
//! crate's `FAMILIES` list, and `--kind` accepts every name in it (`cli::parse_kind`).

use std::io::BufRead;

use csp_core::{Limits, Outcome, Stats};

/// One dataset entry as read: its 1-based line and either a puzzle or the reason it could not be read.
pub struct Record<P, S> {
    /// 1-based line where the entry starts in its file.
    pub line: usize,
    /// The puzzle (with the dataset's own solution, when it carries one) or the parse error message.
    pub item: Result<Entry<P, S>, String>,
}

/// A readable puzzle and the solution the dataset claims for it, if any (Kaggle CSV carries one).
pub struct Entry<P, S> {
    /// The puzzle to solve.
    pub puzzle: P,
    /// The dataset's expected solution, compared with every solver's answer outside the timed region.
    pub expected: Option<S>,
}

/// How one solve ended, as the runner classifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Exactly the requested solutions were found (with `--limit 2`: a unique solution is proved).
    Solved,
    /// With `--limit 2`: at least two solutions exist.
    Multiple,
    /// The search proved there is no solution.
    Unsatisfiable,
    /// The entry could not be read, or its givens clash: no solver ran.
    Invalid,
    /// A node or time limit stopped the search before it concluded (never counted as unsatisfiable).
    Limit,
    /// The solver does not support this puzzle's size; it was not run.
    Skipped,
}

impl Verdict {
    /// The one mapping from how a search ended: `counting` says the run asked for up to two solutions, so a solved
    /// search that found `count >= 2` is [`Verdict::Multiple`]. A stopped search is [`Verdict::Limit`], whatever
    /// stopped it.
    pub fn of(outcome: Outcome, counting: bool, count: u64) -> Verdict {
        match outcome {
            Outcome::Solved if counting && count >= 2 => Verdict::Multiple,
            Outcome::Solved => Verdict::Solved,
            Outcome::Unsatisfiable => Verdict::Unsatisfiable,
            Outcome::Limit(_) => Verdict::Limit,
        }
    }

    /// Lower-case name used in per-puzzle rows and messages.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Solved => "solved",
            Verdict::Multiple => "multiple",
            Verdict::Unsatisfiable => "unsatisfiable",
            Verdict::Invalid => "invalid",
            Verdict::Limit => "limit",
            Verdict::Skipped => "skipped",
        }
    }
}

/// A solver's answer to one puzzle, before verification.
pub struct Answer<S> {
    /// How the search ended: `Solved`, `Multiple`, `Unsatisfiable` or `Limit`.
    pub verdict: Verdict,
    /// The first solution found, when one was.
    pub solution: Option<S>,
    /// Solutions found (at most the requested limit).
    pub count: u64,
    /// The search's own counters.
    pub stats: Stats,
    /// True when the search stopped because the run's cancel flag was raised (Ctrl-C): the runner drops it.
    pub cancelled: bool,
}

/// One registry entry as the runner lists it.
#[derive(Clone, Copy, Debug)]
pub struct SolverName {
    /// Short name used with `--solvers`.
    pub name: &'static str,
    /// One-line description printed by `--list`.
    pub description: &'static str,
}

/// A puzzle family the runner can benchmark.
///
/// Implementations are stateless adapters; every solve owns its solver instance (`Self::Solver`), built once per
/// worker thread and reused (`sudoku::per_thread::PerThread`; a spare for a solve nested on the same thread), so no
/// solver state is shared between threads.
pub trait Family: Sync {
    /// A puzzle ready to solve.
    type Puzzle: Send + Sync + 'static;
    /// A solution, comparable so that solvers and datasets can be checked against each other.
    type Solution: Send + Sync + PartialEq + 'static;
    /// One solver instance with its reusable scratch.
    type Solver: Send;
    /// What to solve for (solution limit and limits), built once per chunk and shared by every solve of it, so the
    /// timed loop does no per-puzzle setup.
    type Request: Sync;

    /// The `--kind` name of this family.
    fn kind(&self) -> &'static str;
    /// Every solver of the family's registry, in registry order.
    fn solvers(&self) -> Vec<SolverName>;
    /// Builds a fresh instance of the named solver (`None` for an unknown name).
    fn make(&self, name: &str) -> Option<Self::Solver>;
    /// Whether the named solver can take this puzzle (e.g. a baseline limited to small boards).
    /// Takes the built instance rather than its name, so the timed loop does no registry look-up.
    fn supports(&self, solver: &Self::Solver, puzzle: &Self::Puzzle) -> bool;
    /// The request for `solution_limit` solutions under `limits`.
    fn request(&self, solution_limit: u64, limits: Limits) -> Self::Request;
    /// Solves `puzzle` as `request` says; an answer stopped by the request's cancel flag has `cancelled` set.
    fn solve(
        &self,
        solver: &mut Self::Solver,
        puzzle: &Self::Puzzle,
        request: &Self::Request,
    ) -> Answer<Self::Solution>;
    /// Checks a solution against its puzzle independently of any search; `Err` says what is wrong.
    fn verify(&self, puzzle: &Self::Puzzle, solution: &Self::Solution) -> Result<(), String>;
    /// True when two concluded `Solved` answers must have equal solutions (by `PartialEq`) even when one
    /// solution was asked for: a family whose solutions compare on something canonical (an optimum's objective).
    /// Otherwise solutions are compared only with a solution limit of 2 or more (a proved-unique solution).
    fn answers_must_match(&self) -> bool {
        false
    }
    /// Renders a solution as one line (used in per-puzzle rows and error messages).
    fn render(&self, solution: &Self::Solution) -> String;
    /// Streams the records of one dataset; memory stays bounded by one record.
    fn records<'a>(
        &self,
        input: Box<dyn BufRead + Send + 'a>,
    ) -> Box<dyn Iterator<Item = Record<Self::Puzzle, Self::Solution>> + Send + 'a>;
}
