//! `count`: `n` = the number of `xs` equal to the constant `value` (FlatZinc `count_eq` with a constant; each
//! value of `global_cardinality` is one of these), and [`CountVar`] for a variable value.
//!
//! With `sure` = members fixed to `value` and `maybe` = members whose domain still holds it, `n` lies in
//! `[sure, maybe]`; when `n` can only be `maybe` every member that may take `value` must, and when it can only be
//! `sure` no open member may. No allocation, no auxiliary variables (the decomposition it replaces added one
//! Boolean and one reified equality per member). Reads domains through the value helpers only, so members and `n`
//! may be intervals (a member then loses `value` only at a bound).
//!
//! # Incremental counting (Gecode's `int/count` drops decided members the same way)
//! Down a branch a member that lost `value` never regains it and a member fixed to `value` stays fixed, so once
//! seen it never needs looking at again until backtracking. [`Count`] keeps, in the trailed store
//! ([`crate::trailed`]), two words: `open` and `sure`; and in the untrailed area a permutation `perm` of the member
//! indexes `0..xs.len()`. Invariants at every fixpoint and between calls:
//! - `perm[..open]` holds every member that is *undecided* (not fixed and still holding `value`), possibly with
//!   some decided ones not yet seen (they are dropped by the next call);
//! - `perm[open..]` holds only decided members, and `sure` counts those among them fixed to `value`;
//! - so `sure <= true sure` and `sure + open >= true maybe`, with equality right after a call's scan.
//!
//! A call scans only `perm[..open]`, swapping each decided member to the end of the prefix and shrinking `open`
//! (counting it in `sure` if it is fixed to `value`). Swaps stay inside the prefix that the trailed `open`
//! restores, so after backtracking `perm[..open]` is again exactly the old prefix as a set (a sparse set, as
//! `table`'s row index). Cost per call: the undecided members, not the scope; magicseq's 100 counts over one array
//! woken by every change pay for each member once per branch instead of on every wake (figures in
//! `docs/measurements.md`, "count and linear incremental"). Debug builds check the counters against a rescan.
//!
//! [`CountVar`] rescans its scope on every call (its `maybe` depends on `dom(y)`, which any change may shrink).

