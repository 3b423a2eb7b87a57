//! `table`: the scope must take one of the allowed tuples. Generalised arc consistency by compact-table
//! (Demeulenaere, Hartert, Lecoutre, Perez, Perron, Régin, Schaus: "Compact-Table: Efficiently Filtering Table
//! Constraints with Reversible Sparse Bit-Sets", CP 2016).
//!
//! # State
//! Static, in the frozen problem: `supports[(col[i] + a) * nw + k]` = word `k` of the bitset of rows whose
//! position `i` holds domain position `a` (rows = the tuples all of whose values are in the initial domains).
//! Per search, in the [`crate::trailed`] store:
//!
//! ```text
//! words[base]                      = limit: number of non-zero words of `valid`
//! words[base + 1]                  = 1 once the first filtering ran (before it, nothing was ever checked)
//! words[base + 2 + k], k < nw      = valid[k]: rows still consistent with the domains last seen
//! doms[snap_base + i * snap_slots + s]  = word s of dom(vars[i]) as the propagator last saw it (the snapshot)
//! free[free_base + j], j < nw      = index: valid[index[j]] != 0 exactly for j < limit (a sparse set; untrailed)
//! free[free_base + nw + col[i] + a]= residue of (i, a): the word where its last support was found (a hint)
//! ```
//!
//! Invariants after each call: `valid` = the rows whose every position is in its snapshot; each domain is a subset
//! of its snapshot (domains only shrink until undo, which restores both together); when no variable is repeated in
//! the scope, the snapshots equal the domains and every value left has a valid row (GAC).
//!
//! # One call
//! 1. For each scope variable whose domain differs from its snapshot: the removed values' support rows are
//!    cleared from `valid` (or, when fewer values remain than were removed, `valid` is intersected with the
//!    union of the remaining values' supports); the snapshot is updated. An empty `valid` fails.
//! 2. If nothing changed and the domains were filtered before, the constraint is already at its fixpoint.
//! 3. Each open variable keeps the values with a support among the valid rows: first the residue word, then a
//!    scan of the non-zero words only.
//!
//! The pruning equals the previous implementation's (scan all rows still within the domains, keep the values they
//! use), which is GAC too; only the cost changed: O(changed values x non-zero words) for the update and mostly
//! O(1) per value for the support checks, instead of O(rows x arity) on every call.

use crate::domain::{Domain, Word};
use crate::state::{Conflict, State};
use crate::trailed::{Layout, Trailed};
use crate::values::Values;

/// Largest table whose propagation debug builds check from scratch after every call.
#[cfg(debug_assertions)]
const CHECKED_ROWS: usize = 256;

/// Largest support structure (words) a table builds: 32 MiB. Beyond it (wide domains and very many rows, e.g.
/// 3 x 4096 values x 100,000 rows would need 150 MiB) the table falls back to scanning its rows on every call.
const MAX_SUPPORT_WORDS: usize = 1 << 22;

/// Allowed tuples over a scope.
#[derive(Clone, Debug)]
pub struct Table {
    /// Scope.
    pub vars: Vec<u32>,
    /// The tuples as posted (values), row-major, `vars.len()` per row.
    pub tuples: Vec<i64>,
    /// Number of tuples posted (needed when the scope is empty).
    count: usize,
    /// The tuples whose every value is in its variable's initial domain, as positions, row-major (read by the
    /// row-scan fallback and the from-scratch check).
    rows: Vec<u32>,
    /// Number of rows in `rows`.
    nrows: usize,
    /// Words of a row bitset: `ceil(nrows / 64)`.
    nw: usize,
    /// `widths[i]` = initial domain width of `vars[i]`.
    widths: Vec<u32>,
    /// `col[i]` = sum of `widths[..i]`: first support row of scope position `i`.
    col: Vec<u32>,
    /// Support bitsets, `nw` words per (position, value), see the module docs.
    supports: Vec<u64>,
    /// First trailed `u64` word (limit, primed flag, then `valid`).
    base: u32,
    /// First trailed domain word (snapshots).
    snap_base: u32,
    /// Domain words reserved per scope position: the most words any scope domain has.
    snap_slots: u32,
    /// First untrailed `u32` word (index, then residues).
    free_base: u32,
    /// The compact-table structures exist (`supports` within `MAX_SUPPORT_WORDS`); otherwise every call scans
    /// all rows, the previous algorithm, with the same pruning.
    compact: bool,
    /// Some variable occurs twice in the scope: a filtering step can then leave another position's snapshot
    /// larger than the domain, so fixed variables are checked like open ones.
    repeated: bool,
}

impl Table {
    /// Builds the constraint from value tuples and their translation to positions (tuples with a value outside the
    /// initial domain are already dropped from `rows`); `widths` are the scope's initial domain widths.
    pub fn new(
        vars: Vec<u32>,
        tuples: Vec<i64>,
        count: usize,
        rows: Vec<u32>,
        widths: Vec<u32>,
    ) -> Self {
        let n = vars.len();
        let nrows = rows.len().checked_div(n).unwrap_or(0);
        let nw = nrows.div_ceil(64);
        let mut col = Vec::with_capacity(n);
        let mut total = 0u32;
        for &w in &widths {
            col.push(total);
            total += w;
        }
        let compact = total as usize * nw <= MAX_SUPPORT_WORDS;
        let mut supports = vec![0u64; if compact { total as usize * nw } else { 0 }];
        if n > 0 && compact {
            for (r, row) in rows.chunks(n).enumerate() {
                for (i, &p) in row.iter().enumerate() {
                    let at = (col[i] + p) as usize * nw + r / 64;
                    supports[at] |= 1 << (r % 64);
                }
            }
        }
        let snap_slots = widths
            .iter()
            .map(|&w| (w as usize).div_ceil(64))
            .max()
            .unwrap_or(1)
            .max(1) as u32;
        let mut sorted = vars.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let repeated = sorted.len() < n;
        Self {
            compact,
            repeated,
            vars,
            tuples,
            count,
            rows,
            nrows,
            nw,
            widths,
            col,
            supports,
            base: 0,
            snap_base: 0,
            snap_slots,
            free_base: 0,
        }
    }

