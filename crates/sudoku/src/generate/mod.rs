//! The puzzle generator: unique puzzles of any box size (2..=6), deterministic for a seed, rated by search effort.
//!
//! One candidate puzzle, numbered `index` within a run seeded with `seed`, is made in four steps, all drawing
//! from the candidate's own random stream ([`candidate_rng`]):
//! 1. a random complete grid (`fill.rs`): randomised MRV search from random diagonal boxes;
//! 2. clue removal in a seeded order, keeping the puzzle unique (`dig.rs`: counts up to 2 with [`solve_cells`]), down to
//!    a minimal puzzle or to a target clue count, optionally by 180-degree symmetric pairs;
//! 3. a check of the result against the grid with the independent checker ([`crate::verify`]);
//! 4. a rating (`rate.rs`, [`Rater`]): the guesses of a second solver counting to 2, which must agree that the puzzle is
//!    unique and has the grid as its solution; candidates outside the requested rating range are rejected.
//!
//! Candidates are independent, so [`generate`] runs them in parallel batches on the current rayon pool and still
//! returns the same puzzles in the same order for a seed, whatever the thread count. "Hard by rating" is the
//! rating filter applied to many candidates: with `min_rating` only the top-rated ones are kept.
//!
//! ```
//! use sudoku::generate::{generate, GenerateOptions, Target};
//! let options = GenerateOptions { target: Target::Minimal, ..GenerateOptions::new(3) };
//! let run = generate(&options, 7, 2, 100).expect("9x9 puzzles are easy to make");
//! assert_eq!(run.puzzles.len(), 2);
//! let p = &run.puzzles[0];
//! assert!(sudoku::verify::verify(&p.puzzle, &p.solution).is_ok());
//! assert!(p.to_line().starts_with(&p.puzzle.to_line()));
//! ```

mod cells;
mod dig;
pub(crate) mod fill;
mod rate;
mod rng;

use std::collections::HashSet;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::board::{Board, MAX_BOX, MIN_BOX};
use crate::shard::Shard;
use crate::verify;
use csp_core::Outcome;
use dig::Dug;
use fill::Filler;

pub use cells::solve_cells;
pub use rate::{Rater, Rating, PREFERRED_RATERS};
pub use rng::{candidate_rng, Rng};

/// How far clues are removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Until no clue can be removed without losing uniqueness.
    Minimal,
    /// Until exactly this many clues remain (a grid that cannot get there is rejected).
    Clues(usize),
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Box size, 2..=6 (a 4x4 board is 2, 9x9 is 3, 16x16 is 4).
    pub box_size: usize,
    /// Minimal puzzles or a clue count.
    pub target: Target,
    /// Remove clues in 180-degree symmetric pairs.
    pub symmetric: bool,
    /// Keep only puzzles rated at least this many guesses.
    pub min_rating: Option<u64>,
    /// Keep only puzzles rated at most this many guesses.
    pub max_rating: Option<u64>,
    /// Node limit of each uniqueness check and of the rating solve (`None` = unlimited). A check stopped by
    /// it keeps its clue, so puzzles stay provably unique; see [`Generated::unproven`].
    pub node_limit: Option<u64>,
    /// The rating solver's registry name; `None` = the first of [`PREFERRED_RATERS`] available.
    pub rater: Option<String>,
    /// The part of the candidate stream this run explores: the `j`-th candidate it makes is candidate
    /// `index + j * count` of the whole stream, so the shards `0/N` .. `N-1/N` of one seed try every candidate
    /// exactly once ([`Shard::WHOLE`]: all of them, in order).
    pub shard: Shard,
}

impl GenerateOptions {
    /// Minimal, unsymmetric, unfiltered puzzles of `box_size`, with the default node limit of the size.
    pub fn new(box_size: usize) -> GenerateOptions {
        GenerateOptions {
            box_size,
            target: Target::Minimal,
            symmetric: false,
            min_rating: None,
            max_rating: None,
            node_limit: default_node_limit(box_size),
            rater: None,
            shard: Shard::WHOLE,
        }
    }
}

/// The default node limit of checks and ratings: none up to 9x9 (every check ends quickly), a bound on the
/// larger boards, where a sparse puzzle can take [`solve_cells`] millions of nodes to settle.
pub fn default_node_limit(box_size: usize) -> Option<u64> {
    (box_size > 3).then_some(20_000)
}

