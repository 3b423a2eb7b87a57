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