    /// Reserves this table's words in the store layout (model build; once per table).
    pub(crate) fn place(&mut self, layout: &mut Layout) {
        if self.vars.is_empty() || !self.compact {
            return;
        }
        self.base = layout.words.len() as u32;
        layout.words.push(self.nw as u64);
        layout.words.push(0);
        for k in 0..self.nw {
            let bits = (self.nrows - k * 64).min(64) as u32;
            layout.words.push(u64::low_mask(bits));
        }
        self.snap_base = layout.doms as u32;
        layout.doms += self.vars.len() * self.snap_slots as usize;
        self.free_base = layout.free.len() as u32;
        layout.free.extend(0..self.nw as u32);
        let total = self.widths.iter().sum::<u32>() as usize;
        layout.free.extend(std::iter::repeat_n(0, total));
        layout.tmp = layout.tmp.max(self.nw);
    }

    /// Writes the initial snapshots (full initial domains) into `doms`, the store's domain area.
    pub(crate) fn init_snapshots<D: Domain>(&self, doms: &mut [D::W]) {
        if !self.compact {
            return;
        }
        for (i, &w) in self.widths.iter().enumerate() {
            let full = D::full(w as usize);
            let at = self.snap_base as usize + i * self.snap_slots as usize;
            for s in 0..full.slots() {
                doms[at + s] = full.word(s);
            }
        }
    }

