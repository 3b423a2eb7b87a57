//! Global constraints puzzles use: lexicographic ordering, `regular` (a DFA over a sequence) and `circuit`.
//!
//! `count` (with a constant or a variable value, so each value of `global_cardinality` too) has its own
//! propagators in `count.rs`, `inverse` in `inverse.rs`. The three here:
//! - [`Lex`]: `xs <=_lex ys` (or `<`): skips the prefix fixed equal on both sides, then bounds `x_q <= y_q` at the
//!   first open position; entailed once `max x_q < min y_q`. Sound, complete on ground, not domain consistent.
//! - [`Regular`]: the layered graph of (position, state) pairs (Pesant 2004): a value of `x_i` is kept when some
//!   accepting path uses it, found by a forward pass of reachable states and a backward pass of co-reachable
//!   ones. Domain consistent.
//! - [`Circuit`]: successor form (`x_i` = next node of `i`, values `first..first + n`): the successors are
//!   different (forward checking), and for the chain of fixed successors through each node, the chain's end may not
//!   close back to its start unless the chain covers every node (no sub-tour; for `subcircuit`, unless every node
//!   that cannot stay out is on the chain), and a cycle of fixed successors must cover every node (`subcircuit`:
//!   every node off it stays out). Linear per call in `n` plus the open domains' words: chains are disjoint,
//!   the nodes that cannot stay out are counted once (not re-scanned per chain), and the cycle check marks each
//!   node with the walk that visited it, so no walk repeats another's path (before, a walk from every fixed node
//!   along its chain was quadratic in the chains' lengths; figures in `docs/measurements.md`, "circuit linear
//!   per call").

use super::util::{give_order, has, hi, lo, remove_value, set_max, set_min, take_order, widest};
use super::{Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::{Domain, Word};
use crate::state::{Conflict, State};
use crate::values::Values;

/// `xs <=_lex ys` (`strict`: `<_lex`); `vars = [xs.., ys..]` of equal lengths.
#[derive(Clone, Debug)]
pub struct Lex {
    vars: Vec<u32>,
    strict: bool,
}

impl Lex {
    /// `xs <=_lex ys` or `xs <_lex ys`; `xs` and `ys` have the same length (checked when posting).
    pub fn new(xs: &[u32], ys: &[u32], strict: bool) -> Self {
        let mut vars = xs.to_vec();
        vars.extend_from_slice(ys);
        Self { vars, strict }
    }

    fn split(&self) -> (&[u32], &[u32]) {
        self.vars.split_at(self.vars.len() / 2)
    }
}

impl Constraint for Lex {
    fn name(&self) -> &'static str {
        if self.strict {
            "lex_less"
        } else {
            "lex_lesseq"
        }
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let (xs, ys) = self.split();
        let a: Vec<i64> = xs.iter().map(|&v| value_of(v)).collect();
        let b: Vec<i64> = ys.iter().map(|&v| value_of(v)).collect();
        if self.strict {
            a < b
        } else {
            a <= b
        }
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Bounds)
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> Propagate<D> for Lex {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let (xs, ys) = self.split();
        for q in 0..xs.len() {
            let (x, y) = (xs[q], ys[q]);
            if st.is_fixed(x) && st.is_fixed(y) && lo(st, values, x) == lo(st, values, y) {
                continue;
            }
            if (hi(st, values, x) as i128) < lo(st, values, y) as i128 {
                return Ok(());
            }
            // Position q decides unless x_q = y_q; either way x_q <= y_q.
            set_max(st, values, x, hi(st, values, y) as i128)?;
            set_min(st, values, y, lo(st, values, x) as i128)?;
            let last = q + 1 == xs.len();
            if self.strict && last {
                // Equality here would make the sequences equal.
                set_max(st, values, x, hi(st, values, y) as i128 - 1)?;
                set_min(st, values, y, lo(st, values, x) as i128 + 1)?;
            }
            return Ok(());
        }
        if self.strict {
            Err(st.conflict())
        } else {
            Ok(())
        }
    }
}

/// `regular(xs, automaton)`: the sequence of values is accepted by a deterministic finite automaton with states
/// `0..states`, start state `start`, `delta[(q, k)]` = next state on symbol `symbols[k]` (`None` = reject), and
/// accepting states `accepting`.
#[derive(Clone, Debug)]
pub struct Regular {
    vars: Vec<u32>,
    states: usize,
    start: usize,
    /// Symbols, ascending.
    symbols: Vec<i64>,
    /// `delta[q * symbols.len() + k]`.
    delta: Vec<Option<u32>>,
    accepting: Vec<bool>,
}

impl Regular {
    /// The constraint; the caller checked states and symbols are in range.
    pub fn new(
        vars: Vec<u32>,
        states: usize,
        start: usize,
        symbols: Vec<i64>,
        delta: Vec<Option<u32>>,
        accepting: Vec<bool>,
    ) -> Self {
        Self {
            vars,
            states,
            start,
            symbols,
            delta,
            accepting,
        }
    }

