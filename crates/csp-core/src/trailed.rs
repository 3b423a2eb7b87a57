//! Trailed words owned by constraints: state a propagator keeps between calls (e.g. `table`'s set of valid rows
//! and its snapshot of the domains it last saw) that backtracking must restore together with the domains.
//!
//! The [`Problem`](crate::Problem) is frozen and shared by threads, so a constraint cannot hold mutable state
//! itself; it owns a slice of this store instead, placed when the model is built (offsets stored in the
//! constraint), and every search [`State`](crate::state::State) owns one copy. The store has three areas:
//!
//! | area      | type     | trailed | used by `table` for                                          |
//! |-----------|----------|---------|--------------------------------------------------------------|
//! | `words`   | `u64`    | yes     | number of non-zero row words, primed flag, valid-row bitset  |
//! | `doms`    | `D::W`   | yes     | the scope's domains as the propagator last saw them          |
//! | `free`    | `u32`    | no      | sparse-set index of row words, residues (hints only)         |
//!
//! Levels are opened and closed by `State::push_level` / `State::pop_level`, in the same calls that open and close
//! the domain trail, so one undo restores both. As for one-word domains, a word is trailed at most once per level
//! (its stamp says in which level it was last saved) and never at the root, which is never undone;
//! [`Trailed::reset`] restores the initial words before each solve. Untrailed words must be either hints whose any
//! in-range value is correct (residues) or structures whose restored prefix stays valid (a sparse set's index
//! array: swaps stay within the prefix that the trailed size restores).
//!
//! With no constraint using the store (no `table`), every operation is a no-op on empty vectors.

/// Where constraints' words live, decided once when the model is built: initial contents of the `u64` and `free`
/// areas, the number of domain words (their initial contents depend on the representation, see
/// `Problem::trailed`), and the scratch size.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Initial trailed `u64` words.
    pub(crate) words: Vec<u64>,
    /// Number of trailed domain words.
    pub(crate) doms: usize,
    /// Initial untrailed `u32` words.
    pub(crate) free: Vec<u32>,
    /// Scratch words one propagator call may use.
    pub(crate) tmp: usize,
}

/// The trailed words of one search; `W` is the domain word type.
#[derive(Clone, Debug)]
pub struct Trailed<W> {
    /// `words[i]` = current contents of trailed `u64` word `i`.
    words: Vec<u64>,
    /// `words_init[i]` = contents of word `i` before any propagation (restored by [`Trailed::reset`]).
    words_init: Vec<u64>,
    /// `word_stamp[i]` = stamp of the level in which `words[i]` was last trailed.
    word_stamp: Vec<u64>,
    /// `doms[i]` = current contents of trailed domain word `i`.
    doms: Vec<W>,
    /// Initial contents of `doms`.
    doms_init: Vec<W>,
    /// `dom_stamp[i]` = stamp of the level in which `doms[i]` was last trailed.
    dom_stamp: Vec<u64>,
    /// `(index, old contents)` of every trailed change of `words`, oldest first.
    word_trail: Vec<(u32, u64)>,
    /// `(index, old contents)` of every trailed change of `doms`, oldest first.
    dom_trail: Vec<(u32, W)>,
    /// `level_start[l]` = lengths of `(word_trail, dom_trail)` when level `l + 1` began.
    level_start: Vec<(u32, u32)>,
    /// Stamp of the current level; 0 = the root, never trailed.
    stamp: u64,
    /// Stamps of the enclosing open levels.
    stamps: Vec<u64>,
    /// Next unused stamp (never reused within a solve, so a stale stamp never matches).
    next_stamp: u64,
    /// Untrailed `u32` words (see the module docs for what may live here).
    pub(crate) free: Vec<u32>,
    /// Untrailed scratch for one propagator call (e.g. a row mask), contents meaningless between calls.
    pub(crate) tmp: Vec<u64>,
}

impl<W: Copy> Trailed<W> {
    /// A store no constraint uses.
    pub fn empty() -> Self {
        Self::new(Vec::new(), Vec::new(), Vec::new(), 0)
    }

