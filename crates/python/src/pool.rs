//! Where a batch runs: rayon's global pool, or a pool of the caller's thread count.

use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// A pool of `threads` workers (`None` or 0 = every core).
pub(crate) fn build(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {threads:?} threads: {e}")))
}