use super::util::{
    give_order, has, hi, lo, meet, remove_positions, remove_value, set_max, set_min, set_value,
    take_order, widest,
};
use super::{Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::trailed::Layout;
use crate::values::Values;

/// No position: the member's values lack the counted value.
const NONE: u32 = u32::MAX;

/// `vars = [xs.., n]`: `n = |{i : xs[i] = value}|`.
#[derive(Clone, Debug)]
pub struct Count {
    vars: Vec<u32>,
    value: i64,
    /// Index of the trailed word `open` (`sure` is the next one); see the module docs.
    base: u32,
    /// Index of `perm[0]` in the untrailed area.
    perm_base: u32,
    /// True once [`Constraint::place`] has reserved the words (a state without them rescans every call).
    placed: bool,
    /// `pos[k]` = domain position of `value` for member `k` ([`NONE`] if its values lack it); empty when the
    /// count was built without the value tables ([`Count::new`] alone), then looked up on each test.
    pos: Vec<u32>,
    /// `n` is not among the `xs`: one call then reaches this constraint's fixpoint (narrowing `n` changes no
    /// count), see [`Constraint::idempotent`].
    idempotent: bool,
}

impl Count {
    /// `n` counts the `xs` equal to `value`.
    pub fn new(xs: &[u32], value: i64, n: u32) -> Self {
        let mut vars = xs.to_vec();
        vars.push(n);
        Self {
            vars,
            value,
            base: 0,
            perm_base: 0,
            placed: false,
            pos: Vec::new(),
            idempotent: !xs.contains(&n),
        }
    }

    /// Records where `value` sits in each member's value table (`values` = the model's tables, indexed by
    /// variable), so the scan tests one domain bit per member instead of mapping the value each time.
    pub(crate) fn with_positions(mut self, values: &[Values]) -> Self {
        let (xs, _) = self.split();
        let pos = xs
            .iter()
            .map(|&x| {
                values
                    .get(x as usize)
                    .and_then(|v| v.index_of(self.value))
                    .and_then(|p| u32::try_from(p).ok())
                    .unwrap_or(NONE)
            })
            .collect();
        self.pos = pos;
        self
    }

    /// True when member `k` (variable `x`) still holds `value`.
    #[inline(always)]
    fn member_holds<D: Domain>(&self, k: usize, x: u32, st: &State<D>, values: &[Values]) -> bool {
        match self.pos.get(k) {
            Some(&p) => p != NONE && st.contains(x, p as usize),
            None => holds(st, values, x, self.value),
        }
    }

    fn split(&self) -> (&[u32], u32) {
        let (xs, n) = self.vars.split_at(self.vars.len() - 1);
        (xs, n[0])
    }

    /// `(sure, maybe)` by a full scan: members fixed to `value`, members holding it.
    fn rescan<D: Domain>(&self, st: &State<D>, values: &[Values]) -> (i128, i128) {
        let (xs, _) = self.split();
        let c = self.value as i128;
        let (mut sure, mut maybe) = (0i128, 0i128);
        for &x in xs {
            if has(st, values, x, c) {
                maybe += 1;
                if st.is_fixed(x) {
                    sure += 1;
                }
            }
        }
        (sure, maybe)
    }

    /// `(sure, maybe)` from the trailed counters, dropping the members decided since the last call from the
    /// undecided prefix of `perm` (see the module docs); a full scan when the state holds no words for this count.
    fn counts<D: Domain>(&self, st: &mut State<D>, values: &[Values]) -> (i128, i128) {
        let (xs, _) = self.split();
        let (base, pb) = (self.base as usize, self.perm_base as usize);
        let in_store = self.placed
            && st.cstate.words_len() >= base + 2
            && st.cstate.free.len() >= pb + xs.len();
        if !in_store {
            return self.rescan(st, values);
        }
        let open0 = st.cstate.word(base) as usize;
        let sure0 = st.cstate.word(base + 1);
        let (mut open, mut sure) = (open0.min(xs.len()), sure0);
        let mut i = 0;
        while i < open {
            let k = st.cstate.free[pb + i] as usize;
            let Some(&x) = xs.get(k) else {
                // Unreachable (perm is a permutation of the member indexes); keep it harmless.
                i += 1;
                continue;
            };
            let holds = self.member_holds(k, x, st, values);
            if holds && !st.is_fixed(x) {
                i += 1;
                continue;
            }
            sure += u64::from(holds);
            open -= 1;
            st.cstate.free.swap(pb + i, pb + open);
        }
        if open != open0 {
            st.cstate.set_word(base, open as u64);
        }
        if sure != sure0 {
            st.cstate.set_word(base + 1, sure);
        }
        let counts = (sure as i128, sure as i128 + open as i128);
        debug_assert_eq!(
            counts,
            self.rescan(st, values),
            "count: trailed counters differ from a rescan"
        );
        counts
    }
}

/// True when value `c` is in `dom(x)`: [`has`] with the common case (a bitset over a range) first, which skips the
/// `i128` conversions and the value-table `match` of the general helper (the scan's per-member test).
#[inline(always)]
fn holds<D: Domain>(st: &State<D>, values: &[Values], x: u32, c: i64) -> bool {
    match values.get(x as usize) {
        Some(Values::Range { min, width }) => match c.checked_sub(*min) {
            Some(d) if d >= 0 && d < i64::from(*width) => st.contains(x, d as usize),
            _ => false,
        },
        _ => has(st, values, x, i128::from(c)),
    }
}

impl Constraint for Count {
    fn name(&self) -> &'static str {
        "count"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let (xs, n) = self.split();
        let c = xs.iter().filter(|&&x| value_of(x) == self.value).count();
        c as i64 == value_of(n)
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Domain)
    }
    fn cost(&self) -> Cost {
        Cost::Linear
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
    /// After one call either `n`'s bounds were the only change (when `n` is no member, that changes no count) or
    /// every undecided member was decided, so a second call would change nothing.
    fn idempotent(&self) -> bool {
        self.idempotent
    }
    fn place(&mut self, layout: &mut Layout) {
        let m = self.vars.len() - 1;
        self.base = layout.words.len() as u32;
        layout.words.push(m as u64);
        layout.words.push(0);
        self.perm_base = layout.free.len() as u32;
        layout.free.extend(0..m as u32);
        self.placed = true;
    }
}

