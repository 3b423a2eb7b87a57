//! Search statistics: what one solve cost, summable across solves and threads.

use std::iter::Sum;
use std::ops::{Add, AddAssign};
use std::time::Duration;

/// Counters of one solve (or, after adding, of many).
///
/// Every counter is monotone during a solve. Adding two `Stats` sums the counters and the time and keeps the
/// larger `max_depth`, so a rayon `reduce` over per-puzzle stats gives the totals of a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes: decisions taken (each value tried at a branching point counts once).
    pub nodes: u64,
    /// Branching points where more than one candidate value existed (a forced move is not a guess).
    pub guesses: u64,
    /// Dead ends: propagation conflicts and exhausted branches (the backtracks of the search).
    pub fails: u64,
    /// Propagator invocations (one constraint reacting to one change, or one full check).
    pub propagations: u64,
    /// Deepest decision level reached.
    pub max_depth: u64,
    /// Restarts performed by a restart policy.
    pub restarts: u64,
    /// Solutions found (counting mode counts every one; first-solution mode stops at 1).
    pub solutions: u64,
    /// Wall time spent inside the solve.
    pub time: Duration,
}

impl Add for Stats {
    type Output = Stats;

    fn add(mut self, rhs: Stats) -> Stats {
        self += rhs;
        self
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, rhs: Stats) {
        self.nodes += rhs.nodes;
        self.guesses += rhs.guesses;
        self.fails += rhs.fails;
        self.propagations += rhs.propagations;
        self.max_depth = self.max_depth.max(rhs.max_depth);
        self.restarts += rhs.restarts;
        self.solutions += rhs.solutions;
        self.time += rhs.time;
    }
}

impl Sum for Stats {
    fn sum<I: Iterator<Item = Stats>>(iter: I) -> Stats {
        iter.fold(Stats::default(), Add::add)
    }
}

impl<'a> Sum<&'a Stats> for Stats {
    fn sum<I: Iterator<Item = &'a Stats>>(iter: I) -> Stats {
        iter.copied().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_stats_sums_counters_and_keeps_the_deepest_level() {
        let a = Stats {
            nodes: 3,
            guesses: 1,
            fails: 2,
            max_depth: 7,
            time: Duration::from_millis(2),
            ..Stats::default()
        };
        let b = Stats {
            nodes: 4,
            guesses: 2,
            fails: 0,
            max_depth: 5,
            time: Duration::from_millis(3),
            ..Stats::default()
        };
        let s: Stats = [a, b].iter().sum();
        assert_eq!(s.nodes, 7);
        assert_eq!(s.guesses, 3);
        assert_eq!(s.fails, 2);
        assert_eq!(s.max_depth, 7);
        assert_eq!(s.time, Duration::from_millis(5));
    }
}
