//! `Descending`: the largest remaining value (MiniZinc's `indomain_max`).

use crate::domain::Domain;
use crate::state::State;

/// Highest position of `dom(v)`.
#[inline]
pub fn select<D: Domain>(st: &State<D>, v: u32) -> usize {
    st.dom(v).last().unwrap_or_else(|| st.min_pos(v))
}
