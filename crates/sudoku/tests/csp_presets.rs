//! Every `csp-*` preset against the `fast` solver's counts and the crate's independent `verify`, on 4x4, 9x9,
//! 16x16 (and a few larger) boards: proper, multi-solution and unsolvable puzzles, plus honest limits.
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use csp_core::rng::Rng;
use csp_core::Limits;
use sudoku::fuzz_targets::random_solved_grid;
use sudoku::solvers::csp::{presets, CspSolver, Preset};
use sudoku::{find, registry, verify, Board, Outcome, Request, Solve};

/// 9x9 puzzles with one solution: the LeetCode board, hard ones for backtracking (forum hardest list), 17-clue.
const PROPER_9: &[&str] = &[
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........",
    "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2",
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....",
];

/// 9x9 puzzles with several solutions (serg_benchmark's first two lines).
const MULTI_9: &[&str] = &[
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
    "8.........95.......76.........428967...573412...691583.....4196....3.748...8..235",
];

/// Presets whose variable order is row-major: they search like the seed DFS and are only given puzzles the
/// seed DFS solves quickly.
fn row_major(p: &Preset) -> bool {
    p.var_order == csp_core::VarOrder::Input
}

/// A full valid grid of box size `b` from the test grid generator, seeded by `rng`.
fn full_grid(b: usize, rng: &mut Rng) -> Vec<u8> {
    random_solved_grid(b, rng.next_u64()).cells().to_vec()
}

/// `full` with `holes` random cells emptied.
fn with_holes(b: usize, full: &[u8], holes: usize, rng: &mut Rng) -> Board {
    let mut cells = full.to_vec();
    let mut order: Vec<usize> = (0..cells.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below_mod(i as u64 + 1) as usize);
    }
    for &i in &order[..holes] {
        cells[i] = 0;
    }
    Board::from_cells(b, cells).unwrap()
}

/// Solution count (up to `limit`) by the `fast` solver, the reference of these tests.
fn fast_count(board: &Board, limit: u64) -> u64 {
    let r = sudoku::generate::solve_cells(board.box_size(), board.cells(), limit, &Limits::none())
        .unwrap();
    assert_ne!(
        r.outcome,
        csp_core::Outcome::Limit(csp_core::LimitKind::Nodes)
    );
    r.count
}

/// A puzzle with no solution and no clashing givens: `proper` plus one given that differs from its solution.
/// Any solution would also solve `proper`, which has a single solution, so none exists.
fn unsolvable_from(proper: &Board) -> Board {
    let r = sudoku::generate::solve_cells(proper.box_size(), proper.cells(), 2, &Limits::none())
        .unwrap();
    assert_eq!(r.count, 1);
    let solution = r.solution.unwrap();
    let n = proper.side();
    for cell in (0..proper.cell_count()).filter(|&c| proper.cells()[c] == 0) {
        for d in 1..=n as u8 {
            if d == solution[cell] {
                continue;
            }
            let mut b = proper.clone();
            b.set(cell, d).unwrap();
            if b.find_clash().is_none() {
                return b;
            }
        }
    }
    panic!("every empty cell's wrong digits clash");
}

/// Solves `board` with `solver` as counting up to `limit` and as first-solution, and checks both against
/// `expected` (the exact count up to `limit`) and the independent checker.
fn check(solver: &mut CspSolver, board: &Board, expected: u64, limit: u64) {
    let name = solver.preset().name;
    let line = board.to_line();
    let r = solver.solve(board, &Request::count_up_to(limit));
    assert_eq!(r.count, expected, "{name} count on {line}");
    assert_eq!(r.stats.solutions, expected, "{name} stats on {line}");
    let status = if expected == 0 {
        Outcome::Unsatisfiable
    } else {
        Outcome::Solved
    };
    assert_eq!(r.status, status, "{name} status on {line}");
    if let Some(s) = &r.solution {
        verify::verify(board, s).unwrap_or_else(|e| panic!("{name} on {line}: {e}"));
    }
    assert_eq!(
        r.solution.is_some(),
        expected > 0,
        "{name} solution on {line}"
    );

    let first = solver.solve(board, &Request::first());
    assert_eq!(
        first.status, status,
        "{name} first-solution status on {line}"
    );
    assert_eq!(first.count, expected.min(1), "{name} first count on {line}");
    if let Some(s) = &first.solution {
        verify::verify(board, s).unwrap_or_else(|e| panic!("{name} first on {line}: {e}"));
    }
}

fn solvers() -> Vec<CspSolver> {
    presets::ALL.iter().map(|&p| CspSolver::new(p)).collect()
}