impl<D: Domain> Propagate<D> for Count {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let (xs, n) = self.split();
        let c = self.value as i128;
        let (sure, maybe) = self.counts(st, values);
        set_min(st, values, n, sure)?;
        set_max(st, values, n, maybe)?;
        if sure == maybe {
            return Ok(());
        }
        let (nl, nh) = (lo(st, values, n) as i128, hi(st, values, n) as i128);
        // Only the undecided members can change; they are all in perm[..open] (the whole scope when unplaced).
        if nl == maybe {
            self.for_undecided(st, xs, |st, x| {
                if !st.is_fixed(x) && has(st, values, x, c) {
                    set_value(st, values, x, c)?;
                }
                Ok(())
            })?;
        } else if nh == sure {
            self.for_undecided(st, xs, |st, x| {
                if !st.is_fixed(x) {
                    remove_value(st, values, x, c)?;
                }
                Ok(())
            })?;
        }
        Ok(())
    }
}

impl Count {
    /// Runs `f` on every member of `perm[..open]` (every member when this state holds no words for the count).
    /// `f` may change domains; the prefix is left as it is (the next call drops what `f` decided).
    fn for_undecided<D: Domain>(
        &self,
        st: &mut State<D>,
        xs: &[u32],
        mut f: impl FnMut(&mut State<D>, u32) -> Result<(), Conflict>,
    ) -> Result<(), Conflict> {
        let (base, pb) = (self.base as usize, self.perm_base as usize);
        let in_store = self.placed
            && st.cstate.words_len() >= base + 2
            && st.cstate.free.len() >= pb + xs.len();
        if !in_store {
            for &x in xs {
                f(st, x)?;
            }
            return Ok(());
        }
        let open = (st.cstate.word(base) as usize).min(xs.len());
        for i in 0..open {
            let k = st.cstate.free[pb + i] as usize;
            if let Some(&x) = xs.get(k) {
                f(st, x)?;
            }
        }
        Ok(())
    }
}

/// `vars = [xs.., y, n]`: `n = |{i : xs[i] = y}|` (FlatZinc `count_eq` with a variable value).
///
/// With `sure` = members fixed equal to a fixed `y`, and `maybe` = members whose domain meets `dom(y)`, `n` lies in
/// `[sure, maybe]`. When `n` can only be `maybe`, each open member able to equal `y` must: the two domains are
/// intersected; when it can only be `sure`, each such member differs from `y` (a value leaves the open side once
/// the other side is fixed). A value `w` of `y` stays only while the members fixed to `w` and those holding `w`
/// bracket a possible `n`. The decomposition it replaces (one Boolean `b_i <-> x_i = y` per member and a sum)
/// saw only bounds for `x_i = y`; this reads domains, so it removes at least what that did. Bitset domains only
/// (the model keeps the decomposition when a member or `y` is an interval); `n` may be an interval.
#[derive(Clone, Debug)]
pub struct CountVar {
    vars: Vec<u32>,
}

impl CountVar {
    /// `n` counts the `xs` equal to `y`.
    pub fn new(xs: &[u32], y: u32, n: u32) -> Self {
        let mut vars = xs.to_vec();
        vars.push(y);
        vars.push(n);
        Self { vars }
    }

    fn split(&self) -> (&[u32], u32, u32) {
        let k = self.vars.len();
        (&self.vars[..k - 2], self.vars[k - 2], self.vars[k - 1])
    }

    /// The filtering of `propagate`, with `drop` (empty) for the positions one variable loses.
    fn filter<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        drop: &mut Vec<u32>,
    ) -> Result<(), Conflict> {
        let (xs, y, n) = self.split();
        let y_fixed = st.is_fixed(y);
        let (mut sure, mut maybe) = (0i128, 0i128);
        for &x in xs {
            if meet(st, values, x, y) {
                maybe += 1;
                if y_fixed && st.is_fixed(x) {
                    sure += 1;
                }
            }
        }
        set_min(st, values, n, sure)?;
        set_max(st, values, n, maybe)?;
        let (nl, nh) = (lo(st, values, n) as i128, hi(st, values, n) as i128);
        if sure < maybe && (nl == maybe || nh == sure) {
            let equal = nl == maybe;
            for &x in xs {
                if (y_fixed && st.is_fixed(x)) || !meet(st, values, x, y) {
                    continue;
                }
                if equal {
                    // x = y: each keeps the values of the other.
                    keep_common(st, values, x, y, drop)?;
                    keep_common(st, values, y, x, drop)?;
                } else if y_fixed {
                    remove_value(st, values, x, lo(st, values, y) as i128)?;
                } else if st.is_fixed(x) {
                    remove_value(st, values, y, lo(st, values, x) as i128)?;
                }
            }
        }
        // Values of y whose count cannot be n.
        let (nl, nh) = (lo(st, values, n) as i128, hi(st, values, n) as i128);
        let vy = &values[y as usize];
        drop.extend(
            st.dom(y)
                .iter()
                .filter(|&p| {
                    let w = vy.value(p) as i128;
                    let (mut fixed, mut able) = (0i128, 0i128);
                    for &x in xs {
                        if has(st, values, x, w) {
                            able += 1;
                            fixed += i128::from(st.is_fixed(x));
                        }
                    }
                    // A member repeated as y itself counts as equal to any w y takes.
                    able < nl || fixed > nh
                })
                .map(|p| p as u32),
        );
        let result = remove_positions(st, y, drop);
        drop.clear();
        result
    }
}

