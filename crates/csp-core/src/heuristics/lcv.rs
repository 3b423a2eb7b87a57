//! `Lcv`: least constraining value, the one that would remove the fewest values from unassigned peers through
//! the forward-checking constraints (`all_different`, `not_equal`). Costs a pass over the peers per candidate, so
//! it pays off only when values differ a lot in impact. An interval takes its lowest value (its values are not
//! listed one by one).

use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// Position of `dom(v)` with the fewest peer removals; ties to the lowest.
pub fn select<D: Domain>(st: &State<D>, problem: &Problem, v: u32) -> usize {
    if st.is_interval(v) {
        return st.min_pos(v);
    }
    let mut best = (u32::MAX, st.min_pos(v));
    for p in st.dom(v).iter() {
        let mut cost = 0;
        for &(c, pos) in problem.occurrences.row(v) {
            cost += D::view(&*problem.constraints[c as usize]).removals_if_fixed(
                pos as usize,
                p,
                st,
                &problem.values,
            );
            if cost >= best.0 {
                break;
            }
        }
        if cost < best.0 {
            best = (cost, p);
        }
    }
    best.1
}
