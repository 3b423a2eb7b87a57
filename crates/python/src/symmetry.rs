//! The Sudoku symmetry group on rows of cells: canonical forms (4x4 and 9x9) and random equivalent puzzles (every
//! size).
//!
//! The group acting on a board of box size `b` (side `n = b*b`): transposition, a permutation of the bands and of
//! the rows inside each band, the same for stacks and columns, and a relabelling of the digits. A transformation
//! reads output cell `(i, j)` from source cell `(rows[i], cols[j])` of the (possibly transposed) board and relabels
//! its digit.
//!
//! # The canonical form
//! The representative of a class is the least key over the whole group, where a board's key is its cells read
//! row-major with digits relabelled in order of first appearance (the first digit read becomes 1, the next new
//! one 2, ...) and every digit ranked before a blank. Relabelling by first appearance handles the `n!` relabellings
//! at once; what remains (`2 * (b!)^(2b+2)` geometric transformations, 3,359,232 on 9x9) is searched row by row:
//!
//! - level 1: every (transposition, column order, first row) with the least first row of the key is kept;
//! - level k+1: each kept partial transformation is extended by every row allowed next (the band of row k while it
//!   is unfinished, else any unused band's rows) and only the extensions with the least k+1-th row are kept.
//!
//! This is exact: keys compare row by row, and the relabelling of a prefix depends on that prefix only, so a
//! transformation whose prefix is not least cannot give the least key. Ranking digits before blanks puts the rows
//! with the most givens first, which settles the column order early; a nearly empty board keeps many ties and is
//! the slow case (the empty 9x9 board: about 3.4 million partial transformations at the last level).

use std::sync::atomic::{AtomicBool, Ordering};

use numpy::{PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use sudoku::generate::{candidate_rng, Rng};

use crate::batch::{array2, rows};
use crate::pool;

/// Registers this module's functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(canonical, m)?)?;
    m.add_function(wrap_pyfunction!(augment, m)?)?;
    Ok(())
}

/// Largest side the canonical form handles (column orders are enumerated: `(b!)^(b+1)` of them).
const MAX_CANONICAL_SIDE: usize = 9;

