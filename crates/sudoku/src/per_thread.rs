//! One reusable instance per pool thread (a solver, its scratch buffers), safe when a solve calls rayon itself.
//!
//! Why not rayon's `map_init`: it builds an instance per *split* of the parallel iterator, dozens per chunk, and
//! the engine-backed solvers pay for their model and buffers on each build. [`PerThread`] keeps one instance per
//! pool thread for the whole run instead, found by `rayon::current_thread_index`.
//!
//! Why the instance is taken out of its slot for the call, rather than used under the slot's lock: a call that
//! itself uses rayon (a future solver with a parallel search, or any job that calls into the pool from inside a
//! solve) may, while it waits, run another job of the same parallel loop on the same thread. That job asks for
//! the same slot. Under a held `Mutex` it would block on its own thread's lock forever; here it finds the slot
//! empty and takes a spare instance (built on first need, then reused), so nested calls can never deadlock.
//! Locks are held only to move an instance in or out, never while user code runs, so a panicking call poisons
//! nothing: its instance is simply dropped, and the next call builds a fresh one.
//!
//! ```
//! use rayon::prelude::*;
//! use sudoku::per_thread::PerThread;
//!
//! let scratch: PerThread<Vec<u64>> = PerThread::new(rayon::current_num_threads());
//! let sums: Vec<u64> = (0..100u64)
//!     .into_par_iter()
//!     .map(|i| {
//!         scratch.with(Vec::new, |buf| {
//!             buf.clear();
//!             buf.extend(0..=i);
//!             buf.iter().sum()
//!         })
//!     })
//!     .collect();
//! assert_eq!(sums[99], 4950);
//! ```

use std::sync::{Mutex, MutexGuard, PoisonError};

/// One instance of `S` per thread of a rayon pool, plus spares for nested calls on the same thread.
///
/// Invariants: `slots[i]` holds the instance of pool thread `i` when no call on that thread is using it;
/// `spares` holds instances returned while their slot was already filled (at most one per level of nesting
/// ever reached). Neither lock is held while `make` or the caller's closure runs.
#[derive(Debug)]
pub struct PerThread<S> {
    /// `slots[i]` = the instance of pool thread `i % slots.len()`, `None` while in use or not yet built.
    slots: Vec<Mutex<Option<S>>>,
    /// Instances for calls that found their slot empty (in use further up the same thread's stack, or by a
    /// thread outside the pool that maps to the same index).
    spares: Mutex<Vec<S>>,
}

