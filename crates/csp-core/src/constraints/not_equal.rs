//! `not_equal`: `x != y + c`. Forward checking only (it can prune nothing before one side is fixed).

use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// `vars[0] != vars[1] + c`.
#[derive(Clone, Debug)]
pub struct NotEqual {
    /// `[x, y]`.
    pub vars: [u32; 2],
    /// The offset `c`.
    pub c: i64,
}

impl NotEqual {
    /// Brute force.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        value_of(self.vars[0]) as i128 != value_of(self.vars[1]) as i128 + self.c as i128
    }

    /// 1 if fixing the member at `pos` to position `p` would remove a value from the other (unassigned) side.
    pub fn removals_if_fixed<D: Domain>(
        &self,
        pos: usize,
        p: usize,
        st: &State<D>,
        values: &[Values],
    ) -> u32 {
        let (v, u) = if pos == 0 {
            (self.vars[0], self.vars[1])
        } else {
            (self.vars[1], self.vars[0])
        };
        if st.is_fixed(u) {
            return 0;
        }
        let a = values[v as usize].value(p) as i128;
        let target = if pos == 0 {
            a - self.c as i128
        } else {
            a + self.c as i128
        };
        let hit = i64::try_from(target)
            .ok()
            .and_then(|t| values[u as usize].index_of(t))
            .is_some_and(|q| st.contains(u, q));
        u32::from(hit)
    }

    /// Removes the one value the other side can no longer take.
    #[inline]
    pub fn on_fixed<D: Domain>(
        &self,
        pos: usize,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        let (v, u) = if pos == 0 {
            (self.vars[0], self.vars[1])
        } else {
            (self.vars[1], self.vars[0])
        };
        let a = values[v as usize].value(st.min_pos(v)) as i128;
        let target = if pos == 0 {
            a - self.c as i128
        } else {
            a + self.c as i128
        };
        if let Ok(t) = i64::try_from(target) {
            if let Some(q) = values[u as usize].index_of(t) {
                st.remove(u, q)?;
            }
        }
        Ok(())
    }
}

impl super::Constraint for NotEqual {
    fn name(&self) -> &'static str {
        "not_equal"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        NotEqual::is_satisfied(self, value_of)
    }
    fn trigger(&self, _level: super::Propagation) -> Option<super::Trigger> {
        None
    }
    fn fixed_rule(&self) -> bool {
        true
    }
    fn cost(&self) -> super::Cost {
        super::Cost::Cheap
    }
}

impl<D: Domain> super::Propagate<D> for NotEqual {
    #[inline]
    fn on_fixed(&self, pos: usize, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        NotEqual::on_fixed(self, pos, st, values)
    }
    fn removals_if_fixed(&self, pos: usize, p: usize, st: &State<D>, values: &[Values]) -> u32 {
        NotEqual::removals_if_fixed(self, pos, p, st, values)
    }
}
