//! Two watched literals per clause (MiniSat's watch lists), for the Boolean clauses of a problem from forward
//! checking up.
//!
//! A literal is coded `2 v + neg`: `neg = 1` for `not v`. It is false once `v` is fixed and `(value != 0) == neg`,
//! true once fixed the other way, open while `v` is not fixed. Each clause keeps its two watched literals in its
//! first two slots; `watches[l]` lists the clauses watching literal `l`. When `v` becomes fixed, only the clauses
//! watching its literal that just became false are visited: the false watch moves to another literal that is not
//! false, or, when none is left, the other watch is set true (unit) or the clause fails. Watches are not undone on
//! backtrack (the invariant "a false watch has a true partner" only breaks under assignments that a backtrack
//! removes), so undo costs nothing. `init` places them on the state at the root, after the assumptions, and
//! propagates there the clauses with fewer than two literals left (the clause's own scan would not: it counts a
//! repeated variable as two open literals).
//!
//! Before (2026-11-25) every clause was scheduled on each assignment of any of its variables and scanned all its
//! literals; measured figures in `docs/measurements.md` (section "Watched literals for clauses").

use crate::constraints::{set_value, Clause};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// The watched clauses of one solver.
#[derive(Clone, Debug, Default)]
pub(super) struct Watched {
    /// Literals of every clause, clause after clause; a clause's two watches are its first two literals.
    lits: Vec<u32>,
    /// `start[k]..start[k + 1]` = the literals of clause `k` (sorted, no repeats, no tautology).
    start: Vec<u32>,
    /// `constraint[k]` = index of clause `k` among the problem's constraints (blamed for its conflicts).
    constraint: Vec<u32>,
    /// `watches[l]` = the clauses watching literal `l` (two entries per clause of two or more literals).
    watches: Vec<Vec<u32>>,
}

/// Truth of literal `l` on `st`: `Some(true)` / `Some(false)` once its variable is fixed, `None` while open.
#[inline]
fn truth<D: Domain>(st: &State<D>, values: &[Values], l: u32) -> Option<bool> {
    let v = l >> 1;
    if !st.is_fixed(v) {
        return None;
    }
    let set = values[v as usize].value(st.min_pos(v)) != 0;
    Some(set != (l & 1 == 1))
}

impl Watched {
    /// Collects `clause` (constraint `c`) over `num_vars` variables; `false` when it is a tautology (`x or not
    /// x`), which needs no propagation at all.
    pub(super) fn add(&mut self, c: u32, clause: &Clause, num_vars: usize) -> bool {
        if self.watches.is_empty() {
            self.watches = vec![Vec::new(); 2 * num_vars];
            self.start.push(0);
        }
        let from = self.lits.len();
        self.lits.extend(
            clause
                .literals()
                .map(|(v, positive)| 2 * v + u32::from(!positive)),
        );
        self.lits[from..].sort_unstable();
        let mut k = from;
        for i in from..self.lits.len() {
            if k > from && self.lits[k - 1] == self.lits[i] {
                continue;
            }
            if k > from && self.lits[k - 1] >> 1 == self.lits[i] >> 1 {
                self.lits.truncate(from);
                return false;
            }
            self.lits[k] = self.lits[i];
            k += 1;
        }
        self.lits.truncate(k);
        self.start.push(self.lits.len() as u32);
        self.constraint.push(c);
        true
    }

    /// Number of clauses.
    pub(super) fn len(&self) -> usize {
        self.constraint.len()
    }

    /// Places every clause's watches on two literals that are not false on `st` (a true one first when there is
    /// one), and propagates the clauses that have fewer than two such literals: the one left is set true, none
    /// left is a conflict (blaming the clause). Called at the root, before its fixpoint.
    pub(super) fn init<D: Domain>(
        &mut self,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        for w in &mut self.watches {
            w.clear();
        }
        for k in 0..self.len() {
            let (s, e) = (self.start[k] as usize, self.start[k + 1] as usize);
            let lits = &mut self.lits[s..e];
            // Non-false literals to the front, true ones first.
            let rank = |l: u32| match truth(st, values, l) {
                Some(true) => 0,
                None => 1,
                Some(false) => 2,
            };
            lits.sort_by_key(|&l| rank(l));
            let open = lits.iter().filter(|&&l| rank(l) < 2).count();
            let satisfied = lits.first().is_some_and(|&l| rank(l) == 0);
            if lits.len() >= 2 {
                self.watches[lits[0] as usize].push(k as u32);
                self.watches[lits[1] as usize].push(k as u32);
            }
            if !satisfied && open < 2 {
                st.blame = self.constraint[k];
                match lits.first() {
                    Some(&l) if open == 1 => set_value(st, values, l >> 1, i128::from(l & 1 == 0))?,
                    _ => return Err(st.conflict()),
                }
            }
        }
        Ok(())
    }

    /// `v` was just fixed: visits the clauses watching its literal that became false. On a conflict, blames
    /// the clause (through `st.blame`) and returns it.
    pub(super) fn wake<D: Domain>(
        &mut self,
        v: u32,
        st: &mut State<D>,
        values: &[Values],
        visits: &mut u64,
    ) -> Result<(), Conflict> {
        if !st.is_fixed(v) {
            return Ok(());
        }
        let set = values[v as usize].value(st.min_pos(v)) != 0;
        let falsified = 2 * v + u32::from(set);
        let mut list = std::mem::take(&mut self.watches[falsified as usize]);
        let mut i = 0;
        let mut result = Ok(());
        while i < list.len() {
            let k = list[i] as usize;
            *visits += 1;
            let s = self.start[k] as usize;
            let e = self.start[k + 1] as usize;
            if self.lits[s] == falsified {
                self.lits.swap(s, s + 1);
            }
            let other = self.lits[s];
            if truth(st, values, other) == Some(true) {
                i += 1;
                continue;
            }
            let replacement = (s + 2..e).find(|&j| truth(st, values, self.lits[j]) != Some(false));
            if let Some(j) = replacement {
                self.lits.swap(s + 1, j);
                let l = self.lits[s + 1];
                self.watches[l as usize].push(k as u32);
                list.swap_remove(i);
                continue;
            }
            i += 1;
            st.blame = self.constraint[k];
            // Unit: the other watch must be true (a conflict when it is false already).
            let r = match truth(st, values, other) {
                Some(false) => Err(st.conflict()),
                _ => set_value(st, values, other >> 1, i128::from(other & 1 == 0)),
            };
            if r.is_err() {
                result = r;
                break;
            }
        }
        self.watches[falsified as usize] = list;
        result
    }
}