/// One generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: provably unique.
    pub puzzle: Board,
    /// Its one solution (the grid it was dug from).
    pub solution: Board,
    /// Search effort of the rater.
    pub rating: Rating,
    /// The rater's registry name.
    pub rater: &'static str,
    /// The run's seed.
    pub seed: u64,
    /// The candidate's number within the run: `(seed, index)` and the options reproduce the puzzle.
    pub index: u64,
    /// Clues kept only because their removal check hit the node limit (0 for every 4x4 and 9x9 puzzle; for a
    /// minimal target, 0 means every clue is proven necessary).
    pub unproven: usize,
}

impl Generated {
    /// Number of clues.
    pub fn clues(&self) -> usize {
        self.puzzle.givens()
    }

    /// The line format with the rating as a trailing comment, e.g.
    /// `<grid> # guesses=12 nodes=31 clues=24 rater=fast seed=1 index=17`; `unproven=K` follows when some
    /// clue was kept unproven, and `partial` when the rating hit the node limit (a lower bound).
    /// The crate's reader skips everything after `#`.
    pub fn to_line(&self) -> String {
        let mut line = format!(
            "{} # guesses={} nodes={} clues={} rater={} seed={} index={}",
            self.puzzle.to_line(),
            self.rating.guesses,
            self.rating.nodes,
            self.clues(),
            self.rater,
            self.seed,
            self.index
        );
        if self.unproven > 0 {
            line.push_str(&format!(" unproven={}", self.unproven));
        }
        if !self.rating.complete {
            line.push_str(" partial");
        }
        line
    }
}

/// Why a candidate was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rejection {
    /// The target clue count could not be reached from this grid.
    TargetUnreachable,
    /// The rating is outside the requested range.
    RatingOutOfRange,
}

/// What became of one candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Candidate {
    /// Kept.
    Accepted(Box<Generated>),
    /// Not kept, and why.
    Rejected(Rejection),
}

/// Why generation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The box size is outside 2..=6.
    BoxSize(usize),
    /// The target clue count is above the number of cells.
    TooManyClues {
        /// Clues asked for.
        clues: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// `min_rating` is above `max_rating`.
    EmptyRatingRange {
        /// Lower bound.
        min: u64,
        /// Upper bound.
        max: u64,
    },
    /// No registered solver has this name.
    UnknownRater(String),
    /// The rater does not handle this board size.
    RaterUnsupported {
        /// Rater name.
        rater: String,
        /// Board side.
        side: usize,
    },
    /// The requested number of puzzles was not found within the candidate budget.
    OutOfCandidates {
        /// Puzzles found.
        found: usize,
        /// Puzzles asked for.
        wanted: usize,
        /// Candidates tried.
        tried: u64,
    },
    /// A bug: the solvers disagree about a generated puzzle, or its solution failed the checker.
    Disagreement {
        /// The candidate.
        index: u64,
        /// The puzzle as a line.
        puzzle: String,
        /// What went wrong.
        detail: String,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::BoxSize(b) => write!(f, "box size {b} is not supported (2..=6)"),
            GenerateError::TooManyClues { clues, cells } => {
                write!(f, "{clues} clues asked for, but the board has only {cells} cells")
            }
            GenerateError::EmptyRatingRange { min, max } => {
                write!(f, "minimum rating {min} is above maximum rating {max}")
            }
            GenerateError::UnknownRater(name) => write!(
                f,
                "unknown rater `{name}` (known: {})",
                crate::registry::names()
            ),
            GenerateError::RaterUnsupported { rater, side } => {
                write!(f, "rater `{rater}` does not support {side}x{side} boards")
            }
            GenerateError::OutOfCandidates {
                found,
                wanted,
                tried,
            } => write!(
                f,
                "found only {found} of {wanted} puzzles in {tried} candidates (the clue target or rating range \
                 is too strict; raise --max-attempts or relax them)"
            ),
            GenerateError::Disagreement {
                index,
                puzzle,
                detail,
            } => write!(f, "internal error on candidate {index} ({puzzle}): {detail}"),
        }
    }
}

impl std::error::Error for GenerateError {}

/// Makes candidates; owns its scratch (the grid filler and the rater's solver), one per thread.
#[derive(Debug)]
pub struct Generator {
    options: GenerateOptions,
    filler: Filler,
    rater: Rater,
}

