//! `Split` / `ReverseSplit`: bisect the domain at the mean of its bounds (MiniZinc's `indomain_split` and
//! `indomain_reverse_split`). The decision is `x <= mid` (refuted by `x > mid`), or for the reverse order
//! `x > mid` (refuted by `x <= mid`), with `mid = floor((min + max) / 2)` on *values*, as Gecode's
//! `INT_VAL_SPLIT_MIN` / `INT_VAL_SPLIT_MAX` compute it, so a domain with holes splits where the FlatZinc
//! semantics say, not at its middle position.

use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// The last position of `v` whose value is at most `floor((min + max) / 2)` of its current domain. For a variable
/// with two values or more the result `p` satisfies `min_pos(v) <= p < max_pos(v)`, so both halves `..=p` and
/// `p + 1..` hold a value of the domain and each is strictly smaller than it.
pub fn select<D: Domain>(st: &State<D>, problem: &Problem, v: u32) -> usize {
    let (lo, hi) = (st.min_pos(v), st.max_pos(v));
    let Some(vals) = problem.values.get(v as usize) else {
        return lo;
    };
    let (a, b) = (vals.value(lo) as i128, vals.value(hi) as i128);
    // `b >= a`, so `a + (b - a) / 2` is the floor of the mean (also for negative values).
    let mid = (a + (b - a) / 2) as i64;
    vals.count_le(mid).saturating_sub(1).clamp(lo, hi)
}