    /// A store with these initial contents; `tmp_len` scratch words.
    pub fn new(words: Vec<u64>, doms: Vec<W>, free: Vec<u32>, tmp_len: usize) -> Self {
        Self {
            word_stamp: vec![0; words.len()],
            words_init: words.clone(),
            words,
            dom_stamp: vec![0; doms.len()],
            doms_init: doms.clone(),
            doms,
            word_trail: Vec::new(),
            dom_trail: Vec::new(),
            level_start: Vec::new(),
            stamp: 0,
            stamps: Vec::new(),
            next_stamp: 1,
            free,
            tmp: vec![0; tmp_len],
        }
    }

    /// True when no constraint uses the store (level bookkeeping is skipped).
    #[inline]
    fn unused(&self) -> bool {
        self.words.is_empty() && self.doms.is_empty()
    }

    /// Restores the initial words and forgets the trail (start of a solve; keeps capacity).
    pub fn reset(&mut self) {
        if self.unused() {
            return;
        }
        self.words.copy_from_slice(&self.words_init);
        self.doms.copy_from_slice(&self.doms_init);
        self.word_stamp.fill(0);
        self.dom_stamp.fill(0);
        self.word_trail.clear();
        self.dom_trail.clear();
        self.level_start.clear();
        self.stamp = 0;
        self.stamps.clear();
        self.next_stamp = 1;
    }

    /// Opens a level (called by `State::push_level` only).
    #[inline]
    pub fn push_level(&mut self) {
        if self.unused() {
            return;
        }
        self.level_start
            .push((self.word_trail.len() as u32, self.dom_trail.len() as u32));
        self.stamps.push(self.stamp);
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
    }

    /// Undoes the newest level, newest change first (called by `State::pop_level` only). Nothing at the root.
    #[inline]
    pub fn pop_level(&mut self) {
        let Some((w, d)) = self.level_start.pop() else {
            return;
        };
        while self.word_trail.len() > w as usize {
            if let Some((i, old)) = self.word_trail.pop() {
                self.words[i as usize] = old;
            }
        }
        while self.dom_trail.len() > d as usize {
            if let Some((i, old)) = self.dom_trail.pop() {
                self.doms[i as usize] = old;
            }
        }
        if let Some(s) = self.stamps.pop() {
            self.stamp = s;
        }
    }

    /// Number of trailed `u64` words.
    #[inline(always)]
    pub fn words_len(&self) -> usize {
        self.words.len()
    }

    /// Trailed word `i`.
    #[inline(always)]
    pub fn word(&self, i: usize) -> u64 {
        self.words[i]
    }

    /// Sets trailed word `i` (saving its old contents once per level).
    #[inline(always)]
    pub fn set_word(&mut self, i: usize, w: u64) {
        if self.word_stamp[i] != self.stamp {
            self.word_stamp[i] = self.stamp;
            self.word_trail.push((i as u32, self.words[i]));
        }
        self.words[i] = w;
    }

    /// Trailed domain word `i`.
    #[inline(always)]
    pub fn dom(&self, i: usize) -> W {
        self.doms[i]
    }

    /// Sets trailed domain word `i` (saving its old contents once per level).
    #[inline(always)]
    pub fn set_dom(&mut self, i: usize, w: W) {
        if self.dom_stamp[i] != self.stamp {
            self.dom_stamp[i] = self.stamp;
            self.dom_trail.push((i as u32, self.doms[i]));
        }
        self.doms[i] = w;
    }

    /// Number of trailed entries (all levels; for tests).
    pub fn trail_len(&self) -> usize {
        self.word_trail.len() + self.dom_trail.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pop_level_restores_words_set_in_that_level_and_keeps_the_root() {
        let mut t: Trailed<u64> = Trailed::new(vec![1, 2, 3], vec![7], vec![], 0);
        t.set_word(0, 10); // root: not trailed
        t.push_level();
        t.set_word(1, 20);
        t.set_word(1, 21);
        t.set_dom(0, 5);
        t.push_level();
        t.set_word(1, 22);
        t.set_word(2, 30);
        assert_eq!(t.trail_len(), 4);
        t.pop_level();
        assert_eq!((t.word(0), t.word(1), t.word(2), t.dom(0)), (10, 21, 3, 5));
        t.pop_level();
        assert_eq!((t.word(0), t.word(1), t.word(2), t.dom(0)), (10, 2, 3, 7));
        t.pop_level();
        assert_eq!(t.word(0), 10);
        t.reset();
        assert_eq!((t.word(0), t.word(1), t.word(2), t.dom(0)), (1, 2, 3, 7));
    }
}
