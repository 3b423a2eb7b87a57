//! The independent checker: a solution keeps every given and fills every house with a permutation of `1..=N`.
//!
//! It reads the grids directly and shares no code with any solver, so a search or propagation bug cannot make
//! a wrong answer pass.

use std::fmt;

use crate::board::{symbol, Board, CellName, House};

/// Why a grid is not a solution of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// Puzzle and solution differ in size.
    SizeMismatch {
        /// Puzzle side.
        puzzle: usize,
        /// Solution side.
        solution: usize,
    },
    /// A cell of the solution is empty.
    Empty {
        /// Row-major cell index.
        cell: usize,
        /// Board side.
        side: usize,
    },
    /// The solution changes a given.
    GivenChanged {
        /// Row-major cell index.
        cell: usize,
        /// Board side.
        side: usize,
        /// The given.
        given: u8,
        /// The solution's value.
        found: u8,
    },
    /// A house lacks a digit (so another appears twice).
    NotPermutation {
        /// The house.
        house: House,
        /// The missing digit.
        missing: u8,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            VerifyError::SizeMismatch { puzzle, solution } => {
                write!(
                    f,
                    "size mismatch: puzzle is {puzzle}x{puzzle}, solution {solution}x{solution}"
                )
            }
            VerifyError::Empty { cell, side } => {
                write!(f, "cell {} is empty", CellName(cell, side))
            }
            VerifyError::GivenChanged {
                cell,
                side,
                given,
                found,
            } => write!(
                f,
                "cell {} changes the given {} to {}",
                CellName(cell, side),
                symbol(given),
                symbol(found)
            ),
            VerifyError::NotPermutation { house, missing } => {
                write!(f, "{house} lacks {} (a digit repeats)", symbol(missing))
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Checks that `solution` solves `puzzle`: same size, givens kept, no empty cell, every house a permutation.
pub fn verify(puzzle: &Board, solution: &Board) -> Result<(), VerifyError> {
    if puzzle.side() != solution.side() {
        return Err(VerifyError::SizeMismatch {
            puzzle: puzzle.side(),
            solution: solution.side(),
        });
    }
    let side = puzzle.side();
    for (cell, (&given, &found)) in puzzle.cells().iter().zip(solution.cells()).enumerate() {
        if given != 0 && given != found {
            return Err(VerifyError::GivenChanged {
                cell,
                side,
                given,
                found,
            });
        }
    }
    verify_complete(solution)
}

/// Checks that `grid` is a complete, valid grid (every cell filled, every house a permutation).
pub fn verify_complete(grid: &Board) -> Result<(), VerifyError> {
    let side = grid.side();
    if let Some(cell) = grid.cells().iter().position(|&v| v == 0) {
        return Err(VerifyError::Empty { cell, side });
    }
    // Digits are at most 36, so one u64 holds a house's digits.
    let full: u64 = if side == 64 {
        u64::MAX
    } else {
        (1u64 << side) - 1
    };
    for house in grid.houses() {
        let mut seen = 0u64;
        for cell in grid.house_cells(house) {
            seen |= 1u64 << (grid.cells()[cell] - 1);
        }
        if seen != full {
            let missing = (!seen & full).trailing_zeros() as u8 + 1;
            return Err(VerifyError::NotPermutation { house, missing });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn the_exercise_solution_verifies() {
        let p: Board = PUZZLE.parse().unwrap();
        let s: Board = SOLUTION.parse().unwrap();
        assert_eq!(verify(&p, &s), Ok(()));
    }

    #[test]
    fn a_changed_given_is_named() {
        let p: Board = PUZZLE.parse().unwrap();
        let mut s: Board = SOLUTION.parse().unwrap();
        s.set(0, 4).unwrap();
        s.set(2, 5).unwrap();
        assert_eq!(
            verify(&p, &s),
            Err(VerifyError::GivenChanged {
                cell: 0,
                side: 9,
                given: 5,
                found: 4
            })
        );
    }

    #[test]
    fn a_swap_breaks_a_column_and_is_reported() {
        let p = Board::empty(3).unwrap();
        let mut s: Board = SOLUTION.parse().unwrap();
        // Swapping two cells of row 1 keeps the row a permutation but breaks two columns.
        s.set(0, 3).unwrap();
        s.set(1, 5).unwrap();
        let err = verify(&p, &s).unwrap_err();
        assert!(
            matches!(
                err,
                VerifyError::NotPermutation {
                    house: House::Column(_),
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn an_empty_cell_is_not_a_solution() {
        let p = Board::empty(2).unwrap();
        assert_eq!(verify(&p, &p), Err(VerifyError::Empty { cell: 0, side: 4 }));
    }
}