    fn next(&self, q: usize, symbol: i64) -> Option<usize> {
        let k = self.symbols.binary_search(&symbol).ok()?;
        self.delta[q * self.symbols.len() + k].map(|s| s as usize)
    }
}

impl Constraint for Regular {
    fn name(&self) -> &'static str {
        "regular"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let mut q = self.start;
        for &v in &self.vars {
            match self.next(q, value_of(v)) {
                Some(n) => q = n,
                None => return false,
            }
        }
        self.accepting[q]
    }
    fn cost(&self) -> Cost {
        Cost::Expensive
    }
    fn work_len(&self, values: &[Values]) -> usize {
        let width = widest(&self.vars, values);
        2 * (self.vars.len() + 1) * self.states + width
    }
}

impl Regular {
    /// The two passes of `propagate` over `buf` (empty): `buf[i * s + q]` = state `q` is reachable after `i`
    /// symbols, `buf[layer + i * s + q]` = reachable and some accepting path continues from it (`layer = (n + 1)
    /// * s`), then the positions one variable loses.
    fn filter<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        buf: &mut Vec<u32>,
    ) -> Result<(), Conflict> {
        let n = self.vars.len();
        let s = self.states;
        let layer = (n + 1) * s;
        buf.resize(2 * layer, 0);
        buf[self.start] = 1;
        for (i, &v) in self.vars.iter().enumerate() {
            for q in 0..s {
                if buf[i * s + q] == 0 {
                    continue;
                }
                for p in st.dom(v).iter() {
                    if let Some(r) = self.next(q, values[v as usize].value(p)) {
                        buf[(i + 1) * s + r] = 1;
                    }
                }
            }
        }
        for q in 0..s {
            buf[layer + n * s + q] = u32::from(buf[n * s + q] != 0 && self.accepting[q]);
        }
        for i in (0..n).rev() {
            let v = self.vars[i];
            for p in st.dom(v).iter() {
                let x = values[v as usize].value(p);
                let mut used = false;
                for q in 0..s {
                    if buf[i * s + q] != 0 {
                        if let Some(r) = self.next(q, x) {
                            if buf[layer + (i + 1) * s + r] != 0 {
                                buf[layer + i * s + q] = 1;
                                used = true;
                            }
                        }
                    }
                }
                if !used {
                    buf.push(p as u32);
                }
            }
            super::util::remove_positions(st, v, &buf[2 * layer..])?;
            buf.truncate(2 * layer);
        }
        if buf[layer + self.start] != 0 {
            Ok(())
        } else {
            Err(st.conflict())
        }
    }
}

impl<D: Domain> Propagate<D> for Regular {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let mut buf = take_order(st);
        let result = self.filter(st, values, &mut buf);
        give_order(st, buf);
        result
    }
}

/// `circuit(xs)`: `x_i` (values `first..first + n`) is the successor of node `i`, and the successors form one
/// cycle through all `n` nodes. `subcircuit(xs)`: the nodes with `x_i != i` form one cycle (or there are none);
/// `x_i = i` leaves node `i` out.
#[derive(Clone, Debug)]
pub struct Circuit {
    vars: Vec<u32>,
    first: i64,
    /// `subcircuit` instead of `circuit`.
    sub: bool,
}

impl Circuit {
    /// The constraint over successors numbered from `first`; `sub` makes it `subcircuit`.
    pub fn new(vars: Vec<u32>, first: i64, sub: bool) -> Self {
        Self { vars, first, sub }
    }

    fn node(&self, value: i64) -> Option<usize> {
        let k = usize::try_from(value as i128 - self.first as i128).ok()?;
        (k < self.vars.len()).then_some(k)
    }
}

impl Constraint for Circuit {
    fn name(&self) -> &'static str {
        if self.sub {
            "subcircuit"
        } else {
            "circuit"
        }
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let n = self.vars.len();
        if self.sub {
            let succ: Option<Vec<usize>> =
                self.vars.iter().map(|&v| self.node(value_of(v))).collect();
            let Some(succ) = succ else {
                return false;
            };
            let members: Vec<usize> = (0..n).filter(|&i| succ[i] != i).collect();
            let Some(&s) = members.first() else {
                return true;
            };
            let mut seen = vec![false; n];
            let mut i = s;
            for _ in 0..members.len() {
                if seen[i] || succ[i] == i {
                    return false;
                }
                seen[i] = true;
                i = succ[i];
            }
            return i == s;
        }
        let mut seen = vec![false; n];
        let mut i = 0;
        for _ in 0..n {
            if seen[i] {
                return false;
            }
            seen[i] = true;
            match self.node(value_of(self.vars[i])) {
                Some(j) => i = j,
                None => return false,
            }
        }
        i == 0 && seen.iter().all(|&s| s)
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Domain)
    }
    fn work_len(&self, _values: &[Values]) -> usize {
        2 * self.vars.len()
    }
}

