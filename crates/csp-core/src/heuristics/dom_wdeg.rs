//! `DomWdeg` (Boussemart et al. 2004): smallest `size / wdeg`, where `wdeg(v)` sums the failure weights of the
//! live constraints on `v`. Failures teach the search which part of the problem is hard.

use super::{is_live, Brancher};
use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// Smallest size / weighted degree (compared exactly by cross-multiplication).
pub fn select<D: Domain>(st: &State<D>, problem: &Problem, br: &mut Brancher) -> Option<u32> {
    let mut pick: Option<(u32, u64, u64)> = None;
    let mut ties = 0u64;
    for (v, s) in st.sizes().enumerate() {
        if s <= 1 {
            continue;
        }
        let v = v as u32;
        let w: u64 = problem
            .occurrences
            .row(v)
            .iter()
            .filter(|&&(c, _)| is_live(st, problem, c, v))
            .map(|&(c, _)| br.weights[c as usize])
            .sum::<u64>()
            .max(1);
        let s = s as u64;
        match pick {
            None => {
                pick = Some((v, s, w));
                ties = 1;
            }
            Some((_, bs, bw)) => {
                let (lhs, rhs) = (s as u128 * bw as u128, bs as u128 * w as u128);
                if lhs < rhs {
                    pick = Some((v, s, w));
                    ties = 1;
                } else if lhs == rhs && br.random_ties {
                    ties += 1;
                    if br.rng.below(ties) == 0 {
                        pick = Some((v, s, w));
                    }
                }
            }
        }
    }
    pick.map(|p| p.0)
}
