//! Limits that bound a search, and the outcome that says which one stopped it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bounds on one solve. `None` means unbounded. A limit that stops a search makes the outcome
/// [`Outcome::Limit`]; it is never reported as unsatisfiable.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum search nodes (decisions).
    pub nodes: Option<u64>,
    /// Maximum wall time.
    pub time: Option<Duration>,
    /// External cancel flag: when it becomes `true`, the search stops at its next check.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Nodes between two reads of the clock and the cancel flag in [`Limits::exceeded`] (fast searches: Sudoku's
    /// kernels, whose nodes cost about a microsecond).
    pub const CHECK_EVERY: u64 = 1024;

    /// No limit at all.
    pub fn none() -> Self {
        Self::default()
    }

    /// Sets the node limit.
    pub fn with_nodes(mut self, nodes: u64) -> Self {
        self.nodes = Some(nodes);
        self
    }

    /// Sets the time limit.
    pub fn with_time(mut self, time: Duration) -> Self {
        self.time = Some(time);
        self
    }

    /// Sets the cancel flag.
    pub fn with_cancel(mut self, cancel: Arc<AtomicBool>) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// Checks the limits against `nodes` searched so far and the solve's `start`.
    ///
    /// Cheap enough to call at every node: the clock and the flag are only read every [`Limits::CHECK_EVERY`]
    /// (1024) nodes.
    #[inline]
    pub fn exceeded(&self, nodes: u64, start: Instant) -> Option<LimitKind> {
        self.exceeded_every(nodes, start, Self::CHECK_EVERY)
    }

    /// [`Limits::exceeded`] reading the clock and the flag every `every` nodes (a power of two). A search whose
    /// nodes can be slow passes a small interval: on FlatZinc models with heavy propagation a node can cost
    /// 10-100 ms (MiniZinc Challenge `magicseq` n = 100, 100 count constraints over the same 100 variables: about
    /// 14 ms), where 1024 nodes overshot `-t 5000` by 10 s and more.
    #[inline]
    pub fn exceeded_every(&self, nodes: u64, start: Instant, every: u64) -> Option<LimitKind> {
        if let Some(max) = self.nodes {
            if nodes >= max {
                return Some(LimitKind::Nodes);
            }
        }
        debug_assert!(every.is_power_of_two());
        if nodes & (every - 1) == 0 {
            if let Some(flag) = &self.cancel {
                if flag.load(Ordering::Relaxed) {
                    return Some(LimitKind::Cancelled);
                }
            }
            if let Some(max) = self.time {
                if start.elapsed() >= max {
                    return Some(LimitKind::Time);
                }
            }
        }
        None
    }
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// The node limit was reached.
    Nodes,
    /// The time limit was reached.
    Time,
    /// The cancel flag was raised.
    Cancelled,
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// At least one solution was found (in counting mode: the search finished or reached the solution limit).
    Solved,
    /// The search space was exhausted without a solution: a proof of unsatisfiability.
    Unsatisfiable,
    /// A limit stopped the search before it could conclude.
    Limit(LimitKind),
}

impl Outcome {
    /// The outcome's word, the one every front end prints: `solved`, `unsatisfiable` or `limit` (whatever limit
    /// stopped the search: a stopped search proves nothing, so the kind is detail, not status).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::Unsatisfiable => "unsatisfiable",
            Outcome::Limit(_) => "limit",
        }
    }

    /// Whether a limit (nodes, time or cancel) stopped the search.
    pub fn is_limit(self) -> bool {
        matches!(self, Outcome::Limit(_))
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
