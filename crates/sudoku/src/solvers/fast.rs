//! `fast`: the registry's fastest solver. 9x9 boards go to [`solve9`] (band9's bitboards, and triad9 below a hard
//! root; their state lives on the stack); every other size (4x4, 16x16, 25x25, 36x36) to the engine itself, through the `csp-mrv-singles` preset,
//! which runs these boards on csp-core's group kernel (faster there than the per-cell mask solver
//! [`solve_generic`](crate::masks::solve_generic); the measurement is in `docs/measurements.md`).

use std::time::Instant;

use super::csp::presets::MRV_SINGLES;
use super::csp::CspSolver;
use crate::board::{Board, Cells};
use crate::masks::{solve9, InputError, MaskResult};
use crate::solver::{Report, Request, Solve, SolverInfo};

/// Registry entry: the bitboard solver for 9x9, the generic mask solver for the other sizes.
pub const INFO: SolverInfo = SolverInfo {
    name: "fast",
    description:
        "9x9: digit bitboards per band (locked candidates + singles by table, bi-value guesses), hard roots \
                  continued by triad inference (SIMD boxes, band-configuration guesses); \
                  other sizes: the engine's group kernel (as csp-mrv-singles)",
    supports: |box_size| (2..=6).contains(&box_size),
    make: || Box::new(FastSolver::default()),
    solve9: Some(solve_cells9),
};

/// The direct 9x9 entry ([`SolverInfo::solve9`]): [`solve9`] itself, which keeps its state on the stack. An error
/// only for a value above 9, which no caller passing a `Board`'s cells can hit.
pub fn solve_cells9(givens: &[u8; 81], req: &Request) -> Result<MaskResult<[u8; 81]>, InputError> {
    solve9(givens, req.effective_limit(), &req.limits)
}

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
        let result = <&[u8; 81]>::try_from(board.cells())
            .ok()
            .and_then(|cells| solve_cells9(cells, req).ok());
        let mut report = match result {
            Some(r) => Report {
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
            None => {
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