/// Removes from `dom(u)` every value `dom(v)` lacks (positions listed in `drop`, which is left empty).
fn keep_common<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    u: u32,
    v: u32,
    drop: &mut Vec<u32>,
) -> Result<(), Conflict> {
    let vu = &values[u as usize];
    drop.extend(
        st.dom(u)
            .iter()
            .filter(|&p| !has(st, values, v, vu.value(p) as i128))
            .map(|p| p as u32),
    );
    let result = remove_positions(st, u, drop);
    drop.clear();
    result
}

impl Constraint for CountVar {
    fn name(&self) -> &'static str {
        "count_var"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let (xs, y, n) = self.split();
        let w = value_of(y);
        let c = xs.iter().filter(|&&x| value_of(x) == w).count();
        c as i64 == value_of(n)
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Domain)
    }
    fn cost(&self) -> Cost {
        Cost::Linear
    }
    fn work_len(&self, values: &[Values]) -> usize {
        widest(&self.vars, values)
    }
}

impl<D: Domain> Propagate<D> for CountVar {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let mut drop = take_order(st);
        let result = self.filter(st, values, &mut drop);
        give_order(st, drop);
        result
    }
}

#[cfg(test)]
mod tests {
    //! The trailed counters themselves (the soundness harness and the cross-checks see only their effect, which a
    //! full rescan would also give).
    #![allow(clippy::unwrap_used)]

    use std::any::Any;

    use super::*;
    use crate::constraints::soundness::state_of;
    use crate::{Model, Problem, VarId};

    /// Three counts of value 1, each over its own four members in 0..=2 (so each reserves its words after the
    /// previous one's, which is what the store bounds of `counts` are about), and the members of each.
    fn three_counts() -> (Problem, Vec<Vec<u32>>) {
        let mut m = Model::new();
        let mut members = Vec::new();
        for _ in 0..3 {
            let xs: Vec<VarId> = (0..4).map(|_| m.new_var(0, 2).unwrap()).collect();
            let n = m.new_var(0, 4).unwrap();
            m.count(&xs, 1, n).unwrap();
            members.push(xs.iter().map(|x| x.index() as u32).collect());
        }
        (m.build().unwrap(), members)
    }

    fn count_of(p: &Problem, c: usize) -> &Count {
        let any: &dyn Any = &*p.constraints[c];
        any.downcast_ref::<Count>().unwrap()
    }

    /// `(open, sure)` as the count's trailed words hold them.
    fn words(st: &State<u64>, count: &Count) -> (u64, u64) {
        let base = count.base as usize;
        (st.cstate.word(base), st.cstate.word(base + 1))
    }

    #[test]
    fn each_count_keeps_its_open_and_sure_members_in_its_own_trailed_words_and_undo_restores_them()
    {
        let (p, members) = three_counts();
        let mut st = state_of(&p);
        for c in 0..3 {
            let count = count_of(&p, c);
            assert!(count.placed);
            assert_eq!(words(&st, count), (4, 0));
            Propagate::<u64>::propagate(count, &mut st, &p.values).unwrap();
            assert_eq!(words(&st, count), (4, 0), "count {c} before any decision");
        }
        st.push_level();
        for (c, xs) in members.iter().enumerate() {
            // Member 0 takes the value (position 1), member 1 loses it; members 2 and 3 stay open.
            st.assign(xs[0], 1).unwrap();
            st.remove(xs[1], 1).unwrap();
            let count = count_of(&p, c);
            Propagate::<u64>::propagate(count, &mut st, &p.values).unwrap();
            assert_eq!(
                words(&st, count),
                (2, 1),
                "count {c} after deciding two members"
            );
            // n = 1 + (members 2 and 3 taking the value): 1..=3.
            let n = count.vars[4];
            assert_eq!((st.min_pos(n), st.max_pos(n)), (1, 3));
        }
        st.pop_level();
        for c in 0..3 {
            assert_eq!(words(&st, count_of(&p, c)), (4, 0), "count {c} after undo");
        }
    }

