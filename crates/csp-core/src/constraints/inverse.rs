//! `inverse(f, g)`: `f[i] = j + first <-> g[j] = i + first` for every `i`, `j` (FlatZinc `inverse`, `first = 1`):
//! `f` and `g` are permutations of `first..first + n`, each the inverse of the other.
//!
//! Propagation is arc consistency on each pair `(f_i, g_j)` of the biconditional: value `j` (shifted) stays in
//! `f_i` only while `i` is in `g_j`, a fixed `f_i = j` fixes `g_j = i`, and the same from `g`'s side. That
//! implies forward checking of `all_different` on both arrays (`f_i = j` fixes `g_j = i`, which removes `j` from
//! every other `f_k`) and hidden singles (a value `j` that only `f_i` holds leaves `g_j` only `i`), which the
//! decomposition it replaces posted separately beside one Boolean per pair (`n^2` Booleans and `2 n^2` reified
//! equalities). One pass over both arrays per call; a change schedules the next.

use super::util::{
    give_order, has, lo, remove_positions, set_max, set_min, set_value, take_order, widest,
};
use super::{Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// `vars = [f.., g..]` of equal lengths `n`; values `first..first + n`.
#[derive(Clone, Debug)]
pub struct Inverse {
    vars: Vec<u32>,
    first: i64,
}

impl Inverse {
    /// `f` and `g` inverse permutations of `first..first + n`; `f.len() == g.len()` and `first + n` fits `i64`
    /// (checked when posting).
    pub fn new(f: &[u32], g: &[u32], first: i64) -> Self {
        let mut vars = f.to_vec();
        vars.extend_from_slice(g);
        Self { vars, first }
    }

    fn split(&self) -> (&[u32], &[u32]) {
        self.vars.split_at(self.vars.len() / 2)
    }

    /// Index of `value` (`value - first`), if within `0..n`.
    fn index(&self, value: i64) -> Option<usize> {
        let k = usize::try_from(value as i128 - self.first as i128).ok()?;
        (k < self.vars.len() / 2).then_some(k)
    }

    /// One side: `xs[i]` keeps value `j` only while `ys[j]` holds `i`; a fixed `xs[i] = j` fixes `ys[j] = i`.
    fn channel<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        xs: &[u32],
        ys: &[u32],
        drop: &mut Vec<u32>,
    ) -> Result<(), Conflict> {
        let n = xs.len();
        let (low, high) = (self.first as i128, self.first as i128 + n as i128 - 1);
        for (i, &x) in xs.iter().enumerate() {
            set_min(st, values, x, low)?;
            set_max(st, values, x, high)?;
            let back = self.first as i128 + i as i128;
            let vx = &values[x as usize];
            drop.extend(
                st.dom(x)
                    .iter()
                    .filter(|&p| {
                        self.index(vx.value(p))
                            .is_none_or(|j| !has(st, values, ys[j], back))
                    })
                    .map(|p| p as u32),
            );
            let result = remove_positions(st, x, drop);
            drop.clear();
            result?;
            if st.is_fixed(x) {
                if let Some(j) = self.index(lo(st, values, x)) {
                    set_value(st, values, ys[j], back)?;
                }
            }
        }
        Ok(())
    }
}

impl Constraint for Inverse {
    fn name(&self) -> &'static str {
        "inverse"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let (f, g) = self.split();
        f.iter().enumerate().all(|(i, &fi)| {
            self.index(value_of(fi))
                .is_some_and(|j| self.index(value_of(g[j])) == Some(i))
        }) && g.iter().enumerate().all(|(j, &gj)| {
            self.index(value_of(gj))
                .is_some_and(|i| self.index(value_of(f[i])) == Some(j))
        })
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Domain)
    }
    fn cost(&self) -> Cost {
        Cost::Expensive
    }
    fn work_len(&self, values: &[Values]) -> usize {
        widest(&self.vars, values)
    }
}

impl<D: Domain> Propagate<D> for Inverse {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let (f, g) = self.split();
        let mut drop = take_order(st);
        let result = self
            .channel(st, values, f, g, &mut drop)
            .and_then(|()| self.channel(st, values, g, f, &mut drop));
        give_order(st, drop);
        result
    }
}
