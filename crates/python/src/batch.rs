//! Batches of boards as one `(N, n*n)` array: solving, verifying, rating, and parsing strings into such arrays.
//!
//! A row is validated where it is used (values above `n` or clashing givens make it `invalid`, with a message),
//! so one bad row never fails the batch. Status codes are small integers, mapped to the CLI's words in Python:
//!
//! ```text
//! 0 solved   1 unsatisfiable   2 invalid   3 limit   4 error (a solver panicked or gave a wrong answer: a bug)
//! ```

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use numpy::ndarray::Array2;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use csp_core::Limits;
use sudoku::board::box_size_for_cells;
use sudoku::generate::{default_node_limit, Rater};
use sudoku::per_thread::PerThread;
use sudoku::{registry, verify, Board, Outcome, Request, Solve, SolverInfo};

use crate::pool;

/// Status code of a solved row.
pub(crate) const SOLVED: u8 = 0;
/// Status code of a row proved to have no solution.
pub(crate) const UNSATISFIABLE: u8 = 1;
/// Status code of a row that is not a valid board (values above `n`, clashing givens, unparsable text).
pub(crate) const INVALID: u8 = 2;
/// Status code of a row whose search a node or time limit stopped.
pub(crate) const LIMIT: u8 = 3;
/// Status code of a row the solver failed on internally (always a bug).
pub(crate) const ERROR: u8 = 4;

/// Registers this module's functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(verify_rows, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(parse_strings, m)?)?;
    m.add_function(wrap_pyfunction!(solver_names, m)?)?;
    m.add_function(wrap_pyfunction!(rater_name, m)?)?;
    Ok(())
}

/// The box size of rows of `cells` cells, or a `ValueError` naming the supported widths.
pub(crate) fn box_size_of_width(cells: usize) -> PyResult<usize> {
    box_size_for_cells(cells).ok_or_else(|| {
        PyValueError::new_err(format!(
            "rows of {cells} cells are no Sudoku board (4x4 to 36x36: 16, 81, 256, 625 or 1296 cells)"
        ))
    })
}

/// The rows of a C-contiguous `(N, n*n)` array as one slice, with the box size and the row width.
pub(crate) fn rows<'a>(array: &'a PyReadonlyArray2<'_, u8>) -> PyResult<(&'a [u8], usize, usize)> {
    let width = array.shape()[1];
    let b = box_size_of_width(width)?;
    let cells = array
        .as_slice()
        .map_err(|_| PyValueError::new_err("the puzzle array must be C-contiguous"))?;
    Ok((cells, b, width))
}

/// The board of one row, or why it is not a valid puzzle (the parser's rules: values in `0..=n`, no clash).
pub(crate) fn board_of_row(b: usize, row: &[u8]) -> Result<Board, String> {
    let board = Board::from_cells(b, row.to_vec()).map_err(|e| e.to_string())?;
    match board.find_clash() {
        Some(clash) => Err(clash.to_string()),
        None => Ok(board),
    }
}

/// The rows to leave unsolved as `invalid` (strings that did not parse), checked against the row count.
fn skip_mask<'a>(
    skip: Option<&'a PyReadonlyArray1<'_, bool>>,
    rows: usize,
) -> PyResult<Option<&'a [bool]>> {
    let Some(mask) = skip else { return Ok(None) };
    let mask = mask
        .as_slice()
        .map_err(|_| PyValueError::new_err("the skip mask must be contiguous"))?;
    if mask.len() != rows {
        return Err(PyValueError::new_err(format!(
            "the skip mask has {} entries for {rows} rows",
            mask.len()
        )));
    }
    Ok(Some(mask))
}

/// `(row, message)` pairs: the rows of a batch that are invalid or failed, with why.
pub(crate) type RowErrors = Vec<(usize, String)>;

/// `(row, message)` for every row whose `message` is set, in row order.
fn collect_errors(messages: Vec<Option<String>>) -> Vec<(usize, String)> {
    messages
        .into_iter()
        .enumerate()
        .filter_map(|(i, m)| m.map(|m| (i, m)))
        .collect()
}

/// Turns an `(N, width)` vector into a numpy array.
pub(crate) fn array2<'py>(
    py: Python<'py>,
    data: Vec<u8>,
    rows: usize,
    width: usize,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let array = Array2::from_shape_vec((rows, width), data)
        .map_err(|e| PyValueError::new_err(format!("internal shape error: {e}")))?;
    Ok(array.into_pyarray(py))
}