    /// The documented rule on value lists (members and `n` bitset variables, `n` no member): `n` within
    /// `[sure, maybe]`; then, unless `sure == maybe`, every open member takes `value` when `min(n) == maybe` or loses
    /// it when `max(n) == sure`. `None` when a domain empties.
    fn by_the_rule(doms: &[Vec<i64>], xs: &[usize], value: i64, n: usize) -> Option<Vec<Vec<i64>>> {
        let mut out = doms.to_vec();
        let sure = xs.iter().filter(|&&x| doms[x] == [value]).count() as i64;
        let maybe = xs.iter().filter(|&&x| doms[x].contains(&value)).count() as i64;
        out[n].retain(|&c| (sure..=maybe).contains(&c));
        let (&nl, &nh) = (out[n].first()?, out[n].last()?);
        if sure == maybe {
            return Some(out);
        }
        for &x in xs {
            if out[x].len() > 1 && out[x].contains(&value) {
                if nl == maybe {
                    out[x] = vec![value];
                } else if nh == sure {
                    out[x].retain(|&c| c != value);
                }
            }
        }
        Some(out)
    }

    /// Every variable's values left.
    fn values_of(p: &Problem, st: &State<u64>) -> Vec<Vec<i64>> {
        crate::constraints::soundness::current(p, st)
    }

    #[test]
    fn a_count_prunes_by_its_documented_rule_placed_or_not_with_or_without_positions_down_random_walks(
    ) {
        let mut rng = crate::rng::Rng::new(21);
        let mut seen = [0usize; 4]; // unchanged, pruned n only, pruned members, failed
        for round in 0..1500 {
            let k = 1 + rng.below_usize(5);
            let value = rng.below(4) as i64 - 1;
            let mut m = Model::new();
            let xs: Vec<VarId> = (0..k)
                .map(|_| {
                    if rng.below(3) == 0 {
                        // A value list with holes (the value may be missing from it).
                        let mut list: Vec<i64> = (-2..4).filter(|_| rng.below(2) == 0).collect();
                        if list.is_empty() {
                            list.push(rng.below(6) as i64 - 2);
                        }
                        m.new_var_with_values(&list).unwrap()
                    } else {
                        let lo = rng.below(3) as i64 - 2;
                        m.new_var(lo, lo + 1 + rng.below(3) as i64).unwrap()
                    }
                })
                .collect();
            let n_lo = rng.below_usize(k + 1) as i64;
            let n = m
                .new_var(n_lo, n_lo + rng.below_usize(k + 1) as i64)
                .unwrap();
            m.count(&xs, value, n).unwrap();
            // The same count posted as built by `Count::new` alone: placed, but without the value positions.
            let scope: Vec<u32> = xs.iter().map(|x| x.index() as u32).collect();
            m.post(Count::new(&scope, value, n.index() as u32));
            let p = m.build().unwrap();
            let placed = count_of(&p, 0);
            let posted = count_of(&p, 1);
            assert!(posted.placed && posted.pos.is_empty());
            let (xi, ni): (Vec<usize>, usize) = (xs.iter().map(|x| x.index()).collect(), n.index());
            let vars: Vec<u32> = xi.iter().map(|&x| x as u32).collect();
            let twins = [
                Count::new(&vars, value, ni as u32),
                Count::new(&vars, value, ni as u32).with_positions(&p.values),
            ];
            assert!(
                placed.placed
                    && !twins[0].placed
                    && twins[0].pos.is_empty()
                    && twins[1].pos.len() == k
            );

            let mut st = state_of(&p);
            for step in 0..12 {
                // A random removal (or an undo), then the three copies against the rule.
                if st.level() > 0 && rng.below(4) == 0 {
                    st.pop_level();
                } else {
                    st.push_level();
                    let v = rng.below_usize(k + 1) as u32;
                    if st.size(v) > 1 {
                        let keep: Vec<usize> = st.dom(v).iter().collect();
                        st.remove(v, keep[rng.below_usize(keep.len())]).unwrap();
                    }
                }
                let before = values_of(&p, &st);
                let expected = by_the_rule(&before, &xi, value, ni);
                let what = format!(
                    "round {round} step {step}: value {value}, members {xi:?}, n {ni}, {before:?}"
                );
                let copies = [
                    ("unplaced", &twins[0], false),
                    ("unplaced with positions", &twins[1], false),
                    ("placed, on a state without its words", placed, true),
                    ("placed, without positions", posted, false),
                ];
                for (name, c, bare) in copies {
                    let mut twin = st.clone();
                    if bare {
                        twin.cstate = crate::trailed::Trailed::empty();
                    }
                    let got = Propagate::<u64>::propagate(c, &mut twin, &p.values).ok();
                    assert_eq!(
                        got.map(|()| values_of(&p, &twin)),
                        expected,
                        "{name}: {what}"
                    );
                }
                let got = Propagate::<u64>::propagate(placed, &mut st, &p.values);
                assert_eq!(got.is_ok(), expected.is_some(), "placed: {what}");
                let Some(expected) = expected else {
                    seen[3] += 1;
                    break;
                };
                let after = values_of(&p, &st);
                assert_eq!(after, expected, "placed: {what}");
                // `n` is no member, so the count declares itself idempotent: a second call changes nothing.
                assert!(Constraint::idempotent(placed));
                Propagate::<u64>::propagate(placed, &mut st, &p.values).unwrap();
                assert_eq!(values_of(&p, &st), after, "placed, second call: {what}");
                // The posted twin follows the walk on the same state (so its trailed words stay current).
                Propagate::<u64>::propagate(posted, &mut st, &p.values).unwrap();
                assert_eq!(
                    values_of(&p, &st),
                    after,
                    "posted, after the placed one: {what}"
                );
                let members_changed = xi.iter().any(|&x| after[x] != before[x]);
                seen[if members_changed {
                    2
                } else {
                    usize::from(after != before)
                }] += 1;
            }
        }
        assert!(seen.iter().all(|&s| s > 100), "outcomes {seen:?}");
    }

