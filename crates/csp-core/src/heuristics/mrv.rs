//! `Mrv`: smallest domain first (Gecode's "merit: size, pick the minimum"); ties by lowest id or at random.

use super::Brancher;
use crate::domain::Domain;
use crate::state::State;

/// The unassigned variable with the fewest values.
#[inline]
pub fn select<D: Domain>(st: &State<D>, br: &mut Brancher) -> Option<u32> {
    let mut best = u32::MAX;
    let mut pick = None;
    if !br.random_ties {
        for (v, s) in st.sizes().enumerate() {
            if s > 1 && s < best {
                best = s;
                pick = Some(v as u32);
                if s == 2 {
                    break;
                }
            }
        }
        return pick;
    }
    let mut ties = 0u64;
    for (v, s) in st.sizes().enumerate() {
        if s <= 1 || s > best {
            continue;
        }
        if s < best {
            best = s;
            ties = 0;
        }
        ties += 1;
        if br.rng.below(ties) == 0 {
            pick = Some(v as u32);
        }
    }
    pick
}
