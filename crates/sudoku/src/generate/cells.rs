//! One solve of raw cells for every box size, as the generator needs it: the 9x9 bitboard solver, the mask solver
//! for 4x4 and 16x16, the engine's group kernel for 25x25 and 36x36. The shipped datasets were generated through
//! this function, so its choice per size is part of their reproduction (not the registry's `fast`, which sends
//! 4x4 and 16x16 to the kernel).

use csp_core::Limits;

use crate::masks::{check_input, solve9, solve_generic, InputError, MaskResult};
use crate::solvers::csp::presets::MRV_SINGLES;
use crate::solvers::csp::{model, Rules};

/// Solves a board of any supported box size: the 9x9 bitboard solver for box size 3, the engine's group kernel
/// for 25x25 and 36x36, the mask solver for 4x4 and 16x16.
/// The solution comes back as a `Vec` of N*N values.
pub fn solve_cells(
    box_size: usize,
    givens: &[u8],
    solution_limit: u64,
    limits: &Limits,
) -> Result<MaskResult<Vec<u8>>, InputError> {
    if box_size == 3 {
        let cells: &[u8; 81] = givens.try_into().map_err(|_| InputError::BadLength {
            expected: 81,
            found: givens.len(),
        })?;
        let r = solve9(cells, solution_limit, limits)?;
        Ok(MaskResult {
            outcome: r.outcome,
            count: r.count,
            solution: r.solution.map(Vec::from),
            stats: r.stats,
        })
    } else if matches!(box_size, 5 | 6) {
        solve_on_kernel(box_size, givens, solution_limit, limits)
    } else {
        // 4x4 and 16x16 stay on the mask solver here: the shipped datasets are generated through this function
        // with node-limited uniqueness checks, and a different search would change which clues stay.
        solve_generic(box_size, givens, solution_limit, limits)
    }
}

/// 25x25 and 36x36 through the engine (`csp-mrv-singles`, i.e. csp-core's group kernel), which searches these
/// boards 10-25x faster per node than the mask solver (`docs/measurements.md`); the generator's uniqueness checks
/// and large-grid filling go through [`solve_cells`].
fn solve_on_kernel(
    box_size: usize,
    givens: &[u8],
    solution_limit: u64,
    limits: &Limits,
) -> Result<MaskResult<Vec<u8>>, InputError> {
    check_input(box_size, givens)?;
    let Some(sm) = model(box_size, Rules::Houses) else {
        return Err(InputError::BadBoxSize(box_size));
    };
    let assumptions: Vec<(csp_core::VarId, i64)> = givens
        .iter()
        .zip(&sm.cells)
        .filter(|(&d, _)| d != 0)
        .map(|(&d, &x)| (x, i64::from(d)))
        .collect();
    let mut solver =
        csp_core::Solver::new(&sm.problem, MRV_SINGLES.config().limits(limits.clone()));
    let r = solver.count(&assumptions, solution_limit.max(1));
    let mut stats = r.stats;
    stats.time = std::time::Duration::ZERO;
    Ok(MaskResult {
        outcome: r.outcome,
        count: r.count,
        solution: r.first.map(|s| {
            s.values()
                .iter()
                .map(|&v| u8::try_from(v).unwrap_or(0))
                .collect()
        }),
        stats,
    })
}