    #[test]
    fn counts_name_themselves_and_a_count_is_idempotent_only_when_n_is_no_member() {
        assert_eq!(Constraint::name(&Count::new(&[0, 1], 1, 2)), "count");
        assert_eq!(Constraint::name(&CountVar::new(&[0, 1], 2, 3)), "count_var");
        assert!(Constraint::idempotent(&Count::new(&[0, 1], 1, 2)));
        assert!(!Constraint::idempotent(&Count::new(&[0, 1, 2], 1, 2)));
    }

    /// [`CountVar`]'s documented rule on value lists, members, `y` and `n` distinct bitset variables; `None` when a
    /// domain empties. Independent of the propagator's helpers (`meet`, `keep_common`, `split`).
    fn count_var_by_the_rule(
        doms: &[Vec<i64>],
        xs: &[usize],
        y: usize,
        n: usize,
    ) -> Option<Vec<Vec<i64>>> {
        let mut d = doms.to_vec();
        let meets = |d: &[Vec<i64>], x: usize| d[x].iter().any(|c| d[y].contains(c));
        let y_fixed = d[y].len() == 1;
        let maybe = xs.iter().filter(|&&x| meets(&d, x)).count() as i64;
        let sure = xs
            .iter()
            .filter(|&&x| y_fixed && d[x].len() == 1 && meets(&d, x))
            .count() as i64;
        d[n].retain(|&c| (sure..=maybe).contains(&c));
        let (&nl, &nh) = (d[n].first()?, d[n].last()?);
        if sure < maybe && (nl == maybe || nh == sure) {
            for &x in xs {
                if (y_fixed && d[x].len() == 1) || !meets(&d, x) {
                    continue;
                }
                if nl == maybe {
                    // x = y: each keeps the values of the other.
                    let dy = d[y].clone();
                    d[x].retain(|c| dy.contains(c));
                    let dx = d[x].clone();
                    d[y].retain(|c| dx.contains(c));
                } else if y_fixed {
                    let w = d[y][0];
                    d[x].retain(|&c| c != w);
                } else if d[x].len() == 1 {
                    let w = d[x][0];
                    d[y].retain(|&c| c != w);
                }
                if d[x].is_empty() || d[y].is_empty() {
                    return None;
                }
            }
        }
        // Values of y whose count cannot be n.
        let (&nl, &nh) = (d[n].first()?, d[n].last()?);
        let members = d.clone();
        d[y].retain(|w| {
            let able = xs.iter().filter(|&&x| members[x].contains(w)).count() as i64;
            let fixed = xs.iter().filter(|&&x| members[x] == [*w]).count() as i64;
            able >= nl && fixed <= nh
        });
        (!d[y].is_empty()).then_some(d)
    }

