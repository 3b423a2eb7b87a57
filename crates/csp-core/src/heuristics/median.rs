//! `Median`: the middle remaining value; after it is refuted the next median is a neighbour, so values are tried
//! middle-out. On N-Queens this avoids the corner-first trap of ascending order. On an interval the middle
//! position, which the search turns into the split `x <= mid` (bisection).

use crate::domain::Domain;
use crate::state::State;

/// Position of the lower median of `dom(v)`.
pub fn select<D: Domain>(st: &State<D>, v: u32) -> usize {
    if st.is_interval(v) {
        let b = st.bounds(v);
        return b.lo + (b.hi - b.lo) / 2;
    }
    let k = (st.size(v) - 1) / 2;
    st.dom(v).nth(k).unwrap_or_else(|| st.min_pos(v))
}