impl Generator {
    /// A generator for `options`, after checking them.
    pub fn new(options: &GenerateOptions) -> Result<Generator, GenerateError> {
        let b = options.box_size;
        if !(MIN_BOX..=MAX_BOX).contains(&b) {
            return Err(GenerateError::BoxSize(b));
        }
        let cells = b.pow(4);
        if let Target::Clues(clues) = options.target {
            if clues > cells {
                return Err(GenerateError::TooManyClues { clues, cells });
            }
        }
        if let (Some(min), Some(max)) = (options.min_rating, options.max_rating) {
            if min > max {
                return Err(GenerateError::EmptyRatingRange { min, max });
            }
        }
        let rater = match &options.rater {
            Some(name) => {
                Rater::named(name).ok_or_else(|| GenerateError::UnknownRater(name.clone()))?
            }
            None => Rater::preferred()
                .ok_or_else(|| GenerateError::UnknownRater(rate::PREFERRED_RATERS.join(" or ")))?,
        };
        if !rater.supports(b) {
            return Err(GenerateError::RaterUnsupported {
                rater: rater.name.to_string(),
                side: b * b,
            });
        }
        Ok(Generator {
            options: options.clone(),
            filler: Filler::new(b),
            rater,
        })
    }

    /// The rater's registry name.
    pub fn rater_name(&self) -> &'static str {
        self.rater.name
    }

    /// Makes candidate `index` of the run seeded with `seed`.
    pub fn candidate(&mut self, seed: u64, index: u64) -> Result<Candidate, GenerateError> {
        let b = self.options.box_size;
        let mut rng = candidate_rng(seed, index);
        let (grid, _restarts) = self.filler.fill(&mut rng);
        let grid = grid.to_vec();
        let internal = |detail: String, puzzle: String| GenerateError::Disagreement {
            index,
            puzzle,
            detail,
        };
        let dug = dig::dig(
            b,
            &grid,
            &mut rng,
            self.options.target,
            self.options.symmetric,
            self.options.node_limit,
        )
        .map_err(|e| internal(format!("fast rejected the board: {e}"), String::new()))?;
        let Some(Dug {
            cells, unproven, ..
        }) = dug
        else {
            return Ok(Candidate::Rejected(Rejection::TargetUnreachable));
        };
        let solution =
            Board::from_cells(b, grid).map_err(|e| internal(e.to_string(), String::new()))?;
        let puzzle =
            Board::from_cells(b, cells).map_err(|e| internal(e.to_string(), String::new()))?;
        verify::verify(&puzzle, &solution)
            .map_err(|e| internal(format!("the grid fails the checker: {e}"), puzzle.to_line()))?;

        let (rating, report) = self.rater.rate(&puzzle, self.options.node_limit);
        let name = self.rater.name;
        match report.status {
            Outcome::Solved if report.count != 1 => {
                return Err(internal(
                    format!(
                        "`fast` proved the puzzle unique, `{name}` found {} solutions",
                        report.count
                    ),
                    puzzle.to_line(),
                ))
            }
            Outcome::Solved if report.solution.as_ref() != Some(&solution) => {
                return Err(internal(
                    format!(
                        "`{name}` found a solution other than the grid the puzzle was dug from"
                    ),
                    puzzle.to_line(),
                ))
            }
            Outcome::Unsatisfiable => {
                return Err(internal(
                    format!("`{name}` found no solution to a puzzle dug from a valid grid"),
                    puzzle.to_line(),
                ))
            }
            // A rating stopped by the node limit is a lower bound; the puzzle is still proven unique by `fast`.
            Outcome::Solved | Outcome::Limit(_) => {}
        }
        let below = self
            .options
            .min_rating
            .is_some_and(|min| rating.guesses < min);
        let above = self
            .options
            .max_rating
            .is_some_and(|max| rating.guesses > max || !rating.complete);
        if below || above {
            return Ok(Candidate::Rejected(Rejection::RatingOutOfRange));
        }
        Ok(Candidate::Accepted(Box::new(Generated {
            puzzle,
            solution,
            rating,
            rater: name,
            seed,
            index,
            unproven,
        })))
    }
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct Run {
    /// The puzzles kept, in candidate order.
    pub puzzles: Vec<Generated>,
    /// Candidates made (kept or not).
    pub tried: u64,
    /// The rater's name.
    pub rater: &'static str,
}

