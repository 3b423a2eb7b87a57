//! Locked candidates between two overlapping permutation groups (derived, never posted by users).
//!
//! Two aligned `all_different` groups `A` and `B` with as many members as values (so each uses every value exactly
//! once) and at least two shared variables: a value that `A` can only place in the shared variables will be taken
//! there, so `B`'s other members cannot take it; and symmetrically. On Sudoku this is box/line reduction ("pointing"
//! and "claiming"); the rule itself knows nothing about grids. Built by [`crate::propagate`] at the `Singles` level
//! when enabled in the search configuration.
//!
//! Measured (callgrind, generic 9x9 model, count to 2): on 100 forum-hardest puzzles nodes drop from 206 to 166 per
//! puzzle but instructions rise from 366M to 634M; on 300 17-clue puzzles guesses drop from 4.3 to 0.6 per puzzle
//! for +6% instructions. A net loss for throughput as scheduled today, hence off by default.
//!
//! The group kernel (`kernel.rs`) runs the same rule on its holder sets (same fixpoint, same node counts; tested).
//! There, count to 2 (callgrind, first 1000 / 300 / 95 puzzles): 17_clue 80.7M -> 100.9M instructions (7.0 -> 0.9
//! nodes per puzzle), forum_hardest 298M -> 528M (171.5 -> 139.8 nodes), top95 32.8M -> 30.0M (57.9 -> 20.2 nodes):
//! still off by default.

use crate::domain::{Domain, Word};
use crate::state::{Conflict, State};

/// The pair `A`, `B` split into `A \ B`, `B \ A` and `A ∩ B`.
#[derive(Clone, Debug)]
pub struct Intersection {
    /// Group `A` (blamed for conflicts found on `B`'s side).
    pub a: u32,
    /// Group `B`.
    pub b: u32,
    a_only: Vec<u32>,
    b_only: Vec<u32>,
    shared: Vec<u32>,
    all: Vec<u32>,
}

impl Intersection {
    /// The pair of groups `a` (scope `a_vars`) and `b`, if they share at least two variables.
    pub fn new(a: u32, a_vars: &[u32], b: u32, b_vars: &[u32]) -> Option<Self> {
        let shared: Vec<u32> = a_vars
            .iter()
            .copied()
            .filter(|v| b_vars.contains(v))
            .collect();
        if shared.len() < 2 {
            return None;
        }
        let a_only: Vec<u32> = a_vars
            .iter()
            .copied()
            .filter(|v| !shared.contains(v))
            .collect();
        let b_only: Vec<u32> = b_vars
            .iter()
            .copied()
            .filter(|v| !shared.contains(v))
            .collect();
        let mut all: Vec<u32> = a_vars.iter().chain(b_vars).copied().collect();
        all.sort_unstable();
        all.dedup();
        Some(Self {
            a,
            b,
            a_only,
            b_only,
            shared,
            all,
        })
    }

    /// Every variable of `A ∪ B` (the watch list).
    pub fn vars(&self) -> &[u32] {
        &self.all
    }

    /// Removes from each side's private members the values the other side confines to the shared members.
    /// One-word domains only (a no-op otherwise).
    #[inline]
    pub fn propagate<D: Domain>(&self, st: &mut State<D>) -> Result<(), Conflict> {
        if st.dom(self.shared[0]).slots() != 1 {
            return Ok(());
        }
        let union =
            |st: &State<D>, vs: &[u32]| vs.iter().fold(D::W::ZERO, |m, &v| m | st.dom(v).word(0));
        let inter = union(st, &self.shared);
        let lock_a = inter & !union(st, &self.a_only);
        let lock_b = inter & !union(st, &self.b_only);
        st.blame = self.a;
        Self::strip(st, &self.b_only, lock_a)?;
        st.blame = self.b;
        Self::strip(st, &self.a_only, lock_b)
    }