/// Every permutation of `0..k`, in lexicographic order.
fn permutations(k: usize) -> Vec<Vec<u8>> {
    fn extend(prefix: &mut Vec<u8>, k: usize, out: &mut Vec<Vec<u8>>) {
        if prefix.len() == k {
            out.push(prefix.clone());
            return;
        }
        for x in 0..k as u8 {
            if !prefix.contains(&x) {
                prefix.push(x);
                extend(prefix, k, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::with_capacity(k), k, &mut out);
    out
}

/// Every column order of a board of box size `b`: a stack order, then an order inside each stack.
fn column_orders(b: usize) -> Vec<[u8; MAX_CANONICAL_SIDE]> {
    let perms = permutations(b);
    let mut orders = Vec::new();
    // inner[s] = the permutation used inside output stack s, as a mixed-radix counter.
    let inner_count = perms.len().pow(b as u32);
    for stacks in &perms {
        for code in 0..inner_count {
            let mut order = [0u8; MAX_CANONICAL_SIDE];
            let mut rest = code;
            for (s, &stack) in stacks.iter().enumerate() {
                let inner = &perms[rest % perms.len()];
                rest /= perms.len();
                for (k, &within) in inner.iter().enumerate() {
                    order[s * b + k] = stack * b as u8 + within;
                }
            }
            orders.push(order);
        }
    }
    orders
}

/// A transformation fixed on its first `len` output rows.
#[derive(Clone, Copy)]
struct Partial {
    /// Whether the source board is read transposed.
    transposed: bool,
    /// Index into the column orders.
    cols: u16,
    /// `rows[i]` = source row of output row `i`, for `i < len`.
    rows: [u8; MAX_CANONICAL_SIDE],
    /// Output rows fixed so far.
    len: u8,
    /// `label[d]` = the label of source digit `d` (0 = not seen yet).
    label: [u8; MAX_CANONICAL_SIDE + 1],
    /// The next label to give.
    next: u8,
}

/// The canonical row-search of one board (box size 2 or 3).
struct Canonicalizer<'a> {
    b: usize,
    n: usize,
    orders: &'a [[u8; MAX_CANONICAL_SIDE]],
}

impl Canonicalizer<'_> {
    /// The least key of `cells`, as cells (blanks back to 0, digits relabelled).
    fn canonical(&self, cells: &[u8]) -> Vec<u8> {
        let n = self.n;
        let blank = n as u8 + 1;
        let mut current: Vec<Partial> = Vec::with_capacity(2 * self.orders.len());
        for transposed in [false, true] {
            for cols in 0..self.orders.len() {
                current.push(Partial {
                    transposed,
                    cols: cols as u16,
                    rows: [0; MAX_CANONICAL_SIDE],
                    len: 0,
                    label: [0; MAX_CANONICAL_SIDE + 1],
                    next: 1,
                });
            }
        }
        let mut out = Vec::with_capacity(n * n);
        let mut next: Vec<Partial> = Vec::new();
        for _level in 0..n {
            let mut best = [u8::MAX; MAX_CANONICAL_SIDE];
            next.clear();
            for p in &current {
                let order = &self.orders[usize::from(p.cols)];
                for r in self.allowed_rows(p) {
                    let mut cand = *p;
                    let mut key = [0u8; MAX_CANONICAL_SIDE];
                    // Compare while building: stop at the first cell above the best row so far.
                    let mut smaller = false;
                    let mut worse = false;
                    for j in 0..n {
                        let c = usize::from(order[j]);
                        let v = if p.transposed {
                            cells[c * n + r]
                        } else {
                            cells[r * n + c]
                        };
                        let k = if v == 0 {
                            blank
                        } else {
                            let slot = &mut cand.label[usize::from(v)];
                            if *slot == 0 {
                                *slot = cand.next;
                                cand.next += 1;
                            }
                            *slot
                        };
                        key[j] = k;
                        if !smaller {
                            if k > best[j] {
                                worse = true;
                                break;
                            }
                            if k < best[j] {
                                smaller = true;
                            }
                        }
                    }
                    if worse {
                        continue;
                    }
                    if smaller {
                        best = key;
                        next.clear();
                    }
                    cand.rows[usize::from(cand.len)] = r as u8;
                    cand.len += 1;
                    next.push(cand);
                }
            }
            out.extend(best[..n].iter().map(|&k| if k == blank { 0 } else { k }));
            std::mem::swap(&mut current, &mut next);
        }
        out
    }

    /// The source rows that may come next after `p`'s rows: the unused rows of the band being filled, or at a
    /// band boundary every row of the bands not used yet.
    fn allowed_rows(&self, p: &Partial) -> impl Iterator<Item = usize> + '_ {
        let b = self.b;
        let len = usize::from(p.len);
        let used = &p.rows[..len];
        let mut allowed = [false; MAX_CANONICAL_SIDE];
        if len % b == 0 {
            let used_bands: Vec<usize> = used.iter().map(|&r| usize::from(r) / b).collect();
            for band in 0..b {
                if !used_bands.contains(&band) {
                    for k in 0..b {
                        allowed[band * b + k] = true;
                    }
                }
            }
        } else {
            let band = usize::from(used[len - len % b]) / b;
            for k in 0..b {
                allowed[band * b + k] = !used.contains(&((band * b + k) as u8));
            }
        }
        (0..self.n).filter(move |&r| allowed[r])
    }
}

/// The canonical form of every row of `puzzles` (4x4 or 9x9).
#[pyfunction]
#[pyo3(signature = (puzzles, threads=None))]
fn canonical<'py>(
    py: Python<'py>,
    puzzles: PyReadonlyArray2<'py, u8>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let (cells, b, width) = rows(&puzzles)?;
    let n = b * b;
    if n > MAX_CANONICAL_SIDE {
        return Err(PyValueError::new_err(format!(
            "canonical forms are implemented for 4x4 and 9x9 boards, not {n}x{n}"
        )));
    }
    if let Some(v) = cells.iter().find(|&&v| usize::from(v) > n) {
        return Err(PyValueError::new_err(format!(
            "a cell holds {v}, above the board's side {n}"
        )));
    }
    let pool = pool::build(threads)?;
    let rows_out = puzzles.shape()[0];
    // Ctrl-C: rows not started are left as zeros, and `KeyboardInterrupt` is raised when the running ones end.
    let cancel = AtomicBool::new(false);
    let out: Vec<u8> = pool::interruptible(py, &cancel, || {
        let orders = column_orders(b);
        let c = Canonicalizer {
            b,
            n,
            orders: &orders,
        };
        pool.install(|| {
            cells
                .par_chunks_exact(width)
                .flat_map_iter(|row| {
                    if cancel.load(Ordering::Relaxed) {
                        vec![0; row.len()]
                    } else {
                        c.canonical(row)
                    }
                })
                .collect()
        })
    })?;
    array2(py, out, rows_out, width)
}

