//! The `Puzzle` trait every family implements, and the one generic path that solves any of them.
//!
//! A family does four things and nothing else: **parse** its own text format, **encode** an instance as a csp-core
//! model, **decode** an engine solution into its own answer type, and **verify** that answer directly against the
//! puzzle's rules (never through the engine, so a propagation bug cannot hide a wrong answer). [`Puzzle::solve`] glues them:
//! encode, search, decode, verify, in that order, for every family alike; the `puzzles` binary and the bench runner
//! both go through it, the latter via the kind-erased [`run_text`].
//!
//! Variables are created in a fixed order by every family (cell `r * n + c`, vertex `v`, row `r` of the queens), so
//! decoding reads `solution.values()` by index and needs no side table.

use csp_core::{Outcome, Problem, SearchConfig, Solution, Solver, Stats, VarId};

use crate::error::{ParseError, PuzzleError, VerifyError};
use crate::family::{Family, Options};

/// What a solve is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The first solution found.
    First,
    /// Count solutions, stopping at the given number (2 proves uniqueness; `u64::MAX` counts them all).
    Count(u64),
}

/// A puzzle instance as a frozen csp-core problem plus the values fixed at the root (givens).
pub struct Encoding {
    /// The model, frozen; variable `i` is the family's `i`-th cell / vertex / row.
    pub problem: Problem,
    /// Givens, passed to the solver as root assumptions so one problem serves every instance of a shape.
    pub assumptions: Vec<(VarId, i64)>,
    /// The variables in the family's order (`vars[i]` is cell / vertex / row `i`).
    pub vars: Vec<VarId>,
}

/// What one solve produced.
#[derive(Clone, Debug)]
pub struct Report<A> {
    /// Solved (an answer exists), Unsatisfiable (proof that none does) or Limit (no conclusion).
    pub outcome: Outcome,
    /// The first answer found, decoded.
    pub answer: Option<A>,
    /// With [`Mode::Count`]: solutions counted (exact unless `outcome` is a limit).
    pub count: Option<u64>,
    /// Search effort, summed over every engine call the solve made.
    pub stats: Stats,
    /// The independent verifier's verdict on `answer` (`None` when there is no answer).
    pub verified: Option<Result<(), VerifyError>>,
    /// Family-specific result fields for the JSON line (colouring: `colors`, `optimal`).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// One puzzle family: its format, its model, its decoding and its own checker.
pub trait Puzzle: Sized + Sync {
    /// A solved instance in the family's own terms (queen columns, vertex colours, a filled grid).
    type Answer;

    /// Reads one instance from the family's text format; errors name the line (and column) at fault.
    fn parse(text: &str) -> Result<Self, ParseError>;

    /// Builds the csp-core model. Errors here mean the instance is contradictory (see [`PuzzleError::Invalid`]).
    fn encode(&self) -> Result<Encoding, PuzzleError>;

    /// Turns an engine solution of [`Puzzle::encode`]'s model into an answer.
    fn decode(&self, solution: &Solution) -> Self::Answer;

    /// Checks an answer against the rules directly, without the engine.
    fn verify(&self, answer: &Self::Answer) -> Result<(), VerifyError>;

    /// The search strategy that does best on this family (measured; see the crate README).
    fn default_config(&self) -> SearchConfig {
        SearchConfig::default()
    }

    /// The answer in the family's text format (what `--format text` prints).
    fn answer_text(&self, answer: &Self::Answer) -> String;

    /// The answer as a JSON value, written under [`Puzzle::answer_key`].
    fn answer_json(&self, answer: &Self::Answer) -> serde_json::Value;

    /// The answer as the binary's `--format text` shows it: [`Puzzle::answer_text`] unless a family adds a
    /// picture (small queens boards).
    fn answer_display(&self, answer: &Self::Answer) -> String {
        self.answer_text(answer)
    }

    /// Takes the family's extra command-line options ([`Family::options`]) for this instance.
    fn configure(&mut self, options: &Options) -> Result<(), String> {
        let _ = options;
        Ok(())
    }

    /// Checks the family's options against the mode before any instance is read ([`Family::check`]).
    fn check_options(options: &Options, mode: Mode) -> Result<(), String> {
        let _ = (options, mode);
        Ok(())
    }

    /// The JSON key of the answer: `"solution"`, except where the issue names another (`"coloring"`).
    fn answer_key(&self) -> &'static str {
        "solution"
    }

    /// Encode, search, decode, verify. Families with more than one engine call per answer (the chromatic number)
    /// override this.
    fn solve(
        &self,
        config: &SearchConfig,
        mode: Mode,
    ) -> Result<Report<Self::Answer>, PuzzleError> {
        solve_encoded(self, &self.encode()?, config, mode)
    }
}