/// What one row of a solve produced, written in place into the batch's arrays.
struct RowOut<'a> {
    solution: &'a mut [u8],
    status: &'a mut u8,
    count: &'a mut u64,
    nodes: &'a mut u64,
    guesses: &'a mut u64,
}

/// Solves one row with `solver` (rebuilt after a panic) and checks the answer with the independent verifier, as
/// `sudoku solve` does. Returns the row's message when it is invalid or failed.
fn solve_row(
    solver: &mut Box<dyn Solve>,
    info: &SolverInfo,
    b: usize,
    row: &[u8],
    req: &Request,
    out: RowOut<'_>,
) -> Option<String> {
    let board = match board_of_row(b, row) {
        Ok(board) => board,
        Err(e) => {
            *out.status = INVALID;
            return Some(e);
        }
    };
    let report = match panic::catch_unwind(AssertUnwindSafe(|| solver.solve(&board, req))) {
        Ok(r) => r,
        Err(_) => {
            *solver = (info.make)();
            *out.status = ERROR;
            return Some(format!("solver `{}` panicked", info.name));
        }
    };
    *out.count = report.count;
    *out.nodes = report.stats.nodes;
    *out.guesses = report.stats.guesses;
    match (report.status, report.solution) {
        (Outcome::Solved, Some(solution)) => match verify::verify(&board, &solution) {
            Ok(()) => {
                out.solution.copy_from_slice(solution.cells());
                *out.status = SOLVED;
                None
            }
            Err(e) => {
                *out.status = ERROR;
                Some(format!(
                    "solver `{}` returned a wrong solution: {e}",
                    info.name
                ))
            }
        },
        (Outcome::Solved, None) => {
            *out.status = ERROR;
            Some(format!(
                "solver `{}` reported solved without a solution",
                info.name
            ))
        }
        (Outcome::Unsatisfiable, _) => {
            *out.status = UNSATISFIABLE;
            None
        }
        (Outcome::Limit(_), _) => {
            *out.status = LIMIT;
            None
        }
    }
}

/// The arrays of a solve: solutions, status codes, counts, nodes, guesses, and `(row, message)` for invalid or
/// failed rows.
type SolveArrays<'py> = (
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u64>>,
    Vec<(usize, String)>,
);

/// Solves every row of `puzzles` (`uint8`, `(N, n*n)`, C-contiguous) with the registry solver `solver`.
#[pyfunction]
#[pyo3(signature = (puzzles, solver, limit, threads, node_limit, time_limit, skip=None))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    puzzles: PyReadonlyArray2<'py, u8>,
    solver: &str,
    limit: u64,
    threads: Option<usize>,
    node_limit: Option<u64>,
    time_limit: Option<f64>,
    skip: Option<PyReadonlyArray1<'py, bool>>,
) -> PyResult<SolveArrays<'py>> {
    let info = registry::find(solver).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown solver `{solver}` (known: {})",
            registry::names()
        ))
    })?;
    let (cells, b, width) = rows(&puzzles)?;
    if !(info.supports)(b) {
        return Err(PyValueError::new_err(format!(
            "solver `{solver}` does not support {n}x{n} boards",
            n = b * b
        )));
    }
    let time = match time_limit {
        None => None,
        Some(0.0) => None,
        Some(t) => Some(Duration::try_from_secs_f64(t).map_err(|_| {
            PyValueError::new_err(format!(
                "time_limit must be a non-negative number of seconds, not {t}"
            ))
        })?),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let req = Request {
        solution_limit: limit.max(1),
        limits: Limits {
            nodes: node_limit,
            time,
            cancel: Some(cancel.clone()),
        },
    };
    let n = puzzles.shape()[0];
    let skip = skip_mask(skip.as_ref(), n)?;
    let pool = pool::build(threads)?;
    let (solutions, status, counts, nodes, guesses, messages) =
        pool::interruptible(py, &cancel, || {
            let mut solutions = vec![0u8; n * width];
            let mut status = vec![SOLVED; n];
            let mut counts = vec![0u64; n];
            let mut nodes = vec![0u64; n];
            let mut guesses = vec![0u64; n];
            let solvers: PerThread<Box<dyn Solve>> = PerThread::new(pool.current_num_threads());
            let messages: Vec<Option<String>> = pool.install(|| {
                (
                    cells.par_chunks_exact(width),
                    solutions.par_chunks_exact_mut(width),
                    status.par_iter_mut(),
                    counts.par_iter_mut(),
                    nodes.par_iter_mut(),
                    guesses.par_iter_mut(),
                )
                    .into_par_iter()
                    .enumerate()
                    .map(|(i, (row, solution, status, count, nodes, guesses))| {
                        if skip.is_some_and(|s| s[i]) {
                            *status = INVALID;
                            return None;
                        }
                        if cancel.load(Ordering::Relaxed) {
                            *status = LIMIT;
                            return None;
                        }
                        let out = RowOut {
                            solution,
                            status,
                            count,
                            nodes,
                            guesses,
                        };
                        solvers.with(info.make, |s| solve_row(s, info, b, row, &req, out))
                    })
                    .collect()
            });
            (solutions, status, counts, nodes, guesses, messages)
        })?;
    Ok((
        array2(py, solutions, n, width)?,
        status.into_pyarray(py),
        counts.into_pyarray(py),
        nodes.into_pyarray(py),
        guesses.into_pyarray(py),
        collect_errors(messages),
    ))
}

