//! `csp_sudoku._native`: the thin Rust layer of the `csp-sudoku` Python package.
//!
//! Every batch function takes a whole `uint8` array (or a list of strings) at once, converts it once, releases
//! the GIL (`Python::detach`) and works on rayon's pool; results come back as freshly allocated numpy arrays in input
//! order, so no Python object is made per puzzle on the array path. Everything Sudoku-specific (parsing, solving,
//! verification, rating, generation) is the `sudoku` crate's; this crate only moves data across the boundary.
//! Shape and dtype checks, result objects and conveniences live in Python (`python/csp_sudoku/`), with the type
//! stubs of this module in `_native.pyi`.
//!
//! Modules: [`batch`] (solve, verify, rate, parse over arrays), [`generate`], [`read`] (streamed files),
//! [`symmetry`] (canonical forms and augmentation), [`engine`] (csp-core models from Python).

use pyo3::prelude::*;

mod batch;
mod engine;
mod generate;
mod pool;
mod read;
mod symmetry;

/// The native module; the package re-exports what users need from `csp_sudoku`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    batch::register(m)?;
    generate::register(m)?;
    read::register(m)?;
    symmetry::register(m)?;
    engine::register(m)?;
    Ok(())
}