/// A random element of the group for box size `b`, drawn from `rng`.
struct Transform {
    transposed: bool,
    rows: Vec<usize>,
    cols: Vec<usize>,
    /// `relabel[d]` = the new digit of `d` (`relabel[0] = 0`).
    relabel: Vec<u8>,
}

impl Transform {
    fn random(b: usize, rng: &mut Rng) -> Transform {
        let n = b * b;
        let order = |rng: &mut Rng| {
            let mut bands: Vec<usize> = (0..b).collect();
            rng.shuffle(&mut bands);
            let mut out = Vec::with_capacity(n);
            for band in bands {
                let mut inner: Vec<usize> = (0..b).collect();
                rng.shuffle(&mut inner);
                out.extend(inner.into_iter().map(|k| band * b + k));
            }
            out
        };
        let transposed = rng.next_u64() & 1 == 1;
        let rows = order(rng);
        let cols = order(rng);
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        rng.shuffle(&mut digits);
        let mut relabel = vec![0u8];
        relabel.extend(digits);
        Transform {
            transposed,
            rows,
            cols,
            relabel,
        }
    }

    /// Writes the transformed `cells` into `out`. Values above the side stay as they are (they are invalid
    /// anyway, and the caller's checks report them).
    fn apply(&self, cells: &[u8], out: &mut [u8]) {
        let n = self.rows.len();
        for (i, &r) in self.rows.iter().enumerate() {
            for (j, &c) in self.cols.iter().enumerate() {
                let v = if self.transposed {
                    cells[c * n + r]
                } else {
                    cells[r * n + c]
                };
                out[i * n + j] = self.relabel.get(usize::from(v)).copied().unwrap_or(v);
            }
        }
    }
}

/// Augmented puzzles, and the solutions transformed alike when they were given.
type Augmented<'py> = (Bound<'py, PyArray2<u8>>, Option<Bound<'py, PyArray2<u8>>>);

/// A random equivalent of every row of `puzzles` (and of the matching row of `solutions`), row `i` transformed by
/// a transformation drawn from `(seed, i)`.
#[pyfunction]
#[pyo3(signature = (puzzles, seed, solutions=None, threads=None))]
fn augment<'py>(
    py: Python<'py>,
    puzzles: PyReadonlyArray2<'py, u8>,
    seed: u64,
    solutions: Option<PyReadonlyArray2<'py, u8>>,
    threads: Option<usize>,
) -> PyResult<Augmented<'py>> {
    let (cells, b, width) = rows(&puzzles)?;
    let sol = match &solutions {
        Some(s) => {
            if s.shape() != puzzles.shape() {
                return Err(PyValueError::new_err(
                    "puzzles and solutions differ in shape",
                ));
            }
            Some(rows(s)?.0)
        }
        None => None,
    };
    let count = puzzles.shape()[0];
    let pool = pool::build(threads)?;
    let (out, out_sol) = py.detach(|| {
        let mut out = vec![0u8; cells.len()];
        let mut out_sol = vec![0u8; sol.map_or(0, <[u8]>::len)];
        pool.install(|| {
            out.par_chunks_exact_mut(width)
                .zip(cells.par_chunks_exact(width))
                .enumerate()
                .for_each(|(i, (dst, src))| {
                    let t = Transform::random(b, &mut candidate_rng(seed, i as u64));
                    t.apply(src, dst);
                });
            if let Some(sol) = sol {
                out_sol
                    .par_chunks_exact_mut(width)
                    .zip(sol.par_chunks_exact(width))
                    .enumerate()
                    .for_each(|(i, (dst, src))| {
                        let t = Transform::random(b, &mut candidate_rng(seed, i as u64));
                        t.apply(src, dst);
                    });
            }
        });
        (out, out_sol)
    });
    let solutions_out = match sol {
        Some(_) => Some(array2(py, out_sol, count, width)?),
        None => None,
    };
    Ok((array2(py, out, count, width)?, solutions_out))
}
