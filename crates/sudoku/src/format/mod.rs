//! Output formats, one file each, behind one trait ([`ResultFormat`]): `line.rs` ([`LineFormat`], one line per
//! puzzle), `grid.rs` ([`GridFormat`], a pretty grid with box separators) and `jsonl.rs` ([`JsonlFormat`], one
//! JSON object per puzzle). Adding a format: one file with its `ResultFormat` and one variant in [`OutputFormat`].
//!
//! Every format writes one [`Entry`] per input puzzle; blank and comment lines produce nothing. Boards on their
//! own print as one line with `Display` and as a grid with [`write_grid`] / [`to_grid_string`].

mod grid;
mod jsonl;
mod line;

pub use grid::{to_grid_string, write_board as write_grid, GridFormat};
pub use jsonl::JsonlFormat;
pub use line::LineFormat;

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
    /// The solver failed internally: it panicked, returned an answer the independent checker rejected, or said
    /// "solved" without a solution. Only a bug in a solver leads here (bad input is [`EntryStatus::Invalid`],
    /// limits are [`EntryStatus::Limit`]), so this status is outside the list on purpose: it must never be
    /// mistaken for a property of the puzzle.
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
    /// The input the puzzle came from, as named on the command line (`-` for stdin), when known. The JSON-lines
    /// format writes it as `file`; the line and grid formats print it only with [`WriterOptions::with_filename`].
    pub file: Option<&'a str>,
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
    /// True when the input carried an expected solution (e.g. a Kaggle `puzzle,solution` CSV) and the outcome
    /// contradicts it: another solution than the expected one (for a unique puzzle, or any solved one without
    /// counting), or an expected solution that does not solve the puzzle.
    pub expected_mismatch: bool,
    /// Search nodes spent.
    pub nodes: u64,
    /// Microseconds spent in the solver.
    pub micros: u64,
}

/// An output format: writes entries one after another.
pub trait ResultFormat: Send {
    /// Writes one entry.
    fn write_entry(&mut self, out: &mut dyn io::Write, entry: &Entry<'_>) -> io::Result<()>;

    /// Writes the entry of a solved 9x9 puzzle from its solution `cells` (values `1..=9`) and `count` alone, when
    /// this format needs nothing else for it (no file name, line, nodes or time), exactly as
    /// [`write_entry`](Self::write_entry) would write it; `None` (nothing written) when it needs the whole entry.
    /// The CLI's fast path for its most common result: no `Board` and no [`Entry`] built per puzzle.
    fn write_solved9(
        &mut self,
        _out: &mut dyn io::Write,
        _cells: &[u8; 81],
        _count: Option<u64>,
    ) -> Option<io::Result<()>> {
        None
    }
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
    /// A writer for this format, without file names (one input's output).
    pub fn writer(self) -> Box<dyn ResultFormat> {
        self.writer_with(WriterOptions::default())
    }

    /// A writer for this format with `options`.
    pub fn writer_with(self, options: WriterOptions) -> Box<dyn ResultFormat> {
        match self {
            OutputFormat::Line => Box::new(line::LineFormat::new(options.with_filename)),
            OutputFormat::Grid => Box::new(grid::GridFormat::new(options.with_filename)),
            OutputFormat::Jsonl => Box::new(jsonl::JsonlFormat),
        }
    }
}

/// How a writer presents its entries, beyond the format itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WriterOptions {
    /// Prefix every result with [`Entry::file`], as grep does with several files: `FILE:LINE:` before a line
    /// result, `# FILE: line L: ...` as a grid header. Off, the output is the same as for one input. JSON lines
    /// always carry a `file` key and ignore this.
    pub with_filename: bool,
}

/// The name a prefixed result shows for `file`: the path as given, `<stdin>` for `-` (as ripgrep names it).
pub fn display_name(file: &str) -> &str {
    if file == "-" {
        "<stdin>"
    } else {
        file
    }
}
