//! The generator's promises, checked with solvers other than the one it digs with: every puzzle is unique and
//! solved by the grid it came from, minimal puzzles are minimal, clue targets and symmetry hold, ratings
//! respect the filter, and a seed always gives the same puzzles whatever the thread count.
#![allow(clippy::unwrap_used)]

use sudoku::generate::{
    generate, GenerateError, GenerateOptions, Generated, Generator, Rater, Target,
};
use sudoku::Request;
use sudoku::{verify, Board};

/// Solutions of `board` counted up to 2 by the registry's `table` DFS (no propagation, row-major order: shares
/// nothing with `fast`).
fn table_count(board: &Board) -> u64 {
    let mut solver = (sudoku::find("table").unwrap().make)();
    let r = solver.solve(board, &Request::count_up_to(2));
    assert!(!r.status.is_limit());
    if let Some(s) = &r.solution {
        verify::verify(board, s).unwrap();
    }
    r.count
}

/// Solutions counted up to 2 by `fast`.
fn fast_count(board: &Board) -> u64 {
    let (_, report) = Rater::named("fast").unwrap().rate(board, None);
    assert!(!report.status.is_limit());
    report.count
}

fn assert_unique_by_two_solvers(g: &Generated) {
    verify::verify(&g.puzzle, &g.solution).unwrap();
    assert_eq!(table_count(&g.puzzle), 1, "table: {}", g.to_line());
    assert_eq!(fast_count(&g.puzzle), 1, "fast: {}", g.to_line());
    let mut table = (sudoku::find("table").unwrap().make)();
    let r = table.solve(&g.puzzle, &Request::first());
    assert_eq!(r.solution.as_ref(), Some(&g.solution));
}

fn options(box_size: usize, target: Target) -> GenerateOptions {
    GenerateOptions {
        target,
        ..GenerateOptions::new(box_size)
    }
}

#[test]
fn minimal_four_by_four_and_nine_by_nine_puzzles_are_unique_by_two_solvers() {
    for (b, count) in [(2, 40), (3, 25)] {
        let run = generate(&options(b, Target::Minimal), 11, count, 1000).unwrap();
        assert_eq!(run.puzzles.len(), count);
        for g in &run.puzzles {
            assert_unique_by_two_solvers(g);
            assert_eq!(g.unproven, 0);
        }
    }
}

#[test]
fn sixteen_by_sixteen_puzzles_with_a_clue_target_are_unique_by_two_solvers() {
    let run = generate(&options(4, Target::Clues(150)), 5, 3, 100).unwrap();
    for g in &run.puzzles {
        assert_eq!(g.clues(), 150);
        assert_unique_by_two_solvers(g);
    }
}

#[test]
fn every_clue_of_a_minimal_puzzle_is_necessary() {
    for (b, count) in [(2, 20), (3, 8)] {
        let run = generate(&options(b, Target::Minimal), 3, count, 1000).unwrap();
        for g in &run.puzzles {
            for cell in 0..g.puzzle.cell_count() {
                if g.puzzle.cells()[cell] == 0 {
                    continue;
                }
                let mut fewer = g.puzzle.clone();
                fewer.set(cell, 0).unwrap();
                assert_eq!(
                    table_count(&fewer),
                    2,
                    "clue {cell} of {} is removable",
                    g.to_line()
                );
            }
        }
    }
}

