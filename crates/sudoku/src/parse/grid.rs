//! Multi-line grids as people paste them: N rows of N cells, with or without spaces and `|`, `-`, `+`, `=`
//! separators, e.g.
//!
//! ```text
//! 5 3 . | . 7 . | . . .
//! 6 . . | 1 9 5 | . . .
//! ------+-------+------
//! ```
//!
//! Separator-only lines inside a grid are skipped. A row with the wrong cell count does not end the grid: the
//! rows keep being read so the next puzzle starts in the right place, and the first error is reported for the grid.

use super::{ParseError, ParseErrorKind};
use crate::board::{value_of_symbol, Board};

/// True for characters that only decorate a pasted grid.
pub(super) fn is_decoration(c: char) -> bool {
    c.is_whitespace() || matches!(c, '|' | '+' | '-' | '=' | ',')
}

/// The `(column, char)` cells of a grid row: every character before a `#` comment that is not decoration.
pub(super) fn row_cells(line: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    line.chars()
        .take_while(|&c| c != '#')
        .enumerate()
        .filter(|&(_, c)| !is_decoration(c))
        .map(|(i, c)| (i + 1, c))
}

/// A multi-line grid being read.
#[derive(Debug)]
pub(super) struct Block {
    /// Box size of the grid.
    box_size: usize,
    /// Line of the first row: the record's line.
    pub start_line: usize,
    /// Rows read so far (including rows with errors).
    rows: usize,
    /// Cell values so far, row-major; a bad row contributes blanks.
    cells: Vec<u8>,
    /// First problem seen in the grid.
    error: Option<ParseError>,
}

impl Block {
    /// Starts a grid of `box_size` whose first row is on `line`.
    pub(super) fn new(box_size: usize, line: usize) -> Block {
        let side = box_size * box_size;
        Block {
            box_size,
            start_line: line,
            rows: 0,
            cells: Vec::with_capacity(side * side),
            error: None,
        }
    }

    /// The grid's side.
    pub(super) fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// Reads one row from `text` (line `line`).
    pub(super) fn push_row(&mut self, line: usize, text: &str) {
        let side = self.side();
        let row_start = self.cells.len();
        let mut found = 0;
        for (column, ch) in row_cells(text) {
            found += 1;
            if found > side {
                continue;
            }
            let value = match value_of_symbol(ch, side) {
                Some(v) => v,
                None => {
                    let cell = self.rows * side + found - 1;
                    self.fail(
                        line,
                        Some(column),
                        ParseErrorKind::BadChar {
                            ch,
                            cell,
                            side,
                            in_solution: false,
                        },
                    );
                    0
                }
            };
            self.cells.push(value);
        }
        if found != side {
            self.fail(
                line,
                None,
                ParseErrorKind::RowLength {
                    row: self.rows + 1,
                    found,
                    expected: side,
                },
            );
        }
        self.cells.resize(row_start + side, 0);
        self.rows += 1;
    }

    fn fail(&mut self, line: usize, column: Option<usize>, kind: ParseErrorKind) {
        if self.error.is_none() {
            self.error = Some(ParseError { line, column, kind });
        }
    }

    /// True once all N rows are read.
    pub(super) fn is_complete(&self) -> bool {
        self.rows == self.side()
    }

    /// The grid (complete or not) as a board or its first error.
    pub(super) fn finish(self) -> Result<Board, ParseError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if !self.is_complete() {
            return Err(ParseError {
                line: self.start_line,
                column: None,
                kind: ParseErrorKind::Incomplete {
                    rows: self.rows,
                    expected: self.side(),
                },
            });
        }
        let found = self.cells.len();
        let expected = self.side() * self.side();
        Board::from_cells(self.box_size, self.cells).map_err(|_| ParseError {
            line: self.start_line,
            column: None,
            kind: ParseErrorKind::WrongLength {
                found,
                expected: Some(expected),
            },
        })
    }
}
