//! Reading puzzles: every input format, streamed, with errors that name line, column, cell and character.
//!
//! One [`Reader`] accepts all formats at once, line by line, deciding per line (see `reader.rs`):
//! - a one-line grid (`line.rs`), e.g. the standard 81-character line, optionally followed by a comment or
//!   rating after whitespace, `#`, `:` or `,`;
//! - CSV files such as the Kaggle sets (`csv.rs`): `puzzle,solution`, `quizzes,solutions`,
//!   `id,puzzle,solution,clues,difficulty`, ...: with a header, the puzzle and solution columns are found by name;
//!   without one, the first field is the puzzle (a later field only in an `id,puzzle,solution,...` line: ids
//!   before it, its solution after it; a broken first field is that line's error, never replaced by the grid
//!   next to it), and a later field with exactly as many cells is its expected solution;
//! - a multi-line grid as people paste it (`grid.rs`): N rows of N cells, with or without spaces and `|`, `-`,
//!   `+` separators.
//!
//! Blank lines and lines starting with `#` are skipped; CRLF endings and a UTF-8 byte-order mark are accepted (at
//! the start of any line: files joined with `cat` keep their marks).
//! The board size is inferred from the cell count (16, 81, 256, 625, 1296 cells; rows of 4, 9, 16, 25, 36) unless
//! [`ReaderOptions::box_size`] fixes it. Givens that clash are reported here, before any search.
//!
//! ```
//! use sudoku::parse::Reader;
//! let text = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 # leetcode\n\
//!             not a puzzle\n";
//! let records: Vec<_> = Reader::new(text.as_bytes()).collect();
//! assert_eq!(records.len(), 2);
//! assert_eq!(records[0].item.as_ref().map(|p| p.board.givens()).ok(), Some(30));
//! assert_eq!(records[1].line, 2);
//! assert!(records[1].item.is_err());
//! ```

mod csv;
mod grid;
mod line;
mod reader;

use std::fmt;

use crate::board::{Board, Clash};

pub use csv::{PUZZLE_NAMES, SOLUTION_NAMES};
pub use reader::{Compact, Reader, ReaderOptions, MAX_LINE_BYTES};

/// A puzzle read from input: the board and, when the input carried one, its expected solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The givens.
    pub board: Board,
    /// The solution given alongside the puzzle (e.g. the Kaggle CSV's second column), unchecked.
    pub solution: Option<Board>,
}

/// One input unit: a puzzle or the reason it could not be read, with the 1-based line where it starts.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based line number of the puzzle's first line.
    pub line: usize,
    /// The puzzle, or why the line(s) are not a valid puzzle.
    pub item: Result<Puzzle, ParseError>,
}

/// Why some input is not a puzzle. Displays as `line L, column C: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the problem.
    pub line: usize,
    /// 1-based column (in characters, not bytes) of the problem, when it has one.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// True for a read failure of the underlying input (not a problem of the puzzle text).
    pub fn is_io(&self) -> bool {
        matches!(self.kind, ParseErrorKind::Io(_))
    }
}

/// The classes of input error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A character that is not a symbol of this board size.
    BadChar {
        /// The character.
        ch: char,
        /// Row-major index of the cell it would fill.
        cell: usize,
        /// Board side.
        side: usize,
        /// True when the character is in the solution field rather than the puzzle.
        in_solution: bool,
    },
    /// A line whose cell count fits no board (nor the size that was asked for).
    WrongLength {
        /// Cells found.
        found: usize,
        /// Cells expected, when the size is fixed.
        expected: Option<usize>,
    },
    /// A line holding exactly two puzzles' worth of cells: two lines glued together.
    Glued {
        /// Cells found.
        found: usize,
    },
    /// A row of a multi-line grid with the wrong number of cells.
    RowLength {
        /// 1-based row within the grid.
        row: usize,
        /// Cells found.
        found: usize,
        /// Cells expected (the grid's side).
        expected: usize,
    },
    /// A multi-line grid that ended before its last row.
    Incomplete {
        /// Rows read.
        rows: usize,
        /// Rows needed.
        expected: usize,
    },
    /// A line longer than [`MAX_LINE_BYTES`]: not read into memory, skipped.
    LineTooLong,
    /// Bytes that are not UTF-8.
    InvalidUtf8,
    /// Two equal givens in one house.
    Clash(Clash),
    /// The input could not be read; no record follows this one.
    Io(String),
    /// [`parse_puzzle`] found no puzzle, or more than one.
    NotOnePuzzle {
        /// Puzzles found.
        found: usize,
    },
    /// A headerless line with commas where a later field holds a grid, but not in the `id,puzzle,solution` shape
    /// that would make it the puzzle: the field before it is the puzzle, cut short or broken (the grid next to it,
    /// its solution, must not be read in its place).
    PuzzleField {
        /// 1-based field taken for the puzzle (the one before the grid).
        field: usize,
        /// Characters in that field.
        found: usize,
        /// Cells of the grid found after it.
        expected: usize,
        /// 1-based field that holds that grid.
        grid_field: usize,
    },
    /// A CSV data line too short to hold the column its header names for the puzzle.
    MissingColumn {
        /// 1-based column (field) the header names.
        column: usize,
        /// Fields on the line.
        fields: usize,
    },
    /// The field the CSV header names for the solution does not hold a grid of the puzzle's size.
    SolutionLength {
        /// Cells found.
        found: usize,
        /// Cells of the puzzle.
        expected: usize,
    },
    /// A CSV header after data lines whose columns differ from the file's first header (a repeated identical
    /// header, as `cat a.csv b.csv` makes, is skipped silently). Its columns apply to the lines after it.
    HeaderInMiddle,
}