/// What [`generate_each`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Puzzles handed to the sink.
    pub kept: usize,
    /// Candidates made (kept or not).
    pub tried: u64,
    /// The rater's name.
    pub rater: &'static str,
    /// True when the sink asked to stop early (or, in [`generate_each_until`], the cancel flag was raised).
    pub stopped: bool,
}

/// Generates `count` puzzles into a vector; see [`generate_each`].
pub fn generate(
    options: &GenerateOptions,
    seed: u64,
    count: usize,
    max_candidates: u64,
) -> Result<Run, GenerateError> {
    let mut puzzles = Vec::with_capacity(count);
    let summary = generate_each(options, seed, count, max_candidates, |g| {
        puzzles.push(g);
        ControlFlow::Continue(())
    })?;
    Ok(Run {
        puzzles,
        tried: summary.tried,
        rater: summary.rater,
    })
}

/// Generates `count` distinct puzzles of the run seeded with `seed`, trying at most `max_candidates` candidates, on the
/// current rayon pool, handing each kept puzzle to `sink` in candidate order as its batch completes (the sink
/// may stop the run with `ControlFlow::Break`).
///
/// Candidates are made in parallel batches and kept in index order, so the puzzles depend only on the options,
/// the seed and the count, never on the thread count. A candidate equal to a puzzle already kept is skipped. When the budget runs out first, the puzzles found were
/// already handed over and the error says how many.
pub fn generate_each(
    options: &GenerateOptions,
    seed: u64,
    count: usize,
    max_candidates: u64,
    sink: impl FnMut(Generated) -> ControlFlow<()>,
) -> Result<Summary, GenerateError> {
    generate_each_until(
        options,
        seed,
        count,
        max_candidates,
        &AtomicBool::new(false),
        sink,
    )
}

/// [`generate_each`] that also stops when `cancel` is raised (by another thread, e.g. on Ctrl-C): candidates not
/// started are skipped, so the run ends once those being made are done, with `stopped` set in the summary. The
/// puzzles handed over before stay a prefix of the uncancelled run's.
pub fn generate_each_until(
    options: &GenerateOptions,
    seed: u64,
    count: usize,
    max_candidates: u64,
    cancel: &AtomicBool,
    mut sink: impl FnMut(Generated) -> ControlFlow<()>,
) -> Result<Summary, GenerateError> {
    let rater = Generator::new(options)?.rater_name();
    let mut summary = Summary {
        kept: 0,
        tried: 0,
        rater,
        stopped: false,
    };
    // Puzzles kept so far: a run never repeats a puzzle (small boards have few minimal puzzles, so two
    // candidates can meet; 4 of 500 minimal 4x4 candidates did for seed 1).
    let mut seen: HashSet<Board> = HashSet::with_capacity(count);
    let threads = rayon::current_num_threads().max(1) as u64;
    while summary.kept < count && summary.tried < max_candidates {
        let wanted = (count - summary.kept) as u64;
        // Candidates per kept puzzle so far (at least 1), so a strict filter gets bigger batches; small batches
        // otherwise, so output streams.
        let ratio = summary.tried.div_ceil(summary.kept.max(1) as u64).max(1);
        let batch = (wanted * ratio)
            .clamp(threads, 64 * threads)
            .min(max_candidates - summary.tried);
        let first = summary.tried;
        let shard = options.shard;
        let results: Vec<Option<Result<Candidate, GenerateError>>> = (first..first + batch)
            .into_par_iter()
            .map(|j| j.saturating_mul(shard.count).saturating_add(shard.index))
            .map_init(
                || Generator::new(options),
                |generator, index| {
                    if cancel.load(Ordering::Relaxed) {
                        return None;
                    }
                    Some(match generator {
                        Ok(g) => g.candidate(seed, index),
                        Err(e) => Err(e.clone()),
                    })
                },
            )
            .collect();
        for result in results {
            let Some(result) = result else {
                summary.stopped = true;
                return Ok(summary);
            };
            summary.tried += 1;
            if let Candidate::Accepted(g) = result? {
                if !seen.insert(g.puzzle.clone()) {
                    continue;
                }
                summary.kept += 1;
                if sink(*g).is_break() {
                    summary.stopped = true;
                    return Ok(summary);
                }
                if summary.kept == count {
                    break;
                }
            }
        }
    }
    if summary.kept < count {
        return Err(GenerateError::OutOfCandidates {
            found: summary.kept,
            wanted: count,
            tried: summary.tried,
        });
    }
    Ok(summary)
}
