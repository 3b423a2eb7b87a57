//! `Random`: a uniformly random remaining value from the seeded generator (on an interval, a random position the
//! search splits at).

use super::Brancher;
use crate::domain::Domain;
use crate::state::State;

/// A random position of `dom(v)`.
pub fn select<D: Domain>(st: &State<D>, v: u32, br: &mut Brancher) -> usize {
    if st.is_interval(v) {
        let b = st.bounds(v);
        return b.lo + br.rng.below((b.hi - b.lo) as u64 + 1) as usize;
    }
    let k = br.rng.below(st.size(v) as u64) as u32;
    st.dom(v).nth(k).unwrap_or_else(|| st.min_pos(v))
}
