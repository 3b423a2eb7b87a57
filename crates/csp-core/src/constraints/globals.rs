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
