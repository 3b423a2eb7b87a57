//! Reified difference: `b <-> (x + c <= y)` and `b -> (x + c <= y)`, the two-term unit-coefficient case of
//! [`super::ReifiedLinear`] (`x - y <= -c`), which scheduling models post by the hundred (each pairwise
//! disjunction `s_i + d_i <= s_j \/ s_j + d_j <= s_i` is two of them).
//!
//! Same rules as the general propagator, written for two bounds instead of a sum:
//! - `b = 1`: `y >= min x + c` and `x <= max y - c`;
//! - `b = 0` (equivalence only): `x + c > y`, i.e. `x >= min y - c + 1` and `y <= max x + c - 1`;
//! - `b` open: `max x + c <= min y` (entailed) sets `b = 1` (equivalence only); `min x + c > max y`
//!   (disentailed) sets `b = 0`.
//!
//! Why a file of its own: the general one walks coefficient slices, divides by the coefficients and narrows
//! every term even when its bound does not move (a bitset `restrict` of every word); here a bound is written
//! only when it moves, with no division. `x` and `y` are distinct variables ([`crate::Model::reify_linear`]
//! posts `x - x` through the general propagator). Arithmetic is `i128`, so no bound overflows.

use super::util::{hi, lo, set_max, set_min, set_value};
use super::{Constraint, Cost, Propagate, Propagation, Reification, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// `b <-> / -> (x + c <= y)`; `vars = [x, y, b]`.
#[derive(Clone, Debug)]
pub struct ReifiedDifference {
    vars: [u32; 3],
    c: i64,
    mode: Reification,
}

impl ReifiedDifference {
    /// `b <-> (x + c <= y)` (`Equivalent`) or `b -> (x + c <= y)` (`Implies`); the caller checked that `b` is
    /// Boolean and `x != y`.
    pub fn new(x: u32, c: i64, y: u32, b: u32, mode: Reification) -> Self {
        Self {
            vars: [x, y, b],
            c,
            mode,
        }
    }
}

/// Enforces `x + c <= y` (`holds`) or its negation `x + c > y` on bounds, writing only the bounds that move;
/// `x`'s bound first, as the general propagator writes its terms in order (the same scheduling order).
#[inline]
fn enforce<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    [x, y]: [u32; 2],
    c: i128,
    holds: bool,
) -> Result<(), Conflict> {
    if holds {
        let x_max = hi(st, values, y) as i128 - c;
        if x_max < hi(st, values, x) as i128 {
            set_max(st, values, x, x_max)?;
        }
        let y_min = lo(st, values, x) as i128 + c;
        if y_min > lo(st, values, y) as i128 {
            set_min(st, values, y, y_min)?;
        }
    } else {
        let x_min = lo(st, values, y) as i128 - c + 1;
        if x_min > lo(st, values, x) as i128 {
            set_min(st, values, x, x_min)?;
        }
        let y_max = hi(st, values, x) as i128 + c - 1;
        if y_max < hi(st, values, y) as i128 {
            set_max(st, values, y, y_max)?;
        }
    }
    Ok(())
}

