//! The Sudoku symmetry group on rows of cells: canonical forms (4x4, 9x9, 16x16) and random equivalent puzzles
//! (every size).
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
//! - level 1: every (transposition, column order, first row) with the least first row of the key is kept (found
//!   directly from the digit counts of the stacks, see `Canonicalizer::first_level`, not by trying all
//!   `(b!)^(b+1)` column orders: 7,962,624 on 16x16);
//! - level k+1: each kept partial transformation is extended by every row allowed next (the band of row k while it
//!   is unfinished, else any unused band's rows) and only the extensions with the least k+1-th row are kept.
//!
//! This is exact: keys compare row by row, and the relabelling of a prefix depends on that prefix only, so a
//! transformation whose prefix is not least cannot give the least key. Ranking digits before blanks puts the rows
//! with the most givens first, which settles the column order early; a nearly empty board keeps many ties and is
//! the slow case (the empty 9x9 board: about 3.4 million partial transformations at the last level). Above 9x9 a
//! board whose ties pass `MAX_PARTIALS` (complete grids, nearly empty boards) is refused with an error; 25x25
//! and 36x36 boards are not handled (their puzzles tie on too many column orders for this search).

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

/// Largest side the canonical form handles: 16 (column orders are found, not enumerated, but a board's ties must
/// stay within [`MAX_PARTIALS`]).
const MAX_CANONICAL_SIDE: usize = 16;

/// Most partial transformations kept at one level on boards above 9x9 (about 40 bytes each). Puzzles stay far
/// below it; a complete 16x16 grid or a nearly empty one ties on millions of column orders and is refused.
const MAX_PARTIALS: usize = 1 << 21;

/// A column order: `order[j]` = source column of output column `j` (`N`: the largest side it serves).
type Order<const N: usize> = [u8; N];

/// Every permutation of `items`, in lexicographic order of positions.
fn permutations_of(items: &[u8]) -> Vec<Vec<u8>> {
    fn extend(items: &[u8], used: &mut Vec<bool>, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if prefix.len() == items.len() {
            out.push(prefix.clone());
            return;
        }
        for k in 0..items.len() {
            if !used[k] {
                used[k] = true;
                prefix.push(items[k]);
                extend(items, used, prefix, out);
                prefix.pop();
                used[k] = false;
            }
        }
    }
    let mut out = Vec::new();
    extend(
        items,
        &mut vec![false; items.len()],
        &mut Vec::with_capacity(items.len()),
        &mut out,
    );
    out
}

/// Every permutation of `0..k`.
fn permutations(k: usize) -> Vec<Vec<u8>> {
    permutations_of(&(0..k as u8).collect::<Vec<u8>>())
}

