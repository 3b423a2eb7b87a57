//! The ordered parallel pipeline of every file run (`sudoku solve`, bench-runner): records are read in chunks,
//! each chunk is mapped in parallel with its results in input order, and handed to the caller's step (write,
//! verify, count) before the next one; plus the one Ctrl-C handling of both binaries ([`interrupt_flag`]).
//!
//! ```text
//!  reader thread (read_ahead)        calling thread
//!  items -> chunk k+1  --channel(1)->  step(chunk k): Pipeline::map (pool, input order) -> write / tally
//! ```
//!
//! Memory is bounded by three chunks (being read, waiting in the channel, in the step) whatever the input size.
//! Chunks start at [`Pipeline::first_chunk`] records and double up to [`Pipeline::chunk`], so the first results
//! of a slow run show (and survive a Ctrl-C) early. Nothing here allocates per record: a chunk is one `Vec` of
//! records and one of results.
//!
//! Cancellation: [`Pipeline::map`] leaves every item after the cancel flag went up unfinished (`None`), and the
//! callers' `map` functions return `None` for a solve the flag stopped; the step sees the `None`s, writes or
//! counts what finished, and returns [`Flow::Stop`].
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use sudoku::pipeline::{Flow, Pipeline};
//!
//! let cancel = AtomicBool::new(false);
//! let pipeline = Pipeline::new(None, Some(&cancel));
//! let mut squares = Vec::new();
//! pipeline.run(1..=1000u64, |chunk| {
//!     let out = pipeline.map(&chunk, |&x| Some(x * x));
//!     squares.extend(out.into_iter().flatten());
//!     Flow::Continue
//! });
//! assert_eq!(squares.len(), 1000);
//! assert_eq!(squares[999], 1_000_000);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

/// Records of the first chunk of a run, when the caller keeps the default.
pub const FIRST_CHUNK: usize = 64;
/// Largest chunk, when the caller keeps the default: enough to keep every thread busy, small enough to bound
/// memory.
pub const CHUNK: usize = 4096;

/// What the step asks of the pipeline after a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on with the next chunk.
    Continue,
    /// Stop: no further chunk is read or handed over (output failed, Ctrl-C, ...).
    Stop,
}

/// How a run is cut and where its chunks are mapped.
#[derive(Clone, Copy, Debug)]
pub struct Pipeline<'a> {
    /// The pool that maps a chunk; `None` maps on the calling thread (the sequential path, clean per-record
    /// latency and no synchronisation).
    pub pool: Option<&'a rayon::ThreadPool>,
    /// Raised by Ctrl-C (or a test): items not started yet are left unfinished.
    pub cancel: Option<&'a AtomicBool>,
    /// Records of the first chunk; each next chunk is twice as large, up to `chunk`.
    pub first_chunk: usize,
    /// Records of the largest chunk.
    pub chunk: usize,
    /// Read the next chunk on a thread of its own while the step handles this one. Off for an interactive
    /// input (stdin): a reader blocked on the terminal would hold up the end of an interrupted run.
    pub read_ahead: bool,
}

impl<'a> Pipeline<'a> {
    /// A pipeline mapping on `pool` (or the calling thread), with the default chunk sizes and read-ahead on.
    pub fn new(pool: Option<&'a rayon::ThreadPool>, cancel: Option<&'a AtomicBool>) -> Self {
        Pipeline {
            pool,
            cancel,
            first_chunk: FIRST_CHUNK,
            chunk: CHUNK,
            read_ahead: true,
        }
    }

    /// True once the cancel flag is up.
    pub fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Hands `items` to `step` chunk by chunk, in input order, until they run out or `step` says stop.
    /// Returns true when every item was handed over.
    pub fn run<T: Send>(
        &self,
        items: impl Iterator<Item = T> + Send,
        mut step: impl FnMut(Vec<T>) -> Flow,
    ) -> bool {
        let first = self.first_chunk.max(1);
        let last = self.chunk.max(first);
        let sizes = std::iter::successors(Some(first), move |&n| Some((2 * n).min(last)));
        let mut chunks = Chunks { items, sizes };
        if !self.read_ahead {
            for chunk in chunks {
                if step(chunk) == Flow::Stop {
                    return false;
                }
            }
            return true;
        }
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<T>>(1);
            scope.spawn(move || {
                // Ends when the items do, or when the receiver is gone (the step stopped).
                for chunk in chunks.by_ref() {
                    if tx.send(chunk).is_err() {
                        break;
                    }
                }
            });
            for chunk in rx {
                if step(chunk) == Flow::Stop {
                    return false;
                }
            }
            true
        })
    }

    /// `f` on every item of `chunk`, in parallel on the pool (or in order on the calling thread), the results in
    /// input order. An item not started before the cancel flag went up is `None`, as is any item `f` gives up.
    pub fn map<T: Sync, R: Send>(
        &self,
        chunk: &[T],
        f: impl Fn(&T) -> Option<R> + Sync,
    ) -> Vec<Option<R>> {
        let one = |item: &T| if self.cancelled() { None } else { f(item) };
        match self.pool {
            None => chunk.iter().map(one).collect(),
            Some(pool) => pool.install(|| chunk.par_iter().map(one).collect()),
        }
    }
}

