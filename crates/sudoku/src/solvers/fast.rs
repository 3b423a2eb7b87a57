//! `fast`: the registry's fastest solver. 9x9 boards go to the bitboard solver [`solve9`] (its state lives on the
//! stack); every other size (4x4, 16x16, 25x25, 36x36) to the engine itself, through the `csp-mrv-singles` preset,
//! which runs these boards on csp-core's group kernel (faster there than the per-cell mask solver
//! [`solve_generic`](crate::masks::solve_generic); the measurement is in `docs/measurements.md`).

use std::time::Instant;

use super::csp::presets::MRV_SINGLES;
use super::csp::CspSolver;
use crate::board::{Board, Cells};
use crate::masks::{solve9, InputError};
use crate::solver::{Report, Request, Solve, SolverInfo};

/// Registry entry: the bitboard solver for 9x9, the generic mask solver for the other sizes.
pub const INFO: SolverInfo = SolverInfo {
    name: "fast",
    description:
        "9x9: digit bitboards per band, locked candidates + singles by table, bi-value guesses; \
                  other sizes: the engine's group kernel (as csp-mrv-singles)",
    supports: |box_size| (2..=6).contains(&box_size),
    make: || Box::new(FastSolver::default()),
};

/// The `fast` solver behind the registry's interface: the 9x9 bitboard solver (its state lives on the stack) and,
/// once a board of another size came, the engine solver it delegates those to.
#[derive(Default)]
pub struct FastSolver {
    kernel: Option<CspSolver>,
}

impl Solve for FastSolver {
    fn solve(&mut self, board: &Board, req: &Request) -> Report {
        if board.box_size() != 3 {
            return self
                .kernel
                .get_or_insert_with(|| CspSolver::new(&MRV_SINGLES))
                .solve(board, req);
        }
        let start = Instant::now();
        let limit = req.effective_limit();
        let result = <&[u8; 81]>::try_from(board.cells())
            .map_err(|_| InputError::BadLength {
                expected: 81,
                found: board.cells().len(),
            })
            .and_then(|cells| solve9(cells, limit, &req.limits));
        let mut report = match result {
            Ok(r) => Report {
                status: r.outcome,
                // Inline cells, and solve9's solutions hold 1..=9 only: no allocation, no second check.
                solution: r
                    .solution
                    .map(|cells| Board::from_checked(3, Cells::from_buf(cells))),
                count: r.count,
                stats: r.stats,
            },
            // A `Board` of box size 3 always has 81 cells in 1..=9, so this cannot happen; if it did, the engine
            // answers instead (claiming unsatisfiable, or inventing a limit, would both be lies).
            Err(_) => {
                return self
                    .kernel
                    .get_or_insert_with(|| CspSolver::new(&MRV_SINGLES))
                    .solve(board, req)
            }
        };
        report.stats.time = start.elapsed();
        report
    }
}
