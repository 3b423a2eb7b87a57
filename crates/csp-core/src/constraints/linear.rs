//! `linear`: `sum a_i x_i (<= | = | >= | !=) rhs`, with bounds propagation.
//!
//! Every inequality is stored as one or two "at most" views `sum b_i x_i <= r` (`>=` negates, `=` keeps both);
//! `!=` waits until one term is open and removes the one value that would complete the sum.
//! For a view, `L = sum of the smallest term values`; `L > r` fails, and each term may grow by at most `r - L`, which
//! bounds its variable from above (`b > 0`) or below (`b < 0`). The model rejects posts whose extreme sums overflow
//! `i64`, so this arithmetic cannot overflow.
//!
//! # Fixed terms leave the sum; one scan per call (`<=`, `>=`, `=`)
//! The engine does not say which terms changed since the last call (no per-variable advisor), so a trailed sum of
//! every term's bounds would need the same scan to find what to update. What does not need it: a fixed term stays
//! fixed down the branch. [`Linear`] keeps, in the trailed store ([`crate::trailed`]), `open` and `fixed_sum`,
//! and in the untrailed area a permutation `perm` of the term indexes (a sparse set, as `count` and `table` do):
//! - `perm[..open]` holds every term whose variable is not fixed (and possibly fixed ones not yet seen);
//! - `perm[open..]` holds only fixed terms, and `fixed_sum` = the sum of their values (`a_i * x_i`).
//!
//! A call scans `perm[..open]` once, moving newly fixed terms out (into `fixed_sum`) and summing, for the others,
//! the smallest and the largest term value and the widest term range `|a_i| (max x_i - min x_i)`. A view
//! `sum b_i x_i <= r` with slack `s = r - L` prunes term `i` exactly when its range exceeds `s` (the new bound
//! `min + floor(s / |b|)` is below the old one iff `s < |b| (max - min)`), so when the widest range is at most
//! `s` the view removes nothing and the second pass is skipped; otherwise only the terms whose range exceeds `s`
//! are narrowed (in term order, see [`Linear::narrow`]). An `=` checks its `<=` view from the scan and its `>=` view from the same scan unless the first
//! view narrowed something (then it rescans, as the two views did one after the other before). The narrowings
//! and their order are those of the two-pass rule this replaces, so search trees are unchanged (node counts equal
//! before and after on every measured model); the figures are in `docs/measurements.md` ("count and linear
//! incremental"). Debug builds compare `fixed_sum` with a rescan.

use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::trailed::Layout;
use crate::values::Values;

/// Comparison of a linear constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `sum == rhs`.
    Eq,
    /// `sum <= rhs`.
    Le,
    /// `sum >= rhs`.
    Ge,
    /// `sum != rhs`.
    Ne,
}

impl Relation {
    /// The relation that holds exactly when this one does not.
    pub fn negated(self) -> Self {
        match self {
            Relation::Eq => Relation::Ne,
            Relation::Ne => Relation::Eq,
            // not (s <= r) = s >= r + 1 and the reverse: handled by `rhs_of_negation`.
            Relation::Le => Relation::Ge,
            Relation::Ge => Relation::Le,
        }
    }

    /// The right-hand side of the negation of `sum rel rhs` (`i128`: `rhs + 1` may leave `i64`).
    pub fn rhs_of_negation(self, rhs: i128) -> i128 {
        match self {
            Relation::Eq | Relation::Ne => rhs,
            Relation::Le => rhs + 1,
            Relation::Ge => rhs - 1,
        }
    }

    /// `sum rel rhs` on numbers.
    pub fn holds(self, sum: i128, rhs: i128) -> bool {
        match self {
            Relation::Eq => sum == rhs,
            Relation::Ne => sum != rhs,
            Relation::Le => sum <= rhs,
            Relation::Ge => sum >= rhs,
        }
    }
}

