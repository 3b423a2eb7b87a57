//! Arithmetic `z = f(x, y)`: product, division and remainder rounding toward zero (MiniZinc's `div` / `mod`),
//! small powers, and absolute value (`z = |x|`, `y` unused).
//!
//! Propagation: while `|dom x| * |dom y| <= ENUMERATION_LIMIT`, domain consistency by enumerating the pairs (every
//! value of `x`, `y` and `z` keeps a supporting pair); above it (or on an interval), the bounds of `z` from the
//! bounds of `x` and `y` (corner and sign-change points, which bound every operation here: `*` and `min`/`max` are
//! monotone per argument on each sign side, truncating division too once `y = 0` is excluded), then the other way
//! (`Arith::narrow_operands`): `x` and `y` of a product from `z`, the dividend and the divisor of a division (the
//! divisor exactly on bounds, by bisection over each sign piece), the dividend and the divisor of a remainder
//! (MiniZinc's `mod`: the sign of the dividend, smaller in magnitude than the divisor), the base of a power with a
//! fixed exponent, the argument of `abs`. Each narrowing helper is checked against brute force on every small
//! range in this file's tests, and the propagator as a whole by the soundness suite on random interval scopes.
//! Both directions are sound; both fail a ground scope exactly when the checker does, since fixed `x` and `y` pin
//! `z` to `f(x, y)`. All of it is `i128` on `i64` bounds: no product overflows.
//!
//! Undefined points have no support: `y = 0` for `div` and `mod`, a negative exponent for `pow` (MiniZinc makes
//! those undefined; in a relational semantics the constraint is false there). All arithmetic is `i128`; the model
//! rejects posts whose extreme results do not fit `i64`.

use super::util::{hi, lo, remove_value, set_max, set_min};
use super::{Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// Pairs enumerated per propagation before falling back to bounds.
const ENUMERATION_LIMIT: u64 = 4096;

/// The operation `f` of `z = f(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// `z = x * y`.
    Times,
    /// `z = x div y`, rounding toward zero; undefined for `y = 0`.
    Div,
    /// `z = x mod y = x - y * (x div y)` (sign of `x`); undefined for `y = 0`.
    Mod,
    /// `z = x ^ y` for `y >= 0` (`0 ^ 0 = 1`); undefined for `y < 0`.
    Pow,
    /// `z = |x|` (the second operand is ignored).
    Abs,
}

impl ArithOp {
    /// `f(a, b)`, `None` where undefined or beyond `i128`.
    pub fn eval(self, a: i64, b: i64) -> Option<i128> {
        let (a, b) = (a as i128, b as i128);
        match self {
            ArithOp::Times => Some(a * b),
            ArithOp::Div => (b != 0).then(|| a / b),
            ArithOp::Mod => (b != 0).then(|| a % b),
            ArithOp::Pow => {
                let e = u32::try_from(b).ok()?;
                a.checked_pow(e)
            }
            ArithOp::Abs => Some(a.abs()),
        }
    }

    fn name(self) -> &'static str {
        match self {
            ArithOp::Times => "times",
            ArithOp::Div => "div",
            ArithOp::Mod => "mod",
            ArithOp::Pow => "pow",
            ArithOp::Abs => "abs",
        }
    }
}

/// `z = op(x, y)`: `vars = [x, y, z]` (`[x, z]` for `Abs`).
#[derive(Clone, Debug)]
pub struct Arith {
    vars: Vec<u32>,
    op: ArithOp,
}

impl Arith {
    /// `z = op(x, y)`; for [`ArithOp::Abs`] pass `y = None`. The caller checked overflow and constant zero divisors.
    pub fn new(op: ArithOp, x: u32, y: Option<u32>, z: u32) -> Self {
        let vars = match y {
            Some(y) if op != ArithOp::Abs => vec![x, y, z],
            _ => vec![x, z],
        };
        Self { vars, op }
    }

    fn xyz(&self) -> (u32, Option<u32>, u32) {
        match self.vars[..] {
            [x, y, z] => (x, Some(y), z),
            [x, z] => (x, None, z),
            _ => unreachable!("arith scopes have two or three variables"),
        }
    }

    /// Domain consistency by enumerating the pairs of `x` and `y`.
    fn enumerate<D: Domain>(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let (x, y, z) = self.xyz();
        let (vx, vz) = (&values[x as usize], &values[z as usize]);
        let mut sx = st.dom(x).clone();
        sx.clear();
        let mut sz = st.dom(z).clone();
        sz.clear();
        let mut sy = y.map(|y| {
            let mut d = st.dom(y).clone();
            d.clear();
            d
        });
        for px in st.dom(x).iter() {
            let a = vx.value(px);
            let mut each = |py: Option<usize>, b: i64, sy: &mut Option<D>| {
                if let Some(r) = self.op.eval(a, b) {
                    if let Some(pz) = i64::try_from(r).ok().and_then(|r| vz.index_of(r)) {
                        if st.dom(z).contains(pz) {
                            sx.insert(px);
                            sz.insert(pz);
                            if let (Some(py), Some(sy)) = (py, sy.as_mut()) {
                                sy.insert(py);
                            }
                        }
                    }
                }
            };
            match y {
                Some(y) => {
                    for py in st.dom(y).iter() {
                        each(Some(py), values[y as usize].value(py), &mut sy);
                    }
                }
                None => each(None, 0, &mut sy),
            }
        }
        intersect(st, x, &sx)?;
        if let (Some(y), Some(sy)) = (y, sy) {
            intersect(st, y, &sy)?;
        }
        intersect(st, z, &sz)
    }

    /// Bounds of `z` from the bounds of `x` and `y`.
    fn bounds<D: Domain>(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let (x, y, z) = self.xyz();
        let (xl, xh) = (lo(st, values, x), hi(st, values, x));
        let (yl, yh) = y.map_or((0, 0), |y| (lo(st, values, y), hi(st, values, y)));
        if xl == xh && yl == yh {
            // Fixed operands: the exact result (complete on ground scopes, including `x mod 0` / `x div 0`).
            return match self.op.eval(xl, yl) {
                Some(r) => {
                    set_min(st, values, z, r)?;
                    set_max(st, values, z, r)
                }
                None => Err(st.conflict()),
            };
        }
        let (zl, zh) = match self.op {
            ArithOp::Mod => {
                let m = (xl as i128).abs().max((xh as i128).abs());
                let m = m.min((yl as i128).abs().max((yh as i128).abs()) - 1);
                (if xl < 0 { -m } else { 0 }, if xh > 0 { m } else { 0 })
            }
            ArithOp::Pow => {
                let base = (xl as i128).abs().max((xh as i128).abs());
                let e = u32::try_from(yh.max(0)).unwrap_or(u32::MAX);
                let m = base.checked_pow(e).unwrap_or(i128::MAX).max(1);
                (if xl >= 0 { 0 } else { -m }, m)
            }
            _ => {
                let pts = |l: i64, h: i64| {
                    let mut p = vec![l, h];
                    p.extend([-1, 0, 1].into_iter().filter(|&c| l < c && c < h));
                    p
                };
                let (px, py) = (pts(xl, xh), pts(yl, yh));
                let mut r: Option<(i128, i128)> = None;
                for &a in &px {
                    for &b in &py {
                        if let Some(v) = self.op.eval(a, b) {
                            r = Some(r.map_or((v, v), |(l, h)| (l.min(v), h.max(v))));
                        }
                    }
                }
                match r {
                    Some(r) => r,
                    None => return Err(st.conflict()),
                }
            }
        };
        set_min(st, values, z, zl)?;
        set_max(st, values, z, zh)?;
        self.narrow_operands(st, values)
    }