impl<D: Domain> Propagate<D> for Circuit {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let mut buf = take_order(st);
        buf.resize(2 * self.vars.len(), 0);
        let result = self.filter(st, values, &mut buf);
        give_order(st, buf);
        result
    }
}

impl Circuit {
    /// The filtering of `propagate` on `buf` (`2n` zeros): `taken` and `seen`, `n` entries each.
    fn filter<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        buf: &mut [u32],
    ) -> Result<(), Conflict> {
        let n = self.vars.len();
        let (taken, seen) = buf.split_at_mut(n);
        let value = |j: usize| self.first as i128 + j as i128;
        // Values outside the node range, and self-loops (n > 1), never belong to a circuit.
        for (i, &v) in self.vars.iter().enumerate() {
            let vals = &values[v as usize];
            if (vals.min() as i128) < value(0) {
                set_min(st, values, v, value(0))?;
            }
            if vals.max() as i128 > value(n - 1) {
                set_max(st, values, v, value(n - 1))?;
            }
            if n > 1 && !self.sub {
                remove_value(st, values, v, value(i))?;
            }
        }
        // Successors are different: a fixed successor leaves every other node's domain.
        // taken[j] = 1 + the node whose fixed successor is j (0: none).
        for (i, &v) in self.vars.iter().enumerate() {
            if st.is_fixed(v) {
                let j = self.node(lo(st, values, v)).unwrap_or(0);
                if taken[j] != 0 {
                    return Err(st.conflict());
                }
                taken[j] = i as u32 + 1;
            }
        }
        // Walk each open successor's domain words (its values are nodes by now) rather than every taken node: the
        // cost follows the open domains' sizes, not n per open successor (issue 12). A taken node's owner is
        // fixed, so it is never the open successor itself.
        for &v in &self.vars {
            if st.is_fixed(v) {
                continue;
            }
            let vals = &values[v as usize];
            for s in 0..st.dom(v).slots() {
                let word = st.dom(v).word(s);
                let (mut rest, mut drop) = (word, D::W::ZERO);
                while !rest.is_zero() {
                    let b = rest.lowest();
                    rest = rest.clear_lowest();
                    let p = s * D::W::BITS as usize + b as usize;
                    if self.node(vals.value(p)).is_some_and(|j| taken[j] != 0) {
                        drop |= D::W::bit(b);
                    }
                }
                if !drop.is_zero() {
                    st.set_word(v, s, word & !drop)?;
                }
            }
        }
        // Nodes that cannot stay out of a subcircuit (their own value is gone): closing a chain into the circuit
        // is allowed only if they all lie on it. Counted once, so each chain's test is its own length, not n.
        let stuck = if self.sub {
            (0..n)
                .filter(|&k| !has(st, values, self.vars[k], value(k)))
                .count()
        } else {
            0
        };
        // No sub-tour: follow each maximal chain of fixed successors from a node nobody fixed into; its end may
        // not return to its start unless the chain covers all nodes (a subcircuit: unless every node that cannot
        // stay out is on it). Chains are disjoint, so all walks together visit each node at most once (plus the
        // `len > n` guard when a successor fixed during this call joined two chains).
        for (start, &pred) in taken.iter().enumerate() {
            if pred != 0 {
                continue;
            }
            // (`taken` may be stale by now: a chain can come back to its start; the cycle check below handles it.)
            let (mut end, mut len) = (start, 1);
            let mut stuck_on =
                usize::from(self.sub && !has(st, values, self.vars[start], value(start)));
            while st.is_fixed(self.vars[end]) {
                end = self.node(lo(st, values, self.vars[end])).unwrap_or(start);
                if end == start {
                    break;
                }
                len += 1;
                if len > n {
                    // A node reached twice: two fixed predecessors.
                    return Err(st.conflict());
                }
                if self.sub && !has(st, values, self.vars[end], value(end)) {
                    stuck_on += 1;
                }
            }
            if end == start {
                continue;
            }
            if (!self.sub && len < n) || (self.sub && stuck_on < stuck) {
                remove_value(st, values, self.vars[end], value(start))?;
            }
        }
        // A cycle made only of fixed successors must cover every node (a subcircuit: every node off it stays out).
        // `seen[k]` = 1 + the node whose walk visited `k` (0: none yet); a walk stops at a node an earlier walk
        // visited (the rest of that path is known), so every node is visited once: linear, where walking again
        // from each fixed node was quadratic in the chains' lengths.
        for i in 0..n {
            if seen[i] != 0 || !st.is_fixed(self.vars[i]) {
                continue;
            }
            let id = i as u32 + 1;
            let (mut j, mut len) = (i, 0);
            seen[i] = id;
            while st.is_fixed(self.vars[j]) {
                j = self.node(lo(st, values, self.vars[j])).unwrap_or(i);
                len += 1;
                if seen[j] == 0 {
                    seen[j] = id;
                    continue;
                }
                if seen[j] != id {
                    // Joined an earlier walk.
                    break;
                }
                if j != i {
                    // Back into this walk past its start: a node with two fixed predecessors.
                    return Err(st.conflict());
                }
                if self.sub && len >= 2 {
                    // The circuit: every node off it stays out. Its nodes are exactly those this walk marked.
                    for (k, (&mark, &v)) in seen.iter().zip(&self.vars).enumerate() {
                        if mark != id {
                            super::util::set_value(st, values, v, value(k))?;
                        }
                    }
                    return Ok(());
                }
                if !self.sub && len < n {
                    return Err(st.conflict());
                }
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::constraints::soundness::{current, state_of};
    use crate::constraints::{Cost, Propagation, Trigger};
    use crate::domain::Domain;
    use crate::ids::VarId;
    use crate::model::{Model, ModelError, Problem};
    use crate::propagate::Propagator;
    use crate::rng::Rng;
    use crate::state::State;
    use crate::stats::Stats;
    use std::collections::HashMap;

    /// The values each variable still has (an interval's whole range).
    type Doms = Vec<Vec<i64>>;

    /// `count` variables, each an interval within `lo..=hi` (when `intervals` says so) or a random value set
    /// within it with holes.
    fn random_vars(
        m: &mut Model,
        rng: &mut Rng,
        count: usize,
        (lo, hi): (i64, i64),
        intervals: bool,
    ) -> Vec<VarId> {
        (0..count)
            .map(|_| {
                let span = (hi - lo + 1) as u64;
                if intervals && rng.below(2) == 0 {
                    let a = lo + rng.below(span) as i64;
                    let b = a + rng.below((hi - a + 1) as u64) as i64;
                    return m.new_interval_var(a, b).unwrap();
                }
                let mut d: Vec<i64> = (lo..=hi).filter(|_| rng.below(3) != 0).collect();
                if d.is_empty() {
                    d.push(lo + rng.below(span) as i64);
                }
                m.new_var_with_values(&d).unwrap()
            })
            .collect()
    }

    /// Root propagation, then dives of up to six levels of random removals (a bitset value, an interval bound,
    /// sometimes an assignment, sometimes on two variables) with incremental propagation, on `cases` problems
    /// from `make`. After every fixpoint the domains must be what `reference` computes from the domains before
    /// it (`None`: failure), and the work buffer the search reserved for the problem must not have grown (the
    /// constraint borrows at most its `work_len`, so propagation never allocates). Returns how many fixpoints
    /// pruned and how many failed.
    fn matches_the_reference(
        seed: u64,
        cases: usize,
        make: impl Fn(&mut Rng) -> Problem,
        reference: impl Fn(&Problem, Doms) -> Option<Doms>,
    ) -> (u32, u32) {
        let mut rng = Rng::new(seed);
        let (mut pruned, mut failed) = (0, 0);
        let mut check = |p: &Problem, st: &State<u64>, before: Doms, ok: bool, reserved: usize| {
            let expected = reference(p, before.clone());
            let after = ok.then(|| current(p, st));
            assert_eq!(after, expected, "from {before:?}");
            assert_eq!(st.order.capacity(), reserved, "the work buffer grew");
            pruned += u32::from(after.is_some_and(|a| a != before));
            failed += u32::from(!ok);
            ok
        };
        for _ in 0..cases {
            let p = make(&mut rng);
            assert_eq!(p.constraints.len(), 1);
            let mut st = state_of(&p);
            let reserved = st.order.capacity();
            let mut prop = Propagator::new(
                &p.constraints,
                p.num_vars(),
                Propagation::ForwardChecking,
                false,
            );
            let mut stats = Stats::default();
            let before = current(&p, &st);
            let ok = prop
                .root(&p.constraints, &p.values, &mut st, &mut stats)
                .is_ok();
            if !check(&p, &st, before, ok, reserved) {
                continue;
            }
            for _ in 0..3 {
                let mut depth = 0;
                while depth < 6 {
                    let open: Vec<u32> = (0..p.num_vars() as u32)
                        .filter(|&v| !st.is_fixed(v))
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    prop.push_level(&mut st);
                    depth += 1;
                    for _ in 0..1 + rng.below(2) {
                        let v = open[rng.below_usize(open.len())];
                        if st.is_fixed(v) {
                            continue;
                        }
                        let (lo, hi) = (st.min_pos(v), st.max_pos(v));
                        if rng.below(4) == 0 {
                            let p = if st.is_interval(v) {
                                lo
                            } else {
                                st.dom(v).nth(0).unwrap()
                            };
                            if st.is_interval(v) {
                                st.set_bounds(v, p, p).unwrap();
                            } else {
                                st.assign(v, p).unwrap();
                            }
                        } else if st.is_interval(v) {
                            let p = [lo, hi][rng.below_usize(2)];
                            st.remove(v, p).unwrap();
                        } else {
                            let k = rng.below(st.size(v) as u64) as u32;
                            st.remove(v, st.dom(v).nth(k).unwrap()).unwrap();
                        }
                    }
                    let before = current(&p, &st);
                    let ok = prop
                        .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                        .is_ok();
                    if !check(&p, &st, before, ok, reserved) {
                        break;
                    }
                }
                for _ in 0..depth {
                    prop.pop_level(&mut st);
                }
            }
        }
        (pruned, failed)
    }

    /// `lex` by its documented rule, to a fixpoint: skip the positions fixed equal on both sides; at the first
    /// other one, nothing when `max x_q < min y_q`, else `x_q <= max y_q` and `y_q >= min x_q` (strictly at the
    /// last position of `<_lex`); all positions equal fails `<_lex`.
    fn lex_reference(strict: bool, mut d: Doms) -> Option<Doms> {
        let n = d.len() / 2;
        loop {
            let old = d.clone();
            let Some(q) = (0..n).find(|&q| !(d[q].len() == 1 && d[q] == d[n + q])) else {
                return (!strict).then_some(d);
            };
            let (x_lo, x_hi) = (d[q][0], *d[q].last().unwrap());
            let (y_lo, y_hi) = (d[n + q][0], *d[n + q].last().unwrap());
            if x_hi < y_lo {
                return Some(d);
            }
            let cut = i64::from(strict && q + 1 == n);
            d[q].retain(|&x| x <= y_hi - cut);
            d[n + q].retain(|&y| y >= x_lo + cut);
            if d[q].is_empty() || d[n + q].is_empty() {
                return None;
            }
            if d == old {
                return Some(d);
            }
        }
    }

    #[test]
    fn lex_bounds_the_first_position_not_fixed_equal_as_documented_on_bitsets_and_intervals() {
        for (seed, intervals) in [(1, false), (2, true)] {
            let (pruned, failed) = matches_the_reference(
                seed,
                600,
                |rng| {
                    let mut m = Model::new();
                    let n = 1 + rng.below_usize(3);
                    let x = random_vars(&mut m, rng, 2 * n, (-3, 3), intervals);
                    m.lex(&x[..n], &x[n..], rng.below(2) == 0).unwrap();
                    m.build().unwrap()
                },
                |p, d| {
                    let strict = p.constraints[0].name() == "lex_less";
                    lex_reference(strict, d)
                },
            );
            assert!(
                pruned > 300 && failed > 100,
                "pruned {pruned}, failed {failed}"
            );
        }
    }

    /// `regular` is domain consistent: a value stays exactly when some accepted word within the domains uses it
    /// (enumerated), and propagation fails exactly when no word is accepted. `delta` maps (state, symbol) to
    /// the next state, as posted.
    fn regular_reference(
        delta: &HashMap<(usize, i64), usize>,
        start: usize,
        accepting: &[usize],
        d: Doms,
    ) -> Option<Doms> {
        let mut kept: Doms = vec![Vec::new(); d.len()];
        let mut word = vec![0; d.len()];
        fn walk(
            i: usize,
            d: &Doms,
            word: &mut Vec<i64>,
            accepts: &dyn Fn(&[i64]) -> bool,
            kept: &mut Doms,
        ) {
            if i == d.len() {
                if accepts(word) {
                    for (k, &x) in kept.iter_mut().zip(word.iter()) {
                        if !k.contains(&x) {
                            k.push(x);
                        }
                    }
                }
                return;
            }
            for &x in &d[i] {
                word[i] = x;
                walk(i + 1, d, word, accepts, kept);
            }
        }
        let accepts = |w: &[i64]| {
            let mut q = start;
            for x in w {
                match delta.get(&(q, *x)) {
                    Some(&r) => q = r,
                    None => return false,
                }
            }
            accepting.contains(&q)
        };
        walk(0, &d, &mut word, &accepts, &mut kept);
        if kept.iter().any(Vec::is_empty) {
            return None;
        }
        for k in &mut kept {
            k.sort_unstable();
        }
        Some(kept)
    }

    /// An automaton as `Model::regular` takes it: (states, start, transitions `(from, symbol, to)`, accepting
    /// states).
    type Automaton = (usize, usize, Vec<(usize, i64, usize)>, Vec<usize>);

    /// A random automaton for the `regular` tests: 1 to 4 states, a random start, each transition on the symbols
    /// -1..=2 present with probability 3/4 to a random state, each state accepting with probability 1/2. The draws
    /// come in the order of the tuple.
    fn random_automaton(rng: &mut Rng) -> Automaton {
        let states = 1 + rng.below_usize(4);
        let start = rng.below_usize(states);
        let mut t = Vec::new();
        for q in 0..states {
            for a in -1..=2 {
                if rng.below(4) != 0 {
                    t.push((q, a, rng.below_usize(states)));
                }
            }
        }
        let acc: Vec<usize> = (0..states).filter(|_| rng.below(2) == 0).collect();
        (states, start, t, acc)
    }

    #[test]
    fn regular_keeps_exactly_the_values_of_accepted_words_and_never_grows_its_work_buffer() {
        // The automaton of the problem made last, which is the one the reference is asked about.
        let automaton = std::cell::RefCell::new((HashMap::new(), 0, Vec::new()));
        let (pruned, failed) = matches_the_reference(
            3,
            600,
            |rng| {
                let mut m = Model::new();
                let n = 1 + rng.below_usize(5);
                let x = random_vars(&mut m, rng, n, (-2, 2), false);
                let (states, start, t, acc) = random_automaton(rng);
                m.regular(&x, states, start, &t, &acc).unwrap();
                let delta: HashMap<(usize, i64), usize> =
                    t.iter().map(|&(q, a, r)| ((q, a), r)).collect();
                let p = m.build().unwrap();
                *automaton.borrow_mut() = (delta, start, acc);
                p
            },
            |_, d| {
                let (delta, start, acc) = &*automaton.borrow();
                regular_reference(delta, *start, acc, d)
            },
        );
        assert!(
            pruned > 300 && failed > 100,
            "pruned {pruned}, failed {failed}"
        );
    }

    /// `circuit` / `subcircuit` by their documented rules, to a fixpoint, on successor values `first..first + n`:
    /// values outside them go, and self-loops of `circuit` (more than one node); a fixed successor leaves every
    /// other domain (two fixed on one node fail); the open end of each maximal chain of fixed successors, from a
    /// node without a fixed predecessor, may not point back to the chain's start unless the chain holds every
    /// node (`subcircuit`: every node whose own value is gone); a cycle of fixed successors must hold every node
    /// (`subcircuit`, two nodes or more: every other node takes its own value).
    fn circuit_reference(first: i64, sub: bool, mut d: Doms) -> Option<Doms> {
        let n = d.len();
        let value = |k: usize| first + k as i64;
        loop {
            let old = d.clone();
            for (i, di) in d.iter_mut().enumerate() {
                di.retain(|&x| {
                    x >= value(0) && x <= value(n - 1) && (sub || n == 1 || x != value(i))
                });
            }
            if d.iter().any(Vec::is_empty) {
                return None;
            }
            let succ = |d: &Doms, i: usize| (d[i].len() == 1).then(|| (d[i][0] - first) as usize);
            for i in 0..n {
                if let Some(j) = succ(&d, i) {
                    for k in (0..n).filter(|&k| k != i) {
                        if succ(&d, k) == Some(j) {
                            return None;
                        }
                        d[k].retain(|&x| x != value(j));
                    }
                }
            }
            let out_barred = |d: &Doms, k: usize| !d[k].contains(&value(k));
            let stuck = (0..n).filter(|&k| out_barred(&d, k)).count();
            for start in 0..n {
                if (0..n).any(|i| succ(&d, i) == Some(start)) {
                    continue;
                }
                let mut chain = vec![start];
                while let Some(j) = succ(&d, *chain.last().unwrap()) {
                    if chain.len() > n {
                        break;
                    }
                    chain.push(j);
                }
                if chain.len() > n {
                    // A node with two fixed predecessors, fixed since the check above: failure next round.
                    continue;
                }
                let end = *chain.last().unwrap();
                let may_close = if sub {
                    chain.iter().filter(|&&k| out_barred(&d, k)).count() == stuck
                } else {
                    chain.len() == n
                };
                if end != start && !may_close {
                    d[end].retain(|&x| x != value(start));
                }
            }
            for i in 0..n {
                let mut cycle = vec![i];
                while let Some(j) = succ(&d, *cycle.last().unwrap()) {
                    if j == i || cycle.len() > n {
                        break;
                    }
                    cycle.push(j);
                }
                if succ(&d, *cycle.last().unwrap()) != Some(i) {
                    continue;
                }
                if !sub && cycle.len() < n {
                    return None;
                }
                if sub && cycle.len() >= 2 {
                    for k in (0..n).filter(|k| !cycle.contains(k)) {
                        d[k].retain(|&x| x == value(k));
                    }
                }
            }
            if d.iter().any(Vec::is_empty) {
                return None;
            }
            if d == old {
                return Some(d);
            }
        }
    }

    #[test]
    fn circuit_and_subcircuit_prune_exactly_by_their_documented_rules_and_never_grow_their_work_buffer(
    ) {
        for (seed, sub) in [(4, false), (5, true)] {
            let first = std::cell::Cell::new(0);
            let (pruned, failed) = matches_the_reference(
                seed,
                600,
                |rng| {
                    let mut m = Model::new();
                    let n = 1 + rng.below_usize(6);
                    let f = rng.below(5) as i64 - 2;
                    first.set(f);
                    let x = random_vars(&mut m, rng, n, (f - 1, f + n as i64), false);
                    if sub {
                        m.subcircuit(&x, f).unwrap();
                    } else {
                        m.circuit(&x, f).unwrap();
                    }
                    m.build().unwrap()
                },
                |_, d| circuit_reference(first.get(), sub, d),
            );
            assert!(
                pruned > 300 && failed > 100,
                "pruned {pruned}, failed {failed}"
            );
        }
    }

    /// A successor's domain position maps to its node through the word it lies in (`s * BITS + b`), which the
    /// one-word domains of the test above never exercise: circuits and subcircuits of 65 to 90 nodes on the
    /// multi-word representation, with random successor domains and random assignments after the root, prune
    /// after every fixpoint exactly as `circuit_reference` says.
    #[test]
    fn circuits_past_the_first_word_of_a_wide_domain_prune_by_their_documented_rules() {
        use crate::domain::WideDomain;
        let mut rng = Rng::new(8);
        let (mut pruned, mut failed) = (0, 0);
        for case in 0..16 {
            let sub = case % 2 == 1;
            let n = 65 + rng.below_usize(26);
            let mut m = Model::new();
            let x: Vec<VarId> = (0..n)
                .map(|_| {
                    let d: Vec<i64> = (0..n as i64).filter(|_| rng.below(3) != 0).collect();
                    m.new_var_with_values(&d).unwrap()
                })
                .collect();
            if sub {
                m.subcircuit(&x, 0).unwrap();
            } else {
                m.circuit(&x, 0).unwrap();
            }
            let p = m.build().unwrap();
            let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
            let mut st: State<WideDomain> = State::with_intervals(&widths, &p.interval_flags());
            st.order.reserve(p.max_work);
            let left = |st: &State<WideDomain>| -> Doms {
                (0..n as u32)
                    .map(|v| {
                        st.dom(v)
                            .iter()
                            .map(|i| p.values[v as usize].value(i))
                            .collect()
                    })
                    .collect()
            };
            let mut prop = Propagator::new(
                &p.constraints,
                p.num_vars(),
                Propagation::ForwardChecking,
                false,
            );
            let mut stats = Stats::default();
            let mut before = left(&st);
            let mut ok = prop
                .root(&p.constraints, &p.values, &mut st, &mut stats)
                .is_ok();
            for step in 0..12 {
                let expected = circuit_reference(0, sub, before.clone());
                let after = ok.then(|| left(&st));
                assert_eq!(after, expected, "case {case} step {step}, sub {sub}");
                if !ok {
                    failed += 1;
                    break;
                }
                pruned += u32::from(after.is_some_and(|a| a != before));
                let open: Vec<u32> = (0..n as u32).filter(|&v| !st.is_fixed(v)).collect();
                let Some(&v) = open.get(rng.below_usize(open.len().max(1))) else {
                    break;
                };
                let positions: Vec<usize> = st.dom(v).iter().collect();
                st.assign(v, positions[rng.below_usize(positions.len())])
                    .unwrap();
                before = left(&st);
                ok = prop
                    .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                    .is_ok();
            }
        }
        assert!(pruned > 100, "pruned {pruned}, failed {failed}");
    }

    /// What the engine reads from each constraint besides its filtering: names (in messages; `regular` and the
    /// circuits refuse intervals by name), scope, wake-up event, cost class, interval support.
    #[test]
    fn each_global_has_its_name_trigger_cost_and_interval_support() {
        let mut m = Model::new();
        let x: Vec<VarId> = (0..4).map(|_| m.new_var(0, 3).unwrap()).collect();
        m.lex(&x[..2], &x[2..], true).unwrap();
        m.lex(&x[..2], &x[2..], false).unwrap();
        m.regular(&x[..3], 2, 0, &[(0, 1, 1), (1, 0, 0)], &[1])
            .unwrap();
        m.circuit(&x, 0).unwrap();
        m.subcircuit(&x, 0).unwrap();
        let p = m.build().unwrap();
        let c = &p.constraints;
        let names: Vec<&str> = c.iter().map(|c| c.name()).collect();
        assert_eq!(
            names,
            ["lex_less", "lex_lesseq", "regular", "circuit", "subcircuit"]
        );
        let scopes: Vec<Vec<u32>> = c.iter().map(|c| c.vars().to_vec()).collect();
        assert_eq!(
            scopes,
            [
                vec![0, 1, 2, 3],
                vec![0, 1, 2, 3],
                vec![0, 1, 2],
                vec![0, 1, 2, 3],
                vec![0, 1, 2, 3]
            ]
        );
        for level in [Propagation::ForwardChecking, Propagation::Singles] {
            let triggers: Vec<Option<Trigger>> = c.iter().map(|c| c.trigger(level)).collect();
            let (b, d) = (Some(Trigger::Bounds), Some(Trigger::Domain));
            assert_eq!(triggers, [b, b, d, d, d]);
        }
        let costs: Vec<Cost> = c.iter().map(|c| c.cost()).collect();
        assert_eq!(
            costs,
            [
                Cost::Linear,
                Cost::Linear,
                Cost::Expensive,
                Cost::Linear,
                Cost::Linear
            ]
        );
        let intervals: Vec<bool> = c.iter().map(|c| c.accepts_intervals()).collect();
        assert_eq!(intervals, [true, true, false, false, false]);

        // `lex` runs on intervals; the others are refused by name.
        let mut m = Model::new();
        let y: Vec<VarId> = (0..4).map(|_| m.new_interval_var(0, 3).unwrap()).collect();
        m.lex(&y[..2], &y[2..], true).unwrap();
        assert!(m.build().is_ok());
        type Post = fn(&mut Model, &[VarId]) -> Result<(), ModelError>;
        let posts: [(&str, Post); 3] = [
            ("regular", |m, y| {
                m.regular(y, 2, 0, &[(0, 1, 1)], &[1]).map(drop)
            }),
            ("circuit", |m, y| m.circuit(y, 0).map(drop)),
            ("subcircuit", |m, y| m.subcircuit(y, 0).map(drop)),
        ];
        for (name, post) in posts {
            let mut m = Model::new();
            let y: Vec<VarId> = (0..3).map(|_| m.new_interval_var(0, 2).unwrap()).collect();
            match post(&mut m, &y).and_then(|()| m.build().map(drop)) {
                Err(ModelError::NeedsEnumerable { what, .. }) => assert_eq!(what, name),
                other => panic!("{name} on intervals: {other:?}"),
            }
        }
    }

    /// Every assignment of `n` variables over `values`, in order (the last variable fastest).
    fn all_assignments(n: usize, values: &[i64]) -> Vec<Vec<i64>> {
        let mut all = vec![Vec::new()];
        for _ in 0..n {
            all = all
                .into_iter()
                .flat_map(|a| {
                    values.iter().map(move |&x| {
                        let mut b = a.clone();
                        b.push(x);
                        b
                    })
                })
                .collect();
        }
        all
    }

    /// The checkers are the oracles of the search tests, so they are checked against the definitions: on random
    /// automata, `regular` accepts exactly the words whose run (through the posted transitions, values outside
    /// the symbols rejecting) ends in an accepting state; on every successor assignment of 1 to 5 nodes (values
    /// one past each end included), `circuit` accepts exactly those whose successors, followed from node 0, visit
    /// every node once and come back, and `subcircuit` exactly those where the nodes not their own successor
    /// form one such cycle (or there are none).
    #[test]
    fn the_regular_and_circuit_checkers_accept_exactly_what_their_definitions_accept() {
        let mut rng = Rng::new(6);
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..200 {
            let mut m = Model::new();
            let n = rng.below_usize(5);
            let x: Vec<VarId> = (0..n).map(|_| m.new_var(-2, 2).unwrap()).collect();
            let (states, start, t, acc) = random_automaton(&mut rng);
            m.regular(&x, states, start, &t, &acc).unwrap();
            let p = m.build().unwrap();
            for word in all_assignments(n, &[-3, -2, -1, 0, 1, 2, 3]) {
                let mut q = Some(start);
                for &a in &word {
                    q = q.and_then(|q| t.iter().find(|&&(r, b, _)| r == q && b == a).map(|e| e.2));
                }
                let expected = q.is_some_and(|q| acc.contains(&q));
                let got = p.constraints[0].is_satisfied(&|v| word[v as usize]);
                assert_eq!(
                    got, expected,
                    "{word:?} by {t:?} from {start}, accepting {acc:?}"
                );
                accepted += u32::from(expected);
                refused += u32::from(!expected);
            }
        }
        assert!(
            accepted > 1000 && refused > 1000,
            "regular: {accepted} accepted, {refused} refused"
        );
        for sub in [false, true] {
            let (mut accepted, mut refused) = (0, 0);
            for n in 1..=5usize {
                for first in [-1i64, 0, 2] {
                    let mut m = Model::new();
                    let x: Vec<VarId> = (0..n)
                        .map(|_| m.new_var(first - 1, first + n as i64).unwrap())
                        .collect();
                    if sub {
                        m.subcircuit(&x, first).unwrap();
                    } else {
                        m.circuit(&x, first).unwrap();
                    }
                    let p = m.build().unwrap();
                    let values: Vec<i64> = (first - 1..=first + n as i64).collect();
                    for succ in all_assignments(n, &values) {
                        let node =
                            |i: usize| usize::try_from(succ[i] - first).ok().filter(|&j| j < n);
                        let members: Vec<usize> =
                            (0..n).filter(|&i| !sub || node(i) != Some(i)).collect();
                        // One cycle through exactly `members`: followed from the first, each is left once and
                        // the walk returns to the first after all of them.
                        let expected = (0..n).all(|i| node(i).is_some())
                            && members.first().is_none_or(|&s| {
                                let mut seen = vec![false; n];
                                let mut i = s;
                                for _ in 0..members.len() {
                                    if seen[i] || !members.contains(&i) {
                                        return false;
                                    }
                                    seen[i] = true;
                                    i = node(i).unwrap_or(s);
                                }
                                i == s
                            });
                        let got = p.constraints[0].is_satisfied(&|v| succ[v as usize]);
                        assert_eq!(got, expected, "{succ:?} from {first}, sub {sub}");
                        accepted += u32::from(expected);
                        refused += u32::from(!expected);
                    }
                }
            }
            assert!(
                accepted > 50 && refused > 1000,
                "sub {sub}: {accepted} accepted, {refused} refused"
            );
        }
    }
}
