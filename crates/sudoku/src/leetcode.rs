//! The LeetCode 37 ("Sudoku Solver") interface: a 9x9 `Vec<Vec<char>>`, `'.'` for empty, solved in place.
//!
//! ```
//! use sudoku::leetcode::solve_sudoku;
//! let rows = ["53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1",
//!             "7...2...6", ".6....28.", "...419..5", "....8..79"];
//! let mut board: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
//! solve_sudoku(&mut board);
//! let solved: Vec<String> = board.iter().map(|r| r.iter().collect()).collect();
//! assert_eq!(solved, ["534678912", "672195348", "198342567", "859761423", "426853791",
//!                     "713924856", "961537284", "287419635", "345286179"]);
//! ```

use std::fmt;

use crate::board::{Board, Clash};
use crate::registry;
use crate::solver::Request;
use csp_core::Outcome;

/// Why a LeetCode-style board could not be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SudokuError {
    /// The board is not 9 rows of 9 cells.
    Shape {
        /// Rows given.
        rows: usize,
        /// The first row (0-based) whose length is not 9, with that length.
        bad_row: Option<(usize, usize)>,
    },
    /// A cell holds something other than `'1'..='9'` or `'.'`.
    BadChar {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The character.
        ch: char,
    },
    /// Two equal givens share a house.
    Clash(Clash),
    /// The givens are consistent but no solution exists.
    Unsolvable,
}

impl fmt::Display for SudokuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SudokuError::Shape {
                rows,
                bad_row: None,
            } => write!(f, "board has {rows} rows, expected 9"),
            SudokuError::Shape {
                bad_row: Some((r, len)),
                ..
            } => {
                write!(f, "row {} has {len} cells, expected 9", r + 1)
            }
            SudokuError::BadChar { row, col, ch } => write!(
                f,
                "unexpected character '{}' at row {}, column {} (expected 1-9 or .)",
                ch.escape_debug(),
                row + 1,
                col + 1
            ),
            SudokuError::Clash(c) => write!(f, "{c}"),
            SudokuError::Unsolvable => write!(f, "the puzzle has no solution"),
        }
    }
}

impl std::error::Error for SudokuError {}

/// Solves `board` in place, exactly as the exercise states it. An invalid or unsolvable board is left unchanged;
/// use [`try_solve_sudoku`] to learn why.
#[allow(clippy::ptr_arg)] // the exercise fixes this signature
pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {
    // The exercise guarantees a solvable board; anything else is left as it was.
    let _ = try_solve_sudoku(board);
}

/// Solves `board` in place, or says why it cannot be solved (leaving it unchanged).
pub fn try_solve_sudoku(board: &mut [Vec<char>]) -> Result<(), SudokuError> {
    if board.len() != 9 {
        return Err(SudokuError::Shape {
            rows: board.len(),
            bad_row: None,
        });
    }
    if let Some((r, row)) = board.iter().enumerate().find(|(_, row)| row.len() != 9) {
        return Err(SudokuError::Shape {
            rows: 9,
            bad_row: Some((r, row.len())),
        });
    }
    let mut cells = Vec::with_capacity(81);
    for (row, line) in board.iter().enumerate() {
        for (col, &ch) in line.iter().enumerate() {
            match ch {
                '.' => cells.push(0),
                '1'..='9' => cells.push(ch as u8 - b'0'),
                _ => return Err(SudokuError::BadChar { row, col, ch }),
            }
        }
    }
    let puzzle = Board::from_cells(3, cells).map_err(|_| SudokuError::Shape {
        rows: 9,
        bad_row: None,
    })?;
    if let Some(clash) = puzzle.find_clash() {
        return Err(SudokuError::Clash(clash));
    }
    let info = registry::find(registry::DEFAULT_SOLVER).unwrap_or(&crate::solvers::table::INFO);
    let report = (info.make)().solve(&puzzle, &Request::first());
    match (report.status, report.solution) {
        (Outcome::Solved, Some(solution)) => {
            for (line, values) in board.iter_mut().zip(solution.cells().chunks(9)) {
                for (ch, &v) in line.iter_mut().zip(values) {
                    *ch = char::from(b'0' + v);
                }
            }
            Ok(())
        }
        // No limits were set, so the search ran to the end.
        _ => Err(SudokuError::Unsolvable),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn board(rows: &[&str]) -> Vec<Vec<char>> {
        rows.iter().map(|r| r.chars().collect()).collect()
    }

    #[test]
    fn wrong_shapes_and_characters_are_errors_and_leave_the_board_alone() {
        let mut b = board(&["53..7...."; 8]);
        assert_eq!(
            try_solve_sudoku(&mut b),
            Err(SudokuError::Shape {
                rows: 8,
                bad_row: None
            })
        );
        let mut b = board(&[
            "53..7....",
            "6..195..",
            ".98....6.",
            "8...6...3",
            "4..8.3..1",
            "7...2...6",
            ".6....28.",
            "...419..5",
            "....8..79",
        ]);
        assert_eq!(
            try_solve_sudoku(&mut b),
            Err(SudokuError::Shape {
                rows: 9,
                bad_row: Some((1, 8))
            })
        );
        let mut b = board(&[
            "53..7....",
            "6..195..0",
            ".98....6.",
            "8...6...3",
            "4..8.3..1",
            "7...2...6",
            ".6....28.",
            "...419..5",
            "....8..79",
        ]);
        let before = b.clone();
        let err = try_solve_sudoku(&mut b).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unexpected character '0' at row 2, column 9 (expected 1-9 or .)"
        );
        solve_sudoku(&mut b);
        assert_eq!(b, before);
    }

    #[test]
    fn clashing_and_unsolvable_boards_are_told_apart() {
        let mut b = board(&[
            "55..7....",
            "6..195...",
            ".98....6.",
            "8...6...3",
            "4..8.3..1",
            "7...2...6",
            ".6....28.",
            "...419..5",
            "....8..79",
        ]);
        assert!(matches!(
            try_solve_sudoku(&mut b),
            Err(SudokuError::Clash(_))
        ));
        // Row 1 misses only 9 at r1c9, but column 9 already has a 9: consistent givens, no solution.
        let mut b = board(&[
            "12345678.",
            "........9",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ]);
        assert_eq!(try_solve_sudoku(&mut b), Err(SudokuError::Unsolvable));
    }
}