/// A linear (in)equality.
#[derive(Clone, Debug)]
pub struct Linear {
    /// Scope (one entry per term).
    pub vars: Vec<u32>,
    /// Coefficients as posted (zero coefficients dropped).
    pub coefs: Vec<i64>,
    /// The relation.
    pub rel: Relation,
    /// Right-hand side.
    pub rhs: i64,
    /// "At most" views: coefficient signs (`+1` as posted, `-1` negated) with their bound.
    views: Vec<(i64, i64)>,
    /// `!=` over some interval variable: the value to remove from the last open term can only go once it is one of
    /// its bounds, so the rule wakes on bounds changes, not only on assignments.
    wake_on_bounds: bool,
    /// Index of the trailed word `open` (`fixed_sum` is the next one); see the module docs.
    base: u32,
    /// Index of `perm[0]` in the untrailed area.
    perm_base: u32,
    /// True once [`super::Constraint::place`] reserved the words (`<=`, `>=`, `=` only; a state without them
    /// scans every term on every call).
    placed: bool,
}

/// What one scan of the open terms gives: sums of the smallest and largest term values (fixed terms included) and
/// the widest open term range, all for the constraint as posted (sign `+1`).
#[derive(Clone, Copy, Debug)]
struct Scan {
    /// `sum min(a_i x_i)`.
    low: i64,
    /// `sum max(a_i x_i)`.
    high: i64,
    /// `max |a_i| (max x_i - min x_i)` over the open terms (`u64`: one term's range may exceed `i64` when the
    /// model's overflow check only bounds `sum |a_i| max |x_i|`).
    widest: u64,
}

impl Linear {
    /// Builds the constraint; the caller has checked overflow.
    pub fn new(vars: Vec<u32>, coefs: Vec<i64>, rel: Relation, rhs: i64) -> Self {
        let views = match rel {
            Relation::Le => vec![(1, rhs)],
            Relation::Ge => vec![(-1, -rhs)],
            Relation::Eq => vec![(1, rhs), (-1, -rhs)],
            Relation::Ne => Vec::new(),
        };
        Self {
            vars,
            coefs,
            rel,
            rhs,
            views,
            wake_on_bounds: false,
            base: 0,
            perm_base: 0,
            placed: false,
        }
    }

    /// The same constraint, woken by bounds changes even for `!=` (the model sets it when a term is an interval).
    pub fn waking_on_bounds(mut self) -> Self {
        self.wake_on_bounds = true;
        self
    }