    /// The other way: bounds of `x` (and of `y` for `*`, `div` and `mod`) from those of `z` and the other operand.
    /// `x * y = z`: `x` within `z / y` over the nonzero values of `y` (nothing when `y` and `z` may both be 0);
    /// `x div y = z`: the dividends whose truncated quotient lies in `z`, then the nonzero divisors for which some
    /// dividend left gives a quotient in `z` ([`divisor_bounds`], exact on bounds); `x mod y = z`: `z = x` when
    /// every `|x|` is below every `|y|`, the dividend on `z`'s side of 0 and at least as far from it
    /// ([`remainder_dividend_bounds`]), the divisor farther from 0 than the nearest `z`
    /// ([`remainder_divisor_bounds`]); both drop a divisor 0. `x ^ e = z` for a fixed `e >= 1`: the roots of
    /// `z`'s bounds; `|x| = z`: `-max z <= x <= max z`.
    fn narrow_operands<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        let (x, y, z) = self.xyz();
        let b = |st: &State<D>, v: u32| (lo(st, values, v) as i128, hi(st, values, v) as i128);
        let (zl, zh) = b(st, z);
        let Some(y) = y else {
            // |x| = z.
            set_min(st, values, x, -zh)?;
            return set_max(st, values, x, zh);
        };
        match self.op {
            ArithOp::Times => {
                let (yl, yh) = b(st, y);
                clamp(st, values, x, factor_bounds(yl, yh, zl, zh))?;
                let (xl, xh) = b(st, x);
                clamp(st, values, y, factor_bounds(xl, xh, zl, zh))
            }
            ArithOp::Div => {
                let (yl, yh) = b(st, y);
                clamp(st, values, x, dividend_bounds(yl, yh, zl, zh))?;
                let (xl, xh) = b(st, x);
                match divisor_bounds((xl, xh), (yl, yh), (zl, zh)) {
                    Some(r) => {
                        clamp(st, values, y, Some(r))?;
                        remove_value(st, values, y, 0)
                    }
                    None => Err(st.conflict()),
                }
            }
            ArithOp::Mod => {
                let ((xl, xh), (yl, yh)) = (b(st, x), b(st, y));
                // Every |x| below every |y|: x mod y = x.
                let y_min_abs = if yl <= 0 && 0 <= yh {
                    1
                } else {
                    yl.abs().min(yh.abs())
                };
                if xl.abs().max(xh.abs()) < y_min_abs {
                    clamp(st, values, x, Some((zl, zh)))?;
                    let (xl, xh) = b(st, x);
                    clamp(st, values, z, Some((xl, xh)))?;
                }
                let (zl, zh) = b(st, z);
                clamp(st, values, x, remainder_dividend_bounds(zl, zh))?;
                let (yl, yh) = b(st, y);
                clamp(st, values, y, remainder_divisor_bounds(yl, yh, zl, zh))?;
                remove_value(st, values, y, 0)
            }
            ArithOp::Pow => {
                let (yl, yh) = b(st, y);
                let Some(e) = u32::try_from(yl).ok().filter(|&e| yl == yh && e >= 1) else {
                    return Ok(());
                };
                match base_bounds(e, zl, zh) {
                    Some(r) => clamp(st, values, x, Some(r)),
                    None => Err(st.conflict()),
                }
            }
            ArithOp::Abs => Ok(()),
        }
    }
}

/// Narrows `v` to `[l, h]` when given.
fn clamp<D: Domain>(
    st: &mut State<D>,
    values: &[Values],
    v: u32,
    r: Option<(i128, i128)>,
) -> Result<(), Conflict> {
    match r {
        Some((l, h)) => {
            set_min(st, values, v, l)?;
            set_max(st, values, v, h)
        }
        None => Ok(()),
    }
}

/// `floor(a / b)` (`b != 0`).
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `ceil(a / b)` (`b != 0`).
fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

/// The pieces `[l, -1]` and `[1, h]` of `[l, h]` without 0 (each `None` when empty).
fn nonzero_pieces(l: i128, h: i128) -> [Option<(i128, i128)>; 2] {
    [
        (l <= -1).then(|| (l, h.min(-1))),
        (h >= 1).then(|| (l.max(1), h)),
    ]
}

/// Bounds of `x` with `x * y = z`, `y` in `[yl, yh]`, `z` in `[zl, zh]`: the integers between the extreme real `z / y`
/// (`y != 0`; not always reached unless `y` is fixed); `None` when `y` and `z` may both be 0 or `y` is only 0.
fn factor_bounds(yl: i128, yh: i128, zl: i128, zh: i128) -> Option<(i128, i128)> {
    if yl <= 0 && 0 <= yh && zl <= 0 && 0 <= zh {
        return None;
    }
    // y = 0 would need z = 0, which is out: x = z / y over the nonzero pieces of y, where z / y is monotone in
    // each argument, so the corners bound it.
    let mut r: Option<(i128, i128)> = None;
    for (a, b) in nonzero_pieces(yl, yh).into_iter().flatten() {
        for y in [a, b] {
            for z in [zl, zh] {
                let (l, h) = (ceil_div(z, y), floor_div(z, y));
                r = Some(r.map_or((l, h), |(rl, rh)| (rl.min(l), rh.max(h))));
            }
        }
    }
    r
}

/// Bounds of `x` with `x div y = z` (truncating) for `y` in `[yl, yh]` (0 excluded) and `z` in `[zl, zh]`. For
/// `y > 0`: `x` lies in `[z y - (y - 1) [z <= 0], z y + (y - 1) [z >= 0]]`; for `y < 0` (`m = -y`) in
/// `[z y - (m - 1) [z >= 0], z y + (m - 1) [z <= 0]]`. Both ends are monotone in `z` and linear in `y` on each
/// sign piece, so the corners bound them.
fn dividend_bounds(yl: i128, yh: i128, zl: i128, zh: i128) -> Option<(i128, i128)> {
    let mut r: Option<(i128, i128)> = None;
    for (a, b) in nonzero_pieces(yl, yh).into_iter().flatten() {
        for y in [a, b] {
            for z in [zl, zh] {
                let m = y.abs() - 1;
                let (l, h) = if y > 0 {
                    (
                        z * y - m * i128::from(z <= 0),
                        z * y + m * i128::from(z >= 0),
                    )
                } else {
                    (
                        z * y - m * i128::from(z >= 0),
                        z * y + m * i128::from(z <= 0),
                    )
                };
                r = Some(r.map_or((l, h), |(rl, rh)| (rl.min(l), rh.max(h))));
            }
        }
    }
    r
}