/// The shipped test sets (`datasets/sudoku-tests/`): every preset's count (up to 2) equals the file's and
/// `fast`'s, every solution passes `verify` and equals the file's when unique. `csp-check` (place-then-check, the
/// seed DFS's tree) is given the 4x4 and 9x9 files only: some 16x16 lines take it millions of nodes.
#[test]
fn every_preset_agrees_with_the_shipped_test_sets_and_fast() {
    for file in ["4x4.txt", "9x9.txt", "16x16.txt"] {
        let lines = common::expected(file);
        assert!(!lines.is_empty(), "{file} is empty");
        for e in &lines {
            assert_eq!(
                fast_count(&e.puzzle, 2),
                e.count,
                "fast on {file}:{}",
                e.line
            );
        }
        for mut s in solvers() {
            if s.preset().propagation == csp_core::Propagation::None && file == "16x16.txt" {
                continue;
            }
            for e in &lines {
                check(&mut s, &e.puzzle, e.count, 2);
                if let Some(want) = &e.solution {
                    let r = s.solve(&e.puzzle, &Request::first());
                    assert_eq!(
                        r.solution.as_ref(),
                        Some(want),
                        "{} on {file}:{}",
                        s.preset().name,
                        e.line
                    );
                }
            }
        }
    }
}

#[test]
fn every_preset_is_registered_under_its_name_for_every_box_size() {
    for p in presets::ALL {
        let info = find(p.name).unwrap();
        assert_eq!(info.description, p.description);
        assert!((2..=6).all(|b| (info.supports)(b)));
        assert!(!(info.supports)(7));
        assert!(p.name.starts_with("csp-"));
    }
    let csp = registry()
        .iter()
        .filter(|s| s.name.starts_with("csp-"))
        .count();
    assert_eq!(csp, presets::ALL.len());
}

#[test]
fn every_preset_counts_an_empty_four_by_four_as_288() {
    let board = Board::empty(2).unwrap();
    for mut s in solvers() {
        check(&mut s, &board, 288, 1000);
    }
}

#[test]
fn every_preset_agrees_with_fast_on_random_four_by_fours() {
    let mut rng = Rng::new(4);
    let mut solvers = solvers();
    for round in 0..40 {
        let full = full_grid(2, &mut rng);
        let board = with_holes(2, &full, 6 + round % 11, &mut rng);
        let expected = fast_count(&board, 50);
        for s in &mut solvers {
            check(s, &board, expected, 50);
        }
    }
}

#[test]
fn every_preset_solves_the_proper_nine_by_nines_uniquely() {
    for mut s in solvers() {
        for (i, line) in PROPER_9.iter().enumerate() {
            if row_major(s.preset()) && i > 0 {
                continue; // the hard ones take the seed DFS minutes
            }
            let board: Board = line.parse().unwrap();
            check(&mut s, &board, 1, 2);
        }
    }
}

#[test]
fn row_major_presets_agree_with_fast_on_random_nine_by_nines() {
    let mut rng = Rng::new(9);
    let mut solvers: Vec<CspSolver> = solvers()
        .into_iter()
        .filter(|s| row_major(s.preset()))
        .collect();
    for holes in [20, 35, 45, 50] {
        let full = full_grid(3, &mut rng);
        let board = with_holes(3, &full, holes, &mut rng);
        let expected = fast_count(&board, 2);
        for s in &mut solvers {
            check(s, &board, expected, 2);
        }
    }
}

#[test]
fn every_preset_finds_several_solutions_of_multi_solution_puzzles() {
    for mut s in solvers() {
        for line in MULTI_9 {
            let board: Board = line.parse().unwrap();
            check(&mut s, &board, 2, 2);
        }
        // Counting further: the exact count below a high limit matches fast's.
        let board: Board = MULTI_9[0].parse().unwrap();
        let expected = fast_count(&board, 1000);
        assert!(expected > 2 && expected < 1000);
        check(&mut s, &board, expected, 1000);
    }
}

#[test]
fn every_preset_proves_an_unsolvable_puzzle_without_clashes_unsatisfiable() {
    let proper: Board = PROPER_9[0].parse().unwrap();
    let board = unsolvable_from(&proper);
    assert!(board.find_clash().is_none());
    for mut s in solvers() {
        check(&mut s, &board, 0, 2);
    }
}

#[test]
fn clashing_givens_are_unsatisfiable_without_a_decision() {
    let mut board = Board::empty(3).unwrap();
    board.set(0, 7).unwrap();
    board.set(40, 7).unwrap();
    board.set(10, 7).unwrap(); // same box as cell 0
    for mut s in solvers() {
        let r = s.solve(&board, &Request::count_up_to(2));
        assert_eq!(
            (r.status, r.count, r.stats.nodes),
            (Outcome::Unsatisfiable, 0, 0)
        );
        assert!(r.solution.is_none());
    }
}