    /// Brute force: the assignment is one of the tuples.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let n = self.vars.len();
        if n == 0 {
            return self.count > 0;
        }
        self.tuples
            .chunks(n)
            .any(|t| self.vars.iter().zip(t).all(|(&v, &x)| value_of(v) == x))
    }

    /// Updates the valid rows from the domain changes since the last call and removes the values left without a
    /// valid row (GAC). See the module docs.
    pub fn propagate<D: Domain>(&self, st: &mut State<D>) -> Result<(), Conflict> {
        let n = self.vars.len();
        if n == 0 {
            return if self.count > 0 {
                Ok(())
            } else {
                Err(st.conflict())
            };
        }
        if !self.compact {
            return self.propagate_scan(st);
        }
        let base = self.base as usize;
        let mut limit = st.cstate.word(base) as usize;
        if limit == 0 {
            return Err(st.conflict());
        }
        let mut changed = false;
        // Scope position of the only variable that changed, `usize::MAX` if several did.
        let mut only = usize::MAX;
        for i in 0..n {
            if self.update(i, st, &mut limit) {
                only = if changed { usize::MAX } else { i };
                changed = true;
                if limit == 0 {
                    break;
                }
            }
        }
        if changed {
            st.cstate.set_word(base, limit as u64);
            if limit == 0 {
                return Err(st.conflict());
            }
        }
        let primed = st.cstate.word(base + 1) != 0;
        if !changed && primed {
            return Ok(());
        }
        if !primed {
            st.cstate.set_word(base + 1, 1);
        }
        // When one variable changed, only rows using its removed values left `valid`: its remaining values keep
        // every support they had at the previous fixpoint, so only the others need checking (CT's rule). Not with
        // repeated variables, whose other positions may hold stale snapshots.
        let skip = if primed && !self.repeated {
            only
        } else {
            usize::MAX
        };
        for i in 0..n {
            if i != skip {
                self.filter(i, st, limit)?;
            }
        }
        // The from-scratch check costs what the old row scan cost; big tables skip it so debug test runs stay short.
        #[cfg(debug_assertions)]
        if self.nrows <= CHECKED_ROWS {
            if let Err(msg) = self.check(st) {
                panic!("table propagation broke its invariant: {msg}");
            }
        }
        Ok(())
    }

    /// The fallback for tables too big for compact-table: keeps the positions that appear in some row whose
    /// positions are all still in their domains (GAC too, at O(rows x arity) per call).
    fn propagate_scan<D: Domain>(&self, st: &mut State<D>) -> Result<(), Conflict> {
        let n = self.vars.len();
        let mut support = std::mem::take(&mut st.scratch);
        for d in support.iter_mut().take(n) {
            d.clear();
        }
        let mut any = false;
        for row in self.rows.chunks(n) {
            if self
                .vars
                .iter()
                .zip(row)
                .all(|(&v, &p)| st.dom(v).contains(p as usize))
            {
                any = true;
                for (d, &p) in support.iter_mut().zip(row) {
                    d.insert(p as usize);
                }
            }
        }
        let result = if any {
            self.vars
                .iter()
                .zip(&support)
                .try_for_each(|(&v, s)| st.intersect(v, s).map(|_| ()))
        } else {
            Err(st.conflict())
        };
        st.scratch = support;
        result
    }

    /// Step 1 for scope position `i`: removes from `valid` the rows using values gone since the snapshot, and
    /// updates the snapshot. Returns whether the domain had changed.
    fn update<D: Domain>(&self, i: usize, st: &mut State<D>, limit: &mut usize) -> bool {
        let v = self.vars[i];
        let snap = self.snap_base as usize + i * self.snap_slots as usize;
        let size = st.size(v);
        let (dom, t) = st.dom_and_cstate(v);
        let slots = dom.slots();
        let mut removed = 0;
        for s in 0..slots {
            removed += (t.dom(snap + s) & !dom.word(s)).count();
        }
        if removed == 0 {
            return false;
        }
        let bits = D::W::BITS as usize;
        let nw = self.nw;
        if removed == 1 || size == 1 {
            // One support set decides: the removed value's rows go, or only the remaining value's rows stay.
            let (keep, mut pos) = (size == 1 && removed > 1, 0);
            for s in 0..slots {
                let w = if keep {
                    dom.word(s)
                } else {
                    t.dom(snap + s) & !dom.word(s)
                };
                if !w.is_zero() {
                    pos = s * bits + w.lowest() as usize;
                    break;
                }
            }
            let row = (self.col[i] as usize + pos) * nw;
            let sup = &self.supports[row..row + nw];
            if keep {
                self.and_rows(t, limit, |k| sup[k]);
            } else {
                self.and_rows(t, limit, |k| !sup[k]);
            }
        } else {
            // Union of the support sets of the smaller side (removed values, or remaining ones), then one pass.
            let keep = size < removed;
            let mut tmp = std::mem::take(&mut t.tmp);
            let ib = self.free_base as usize;
            for j in 0..*limit {
                tmp[t.free[ib + j] as usize] = 0;
            }
            for s in 0..slots {
                let mut w = if keep {
                    dom.word(s)
                } else {
                    t.dom(snap + s) & !dom.word(s)
                };
                while !w.is_zero() {
                    let pos = s * bits + w.lowest() as usize;
                    w = w.clear_lowest();
                    let row = (self.col[i] as usize + pos) * nw;
                    let sup = &self.supports[row..row + nw];
                    for j in 0..*limit {
                        let k = t.free[ib + j] as usize;
                        tmp[k] |= sup[k];
                    }
                }
            }
            if keep {
                self.and_rows(t, limit, |k| tmp[k]);
            } else {
                self.and_rows(t, limit, |k| !tmp[k]);
            }
            t.tmp = tmp;
        }
        for s in 0..slots {
            t.set_dom(snap + s, dom.word(s));
        }
        true
    }

    /// `valid[k] &= mask(k)` for every non-zero word; words that become zero leave the sparse set's prefix.
    fn and_rows<W: Copy>(
        &self,
        t: &mut Trailed<W>,
        limit: &mut usize,
        mask: impl Fn(usize) -> u64,
    ) {
        let vb = self.base as usize + 2;
        let ib = self.free_base as usize;
        let mut j = *limit;
        while j > 0 {
            j -= 1;
            let k = t.free[ib + j] as usize;
            let old = t.word(vb + k);
            let new = old & mask(k);
            if new != old {
                t.set_word(vb + k, new);
                if new == 0 {
                    // Positions above `j` are done, so the word swapped in has been handled already.
                    *limit -= 1;
                    t.free.swap(ib + j, ib + *limit);
                }
            }
        }
    }

    /// True when some valid row puts domain position `pos` at scope position `i` (residue first, then a scan).
    #[inline(always)]
    fn has_support<W: Copy>(&self, t: &mut Trailed<W>, i: usize, pos: usize, limit: usize) -> bool {
        let nw = self.nw;
        let at = self.col[i] as usize + pos;
        let vb = self.base as usize + 2;
        let ib = self.free_base as usize;
        let rb = ib + nw + at;
        let r = t.free[rb] as usize;
        if t.word(vb + r) & self.supports[at * nw + r] != 0 {
            return true;
        }
        let sup = &self.supports[at * nw..(at + 1) * nw];
        for j in 0..limit {
            let k = t.free[ib + j] as usize;
            if t.word(vb + k) & sup[k] != 0 {
                t.free[rb] = k as u32;
                return true;
            }
        }
        false
    }

    /// Step 3 for scope position `i`: removes the values without a valid row, then refreshes the snapshot.
    fn filter<D: Domain>(&self, i: usize, st: &mut State<D>, limit: usize) -> Result<(), Conflict> {
        let v = self.vars[i];
        if st.size(v) == 1 && !self.repeated {
            // Every valid row uses the one value left (valid is non-empty and within the snapshot = domain).
            return Ok(());
        }
        let bits = D::W::BITS as usize;
        let slots = st.dom(v).slots();
        let mut changed = false;
        for s in 0..slots {
            let (dom, t) = st.dom_and_cstate(v);
            let w = dom.word(s);
            let mut keep = w;
            let mut open = w;
            while !open.is_zero() {
                let b = open.lowest();
                open = open.clear_lowest();
                if !self.has_support(t, i, s * bits + b as usize, limit) {
                    keep &= !D::W::bit(b);
                }
            }
            if keep != w {
                st.set_word(v, s, keep)?;
                changed = true;
            }
        }
        if changed {
            // The values just removed had no valid row, so `valid` stays exact for the new domain.
            let snap = self.snap_base as usize + i * self.snap_slots as usize;
            let (dom, t) = st.dom_and_cstate(v);
            for s in 0..slots {
                t.set_dom(snap + s, dom.word(s));
            }
        }
        Ok(())
    }

    /// The rows currently marked valid, ascending (for tests and checks).
    #[cfg(any(test, debug_assertions))]
    pub(crate) fn valid_rows<D: Domain>(&self, st: &State<D>) -> Vec<usize> {
        let vb = self.base as usize + 2;
        (0..self.nrows)
            .filter(|&r| self.vars.is_empty() || st.cstate.word(vb + r / 64) >> (r % 64) & 1 == 1)
            .collect()
    }

    /// From-scratch check against a scan of every row (the previous implementation, kept as the oracle): no row
    /// within the current domains is marked invalid, the sparse set matches the non-zero words, and without
    /// repeated variables `valid` is exactly the rows within the domains and every value left has one of them.
    /// Debug builds run it after every successful call on tables of at most `CHECKED_ROWS` rows.
    #[cfg(any(test, debug_assertions))]
    pub(crate) fn check<D: Domain>(&self, st: &State<D>) -> Result<(), String> {
        let n = self.vars.len();
        if n == 0 {
            return Ok(());
        }
        let t = &st.cstate;
        let limit = t.word(self.base as usize) as usize;
        let vb = self.base as usize + 2;
        let ib = self.free_base as usize;
        let nonzero = (0..self.nw).filter(|&k| t.word(vb + k) != 0).count();
        if nonzero != limit {
            return Err(format!("limit {limit} but {nonzero} non-zero words"));
        }
        if (0..limit).any(|j| t.word(vb + t.free[ib + j] as usize) == 0) {
            return Err("a zero word inside the sparse set's prefix".into());
        }
        let stored = self.valid_rows(st);
        let scan: Vec<usize> = self
            .rows
            .chunks(n)
            .enumerate()
            .filter(|(_, row)| {
                self.vars
                    .iter()
                    .zip(row.iter())
                    .all(|(&v, &p)| st.dom(v).contains(p as usize))
            })
            .map(|(r, _)| r)
            .collect();
        if let Some(r) = scan.iter().find(|r| stored.binary_search(r).is_err()) {
            return Err(format!("row {r} is within the domains but marked invalid"));
        }
        if self.repeated {
            return Ok(());
        }
        if scan != stored {
            return Err(format!(
                "{} rows marked valid but {} are within the domains",
                stored.len(),
                scan.len()
            ));
        }
        for (i, &v) in self.vars.iter().enumerate() {
            for p in st.dom(v).iter() {
                if !scan.iter().any(|&r| self.rows[r * n + i] as usize == p) {
                    return Err(format!("x{v} keeps position {p} without a valid row"));
                }
            }
        }
        Ok(())
    }
}