/// `n cells`, or `1 cell`.
struct Cells(usize);

impl fmt::Display for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => write!(f, "1 cell"),
            n => write!(f, "{n} cells"),
        }
    }
}

fn allowed_symbols(side: usize) -> String {
    match side {
        0..=9 => format!("1-{side}, . or 0"),
        36 => "1-9, A-Z, 0 (for 36) or .".to_string(),
        _ => format!("1-9, A-{}, or .", crate::board::symbol(side as u8)),
    }
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::BadChar { ch, cell, side, in_solution } => write!(
                f,
                "unexpected character '{}' in {}cell {} (a {side}x{side} board uses {})",
                ch.escape_debug(),
                if *in_solution { "solution " } else { "" },
                crate::board::CellName(*cell, *side),
                allowed_symbols(*side)
            ),
            ParseErrorKind::WrongLength { found, expected: Some(e) } => {
                write!(f, "wrong length: {}, expected {e}", Cells(*found))
            }
            ParseErrorKind::WrongLength { found, expected: None } => write!(
                f,
                "wrong length: {} (a one-line puzzle has 16, 81, 256, 625 or 1296 cells, \
                 a grid row 4, 9, 16, 25 or 36)",
                Cells(*found)
            ),
            ParseErrorKind::Glued { found } => write!(
                f,
                "{found} cells: two {}-cell puzzles glued into one line (missing line break?)",
                found / 2
            ),
            ParseErrorKind::RowLength { row, found, expected } => {
                write!(f, "grid row {row} has {}, expected {expected}", Cells(*found))
            }
            ParseErrorKind::Incomplete { rows, expected } => {
                write!(f, "incomplete grid: {rows} of {expected} rows")
            }
            ParseErrorKind::LineTooLong => write!(f, "line longer than {MAX_LINE_BYTES} bytes"),
            ParseErrorKind::InvalidUtf8 => write!(f, "invalid UTF-8"),
            ParseErrorKind::Clash(c) => write!(f, "{c}"),
            ParseErrorKind::Io(e) => write!(f, "read error: {e}"),
            ParseErrorKind::NotOnePuzzle { found } => write!(f, "expected one puzzle, found {found}"),
            ParseErrorKind::PuzzleField { field, found, expected, grid_field } => write!(
                f,
                "wrong length: {} in field {field}, expected {expected} (field {grid_field} holds a \
                 grid, but without a header naming the columns a later field is read as the puzzle only in an \
                 `id,puzzle,solution` line)",
                Cells(*found)
            ),
            ParseErrorKind::MissingColumn { column, fields } => write!(
                f,
                "no column {column} (the line has {fields} field{})",
                if *fields == 1 { "" } else { "s" }
            ),
            ParseErrorKind::SolutionLength { found, expected } => {
                write!(f, "solution has {}, expected {expected}", Cells(*found))
            }
            ParseErrorKind::HeaderInMiddle => write!(
                f,
                "a CSV header in the middle of the file (its columns are used from here on)"
            ),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "line {}, column {c}: {}", self.line, self.kind),
            None => write!(f, "line {}: {}", self.line, self.kind),
        }
    }
}

impl std::error::Error for ParseError {}

/// Reads exactly one puzzle from `text`, in any format the [`Reader`] accepts.
pub fn parse_puzzle(text: &str) -> Result<Puzzle, ParseError> {
    let mut reader = Reader::new(text.as_bytes());
    let first = reader.next();
    let second = reader.next();
    match (first, second) {
        (Some(r), None) => r.item,
        (None, _) => Err(ParseError {
            line: 1,
            column: None,
            kind: ParseErrorKind::NotOnePuzzle { found: 0 },
        }),
        (Some(r), Some(_)) => {
            let found = 2 + reader.count();
            Err(ParseError {
                line: r.line,
                column: None,
                kind: ParseErrorKind::NotOnePuzzle { found },
            })
        }
    }
}

impl std::str::FromStr for Board {
    type Err = ParseError;

    /// Parses one board in any accepted format; an expected solution on the line is ignored.
    fn from_str(s: &str) -> Result<Board, ParseError> {
        parse_puzzle(s).map(|p| p.board)
    }
}
