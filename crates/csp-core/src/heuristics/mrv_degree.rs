//! `MrvDegree`: MRV, ties broken by the dynamic degree (constraints that still involve another unassigned variable).

use super::{is_live, Brancher};
use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// Smallest domain; among equals, the highest live degree; then lowest id (or random).
pub fn select<D: Domain>(st: &State<D>, problem: &Problem, br: &mut Brancher) -> Option<u32> {
    let best = st.sizes().filter(|&s| s > 1).min()?;
    let mut pick = None;
    let mut best_deg = 0usize;
    let mut ties = 0u64;
    for (v, s) in st.sizes().enumerate() {
        if s != best {
            continue;
        }
        let v = v as u32;
        let deg = problem
            .occurrences
            .row(v)
            .iter()
            .filter(|&&(c, _)| is_live(st, problem, c, v))
            .count();
        if pick.is_none() || deg > best_deg {
            pick = Some(v);
            best_deg = deg;
            ties = 1;
        } else if deg == best_deg && br.random_ties {
            ties += 1;
            if br.rng.below(ties) == 0 {
                pick = Some(v);
            }
        }
    }
    pick
}
