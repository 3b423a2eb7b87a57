//! Removing clues from a full grid while the puzzle stays unique.
//!
//! The cells (or, with symmetry, the orbits of the 180-degree rotation: a cell and its mirror, the centre alone)
//! are visited once in a seeded random order. Each is emptied and the puzzle's solutions counted up to 2 with
//! [`solve_cells`]: still unique, it stays empty; two solutions, it is given back.
//!
//! One pass is enough for a minimal puzzle: emptying cells only adds solutions, so a clue that could not be
//! removed at some point can never be removed later. A count stopped by the node limit proves nothing; the cell
//! is then given back too (the puzzle stays provably unique) and counted as `unproven`: the puzzle may not be
//! minimal at that cell.
//!
//! With a target clue count, the pass stops as soon as the target is reached and skips any orbit that would
//! overshoot it; a pass that ends above the target rejects the grid (the caller tries another).

use csp_core::{Limits, Outcome};

use super::cells::solve_cells;
use super::rng::Rng;
use super::Target;
use crate::masks::InputError;

/// What one uniqueness check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// Exactly one solution.
    Unique,
    /// At least two solutions.
    Multiple,
    /// No solution (cannot happen when digging a valid grid; reported rather than assumed).
    None,
    /// The node limit stopped the count.
    Unknown,
}

/// Counts the solutions of `cells` up to 2 with [`solve_cells`], within `node_limit` nodes.
pub fn uniqueness(
    box_size: usize,
    cells: &[u8],
    node_limit: Option<u64>,
) -> Result<Uniqueness, InputError> {
    let limits = Limits {
        nodes: node_limit,
        ..Limits::none()
    };
    let r = solve_cells(box_size, cells, 2, &limits)?;
    Ok(match (r.outcome, r.count) {
        (Outcome::Limit(_), c) if c < 2 => Uniqueness::Unknown,
        (_, 0) => Uniqueness::None,
        (_, 1) => Uniqueness::Unique,
        _ => Uniqueness::Multiple,
    })
}

/// A dug puzzle.
#[derive(Clone, Debug)]
pub struct Dug {
    /// The puzzle, row-major, 0 = empty. Provably unique.
    pub cells: Vec<u8>,
    /// Clues kept only because their check hit the node limit (0 = every kept clue is proven necessary, for a
    /// minimal target).
    pub unproven: usize,
}

/// The removal units: single cells, or the orbits of the 180-degree rotation when `symmetric`.
fn units(cell_count: usize, symmetric: bool) -> Vec<(usize, Option<usize>)> {
    if symmetric {
        (0..cell_count)
            .filter_map(|c| {
                let mirror = cell_count - 1 - c;
                match c.cmp(&mirror) {
                    std::cmp::Ordering::Less => Some((c, Some(mirror))),
                    std::cmp::Ordering::Equal => Some((c, None)),
                    std::cmp::Ordering::Greater => None,
                }
            })
            .collect()
    } else {
        (0..cell_count).map(|c| (c, None)).collect()
    }
}

/// Digs `solution` (a full valid grid) down to `target`, removing units in an order drawn from `rng`.
/// `None` when the target clue count could not be reached from this grid.
pub fn dig(
    box_size: usize,
    solution: &[u8],
    rng: &mut Rng,
    target: Target,
    symmetric: bool,
    node_limit: Option<u64>,
) -> Result<Option<Dug>, InputError> {
    let mut cells = solution.to_vec();
    let mut order = units(cells.len(), symmetric);
    rng.shuffle(&mut order);
    let mut givens = cells.len();
    let mut unproven = 0;
    for (a, b) in order {
        let size = if b.is_some() { 2 } else { 1 };
        if let Target::Clues(t) = target {
            if givens == t {
                break;
            }
            if givens - size < t {
                continue;
            }
        }
        cells[a] = 0;
        if let Some(b) = b {
            cells[b] = 0;
        }
        match uniqueness(box_size, &cells, node_limit)? {
            Uniqueness::Unique => givens -= size,
            verdict => {
                cells[a] = solution[a];
                if let Some(b) = b {
                    cells[b] = solution[b];
                }
                if verdict == Uniqueness::Unknown {
                    unproven += 1;
                }
            }
        }
    }
    let reached = match target {
        Target::Minimal => true,
        Target::Clues(t) => givens == t,
    };
    Ok(reached.then_some(Dug { cells, unproven }))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn symmetric_units_cover_every_cell_once_with_the_centre_alone() {
        let units = units(81, true);
        assert_eq!(units.len(), 41);
        let mut seen = [0; 81];
        for (a, b) in &units {
            seen[*a] += 1;
            if let Some(b) = b {
                seen[*b] += 1;
                assert_eq!(a + b, 80);
            } else {
                assert_eq!(*a, 40);
            }
        }
        assert!(seen.iter().all(|&s| s == 1));
        assert_eq!(super::units(16, true).len(), 8);
    }

    #[test]
    fn an_empty_board_is_not_unique_and_a_full_grid_is() {
        let full = [
            1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1, //
        ];
        assert_eq!(uniqueness(2, &full, None).unwrap(), Uniqueness::Unique);
        assert_eq!(uniqueness(2, &[0; 16], None).unwrap(), Uniqueness::Multiple);
    }
}