#[test]
fn a_clue_target_is_met_exactly_and_symmetric_puzzles_are_symmetric() {
    let o = GenerateOptions {
        symmetric: true,
        ..options(3, Target::Clues(28))
    };
    let run = generate(&o, 9, 10, 1000).unwrap();
    for g in &run.puzzles {
        assert_eq!(g.clues(), 28);
        let cells = g.puzzle.cells();
        for c in 0..81 {
            assert_eq!(cells[c] == 0, cells[80 - c] == 0, "{}", g.to_line());
        }
        assert_unique_by_two_solvers(g);
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzles_on_one_thread_or_two() {
    let o = GenerateOptions {
        min_rating: Some(2),
        ..options(3, Target::Minimal)
    };
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let one = pool(1).install(|| generate(&o, 42, 12, 1000).unwrap());
    let two = pool(2).install(|| generate(&o, 42, 12, 1000).unwrap());
    assert_eq!(one.puzzles, two.puzzles);
    assert_eq!(one.tried, two.tried);
    let other = generate(&o, 43, 12, 1000).unwrap();
    assert_ne!(one.puzzles[0].puzzle, other.puzzles[0].puzzle);
    // A candidate is reproducible on its own from (seed, index).
    let g = &one.puzzles[5];
    let mut generator = Generator::new(&o).unwrap();
    match generator.candidate(42, g.index).unwrap() {
        sudoku::generate::Candidate::Accepted(again) => assert_eq!(*again, *g),
        other => panic!("candidate {} not accepted again: {other:?}", g.index),
    }
}

#[test]
fn the_rating_filter_keeps_only_puzzles_in_range() {
    let hard = GenerateOptions {
        min_rating: Some(5),
        ..options(3, Target::Minimal)
    };
    let run = generate(&hard, 1, 5, 5000).unwrap();
    assert!(run.tried > 5, "a strict filter rejects some candidates");
    assert!(run.puzzles.iter().all(|g| g.rating.guesses >= 5));
    let easy = GenerateOptions {
        max_rating: Some(0),
        ..options(3, Target::Clues(34))
    };
    let run = generate(&easy, 1, 5, 5000).unwrap();
    assert!(run
        .puzzles
        .iter()
        .all(|g| g.rating.guesses == 0 && g.rating.complete));
}

#[test]
fn generated_lines_parse_back_to_the_puzzle_with_the_rating_as_a_comment() {
    let run = generate(&options(3, Target::Minimal), 2, 3, 100).unwrap();
    for g in &run.puzzles {
        let line = g.to_line();
        assert!(line.contains(&format!("guesses={}", g.rating.guesses)));
        assert!(line.contains(&format!("clues={}", g.clues())));
        assert!(line.contains(&format!("rater={}", g.rater)));
        let parsed: Board = line.parse().unwrap();
        assert_eq!(parsed, g.puzzle);
    }
}

#[test]
fn the_large_boards_generate_unique_puzzles_too() {
    // Few removals on 36x36: each `fast` count there costs about 10 ms (measured), most of it setup.
    for (b, clues) in [(5, 500), (6, 1200)] {
        let run = generate(&options(b, Target::Clues(clues)), 1, 1, 10).unwrap();
        let g = &run.puzzles[0];
        assert_eq!(g.clues(), clues);
        verify::verify(&g.puzzle, &g.solution).unwrap();
        assert_eq!(fast_count(&g.puzzle), 1);
    }
}

#[test]
fn impossible_requests_are_errors_not_hangs() {
    let too_few = options(3, Target::Clues(10));
    assert!(matches!(
        generate(&too_few, 1, 1, 5),
        Err(GenerateError::OutOfCandidates {
            found: 0,
            wanted: 1,
            tried: 5
        })
    ));
    assert!(matches!(
        Generator::new(&options(7, Target::Minimal)),
        Err(GenerateError::BoxSize(7))
    ));
    assert!(matches!(
        Generator::new(&options(2, Target::Clues(17))),
        Err(GenerateError::TooManyClues { .. })
    ));
    let backwards = GenerateOptions {
        min_rating: Some(3),
        max_rating: Some(2),
        ..options(3, Target::Minimal)
    };
    assert!(Generator::new(&backwards).is_err());
    let unknown = GenerateOptions {
        rater: Some("no-such".into()),
        ..options(3, Target::Minimal)
    };
    let err = Generator::new(&unknown).unwrap_err();
    assert!(err.to_string().contains("unknown rater `no-such`"), "{err}");
}

#[test]
fn a_raised_cancel_flag_stops_a_run_with_a_prefix_of_the_uncancelled_puzzles() {
    use std::ops::ControlFlow;
    use std::sync::atomic::{AtomicBool, Ordering};
    use sudoku::generate::generate_each_until;

    let o = options(3, Target::Minimal);
    let whole = generate(&o, 5, 6, 1000).unwrap();
    // Raised before the run: nothing is made, and it is no error even though no puzzle was found.
    let raised = AtomicBool::new(true);
    let s = generate_each_until(&o, 5, 6, 1000, &raised, |_| ControlFlow::Continue(())).unwrap();
    assert!(s.stopped && s.kept == 0 && s.tried == 0);
    // Raised by the sink after two puzzles: the run ends early with the uncancelled run's first puzzles.
    let cancel = AtomicBool::new(false);
    let mut kept = Vec::new();
    let s = generate_each_until(&o, 5, 1_000_000, u64::MAX, &cancel, |g| {
        kept.push(g.puzzle);
        if kept.len() == 2 {
            cancel.store(true, Ordering::Relaxed);
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    assert!(s.stopped && s.kept >= 2 && s.kept < 1_000_000);
    let expected: Vec<Board> = whole.puzzles.iter().map(|g| g.puzzle.clone()).collect();
    assert_eq!(kept[..2], expected[..2]);
}
