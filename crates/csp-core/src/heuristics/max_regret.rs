//! `MaxRegret`: the variable whose two smallest values lie furthest apart first (MiniZinc's `max_regret`,
//! Gecode's `INT_VAR_REGRET_MIN_MAX`): committing to its smallest value gives up the most. Ties by lowest id or at
//! random.

use std::cmp::Reverse;

use super::Merit;
use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// Merit = second smallest value - smallest value, the largest wins.
#[derive(Clone, Copy, Debug)]
pub struct MaxRegret<'a> {
    /// Position -> value tables.
    pub problem: &'a Problem,
}

impl Merit for MaxRegret<'_> {
    type Score = Reverse<i64>;
    #[inline]
    fn score<D: Domain>(&mut self, st: &State<D>, v: u32, _size: u32) -> Reverse<i64> {
        let first = st.min_pos(v);
        let second = if st.is_interval(v) {
            // An interval has no holes: the next value is the next position (`dom` is not read for intervals).
            if st.max_pos(v) > first {
                first + 1
            } else {
                first
            }
        } else {
            st.dom(v).next_from(first + 1).unwrap_or(first)
        };
        let vals = &self.problem.values[v as usize];
        Reverse(vals.value(second) - vals.value(first))
    }
}
