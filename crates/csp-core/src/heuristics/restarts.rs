//! Restart policies: after a budget of failures the search returns to the root and starts again, keeping what the
//! heuristics learned (dom/wdeg weights, the random stream), so one unlucky early choice cannot trap it.

/// When to restart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Restarts {
    /// Never.
    #[default]
    None,
    /// Budgets `scale * luby(i)`: 1, 1, 2, 1, 1, 2, 4, ... (Luby, Sinclair, Zuckerman 1993).
    Luby {
        /// Failures per Luby unit.
        scale: u64,
    },
    /// Budgets `base * factor^i`.
    Geometric {
        /// First budget in failures.
        base: u64,
        /// Growth per restart (> 1 to stay complete).
        factor: f64,
    },
}

/// The running budget sequence of a [`Restarts`] policy.
#[derive(Clone, Debug)]
pub struct RestartPolicy {
    kind: Restarts,
    /// Restarts done so far.
    index: u64,
}

impl RestartPolicy {
    /// A fresh sequence.
    pub fn new(kind: Restarts) -> Self {
        Self { kind, index: 0 }
    }

    /// The next failure budget; `None` = never restart. Budgets never shrink below 1 and keep growing on average,
    /// so a search with restarts remains complete.
    pub fn next_budget(&mut self) -> Option<u64> {
        let i = self.index;
        self.index += 1;
        match self.kind {
            Restarts::None => None,
            Restarts::Luby { scale } => Some(scale.max(1).saturating_mul(luby(i + 1))),
            Restarts::Geometric { base, factor } => {
                let f = if factor.is_finite() && factor > 1.0 {
                    factor
                } else {
                    1.5
                };
                Some(
                    ((base.max(1) as f64) * f.powi(i.min(1000) as i32)).min(u64::MAX as f64 / 2.0)
                        as u64,
                )
            }
        }
    }
}

/// The `i`-th term (1-based) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...
pub fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        // k such that 2^k - 1 >= i
        let mut k = 1u32;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence_starts_as_published() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    /// The Luby sequence by its recursive definition: `2^(k-1)` at `i = 2^k - 1`, else the term at
    /// `i - 2^(k-1) + 1` for the `k` with `2^(k-1) <= i < 2^k - 1`.
    fn luby_by_definition(i: u64) -> u64 {
        let k = 64 - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            1u64 << (k - 1)
        } else {
            luby_by_definition(i - (1u64 << (k - 1)) + 1)
        }
    }

    #[test]
    fn luby_matches_its_recursive_definition_up_to_a_thousand() {
        for i in 1..=1000 {
            assert_eq!(luby(i), luby_by_definition(i), "term {i}");
        }
    }

    #[test]
    fn each_policy_hands_out_its_budgets_in_sequence() {
        let take = |kind: Restarts, n: usize| {
            let mut p = RestartPolicy::new(kind);
            (0..n).map(|_| p.next_budget()).collect::<Vec<_>>()
        };
        assert_eq!(take(Restarts::None, 3), vec![None, None, None]);
        let luby3: Vec<Option<u64>> = [1, 1, 2, 1, 1, 2, 4].iter().map(|&b| Some(3 * b)).collect();
        assert_eq!(take(Restarts::Luby { scale: 3 }, 7), luby3);
        // A scale of 0 counts as 1, so every budget allows a failure.
        assert_eq!(
            take(Restarts::Luby { scale: 0 }, 3),
            vec![Some(1), Some(1), Some(2)]
        );
        let geometric = Restarts::Geometric {
            base: 10,
            factor: 2.0,
        };
        assert_eq!(
            take(geometric, 5),
            vec![Some(10), Some(20), Some(40), Some(80), Some(160)]
        );
        // A base of 0 counts as 1.
        let from_zero = Restarts::Geometric {
            base: 0,
            factor: 3.0,
        };
        assert_eq!(take(from_zero, 3), vec![Some(1), Some(3), Some(9)]);
    }

    #[test]
    fn a_geometric_factor_that_would_not_grow_is_replaced_by_one_and_a_half() {
        for factor in [1.0, 0.5, -2.0, f64::NAN, f64::INFINITY] {
            let mut p = RestartPolicy::new(Restarts::Geometric { base: 100, factor });
            let got: Vec<Option<u64>> = (0..3).map(|_| p.next_budget()).collect();
            assert_eq!(
                got,
                vec![Some(100), Some(150), Some(225)],
                "factor {factor}"
            );
        }
    }

    #[test]
    fn huge_geometric_budgets_stop_at_half_the_largest_count() {
        let mut p = RestartPolicy::new(Restarts::Geometric {
            base: 1 << 40,
            factor: 1e30,
        });
        assert_eq!(p.next_budget(), Some(1 << 40));
        let cap = (u64::MAX as f64 / 2.0) as u64;
        for _ in 0..5 {
            assert_eq!(p.next_budget(), Some(cap));
        }
    }
}
