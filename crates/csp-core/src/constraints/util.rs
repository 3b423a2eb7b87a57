//! Value-level helpers shared by the arithmetic, linear and Boolean propagators: bounds read and narrowed in
//! values (not positions), through the value tables. All arithmetic is `i128`, so no helper can overflow on `i64`
//! values; a bound outside `i64` simply clamps. They work on bitset and interval variables alike (a constraint
//! that reads domains only through them can accept intervals, see `Constraint::accepts_intervals`).

use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// Smallest value left in `dom(v)`.
#[inline]
pub(crate) fn lo<D: Domain>(st: &State<D>, values: &[Values], v: u32) -> i64 {
    values[v as usize].value(st.min_pos(v))
}

/// Largest value left in `dom(v)`.
#[inline]
pub(crate) fn hi<D: Domain>(st: &State<D>, values: &[Values], v: u32) -> i64 {
    values[v as usize].value(st.max_pos(v))
}

/// True when value `x` is still in `dom(v)`.
#[inline]
pub(crate) fn has<D: Domain>(st: &State<D>, values: &[Values], v: u32, x: i128) -> bool {
    i64::try_from(x)
        .ok()
        .and_then(|x| values[v as usize].index_of(x))
        .is_some_and(|p| st.contains(v, p))
}

/// Removes every value below `m` from `dom(v)`.
#[inline]
pub(crate) fn set_min<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    v: u32,
    m: i128,
) -> Result<(), Conflict> {
    let vals = &values[v as usize];
    if m <= vals.min() as i128 {
        return Ok(());
    }
    if m > vals.max() as i128 {
        return Err(st.conflict());
    }
    st.restrict(v, vals.first_index_ge(m as i64), vals.width())?;
    Ok(())
}

/// Removes every value above `m` from `dom(v)`.
#[inline]
pub(crate) fn set_max<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    v: u32,
    m: i128,
) -> Result<(), Conflict> {
    let vals = &values[v as usize];
    if m >= vals.max() as i128 {
        return Ok(());
    }
    if m < vals.min() as i128 {
        return Err(st.conflict());
    }
    st.restrict(v, 0, vals.count_le(m as i64))?;
    Ok(())
}

/// Fixes `v` to value `x` (a conflict if `x` is not in its domain).
#[inline]
pub(crate) fn set_value<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    v: u32,
    x: i128,
) -> Result<(), Conflict> {
    let p = i64::try_from(x)
        .ok()
        .and_then(|x| values[v as usize].index_of(x));
    match p {
        Some(p) if st.contains(v, p) => {
            st.assign(v, p)?;
            Ok(())
        }
        _ => Err(st.conflict()),
    }
}

/// Removes value `x` from `dom(v)` if present.
#[inline]
pub(crate) fn remove_value<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    v: u32,
    x: i128,
) -> Result<(), Conflict> {
    if let Some(p) = i64::try_from(x)
        .ok()
        .and_then(|x| values[v as usize].index_of(x))
    {
        st.remove(v, p)?;
    }
    Ok(())
}

/// Removes the positions `drop` (all currently in `dom(v)`) from `dom(v)`.
pub(crate) fn remove_positions<D: Domain>(
    st: &mut State<D>,
    v: u32,
    drop: &[u32],
) -> Result<(), Conflict> {
    if drop.len() >= st.size(v) as usize {
        return Err(st.conflict());
    }
    for &p in drop {
        st.remove(v, p as usize)?;
    }
    Ok(())
}

/// Borrows the search state's scratch indexes (`State::order`), emptied; hand them back with [`give_order`]. The
/// search reserved `Constraint::work_len` entries for the largest user, so pushing that many never allocates.
#[inline]
pub(crate) fn take_order<D: Domain>(st: &mut State<D>) -> Vec<u32> {
    let mut buf = std::mem::take(&mut st.order);
    buf.clear();
    buf
}

/// Returns the scratch indexes borrowed by [`take_order`] (keeping their capacity for the next call).
#[inline]
pub(crate) fn give_order<D: Domain>(st: &mut State<D>, buf: Vec<u32>) {
    st.order = buf;
}

/// True when `dom(u)` and `dom(v)` share a value (enumerable domains: it walks the smaller one).
pub(crate) fn meet<D: Domain>(st: &State<D>, values: &[Values], u: u32, v: u32) -> bool {
    let (u, v) = if st.size(u) <= st.size(v) {
        (u, v)
    } else {
        (v, u)
    };
    st.dom(u)
        .iter()
        .any(|p| has(st, values, v, values[u as usize].value(p) as i128))
}

/// The widest initial bitset domain among `vars`, in positions: the scratch a propagator needs to list one scope
/// variable's positions (its `Constraint::work_len`). Intervals count as 0: they have no positions to list, and
/// their width can be anything up to 2^64.
pub(crate) fn widest(vars: &[u32], values: &[Values]) -> usize {
    vars.iter()
        .filter_map(|&v| values.get(v as usize))
        .filter(|v| !v.is_interval())
        .map(Values::width)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The allocation-free contract of `Constraint::work_len`: the buffer the search reserved is the one lent, and
    /// it comes back with its capacity, so the next borrower does not allocate either.
    #[test]
    fn take_order_lends_the_reserved_buffer_empty_and_give_order_keeps_its_capacity() {
        let mut st: State<u64> = State::new(&[4; 2]);
        st.order = Vec::with_capacity(32);
        st.order.extend([7, 8, 9]);
        let mut buf = take_order(&mut st);
        assert!(buf.is_empty(), "lent with a previous user's entries");
        assert!(buf.capacity() >= 32, "not the reserved buffer");
        buf.extend(0..32);
        give_order(&mut st, buf);
        assert!(st.order.capacity() >= 32, "the buffer was not handed back");
        let again = take_order(&mut st);
        assert!(again.is_empty() && again.capacity() >= 32);
    }

    /// `widest` sizes the scratch a propagator lists positions into: the widest bitset of the scope, with
    /// intervals (no positions to list) and unknown variables counted as nothing.
    #[test]
    fn widest_is_the_widest_bitset_of_the_scope_and_ignores_intervals() {
        let values = vec![
            Values::Range { min: 0, width: 3 },
            Values::List(vec![-4, 0, 9, 11, 20].into_boxed_slice()),
            Values::Interval {
                min: 0,
                width: 1 << 40,
            },
        ];
        assert_eq!(widest(&[0], &values), 3);
        assert_eq!(widest(&[0, 1], &values), 5);
        assert_eq!(widest(&[1, 0, 2], &values), 5);
        assert_eq!(widest(&[2], &values), 0);
        assert_eq!(widest(&[], &values), 0);
        assert_eq!(widest(&[0, 3], &values), 3);
    }
}
