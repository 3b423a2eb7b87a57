//! `DomWdeg` (Boussemart et al. 2004): smallest `size / wdeg`, where `wdeg(v)` sums the failure weights of the
//! live constraints on `v`. Failures teach the search which part of the problem is hard.

use std::cmp::Ordering;

use super::{is_live, Merit};
use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// Merit = size / weighted degree.
#[derive(Debug)]
pub struct DomWdeg<'a> {
    problem: &'a Problem,
    /// `weights[c]` = 1 + conflicts blamed on constraint `c`.
    weights: &'a [u64],
}

impl<'a> DomWdeg<'a> {
    /// The merit over `problem` with the brancher's failure weights.
    pub fn new(problem: &'a Problem, weights: &'a [u64]) -> Self {
        Self { problem, weights }
    }
}

/// The fraction `size / wdeg`, compared exactly by cross-multiplication.
#[derive(Clone, Copy, Debug)]
pub struct Ratio {
    size: u64,
    wdeg: u64,
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Self) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Self) -> Ordering {
        let lhs = self.size as u128 * other.wdeg as u128;
        let rhs = other.size as u128 * self.wdeg as u128;
        lhs.cmp(&rhs)
    }
}

impl Merit for DomWdeg<'_> {
    type Score = Ratio;
    fn score<D: Domain>(&mut self, st: &State<D>, v: u32, size: u32) -> Ratio {
        let wdeg: u64 = self
            .problem
            .occurrences
            .row(v)
            .iter()
            .filter(|&&(c, _)| is_live(st, self.problem, c, v))
            .map(|&(c, _)| self.weights[c as usize])
            .sum::<u64>()
            .max(1);
        Ratio {
            size: size as u64,
            wdeg,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_compare_as_the_fractions_they_stand_for() {
        // Every pair of fractions with sizes 1..=6 and weights 1..=6, against their quotients as floats (division
        // is correctly rounded, so equal fractions give equal floats and these unequal ones differ by > 1/36).
        let all: Vec<Ratio> = (1..=6u64)
            .flat_map(|size| (1..=6u64).map(move |wdeg| Ratio { size, wdeg }))
            .collect();
        for a in &all {
            for b in &all {
                let (x, y) = (a.size as f64 / a.wdeg as f64, b.size as f64 / b.wdeg as f64);
                let want = x.partial_cmp(&y).expect("finite quotients");
                assert_eq!(a.cmp(b), want, "{a:?} vs {b:?}");
                assert_eq!(a.partial_cmp(b), Some(want), "{a:?} vs {b:?}");
                assert_eq!(a == b, want == Ordering::Equal, "{a:?} vs {b:?}");
            }
        }
        // Products beyond 64 bits are still exact.
        let big = Ratio {
            size: u64::MAX,
            wdeg: u64::MAX - 1,
        };
        let one = Ratio { size: 1, wdeg: 1 };
        assert_eq!(big.cmp(&one), Ordering::Greater);
    }
}
