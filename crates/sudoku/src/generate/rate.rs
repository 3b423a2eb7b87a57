//! Rating a puzzle by search effort: the guesses (branch points with more than one candidate) and nodes a
//! registered solver spends counting the puzzle's solutions up to 2, i.e. finding the solution and proving
//! there is no other.
//!
//! Counting to 2 rather than stopping at the first solution makes the rating a property of the puzzle and
//! the solver's propagation, not of a lucky value order. The default rater is `csp-mrv-singles` (MRV with
//! naked and hidden singles on csp-core) when the registry has it, otherwise `fast`; every output line names
//! the rater, since ratings of different raters are not comparable. The rating solve also serves as the
//! second, independent uniqueness check of every generated puzzle.

use csp_core::Limits;

use crate::board::Board;
use crate::registry;
use crate::solver::{Report, Request, Solve};

/// Raters tried in order when none is named.
pub const PREFERRED_RATERS: [&str; 2] = ["csp-mrv-singles", "fast"];

/// The effort a rater spent on one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rating {
    /// Branch points with more than one candidate: the rating proper (higher = harder).
    pub guesses: u64,
    /// Values tried at branch points.
    pub nodes: u64,
    /// False when the rater's node limit stopped it: `guesses` and `nodes` are then lower bounds.
    pub complete: bool,
}

/// A solver used for rating, with its registry name.
pub struct Rater {
    /// Registry name (`csp-mrv-singles`, `fast`, `table`, ...).
    pub name: &'static str,
    solver: Box<dyn Solve>,
    supports: fn(usize) -> bool,
}

impl std::fmt::Debug for Rater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rater({})", self.name)
    }
}

impl Rater {
    /// The registry solver called `name` as a rater.
    pub fn named(name: &str) -> Option<Rater> {
        let info = registry::find(name)?;
        Some(Rater {
            name: info.name,
            solver: (info.make)(),
            supports: info.supports,
        })
    }

    /// The first of [`PREFERRED_RATERS`] in the registry.
    pub fn preferred() -> Option<Rater> {
        PREFERRED_RATERS.iter().find_map(|n| Rater::named(n))
    }

    /// Whether this rater handles boards of `box_size`.
    pub fn supports(&self, box_size: usize) -> bool {
        (self.supports)(box_size)
    }

    /// Counts `puzzle`'s solutions up to 2 within `node_limit` and returns the effort with the full report
    /// (the caller checks the count and solution against its own).
    pub fn rate(&mut self, puzzle: &Board, node_limit: Option<u64>) -> (Rating, Report) {
        let limits = Limits {
            nodes: node_limit,
            ..Limits::none()
        };
        let report = self
            .solver
            .solve(puzzle, &Request::count_up_to(2).with_limits(limits));
        let rating = Rating {
            guesses: report.stats.guesses,
            nodes: report.stats.nodes,
            complete: !report.status.is_limit(),
        };
        (rating, report)
    }
}
