//! Element: `z = array[x - first]`, over a constant array ([`Element`]) or over an array of variables
//! ([`ElementVar`]).
//!
//! [`Element`] is posted when `x` or `z` is an interval ([`crate::Model::element`] posts a table otherwise). One
//! pass over the indexes `x` may take: an index whose item `z` cannot take leaves `x` (at a bound only, if `x` is
//! an interval), and `z` is narrowed to the smallest and largest item of the indexes kept (and loses every other
//! value too when it is a bitset). Bounds consistency on an interval `x`, domain consistency when both are
//! bitsets; complete on ground scopes. Reads domains through the value helpers only.
//!
//! [`ElementVar`] takes bitset and interval variables in any mix (FlatZinc's `array_var_int_element` over a
//! `var 0..100000` array, for one). Per call, after `x` is clipped to the array's index range:
//! 1. `x` keeps the indexes whose entry shares a value with `z` (exactly: two bitsets by walking the smaller, a
//!    bitset and an interval by the bitset's first value at or above the interval's low end, two intervals by
//!    their bounds overlapping); a bitset `x` loses every other index, an interval `x` shrinks to the first and
//!    last kept index.
//! 2. An interval `z` shrinks to the smallest and largest value some kept entry holds within `z`'s bounds; a
//!    bitset `z` loses every value no kept entry holds (`has` answers for an interval entry by its bounds).
//! 3. Once `x` is fixed to `i`, the entry `a[i]` takes `z`'s domain: its bounds if either is an interval, every
//!    value not in `z` otherwise.
//!
//! Invariants: sound (a value goes only when no index supports it); complete on ground scopes (with everything
//! fixed, step 1 is an exact equality test, so a violated tuple empties `x`); domain consistent on `x` always, on
//! `z` and the fixed entry when they are bitsets and bounds consistent when intervals (the soundness suite checks
//! both on random small scopes). Not declared idempotent: the scheduler wakes it on its own changes, which is
//! always sound. Cost per call: step 1 walks a bitset `x`'s positions directly; step 2 on one-word domains with
//! bitset entries ORs the kept entries' values into a word of `z`'s positions (`O(sum |dom a|)`, the decision of
//! 2026-11-25: Hidato circuit model 22-36% fewer instructions, `docs/measurements.md`, "count and linear
//! incremental"), else tests each value of `z` against the kept indexes (`O(|x| * |z|)`); with an interval `z`,
//! one walk over each kept bitset entry.

