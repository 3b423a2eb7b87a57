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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::Inverse;
    use crate::constraints::soundness::{current, state_of};
    use crate::constraints::{Constraint, Cost, Propagate, Propagation, Trigger};
    use crate::domain::Domain;
    use crate::ids::VarId;
    use crate::model::{Model, Problem};
    use crate::rng::Rng;
    use crate::state::State;

    /// The values each variable still has.
    type Doms = Vec<Vec<i64>>;

    /// One pass of the documented rule on value lists, `f` (variables `0..n` of `d`) then `g` (`n..2n`), each side
    /// in index order on the lists as the pass left them: `xs[i]` keeps a value `first + j` only while `j < n`
    /// and `ys[j]` holds `first + i`, and a fixed `xs[i] = first + j` leaves `ys[j]` only `first + i`. `None`
    /// when a list empties. Recomputed here without the constraint's helpers.
    fn one_pass(first: i64, n: usize, mut d: Doms) -> Option<Doms> {
        for (xs, ys) in [(0, n), (n, 0)] {
            for i in 0..n {
                let back = first + i as i64;
                let partner = |v: i64| -> Option<usize> {
                    let j = v.checked_sub(first)?;
                    (0..n as i64).contains(&j).then_some(ys + j as usize)
                };
                let kept: Vec<i64> = d[xs + i]
                    .iter()
                    .copied()
                    .filter(|&v| partner(v).is_some_and(|y| d[y].contains(&back)))
                    .collect();
                d[xs + i] = kept;
                match d[xs + i][..] {
                    [] => return None,
                    [v] => {
                        let y = partner(v).unwrap();
                        d[y].retain(|&w| w == back);
                        if d[y].is_empty() {
                            return None;
                        }
                    }
                    _ => {}
                }
            }
        }
        Some(d)
    }

    /// The rule's fixpoint: passes until one changes nothing.
    fn fixpoint(first: i64, n: usize, mut d: Doms) -> Option<Doms> {
        loop {
            let next = one_pass(first, n, d.clone())?;
            if next == d {
                return Some(d);
            }
            d = next;
        }
    }

    /// An `inverse` on `n` random value lists per side within `first - 1..=first + n` (holes, values outside
    /// the index range), posted through the model; its variables are `0..2n`.
    fn random_inverse(rng: &mut Rng, n: usize, first: i64) -> (Problem, Inverse) {
        let mut m = Model::new();
        let vars: Vec<VarId> = (0..2 * n)
            .map(|_| {
                let mut list: Vec<i64> = (first - 1..=first + n as i64)
                    .filter(|_| rng.below(4) != 0)
                    .collect();
                if list.is_empty() {
                    list.push(first + rng.below_usize(n) as i64);
                }
                m.new_var_with_values(&list).unwrap()
            })
            .collect();
        m.inverse(&vars[..n], &vars[n..], first).unwrap();
        let p = m.build().unwrap();
        let scope: Vec<u32> = vars.iter().map(|v| v.index() as u32).collect();
        (p, Inverse::new(&scope[..n], &scope[n..], first))
    }

    /// A random removal of one value (or an undo of the last one), as a search would make them.
    fn random_step(rng: &mut Rng, st: &mut State<u64>, vars: usize) {
        if st.level() > 0 && rng.below(4) == 0 {
            st.pop_level();
            return;
        }
        st.push_level();
        let v = rng.below_usize(vars) as u32;
        if st.size(v) > 1 {
            let keep: Vec<usize> = st.dom(v).iter().collect();
            if rng.below(5) == 0 {
                st.assign(v, keep[rng.below_usize(keep.len())]).unwrap();
            } else {
                st.remove(v, keep[rng.below_usize(keep.len())]).unwrap();
            }
        }
    }

    /// Down random walks of removals and undos, one `propagate` call does exactly one pass of the documented
    /// rule (the module doc: "one pass over both arrays per call"), calls repeated until nothing changes reach
    /// the rule's fixpoint, and the scratch the search reserved from `work_len` never grows.
    #[test]
    fn one_call_is_one_pass_of_the_documented_rule_and_repeated_calls_reach_its_fixpoint() {
        let mut rng = Rng::new(31);
        let mut seen = [0usize; 3]; // unchanged, pruned, failed
        for round in 0..1500 {
            let n = 1 + rng.below_usize(4);
            let first = rng.below(5) as i64 - 2;
            let (p, c) = random_inverse(&mut rng, n, first);
            let mut st = state_of(&p);
            let reserved = st.order.capacity();
            for step in 0..10 {
                if step > 0 {
                    random_step(&mut rng, &mut st, 2 * n);
                }
                let before = current(&p, &st);
                let what = format!("round {round} step {step}: n {n}, first {first}, {before:?}");
                let expected = one_pass(first, n, before.clone());
                let mut twin = st.clone();
                let got = Propagate::<u64>::propagate(&c, &mut twin, &p.values).ok();
                assert_eq!(
                    got.map(|()| current(&p, &twin)),
                    expected,
                    "one call: {what}"
                );
                if expected.is_none() {
                    seen[2] += 1;
                    break;
                }
                // Calls on the walk's own state (a clone does not keep the reserved capacity) until one changes
                // nothing (or fails).
                let mut last = before.clone();
                let mut calls = 0;
                let reached = loop {
                    if Propagate::<u64>::propagate(&c, &mut st, &p.values).is_err() {
                        break None;
                    }
                    let next = current(&p, &st);
                    if next == last {
                        break Some(next);
                    }
                    last = next;
                    calls += 1;
                    assert!(calls <= 4 * n + 2, "no fixpoint: {what}");
                };
                assert_eq!(
                    reached,
                    fixpoint(first, n, before.clone()),
                    "fixpoint: {what}"
                );
                assert_eq!(
                    st.order.capacity(),
                    reserved,
                    "the work buffer grew: {what}"
                );
                let Some(after) = reached else {
                    seen[2] += 1;
                    break;
                };
                seen[usize::from(after != before)] += 1;
            }
        }
        assert!(seen.iter().all(|&s| s > 200), "outcomes {seen:?}");
    }

    /// The checker is the search tests' oracle, so it is checked against the definition on every assignment of
    /// 1 to 3 pairs (values one past each end included): `f` a permutation of `first..first + n` and
    /// `g[f[i] - first] = first + i` for every `i` (which makes `g` its inverse permutation).
    #[test]
    fn the_checker_accepts_exactly_the_pairs_of_inverse_permutations() {
        for n in 1..=3usize {
            for first in [-2i64, 0, 1] {
                let mut m = Model::new();
                let vars: Vec<VarId> = (0..2 * n)
                    .map(|_| m.new_var(first - 1, first + n as i64).unwrap())
                    .collect();
                m.inverse(&vars[..n], &vars[n..], first).unwrap();
                let p = m.build().unwrap();
                let (mut accepted, mut refused) = (0, 0);
                let values = (n + 2) as i64;
                for code in 0..values.pow(2 * n as u32) {
                    let a: Vec<i64> = (0..2 * n as u32)
                        .map(|k| first - 1 + code / values.pow(k) % values)
                        .collect();
                    let (f, g) = a.split_at(n);
                    let index = |v: i64| usize::try_from(v - first).ok().filter(|&j| j < n);
                    let mut sorted = f.to_vec();
                    sorted.sort_unstable();
                    let permutation = sorted == (first..first + n as i64).collect::<Vec<_>>();
                    let expected = permutation
                        && (0..n).all(|i| index(f[i]).is_some_and(|j| g[j] == first + i as i64));
                    let got = p.constraints[0].is_satisfied(&|v| a[v as usize]);
                    assert_eq!(got, expected, "{a:?} from {first}");
                    accepted += u32::from(expected);
                    refused += u32::from(!expected);
                }
                let factorial: u32 = (1..=n as u32).product();
                assert_eq!(accepted, factorial, "n {n}, first {first}");
                assert!(refused > 0);
            }
        }
    }

    /// What the engine reads besides the filtering: the name, the scope (`f` then `g`), a wake-up on any domain
    /// change at every level, the cost class, and the scratch: the widest domain of the scope.
    #[test]
    fn an_inverse_reports_its_name_scope_trigger_cost_and_scratch() {
        let mut m = Model::new();
        let f = [m.new_var(0, 1).unwrap(), m.new_var(0, 4).unwrap()];
        let g = [
            m.new_var_with_values(&[0, 1, 7]).unwrap(),
            m.new_var(1, 1).unwrap(),
        ];
        m.inverse(&f, &g, 0).unwrap();
        let p = m.build().unwrap();
        let c = &p.constraints[0];
        assert_eq!(c.name(), "inverse");
        assert_eq!(c.vars(), [0, 1, 2, 3]);
        for level in [Propagation::ForwardChecking, Propagation::Singles] {
            assert_eq!(c.trigger(level), Some(Trigger::Domain));
        }
        assert_eq!(c.cost(), Cost::Expensive);
        assert_eq!(c.work_len(&p.values), 5);
        let c = Inverse::new(&[3, 0], &[1, 2], 0);
        assert_eq!(c.work_len(&p.values), 5);
        assert_eq!(Inverse::new(&[2], &[3], 0).work_len(&p.values), 3);
    }
}
