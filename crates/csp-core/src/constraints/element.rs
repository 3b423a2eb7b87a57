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
            for i in indexes(st, vx, x, xl, xh) {
                let Some(a) = self.item(i) else {
                    continue;
                };
                if share(st, values, a, z) {
                    kept = Some(kept.map_or((i, i), |(l, _)| (l, i)));
                } else if let Some(p) = vx.index_of(i as i64) {
                    drop.push(p as u32);
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