use super::util::{
    give_order, has, hi, lo, meet, remove_positions, remove_value, set_max, set_min, take_order,
    widest,
};
use super::{Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::{Domain, Word};
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

/// `z = a[x - first]` for an array of variables: `vars = [x, z, a..]`. Any scope variable may be an interval
/// (see the module doc for the filtering and its consistency).
#[derive(Clone, Debug)]
pub struct ElementVar {
    vars: Vec<u32>,
    first: i64,
}

impl ElementVar {
    /// `z = array[x - first]`; `array` is not empty and `first + array.len()` fits `i64` (checked when posting).
    pub fn new(x: u32, first: i64, array: &[u32], z: u32) -> Self {
        let mut vars = vec![x, z];
        vars.extend_from_slice(array);
        Self { vars, first }
    }

    /// The entry at `index`, `None` outside the array.
    fn item(&self, index: i128) -> Option<u32> {
        let i = usize::try_from(index - self.first as i128).ok()?;
        self.vars[2..].get(i).copied()
    }

    /// The filtering of `propagate`, with `drop` (empty) as the list of positions to remove.
    fn filter<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        drop: &mut Vec<u32>,
    ) -> Result<(), Conflict> {
        let (x, z) = (self.vars[0], self.vars[1]);
        let last = self.first as i128 + (self.vars.len() - 2) as i128 - 1;
        set_min(st, values, x, self.first as i128)?;
        set_max(st, values, x, last)?;
        // 1. Indexes whose entry shares a value with z.
        let (xl, xh) = (lo(st, values, x) as i128, hi(st, values, x) as i128);
        let vx = &values[x as usize];
        let mut kept: Option<(i128, i128)> = None;
        if st.is_interval(x) {
            // An interval x lists nothing to drop (it shrinks to the kept indexes' range below): its positions
            // are not counted in `work_len`, so listing them would grow the reserved scratch.
            for i in indexes(st, vx, x, xl, xh) {
                let Some(a) = self.item(i) else {
                    continue;
                };
                if share(st, values, a, z) {
                    kept = Some(kept.map_or((i, i), |(l, _)| (l, i)));
                }
            }
        } else {
            // Bitset x, already clipped to the array: its positions walked directly, a dropped index listed by
            // the position in hand (no clipping adaptors, no value-to-position lookup; the Hidato circuit model
            // lost 1-6% to those when intervals came in, see `docs/measurements.md`).
            for p in st.dom(x).iter() {
                let i = vx.value(p) as i128;
                let Some(a) = self.item(i) else {
                    continue;
                };
                if share(st, values, a, z) {
                    kept = Some(kept.map_or((i, i), |(l, _)| (l, i)));
                } else {
                    drop.push(p as u32);
                }
            }
        }
        let Some((kl, kh)) = kept else {
            return Err(st.conflict());
        };
        if st.is_interval(x) {
            set_min(st, values, x, kl)?;
            set_max(st, values, x, kh)?;
        } else {
            remove_positions(st, x, drop)?;
        }
        drop.clear();
        // 2. An interval z within the union of the kept entries' values within its bounds; a bitset z loses every
        // value no kept entry holds (which takes its bounds along).
        if st.is_interval(z) {
            let (zl, zh) = (lo(st, values, z), hi(st, values, z));
            let (mut ul, mut uh) = (i128::MAX, i128::MIN);
            for i in indexes(st, vx, x, kl, kh) {
                if let Some((l, h)) = self.item(i).and_then(|a| within(st, values, a, zl, zh)) {
                    ul = ul.min(l);
                    uh = uh.max(h);
                }
            }
            set_min(st, values, z, ul)?;
            set_max(st, values, z, uh)?;
        } else if let Some(union) = self.kept_union(st, values) {
            // One-word domains, bitset entries: z keeps the union of the kept entries' values (the values no kept
            // entry holds go), one pass over the entries instead of one pass over x per value of z.
            let w = st.dom(z).word(0);
            st.set_word(z, 0, w & union)?;
        } else {
            let vz = &values[z as usize];
            drop.extend(
                st.dom(z)
                    .iter()
                    .filter(|&p| {
                        let w = vz.value(p) as i128;
                        let held = |i: i128| self.item(i).is_some_and(|a| has(st, values, a, w));
                        // A bitset x holds only kept indexes by now: its domain walked directly (the
                        // bitset-only loop of before, without `indexes`' clipping adaptors).
                        if st.is_interval(x) {
                            !(kl..=kh).any(held)
                        } else {
                            !st.dom(x).iter().any(|q| held(vx.value(q) as i128))
                        }
                    })
                    .map(|p| p as u32),
            );
            remove_positions(st, z, drop)?;
            drop.clear();
        }
        // 3. A fixed index: its entry takes z's domain.
        if !st.is_fixed(x) {
            return Ok(());
        }
        let Some(a) = self.item(lo(st, values, x) as i128) else {
            return Err(st.conflict());
        };
        if st.is_interval(a) || st.is_interval(z) {
            set_min(st, values, a, lo(st, values, z) as i128)?;
            set_max(st, values, a, hi(st, values, z) as i128)?;
        }
        if !st.is_interval(a) {
            let va = &values[a as usize];
            drop.extend(
                st.dom(a)
                    .iter()
                    .filter(|&p| !has(st, values, z, va.value(p) as i128))
                    .map(|p| p as u32),
            );
            remove_positions(st, a, drop)?;
        }
        Ok(())
    }
}