#[test]
fn every_preset_agrees_with_fast_on_sixteen_by_sixteens() {
    let mut rng = Rng::new(16);
    let mut solvers = solvers();
    for holes in [40, 90, 130] {
        let full = full_grid(4, &mut rng);
        let board = with_holes(4, &full, holes, &mut rng);
        let expected = fast_count(&board, 2);
        for s in &mut solvers {
            if row_major(s.preset()) && holes > 90 {
                continue;
            }
            check(s, &board, expected, 2);
        }
    }
    let unsolvable = unsolvable_from(&with_holes(4, &full_grid(4, &mut rng), 60, &mut rng));
    if fast_count(&unsolvable, 2) == 0 {
        for s in &mut solvers {
            check(s, &unsolvable, 0, 2);
        }
    }
}

#[test]
fn mrv_singles_solves_twenty_five_and_thirty_six_wide_boards() {
    let mut s = CspSolver::new(&presets::MRV_SINGLES);
    let mut rng = Rng::new(25);
    for (b, holes) in [(5, 300), (6, 500)] {
        let full = full_grid(b, &mut rng);
        let board = with_holes(b, &full, holes, &mut rng);
        let expected = fast_count(&board, 2);
        check(&mut s, &board, expected, 2);
    }
    let board = Board::empty(5).unwrap();
    let r = s.solve(&board, &Request::first());
    assert_eq!(r.status, Outcome::Solved);
    verify::verify(&board, r.solution.as_ref().unwrap()).unwrap();
}

#[test]
fn a_node_limit_is_reported_as_limit_never_unsatisfiable() {
    let board = Board::empty(3).unwrap();
    let req = Request::count_up_to(u64::MAX).with_limits(Limits::none().with_nodes(50));
    for mut s in solvers() {
        let r = s.solve(&board, &req);
        assert!(r.status.is_limit(), "{}", s.preset().name);
        assert_eq!(r.stats.nodes, 50, "{}", s.preset().name);
        // Whatever was found before the stop is still a verified solution.
        if let Some(sol) = &r.solution {
            verify::verify(&board, sol).unwrap();
        }
        assert_eq!(r.count, r.stats.solutions);
    }
}

#[test]
fn a_raised_cancel_flag_or_zero_time_is_reported_as_limit() {
    let board: Board = PROPER_9[2].parse().unwrap();
    let flag = Arc::new(AtomicBool::new(true));
    let cancelled = Request::first().with_limits(Limits::none().with_cancel(flag));
    let timed = Request::count_up_to(2).with_limits(Limits::none().with_time(Duration::ZERO));
    for mut s in solvers() {
        for req in [&cancelled, &timed] {
            let r = s.solve(&board, req);
            assert!(r.status.is_limit(), "{}", s.preset().name);
        }
    }
}

#[test]
fn limits_of_one_request_do_not_leak_into_the_next() {
    let board: Board = PROPER_9[1].parse().unwrap();
    let mut s = CspSolver::new(&presets::MRV);
    let limited = Request::count_up_to(2).with_limits(Limits::none().with_nodes(3));
    assert!(s.solve(&board, &limited).status.is_limit());
    let r = s.solve(&board, &Request::count_up_to(2));
    assert_eq!((r.status, r.count), (Outcome::Solved, 1));
    assert!(s.solve(&board, &limited).status.is_limit());
}

#[test]
fn one_instance_serves_every_box_size_in_turn() {
    let mut s = CspSolver::new(&presets::MRV_SINGLES);
    let mut rng = Rng::new(2);
    for b in [3, 2, 4, 2, 3] {
        let full = full_grid(b, &mut rng);
        let board = with_holes(b, &full, b * b * b, &mut rng);
        let expected = fast_count(&board, 2);
        check(&mut s, &board, expected, 2);
    }
}

#[test]
fn a_full_valid_grid_is_its_own_only_solution() {
    let mut rng = Rng::new(3);
    let board = Board::from_cells(3, full_grid(3, &mut rng)).unwrap();
    for mut s in solvers() {
        let r = s.solve(&board, &Request::count_up_to(2));
        assert_eq!((r.status, r.count), (Outcome::Solved, 1));
        assert_eq!(r.solution.as_ref(), Some(&board));
        assert_eq!(r.stats.nodes, 0);
    }
}

#[test]
fn the_registry_builds_working_csp_instances() {
    let board: Board = PROPER_9[0].parse().unwrap();
    for info in registry().iter().filter(|s| s.name.starts_with("csp-")) {
        let mut s: Box<dyn Solve> = (info.make)();
        let r = s.solve(&board, &Request::count_up_to(2));
        assert_eq!((r.status, r.count), (Outcome::Solved, 1), "{}", info.name);
        verify::verify(&board, r.solution.as_ref().unwrap()).unwrap();
    }
}

#[test]
fn csp_instances_solve_in_parallel_threads_on_the_shared_models() {
    let boards: Vec<Board> = PROPER_9.iter().map(|l| l.parse().unwrap()).collect();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut s = CspSolver::new(&presets::MRV_SINGLES);
                for b in &boards {
                    let r = s.solve(b, &Request::count_up_to(2));
                    assert_eq!(r.count, 1);
                    verify::verify(b, r.solution.as_ref().unwrap()).unwrap();
                }
            });
        }
    });
}