/// Locks `m`, recovering from poison: the data is an `Option` or a `Vec` moved in and out whole, and no user
/// code runs under these locks, so a poisoned one still holds consistent data.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<S> PerThread<S> {
    /// Slots for a pool of `threads` threads (at least one; calls from outside any pool use slot 0).
    pub fn new(threads: usize) -> Self {
        PerThread {
            slots: (0..threads.max(1)).map(|_| Mutex::new(None)).collect(),
            spares: Mutex::new(Vec::new()),
        }
    }

    /// Runs `f` with the calling thread's instance, building it with `make` when there is none. The instance is
    /// kept for the thread's next call unless `f` panics.
    pub fn with<R>(&self, make: impl FnOnce() -> S, f: impl FnOnce(&mut S) -> R) -> R {
        let slot = self.slot();
        let mut instance = self.take(slot).unwrap_or_else(make);
        let result = f(&mut instance);
        self.put_back(slot, instance);
        result
    }

    /// [`PerThread::with`] for a `make` that can fail: `None` (and `f` not run) when it does.
    pub fn try_with<R>(
        &self,
        make: impl FnOnce() -> Option<S>,
        f: impl FnOnce(&mut S) -> R,
    ) -> Option<R> {
        let slot = self.slot();
        let mut instance = match self.take(slot) {
            Some(s) => s,
            None => make()?,
        };
        let result = f(&mut instance);
        self.put_back(slot, instance);
        Some(result)
    }

    /// The calling thread's slot (slot 0 outside any pool; indices of a larger pool wrap around).
    fn slot(&self) -> &Mutex<Option<S>> {
        let index = rayon::current_thread_index().unwrap_or(0);
        &self.slots[index % self.slots.len()]
    }

    /// Moves an instance out: the slot's, else a spare, else none (the caller builds one).
    fn take(&self, slot: &Mutex<Option<S>>) -> Option<S> {
        let own = lock(slot).take();
        own.or_else(|| lock(&self.spares).pop())
    }

    /// Moves an instance back: into the slot when it is empty, else (a nested call returned first) to the spares.
    fn put_back(&self, slot: &Mutex<Option<S>>, instance: S) {
        let mut home = lock(slot);
        if home.is_none() {
            *home = Some(instance);
        } else {
            drop(home);
            lock(&self.spares).push(instance);
        }
    }

    /// The instances held (slots then spares), consuming the helper: for tests and final statistics.
    pub fn into_instances(self) -> Vec<S> {
        let mut all: Vec<S> = self
            .slots
            .into_iter()
            .filter_map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner))
            .collect();
        all.extend(
            self.spares
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner),
        );
        all
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    #[test]
    fn one_instance_per_pool_thread_whatever_the_splits() {
        let pool = pool(2);
        let per_thread: PerThread<u64> = PerThread::new(pool.current_num_threads());
        let built = AtomicU64::new(0);
        for _chunk in 0..3 {
            let out: Vec<u64> = pool.install(|| {
                (0..5000u64)
                    .into_par_iter()
                    .map(|i| {
                        per_thread.with(
                            || {
                                built.fetch_add(1, Ordering::Relaxed);
                                0
                            },
                            |uses| {
                                *uses += 1;
                                i
                            },
                        )
                    })
                    .collect()
            });
            assert!(out.iter().enumerate().all(|(i, &v)| v == i as u64));
        }
        assert!(built.load(Ordering::Relaxed) <= 2, "one build per thread");
        let uses: u64 = per_thread.into_instances().iter().sum();
        assert_eq!(uses, 3 * 5000);
    }

    #[test]
    fn a_call_nested_on_the_same_thread_gets_a_spare_instead_of_blocking() {
        let per_thread: PerThread<u64> = PerThread::new(1);
        let depth = per_thread.with(|| 1, |outer| per_thread.with(|| 2, |inner| *outer + *inner));
        assert_eq!(depth, 3);
        // Both instances are kept: the first back in its slot, the nested one as a spare, reused next time.
        let mut kept = per_thread.into_instances();
        kept.sort_unstable();
        assert_eq!(kept, [1, 2]);
    }

    #[test]
    fn a_job_calling_into_the_pool_from_inside_a_solve_finishes() {
        // Every outer job holds its thread's instance while it runs a nested parallel loop on the same pool. The
        // nested loop's jobs run on the same threads (the first one inline on the caller's), and a thread that
        // waits for stolen nested work may run outer jobs meanwhile: with the instance under a held lock, each of
        // them would wait on its own thread's lock forever.
        let pool = pool(2);
        let per_thread: PerThread<Vec<u64>> = PerThread::new(pool.current_num_threads());
        let built = AtomicU64::new(0);
        let make = || {
            built.fetch_add(1, Ordering::Relaxed);
            Vec::new()
        };
        let totals: Vec<u64> = pool.install(|| {
            (0..64u64)
                .into_par_iter()
                .map(|i| {
                    per_thread.with(make, |outer| {
                        outer.push(i);
                        let nested: u64 = (0..64u64)
                            .into_par_iter()
                            .map(|j| {
                                per_thread.with(make, |inner| {
                                    inner.push(j);
                                    j
                                })
                            })
                            .sum();
                        nested + i
                    })
                })
                .collect()
        });
        assert!(totals
            .iter()
            .enumerate()
            .all(|(i, &t)| t == 2016 + i as u64));
        let instances = per_thread.into_instances();
        assert_eq!(
            instances.len() as u64,
            built.load(Ordering::Relaxed),
            "nothing lost"
        );
        assert_eq!(instances.iter().map(Vec::len).sum::<usize>(), 64 + 64 * 64);
    }

    #[test]
    fn a_panicking_call_drops_its_instance_and_the_next_call_builds_a_fresh_one() {
        let per_thread: PerThread<u64> = PerThread::new(1);
        per_thread.with(|| 7, |v| *v += 1);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            per_thread.with(|| 7, |_| panic!("solver exploded"))
        }));
        assert!(caught.is_err());
        assert_eq!(per_thread.with(|| 100, |v| *v), 100);
    }

    #[test]
    fn a_failing_make_runs_nothing() {
        let per_thread: PerThread<u64> = PerThread::new(1);
        assert_eq!(per_thread.try_with(|| None, |_| 1), None);
        assert_eq!(per_thread.try_with(|| Some(5), |v| *v), Some(5));
    }
}
