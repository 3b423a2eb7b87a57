//! `Largest`: the variable with the largest possible value first (MiniZinc's `largest`, Gecode's
//! `INT_VAR_MAX_MAX`); ties by lowest id or at random.

use std::cmp::Reverse;

use super::Merit;
use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// Merit = the largest value left in the domain, the largest wins.
#[derive(Clone, Copy, Debug)]
pub struct Largest<'a> {
    /// Position -> value tables.
    pub problem: &'a Problem,
}

impl Merit for Largest<'_> {
    type Score = Reverse<i64>;
    #[inline]
    fn score<D: Domain>(&mut self, st: &State<D>, v: u32, _size: u32) -> Reverse<i64> {
        Reverse(self.problem.values[v as usize].value(st.max_pos(v)))
    }
}
