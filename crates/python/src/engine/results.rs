//! What searches hand back to Python: [`Solution`], [`SearchResult`] and the lazy [`Solutions`] iterator.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use csp_core::{LimitKind, Outcome, Stats};

use super::IntVar;

/// Statistics as a dict: nodes, guesses, fails, propagations, max_depth, restarts, solutions, time (seconds).
fn stats_dict<'py>(py: Python<'py>, stats: &Stats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("nodes", stats.nodes)?;
    d.set_item("guesses", stats.guesses)?;
    d.set_item("fails", stats.fails)?;
    d.set_item("propagations", stats.propagations)?;
    d.set_item("max_depth", stats.max_depth)?;
    d.set_item("restarts", stats.restarts)?;
    d.set_item("solutions", stats.solutions)?;
    d.set_item("time", stats.time.as_secs_f64())?;
    Ok(d)
}

/// Values of the variables a model had when it was solved, read with `solution[x]`.
#[pyclass(module = "csp_sudoku._native", frozen)]
#[derive(Clone)]
pub(crate) struct Solution {
    /// One value per Python variable, in creation order (hidden engine variables left out).
    pub(super) values: Vec<i64>,
    pub(super) model: u64,
    pub(super) names: Arc<[String]>,
}

#[pymethods]
impl Solution {
    /// The value of `x`.
    fn __getitem__(&self, x: PyRef<'_, IntVar>) -> PyResult<i64> {
        if x.model != self.model {
            return Err(PyValueError::new_err(format!(
                "variable {} belongs to another model",
                x.name
            )));
        }
        self.values.get(x.index).copied().ok_or_else(|| {
            PyValueError::new_err(format!("variable {} came after this solution", x.name))
        })
    }

    /// Every value, in variable creation order.
    #[getter]
    fn values(&self) -> Vec<i64> {
        self.values.clone()
    }

    /// `{name: value}` for every variable.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, v) in self.names.iter().zip(&self.values) {
            d.set_item(name, v)?;
        }
        Ok(d)
    }

    fn __len__(&self) -> usize {
        self.values.len()
    }

    fn __eq__(&self, other: PyRef<'_, Solution>) -> bool {
        self.model == other.model && self.values == other.values
    }

    fn __repr__(&self) -> String {
        let parts: Vec<String> = self
            .names
            .iter()
            .zip(&self.values)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        format!("Solution({})", parts.join(", "))
    }
}

/// What `solve`, `count`, `minimize` and `maximize` return.
#[pyclass(module = "csp_sudoku._native", frozen)]
pub(crate) struct SearchResult {
    /// `solved`, `unsatisfiable` or `limit`; for `minimize`/`maximize`: `optimal`, `feasible`, `unsatisfiable`
    /// or `unknown`.
    #[pyo3(get)]
    pub(super) status: &'static str,
    /// Solutions found (1 or 0 for `solve`; for `minimize`/`maximize`, 1 when there is a best solution).
    #[pyo3(get)]
    pub(super) count: u64,
    /// The (first, or best) solution, if any.
    #[pyo3(get)]
    pub(super) solution: Option<Solution>,
    /// The objective's value of `solution` (`minimize`/`maximize` only).
    #[pyo3(get)]
    pub(super) objective: Option<i64>,
    /// Improving solutions found by `minimize`/`maximize` (0 for the other calls).
    #[pyo3(get)]
    pub(super) improvements: u64,
    pub(super) stats: Stats,
}

#[pymethods]
impl SearchResult {
    /// Search statistics: nodes, guesses, fails, propagations, max_depth, restarts, solutions, time (s).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        stats_dict(py, &self.stats)
    }

    /// The value of `x` in the solution; `RuntimeError` when there is none.
    fn __getitem__(&self, x: PyRef<'_, IntVar>) -> PyResult<i64> {
        match &self.solution {
            Some(s) => s.__getitem__(x),
            None => Err(PyRuntimeError::new_err(format!(
                "no solution (status {})",
                self.status
            ))),
        }
    }

    /// True when a solution was found.
    fn __bool__(&self) -> bool {
        self.solution.is_some()
    }

    fn __repr__(&self) -> String {
        let objective = self.objective.map_or("None".to_string(), |v| v.to_string());
        format!(
            "SearchResult(status={}, count={}, objective={objective})",
            self.status, self.count
        )
    }
}

