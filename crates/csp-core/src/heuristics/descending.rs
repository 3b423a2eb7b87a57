//! `Descending`: the largest remaining value (MiniZinc's `indomain_max`).

use crate::domain::Domain;
use crate::state::State;

/// Highest position of `dom(v)` (the upper bound of an interval, whose `dom` is not read).
#[inline]
pub fn select<D: Domain>(st: &State<D>, v: u32) -> usize {
    st.max_pos(v)
}
