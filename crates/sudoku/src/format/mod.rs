//! Output formats, one file each, behind one trait: [`line`](mod@line) (one line per puzzle), [`grid`] (pretty grid with box
//! separators) and [`jsonl`] (one JSON object per puzzle).
//!
//! Every format writes one [`Entry`] per input puzzle; blank and comment lines produce nothing. Boards on their
//! own print with [`line::write_board`] and [`grid::write_board`].

pub mod grid;
pub mod jsonl;
pub mod line;

use std::io;

use crate::board::Board;

/// What became of one input puzzle, as the CLI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryStatus {
    /// A solution was found (and verified).
    Solved,
    /// The search proved there is no solution.
    Unsatisfiable,
    /// The input is not a valid puzzle (parse error or clashing givens); no search ran.
    Invalid,
    /// A node or time limit stopped the search before it concluded.
    Limit,
    /// The solver failed internally (panicked, or returned an answer the checker rejected).
    Error,
}

impl EntryStatus {
    /// The status word used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryStatus::Solved => "solved",
            EntryStatus::Unsatisfiable => "unsatisfiable",
            EntryStatus::Invalid => "invalid",
            EntryStatus::Limit => "limit",
            EntryStatus::Error => "error",
        }
    }
}

/// One result line.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    /// 1-based input line where the puzzle starts.
    pub line: usize,
    /// What happened.
    pub status: EntryStatus,
    /// The (first) solution, when solved.
    pub solution: Option<&'a Board>,
    /// Solutions counted (capped at the solution limit), when counting was asked for.
    pub count: Option<u64>,
    /// Why the puzzle is invalid or errored.
    pub error: Option<&'a str>,
    /// Search nodes spent.
    pub nodes: u64,
    /// Microseconds spent in the solver.
    pub micros: u64,
}

/// An output format: writes entries one after another.
pub trait ResultFormat: Send {
    /// Writes one entry.
    fn write_entry(&mut self, out: &mut dyn io::Write, entry: &Entry<'_>) -> io::Result<()>;
}

/// The output formats by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum OutputFormat {
    /// One line per puzzle.
    #[default]
    Line,
    /// A pretty grid per puzzle.
    Grid,
    /// One JSON object per puzzle.
    Jsonl,
}

impl OutputFormat {
    /// A writer for this format.
    pub fn writer(self) -> Box<dyn ResultFormat> {
        match self {
            OutputFormat::Line => Box::new(line::LineFormat::default()),
            OutputFormat::Grid => Box::new(grid::GridFormat),
            OutputFormat::Jsonl => Box::new(jsonl::JsonlFormat),
        }
    }
}