/// How often a waiting iterator lets Python run its signal handlers (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// The lazy iterator of `Model.solutions()`.
#[pyclass(module = "csp_sudoku._native")]
pub(crate) struct Solutions {
    pub(super) rx: Mutex<Option<Receiver<Vec<i64>>>>,
    pub(super) handle: Mutex<Option<JoinHandle<(Outcome, Stats)>>>,
    pub(super) cancel: Arc<AtomicBool>,
    /// How the search ended, once it has.
    pub(super) end: Mutex<Option<(Outcome, Stats)>>,
    pub(super) model: u64,
    pub(super) names: Arc<[String]>,
}

impl Solutions {
    /// Waits for the search thread and keeps how it ended.
    fn finish(&self) -> PyResult<()> {
        let handle = self.handle.lock().map_err(|_| poisoned())?.take();
        if let Some(h) = handle {
            let end = h
                .join()
                .map_err(|_| PyRuntimeError::new_err("the search thread panicked"))?;
            *self.end.lock().map_err(|_| poisoned())? = Some(end);
        }
        Ok(())
    }
}

fn poisoned() -> PyErr {
    PyRuntimeError::new_err("the solution iterator's lock is poisoned")
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Solution>> {
        // The receiver is taken out while waiting, so no lock is held without the GIL (a second thread calling
        // `next` meanwhile sees an ended iterator: iterate from one thread).
        let Some(mut rx) = self.rx.lock().map_err(|_| poisoned())?.take() else {
            return Ok(None);
        };
        loop {
            let (back, received) = py.detach(move || {
                let received = rx.recv_timeout(SIGNAL_POLL);
                (rx, received)
            });
            rx = back;
            match received {
                Ok(values) => {
                    *self.rx.lock().map_err(|_| poisoned())? = Some(rx);
                    return Ok(Some(Solution {
                        values,
                        model: self.model,
                        names: self.names.clone(),
                    }));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    drop(rx);
                    py.detach(|| self.finish())?;
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = py.check_signals() {
                        // The search goes on waiting for the consumer; `next` may be called again.
                        *self.rx.lock().map_err(|_| poisoned())? = Some(rx);
                        return Err(interrupt);
                    }
                }
            }
        }
    }

    /// Stops the search (the iterator then ends).
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        self.cancel.store(true, Ordering::Relaxed);
        *self.rx.lock().map_err(|_| poisoned())? = None;
        py.detach(|| self.finish())
    }

    /// `solved`/`unsatisfiable` once the search has ended by itself (every solution seen), `limit` when a limit
    /// or `close()` stopped it, `None` while it runs.
    #[getter]
    fn status(&self) -> PyResult<Option<&'static str>> {
        Ok(self
            .end
            .lock()
            .map_err(|_| poisoned())?
            .as_ref()
            .map(|(o, _)| match o {
                Outcome::Limit(LimitKind::Cancelled) => "limit",
                o => o.as_str(),
            }))
    }

    /// Statistics of the whole search, once it has ended (`None` before).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let end = self.end.lock().map_err(|_| poisoned())?;
        end.as_ref().map(|(_, s)| stats_dict(py, s)).transpose()
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        // Dropping the receiver makes the thread's next send fail, and the cancel flag stops a search that is
        // between solutions; the thread then ends on its own (it is not joined here, to keep drop cheap).
        self.cancel.store(true, Ordering::Relaxed);
        if let Ok(mut rx) = self.rx.lock() {
            *rx = None;
        }
    }
}
