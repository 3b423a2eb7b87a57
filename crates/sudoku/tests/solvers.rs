//! Every registered solver on the shipped test sets: expected counts, verified solutions, honest limits.

#![allow(clippy::unwrap_used)]

mod common;

use csp_core::Limits;
use sudoku::{registry, Outcome, Request, SolverInfo};
use sudoku::{verify, Board};

use common::expected;

/// Sets every solver must settle (counting up to 2) within the budget, but those in [`MAY_STOP`].
const SETTLED: &[&str] = &[
    "4x4.txt",
    "9x9.txt",
    "16x16.txt",
    "large.txt",
    "classic.txt",
];
/// Sets hard for depth-first baselines: any solver may stop at its limit, but never lie.
const HARD: &[&str] = &["hard.txt", "famous.txt"];

/// Solvers without propagation (they only check assignments, like the seed's DFS): like naive, they may need
/// more nodes than a test can afford on a 16x16 board, so they may stop at their limit on the settled sets too.
const MAY_STOP: &[&str] = &["naive", "csp-check"];

/// Node budget of one solve: small for the check-only searches and on the hard sets, so the suite stays quick.
fn budget(info: &SolverInfo, hard: bool) -> u64 {
    match (MAY_STOP.contains(&info.name), hard) {
        (true, _) => 200_000,
        (false, false) => 2_000_000,
        (false, true) => 300_000,
    }
}

fn check_solution(name: &str, puzzle: &Board, solution: &Board) {
    if let Err(e) = verify::verify(puzzle, solution) {
        panic!("{name}: returned a wrong solution: {e}");
    }
}

#[test]
fn every_solver_counts_as_expected_on_the_settled_sets() {
    for info in registry() {
        let mut solver = (info.make)();
        for file in SETTLED {
            for e in expected(file) {
                if !(info.supports)(e.puzzle.box_size()) {
                    continue;
                }
                let at = format!("{} on {file}:{}", info.name, e.line);
                let req = Request::count_up_to(2)
                    .with_limits(Limits::none().with_nodes(budget(info, false)));
                let r = solver.solve(&e.puzzle, &req);
                if r.status.is_limit() {
                    assert!(
                        MAY_STOP.contains(&info.name),
                        "{at}: only check-only searches may stop"
                    );
                    assert!(
                        r.count < 2,
                        "{at}: a limit is reported only before the count is reached"
                    );
                    continue;
                }
                assert_eq!(r.count, e.count, "{at}: solution count");
                let want = if e.count == 0 {
                    Outcome::Unsatisfiable
                } else {
                    Outcome::Solved
                };
                assert_eq!(r.status, want, "{at}: status");
                assert_eq!(r.stats.solutions, r.count, "{at}: stats.solutions");
                match (&r.solution, &e.solution) {
                    (Some(s), Some(want)) => {
                        check_solution(&at, &e.puzzle, s);
                        assert_eq!(s, want, "{at}: the unique solution");
                    }
                    (Some(s), None) => check_solution(&at, &e.puzzle, s),
                    (None, _) => {
                        assert_eq!(e.count, 0, "{at}: a solved report carries its solution")
                    }
                }
            }
        }
    }
}

#[test]
fn first_solution_mode_returns_a_verified_solution_or_proves_none() {
    for info in registry() {
        let mut solver = (info.make)();
        for file in SETTLED {
            for e in expected(file) {
                if !(info.supports)(e.puzzle.box_size()) {
                    continue;
                }
                let at = format!("{} on {file}:{}", info.name, e.line);
                let req =
                    Request::first().with_limits(Limits::none().with_nodes(budget(info, false)));
                let r = solver.solve(&e.puzzle, &req);
                match r.status {
                    Outcome::Limit(_) => {
                        assert!(
                            MAY_STOP.contains(&info.name),
                            "{at}: only check-only searches may stop"
                        )
                    }
                    Outcome::Unsatisfiable => assert_eq!(e.count, 0, "{at}"),
                    Outcome::Solved => {
                        assert_eq!(r.count, 1, "{at}: first-solution mode stops at one");
                        assert!(e.count >= 1, "{at}");
                        check_solution(&at, &e.puzzle, r.solution.as_ref().unwrap());
                        assert!(r.stats.guesses <= r.stats.nodes, "{at}: a guess is a node");
                    }
                }
            }
        }
    }
}

#[test]
fn hard_sets_are_solved_or_honestly_limited_never_wrong() {
    for info in registry() {
        let mut solver = (info.make)();
        for file in HARD {
            for e in expected(file) {
                let at = format!("{} on {file}:{}", info.name, e.line);
                let req =
                    Request::first().with_limits(Limits::none().with_nodes(budget(info, true)));
                let r = solver.solve(&e.puzzle, &req);
                match r.status {
                    Outcome::Limit(_) => assert!(r.solution.is_none(), "{at}"),
                    Outcome::Unsatisfiable => panic!("{at}: every puzzle here has a solution"),
                    Outcome::Solved => {
                        let s = r.solution.as_ref().unwrap();
                        check_solution(&at, &e.puzzle, s);
                        assert_eq!(Some(s), e.solution.as_ref(), "{at}: the unique solution");
                    }
                }
            }
        }
    }
}

#[test]
fn the_puzzle_built_against_brute_force_stops_dfs_at_its_limit() {
    let wiki = expected("famous.txt").pop().unwrap();
    assert!(wiki
        .solution
        .as_ref()
        .unwrap()
        .to_line()
        .starts_with("987654321"));
    for name in ["naive", "table"] {
        let info = sudoku::find(name).unwrap();
        let req = Request::first().with_limits(Limits::none().with_nodes(100_000));
        let r = (info.make)().solve(&wiki.puzzle, &req);
        assert!(r.status.is_limit(), "{name}");
        assert_eq!(r.stats.nodes, 100_000, "{name}");
    }
}

#[test]
fn famous_puzzles_are_solved_by_table_dfs_within_three_million_nodes() {
    let info = sudoku::find("table").unwrap();
    let mut solver = (info.make)();
    // All but the last, which is built against exactly this search.
    let famous = expected("famous.txt");
    for e in &famous[..famous.len() - 1] {
        let req = Request::first().with_limits(Limits::none().with_nodes(3_000_000));
        let r = solver.solve(&e.puzzle, &req);
        assert_eq!(r.status, Outcome::Solved, "famous.txt:{}", e.line);
        assert_eq!(r.solution, e.solution, "famous.txt:{}", e.line);
    }
}

#[test]
fn solvers_can_be_reused_across_sizes() {
    for info in registry() {
        let mut solver = (info.make)();
        for file in ["16x16.txt", "4x4.txt", "9x9.txt", "4x4.txt"] {
            let e = &expected(file)[0];
            if !(info.supports)(e.puzzle.box_size()) {
                continue;
            }
            let r = solver.solve(&e.puzzle, &Request::first());
            assert_eq!(r.solution, e.solution, "{} on {file}", info.name);
        }
    }
}
