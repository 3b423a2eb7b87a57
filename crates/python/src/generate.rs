//! `generate`: the `sudoku` crate's generator over a batch, as arrays.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use sudoku::board::box_size_for_side;
use sudoku::generate::{self, GenerateOptions, Target};

use crate::batch::array2;
use crate::pool;

/// Registers this module's functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(generate_batch, m)?)?;
    Ok(())
}

/// Puzzles, solutions, guesses (the rating), nodes, candidate index, rating complete, and the rater's name.
type Generated<'py> = (
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<bool>>,
    &'static str,
);

/// Generates `count` unique puzzles of side `size` from `seed` (the same puzzles whatever the thread count).
#[pyfunction]
#[pyo3(signature = (size, count, seed, clues, symmetric, min_rating, max_rating, threads, max_candidates))]
#[allow(clippy::too_many_arguments)]
fn generate_batch<'py>(
    py: Python<'py>,
    size: usize,
    count: usize,
    seed: u64,
    clues: Option<usize>,
    symmetric: bool,
    min_rating: Option<u64>,
    max_rating: Option<u64>,
    threads: Option<usize>,
    max_candidates: Option<u64>,
) -> PyResult<Generated<'py>> {
    let b = box_size_for_side(size).ok_or_else(|| {
        PyValueError::new_err(format!(
            "size {size} is no Sudoku side (4, 9, 16, 25 or 36)"
        ))
    })?;
    let options = GenerateOptions {
        target: clues.map_or(Target::Minimal, Target::Clues),
        symmetric,
        min_rating,
        max_rating,
        ..GenerateOptions::new(b)
    };
    // The CLI's default budget: a thousand candidates per puzzle asked for.
    let budget = max_candidates.unwrap_or_else(|| (count as u64).saturating_mul(1000).max(1000));
    let pool = pool::build(threads)?;
    // Ctrl-C raises `cancel`: candidates not started are skipped and `KeyboardInterrupt` is raised once the ones
    // being made are done (a 9x9 candidate takes about a millisecond).
    let cancel = AtomicBool::new(false);
    let mut kept = Vec::with_capacity(count);
    let summary = pool::interruptible(py, &cancel, || {
        pool.install(|| {
            generate::generate_each_until(&options, seed, count, budget, &cancel, |g| {
                kept.push(g);
                ControlFlow::Continue(())
            })
        })
    })?
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let width = b.pow(4);
    let n = kept.len();
    let mut puzzles = Vec::with_capacity(n * width);
    let mut solutions = Vec::with_capacity(n * width);
    let mut guesses = Vec::with_capacity(n);
    let mut nodes = Vec::with_capacity(n);
    let mut index = Vec::with_capacity(n);
    let mut complete = Vec::with_capacity(n);
    for g in &kept {
        puzzles.extend_from_slice(g.puzzle.cells());
        solutions.extend_from_slice(g.solution.cells());
        guesses.push(g.rating.guesses);
        nodes.push(g.rating.nodes);
        index.push(g.index);
        complete.push(g.rating.complete);
    }
    Ok((
        array2(py, puzzles, n, width)?,
        array2(py, solutions, n, width)?,
        guesses.into_pyarray(py),
        nodes.into_pyarray(py),
        index.into_pyarray(py),
        complete.into_pyarray(py),
        summary.rater,
    ))
}
