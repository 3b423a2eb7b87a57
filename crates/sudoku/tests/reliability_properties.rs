//! Property tests (proptest) across the crate:
//! - random solved grids with random holes: every registered solver, `fast` and an oracle agree on the count
//!   (capped at 2), the count is at least 1 (the grid itself solves it), every returned solution verifies, and a
//!   unique solution is the grid the holes were cut from;
//! - `parse(format(board)) == board` for the line and grid formats, every size 4x4..36x36, size inferred or fixed;
//!   a board with clashing givens reads back as exactly the clash `Board::find_clash` names;
//! - generated puzzles (4x4 and 9x9, minimal target) are unique by every solver and the oracles, and minimal.
//!
//! Case counts are fixed in each `proptest_config` (and reported by the suite's README); proptest's persistence
//! file is off so failures are reported as the shrunk input rather than stored.

#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use sudoku::format::to_grid_string;
use sudoku::fuzz_targets::{random_solved_grid, with_holes, CrossCheck};
use sudoku::parse::{ParseErrorKind, Reader, ReaderOptions};
use sudoku::Board;

/// Node cap per solver and board: generous for 4x4/9x9 boards cut from a solved grid.
const NODE_CAP: u64 = 2_000_000;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn four_by_four_grids_with_holes_get_the_same_count_from_every_solver(
        seed in any::<u64>(),
        holes in 0u32..=1000,
    ) {
        let grid = random_solved_grid(2, seed);
        let board = with_holes(&grid, holes, seed);
        let mut check = CrossCheck::new(NODE_CAP);
        let count = check.check(&board).map_err(TestCaseError::fail)?;
        prop_assert!(matches!(count, Some(1..=2)), "{board:?}: {count:?}");
        prop_assert_eq!(check.limited, 0);
        if count == Some(1) {
            let unique = sudoku::find("table").unwrap();
            let r = (unique.make)().solve(&board, &sudoku::Request::first());
            prop_assert_eq!(r.solution, Some(grid));
        }
    }
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn nine_by_nine_grids_with_holes_get_the_same_count_from_every_solver(
        seed in any::<u64>(),
        holes in 0u32..=650,
    ) {
        let grid = random_solved_grid(3, seed);
        let board = with_holes(&grid, holes, seed);
        let count = CrossCheck::new(NODE_CAP).check(&board).map_err(TestCaseError::fail)?;
        // Everyone may stop at the cap on a very sparse board; whoever concludes must count at least 1.
        prop_assert!(matches!(count, None | Some(1..=2)), "{board:?}: {count:?}");
        if count == Some(1) {
            let r = (sudoku::find("table").unwrap().make)().solve(&board, &sudoku::Request::first());
            prop_assert_eq!(r.solution, Some(grid));
        }
    }
}

proptest! {
    #![proptest_config(config(150))]

    #[test]
    fn sixteen_by_sixteen_grids_with_few_holes_get_the_same_count_from_every_solver(
        seed in any::<u64>(),
        holes in 0u32..=350,
    ) {
        let board = with_holes(&random_solved_grid(4, seed), holes, seed);
        let count = CrossCheck::new(NODE_CAP).check(&board).map_err(TestCaseError::fail)?;
        prop_assert!(matches!(count, None | Some(1..=2)), "{board:?}: {count:?}");
    }
}

fn read_one(text: &str, options: ReaderOptions) -> Result<Board, ParseErrorKind> {
    let records: Vec<_> = Reader::with_options(text.as_bytes(), options).collect();
    assert_eq!(
        records.len(),
        1,
        "{text:?} read as {} records",
        records.len()
    );
    let record = records.into_iter().next().unwrap();
    record.item.map(|p| p.board).map_err(|e| e.kind)
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn clash_free_boards_of_every_size_read_back_from_line_and_grid(
        box_size in 2usize..=6,
        seed in any::<u64>(),
        holes in 0u32..=1000,
    ) {
        let board = with_holes(&random_solved_grid(box_size, seed), holes, seed);
        for text in [board.to_line(), board.to_string(), to_grid_string(&board)] {
            for options in [ReaderOptions::default(), ReaderOptions { box_size: Some(box_size) }] {
                prop_assert_eq!(read_one(&text, options), Ok(board.clone()), "{:?}", text);
            }
        }
    }

    #[test]
    fn arbitrary_boards_read_back_or_report_their_first_clash(
        box_size in 2usize..=6,
        values in proptest::collection::vec(any::<u8>(), 1296),
    ) {
        let n = box_size * box_size;
        let cells: Vec<u8> = values[..n * n].iter().map(|&v| v % (n as u8 + 1)).collect();
        let board = Board::from_cells(box_size, cells).unwrap();
        let fixed = ReaderOptions { box_size: Some(box_size) };
        for text in [board.to_line(), to_grid_string(&board)] {
            let back = read_one(&text, fixed);
            match board.find_clash() {
                None => prop_assert_eq!(back, Ok(board.clone())),
                Some(clash) => prop_assert_eq!(back, Err(ParseErrorKind::Clash(clash))),
            }
        }
    }
}

/// Checks one generated puzzle with the oracles: unique by every solver and the oracle, its solution is the
/// grid it came with, and (minimal target) every clue is needed: removing any one gives a second solution.
fn check_generated(box_size: usize, seed: u64) -> Result<(), TestCaseError> {
    use sudoku::fuzz_targets::{count_4x4, reference_count};
    use sudoku::generate::{generate, GenerateOptions};
    let run = generate(&GenerateOptions::new(box_size), seed, 1, 1000)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let p = &run.puzzles[0];
    let count = CrossCheck::new(NODE_CAP)
        .check(&p.puzzle)
        .map_err(TestCaseError::fail)?;
    prop_assert_eq!(count, Some(1), "{:?}", p.puzzle);
    prop_assert!(sudoku::verify::verify(&p.puzzle, &p.solution).is_ok());
    let r = (sudoku::find("table").unwrap().make)().solve(&p.puzzle, &sudoku::Request::first());
    prop_assert_eq!(r.solution.as_ref(), Some(&p.solution));
    if p.unproven == 0 {
        for cell in (0..p.puzzle.cell_count()).filter(|&c| p.puzzle.cells()[c] != 0) {
            let mut fewer = p.puzzle.clone();
            fewer.set(cell, 0).unwrap();
            let count = if box_size == 2 {
                Some(count_4x4(&fewer, 2))
            } else {
                reference_count(&fewer, 2, NODE_CAP)
            };
            prop_assert_eq!(
                count,
                Some(2),
                "clue {} of {:?} is not needed",
                cell,
                p.puzzle
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn generated_four_by_fours_are_unique_and_minimal_by_the_oracles(seed in any::<u64>()) {
        check_generated(2, seed)?;
    }
}

proptest! {
    #![proptest_config(config(40))]

    #[test]
    fn generated_nine_by_nines_are_unique_and_minimal_by_the_oracles(seed in any::<u64>()) {
        check_generated(3, seed)?;
    }
}