impl Constraint for ReifiedDifference {
    fn name(&self) -> &'static str {
        match self.mode {
            Reification::Equivalent => "difference_reif",
            Reification::Implies => "difference_imp",
        }
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let [x, y, b] = self.vars;
        let holds = value_of(x) as i128 + self.c as i128 <= value_of(y) as i128;
        let b = value_of(b) != 0;
        match self.mode {
            Reification::Equivalent => b == holds,
            Reification::Implies => !b || holds,
        }
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Bounds)
    }
    fn cost(&self) -> Cost {
        Cost::Cheap
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> Propagate<D> for ReifiedDifference {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let [x, y, b] = self.vars;
        let c = self.c as i128;
        if st.is_fixed(b) {
            let holds = lo(st, values, b) != 0;
            if holds || self.mode == Reification::Equivalent {
                return enforce(st, values, [x, y], c, holds);
            }
            return Ok(());
        }
        if lo(st, values, x) as i128 + c > hi(st, values, y) as i128 {
            set_value(st, values, b, 0)
        } else if self.mode == Reification::Equivalent
            && hi(st, values, x) as i128 + c <= lo(st, values, y) as i128
        {
            set_value(st, values, b, 1)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::constraints::{Reification, Relation};
    use crate::model::Model;
    use crate::solver::Solver;
    use crate::SearchConfig;

    /// Every solution of `b <-> / -> (x + 2 <= y)` (or the `Ge` form written the other way round) with `x, y`
    /// in `0..=3`, as `(x, y, b)` triples, by the solver.
    fn solutions(mode: Reification, flipped: bool) -> Vec<(i64, i64, i64)> {
        let mut m = Model::new();
        let (x, y, b) = (
            m.new_var(0, 3).unwrap(),
            m.new_var(0, 3).unwrap(),
            m.new_bool().unwrap(),
        );
        if flipped {
            // y - x >= 2.
            m.reify_linear(&[(-1, x), (1, y)], Relation::Ge, 2, b, mode)
                .unwrap();
        } else {
            m.reify_linear(&[(1, x), (-1, y)], Relation::Le, -2, b, mode)
                .unwrap();
        }
        let p = m.build().unwrap();
        let mut out: Vec<(i64, i64, i64)> = Solver::new(&p, SearchConfig::default())
            .solutions_iter(&[])
            .map(|s| (s.value(x), s.value(y), s.value(b)))
            .collect();
        out.sort_unstable();
        out
    }

    /// The same triples by enumeration.
    fn expected(mode: Reification) -> Vec<(i64, i64, i64)> {
        let mut out = Vec::new();
        for x in 0..=3 {
            for y in 0..=3 {
                for b in 0..=1 {
                    let holds = x + 2 <= y;
                    let ok = match mode {
                        Reification::Equivalent => (b == 1) == holds,
                        Reification::Implies => b == 0 || holds,
                    };
                    if ok {
                        out.push((x, y, b));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_difference_equivalence_has_exactly_the_enumerated_solutions_in_both_spellings() {
        for flipped in [false, true] {
            assert_eq!(
                solutions(Reification::Equivalent, flipped),
                expected(Reification::Equivalent)
            );
        }
    }

    #[test]
    fn the_difference_implication_has_exactly_the_enumerated_solutions_in_both_spellings() {
        for flipped in [false, true] {
            assert_eq!(
                solutions(Reification::Implies, flipped),
                expected(Reification::Implies)
            );
        }
    }

    #[test]
    fn a_fixed_true_control_moves_both_bounds_and_a_fixed_false_one_the_opposite_ones() {
        // x, y in 0..=9, x + 3 <= y: y >= 3, x <= 6. Its negation x + 3 > y: with x <= 2 forced, y <= 4.
        let bounds = |b_value: i64| {
            let mut m = Model::new();
            let (x, y) = (m.new_var(0, 9).unwrap(), m.new_var(0, 9).unwrap());
            let b = m.new_bool().unwrap();
            m.reify_linear(
                &[(1, x), (-1, y)],
                Relation::Le,
                -3,
                b,
                Reification::Equivalent,
            )
            .unwrap();
            m.linear(&[(1, b)], Relation::Eq, b_value).unwrap();
            if b_value == 0 {
                m.linear(&[(1, x)], Relation::Le, 2).unwrap();
            }
            let p = m.build().unwrap();
            let mut solver = Solver::new(&p, SearchConfig::default());
            let sols: Vec<_> = solver.solutions_iter(&[]).collect();
            let range = |v| {
                let vals = sols.iter().map(|s| s.value(v));
                (vals.clone().min().unwrap(), vals.max().unwrap())
            };
            (range(x), range(y))
        };
        assert_eq!(bounds(1), ((0, 6), (3, 9)));
        assert_eq!(bounds(0), ((0, 2), (0, 4)));
    }
}