/// Runs one search on an already built encoding: the shared half of [`Puzzle::solve`].
pub fn solve_encoded<P: Puzzle>(
    puzzle: &P,
    encoding: &Encoding,
    config: &SearchConfig,
    mode: Mode,
) -> Result<Report<P::Answer>, PuzzleError> {
    let mut solver = Solver::new(&encoding.problem, config.clone());
    let (outcome, solution, stats, count) = match mode {
        Mode::First => {
            let r = solver.solve(&encoding.assumptions);
            (r.outcome, r.solution, r.stats, None)
        }
        Mode::Count(limit) => {
            let c = solver.count(&encoding.assumptions, limit);
            (c.outcome, c.first, c.stats, Some(c.count))
        }
    };
    let answer = solution.as_ref().map(|s| puzzle.decode(s));
    let verified = answer.as_ref().map(|a| puzzle.verify(a));
    Ok(Report {
        outcome,
        answer,
        count,
        stats,
        verified,
        extra: serde_json::Map::new(),
    })
}

/// A [`Report`] with the answer already rendered, so callers can handle every family alike.
#[derive(Clone, Debug)]
pub struct DynReport {
    /// See [`Report::outcome`].
    pub outcome: Outcome,
    /// See [`Report::count`].
    pub count: Option<u64>,
    /// See [`Report::stats`].
    pub stats: Stats,
    /// See [`Report::verified`].
    pub verified: Option<Result<(), VerifyError>>,
    /// The answer in the family's text format.
    pub answer_text: Option<String>,
    /// The answer as `--format text` shows it ([`Puzzle::answer_display`]).
    pub answer_display: Option<String>,
    /// The answer as JSON.
    pub answer_json: Option<serde_json::Value>,
    /// The JSON key the answer goes under (see [`Puzzle::answer_key`]).
    pub answer_key: &'static str,
    /// See [`Report::extra`].
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Solves a parsed instance and renders its answer (the generic body of [`run_text`]).
pub fn run_puzzle<P: Puzzle>(
    puzzle: &P,
    config: Option<&SearchConfig>,
    mode: Mode,
) -> Result<DynReport, PuzzleError> {
    let default;
    let config = match config {
        Some(c) => c,
        None => {
            default = puzzle.default_config();
            &default
        }
    };
    let r = puzzle.solve(config, mode)?;
    Ok(DynReport {
        outcome: r.outcome,
        count: r.count,
        stats: r.stats,
        verified: r.verified,
        answer_text: r.answer.as_ref().map(|a| puzzle.answer_text(a)),
        answer_display: r.answer.as_ref().map(|a| puzzle.answer_display(a)),
        answer_json: r.answer.as_ref().map(|a| puzzle.answer_json(a)),
        answer_key: puzzle.answer_key(),
        extra: r.extra,
    })
}

/// Parses `text` as an instance of `family` and solves it: the entry point for tools that take `--kind`.
///
/// `config: None` uses the family's default strategy.
pub fn run_text(
    family: &Family,
    text: &str,
    config: Option<&SearchConfig>,
    mode: Mode,
) -> Result<DynReport, PuzzleError> {
    family.parse(text)?.run(config, mode)
}

/// A parsed instance of any family, kind-erased: what tools that take `--kind` (the bench runner) need of it.
pub trait AnyPuzzle: Send + Sync {
    /// The family's default search strategy for this instance ([`Puzzle::default_config`]).
    fn strategy(&self) -> SearchConfig;
    /// Builds the model once, so a contradictory instance ([`PuzzleError::Invalid`]) is found before any search.
    fn check_encoding(&self) -> Result<(), PuzzleError>;
    /// Takes the family's extra options ([`Puzzle::configure`]).
    fn configure(&mut self, options: &Options) -> Result<(), String>;
    /// Solves and renders the answer ([`run_puzzle`]).
    fn run(&self, config: Option<&SearchConfig>, mode: Mode) -> Result<DynReport, PuzzleError>;
}

impl<P: Puzzle + Send> AnyPuzzle for P {
    fn strategy(&self) -> SearchConfig {
        Puzzle::default_config(self)
    }

    fn check_encoding(&self) -> Result<(), PuzzleError> {
        self.encode().map(|_| ())
    }

    fn configure(&mut self, options: &Options) -> Result<(), String> {
        Puzzle::configure(self, options)
    }

    fn run(&self, config: Option<&SearchConfig>, mode: Mode) -> Result<DynReport, PuzzleError> {
        run_puzzle(self, config, mode)
    }
}
