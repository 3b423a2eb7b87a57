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