/// The items cut into chunks of the successive `sizes`.
struct Chunks<I, S> {
    items: I,
    sizes: S,
}

impl<T, I: Iterator<Item = T>, S: Iterator<Item = usize>> Iterator for Chunks<I, S> {
    type Item = Vec<T>;

    fn next(&mut self) -> Option<Vec<T>> {
        let size = self.sizes.next()?;
        // Sized up front: a filtered reader hints no length, and `collect` would grow (and copy) the chunk a
        // dozen times.
        let mut chunk = Vec::with_capacity(size);
        // A plain loop rather than `extend(take(size))`, whose adapters moved each record (about 230 bytes in
        // `sudoku solve`) four times on its way into the chunk.
        while chunk.len() < size {
            match self.items.next() {
                Some(item) => chunk.push(item),
                None => break,
            }
        }
        (!chunk.is_empty()).then_some(chunk)
    }
}

/// The Ctrl-C flag of this process, `None` when no handler could be installed (Ctrl-C then kills at once, as by
/// default). The first Ctrl-C raises it and prints `message` on stderr (after a line break, so it does not land
/// inside a progress bar); solves in flight stop at their next limit check, the run reports what finished and
/// exits with `exit_code` (130 in both binaries). A second Ctrl-C exits at once with `exit_code`.
///
/// A process has one signal handler, so the flag lives as long as the process: the first call installs it and
/// fixes the message; later calls return the same flag.
#[cfg(feature = "interrupt")]
pub fn interrupt_flag(message: &'static str, exit_code: u8) -> Option<std::sync::Arc<AtomicBool>> {
    use std::sync::{Arc, OnceLock};
    static FLAG: OnceLock<Option<Arc<AtomicBool>>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let raised = flag.clone();
        ctrlc::set_handler(move || {
            if raised.swap(true, Ordering::SeqCst) {
                std::process::exit(i32::from(exit_code));
            }
            eprintln!("\n{message}");
        })
        .ok()
        .map(|()| flag)
    })
    .clone()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    #[test]
    fn chunks_grow_from_the_first_size_to_the_largest_and_keep_input_order() {
        for read_ahead in [false, true] {
            let pool = pool(2);
            let mut pipeline = Pipeline::new(Some(&pool), None);
            pipeline.first_chunk = 3;
            pipeline.chunk = 10;
            pipeline.read_ahead = read_ahead;
            let (mut sizes, mut seen) = (Vec::new(), Vec::new());
            let all = pipeline.run(0..50u32, |chunk| {
                sizes.push(chunk.len());
                seen.extend(pipeline.map(&chunk, |&x| Some(x)).into_iter().flatten());
                Flow::Continue
            });
            assert!(all);
            assert_eq!(sizes, [3, 6, 10, 10, 10, 10, 1]);
            assert_eq!(seen, (0..50).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_stopping_step_ends_the_run_and_the_reader() {
        for read_ahead in [false, true] {
            let mut pipeline = Pipeline::new(None, None);
            pipeline.read_ahead = read_ahead;
            let mut steps = 0;
            let all = pipeline.run(0.., |_chunk: Vec<u64>| {
                steps += 1;
                if steps == 3 {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            });
            assert!(!all, "an endless input ends because the step stopped");
            assert_eq!(steps, 3);
        }
    }

    #[test]
    fn items_after_the_cancel_flag_are_left_unfinished() {
        let cancel = AtomicBool::new(false);
        let pipeline = Pipeline::new(None, Some(&cancel));
        let out = pipeline.map(&[1, 2, 3, 4], |&x| {
            if x == 2 {
                cancel.store(true, Ordering::Relaxed);
            }
            Some(x)
        });
        assert_eq!(out, [Some(1), Some(2), None, None]);
        assert!(pipeline.cancelled());
    }
}