/// Every column order of a board of box size `b` (up to 9x9: `(b!)^(b+1)` of them): a stack order, then an order
/// inside each stack. The first level of the search tries them all when a row repeats a digit (see
/// [`Canonicalizer::first_level`]).
fn column_orders<const N: usize>(b: usize) -> Vec<Order<N>> {
    let perms = permutations(b);
    let mut orders = Vec::new();
    // inner[s] = the permutation used inside output stack s, as a mixed-radix counter.
    let inner_count = perms.len().pow(b as u32);
    for stacks in &perms {
        for code in 0..inner_count {
            let mut order = [0u8; N];
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

/// A transformation fixed on its first `len` output rows, on boards of side at most `N` (`L = N + 1` labels).
/// Small `N` keeps it small: the 9x9 search copies millions of them.
#[derive(Clone, Copy)]
struct Partial<const N: usize, const L: usize> {
    /// Whether the source board is read transposed.
    transposed: bool,
    /// Index into the column orders.
    cols: u32,
    /// `rows[i]` = source row of output row `i`, for `i < len`.
    rows: [u8; N],
    /// Output rows fixed so far.
    len: u8,
    /// `label[d]` = the label of source digit `d` (0 = not seen yet).
    label: [u8; L],
    /// The next label to give.
    next: u8,
}

impl<const N: usize, const L: usize> Partial<N, L> {
    fn start(transposed: bool, cols: usize) -> Self {
        Partial {
            transposed,
            cols: cols as u32,
            rows: [0; N],
            len: 0,
            label: [0; L],
            next: 1,
        }
    }
}

/// Buffers of one thread's searches, reused from board to board (a 9x9 search fills about a megabyte; fresh pages
/// for every board cost more than the search of a complete grid).
struct Scratch<const N: usize, const L: usize> {
    current: Vec<Partial<N, L>>,
    next: Vec<Partial<N, L>>,
    /// The column orders the first level found for this board.
    orders: Vec<Order<N>>,
}

impl<const N: usize, const L: usize> Scratch<N, L> {
    fn new() -> Self {
        Scratch {
            current: Vec::new(),
            next: Vec::new(),
            orders: Vec::new(),
        }
    }
}

/// The canonical row-search of boards of side `n <= N` (`L = N + 1`).
struct Canonicalizer<'a, const N: usize, const L: usize> {
    b: usize,
    n: usize,
    /// Every column order, on boards up to 9x9 (empty above).
    all_orders: &'a [Order<N>],
}

impl<const N: usize, const L: usize> Canonicalizer<'_, N, L> {
    /// Source cell `(r, c)` of `cells`, read transposed or not.
    fn cell(&self, cells: &[u8], transposed: bool, r: usize, c: usize) -> u8 {
        if transposed {
            cells[c * self.n + r]
        } else {
            cells[r * self.n + c]
        }
    }

    /// The least key of `cells`, as cells (blanks back to 0, digits relabelled), or why the board has too many
    /// ties to search.
    fn canonical(&self, cells: &[u8], scratch: &mut Scratch<N, L>) -> Result<Vec<u8>, String> {
        let n = self.n;
        let blank = n as u8 + 1;
        let first_row = self.first_level(cells, scratch)?;
        let Scratch {
            current,
            next,
            orders,
        } = scratch;
        let orders: &[Order<N>] = if first_row.is_some() {
            orders
        } else {
            self.all_orders
        };
        let mut out = Vec::with_capacity(n * n);
        if let Some(row) = &first_row {
            out.extend(row.iter().map(|&k| if k == blank { 0 } else { k }));
        }
        for _level in usize::from(first_row.is_some())..n {
            let mut best = [u8::MAX; N];
            next.clear();
            for p in current.iter() {
                let order = &orders[p.cols as usize];
                for r in self.allowed_rows(p) {
                    let mut cand = *p;
                    let mut key = [0u8; N];
                    // Compare while building: stop at the first cell above the best row so far.
                    let mut smaller = false;
                    let mut worse = false;
                    for j in 0..n {
                        let v = self.cell(cells, p.transposed, r, usize::from(order[j]));
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
                    if self.b > 3 && next.len() > MAX_PARTIALS {
                        return Err(too_symmetric(n));
                    }
                }
            }
            out.extend(best[..n].iter().map(|&k| if k == blank { 0 } else { k }));
            std::mem::swap(current, next);
        }
        Ok(out)
    }

    /// Fills `scratch.current` with the partial transformations after the first row and `scratch.orders` with the
    /// column orders they index, and returns the least first row (as a key); or, when a row of the board repeats a
    /// digit on a board up to 9x9, fills `scratch.current` with every transformation before the first row, over
    /// every column order (`all_orders`), and returns no first row.
    ///
    /// With no digit repeated in a row, the first row's key depends only on which output columns hold a digit
    /// (the digits are relabelled 1, 2, 3, ... in reading order), and the least key puts digits as early as the
    /// stacks allow: stacks in decreasing order of digit count, each with its digit columns first. So the tied
    /// column orders are exactly: any order among stacks of equal count, any order of the digit columns and of the
    /// blank columns inside each stack; they are listed here instead of trying all `(b!)^(b+1)` orders.
    fn first_level(
        &self,
        cells: &[u8],
        scratch: &mut Scratch<N, L>,
    ) -> Result<Option<Vec<u8>>, String> {
        let (b, n) = (self.b, self.n);
        let blank = n as u8 + 1;
        let repeats = |transposed: bool, r: usize| {
            let mut seen = [false; L];
            (0..n).any(|c| {
                let v = usize::from(self.cell(cells, transposed, r, c));
                v != 0 && std::mem::replace(&mut seen[v], true)
            })
        };
        let any_repeat = [false, true].iter().any(|&t| (0..n).any(|r| repeats(t, r)));
        if any_repeat {
            if self.all_orders.is_empty() {
                return Err(format!(
                    "canonical forms of {n}x{n} boards need rows and columns without a repeated digit"
                ));
            }
            scratch.current.clear();
            scratch.current.extend(
                (0..self.all_orders.len())
                    .flat_map(|cols| [false, true].map(|t| Partial::start(t, cols))),
            );
            return Ok(None);
        }
        // The first-row key of (transposed, r): digit counts of the stacks, largest first.
        let counts = |t: bool, r: usize| -> Vec<usize> {
            (0..b)
                .map(|s| {
                    (0..b)
                        .filter(|&k| self.cell(cells, t, r, s * b + k) != 0)
                        .count()
                })
                .collect()
        };
        let key_of = |counts: &[usize]| -> Vec<u8> {
            let mut sorted = counts.to_vec();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            let mut key = Vec::with_capacity(n);
            let mut label = 1u8;
            for c in sorted {
                for k in 0..b {
                    key.push(if k < c {
                        label += 1;
                        label - 1
                    } else {
                        blank
                    });
                }
            }
            key
        };
        let mut best: Option<Vec<u8>> = None;
        let mut firsts: Vec<(bool, usize, Vec<usize>)> = Vec::new();
        for t in [false, true] {
            for r in 0..n {
                let c = counts(t, r);
                let key = key_of(&c);
                match &best {
                    Some(k) if key > *k => continue,
                    Some(k) if key < *k => firsts.clear(),
                    _ => {}
                }
                best = Some(key);
                firsts.push((t, r, c));
            }
        }
        let orders = &mut scratch.orders;
        let partials = &mut scratch.current;
        orders.clear();
        partials.clear();
        for (t, r, c) in firsts {
            // Output stack orders: stacks by decreasing count, any order among equal counts.
            let mut stacks: Vec<u8> = (0..b as u8).collect();
            stacks.sort_by(|&x, &y| c[usize::from(y)].cmp(&c[usize::from(x)]));
            let mut stack_orders: Vec<Vec<u8>> = vec![Vec::new()];
            let mut i = 0;
            while i < b {
                let group_end = (i..b)
                    .find(|&j| c[usize::from(stacks[j])] != c[usize::from(stacks[i])])
                    .unwrap_or(b);
                let group = permutations_of(&stacks[i..group_end]);
                stack_orders = stack_orders
                    .iter()
                    .flat_map(|prefix| {
                        group.iter().map(move |g| {
                            let mut v = prefix.clone();
                            v.extend_from_slice(g);
                            v
                        })
                    })
                    .collect();
                i = group_end;
            }
            // Inside each source stack: its digit columns in any order, then its blank columns in any order.
            let inner: Vec<Vec<Vec<u8>>> = (0..b)
                .map(|s| {
                    let (digits, blanks): (Vec<u8>, Vec<u8>) = (0..b)
                        .map(|k| (s * b + k) as u8)
                        .partition(|&col| self.cell(cells, t, r, usize::from(col)) != 0);
                    let (dp, bp) = (permutations_of(&digits), permutations_of(&blanks));
                    dp.iter()
                        .flat_map(|d| {
                            bp.iter().map(move |bl| {
                                let mut v = d.clone();
                                v.extend_from_slice(bl);
                                v
                            })
                        })
                        .collect()
                })
                .collect();
            let per_stack_order: usize = inner.iter().map(Vec::len).product();
            if self.b > 3 && orders.len() + stack_orders.len() * per_stack_order > MAX_PARTIALS {
                return Err(too_symmetric(n));
            }
            for so in &stack_orders {
                // A mixed-radix counter over the inner orders of the stacks, in output order.
                for code in 0..per_stack_order {
                    let mut order = [0u8; N];
                    let mut rest = code;
                    for (pos, &stack) in so.iter().enumerate() {
                        let choices = &inner[usize::from(stack)];
                        let inside = &choices[rest % choices.len()];
                        rest /= choices.len();
                        order[pos * b..pos * b + b].copy_from_slice(inside);
                    }
                    let mut p = Partial::start(t, orders.len());
                    for &col in &order[..n] {
                        let v = usize::from(self.cell(cells, t, r, usize::from(col)));
                        if v != 0 {
                            p.label[v] = p.next;
                            p.next += 1;
                        }
                    }
                    p.rows[0] = r as u8;
                    p.len = 1;
                    orders.push(order);
                    partials.push(p);
                }
            }
        }
        Ok(best)
    }

    /// The source rows that may come next after `p`'s rows: the unused rows of the band being filled, or at a
    /// band boundary every row of the bands not used yet.
    fn allowed_rows(&self, p: &Partial<N, L>) -> impl Iterator<Item = usize> + '_ {
        let b = self.b;
        let len = usize::from(p.len);
        let used = &p.rows[..len];
        let mut allowed = [false; N];
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

fn too_symmetric(n: usize) -> String {
    format!(
        "this {n}x{n} board ties on more than {MAX_PARTIALS} partial transformations (a complete grid or a nearly \
         empty board): its canonical form is out of reach"
    )
}

/// `canonical` on every row of `cells` in parallel, rows not started once `cancel` is raised left as zeros; the
/// first refused row's index and message on error.
fn canonical_rows<const N: usize, const L: usize>(
    c: &Canonicalizer<'_, N, L>,
    cells: &[u8],
    width: usize,
    cancel: &AtomicBool,
) -> Result<Vec<Vec<u8>>, (usize, String)> {
    cells
        .par_chunks_exact(width)
        .enumerate()
        .map_init(Scratch::new, |scratch, (i, row)| {
            if cancel.load(Ordering::Relaxed) {
                Ok(vec![0; row.len()])
            } else {
                c.canonical(row, scratch).map_err(|e| (i, e))
            }
        })
        .collect()
}

/// The canonical form of every row of `puzzles` (4x4, 9x9 and 16x16).
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
            "canonical forms are implemented for 4x4, 9x9 and 16x16 boards, not {n}x{n}"
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
    let out: Result<Vec<Vec<u8>>, (usize, String)> = pool::interruptible(py, &cancel, || {
        pool.install(|| {
            if b <= 3 {
                let all_orders = column_orders::<9>(b);
                let c = Canonicalizer::<9, 10> {
                    b,
                    n,
                    all_orders: &all_orders,
                };
                canonical_rows(&c, cells, width, &cancel)
            } else {
                let c = Canonicalizer::<16, 17> {
                    b,
                    n,
                    all_orders: &[],
                };
                canonical_rows(&c, cells, width, &cancel)
            }
        })
    })?;
    let out = out.map_err(|(i, e)| PyValueError::new_err(format!("row {i}: {e}")))?;
    array2(py, out.concat(), rows_out, width)
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
