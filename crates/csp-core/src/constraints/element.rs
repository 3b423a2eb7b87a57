//! `z = array[x - first]` for a constant array when `x` or `z` is an interval ([`crate::Model::element`] posts a
//! table otherwise).
//!
//! One pass over the indexes `x` may take: an index whose item `z` cannot take leaves `x` (at a bound only, if
//! `x` is an interval), and `z` is narrowed to the smallest and largest item of the indexes kept (and loses every
//! other value too when it is a bitset). Bounds consistency on an interval `x`, domain consistency when both are
//! bitsets; complete on ground scopes. Reads domains through the value helpers only.

use super::util::{
    give_order, has, hi, lo, remove_positions, remove_value, set_max, set_min, take_order,
};
use super::{Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// `vars = [x, z]`: `z = array[x - first]`.
#[derive(Clone, Debug)]
pub struct Element {
    vars: Vec<u32>,
    first: i64,
    array: Vec<i64>,
}

impl Element {
    /// `z = array[x - first]`; `array` is not empty and `first + array.len()` fits `i64` (checked when posting).
    pub fn new(x: u32, first: i64, array: Vec<i64>, z: u32) -> Self {
        Self {
            vars: vec![x, z],
            first,
            array,
        }
    }

    fn item(&self, index: i128) -> Option<i64> {
        let i = usize::try_from(index - self.first as i128).ok()?;
        self.array.get(i).copied()
    }

    fn filter<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        drop: &mut Vec<u32>,
    ) -> Result<(), Conflict> {
        let (x, z) = (self.vars[0], self.vars[1]);
        let last = self.first as i128 + self.array.len() as i128 - 1;
        set_min(st, values, x, self.first as i128)?;
        set_max(st, values, x, last)?;
        let (xl, xh) = (lo(st, values, x) as i128, hi(st, values, x) as i128);
        let (mut zl, mut zh) = (i128::MAX, i128::MIN);
        for i in xl..=xh {
            if !has(st, values, x, i) {
                continue;
            }
            let Some(a) = self.item(i) else {
                continue;
            };
            if has(st, values, z, a as i128) {
                zl = zl.min(a as i128);
                zh = zh.max(a as i128);
            } else {
                remove_value(st, values, x, i)?;
            }
        }
        if zl > zh {
            return Err(st.conflict());
        }
        set_min(st, values, z, zl)?;
        set_max(st, values, z, zh)?;
        if st.is_interval(z) {
            return Ok(());
        }
        // A bitset z keeps only the items of indexes x still holds.
        let (xl, xh) = (lo(st, values, x) as i128, hi(st, values, x) as i128);
        let vz = &values[z as usize];
        drop.extend(
            st.dom(z)
                .iter()
                .filter(|&p| {
                    let w = vz.value(p);
                    !(xl..=xh).any(|i| self.item(i) == Some(w) && has(st, values, x, i))
                })
                .map(|p| p as u32),
        );
        remove_positions(st, z, drop)
    }
}

impl Constraint for Element {
    fn name(&self) -> &'static str {
        "element"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        self.item(value_of(self.vars[0]) as i128) == Some(value_of(self.vars[1]))
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Domain)
    }
    fn cost(&self) -> Cost {
        Cost::Linear
    }
    fn work_len(&self, values: &[Values]) -> usize {
        values
            .get(self.vars[1] as usize)
            .filter(|v| !v.is_interval())
            .map_or(0, Values::width)
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> Propagate<D> for Element {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let mut drop = take_order(st);
        let result = self.filter(st, values, &mut drop);
        give_order(st, drop);
        result
    }
}