impl super::Constraint for Table {
    fn name(&self) -> &'static str {
        "table"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        Table::is_satisfied(self, value_of)
    }
    fn cost(&self) -> super::Cost {
        super::Cost::Expensive
    }
    fn place(&mut self, layout: &mut Layout) {
        Table::place(self, layout)
    }
    fn scratch(&self) -> usize {
        self.vars.len()
    }
}

impl<D: Domain> super::Propagate<D> for Table {
    #[inline]
    fn propagate(&self, st: &mut State<D>, _values: &[Values]) -> Result<(), Conflict> {
        Table::propagate(self, st)
    }
    fn init_trailed(&self, doms: &mut [D::W]) {
        self.init_snapshots::<D>(doms)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use crate::constraints::as_table;
    use crate::domain::{Domain, WideDomain};
    use crate::model::{Model, Problem};
    use crate::propagate::{Propagation, Propagator};
    use crate::rng::Rng;
    use crate::state::State;
    use crate::stats::Stats;

    /// The row-scan fallback (tables past `MAX_SUPPORT_WORDS`) prunes exactly as compact-table: same solutions,
    /// same node count, on a random table whose scope shares variables with a second table.
    #[test]
    fn the_row_scan_fallback_matches_compact_table() {
        use crate::{SearchConfig, Solver};
        let build = |compact: bool| {
            let mut m = Model::new();
            let x: Vec<_> = (0..4).map(|_| m.new_var(0, 5).unwrap()).collect();
            let mut seed = 7u64;
            let mut next = move || {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((seed >> 33) % 6) as i64
            };
            let t1: Vec<Vec<i64>> = (0..80).map(|_| (0..3).map(|_| next()).collect()).collect();
            let t2: Vec<Vec<i64>> = (0..20).map(|_| (0..2).map(|_| next()).collect()).collect();
            m.table(&x[..3], &t1).unwrap();
            m.table(&[x[2], x[3]], &t2).unwrap();
            let mut p = m.build().unwrap();
            for c in &mut p.constraints {
                let any: &mut dyn std::any::Any = &mut **c;
                if let Some(t) = any.downcast_mut::<super::Table>() {
                    t.compact = compact;
                }
            }
            p
        };
        let (fast, slow) = (build(true), build(false));
        let cfg = SearchConfig::default();
        let a = Solver::new(&fast, cfg.clone()).count(&[], u64::MAX);
        let b = Solver::new(&slow, cfg).count(&[], u64::MAX);
        assert!(a.count > 0);
        assert_eq!((a.count, a.stats.nodes), (b.count, b.stats.nodes));
    }

    #[test]
    fn undo_restores_the_valid_row_set_and_the_domains() {
        let mut m = Model::new();
        let x: Vec<_> = (0..3).map(|_| m.new_var(0, 3).unwrap()).collect();
        let tuples: Vec<Vec<i64>> = (0..4)
            .flat_map(|a| (0..4).map(move |b| vec![a, b, (a + b) % 4]))
            .filter(|t| t[0] != t[1])
            .collect();
        m.table(&x, &tuples).unwrap();
        let p = m.build().unwrap();
        let Some(table) = crate::constraints::as_table(&*p.constraints[0]) else {
            unreachable!()
        };
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        let mut st: State<u64> = State::new(&widths);
        st.cstate = p.trailed::<u64>();
        let mut prop = Propagator::new(
            &p.constraints,
            p.num_vars(),
            Propagation::ForwardChecking,
            false,
        );
        let mut stats = Stats::default();
        let run = |prop: &mut Propagator, st: &mut State<u64>, stats: &mut Stats| {
            prop.fixpoint(&p.constraints, &p.values, st, stats)
        };
        prop.root(&p.constraints, &p.values, &mut st, &mut stats)
            .unwrap();
        let root_rows = table.valid_rows(&st);
        assert_eq!(root_rows.len(), 12);
        let doms = |st: &State<u64>| (0..3).map(|v| *st.dom(v)).collect::<Vec<_>>();
        let root_doms = doms(&st);

        prop.push_level(&mut st);
        st.remove(0, 0).unwrap();
        run(&mut prop, &mut st, &mut stats).unwrap();
        let level1_rows = table.valid_rows(&st);
        assert_eq!(level1_rows.len(), 9);
        let level1_doms = doms(&st);

        prop.push_level(&mut st);
        st.assign(1, 2).unwrap();
        st.remove(2, 3).unwrap();
        run(&mut prop, &mut st, &mut stats).unwrap();
        // x1 = 2, x0 in {1, 3}, x2 = x0 + 2 mod 4 != 3: only (3, 2, 1).
        assert_eq!(table.valid_rows(&st).len(), 1);
        assert_eq!(doms(&st), vec![1 << 3, 1 << 2, 1 << 1]);

        prop.pop_level(&mut st);
        assert_eq!(table.valid_rows(&st), level1_rows);
        assert_eq!(doms(&st), level1_doms);
        table.check(&st).unwrap();

        // A conflict inside a level is undone as well.
        prop.push_level(&mut st);
        st.assign(0, 1).unwrap();
        st.assign(1, 1).unwrap();
        assert!(run(&mut prop, &mut st, &mut stats).is_err());
        prop.pop_level(&mut st);
        assert_eq!(table.valid_rows(&st), level1_rows);

        prop.pop_level(&mut st);
        assert_eq!(table.valid_rows(&st), root_rows);
        assert_eq!(doms(&st), root_doms);
        table.check(&st).unwrap();
    }

    /// A random problem made only of tables, with what the tests below compute their references from.
    struct Case {
        p: Problem,
        /// `vals[v]` = the values of variable `v`, ascending (position `a` of `v` is `vals[v][a]`).
        vals: Vec<Vec<i64>>,
        /// Per table, in posting order: its scope (variable indexes) and its rows, as positions: the posted tuples
        /// whose every value lies in its variable's domain, in posting order (the numbering `valid_rows` uses).
        tables: Vec<(Vec<usize>, Vec<Vec<usize>>)>,
    }

    /// 1 to 4 variables with holes in their values (`wide`: 80 to 160 values before holes, so positions past the
    /// first word), and tables on them: with `repeated`, one table whose scope holds a variable twice; otherwise
    /// 1 to 3 tables on distinct variables each, sharing variables with each other. 0 to 200 tuples a table (rows
    /// past the first word of the row bitsets), one value in twelve outside its variable's domain.
    fn random_case(rng: &mut Rng, wide: bool, repeated: bool) -> Case {
        let k = 1 + rng.below_usize(4);
        let mut m = Model::new();
        let mut vals = Vec::new();
        let mut xs = Vec::new();
        for _ in 0..k {
            let range = if wide {
                80 + rng.below(80)
            } else {
                2 + rng.below(7)
            } as i64;
            let mut d: Vec<i64> = (0..range).filter(|_| rng.below(6) != 0).collect();
            if d.is_empty() {
                d.push(range - 1);
            }
            xs.push(m.new_var_with_values(&d).unwrap());
            vals.push(d);
        }
        let scopes: Vec<Vec<usize>> = if repeated {
            let n = 2 + rng.below_usize(3);
            let mut scope: Vec<usize> = (0..n).map(|_| rng.below_usize(k)).collect();
            let (a, b) = (rng.below_usize(n), rng.below_usize(n - 1));
            scope[if b >= a { b + 1 } else { b }] = scope[a];
            vec![scope]
        } else {
            (0..1 + rng.below_usize(3))
                .map(|_| {
                    let mut all: Vec<usize> = (0..k).collect();
                    rng.shuffle(&mut all);
                    all.truncate(1 + rng.below_usize(k.min(3)));
                    all
                })
                .collect()
        };
        let mut tables = Vec::new();
        for scope in scopes {
            let count = [0, 1, 3, 12, 40, 70, 130, 200][rng.below_usize(8)];
            let tuples: Vec<Vec<i64>> = (0..count)
                .map(|_| {
                    scope
                        .iter()
                        .map(|&v| {
                            let d = &vals[v];
                            if rng.below(12) == 0 {
                                [-1, d[d.len() - 1] + 1][rng.below_usize(2)]
                            } else {
                                d[rng.below_usize(d.len())]
                            }
                        })
                        .collect()
                })
                .collect();
            let on: Vec<_> = scope.iter().map(|&v| xs[v]).collect();
            m.table(&on, &tuples).unwrap();
            let rows = tuples
                .iter()
                .filter_map(|t| {
                    scope
                        .iter()
                        .zip(t)
                        .map(|(&v, x)| vals[v].binary_search(x).ok())
                        .collect::<Option<Vec<usize>>>()
                })
                .collect();
            tables.push((scope, rows));
        }
        Case {
            p: m.build().unwrap(),
            vals,
            tables,
        }
    }

    /// A search state for `p` on representation `D`, set up as the search sets it up.
    fn state_for<D: Domain>(p: &Problem) -> State<D> {
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        let mut st: State<D> = State::new(&widths);
        st.scratch = vec![D::full(p.max_width); p.max_table_arity];
        st.cstate = p.trailed::<D>();
        st
    }

    /// The positions each variable still has.
    fn doms<D: Domain>(st: &State<D>) -> Vec<Vec<usize>> {
        (0..st.num_vars() as u32)
            .map(|v| st.dom(v).iter().collect())
            .collect()
    }

    /// Whether `row` lies within `doms` on `scope`.
    fn within(scope: &[usize], row: &[usize], doms: &[Vec<usize>]) -> bool {
        scope.iter().zip(row).all(|(&v, p)| doms[v].contains(p))
    }

    /// The indexes of the rows within `doms`, ascending.
    fn rows_within(scope: &[usize], rows: &[Vec<usize>], doms: &[Vec<usize>]) -> Vec<usize> {
        (0..rows.len())
            .filter(|&r| within(scope, &rows[r], doms))
            .collect()
    }

    /// Generalised arc consistency by its definition: removes every value without a row within the domains, table
    /// after table, until nothing changes (the greatest arc-consistent domains within `doms`, which a propagator
    /// that keeps exactly the supported values reaches whatever its order). False when a domain is emptied.
    fn gac_reference(tables: &[(Vec<usize>, Vec<Vec<usize>>)], doms: &mut [Vec<usize>]) -> bool {
        loop {
            let mut changed = false;
            for (scope, rows) in tables {
                let live: Vec<&Vec<usize>> =
                    rows.iter().filter(|r| within(scope, r, doms)).collect();
                for (i, &v) in scope.iter().enumerate() {
                    let before = doms[v].len();
                    doms[v].retain(|&p| live.iter().any(|r| r[i] == p));
                    if doms[v].is_empty() {
                        return false;
                    }
                    changed |= doms[v].len() != before;
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Changes the domains as a search step would: assigns an open variable, removes one of its values or several
    /// (never all), sometimes of a second open variable too. False when every variable is fixed.
    fn random_change<D: Domain>(st: &mut State<D>, rng: &mut Rng) -> bool {
        for _ in 0..1 + rng.below(2) {
            let open: Vec<u32> = (0..st.num_vars() as u32)
                .filter(|&v| !st.is_fixed(v))
                .collect();
            if open.is_empty() {
                return false;
            }
            let v = open[rng.below_usize(open.len())];
            let have: Vec<usize> = st.dom(v).iter().collect();
            match rng.below(3) {
                0 => {
                    st.assign(v, have[rng.below_usize(have.len())]).unwrap();
                }
                1 => {
                    st.remove(v, have[rng.below_usize(have.len())]).unwrap();
                }
                _ => {
                    let keep = have[rng.below_usize(have.len())];
                    for &p in &have {
                        if p != keep && rng.below(2) == 0 {
                            st.remove(v, p).unwrap();
                        }
                    }
                }
            }
        }
        true
    }

    /// What undo must restore: the domains and each table's valid rows.
    fn snapshot<D: Domain>(
        st: &State<D>,
        tables: &[&super::Table],
    ) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        (doms(st), tables.iter().map(|t| t.valid_rows(st)).collect())
    }

    /// Checks one fixpoint (`ok` = it succeeded) from the domains `before` it: without repeated variables, the
    /// domains are exactly [`gac_reference`]'s and failure happens exactly when it empties a domain, and every
    /// table's valid rows are exactly its rows within the domains; with a repeated variable (one table, not
    /// domain consistent), no value of a solution is lost (so failure means none is left), a fixed scope is a
    /// solution, and no row within the domains is marked invalid. Returns whether anything was pruned.
    fn check_fixpoint<D: Domain>(
        case: &Case,
        tables: &[&super::Table],
        st: &State<D>,
        before: &[Vec<usize>],
        ok: bool,
        repeated: bool,
    ) -> bool {
        let after = doms(st);
        if !repeated {
            let mut expected = before.to_vec();
            let alive = gac_reference(&case.tables, &mut expected);
            assert_eq!(ok, alive, "failure from {before:?} (vals {:?})", case.vals);
            if ok {
                assert_eq!(
                    after, expected,
                    "GAC from {before:?} (vals {:?})",
                    case.vals
                );
            }
        } else {
            let (scope, rows) = &case.tables[0];
            // A row is a solution when it gives each occurrence of a variable the same position.
            let solution = |r: &Vec<usize>| {
                scope
                    .iter()
                    .zip(r)
                    .all(|(&v, &p)| scope.iter().zip(r).all(|(&w, &q)| w != v || q == p))
            };
            let solutions: Vec<&Vec<usize>> = rows
                .iter()
                .filter(|r| solution(r) && within(scope, r, before))
                .collect();
            assert!(
                ok || solutions.is_empty(),
                "failure from {before:?} on {scope:?}"
            );
            for r in &solutions {
                for (&v, p) in scope.iter().zip(r.iter()) {
                    assert!(after[v].contains(p), "lost {p} of x{v}, in row {r:?}");
                }
            }
            if ok && scope.iter().all(|&v| after[v].len() == 1) {
                let fixed: Vec<usize> = scope.iter().map(|&v| after[v][0]).collect();
                assert!(
                    solutions.contains(&&fixed),
                    "accepted {fixed:?} on {scope:?}"
                );
            }
        }
        if ok {
            for (t, (scope, rows)) in tables.iter().zip(&case.tables) {
                let expected = rows_within(scope, rows, &after);
                let valid = t.valid_rows(st);
                if repeated {
                    assert!(
                        expected.iter().all(|r| valid.contains(r)),
                        "a row within the domains is invalid"
                    );
                } else {
                    assert_eq!(valid, expected, "valid rows of the table on {scope:?}");
                }
                t.check(st).unwrap();
            }
        }
        ok && after != before
    }

    /// Random table problems, propagated at the root (sometimes after a change before the first call) and along
    /// random dives of up to six levels, each undone level by level; every fixpoint checked by
    /// [`check_fixpoint`], every undo against the state saved before the level. The cases must have exercised
    /// both outcomes: more than 80 fixpoints that pruned and more than 50 that failed.
    fn compact_table_matches_the_reference<D: Domain>(seed: u64, wide: bool, repeated: bool) {
        let mut rng = Rng::new(seed);
        let (mut pruned, mut failed) = (0, 0);
        for _ in 0..250 {
            let case = random_case(&mut rng, wide, repeated);
            let p = &case.p;
            let tables: Vec<&super::Table> = p
                .constraints
                .iter()
                .map(|c| as_table(&**c).unwrap())
                .collect();
            let mut st = state_for::<D>(p);
            let mut prop = Propagator::new(
                &p.constraints,
                p.num_vars(),
                Propagation::ForwardChecking,
                false,
            );
            let mut stats = Stats::default();
            if rng.below(2) == 0 {
                random_change(&mut st, &mut rng);
            }
            let before = doms(&st);
            let ok = prop
                .root(&p.constraints, &p.values, &mut st, &mut stats)
                .is_ok();
            pruned += u32::from(check_fixpoint(&case, &tables, &st, &before, ok, repeated));
            if !ok {
                failed += 1;
                continue;
            }
            for _ in 0..3 {
                let mut saved = Vec::new();
                while saved.len() < 6 {
                    let here = snapshot(&st, &tables);
                    prop.push_level(&mut st);
                    saved.push(here);
                    if !random_change(&mut st, &mut rng) {
                        break;
                    }
                    let before = doms(&st);
                    let ok = prop
                        .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                        .is_ok();
                    pruned += u32::from(check_fixpoint(&case, &tables, &st, &before, ok, repeated));
                    if !ok {
                        failed += 1;
                        break;
                    }
                }
                while let Some(here) = saved.pop() {
                    prop.pop_level(&mut st);
                    assert_eq!(snapshot(&st, &tables), here, "undo");
                }
            }
        }
        assert!(
            pruned > 80 && failed > 50,
            "pruned {pruned}, failed {failed}"
        );
    }

    #[test]
    fn compact_table_keeps_exactly_the_supported_values_and_rows_at_every_level_and_undo_restores_them(
    ) {
        compact_table_matches_the_reference::<u64>(1, false, false);
    }

    #[test]
    fn compact_table_keeps_exactly_the_supported_values_and_rows_past_the_first_word() {
        compact_table_matches_the_reference::<WideDomain>(2, true, false);
    }

    #[test]
    fn a_table_on_a_repeated_variable_loses_no_solution_and_accepts_only_solutions() {
        compact_table_matches_the_reference::<u64>(3, false, true);
        compact_table_matches_the_reference::<WideDomain>(4, true, true);
    }

    /// The from-scratch check is the oracle of debug builds and of the tests above, so it must see each broken
    /// invariant: a wrong count of non-zero words, a zero word inside the sparse set's prefix, a row within the
    /// domains marked invalid, a row outside them marked valid (not an error with a repeated variable), a value
    /// left without a valid row. 70 rows (two words): row `r` is `(r % 7, r / 7)`, with `x0` also allowed 7,
    /// which no row uses.
    #[test]
    fn the_from_scratch_check_reports_each_broken_invariant_of_the_stored_rows() {
        let build = |repeated: bool| {
            let mut m = Model::new();
            let x = m.new_var(0, 7).unwrap();
            let y = m.new_var(0, 9).unwrap();
            let tuples: Vec<Vec<i64>> = (0..70).map(|r| vec![r % 7, r / 7]).collect();
            // A first table, so that the one checked has its words past the store's start.
            m.table(&[y], &[vec![1], vec![9]]).unwrap();
            if repeated {
                let pairs: Vec<Vec<i64>> = tuples.iter().map(|t| vec![t[0], t[1], t[0]]).collect();
                m.table(&[x, y, x], &pairs).unwrap();
            } else {
                m.table(&[x, y], &tuples).unwrap();
            }
            m.build().unwrap()
        };
        let p = build(false);
        let t = as_table(&*p.constraints[1]).unwrap();
        let fresh = state_for::<u64>(&p);
        // Before any call, every row is valid and x0 = 7 has none.
        assert_eq!(t.valid_rows(&fresh), (0..70).collect::<Vec<_>>());
        let err = t.check(&fresh).unwrap_err();
        assert!(err.contains("x0 keeps position 7"), "{err}");

        let mut st = fresh.clone();
        st.remove(0, 7).unwrap();
        // y keeps {1, 9}: rows 7..14 (word 0) and 63..70 (word 1).
        st.set_word(1, 0, (1 << 1) | (1 << 9)).unwrap();
        let mut prop = Propagator::new(&p.constraints, 2, Propagation::ForwardChecking, false);
        prop.root(&p.constraints, &p.values, &mut st, &mut Stats::default())
            .unwrap();
        let rows: Vec<usize> = (7..14).chain(63..70).collect();
        assert_eq!(t.valid_rows(&st), rows);
        t.check(&st).unwrap();
        let (vb, ib) = (t.base as usize + 2, t.free_base as usize);

        let mut bad = st.clone();
        bad.cstate.set_word(t.base as usize, 1);
        assert!(t.check(&bad).unwrap_err().contains("limit 1 but 2"));

        // y = 1: word 1 (rows 63..70) empties and leaves the prefix; swapping the index makes it the prefix.
        let mut one = st.clone();
        one.push_level();
        one.assign(1, 1).unwrap();
        prop.fixpoint(&p.constraints, &p.values, &mut one, &mut Stats::default())
            .unwrap();
        assert_eq!(t.valid_rows(&one), (7..14).collect::<Vec<_>>());
        t.check(&one).unwrap();
        let mut bad = one.clone();
        bad.cstate.free.swap(ib, ib + 1);
        assert!(t.check(&bad).unwrap_err().contains("zero word inside"));

        let mut bad = st.clone();
        bad.cstate
            .set_word(vb + 1, bad.cstate.word(vb + 1) & !(1 << 2));
        assert!(t.check(&bad).unwrap_err().contains("row 66 is within"));

        let mut bad = st.clone();
        bad.cstate.set_word(vb, bad.cstate.word(vb) | 1);
        assert!(t
            .check(&bad)
            .unwrap_err()
            .contains("15 rows marked valid but 14"));

        // With a repeated variable, extra valid rows are allowed; a missing one is not.
        let p = build(true);
        let t = as_table(&*p.constraints[1]).unwrap();
        let mut st = state_for::<u64>(&p);
        st.remove(0, 7).unwrap();
        st.set_word(1, 0, (1 << 1) | (1 << 9)).unwrap();
        let mut prop = Propagator::new(&p.constraints, 2, Propagation::ForwardChecking, false);
        prop.root(&p.constraints, &p.values, &mut st, &mut Stats::default())
            .unwrap();
        let vb = t.base as usize + 2;
        let mut extra = st.clone();
        extra.cstate.set_word(vb, extra.cstate.word(vb) | 1);
        t.check(&extra).unwrap();
        let mut bad = st.clone();
        bad.cstate
            .set_word(vb + 1, bad.cstate.word(vb + 1) & !(1 << 2));
        assert!(t.check(&bad).unwrap_err().contains("row 66 is within"));
    }

    /// The brute-force checker is the oracle of every other test, so it is checked against the tuples themselves:
    /// on random tables (some with a variable twice in the scope, some tuples outside the domains), every
    /// assignment of the scope's variables over their values and one value beyond each end is accepted exactly
    /// when the values it gives the scope, in scope order, are one of the posted tuples.
    #[test]
    fn is_satisfied_accepts_exactly_the_assignments_that_equal_a_posted_tuple() {
        let mut rng = Rng::new(5);
        let (mut accepted, mut refused) = (0, 0);
        for case in 0..120 {
            let case = random_case(&mut rng, false, case % 3 == 0);
            for (c, (scope, _)) in case.p.constraints.iter().zip(&case.tables) {
                let t = as_table(&**c).unwrap();
                let posted: std::collections::HashSet<&[i64]> =
                    t.tuples.chunks(scope.len()).collect();
                let mut distinct = scope.clone();
                distinct.sort_unstable();
                distinct.dedup();
                // Each distinct variable's candidates: its values, and one value past each end.
                let candidates: Vec<Vec<i64>> = distinct
                    .iter()
                    .map(|&v| {
                        let d = &case.vals[v];
                        let mut c = vec![d[0] - 1];
                        c.extend_from_slice(d);
                        c.push(d[d.len() - 1] + 1);
                        c
                    })
                    .collect();
                let mut at = vec![0; distinct.len()];
                loop {
                    let value_of = |v: u32| {
                        let k = distinct.binary_search(&(v as usize)).unwrap();
                        candidates[k][at[k]]
                    };
                    let tuple: Vec<i64> = scope.iter().map(|&v| value_of(v as u32)).collect();
                    let expected = posted.contains(tuple.as_slice());
                    assert_eq!(
                        c.is_satisfied(&value_of),
                        expected,
                        "{tuple:?} on {scope:?}"
                    );
                    accepted += u32::from(expected);
                    refused += u32::from(!expected);
                    let Some(k) = (0..at.len()).find(|&k| at[k] + 1 < candidates[k].len()) else {
                        break;
                    };
                    at[k] += 1;
                    at[..k].iter_mut().for_each(|a| *a = 0);
                }
            }
        }
        assert!(
            accepted > 500 && refused > 500,
            "{accepted} accepted, {refused} refused"
        );
    }

    /// What placing `t` in an empty store layout reserves: `u64` words, domain words, `u32` words, scratch words.
    fn reserved(t: &super::Table) -> (usize, usize, usize, usize) {
        let mut layout = crate::trailed::Layout::default();
        t.clone().place(&mut layout);
        (
            layout.words.len(),
            layout.doms,
            layout.free.len(),
            layout.tmp,
        )
    }

    /// A table on no variables holds exactly when it has a tuple (the empty one): propagation fails at the root
    /// without one, lets every value of the other variables through with one; the checker agrees. It reserves
    /// nothing in the trailed store.
    #[test]
    fn a_table_on_no_variables_holds_exactly_when_it_has_a_tuple_and_reserves_no_store_words() {
        use crate::{SearchConfig, Solver};
        for tuples in [0, 1, 2] {
            let mut m = Model::new();
            m.new_var(0, 2).unwrap();
            m.table(&[], &vec![Vec::new(); tuples]).unwrap();
            let p = m.build().unwrap();
            let t = as_table(&*p.constraints[0]).unwrap();
            assert_eq!(reserved(t), (0, 0, 0, 0));
            assert_eq!(p.constraints[0].is_satisfied(&|_| 0), tuples > 0);
            let mut st = state_for::<u64>(&p);
            assert_eq!(t.propagate(&mut st).is_ok(), tuples > 0);
            let counted = Solver::new(&p, SearchConfig::default()).count(&[], u64::MAX);
            assert_eq!(counted.count, if tuples > 0 { 3 } else { 0 });
        }
    }

    /// Before the first call every row is valid and nothing else: word `k` of `valid` holds rows `64k..64k + 64`
    /// that exist (a bit past the last row would be a row without supports kept forever), the limit counts the
    /// words, and the primed flag is clear until the first call sets it. Checked on the store's raw words, for row
    /// counts around word ends.
    #[test]
    fn the_valid_row_bitset_starts_with_one_bit_per_row_and_none_past_the_last() {
        for nrows in [1usize, 5, 63, 64, 65, 70, 127, 128, 130, 200] {
            let mut m = Model::new();
            let x = m.new_var(0, 255).unwrap();
            let tuples: Vec<Vec<i64>> = (0..nrows as i64).map(|r| vec![r]).collect();
            m.table(&[x], &tuples).unwrap();
            let p = m.build().unwrap();
            let t = as_table(&*p.constraints[0]).unwrap();
            let st = state_for::<WideDomain>(&p);
            let base = t.base as usize;
            let nw = nrows.div_ceil(64);
            assert_eq!(st.cstate.word(base), nw as u64, "limit for {nrows} rows");
            assert_eq!(st.cstate.word(base + 1), 0, "primed flag for {nrows} rows");
            for k in 0..nw {
                let rows = (nrows - 64 * k).min(64);
                let expected = if rows == 64 {
                    u64::MAX
                } else {
                    (1 << rows) - 1
                };
                assert_eq!(
                    st.cstate.word(base + 2 + k),
                    expected,
                    "word {k} of {nrows} rows"
                );
            }
            // The first call filters (x keeps exactly the values of the rows) and sets the flag.
            let mut st = st;
            t.propagate(&mut st).unwrap();
            assert_eq!(st.cstate.word(base + 1), 1, "primed flag after a call");
            assert_eq!(st.size(0), nrows as u32);
        }
    }

    /// A table whose supports would pass `MAX_SUPPORT_WORDS` (two variables of 4,096 values, 33,000 rows: 8,192
    /// x 516 words) scans its rows instead: it reserves nothing in the trailed store, and after each change it
    /// keeps exactly the values of the rows left within the domains, failing when none is.
    #[test]
    fn a_table_too_big_for_compact_table_reserves_no_store_words_and_keeps_exactly_the_supported_values(
    ) {
        let mut m = Model::new();
        let x = m.new_var(0, 4095).unwrap();
        let y = m.new_var(0, 4095).unwrap();
        let tuples: Vec<Vec<i64>> = (0..33_000i64)
            .map(|i| vec![i % 4096, (i * 37 + i / 4096) % 4096])
            .collect();
        m.table(&[x, y], &tuples).unwrap();
        let p = m.build().unwrap();
        let t = as_table(&*p.constraints[0]).unwrap();
        assert!(!t.compact);
        assert_eq!(reserved(t), (0, 0, 0, 0));
        let mut st = state_for::<WideDomain>(&p);
        let mut rng = Rng::new(6);
        let mut failed = false;
        while !failed {
            // Keep about half of x's values, then of y's, until a fixpoint fails or both are fixed.
            for v in 0..2u32 {
                let have: Vec<usize> = st.dom(v).iter().collect();
                if have.len() > 1 {
                    for p in have {
                        if rng.below(2) == 0 {
                            let _ = st.remove(v, p);
                        }
                    }
                }
            }
            let before = doms(&st);
            let live: Vec<&Vec<i64>> = tuples
                .iter()
                .filter(|t| (0..2).all(|i| before[i].contains(&(t[i] as usize))))
                .collect();
            let ok = t.propagate(&mut st).is_ok();
            assert_eq!(ok, !live.is_empty());
            failed = !ok;
            if ok {
                for i in 0..2 {
                    let mut expected: Vec<usize> = live.iter().map(|t| t[i] as usize).collect();
                    expected.sort_unstable();
                    expected.dedup();
                    assert_eq!(doms(&st)[i], expected);
                }
                if (0..2u32).all(|v| st.is_fixed(v)) {
                    break;
                }
            }
        }
    }

    /// What the engine reads from a table besides its filtering: name, scope (a repeated variable kept twice),
    /// cost class, and one scratch domain per scope position for the row-scan fallback.
    #[test]
    fn a_table_reports_its_name_scope_cost_and_scratch() {
        use crate::constraints::Cost;
        let mut m = Model::new();
        let x: Vec<_> = (0..3).map(|_| m.new_var(0, 2).unwrap()).collect();
        m.table(&[x[2], x[0]], &[vec![0, 1]]).unwrap();
        m.table(&[x[1], x[1], x[0]], &[vec![2, 2, 0]]).unwrap();
        let p = m.build().unwrap();
        let c = &p.constraints;
        let got: Vec<(&str, Vec<u32>, Cost, usize)> = c
            .iter()
            .map(|c| (c.name(), c.vars().to_vec(), c.cost(), c.scratch()))
            .collect();
        assert_eq!(
            got,
            [
                ("table", vec![2, 0], Cost::Expensive, 2),
                ("table", vec![1, 1, 0], Cost::Expensive, 3)
            ]
        );
        assert_eq!(p.max_table_arity, 3);
    }
}
