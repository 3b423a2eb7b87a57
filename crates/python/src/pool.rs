//! Where a batch runs (a rayon pool of the caller's thread count) and how it stays interruptible.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::{PyResult, Python};

/// A pool of `threads` workers (`None` or 0 = every core).
pub(crate) fn build(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {threads:?} threads: {e}")))
}

/// How often a waiting batch lets Python run its signal handlers.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Runs `job` on a scoped thread while the calling thread waits without the GIL, waking every [`SIGNAL_POLL`] to
/// let Python handle signals. On Ctrl-C (or any handler raising), `cancel` is raised so the job winds down at its
/// next check (searches stop at their next limit check, rows not started are skipped), and the handler's
/// exception (`KeyboardInterrupt`) is returned once the job has ended.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    job: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = channel::<()>();
        let handle = scope.spawn(move || {
            let result = job();
            // The receiver outlives the job (it is dropped after the join below), so this cannot fail.
            let _ = done_tx.send(());
            result
        });
        let mut done_rx = done_rx;
        loop {
            // The receiver is moved into the wait and back (it may be sent to another thread, not shared).
            let (rx, received) = py.detach(move || {
                let received = done_rx.recv_timeout(SIGNAL_POLL);
                (done_rx, received)
            });
            done_rx = rx;
            match received {
                Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(interrupt) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                let _ = py.detach(move || handle.join());
                return Err(interrupt);
            }
        }
        py.detach(move || handle.join())
            .map_err(|_| PyRuntimeError::new_err("a batch worker panicked"))
    })
}
