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
    use crate::model::Model;
    use crate::propagate::{Propagation, Propagator};
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
}