/// Checks each solution row against its puzzle row with the independent verifier: `True` where it is a
/// solution, and `(row, reason)` for every other row.
#[pyfunction]
#[pyo3(signature = (puzzles, solutions, threads=None))]
fn verify_rows<'py>(
    py: Python<'py>,
    puzzles: PyReadonlyArray2<'py, u8>,
    solutions: PyReadonlyArray2<'py, u8>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray1<bool>>, RowErrors)> {
    if puzzles.shape() != solutions.shape() {
        return Err(PyValueError::new_err(format!(
            "puzzles have shape {:?} but solutions {:?}",
            puzzles.shape(),
            solutions.shape()
        )));
    }
    let (cells, b, width) = rows(&puzzles)?;
    let (sol_cells, _, _) = rows(&solutions)?;
    let pool = pool::build(threads)?;
    let cancel = AtomicBool::new(false);
    let (ok, messages): (Vec<bool>, Vec<Option<String>>) =
        pool::interruptible(py, &cancel, || {
            pool.install(|| {
                cells
                    .par_chunks_exact(width)
                    .zip(sol_cells.par_chunks_exact(width))
                    .map(|(p, s)| {
                        if cancel.load(Ordering::Relaxed) {
                            return (false, None);
                        }
                        let puzzle = match Board::from_cells(b, p.to_vec()) {
                            Ok(board) => board,
                            Err(e) => return (false, Some(format!("puzzle: {e}"))),
                        };
                        let solution = match Board::from_cells(b, s.to_vec()) {
                            Ok(board) => board,
                            Err(e) => return (false, Some(format!("solution: {e}"))),
                        };
                        match verify::verify(&puzzle, &solution) {
                            Ok(()) => (true, None),
                            Err(e) => (false, Some(e.to_string())),
                        }
                    })
                    .unzip()
            })
        })?;
    Ok((ok.into_pyarray(py), collect_errors(messages)))
}

/// The rating arrays: guesses, nodes, complete, solution counts, status codes, and `(row, message)` for
/// invalid rows.
type RateArrays<'py> = (
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u8>>,
    Vec<(usize, String)>,
);

