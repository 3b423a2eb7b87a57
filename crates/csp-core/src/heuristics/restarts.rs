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
}