impl ElementVar {
    /// The union of the kept entries' values as a word of `z`'s positions, when step 2 can take it: one-word
    /// domains, and bitset `x`, `z` and entries (an entry with `z`'s value table by one OR, another by mapping
    /// each of its values); `None` otherwise (the value-by-value filter runs). `O(sum |dom a|)` instead of
    /// `O(|dom z| |dom x|)` membership tests.
    fn kept_union<D: Domain>(&self, st: &State<D>, values: &[Values]) -> Option<D::W> {
        let (x, z) = (self.vars[0], self.vars[1]);
        if D::MAX_WIDTH > 128 || st.is_interval(x) || st.is_interval(z) {
            return None;
        }
        let (vx, vz) = (&values[x as usize], &values[z as usize]);
        let mut union = D::W::ZERO;
        for p in st.dom(x).iter() {
            let a = self.item(vx.value(p) as i128)?;
            if st.is_interval(a) {
                return None;
            }
            let va = &values[a as usize];
            if va == vz {
                union |= st.dom(a).word(0);
            } else {
                // Another value table (Hidato's successors list their neighbours): each value mapped to z's
                // position, values z never had left out.
                for q in st.dom(a).iter() {
                    if let Some(r) = vz.index_of(va.value(q)) {
                        union |= D::W::bit(r as u32);
                    }
                }
            }
        }
        Some(union)
    }
}

/// The indexes `x` holds within `[l, h]`, ascending: a bitset's values (its domain walked, not the range tested
/// index by index: Hidato's successors hold about 8 of N indexes; measured in `docs/measurements.md`), an
/// interval's whole range.
fn indexes<'a, D: Domain>(
    st: &'a State<D>,
    vx: &'a Values,
    x: u32,
    l: i128,
    h: i128,
) -> impl Iterator<Item = i128> + 'a {
    let interval = st.is_interval(x);
    let bits = (!interval).then(|| {
        st.dom(x)
            .iter()
            .map(|p| vx.value(p) as i128)
            .skip_while(move |&i| i < l)
            .take_while(move |&i| i <= h)
    });
    let range = interval.then_some(l..=h);
    bits.into_iter()
        .flatten()
        .chain(range.into_iter().flatten())
}

/// True when entry `a` and `z` share a value, for bitsets and intervals alike (exact in every mix).
fn share<D: Domain>(st: &State<D>, values: &[Values], a: u32, z: u32) -> bool {
    match (st.is_interval(a), st.is_interval(z)) {
        (false, false) => meet(st, values, a, z),
        (_, true) => within(st, values, a, lo(st, values, z), hi(st, values, z)).is_some(),
        (true, false) => within(st, values, z, lo(st, values, a), hi(st, values, a)).is_some(),
    }
}

/// The smallest and largest value of `dom(v)` within `[l, h]`, `None` when there is none. An interval answers
/// by its bounds; a bitset walks its positions from the first value at or above `l` (positions ascend with
/// values).
fn within<D: Domain>(
    st: &State<D>,
    values: &[Values],
    v: u32,
    l: i64,
    h: i64,
) -> Option<(i128, i128)> {
    if st.is_interval(v) {
        let (a, b) = (lo(st, values, v).max(l), hi(st, values, v).min(h));
        return (a <= b).then_some((a as i128, b as i128));
    }
    let vv = &values[v as usize];
    let dom = st.dom(v);
    let mut p = dom.next_from(vv.first_index_ge(l))?;
    let first = vv.value(p);
    if first > h {
        return None;
    }
    let mut last = first;
    while let Some(q) = dom.next_from(p + 1) {
        let w = vv.value(q);
        if w > h {
            break;
        }
        (p, last) = (q, w);
    }
    Some((first as i128, last as i128))
}

