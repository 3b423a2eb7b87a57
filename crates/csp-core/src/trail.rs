//! The undo trail: every domain word overwritten during search, with level delimiters.
//!
//! Lineage: MiniSat's `trail` / `trail_lim` / `cancelUntil`. An entry keeps the *old* word of one slot of one
//! variable; undoing a level pops entries newest-first and writes the old words back, so restoring costs the number of
//! changes made, never the size of the state.

/// One overwritten word: variable `var`, slot `slot`, previous contents `old`, and the domain size before the
/// change (so undo restores sizes without a popcount).
///
/// `slot` and the old size share one `u32` (`slot << 20 | size`): a domain has at most 2^16 values (17 bits for
/// its size) and 2^10 words, which keeps an entry of a one-word domain at 16 bytes.
#[derive(Clone, Copy, Debug)]
pub struct Entry<W> {
    /// Variable whose domain changed.
    pub var: u32,
    /// `slot << SIZE_BITS | old size`.
    packed: u32,
    /// Contents of that word before the change.
    pub old: W,
}

/// Bits of [`Entry::packed`] holding the old size.
const SIZE_BITS: u32 = 20;

impl<W> Entry<W> {
    /// Word index inside the domain.
    #[inline]
    pub fn slot(&self) -> usize {
        (self.packed >> SIZE_BITS) as usize
    }

    /// Domain size before the change.
    #[inline]
    pub fn old_size(&self) -> u32 {
        self.packed & ((1 << SIZE_BITS) - 1)
    }
}

/// Trail entries plus level delimiters.
///
/// Invariants: `level_start` is non-decreasing; `level_start[i]` = `entries.len()` when level `i + 1` began
/// (level 0, the root, has no delimiter and is never undone by [`Trail::pop_level`]).
#[derive(Clone, Debug, Default)]
pub struct Trail<W> {
    entries: Vec<Entry<W>>,
    level_start: Vec<u32>,
}

impl<W: Copy> Trail<W> {
    /// An empty trail at level 0.
    pub fn new() -> Self {
        Self {
            entries: Vec::new(),
            level_start: Vec::new(),
        }
    }

    /// Forgets everything (keeps the buffers' capacity).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.level_start.clear();
    }

    /// Current decision level (0 = root).
    #[inline]
    pub fn level(&self) -> usize {
        self.level_start.len()
    }

    /// Opens a new level.
    #[inline]
    pub fn push_level(&mut self) {
        self.level_start.push(self.entries.len() as u32);
    }

    /// Records that word `slot` of `var` held `old`, and the domain had `old_size` values, before a change.
    #[inline(always)]
    pub fn record(&mut self, var: u32, slot: u32, old_size: u32, old: W) {
        debug_assert!(old_size < 1 << SIZE_BITS && slot < 1 << (32 - SIZE_BITS));
        self.entries.push(Entry {
            var,
            packed: slot << SIZE_BITS | old_size,
            old,
        });
    }

    /// Closes the newest level and hands its entries to `restore`, newest first. Does nothing at level 0.
    #[inline]
    pub fn pop_level(&mut self, mut restore: impl FnMut(Entry<W>)) {
        let Some(start) = self.level_start.pop() else {
            return;
        };
        while self.entries.len() > start as usize {
            if let Some(e) = self.entries.pop() {
                restore(e);
            }
        }
    }

    /// Number of entries (all levels).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is trailed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_entry_gives_back_the_slot_and_size_it_was_recorded_with_at_their_limits() {
        let mut t: Trail<u64> = Trail::new();
        t.push_level();
        let cases = [
            (0, 0),
            (0, 65_536),
            (1, 1),
            (1023, 65_536),
            (4095, (1 << 20) - 1),
            (5, 9),
        ];
        for (i, &(slot, size)) in cases.iter().enumerate() {
            t.record(i as u32, slot, size, i as u64 * 3);
        }
        let mut back = Vec::new();
        t.pop_level(|e| back.push((e.var, e.slot() as u32, e.old_size(), e.old)));
        back.reverse();
        let expected: Vec<_> = cases
            .iter()
            .enumerate()
            .map(|(i, &(slot, size))| (i as u32, slot, size, i as u64 * 3))
            .collect();
        assert_eq!(back, expected);
    }

    #[test]
    fn random_levels_are_undone_newest_first_as_a_stack_of_levels_would() {
        let mut rng = crate::rng::Rng::new(18);
        let mut t: Trail<u128> = Trail::new();
        // The model: entries per open level, the root's at index 0.
        let mut model: Vec<Vec<(u32, u32, u32, u128)>> = vec![Vec::new()];
        for step in 0..3000 {
            match rng.below(10) {
                0..=5 => {
                    let e = (
                        rng.below(50) as u32,
                        rng.below(4096) as u32,
                        rng.below(1 << 20) as u32,
                        u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()),
                    );
                    t.record(e.0, e.1, e.2, e.3);
                    model.last_mut().unwrap().push(e);
                }
                6 | 7 => {
                    t.push_level();
                    model.push(Vec::new());
                }
                8 => {
                    let mut undone = Vec::new();
                    t.pop_level(|e| undone.push((e.var, e.slot() as u32, e.old_size(), e.old)));
                    if model.len() > 1 {
                        let mut level = model.pop().unwrap();
                        level.reverse();
                        assert_eq!(undone, level, "step {step}");
                    } else {
                        assert!(undone.is_empty(), "the root is never undone");
                    }
                }
                _ => {
                    if rng.below(20) == 0 {
                        t.clear();
                        model = vec![Vec::new()];
                    }
                }
            }
            assert_eq!(t.level(), model.len() - 1);
            let n: usize = model.iter().map(Vec::len).sum();
            assert_eq!(t.len(), n);
            assert_eq!(t.is_empty(), n == 0);
        }
    }
}
