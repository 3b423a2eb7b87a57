//! `equal`: `x == y + c`, kept domain-consistent: each value of one side needs a partner in the other. An
//! interval side gets the bounds of the other side instead (bounds consistency), since it has no holes to make.

use super::util::{hi, lo, set_max, set_min};
use crate::domain::{Domain, Word};
use crate::state::{Conflict, State};
use crate::values::Values;

/// `vars[0] == vars[1] + c`.
#[derive(Clone, Debug)]
pub struct Equal {
    /// `[x, y]`.
    pub vars: [u32; 2],
    /// The offset `c`.
    pub c: i64,
}

impl Equal {
    /// Brute force.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        value_of(self.vars[0]) as i128 == value_of(self.vars[1]) as i128 + self.c as i128
    }

    /// Removes from each side the values without a partner on the other side.
    pub fn propagate<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        let [x, y] = self.vars;
        let c = self.c as i128;
        if st.is_interval(x) || st.is_interval(y) {
            // Bounds first (x in [lo y + c, hi y + c] and back), then the bitset side, if any, value by value.
            set_min(st, values, x, lo(st, values, y) as i128 + c)?;
            set_max(st, values, x, hi(st, values, y) as i128 + c)?;
            set_min(st, values, y, lo(st, values, x) as i128 - c)?;
            set_max(st, values, y, hi(st, values, x) as i128 - c)?;
        }
        if !st.is_interval(x) {
            filter(st, values, x, y, -c)?;
        }
        if !st.is_interval(y) {
            filter(st, values, y, x, c)?;
        }
        Ok(())
    }
}

/// Keeps the positions of `a` whose value `+ delta` is a value still in `b`.
fn filter<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    a: u32,
    b: u32,
    delta: i128,
) -> Result<(), Conflict> {
    let bits = D::W::BITS as usize;
    let (va, vb) = (&values[a as usize], &values[b as usize]);
    for s in 0..st.dom(a).slots() {
        let w = st.dom(a).word(s);
        let mut keep = w;
        let mut rest = w;
        while !rest.is_zero() {
            let bit = rest.lowest();
            rest = rest.clear_lowest();
            let target = va.value(s * bits + bit as usize) as i128 + delta;
            let supported = i64::try_from(target)
                .ok()
                .and_then(|t| vb.index_of(t))
                .is_some_and(|q| st.contains(b, q));
            if !supported {
                keep &= !D::W::bit(bit);
            }
        }
        st.set_word(a, s, keep)?;
    }
    Ok(())
}

impl super::Constraint for Equal {
    fn name(&self) -> &'static str {
        "equal"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        Equal::is_satisfied(self, value_of)
    }
    fn cost(&self) -> super::Cost {
        super::Cost::Cheap
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> super::Propagate<D> for Equal {
    #[inline]
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        Equal::propagate(self, st, values)
    }
}