    #[test]
    fn a_count_of_a_variable_value_prunes_by_its_documented_rule_and_accepts_exactly_the_counted_tuples(
    ) {
        let mut rng = crate::rng::Rng::new(22);
        let mut seen = [0usize; 3]; // unchanged, pruned, failed
        for round in 0..3000 {
            let k = 1 + rng.below_usize(4);
            let mut m = Model::new();
            let var = |m: &mut Model, rng: &mut crate::rng::Rng| {
                let mut list: Vec<i64> = (-1..4).filter(|_| rng.below(3) != 0).collect();
                if list.is_empty() {
                    list.push(rng.below(5) as i64 - 1);
                }
                m.new_var_with_values(&list).unwrap()
            };
            let xs: Vec<VarId> = (0..k).map(|_| var(&mut m, &mut rng)).collect();
            let y = var(&mut m, &mut rng);
            let n_lo = rng.below_usize(k + 1) as i64;
            let n = m
                .new_var(n_lo, n_lo + rng.below_usize(k + 1) as i64)
                .unwrap();
            m.count_var(&xs, y, n).unwrap();
            let p = m.build().unwrap();
            let any: &dyn Any = &*p.constraints[0];
            let c = any.downcast_ref::<CountVar>().unwrap();
            let xi: Vec<usize> = xs.iter().map(|x| x.index()).collect();
            let (yi, ni) = (y.index(), n.index());
            let scope: Vec<u32> = xi.iter().chain([&yi, &ni]).map(|&v| v as u32).collect();
            assert_eq!(Constraint::vars(c), &scope[..]);
            let widest = scope.iter().map(|&v| p.values[v as usize].width()).max();
            assert_eq!(Some(Constraint::work_len(c, &p.values)), widest);

            let mut st = state_of(&p);
            for _ in 0..rng.below(4) {
                let v = rng.below_usize(k + 2) as u32;
                if st.size(v) > 1 {
                    let keep: Vec<usize> = st.dom(v).iter().collect();
                    st.remove(v, keep[rng.below_usize(keep.len())]).unwrap();
                }
            }
            let before = values_of(&p, &st);
            let what = format!("round {round}: members {xi:?}, y {yi}, n {ni}, {before:?}");
            let expected = count_var_by_the_rule(&before, &xi, yi, ni);
            let got = Propagate::<u64>::propagate(c, &mut st, &p.values);
            assert_eq!(got.is_ok(), expected.is_some(), "{what}");
            let Some(expected) = expected else {
                seen[2] += 1;
                continue;
            };
            let after = values_of(&p, &st);
            assert_eq!(after, expected, "{what}");
            seen[usize::from(after != before)] += 1;

            // On a full assignment the checker and the propagator both accept exactly the tuples where n counts
            // the members equal to y.
            let pick: Vec<i64> = before.iter().map(|d| d[rng.below_usize(d.len())]).collect();
            let counted = xi.iter().filter(|&&x| pick[x] == pick[yi]).count() as i64 == pick[ni];
            assert_eq!(
                Constraint::is_satisfied(c, &|v| pick[v as usize]),
                counted,
                "{what}: {pick:?}"
            );
            let mut full = state_of(&p);
            for (v, &w) in pick.iter().enumerate() {
                full.assign(v as u32, p.values[v].index_of(w).unwrap())
                    .unwrap();
            }
            let accepted = Propagate::<u64>::propagate(c, &mut full, &p.values).is_ok();
            assert_eq!(accepted, counted, "{what}: {pick:?}");
        }
        assert!(seen.iter().all(|&s| s > 100), "outcomes {seen:?}");
    }
}
