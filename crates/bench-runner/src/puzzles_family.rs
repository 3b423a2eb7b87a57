//! The other puzzle families (`--kind NAME` for every name of `puzzles::FAMILIES`) through the `puzzles` crate's
//! [`Puzzle`] trait.
//!
//! A dataset is one instance per file (a file, or a directory of them, as `datasets/puzzles/<kind>/` ships them).
//! Contenders are search strategies of the engine, named like the Sudoku presets; `naive` (input order, ascending
//! values, no propagation) is the baseline the speedups are measured against.
//!
//! Unlike the Sudoku solvers, the crate's solve path encodes the model and runs the family's own independent
//! checker inside the call, so the measured time includes both (small next to the search on these instances);
//! the runner reads the checker's verdict rather than checking again.

use std::io::{BufRead, Read};

use csp_core::{LimitKind, Limits, Outcome};
use puzzles::{apply_strategy, AnyPuzzle, Mode, PuzzleError};

use crate::family::{Answer, Entry, Family, Record, SolverName, Verdict};

/// Contenders: (name, `--strategy` spec over the family's default, description).
const STRATEGIES: &[(&str, &str, &str)] = &[
    (
        "naive",
        "input,ascending,none",
        "engine, input order, ascending values, no propagation (baseline)",
    ),
    (
        "fc",
        "input,ascending,fc",
        "engine, input order, forward checking",
    ),
    ("mrv", "mrv,ascending,fc", "engine, MRV + forward checking"),
    (
        "mrv-singles",
        "mrv,ascending,singles",
        "engine, MRV + forward checking + singles",
    ),
    ("dom-wdeg", "dom-wdeg,singles", "engine, dom/wdeg + singles"),
    (
        "lcv",
        "mrv,lcv,singles",
        "engine, MRV + least-constraining value + singles",
    ),
    ("default", "", "the family's own default strategy"),
];

/// One parsed instance of any family (from the `puzzles` crate's family list, so a new family needs no code
/// here).
pub struct Instance(Box<dyn AnyPuzzle>);

/// An answer as the family renders it, with its own checker's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleAnswer {
    /// The answer in the family's text format.
    pub text: String,
    /// The family's independent verification (`Err` says what is wrong).
    pub verified: Result<(), String>,
}

/// Adapter from the `puzzles` crate to the runner, for one family of `puzzles::FAMILIES`.
pub struct PuzzlesFamily(pub &'static puzzles::Family);

fn parse(family: &puzzles::Family, text: &str) -> Result<Instance, String> {
    let p = family.parse(text).map_err(|e| e.to_string())?;
    // Contradictory instances (clashing givens, unreachable cage sums) are invalid input, found before any search.
    match p.check_encoding() {
        Err(e @ PuzzleError::Invalid(_)) => Err(e.to_string()),
        _ => Ok(Instance(p)),
    }
}

fn solve_one(
    p: &dyn AnyPuzzle,
    spec: &str,
    mode: Mode,
    limits: &Limits,
) -> Result<puzzles::DynReport, String> {
    let config = apply_strategy(p.strategy(), spec)?.limits(limits.clone());
    p.run(Some(&config), mode).map_err(|e| e.to_string())
}

impl Family for PuzzlesFamily {
    type Puzzle = Instance;
    type Solution = PuzzleAnswer;
    type Solver = &'static str;
    type Request = (Mode, Limits);

    fn kind(&self) -> &'static str {
        self.0.name
    }

    fn solvers(&self) -> Vec<SolverName> {
        STRATEGIES
            .iter()
            .map(|&(name, _, description)| SolverName { name, description })
            .collect()
    }

    fn make(&self, name: &str) -> Option<Self::Solver> {
        STRATEGIES.iter().find(|s| s.0 == name).map(|s| s.1)
    }

    fn supports(&self, _: &Self::Solver, _: &Self::Puzzle) -> bool {
        true
    }

    fn request(&self, solution_limit: u64, limits: Limits) -> Self::Request {
        let mode = if solution_limit >= 2 {
            Mode::Count(solution_limit)
        } else {
            Mode::First
        };
        (mode, limits)
    }

    fn solve(
        &self,
        spec: &mut Self::Solver,
        puzzle: &Self::Puzzle,
        request: &Self::Request,
    ) -> Answer<Self::Solution> {
        let (mode, limits) = request;
        let result = solve_one(puzzle.0.as_ref(), spec, *mode, limits);
        let r = match result {
            Ok(r) => r,
            Err(_) => {
                let stats = csp_core::Stats::default();
                return Answer {
                    verdict: Verdict::Invalid,
                    solution: None,
                    count: 0,
                    stats,
                    cancelled: false,
                };
            }
        };
        let count = r.count.unwrap_or(u64::from(r.answer_text.is_some()));
        let verdict = Verdict::of(r.outcome, matches!(mode, Mode::Count(_)), count);
        let solution = r.answer_text.map(|text| PuzzleAnswer {
            text,
            verified: r.verified.unwrap_or(Ok(())).map_err(|e| e.to_string()),
        });
        let cancelled = r.outcome == Outcome::Limit(LimitKind::Cancelled);
        Answer {
            verdict,
            solution,
            count,
            stats: r.stats,
            cancelled,
        }
    }

    fn verify(&self, _: &Self::Puzzle, solution: &Self::Solution) -> Result<(), String> {
        solution.verified.clone()
    }

    fn render(&self, solution: &Self::Solution) -> String {
        solution.text.clone()
    }

    fn records<'a>(
        &self,
        mut input: Box<dyn BufRead + Send + 'a>,
    ) -> Box<dyn Iterator<Item = Record<Self::Puzzle, Self::Solution>> + Send + 'a> {
        let mut text = String::new();
        let item = match input.read_to_string(&mut text) {
            Err(e) => Err(format!("cannot read: {e}")),
            Ok(_) => parse(self.0, &text),
        };
        Box::new(std::iter::once(Record {
            line: 1,
            item: item.map(|puzzle| Entry {
                puzzle,
                expected: None,
            }),
        }))
    }
}
