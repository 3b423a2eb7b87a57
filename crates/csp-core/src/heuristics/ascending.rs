//! `Ascending`: the smallest remaining value.

use crate::domain::Domain;
use crate::state::State;

/// Lowest position of `dom(v)`.
#[inline]
pub fn select<D: Domain>(st: &State<D>, v: u32) -> usize {
    st.min_pos(v)
}
