//! `Smallest`: the variable with the smallest possible value first (MiniZinc's `smallest`, Gecode's
//! `INT_VAR_MIN_MIN`); ties by lowest id or at random.

use super::Merit;
use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// Merit = the smallest value left in the domain.
#[derive(Clone, Copy, Debug)]
pub struct Smallest<'a> {
    /// Position -> value tables.
    pub problem: &'a Problem,
}

impl Merit for Smallest<'_> {
    type Score = i64;
    #[inline]
    fn score<D: Domain>(&mut self, st: &State<D>, v: u32, _size: u32) -> i64 {
        self.problem.values[v as usize].value(st.min_pos(v))
    }
}
