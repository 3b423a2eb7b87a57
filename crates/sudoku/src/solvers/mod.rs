//! The solvers, one file (or folder) each, every one implementing [`Solve`](crate::Solve) and exporting its
//! registry entry; the list of them is `registry.rs`.
//!
//! - The reference baselines: the seed exercise's depth-first search, as written ([`naive`]) and with O(1)
//!   used-tables ([`table`]). Both walk empty cells in row-major order and try digits in ascending order, so they
//!   visit the same search tree; they differ only in how a digit is checked. Every faster solver is checked
//!   against them.
//! - [`csp`]: the board on the csp-core engine, one `csp-*` entry per search strategy.
//! - [`fast`]: the fastest, the 9x9 bitboard solver of [`masks`](crate::masks) and the engine for other sizes.

pub mod csp;
pub mod fast;
pub mod naive;
pub mod table;

use std::time::Instant;

use csp_core::{LimitKind, Outcome, Stats};

use crate::board::Board;
use crate::solver::Report;

/// Builds the report of a finished search, or of one `stopped` by that limit.
pub(crate) fn report(
    stopped: Option<LimitKind>,
    count: u64,
    solution: Option<Board>,
    mut stats: Stats,
    start: Instant,
) -> Report {
    stats.solutions = count;
    stats.time = start.elapsed();
    let status = if let Some(kind) = stopped {
        Outcome::Limit(kind)
    } else if count > 0 {
        Outcome::Solved
    } else {
        Outcome::Unsatisfiable
    };
    Report {
        status,
        solution,
        count,
        stats,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use csp_core::Limits;

    use crate::solver::Request;
    use crate::solvers::{naive::NaiveSolver, table::TableSolver};
    use crate::{verify, Board, Solve};
    use csp_core::Outcome;

    const LEET: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn naive_and_table_walk_the_same_tree() {
        let board: Board = LEET.parse().unwrap();
        let a = NaiveSolver::default().solve(&board, &Request::count_up_to(2));
        let b = TableSolver::default().solve(&board, &Request::count_up_to(2));
        assert_eq!((a.status, a.count), (Outcome::Solved, 1));
        assert_eq!((b.status, b.count), (Outcome::Solved, 1));
        assert_eq!(a.solution, b.solution);
        verify::verify(&board, a.solution.as_ref().unwrap()).unwrap();
        assert_eq!(a.stats.nodes, b.stats.nodes);
        assert_eq!(a.stats.guesses, b.stats.guesses);
        assert_eq!(a.stats.fails, b.stats.fails);
        assert_eq!(a.stats.max_depth, 51);
    }

    #[test]
    fn an_empty_four_by_four_has_288_solutions_by_both() {
        let board = Board::empty(2).unwrap();
        for solver in [
            &mut NaiveSolver::default() as &mut dyn Solve,
            &mut TableSolver::default(),
        ] {
            let r = solver.solve(&board, &Request::count_up_to(1000));
            assert_eq!((r.status, r.count), (Outcome::Solved, 288));
        }
    }

    #[test]
    fn a_node_limit_is_reported_as_limit_not_unsatisfiable() {
        let board = Board::empty(3).unwrap();
        let req = Request::count_up_to(u64::MAX).with_limits(Limits::none().with_nodes(500));
        for solver in [
            &mut NaiveSolver::default() as &mut dyn Solve,
            &mut TableSolver::default(),
        ] {
            let r = solver.solve(&board, &req);
            assert!(r.status.is_limit());
            assert_eq!(r.stats.nodes, 500);
        }
    }

    #[test]
    fn clashing_givens_are_unsatisfiable_without_search() {
        let mut board = Board::empty(3).unwrap();
        board.set(0, 1).unwrap();
        board.set(80, 1).unwrap();
        board.set(8, 1).unwrap();
        for solver in [
            &mut NaiveSolver::default() as &mut dyn Solve,
            &mut TableSolver::default(),
        ] {
            let r = solver.solve(&board, &Request::first());
            assert_eq!(
                (r.status, r.count, r.stats.nodes),
                (Outcome::Unsatisfiable, 0, 0)
            );
        }
    }

    #[test]
    fn a_full_valid_grid_is_its_own_solution() {
        let board: Board =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .parse()
                .unwrap();
        let r = TableSolver::default().solve(&board, &Request::count_up_to(2));
        assert_eq!((r.status, r.count), (Outcome::Solved, 1));
        assert_eq!(r.solution.unwrap(), board);
    }
}