    fn strip<D: Domain>(st: &mut State<D>, vars: &[u32], lock: D::W) -> Result<(), Conflict> {
        if lock.is_zero() {
            return Ok(());
        }
        for &u in vars {
            let w = st.dom(u).word(0);
            if !(w & lock).is_zero() {
                st.set_word(u, 0, w & !lock)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::constraints::soundness::positions;
    use crate::domain::WideDomain;
    use crate::rng::Rng;

    /// `k` distinct variables out of `0..n`, in random order.
    fn random_scope(rng: &mut Rng, n: u32, k: usize) -> Vec<u32> {
        let mut all: Vec<u32> = (0..n).collect();
        rng.shuffle(&mut all);
        all.truncate(k);
        all
    }

    /// A state of `n` variables of `width` values, each keeping a random non-empty subset (biased towards few
    /// values, so locks and wipe-outs both happen).
    fn random_state(rng: &mut Rng, n: usize, width: usize) -> State<u64> {
        let mut st: State<u64> = State::new(&vec![width; n]);
        for v in 0..n as u32 {
            let full = (1u64 << width) - 1;
            let mut keep = rng.next_u64() & rng.next_u64() & full;
            if rng.below(3) == 0 {
                keep |= rng.next_u64() & full;
            }
            if keep == 0 {
                keep = 1 << rng.below_usize(width);
            }
            st.set_word(v, 0, keep).unwrap();
        }
        st
    }

    /// The positions some member of `vars` still holds.
    fn held(doms: &[Vec<usize>], vars: &[u32]) -> Vec<usize> {
        let mut out: Vec<usize> = vars
            .iter()
            .flat_map(|&v| doms[v as usize].iter().copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn a_pair_exists_only_from_two_shared_members_and_splits_into_private_shared_and_all() {
        let mut rng = Rng::new(11);
        let (mut none, mut some) = (0, 0);
        for _ in 0..2000 {
            let n = 2 + rng.below(7) as u32;
            let ka = 1 + rng.below_usize(n as usize);
            let a_vars = random_scope(&mut rng, n, ka);
            let kb = 1 + rng.below_usize(n as usize);
            let b_vars = random_scope(&mut rng, n, kb);
            let shared: Vec<u32> = a_vars
                .iter()
                .copied()
                .filter(|v| b_vars.contains(v))
                .collect();
            let Some(pair) = Intersection::new(3, &a_vars, 5, &b_vars) else {
                assert!(
                    shared.len() < 2,
                    "{a_vars:?} {b_vars:?}: a pair was refused"
                );
                none += 1;
                continue;
            };
            some += 1;
            assert!(
                shared.len() >= 2,
                "{a_vars:?} {b_vars:?}: a pair with {shared:?} shared"
            );
            assert_eq!((pair.a, pair.b), (3, 5));
            assert_eq!(pair.shared, shared, "{a_vars:?} {b_vars:?}");
            let a_only: Vec<u32> = a_vars
                .iter()
                .copied()
                .filter(|v| !b_vars.contains(v))
                .collect();
            let b_only: Vec<u32> = b_vars
                .iter()
                .copied()
                .filter(|v| !a_vars.contains(v))
                .collect();
            assert_eq!(pair.a_only, a_only, "{a_vars:?} {b_vars:?}");
            assert_eq!(pair.b_only, b_only, "{a_vars:?} {b_vars:?}");
            let mut all: Vec<u32> = a_vars.iter().chain(&b_vars).copied().collect();
            all.sort_unstable();
            all.dedup();
            assert_eq!(pair.vars(), &all[..], "{a_vars:?} {b_vars:?}");
        }
        assert!(none > 100 && some > 100, "{none} refused, {some} built");
    }

    #[test]
    fn each_side_loses_exactly_the_values_the_other_side_can_place_only_in_the_shared_members() {
        let mut rng = Rng::new(12);
        let mut seen = [0usize; 4]; // unchanged, pruned, failed blaming A, failed blaming B
        for round in 0..5000 {
            let n = 4 + rng.below(5) as usize;
            let width = 2 + rng.below_usize(8);
            let ka = 2 + rng.below_usize(n - 1);
            let a_vars = random_scope(&mut rng, n as u32, ka);
            let mut b_vars: Vec<u32> = a_vars[..2].to_vec();
            let kb = rng.below_usize(n);
            b_vars.extend(random_scope(&mut rng, n as u32, kb));
            b_vars.sort_unstable();
            b_vars.dedup();
            rng.shuffle(&mut b_vars);
            let pair = Intersection::new(0, &a_vars, 1, &b_vars).unwrap();
            let mut st = random_state(&mut rng, n, width);
            let before = positions(&st);

            // The rule by its definition, on position lists.
            let inter = held(&before, &pair.shared);
            let lock_a: Vec<usize> = inter
                .iter()
                .copied()
                .filter(|p| !held(&before, &pair.a_only).contains(p))
                .collect();
            let lock_b: Vec<usize> = inter
                .iter()
                .copied()
                .filter(|p| !held(&before, &pair.b_only).contains(p))
                .collect();
            let mut expected = before.clone();
            let mut fails = None;
            for (vars, lock, blame) in [(&pair.b_only, &lock_a, 0), (&pair.a_only, &lock_b, 1)] {
                for &v in vars {
                    expected[v as usize].retain(|p| !lock.contains(p));
                    if expected[v as usize].is_empty() && fails.is_none() {
                        fails = Some(blame);
                    }
                }
            }

            let what = format!("round {round}: A {a_vars:?} B {b_vars:?} domains {before:?}");
            match (pair.propagate(&mut st), fails) {
                (Ok(()), None) => {
                    assert_eq!(positions(&st), expected, "{what}");
                    seen[usize::from(expected != before)] += 1;
                }
                (Err(c), Some(blame)) => {
                    assert_eq!(c.constraint, blame, "{what}: blamed the wrong group");
                    seen[2 + blame as usize] += 1;
                }
                (got, want) => panic!("{what}: got {got:?}, expected a failure blaming {want:?}"),
            }
        }
        assert!(seen.iter().all(|&k| k > 50), "outcomes {seen:?}");
    }

    #[test]
    fn no_value_of_a_solution_of_two_permutation_groups_is_removed_and_a_failure_means_no_solution()
    {
        // Groups A = {0, 1, 2, 3} and B = {2, 3, 4, 5} over 4 values: both permutations, sharing x2 and x3.
        let (a_vars, b_vars) = ([0, 1, 2, 3], [3, 2, 5, 4]);
        let pair = Intersection::new(0, &a_vars, 1, &b_vars).unwrap();
        let mut rng = Rng::new(13);
        let (mut solvable, mut failed) = (0, 0);
        for round in 0..3000 {
            let mut st: State<u64> = State::new(&[4; 6]);
            for v in 0..6 {
                // Mostly full domains, so that solutions exist.
                let keep = rng.next_u64() & 0b1111;
                if rng.below(3) == 0 && keep != 0 {
                    st.set_word(v, 0, keep).unwrap();
                }
            }
            let before = positions(&st);
            let mut support = vec![vec![false; 4]; 6];
            let mut any = false;
            for code in 0..4usize.pow(6) {
                let x: Vec<usize> = (0..6).map(|i| code / 4usize.pow(i) % 4).collect();
                let distinct = |vs: &[u32]| {
                    vs.iter()
                        .map(|&v| 1u32 << x[v as usize])
                        .fold(0, |m, b| m | b)
                        .count_ones()
                        == 4
                };
                if (0..6).all(|v| before[v].contains(&x[v]))
                    && distinct(&a_vars)
                    && distinct(&b_vars)
                {
                    any = true;
                    for v in 0..6 {
                        support[v][x[v]] = true;
                    }
                }
            }
            let what = format!("round {round}: domains {before:?}");
            match pair.propagate(&mut st) {
                Ok(()) => {
                    let after = positions(&st);
                    for (v, (held, kept)) in support.iter().zip(&after).enumerate() {
                        for (p, _) in held.iter().enumerate().filter(|(_, &s)| s) {
                            assert!(kept.contains(&p), "{what}: x{v} lost {p}");
                        }
                    }
                    solvable += usize::from(any);
                }
                Err(_) => {
                    assert!(!any, "{what}: failed with a solution");
                    failed += 1;
                }
            }
        }
        assert!(
            solvable > 100 && failed > 20,
            "{solvable} solvable, {failed} failed"
        );
    }

    #[test]
    fn domains_of_more_than_one_word_are_left_alone() {
        // Value 0 is locked in the shared members by A (x0 cannot take it), so one-word domains would lose it in
        // B's private member x3; a 130-value domain has three words and the rule does nothing there.
        let pair = Intersection::new(0, &[0, 1, 2], 1, &[1, 2, 3]).unwrap();
        let mut st: State<WideDomain> = State::new(&[130; 4]);
        st.remove(0, 0).unwrap();
        let before = positions(&st);
        pair.propagate(&mut st).unwrap();
        assert_eq!(positions(&st), before);

        let mut one: State<u64> = State::new(&[9; 4]);
        one.remove(0, 0).unwrap();
        pair.propagate(&mut one).unwrap();
        assert!(!one.contains(3, 0), "the same pair prunes one-word domains");
    }
}
