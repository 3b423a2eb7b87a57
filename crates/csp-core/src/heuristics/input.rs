//! `Input`: the first unassigned variable in creation order.

use crate::domain::Domain;
use crate::state::State;

/// First variable with more than one value.
pub fn select<D: Domain>(st: &State<D>) -> Option<u32> {
    st.sizes().position(|s| s > 1).map(|v| v as u32)
}