/// Bounds of the divisors `y` in `[yl, yh]`, `y != 0`, for which some `x` in `[xl, xh]` has `x div y`
/// (truncating) in `[zl, zh]`; `None` when there is none. Exact: on one sign piece of `y`, `x -> x div y` is
/// monotone, so the quotients over `[xl, xh]` are all the integers between `lo(y) = min(xl div y, xh div y)` and
/// `hi(y) = max(..)`, and `y` qualifies exactly when `lo(y) <= zh` and `hi(y) >= zl`. Each of `lo` and `hi` is
/// monotone in `y` on the piece (a quotient moves toward 0 as `|y|` grows), so each condition holds on a prefix
/// or a suffix of the piece, found by bisection ([`monotone_run`]); the piece's answer is their intersection.
fn divisor_bounds(
    (xl, xh): (i128, i128),
    (yl, yh): (i128, i128),
    (zl, zh): (i128, i128),
) -> Option<(i128, i128)> {
    let mut r: Option<(i128, i128)> = None;
    for (a, b) in nonzero_pieces(yl, yh).into_iter().flatten() {
        let low = |y: i128| (xl / y).min(xh / y);
        let high = |y: i128| (xl / y).max(xh / y);
        let (Some((l1, h1)), Some((l2, h2))) = (
            monotone_run(a, b, |y| low(y) <= zh),
            monotone_run(a, b, |y| high(y) >= zl),
        ) else {
            continue;
        };
        let (l, h) = (l1.max(l2), h1.min(h2));
        if l <= h {
            r = Some(r.map_or((l, h), |(rl, rh)| (rl.min(l), rh.max(h))));
        }
    }
    r
}

/// The run of `[a, b]` (`a <= b`) where `holds` is true, given that it is true on a prefix or on a suffix of
/// `[a, b]` (a monotone predicate); `None` when it holds nowhere. `O(log(b - a))` calls of `holds`.
fn monotone_run(a: i128, b: i128, holds: impl Fn(i128) -> bool) -> Option<(i128, i128)> {
    match (holds(a), holds(b)) {
        (true, true) => Some((a, b)),
        (false, false) => None,
        (first, _) => {
            // `holds(lo) == first` and `holds(hi) != first` throughout.
            let (mut lo, mut hi) = (a, b);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if holds(mid) == first {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            Some(if first { (a, lo) } else { (hi, b) })
        }
    }
}

/// Bounds of `x` with `x mod y` (the sign of `x`, `|x mod y| <= |x|`) in `[zl, zh]`: `x >= zl` when `zl > 0`,
/// `x <= zh` when `zh < 0`; `None` (no bound) when `z` may be 0.
fn remainder_dividend_bounds(zl: i128, zh: i128) -> Option<(i128, i128)> {
    if zl > 0 {
        Some((zl, i128::MAX))
    } else if zh < 0 {
        Some((i128::MIN, zh))
    } else {
        None
    }
}

/// Bounds of `y` in `[yl, yh]` with `|y| > |z|` for some `z` in `[zl, zh]` (the remainder is smaller than the
/// divisor): with `k` the smallest `|z|`, `y` avoids `[-k, k]`, which cuts a bound of `y` when one side of it
/// lies wholly inside. `None` (no bound) when `y` keeps values on both sides.
fn remainder_divisor_bounds(yl: i128, yh: i128, zl: i128, zh: i128) -> Option<(i128, i128)> {
    let k = if zl > 0 {
        zl
    } else if zh < 0 {
        -zh
    } else {
        0
    };
    match (yl >= -k, yh <= k) {
        (true, true) => Some((1, 0)),
        (true, false) => Some((yl.max(k + 1), yh)),
        (false, true) => Some((yl, yh.min(-k - 1))),
        (false, false) => None,
    }
}

/// Largest `r >= 0` with `r^e <= n` (`n >= 0`, `e >= 1`), by bisection with checked powers.
fn root_floor(n: i128, e: u32) -> i128 {
    let (mut lo, mut hi) = (0i128, n.max(1));
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        if mid.checked_pow(e).is_some_and(|p| p <= n) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Smallest `r >= 0` with `r^e >= n` (`n >= 0`, `e >= 1`).
fn root_ceil(n: i128, e: u32) -> i128 {
    let r = root_floor(n, e);
    if r.checked_pow(e).is_some_and(|p| p >= n) {
        r
    } else {
        r + 1
    }
}

/// Bounds of `x` with `x^e` in `[zl, zh]` (`e >= 1`); `None` when no `x` qualifies.
fn base_bounds(e: u32, zl: i128, zh: i128) -> Option<(i128, i128)> {
    if e % 2 == 1 {
        // x -> x^e is increasing.
        let l = if zl >= 0 {
            root_ceil(zl, e)
        } else {
            -root_floor(-zl, e)
        };
        let h = if zh >= 0 {
            root_floor(zh, e)
        } else {
            -root_ceil(-zh, e)
        };
        (l <= h).then_some((l, h))
    } else if zh < 0 {
        None
    } else {
        let r = root_floor(zh, e);
        Some((-r, r))
    }
}

/// `dom(v) &= support`.
fn intersect<D: Domain>(st: &mut State<D>, v: u32, support: &D) -> Result<(), Conflict> {
    for s in 0..support.slots() {
        let w = st.dom(v).word(s) & support.word(s);
        st.set_word(v, s, w)?;
    }
    Ok(())
}

impl Constraint for Arith {
    fn name(&self) -> &'static str {
        self.op.name()
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let (x, y, z) = self.xyz();
        let b = y.map_or(0, value_of);
        self.op.eval(value_of(x), b) == Some(value_of(z) as i128)
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
}

impl<D: Domain> Propagate<D> for Arith {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let (x, y, z) = self.xyz();
        let pairs = st.size(x) as u64 * y.map_or(1, |y| st.size(y) as u64);
        let intervals =
            st.is_interval(x) || st.is_interval(z) || y.is_some_and(|y| st.is_interval(y));
        if pairs <= ENUMERATION_LIMIT && !intervals {
            self.enumerate(st, values)
        } else {
            self.bounds(st, values)
        }
    }
}

/// `z = max(xs)` or `z = min(xs)`: `vars = [z, xs..]`; bounds propagation.
#[derive(Clone, Debug)]
pub struct Extremum {
    vars: Vec<u32>,
    /// `min` instead of `max`.
    min: bool,
}

impl Extremum {
    /// `z = max(xs)` (`min = false`) or `z = min(xs)`; `xs` is not empty (checked when posting).
    pub fn new(z: u32, xs: &[u32], min: bool) -> Self {
        let mut vars = vec![z];
        vars.extend_from_slice(xs);
        Self { vars, min }
    }
}

impl Constraint for Extremum {
    fn name(&self) -> &'static str {
        if self.min {
            "array_min"
        } else {
            "array_max"
        }
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        let xs = self.vars[1..].iter().map(|&v| value_of(v));
        let e = if self.min { xs.min() } else { xs.max() };
        e == Some(value_of(self.vars[0]))
    }
    fn trigger(&self, _level: Propagation) -> Option<Trigger> {
        Some(Trigger::Bounds)
    }
    fn accepts_intervals(&self) -> bool {
        true
    }
}