impl Constraint for ElementVar {
    fn name(&self) -> &'static str {
        "element"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        self.item(value_of(self.vars[0]) as i128)
            .is_some_and(|a| value_of(a) == value_of(self.vars[1]))
    }
    fn work_len(&self, values: &[Values]) -> usize {
        // Positions of one bitset scope variable at a time (intervals list none).
        widest(&self.vars, values)
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> Propagate<D> for ElementVar {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let mut drop = take_order(st);
        let result = self.filter(st, values, &mut drop);
        give_order(st, drop);
        result
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::{Element, ElementVar};
    use crate::constraints::soundness::{current, state_of};
    use crate::constraints::{Constraint, Cost, Propagate, Propagation, Trigger};
    use crate::domain::{Domain, WideDomain};
    use crate::ids::VarId;
    use crate::model::{Model, Problem};
    use crate::rng::Rng;
    use crate::state::State;

    /// The values each variable still has (an interval's whole range), ascending.
    type Doms = Vec<Vec<i64>>;

    /// What an interval keeps of `kept`: the range from its smallest to its largest value.
    fn hull(kept: &[i64]) -> Vec<i64> {
        match (kept.first(), kept.last()) {
            (Some(&a), Some(&b)) => (a..=b).collect(),
            _ => Vec::new(),
        }
    }

    /// A new variable within `lo..=hi`: an interval (when `intervals` allows and a coin says so), a range, or
    /// a value list with holes.
    fn random_var(m: &mut Model, rng: &mut Rng, (lo, hi): (i64, i64), intervals: bool) -> VarId {
        let a = lo + rng.below((hi - lo + 1) as u64) as i64;
        let b = a + rng.below((hi - a + 1) as u64) as i64;
        match rng.below(3) {
            0 if intervals => m.new_interval_var(a, b).unwrap(),
            1 => m.new_var(lo, hi).unwrap(),
            _ => {
                let mut list: Vec<i64> = (lo..=hi).filter(|_| rng.below(3) != 0).collect();
                if list.is_empty() {
                    list.push(a);
                }
                m.new_var_with_values(&list).unwrap()
            }
        }
    }

    /// A random removal (a bitset's value, an interval's bound; sometimes an assignment) or an undo.
    fn random_step(rng: &mut Rng, st: &mut State<u64>, vars: usize) {
        if st.level() > 0 && rng.below(4) == 0 {
            st.pop_level();
            return;
        }
        st.push_level();
        let v = rng.below_usize(vars) as u32;
        if st.size(v) <= 1 {
            return;
        }
        let (lo, hi) = (st.min_pos(v), st.max_pos(v));
        if st.is_interval(v) {
            if rng.below(4) == 0 {
                let p = lo + rng.below_usize(hi - lo + 1);
                st.set_bounds(v, p, p).unwrap();
            } else {
                st.remove(v, [lo, hi][rng.below_usize(2)]).unwrap();
            }
        } else {
            let keep: Vec<usize> = st.dom(v).iter().collect();
            let p = keep[rng.below_usize(keep.len())];
            if rng.below(4) == 0 {
                st.assign(v, p).unwrap();
            } else {
                st.remove(v, p).unwrap();
            }
        }
    }

    /// Repeated `propagate` calls from `st` until one changes nothing: the domains then, `None` on failure.
    fn calls_to_fixpoint<C: Propagate<u64>>(
        c: &C,
        p: &Problem,
        st: &mut State<u64>,
    ) -> Option<Doms> {
        let mut last = current(p, st);
        for _ in 0..64 {
            c.propagate(st, &p.values).ok()?;
            let next = current(p, st);
            if next == last {
                return Some(next);
            }
            last = next;
        }
        panic!("no fixpoint after 64 calls");
    }

    /// `element` over a constant array by its documented rule on value lists (`d = [x, z]`), to its fixpoint:
    /// `x` keeps the indexes within the array whose item `z` holds (an interval `x` the range between the first
    /// and last of them); `z` keeps the items of the indexes `x` keeps (an interval `z` the range between the
    /// smallest and largest). `None` when no index is kept.
    fn element_fixpoint(
        first: i64,
        array: &[i64],
        interval: [bool; 2],
        mut d: Doms,
    ) -> Option<Doms> {
        let item = |i: i64| {
            usize::try_from(i - first)
                .ok()
                .and_then(|k| array.get(k).copied())
        };
        loop {
            let old = d.clone();
            let kept: Vec<i64> = d[0]
                .iter()
                .copied()
                .filter(|&i| item(i).is_some_and(|a| d[1].contains(&a)))
                .collect();
            if kept.is_empty() {
                return None;
            }
            d[0] = if interval[0] { hull(&kept) } else { kept };
            let items: Vec<i64> = d[0].iter().filter_map(|&i| item(i)).collect();
            d[1].retain(|w| items.contains(w));
            if interval[1] {
                d[1] = hull(&d[1]);
            }
            if d == old {
                return Some(d);
            }
        }
    }

    /// Down random walks over every mix of bitset and interval `x` and `z` (the model posts `Element` only when
    /// one is an interval; it is posted here directly too): one call is sound (it keeps every value the rule's
    /// fixpoint keeps and adds none), reaches the fixpoint at once when `x` is a bitset, and repeated calls reach
    /// it always; the work buffer never grows.
    #[test]
    fn element_prunes_to_its_documented_fixpoint_on_bitsets_and_intervals_down_random_walks() {
        let mut rng = Rng::new(41);
        let mut seen = [0usize; 3]; // unchanged, pruned, failed
        let mut mixes = [0usize; 4];
        for round in 0..3000 {
            let mut m = Model::new();
            let len = 1 + rng.below_usize(5);
            let first = rng.below(3) as i64 - 1;
            let array: Vec<i64> = (0..len).map(|_| rng.below(5) as i64 - 1).collect();
            let x = random_var(&mut m, &mut rng, (first - 1, first + len as i64), true);
            let z = random_var(&mut m, &mut rng, (-2, 4), true);
            let (xi, zi) = (x.index() as u32, z.index() as u32);
            m.post(Element::new(xi, first, array.clone(), zi));
            let p = m.build().unwrap();
            let c = Element::new(xi, first, array.clone(), zi);
            let mut st = state_of(&p);
            let reserved = st.order.capacity();
            let interval = [st.is_interval(xi), st.is_interval(zi)];
            mixes[usize::from(interval[0]) * 2 + usize::from(interval[1])] += 1;
            for step in 0..10 {
                if step > 0 {
                    random_step(&mut rng, &mut st, 2);
                }
                let before = current(&p, &st);
                let what = format!(
                    "round {round} step {step}: {array:?} from {first}, intervals {interval:?}, {before:?}"
                );
                let expected = element_fixpoint(first, &array, interval, before.clone());
                let mut once = st.clone();
                let got = c
                    .propagate(&mut once, &p.values)
                    .ok()
                    .map(|()| current(&p, &once));
                match (&got, &expected) {
                    (Some(got), Some(expected)) => {
                        for k in 0..2 {
                            assert!(got[k].iter().all(|v| before[k].contains(v)), "grew: {what}");
                            assert!(
                                expected[k].iter().all(|v| got[k].contains(v)),
                                "unsound: {what}"
                            );
                        }
                        if !interval[0] {
                            assert_eq!(got, expected, "one call, bitset x: {what}");
                        }
                    }
                    (None, Some(_)) => panic!("failed on a consistent state: {what}"),
                    (_, None) => {}
                }
                let reached = calls_to_fixpoint(&c, &p, &mut st);
                assert_eq!(reached, expected, "fixpoint: {what}");
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
        assert!(seen.iter().all(|&s| s > 300), "outcomes {seen:?}");
        assert!(mixes.iter().all(|&s| s > 300), "mixes {mixes:?}");
    }

    /// `element_var` by its documented steps on value lists, one pass (`d` by variable index, `d[0]` = `x`,
    /// `d[1]` = `z`, `array` the entries' indexes; `interval` by variable): 1. `x` keeps the indexes within the
    /// array whose entry shares a value with `z` (an interval `x` the range between the first and last); 2. `z`
    /// keeps the values some entry of a kept index holds (an interval `z` the range between the smallest and
    /// largest); 3. once `x` is one index, its entry keeps the values within `z`'s bounds when either is an
    /// interval, and (a bitset entry) only values `z` holds. `None` when a list empties.
    fn element_var_pass(
        first: i64,
        array: &[usize],
        interval: &[bool],
        mut d: Doms,
    ) -> Option<Doms> {
        let entry = |i: i64| {
            usize::try_from(i - first)
                .ok()
                .and_then(|k| array.get(k).copied())
        };
        let kept: Vec<i64> = d[0]
            .iter()
            .copied()
            .filter(|&i| entry(i).is_some_and(|a| d[a].iter().any(|w| d[1].contains(w))))
            .collect();
        if kept.is_empty() {
            return None;
        }
        d[0] = if interval[0] { hull(&kept) } else { kept };
        let held: Vec<i64> = d[1]
            .iter()
            .copied()
            .filter(|w| {
                d[0].iter()
                    .any(|&i| entry(i).is_some_and(|a| d[a].contains(w)))
            })
            .collect();
        d[1] = if interval[1] { hull(&held) } else { held };
        if let [i] = d[0][..] {
            let a = entry(i).unwrap();
            let z = d[1].clone();
            let (lo, hi) = (z[0], *z.last().unwrap());
            if interval[a] || interval[1] {
                d[a].retain(|&v| lo <= v && v <= hi);
            }
            if !interval[a] {
                d[a].retain(|v| z.contains(v));
            }
            if d[a].is_empty() {
                return None;
            }
        }
        Some(d)
    }

    /// The passes' fixpoint.
    fn element_var_fixpoint(
        first: i64,
        array: &[usize],
        interval: &[bool],
        mut d: Doms,
    ) -> Option<Doms> {
        loop {
            let next = element_var_pass(first, array, interval, d.clone())?;
            if next == d {
                return Some(d);
            }
            d = next;
        }
    }

    /// Down random walks over bitset and interval `x`, `z` and entries (an entry may repeat; ranges sharing
    /// `z`'s value table and lists with their own, so both branches of the one-word union run), one call does
    /// exactly the module doc's steps 1-3, repeated calls reach their fixpoint, and the work buffer never grows.
    #[test]
    fn element_var_does_its_three_documented_steps_per_call_on_any_mix_down_random_walks() {
        let mut rng = Rng::new(42);
        let mut seen = [0usize; 4]; // unchanged, pruned, failed, an entry pruned by step 3
        for round in 0..3000 {
            let mut m = Model::new();
            let entries = 1 + rng.below_usize(4);
            let len = 1 + rng.below_usize(5);
            let first = rng.below(3) as i64 - 1;
            let x = random_var(&mut m, &mut rng, (first - 1, first + len as i64), true);
            let z = random_var(&mut m, &mut rng, (-1, 3), true);
            let a: Vec<VarId> = (0..entries)
                .map(|_| random_var(&mut m, &mut rng, (-1, 3), true))
                .collect();
            let array: Vec<usize> = (0..len).map(|_| 2 + rng.below_usize(entries)).collect();
            let items: Vec<VarId> = array.iter().map(|&k| a[k - 2]).collect();
            m.element_var(x, first, &items, z).unwrap();
            let p = m.build().unwrap();
            let scope: Vec<u32> = items.iter().map(|v| v.index() as u32).collect();
            let c = ElementVar::new(x.index() as u32, first, &scope, z.index() as u32);
            let mut st = state_of(&p);
            let reserved = st.order.capacity();
            let interval: Vec<bool> = (0..p.num_vars() as u32)
                .map(|v| st.is_interval(v))
                .collect();
            for step in 0..10 {
                if step > 0 {
                    random_step(&mut rng, &mut st, p.num_vars());
                }
                let before = current(&p, &st);
                let what = format!(
                    "round {round} step {step}: entries {array:?} from {first}, intervals {interval:?}, {before:?}"
                );
                let expected = element_var_pass(first, &array, &interval, before.clone());
                let mut once = st.clone();
                let got = c
                    .propagate(&mut once, &p.values)
                    .ok()
                    .map(|()| current(&p, &once));
                assert_eq!(got, expected, "one call: {what}");
                let reached = calls_to_fixpoint(&c, &p, &mut st);
                assert_eq!(
                    reached,
                    element_var_fixpoint(first, &array, &interval, before.clone()),
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
                seen[3] += usize::from((2..after.len()).any(|k| after[k] != before[k]));
            }
        }
        assert!(seen.iter().all(|&s| s > 300), "outcomes {seen:?}");
    }

    /// On wide states (more than 128 values, several words per domain) step 2's one-word union must not run:
    /// `z` and the entries span 200 values, so a union of first words alone would drop every value of `z` past
    /// 63. One call on random removals (both value tables: entries sharing `z`'s and lists of their own) does
    /// exactly the documented pass, as on one-word states.
    #[test]
    fn element_var_on_wide_domains_keeps_the_values_of_z_past_the_first_word() {
        let mut rng = Rng::new(7);
        let mut past_first_word = 0;
        for round in 0..200 {
            let mut m = Model::new();
            let x = m.new_var(0, 2).unwrap();
            let z = m.new_var(0, 199).unwrap();
            let shared = m.new_var(0, 199).unwrap();
            let list: Vec<i64> = (0..200).filter(|_| rng.below(2) == 0).collect();
            let own = m.new_var_with_values(&list).unwrap();
            let items = [shared, own, shared];
            m.element_var(x, 0, &items, z).unwrap();
            let p = m.build().unwrap();
            let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
            let mut st: State<WideDomain> = State::with_intervals(&widths, &p.interval_flags());
            st.order.reserve(p.max_work);
            for v in 1..p.num_vars() as u32 {
                for pos in 0..widths[v as usize] {
                    if rng.below(3) == 0 && st.size(v) > 1 {
                        st.remove(v, pos).unwrap();
                    }
                }
            }
            let before = current(&p, &st);
            let expected = element_var_pass(0, &[2, 3, 2], &[false; 4], before.clone());
            let c = ElementVar::new(0, 0, &[2, 3, 2], 1);
            let got = c
                .propagate(&mut st, &p.values)
                .ok()
                .map(|()| current(&p, &st));
            assert_eq!(got, expected, "round {round}: {before:?}");
            past_first_word += usize::from(got.is_some_and(|d| d[1].iter().any(|&w| w >= 64)));
        }
        assert!(
            past_first_word > 150,
            "only {past_first_word} rounds kept a value past 63"
        );
    }

    /// Regression (found by the random walks above, fourteenth session): with an interval `x`, step 1 listed
    /// the positions of the indexes it dropped, though an interval only shrinks to the kept range and
    /// `work_len` counts no positions for intervals: the scratch the search reserved grew during propagation
    /// (an allocation in the search, past what `work_len` promises).
    #[test]
    fn element_var_on_an_interval_index_lists_no_positions_and_never_grows_the_reserved_scratch() {
        let mut m = Model::new();
        let x = m.new_interval_var(0, 9).unwrap();
        let z = m.new_interval_var(3, 3).unwrap();
        let a = m.new_interval_var(1, 1).unwrap();
        let b = m.new_interval_var(0, 5).unwrap();
        let items = [a, a, a, b, b, a, a, a, a, a];
        m.element_var(x, 0, &items, z).unwrap();
        let p = m.build().unwrap();
        let mut st = state_of(&p);
        let reserved = st.order.capacity();
        assert_eq!(reserved, 0, "all intervals: no positions to list");
        Propagate::<u64>::propagate(&*p.constraints[0], &mut st, &p.values).unwrap();
        assert_eq!(current(&p, &st)[x.index()], [3, 4]);
        assert_eq!(st.order.capacity(), reserved, "the scratch grew");
    }

    /// The checkers are the search tests' oracles, so they are checked against the definition on every
    /// assignment (values one past each end of the index range and of the items included): `z` equals the item
    /// at `x - first`, and an `x` outside the array is never satisfied.
    #[test]
    fn the_element_checkers_accept_exactly_the_item_at_the_index() {
        let mut rng = Rng::new(43);
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..60 {
            let len = 1 + rng.below_usize(4);
            let first = rng.below(5) as i64 - 2;
            let array: Vec<i64> = (0..len).map(|_| rng.below(4) as i64 - 1).collect();
            let c = Element::new(0, first, array.clone(), 1);
            let v = ElementVar::new(0, first, &(2..2 + len as u32).collect::<Vec<_>>(), 1);
            for x in first - 2..=first + len as i64 + 1 {
                for z in -2..=3 {
                    let expected = (first..first + len as i64).contains(&x)
                        && array[(x - first) as usize] == z;
                    let value = |k: u32| match k {
                        0 => x,
                        1 => z,
                        _ => array[k as usize - 2],
                    };
                    assert_eq!(
                        c.is_satisfied(&value),
                        expected,
                        "{array:?} from {first}: {x}, {z}"
                    );
                    assert_eq!(
                        v.is_satisfied(&value),
                        expected,
                        "{array:?} from {first}: {x}, {z}"
                    );
                    accepted += u32::from(expected);
                    refused += u32::from(!expected);
                }
            }
        }
        assert!(
            accepted > 60 && refused > 1000,
            "{accepted} accepted, {refused} refused"
        );
    }

    /// What the engine reads besides the filtering: names, scopes (`[x, z]`, `[x, z, entries..]`), wake-ups,
    /// cost classes, interval support, and the scratch (`element`: `z`'s positions when it is a bitset, none
    /// for an interval; `element_var`: the widest bitset of the scope).
    #[test]
    fn the_elements_report_their_names_scopes_triggers_costs_and_scratch() {
        let mut m = Model::new();
        let x = m.new_var(0, 2).unwrap();
        let z = m.new_var_with_values(&[1, 5, 9, 12]).unwrap();
        let zi = m.new_interval_var(0, 100).unwrap();
        let a = [
            m.new_var(0, 6).unwrap(),
            m.new_interval_var(0, 1000).unwrap(),
        ];
        let p = m.build().unwrap();
        let [x, z, zi, a0, a1] = [x, z, zi, a[0], a[1]].map(|v| v.index() as u32);
        let e = Element::new(x, 0, vec![1, 5, 9], z);
        assert_eq!(e.name(), "element");
        assert_eq!(e.vars(), [x, z]);
        for level in [Propagation::ForwardChecking, Propagation::Singles] {
            assert_eq!(e.trigger(level), Some(Trigger::Domain));
        }
        assert_eq!(e.cost(), Cost::Linear);
        assert!(e.accepts_intervals());
        assert_eq!(e.work_len(&p.values), 4);
        assert_eq!(Element::new(x, 0, vec![1], zi).work_len(&p.values), 0);
        assert_eq!(Element::new(x, 0, vec![1], 99).work_len(&p.values), 0);
        let v = ElementVar::new(x, 0, &[a1, a0], zi);
        assert_eq!(v.name(), "element");
        assert_eq!(v.vars(), [x, zi, a1, a0]);
        assert!(v.accepts_intervals());
        assert_eq!(v.work_len(&p.values), 7);
        assert_eq!(ElementVar::new(x, 0, &[a1], z).work_len(&p.values), 4);
    }
}
