//! `Median`: the middle remaining value; after it is refuted the next median is a neighbour, so values are tried
//! middle-out. On N-Queens this avoids the corner-first trap of ascending order.

use crate::domain::Domain;
use crate::state::State;

/// Position of the lower median of `dom(v)`.
pub fn select<D: Domain>(st: &State<D>, v: u32) -> usize {
    let k = (st.size(v) - 1) / 2;
    st.dom(v).nth(k).unwrap_or_else(|| st.min_pos(v))
}
