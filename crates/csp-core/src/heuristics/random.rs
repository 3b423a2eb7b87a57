//! `Random`: a uniformly random remaining value from the seeded generator.

use super::Brancher;
use crate::domain::Domain;
use crate::state::State;

/// A random position of `dom(v)`.
pub fn select<D: Domain>(st: &State<D>, v: u32, br: &mut Brancher) -> usize {
    let k = br.rng.below(st.size(v) as u64) as u32;
    st.dom(v).nth(k).unwrap_or_else(|| st.min_pos(v))
}
