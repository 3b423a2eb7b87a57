//! `MrvDegree`: MRV, ties broken by the classic degree heuristic (Brélaz; Russell & Norvig's "degree heuristic"):
//! among the smallest domains, the variable with the most distinct unassigned neighbours, i.e. other unassigned
//! variables sharing at least one constraint with it. Counting distinct neighbours rather than constraints matters
//! when constraints overlap: every Sudoku cell is in 3 houses, so a constraint count never breaks a tie, while the
//! number of open cells among its 20 peers does.
//!
//! Cost: one pass over the sizes for the minimum, then, for the tied variables only, one pass over their
//! precomputed neighbour lists ([`Problem::neighbours`]). No allocation.

use std::cmp::Reverse;

use super::Merit;
use crate::csr::Csr;
use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// Merit = number of distinct unassigned neighbours, the more the better (a tie-break after
/// [`super::mrv::Size`]).
#[derive(Debug)]
pub struct Degree<'a> {
    neighbours: &'a Csr<u32>,
}

impl<'a> Degree<'a> {
    /// The merit over `problem`'s neighbour lists (built on first use).
    pub fn new(problem: &'a Problem) -> Self {
        Self {
            neighbours: problem.neighbours(),
        }
    }
}

impl Merit for Degree<'_> {
    type Score = Reverse<usize>;
    fn score<D: Domain>(&mut self, st: &State<D>, v: u32, _size: u32) -> Reverse<usize> {
        Reverse(
            self.neighbours
                .row(v)
                .iter()
                .filter(|&&u| !st.is_fixed(u))
                .count(),
        )
    }
}

/// Smallest domain; among equals, the most unassigned neighbours; then the lowest id (or a random one when
/// `random_ties` is set). (The brancher calls `select_lex` itself, over its phase's candidates.)
#[cfg(test)]
pub fn select<D: Domain>(
    st: &State<D>,
    problem: &Problem,
    br: &mut super::Brancher,
) -> Option<u32> {
    let all = st.sizes().enumerate().map(|(v, s)| (v as u32, s));
    super::select_lex(st, br, super::mrv::Size, Degree::new(problem), all)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::heuristics::{Brancher, ValueOrder, VarOrder};
    use crate::model::Model;

    /// x0 and x1 share three constraints (one neighbour each); x2, x3, x4 share one `all_different` (two neighbours
    /// each). Every domain is 1..=4, so plain MRV ties everywhere; a constraint count would pick x0.
    fn overlapping_model() -> Problem {
        let mut m = Model::new();
        let xs: Vec<_> = (0..5).map(|_| m.new_var(1, 4).unwrap()).collect();
        for c in [-1, 0, 1] {
            m.not_equal(xs[0], xs[1], c).unwrap();
        }
        m.all_different(&xs[2..]).unwrap();
        m.build().unwrap()
    }

    fn brancher(p: &Problem) -> Brancher {
        Brancher::new(
            VarOrder::MrvDegree,
            ValueOrder::Ascending,
            false,
            p.num_constraints(),
        )
    }

    #[test]
    fn neighbour_lists_hold_each_distinct_neighbour_once() {
        let p = overlapping_model();
        let nb = p.neighbours();
        assert_eq!(nb.row(0), &[1]);
        assert_eq!(nb.row(1), &[0]);
        assert_eq!(nb.row(2), &[3, 4]);
        assert_eq!(nb.row(4), &[2, 3]);
    }

    #[test]
    fn degree_tie_break_picks_the_variable_with_most_unassigned_neighbours() {
        let p = overlapping_model();
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        let mut st: State<u64> = State::new(&widths);
        let mut br = brancher(&p);
        // x2 has two open neighbours, x0 only one: x2 wins although x0 is in more constraints and has a lower id.
        assert_eq!(select(&st, &p, &mut br), Some(2));
        // Once x3 and x4 are assigned, x2 has no open neighbour left; x0 and x1 tie on one, the lowest id wins.
        st.assign(3, 0).unwrap();
        st.assign(4, 1).unwrap();
        assert_eq!(select(&st, &p, &mut br), Some(0));
        // A smaller domain still comes first, whatever its degree.
        st.remove(2, 3).unwrap();
        assert_eq!(select(&st, &p, &mut br), Some(2));
    }
}