/// Rates every row with the generator's rater (the first of `sudoku::generate::rate::PREFERRED_RATERS`: the
/// guesses it makes counting solutions up to 2), with the generator's node limit for the size unless
/// `node_limit` is given.
#[pyfunction]
#[pyo3(signature = (puzzles, threads=None, node_limit=None, skip=None))]
fn rate<'py>(
    py: Python<'py>,
    puzzles: PyReadonlyArray2<'py, u8>,
    threads: Option<usize>,
    node_limit: Option<u64>,
    skip: Option<PyReadonlyArray1<'py, bool>>,
) -> PyResult<RateArrays<'py>> {
    let (cells, b, width) = rows(&puzzles)?;
    let skip = skip_mask(skip.as_ref(), puzzles.shape()[0])?;
    let node_limit = node_limit.or_else(|| default_node_limit(b));
    let pool = pool::build(threads)?;
    let cancel = AtomicBool::new(false);
    type Row = (u64, u64, bool, u64, u8, Option<String>);
    let results: Vec<Row> = pool::interruptible(py, &cancel, || {
        let raters: PerThread<Rater> = PerThread::new(pool.current_num_threads());
        pool.install(|| {
            cells
                .par_chunks_exact(width)
                .enumerate()
                .map(|(i, row)| {
                    if skip.is_some_and(|s| s[i]) {
                        return (0, 0, false, 0, INVALID, None);
                    }
                    if cancel.load(Ordering::Relaxed) {
                        return (0, 0, false, 0, LIMIT, None);
                    }
                    let board = match board_of_row(b, row) {
                        Ok(board) => board,
                        Err(e) => return (0, 0, false, 0, INVALID, Some(e)),
                    };
                    let rated = raters.try_with(Rater::preferred, |rater| {
                        panic::catch_unwind(AssertUnwindSafe(|| rater.rate(&board, node_limit)))
                    });
                    match rated {
                        Some(Ok((rating, report))) => {
                            let status = match report.status {
                                Outcome::Solved => SOLVED,
                                Outcome::Unsatisfiable => UNSATISFIABLE,
                                Outcome::Limit(_) => LIMIT,
                            };
                            (
                                rating.guesses,
                                rating.nodes,
                                rating.complete,
                                report.count,
                                status,
                                None,
                            )
                        }
                        Some(Err(_)) => (
                            0,
                            0,
                            false,
                            0,
                            ERROR,
                            Some("the rater panicked".to_string()),
                        ),
                        None => (
                            0,
                            0,
                            false,
                            0,
                            ERROR,
                            Some("no rater is registered".to_string()),
                        ),
                    }
                })
                .collect()
        })
    })?;
    let mut guesses = Vec::with_capacity(results.len());
    let mut nodes = Vec::with_capacity(results.len());
    let mut complete = Vec::with_capacity(results.len());
    let mut counts = Vec::with_capacity(results.len());
    let mut status = Vec::with_capacity(results.len());
    let mut messages = Vec::with_capacity(results.len());
    for (g, n, c, k, s, m) in results {
        guesses.push(g);
        nodes.push(n);
        complete.push(c);
        counts.push(k);
        status.push(s);
        messages.push(m);
    }
    Ok((
        guesses.into_pyarray(py),
        nodes.into_pyarray(py),
        complete.into_pyarray(py),
        counts.into_pyarray(py),
        status.into_pyarray(py),
        collect_errors(messages),
    ))
}

/// Parses one puzzle per string (any format `sudoku solve` reads: a line, a CSV line, a pasted grid) into an
/// `(N, n*n)` array. The width is that of `size` (a side, e.g. 9) or of the first valid string; a string that
/// fails to parse or has another size becomes a zero row and an entry of the error list.
#[pyfunction]
#[pyo3(signature = (texts, size=None, threads=None))]
fn parse_strings<'py>(
    py: Python<'py>,
    texts: Vec<String>,
    size: Option<usize>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray2<u8>>, RowErrors)> {
    let fixed_box = match size {
        None => None,
        Some(side) => Some(sudoku::board::box_size_for_side(side).ok_or_else(|| {
            PyValueError::new_err(format!(
                "size {side} is no Sudoku side (4, 9, 16, 25 or 36)"
            ))
        })?),
    };
    let pool = pool::build(threads)?;
    let parsed: Vec<Result<Board, String>> = py.detach(|| {
        pool.install(|| {
            texts
                .par_iter()
                .map(|t| {
                    sudoku::parse::parse_puzzle(t)
                        .map(|p| p.board)
                        .map_err(|e| e.to_string())
                })
                .collect()
        })
    });
    let b = fixed_box
        .or_else(|| {
            parsed
                .iter()
                .find_map(|r| r.as_ref().ok().map(Board::box_size))
        })
        .unwrap_or(3);
    let width = b.pow(4);
    let mut cells = vec![0u8; parsed.len() * width];
    let mut messages = Vec::with_capacity(parsed.len());
    for (row, result) in cells.chunks_exact_mut(width).zip(parsed) {
        messages.push(match result {
            Ok(board) if board.box_size() == b => {
                row.copy_from_slice(board.cells());
                None
            }
            Ok(board) => Some(format!(
                "a {n}x{n} board in a batch of {m}x{m} boards",
                n = board.side(),
                m = b * b
            )),
            Err(e) => Some(e),
        });
    }
    let n = messages.len();
    Ok((array2(py, cells, n, width)?, collect_errors(messages)))
}

/// The registry's solver names, slowest baseline first.
#[pyfunction]
fn solver_names() -> Vec<&'static str> {
    registry::registry().iter().map(|s| s.name).collect()
}

/// The registry name of the rater `rate` and `generate` use.
#[pyfunction]
fn rater_name() -> Option<&'static str> {
    Rater::preferred().map(|r| r.name)
}