impl<D: Domain> Propagate<D> for Extremum {
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        // Work on keys `s * value` with `s = -1` for min, so both are "max".
        let s: i128 = if self.min { -1 } else { 1 };
        let klo = |st: &State<D>, v: u32| {
            if s > 0 {
                lo(st, values, v) as i128
            } else {
                -(hi(st, values, v) as i128)
            }
        };
        let khi = |st: &State<D>, v: u32| {
            if s > 0 {
                hi(st, values, v) as i128
            } else {
                -(lo(st, values, v) as i128)
            }
        };
        let set_kmin = |st: &mut State<D>, v: u32, m: i128| {
            if s > 0 {
                set_min(st, values, v, m)
            } else {
                set_max(st, values, v, -m)
            }
        };
        let set_kmax = |st: &mut State<D>, v: u32, m: i128| {
            if s > 0 {
                set_max(st, values, v, m)
            } else {
                set_min(st, values, v, -m)
            }
        };
        let z = self.vars[0];
        let xs = &self.vars[1..];
        let lo_all = xs.iter().map(|&v| klo(st, v)).max().unwrap_or(0);
        let hi_all = xs.iter().map(|&v| khi(st, v)).max().unwrap_or(0);
        set_kmin(st, z, lo_all)?;
        set_kmax(st, z, hi_all)?;
        let (zl, zh) = (klo(st, z), khi(st, z));
        for &v in xs {
            set_kmax(st, v, zh)?;
        }
        let mut reach = xs.iter().filter(|&&v| khi(st, v) >= zl);
        match (reach.next(), reach.next()) {
            (None, _) => Err(st.conflict()),
            (Some(&v), None) => set_kmin(st, v, zl),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Every `x` in `-40..=40` for which `holds(x, y, z)` for some `y` in `[yl, yh]` and `z` in `[zl, zh]`.
    fn witnesses(
        (yl, yh): (i128, i128),
        (zl, zh): (i128, i128),
        holds: impl Fn(i128, i128, i128) -> bool,
    ) -> Vec<i128> {
        (-40..=40)
            .filter(|&x| (yl..=yh).any(|y| (zl..=zh).any(|z| holds(x, y, z))))
            .collect()
    }

    /// Every range `[l, h]` within `-4..=4`.
    fn ranges() -> Vec<(i128, i128)> {
        let mut out = Vec::new();
        for l in -4..=4 {
            for h in l..=4 {
                out.push((l, h));
            }
        }
        out
    }

    /// `bounds` (None = no bound) keeps every witness; `Some` with `l > h` only when there is none.
    fn assert_sound(what: &str, bounds: Option<(i128, i128)>, xs: &[i128], case: String) {
        if let Some((l, h)) = bounds {
            for &x in xs {
                assert!(l <= x && x <= h, "{what} {case}: [{l}, {h}] loses x = {x}");
            }
        }
    }

    /// `eval` is the checker's arithmetic as well as the propagators', so the soundness harness (which takes
    /// the checker as its oracle) cannot see it wrong: checked here against definitions on plain integers
    /// (truncating division, the remainder that goes with it, powers by repeated products), with `None` where
    /// undefined or beyond `i128`; each operation names itself, and the checker reads its own scope.
    #[test]
    fn each_operation_evaluates_by_its_definition_names_itself_and_checks_its_own_scope() {
        for a in -9i64..=9 {
            for b in -9i64..=9 {
                let (x, y) = (i128::from(a), i128::from(b));
                let div = (b != 0).then(|| {
                    let q = x.abs() / y.abs();
                    if (x < 0) != (y < 0) {
                        -q
                    } else {
                        q
                    }
                });
                let pow = (b >= 0).then(|| (0..b).fold(1i128, |p, _| p * x));
                let case = format!("a = {a}, b = {b}");
                assert_eq!(ArithOp::Times.eval(a, b), Some(x * y), "{case}");
                assert_eq!(ArithOp::Div.eval(a, b), div, "{case}");
                assert_eq!(ArithOp::Mod.eval(a, b), div.map(|q| x - q * y), "{case}");
                assert_eq!(ArithOp::Pow.eval(a, b), pow, "{case}");
                assert_eq!(ArithOp::Abs.eval(a, b), Some(x.abs()), "{case}");
            }
        }
        assert_eq!(ArithOp::Pow.eval(i64::MAX, 3), None, "beyond i128");
        assert_eq!(ArithOp::Pow.eval(2, 126), Some(1i128 << 126));
        let ops = [
            (ArithOp::Times, "times"),
            (ArithOp::Div, "div"),
            (ArithOp::Mod, "mod"),
            (ArithOp::Pow, "pow"),
            (ArithOp::Abs, "abs"),
        ];
        for (op, name) in ops {
            let y = (op != ArithOp::Abs).then_some(1);
            assert_eq!(Arith::new(op, 0, y, 2).name(), name);
        }
        // The checker reads x, y and z from its own scope (variables 3, 5 and 7 here, 100 elsewhere).
        let at = |x: i64, y: i64, z: i64| {
            move |v: u32| match v {
                3 => x,
                5 => y,
                7 => z,
                _ => 100,
            }
        };
        let times = Arith::new(ArithOp::Times, 3, Some(5), 7);
        assert!(times.is_satisfied(&at(2, 3, 6)));
        assert!(!times.is_satisfied(&at(2, 3, 5)));
        assert!(!times.is_satisfied(&at(3, 3, 6)));
        let abs = Arith::new(ArithOp::Abs, 3, None, 7);
        assert!(abs.is_satisfied(&at(-4, 9, 4)));
        assert!(!abs.is_satisfied(&at(-4, 9, 5)));
    }

    /// Operands too wide to enumerate (50,005 pairs, past `ENUMERATION_LIMIT`) take the bounds rules: for
    /// `z = x mod y` with `x` in `0..=10000` and `y` in `1..=5`, `|z|` stays below the largest `|y|` and `z`
    /// takes the sign of `x`, so `z` in `-30..=30` keeps exactly `0..=4`.
    #[test]
    fn a_remainder_of_operands_too_wide_to_enumerate_is_bounded_by_the_largest_divisor() {
        use crate::constraints::soundness::{current, state_of};
        use crate::model::Model;
        let mut m = Model::new();
        let x = m.new_interval_var(0, 10_000).unwrap();
        let y = m.new_var(1, 5).unwrap();
        let z = m.new_var(-30, 30).unwrap();
        let p = m.build().unwrap();
        let mut st = state_of(&p);
        let (x, y, z) = (x.index() as u32, y.index() as u32, z.index() as u32);
        let c = Arith::new(ArithOp::Mod, x, Some(y), z);
        Propagate::<u64>::propagate(&c, &mut st, &p.values).unwrap();
        assert_eq!(current(&p, &st)[z as usize], (0..=4).collect::<Vec<i64>>());
    }

    #[test]
    fn factor_bounds_keep_every_x_with_x_times_y_in_z() {
        for y in ranges() {
            for z in ranges() {
                let xs = witnesses(y, z, |x, y, z| x * y == z);
                assert_sound(
                    "factor",
                    factor_bounds(y.0, y.1, z.0, z.1),
                    &xs,
                    format!("{y:?} {z:?}"),
                );
            }
        }
    }

    #[test]
    fn dividend_bounds_keep_every_x_whose_truncated_quotient_is_in_z() {
        for y in ranges() {
            for z in ranges() {
                let xs = witnesses(y, z, |x, y, z| y != 0 && x / y == z);
                let b = dividend_bounds(y.0, y.1, z.0, z.1);
                assert_sound("dividend", b, &xs, format!("{y:?} {z:?}"));
                if y != (0, 0) {
                    assert!(b.is_some(), "a nonzero divisor always bounds x");
                }
            }
        }
    }

    #[test]
    fn divisor_bounds_are_exactly_the_extreme_divisors_with_a_quotient_in_z() {
        // Small ranges, and wider ones (scaled) where the bisection takes several steps.
        for (sx, sy) in [(1, 1), (9, 5)] {
            for (xl, xh) in ranges() {
                let x = (xl * sx, xh * sx);
                for (yl, yh) in ranges() {
                    let y = (yl * sy, yh * sy);
                    for z in ranges() {
                        let ys: Vec<i128> = (y.0..=y.1)
                            .filter(|&b| {
                                b != 0 && (x.0..=x.1).any(|a| (z.0..=z.1).contains(&(a / b)))
                            })
                            .collect();
                        let expected = ys.first().zip(ys.last()).map(|(&l, &h)| (l, h));
                        assert_eq!(
                            divisor_bounds(x, y, z),
                            expected,
                            "x in {x:?}, y in {y:?}, z in {z:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn remainder_bounds_keep_every_dividend_and_divisor_with_a_remainder_in_z() {
        for y in ranges() {
            for z in ranges() {
                let holds = |x: i128, y: i128, z: i128| y != 0 && x % y == z;
                let xs = witnesses(y, z, holds);
                let b = remainder_dividend_bounds(z.0, z.1);
                assert_sound("remainder dividend", b, &xs, format!("{y:?} {z:?}"));
                let ys: Vec<i128> = (y.0..=y.1)
                    .filter(|&b| (-40..=40).any(|a| (z.0..=z.1).any(|c| holds(a, b, c))))
                    .collect();
                match remainder_divisor_bounds(y.0, y.1, z.0, z.1) {
                    Some((l, h)) if l > h => {
                        assert!(ys.is_empty(), "{y:?} {z:?}: refused, but {ys:?} qualify");
                    }
                    b => assert_sound("remainder divisor", b, &ys, format!("{y:?} {z:?}")),
                }
            }
        }
    }

    #[test]
    fn a_monotone_run_is_found_at_either_end_and_nowhere_when_absent() {
        assert_eq!(monotone_run(-5, 20, |v| v <= 7), Some((-5, 7)));
        assert_eq!(monotone_run(-5, 20, |v| v >= 7), Some((7, 20)));
        assert_eq!(monotone_run(-5, 20, |v| v >= -9), Some((-5, 20)));
        assert_eq!(monotone_run(-5, 20, |v| v >= 21), None);
        assert_eq!(monotone_run(3, 3, |v| v == 3), Some((3, 3)));
    }

    #[test]
    fn base_bounds_keep_every_root_and_refuse_only_when_there_is_none() {
        for e in 1..=4u32 {
            for (zl, zh) in ranges().into_iter().map(|(l, h)| (l * 20, h * 20)) {
                let xs: Vec<i128> = (-40..=40)
                    .filter(|&x: &i128| (zl..=zh).contains(&x.pow(e)))
                    .collect();
                match base_bounds(e, zl, zh) {
                    None => assert!(xs.is_empty(), "x^{e} in [{zl}, {zh}] has roots {xs:?}"),
                    b => assert_sound("base", b, &xs, format!("x^{e} in [{zl}, {zh}]")),
                }
            }
        }
    }

    /// The remainder bounds are tight where the module docs promise a bound, not only sound: over every divisor
    /// in `-40..=40` the dividends with a remainder in `z` start at exactly `zl` when `zl > 0` (and end at
    /// exactly `zh` when `zh < 0`), the other end stays open, and `None` comes only when `z` may be 0 (then every
    /// dividend qualifies, with divisor 1). The divisors with a remainder in `z` are exactly those farther from 0
    /// than the nearest `z`, so the divisor bounds are their extremes when they lie on one side of 0, empty when
    /// there are none, and `None` only when they lie on both sides.
    #[test]
    fn remainder_bounds_are_exactly_the_extreme_dividends_and_divisors_with_a_remainder_in_z() {
        let holds = |x: i128, y: i128, z: (i128, i128)| y != 0 && (z.0..=z.1).contains(&(x % y));
        for z in ranges() {
            let xs: Vec<i128> = (-40..=40)
                .filter(|&x| (-40..=40).any(|y| holds(x, y, z)))
                .collect();
            let expected = if z.0 > 0 {
                Some((xs[0], i128::MAX))
            } else if z.1 < 0 {
                Some((i128::MIN, xs[xs.len() - 1]))
            } else {
                assert_eq!(xs.len(), 81, "z in {z:?} takes every dividend");
                None
            };
            assert_eq!(remainder_dividend_bounds(z.0, z.1), expected, "z in {z:?}");
            for y in ranges() {
                let ys: Vec<i128> = (y.0..=y.1)
                    .filter(|&b| (-40..=40).any(|a| holds(a, b, z)))
                    .collect();
                let case = format!("y in {y:?}, z in {z:?}");
                match remainder_divisor_bounds(y.0, y.1, z.0, z.1) {
                    Some((l, h)) if l > h => {
                        assert!(ys.is_empty(), "{case}: refused, {ys:?} qualify")
                    }
                    Some(b) => {
                        let extremes = (ys[0], ys[ys.len() - 1]);
                        assert!(
                            extremes.0 > 0 || extremes.1 < 0,
                            "{case}: {ys:?} on both sides"
                        );
                        assert_eq!(b, extremes, "{case}");
                    }
                    None => assert!(
                        ys[0] < 0 && ys[ys.len() - 1] > 0,
                        "{case}: {ys:?} one-sided"
                    ),
                }
            }
        }
    }

    /// `root_floor` is the largest `r >= 0` with `r^e <= n` and `root_ceil` the smallest with `r^e >= n`,
    /// checked against the definition for every `n` in `0..=300` and `e` in `1..=4` (perfect powers among them),
    /// and on the largest `n` the propagator passes (`|i64::MIN|`), where trial powers overflow `i128` for `e >= 3`.
    #[test]
    fn integer_roots_are_exactly_the_largest_below_and_the_smallest_above() {
        let pow = |r: i128, e: u32| r.checked_pow(e);
        let check = |n: i128, e: u32| {
            let f = root_floor(n, e);
            assert!(
                f >= 0 && pow(f, e).is_some_and(|p| p <= n),
                "floor {n}^(1/{e}) = {f}"
            );
            assert!(
                pow(f + 1, e).is_none_or(|p| p > n),
                "floor {n}^(1/{e}) = {f}"
            );
            let c = root_ceil(n, e);
            assert!(
                c >= 0 && pow(c, e).is_none_or(|p| p >= n),
                "ceil {n}^(1/{e}) = {c}"
            );
            assert!(
                c == 0 || pow(c - 1, e).is_some_and(|p| p < n),
                "ceil {n}^(1/{e}) = {c}"
            );
        };
        for e in 1..=4 {
            for n in 0..=300 {
                check(n, e);
            }
            for n in [i128::from(i64::MAX), -i128::from(i64::MIN)] {
                check(n, e);
            }
        }
        assert_eq!(root_floor(i128::from(i64::MAX), 2), 3_037_000_499);
        assert_eq!(root_ceil(i128::from(i64::MAX), 2), 3_037_000_500);
        assert_eq!((root_floor(64, 3), root_ceil(64, 3)), (4, 4));
        assert_eq!((root_floor(65, 3), root_ceil(65, 3)), (4, 5));
    }

    /// The other direction of `base_bounds_keep_every_root_and_refuse_only_when_there_is_none`: the bounds are
    /// tight, exactly the smallest and the largest root whenever there is one (an even power's `-r..=r` too, since
    /// `r^e` then lies in `z`), and an odd power refuses a `z` without roots. Wide enough (`x` in `-100..=100`)
    /// that no root of `z` in `-80..=80` is cut off.
    #[test]
    fn base_bounds_are_exactly_the_smallest_and_the_largest_root() {
        for e in 1..=4u32 {
            for (zl, zh) in ranges().into_iter().map(|(l, h)| (l * 20, h * 20)) {
                let xs: Vec<i128> = (-100..=100)
                    .filter(|&x: &i128| (zl..=zh).contains(&x.pow(e)))
                    .collect();
                let case = format!("x^{e} in [{zl}, {zh}]");
                match (xs.first(), xs.last()) {
                    (Some(&l), Some(&h)) => {
                        assert_eq!(base_bounds(e, zl, zh), Some((l, h)), "{case}")
                    }
                    _ if e % 2 == 1 => assert_eq!(base_bounds(e, zl, zh), None, "{case}"),
                    _ => {}
                }
            }
        }
    }

    /// A model of `x`, `y` and `z`, each a bitset of `values` or, where `interval` says so, the interval of
    /// their range; `z = op(x, y)` propagated once by itself, on one-word domains or (`wide`) on the multi-word
    /// representation. Returns the values left of `x`, `y` and `z`, or `None` on a conflict.
    fn arith_once(
        op: ArithOp,
        values: [&[i64]; 3],
        interval: [bool; 3],
        wide: bool,
    ) -> Option<Vec<Vec<i64>>> {
        use crate::constraints::soundness::{current, state_of};
        use crate::domain::WideDomain;
        use crate::model::Model;
        let mut m = Model::new();
        let vars: Vec<u32> = values
            .iter()
            .zip(interval)
            .map(|(vs, iv)| {
                let (l, h) = (vs[0], vs[vs.len() - 1]);
                let v = if iv {
                    m.new_interval_var(l, h).unwrap()
                } else {
                    m.new_var_with_values(vs).unwrap()
                };
                v.index() as u32
            })
            .collect();
        let p = m.build().unwrap();
        let c = Arith::new(op, vars[0], Some(vars[1]), vars[2]);
        if wide {
            let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
            let mut st: State<WideDomain> = State::with_intervals(&widths, &p.interval_flags());
            c.propagate(&mut st, &p.values).ok()?;
            Some(current(&p, &st))
        } else {
            let mut st = state_of(&p);
            Propagate::<u64>::propagate(&c, &mut st, &p.values).ok()?;
            Some(current(&p, &st))
        }
    }

    /// Four pairs of bitset operands are enumerated: `z = x * y` with `x` in {2, 3}, `y` in {4, 5} keeps exactly
    /// the products 8, 10, 12 and 15 of `z` in `0..=30` (the bounds rules would keep `8..=15`).
    #[test]
    fn few_pairs_of_bitset_operands_are_enumerated_to_domain_consistency() {
        let z: Vec<i64> = (0..=30).collect();
        let after = arith_once(ArithOp::Times, [&[2, 3], &[4, 5], &z], [false; 3], false).unwrap();
        assert_eq!(after, [vec![2, 3], vec![4, 5], vec![8, 10, 12, 15]]);
    }

    /// The same scope with any one of `x`, `y` and `z` an interval takes the bounds rules (enumerating reads
    /// bitset domains, which an interval does not keep): `z` keeps `8..=15`, holes and all, and the operands stay.
    #[test]
    fn an_interval_anywhere_in_an_arith_scope_takes_the_bounds_rules() {
        let z: Vec<i64> = (0..=30).collect();
        for i in 0..3 {
            let mut interval = [false; 3];
            interval[i] = true;
            let after = arith_once(ArithOp::Times, [&[2, 3], &[4, 5], &z], interval, false);
            assert_eq!(
                after,
                Some(vec![vec![2, 3], vec![4, 5], (8..=15).collect()]),
                "interval {interval:?}"
            );
        }
    }

    /// `ENUMERATION_LIMIT` counts pairs: bitset `x` and `y` in `0..=99` (multi-word domains) make 10,000 pairs
    /// from only 200 values, so `z = x * y` with `z` in `100..=110` takes the bounds rules and keeps 101, 103, 107
    /// and 109, primes that no pair of factors below 100 makes (enumerating would drop them).
    #[test]
    fn operands_with_more_pairs_than_the_limit_take_the_bounds_rules_on_bitsets() {
        let xy: Vec<i64> = (0..=99).collect();
        let z: Vec<i64> = (100..=110).collect();
        let after = arith_once(ArithOp::Times, [&xy, &xy, &z], [false; 3], true).unwrap();
        assert_eq!(after[2], z);
        let few: Vec<i64> = (0..=40).collect();
        let after = arith_once(ArithOp::Times, [&few, &few, &z], [false; 3], true).unwrap();
        assert_eq!(
            after[2],
            [100, 102, 104, 105, 108, 110],
            "41 x 41 pairs are enumerated"
        );
    }

    /// The plain answers of both constraints: the scope in order (`[x, y, z]`, `[x, z]` for `abs`, `[z, xs..]`
    /// for min / max), waking on any removal (arith, which enumerates) or on bounds (min / max) at every level,
    /// linear cost, intervals accepted, and min / max named as FlatZinc names them.
    #[test]
    fn arith_and_extremum_report_their_scope_trigger_cost_and_name() {
        let levels = [
            Propagation::None,
            Propagation::ForwardChecking,
            Propagation::Singles,
        ];
        let times = Arith::new(ArithOp::Times, 3, Some(5), 7);
        let abs = Arith::new(ArithOp::Abs, 3, Some(5), 7);
        assert_eq!(Constraint::vars(&times), [3, 5, 7]);
        assert_eq!(Constraint::vars(&abs), [3, 7]);
        for c in [&times, &abs] {
            for level in levels {
                assert_eq!(c.trigger(level), Some(Trigger::Domain));
            }
            assert_eq!(c.cost(), Cost::Linear);
            assert!(c.accepts_intervals());
        }
        let max = Extremum::new(4, &[2, 6, 1], false);
        let min = Extremum::new(4, &[2, 6, 1], true);
        assert_eq!((max.name(), min.name()), ("array_max", "array_min"));
        for c in [&max, &min] {
            assert_eq!(Constraint::vars(c), [4, 2, 6, 1]);
            for level in levels {
                assert_eq!(c.trigger(level), Some(Trigger::Bounds));
            }
            assert!(c.accepts_intervals());
        }
    }

    /// `z = max(xs)` (or `min`) once by itself on bitsets of `values` (`z` first); the values left, `None` on a
    /// conflict.
    fn extremum_once(min: bool, values: &[&[i64]]) -> Option<Vec<Vec<i64>>> {
        use crate::constraints::soundness::{current, state_of};
        use crate::model::Model;
        let mut m = Model::new();
        let vars: Vec<u32> = values
            .iter()
            .map(|vs| m.new_var_with_values(vs).unwrap().index() as u32)
            .collect();
        let p = m.build().unwrap();
        let mut st = state_of(&p);
        let c = Extremum::new(vars[0], &vars[1..], min);
        Propagate::<u64>::propagate(&c, &mut st, &p.values).ok()?;
        Some(current(&p, &st))
    }

    /// `z = max(x1, x2)` with `z` in {5, 6}: capped at 6, `x1` and `x2` in {3, 7} keep only 3, so none reaches `z`
    /// and propagation fails (for `min`, the mirror image). With `z` in `5..=9` and `x2` at most 3, `x1` is the only
    /// operand that can reach `z`, so it rises to 5 (for `min`, falls to -5); the others keep their values.
    #[test]
    fn min_and_max_fail_when_no_operand_reaches_z_and_push_the_only_one_that_can() {
        assert_eq!(extremum_once(false, &[&[5, 6], &[3, 7], &[3, 7]]), None);
        assert_eq!(
            extremum_once(true, &[&[-6, -5], &[-7, -3], &[-7, -3]]),
            None
        );
        let (z, x1, x2): (Vec<i64>, Vec<i64>, Vec<i64>) =
            ((5..=9).collect(), (0..=9).collect(), (0..=3).collect());
        assert_eq!(
            extremum_once(false, &[&z, &x1, &x2]),
            Some(vec![z.clone(), (5..=9).collect(), x2.clone()])
        );
        let neg = |v: &[i64]| -> Vec<i64> { v.iter().rev().map(|&a| -a).collect() };
        let (z, x1, x2) = (neg(&z), neg(&x1), neg(&x2));
        assert_eq!(
            extremum_once(true, &[&z, &x1, &x2]),
            Some(vec![z.clone(), (-9..=-5).collect(), x2.clone()])
        );
    }

    /// `floor_div` and `ceil_div` round the exact quotient down and up, whatever the signs (checked against
    /// `f64` division, exact on these small integers).
    #[test]
    fn floor_and_ceiling_division_round_the_exact_quotient_down_and_up() {
        for a in -30i128..=30 {
            for b in (-7i128..=7).filter(|&b| b != 0) {
                let q = a as f64 / b as f64;
                assert_eq!(floor_div(a, b), q.floor() as i128, "floor({a} / {b})");
                assert_eq!(ceil_div(a, b), q.ceil() as i128, "ceil({a} / {b})");
            }
        }
    }

    /// The pieces of a range without 0 are its negative values and its positive ones, each as a range.
    #[test]
    fn nonzero_pieces_are_the_negative_and_the_positive_values_of_a_range() {
        let piece = |vs: Vec<i128>| vs.first().zip(vs.last()).map(|(&l, &h)| (l, h));
        for (l, h) in ranges() {
            let expected = [
                piece((l..=h).filter(|&v| v < 0).collect()),
                piece((l..=h).filter(|&v| v > 0).collect()),
            ];
            assert_eq!(nonzero_pieces(l, h), expected, "[{l}, {h}]");
        }
    }

    /// Tight as well as sound: the integers between the smallest and largest real quotient `z / y` over every
    /// pair (0 excluded from `y`), which are exactly the extreme witnesses when `y` is one value; no bound only
    /// when `y` and `z` may both be 0 (or `y` has no nonzero value).
    #[test]
    fn factor_bounds_are_the_integers_between_the_extreme_real_quotients() {
        for (yl, yh) in ranges() {
            for (zl, zh) in ranges() {
                let pairs: Vec<(f64, f64)> = (yl..=yh)
                    .filter(|&y| y != 0)
                    .flat_map(|y| (zl..=zh).map(move |z| (z as f64, y as f64)))
                    .collect();
                let free = yl <= 0 && 0 <= yh && zl <= 0 && 0 <= zh;
                let expected = (!free && !pairs.is_empty()).then(|| {
                    let l = pairs.iter().map(|&(z, y)| (z / y).ceil() as i128).min();
                    let h = pairs.iter().map(|&(z, y)| (z / y).floor() as i128).max();
                    (l.unwrap(), h.unwrap())
                });
                let case = format!("y in [{yl}, {yh}], z in [{zl}, {zh}]");
                let b = factor_bounds(yl, yh, zl, zh);
                assert_eq!(b, expected, "{case}");
                let xs = witnesses((yl, yh), (zl, zh), |x, y, z| x * y == z);
                if yl == yh && yl != 0 && !xs.is_empty() {
                    assert_eq!(b, Some((xs[0], xs[xs.len() - 1])), "{case}");
                }
            }
        }
    }

    /// Exact, as its comment says: for every divisor in `y` there is a dividend, so the bounds are the smallest
    /// and largest dividend whose truncated quotient by some nonzero `y` lies in `z`.
    #[test]
    fn dividend_bounds_are_exactly_the_extreme_dividends_with_a_quotient_in_z() {
        for y in ranges() {
            for z in ranges() {
                let xs = witnesses(y, z, |x, y, z| y != 0 && x / y == z);
                let expected = xs.first().zip(xs.last()).map(|(&l, &h)| (l, h));
                assert_eq!(
                    dividend_bounds(y.0, y.1, z.0, z.1),
                    expected,
                    "y in {y:?}, z in {z:?}"
                );
            }
        }
    }

    /// One propagation of `z = op(x, y)` on interval variables over the given ranges (`y` absent for `Abs`), which
    /// takes the bounds rules at any size: each variable's range after it (`[x, y, z]` or `[x, z]`), `None` on a
    /// conflict.
    fn ranges_after(
        op: ArithOp,
        x: (i64, i64),
        y: Option<(i64, i64)>,
        z: (i64, i64),
    ) -> Option<Vec<(i64, i64)>> {
        use crate::constraints::soundness::{current, state_of};
        use crate::model::Model;
        let mut m = Model::new();
        let mut var = |(l, h): (i64, i64)| m.new_interval_var(l, h).unwrap().index() as u32;
        let (vx, vy, vz) = (var(x), y.map(&mut var), var(z));
        let p = m.build().unwrap();
        let mut st = state_of(&p);
        let c = Arith::new(op, vx, vy, vz);
        Propagate::<u64>::propagate(&c, &mut st, &p.values).ok()?;
        let ranges = current(&p, &st)
            .into_iter()
            .map(|vs| (vs[0], vs[vs.len() - 1]));
        Some(ranges.collect())
    }

    /// On intervals, the bounds of `z` for a product, a quotient and an absolute value are exactly the smallest
    /// and largest result over every pair of operands (the corners and the points next to 0 that the rule takes);
    /// a quotient by `y = 0` alone is a conflict.
    #[test]
    fn the_bounds_of_z_on_interval_operands_are_the_extreme_results() {
        let small = |(l, h): (i128, i128)| (l as i64, h as i64);
        for x in ranges().into_iter().map(small) {
            for y in ranges().into_iter().map(small) {
                for op in [ArithOp::Times, ArithOp::Div, ArithOp::Abs] {
                    let y = (op != ArithOp::Abs).then_some(y);
                    let (yl, yh) = y.unwrap_or((0, 0));
                    let results: Vec<i64> = (x.0..=x.1)
                        .flat_map(|a| (yl..=yh).filter_map(move |b| op.eval(a, b)))
                        .map(|r| r as i64)
                        .collect();
                    let expected = results.iter().min().zip(results.iter().max());
                    let after = ranges_after(op, x, y, (-100, 100));
                    let z = after.map(|r| r[r.len() - 1]);
                    let case = format!("{op:?}, x in {x:?}, y in {y:?}");
                    assert_eq!(z, expected.map(|(&l, &h)| (l, h)), "{case}");
                }
            }
        }
    }

    /// The other way on intervals: `z` narrows the operands of a product, a quotient and an absolute value,
    /// and the base of a power with a fixed exponent, to exactly the values with a supporting pair here.
    #[test]
    fn the_operands_on_intervals_narrow_to_the_values_that_reach_z() {
        let w = (-100, 100);
        let times = ranges_after(ArithOp::Times, w, Some((2, 3)), (6, 6));
        assert_eq!(times, Some(vec![(2, 3), (2, 3), (6, 6)]));
        // x div 2 = 5 for x in 10..=11, x div 3 = 5 for x in 15..=17.
        let div = ranges_after(ArithOp::Div, w, Some((2, 3)), (5, 5));
        assert_eq!(div, Some(vec![(10, 17), (2, 3), (5, 5)]));
        let abs = ranges_after(ArithOp::Abs, (-10, 10), None, (-5, 3));
        assert_eq!(abs, Some(vec![(-3, 3), (0, 3)]));
        let square = ranges_after(ArithOp::Pow, w, Some((2, 2)), (0, 10));
        assert_eq!(square, Some(vec![(-3, 3), (2, 2), (0, 10)]));
    }

    /// A power's `z` is bounded by the largest `|x|` to the largest exponent, on both sides of 0 unless `x` is
    /// never negative; an exponent that is not fixed does not narrow the base (`x^2` cannot be negative, yet
    /// `x^3` in `-30..=-1` has the roots `-3..=-1`).
    #[test]
    fn a_power_on_intervals_bounds_z_by_the_largest_base_and_exponent() {
        let nonnegative = ranges_after(ArithOp::Pow, (0, 3), Some((1, 3)), (-100, 100));
        assert_eq!(nonnegative, Some(vec![(0, 3), (1, 3), (0, 27)]));
        let signed = ranges_after(ArithOp::Pow, (-3, 3), Some((0, 3)), (-100, 100));
        assert_eq!(signed, Some(vec![(-3, 3), (0, 3), (-27, 27)]));
        let r = ranges_after(ArithOp::Pow, (-100, 100), Some((2, 3)), (-30, -1)).unwrap();
        assert!(
            r[0].0 <= -3 && -1 <= r[0].1,
            "x^3 in -30..=-1 lost a root: x in {:?}",
            r[0]
        );
    }

    /// `x mod y = x` when every `|x|` is below every `|y|`, and only then: `z` then takes `x`'s range; a `y`
    /// that may be 1 (`x mod 1 = 0`) or as small as the largest `|x|` (`5 mod 5 = 0`) keeps `z = 0`.
    #[test]
    fn a_remainder_on_intervals_is_the_dividend_only_when_every_dividend_is_below_every_divisor() {
        let w = (-10, 10);
        let below = ranges_after(ArithOp::Mod, (1, 3), Some((4, 6)), w);
        assert_eq!(below, Some(vec![(1, 3), (4, 6), (1, 3)]));
        let divisor_one = ranges_after(ArithOp::Mod, (1, 3), Some((-5, 5)), w);
        assert_eq!(divisor_one, Some(vec![(1, 3), (-5, 5), (0, 3)]));
        let equal = ranges_after(ArithOp::Mod, (3, 5), Some((5, 7)), w);
        assert_eq!(equal, Some(vec![(3, 5), (5, 7), (0, 5)]));
    }

    /// A truncated remainder takes its dividend's sign: on intervals, a dividend in `-10..=0` leaves `z` in
    /// `-8..=0` (the largest divisor less one) and one in `0..=10` leaves `0..=8`; a dividend that may be 0 adds no
    /// value of the other sign.
    #[test]
    fn a_remainder_on_intervals_keeps_the_sign_of_a_dividend_that_may_be_zero() {
        let w = (-20, 20);
        let nonpositive = ranges_after(ArithOp::Mod, (-10, 0), Some((7, 9)), w);
        assert_eq!(nonpositive, Some(vec![(-10, 0), (7, 9), (-8, 0)]));
        let nonnegative = ranges_after(ArithOp::Mod, (0, 10), Some((7, 9)), w);
        assert_eq!(nonnegative, Some(vec![(0, 10), (7, 9), (0, 8)]));
    }
}