    /// Brute force.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let sum: i128 = self
            .vars
            .iter()
            .zip(&self.coefs)
            .map(|(&v, &a)| a as i128 * value_of(v) as i128)
            .sum();
        self.rel.holds(sum, self.rhs as i128)
    }

    /// Bounds propagation on every view (see the module docs).
    pub fn propagate<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        if self.rel == Relation::Ne {
            return not_equal(st, values, &self.vars, &self.coefs, self.rhs as i128);
        }
        let mut scan = Some(self.scan(st, values));
        for (k, &(sign, r)) in self.views.iter().enumerate() {
            if k > 0 && scan.is_none() {
                scan = Some(self.scan(st, values));
            }
            let Some(sc) = scan else {
                continue;
            };
            let low = if sign > 0 { sc.low } else { -sc.high };
            if low > r {
                return Err(st.conflict());
            }
            // `r - low` fits: `|r| + sum |a_i x_i|` does (the model's check), and it is >= 0 here.
            if sc.widest > (r - low) as u64 {
                self.narrow(st, values, sign, r - low)?;
                // The next view's sums are stale now.
                scan = None;
            }
        }
        Ok(())
    }

    /// True when this state holds the words [`super::Constraint::place`] reserved.
    #[inline]
    fn in_store<D: Domain>(&self, st: &State<D>) -> bool {
        self.placed
            && st.cstate.words_len() >= self.base as usize + 2
            && st.cstate.free.len() >= self.perm_base as usize + self.vars.len()
    }

    /// Smallest and largest value of term `k`, `(a x_min, a x_max)` sorted.
    #[inline(always)]
    fn term_range<D: Domain>(&self, st: &State<D>, values: &[Values], k: usize) -> (i64, i64) {
        let (v, a) = (self.vars[k], self.coefs[k]);
        let vals = &values[v as usize];
        let (x, y) = (a * vals.value(st.min_pos(v)), a * vals.value(st.max_pos(v)));
        if a > 0 {
            (x, y)
        } else {
            (y, x)
        }
    }

    /// One pass over the open terms: moves the newly fixed ones into `fixed_sum` (see the module docs) and sums
    /// the others' bounds. Every term when the state holds no words for this constraint.
    fn scan<D: Domain>(&self, st: &mut State<D>, values: &[Values]) -> Scan {
        let n = self.vars.len();
        let mut sc = Scan {
            low: 0,
            high: 0,
            widest: 0,
        };
        if !self.in_store(st) {
            for k in 0..n {
                let (lo, hi) = self.term_range(st, values, k);
                sc.low += lo;
                sc.high += hi;
                sc.widest = sc.widest.max(hi.abs_diff(lo));
            }
            return sc;
        }
        let (base, pb) = (self.base as usize, self.perm_base as usize);
        let open0 = (st.cstate.word(base) as usize).min(n);
        let fixed0 = st.cstate.word(base + 1) as i64;
        let (mut open, mut fixed) = (open0, fixed0);
        let mut i = 0;
        while i < open {
            let k = st.cstate.free[pb + i] as usize;
            if k >= n {
                // Unreachable (perm is a permutation of the term indexes); keep it harmless.
                i += 1;
                continue;
            }
            let (lo, hi) = self.term_range(st, values, k);
            if lo == hi {
                fixed += lo;
                open -= 1;
                st.cstate.free.swap(pb + i, pb + open);
                continue;
            }
            sc.low += lo;
            sc.high += hi;
            sc.widest = sc.widest.max(hi.abs_diff(lo));
            i += 1;
        }
        if open != open0 {
            st.cstate.set_word(base, open as u64);
        }
        if fixed != fixed0 {
            st.cstate.set_word(base + 1, fixed as u64);
        }
        sc.low += fixed;
        sc.high += fixed;
        debug_assert_eq!(
            fixed,
            (0..n)
                .filter(|&k| {
                    let p = st.cstate.free[pb..pb + n]
                        .iter()
                        .position(|&j| j as usize == k);
                    p.is_some_and(|p| p >= open)
                })
                .map(|k| self.term_range(st, values, k).0)
                .sum::<i64>(),
            "linear: trailed fixed sum differs from a rescan"
        );
        sc
    }

    /// The second pass of view `sum (sign a_i) x_i <= r` with slack `slack = r - L >= 0`: narrows the terms whose
    /// range exceeds the slack (the others cannot lose a value), in term order. Term order, not the order of the
    /// open prefix (which swaps permute): the narrowings then queue their events as the two-pass rule did, so the
    /// scheduler, the failing constraint that dom/wdeg blames and so the search tree stay the same.
    fn narrow<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
        sign: i64,
        slack: i64,
    ) -> Result<(), Conflict> {
        for k in 0..self.vars.len() {
            let (lo, hi) = self.term_range(st, values, k);
            if hi.abs_diff(lo) <= slack as u64 {
                continue;
            }
            let (v, b) = (self.vars[k], sign * self.coefs[k]);
            let vals = &values[v as usize];
            // The term `b x` may grow from its smallest value by at most `slack`.
            let term_min = if sign > 0 { lo } else { -hi };
            let cap = slack + term_min;
            if b > 0 {
                let max = cap.div_euclid(b);
                st.restrict(v, 0, vals.count_le(max))?;
            } else {
                let min = -(cap.div_euclid(-b));
                st.restrict(v, vals.first_index_ge(min), vals.width())?;
            }
        }
        Ok(())
    }
}

/// `sum a_i x_i != rhs`: with every term but one fixed, removes the value that would complete the sum; with every
/// term fixed, fails on equality.
pub(crate) fn not_equal<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    vars: &[u32],
    coefs: &[i64],
    rhs: i128,
) -> Result<(), Conflict> {
    let mut open = None;
    let mut sum: i128 = 0;
    for (k, &v) in vars.iter().enumerate() {
        if st.is_fixed(v) {
            sum += coefs[k] as i128 * super::util::lo(st, values, v) as i128;
        } else if open.is_some() {
            return Ok(());
        } else {
            open = Some(k);
        }
    }
    match open {
        None if sum == rhs => Err(st.conflict()),
        None => Ok(()),
        Some(k) => {
            let rest = rhs - sum;
            let a = coefs[k] as i128;
            if rest % a == 0 {
                super::util::remove_value(st, values, vars[k], rest / a)?;
            }
            Ok(())
        }
    }
}

/// Enforces `sum a_i x_i rel rhs` once (bounds for `<=`, `>=`, `=`; the last open term for `!=`), for the
/// reified forms. `rhs` is `i128` because a negated relation moves it by one.
pub(crate) fn enforce<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    vars: &[u32],
    coefs: &[i64],
    rel: Relation,
    rhs: i128,
) -> Result<(), Conflict> {
    let at_most = |st: &mut State<D>, sign: i128, r: i128| -> Result<(), Conflict> {
        let mut low: i128 = 0;
        for (&v, &a) in vars.iter().zip(coefs) {
            low += term_min(st, values, sign * a as i128, v);
        }
        if low > r {
            return Err(st.conflict());
        }
        for (&v, &a) in vars.iter().zip(coefs) {
            let b = sign * a as i128;
            let cap = r - (low - term_min(st, values, b, v));
            if b > 0 {
                super::util::set_max(st, values, v, cap.div_euclid(b))?;
            } else {
                super::util::set_min(st, values, v, -(cap.div_euclid(-b)))?;
            }
        }
        Ok(())
    };
    match rel {
        Relation::Le => at_most(st, 1, rhs),
        Relation::Ge => at_most(st, -1, -rhs),
        Relation::Eq => {
            at_most(st, 1, rhs)?;
            at_most(st, -1, -rhs)
        }
        Relation::Ne => not_equal(st, values, vars, coefs, rhs),
    }
}

/// Smallest value of the term `b * x`.
fn term_min<D: Domain>(st: &State<D>, values: &[Values], b: i128, v: u32) -> i128 {
    if b > 0 {
        b * super::util::lo(st, values, v) as i128
    } else {
        b * super::util::hi(st, values, v) as i128
    }
}

/// Smallest and largest value of `sum a_i x_i` over the current bounds.
pub(crate) fn sum_bounds<D: Domain>(
    st: &State<D>,
    values: &[Values],
    vars: &[u32],
    coefs: &[i64],
) -> (i128, i128) {
    let (mut lo, mut hi) = (0i128, 0i128);
    for (&v, &a) in vars.iter().zip(coefs) {
        lo += term_min(st, values, a as i128, v);
        hi -= term_min(st, values, -(a as i128), v);
    }
    (lo, hi)
}

impl super::Constraint for Linear {
    fn name(&self) -> &'static str {
        "linear"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        Linear::is_satisfied(self, value_of)
    }
    fn trigger(&self, _level: super::Propagation) -> Option<super::Trigger> {
        Some(if self.rel == Relation::Ne && !self.wake_on_bounds {
            super::Trigger::Fixed
        } else {
            super::Trigger::Bounds
        })
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
    fn place(&mut self, layout: &mut Layout) {
        if self.rel == Relation::Ne {
            return;
        }
        let n = self.vars.len();
        self.base = layout.words.len() as u32;
        layout.words.push(n as u64);
        layout.words.push(0);
        self.perm_base = layout.free.len() as u32;
        layout.free.extend(0..n as u32);
        self.placed = true;
    }
}

impl<D: Domain> super::Propagate<D> for Linear {
    #[inline]
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        Linear::propagate(self, st, values)
    }
}
