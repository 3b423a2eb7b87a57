//! The undo trail: every domain word overwritten during search, with level delimiters.
//!
//! Lineage: MiniSat's `trail` / `trail_lim` / `cancelUntil`. An entry keeps the *old* word of one slot of one
//! variable; undoing a level pops entries newest-first and writes the old words back, so restoring costs the number of
//! changes made, never the size of the state.

/// One overwritten word: variable `var`, slot `slot`, previous contents `old`.
#[derive(Clone, Copy, Debug)]
pub struct Entry<W> {
    /// Variable whose domain changed.
    pub var: u32,
    /// Word index inside the domain.
    pub slot: u32,
    /// Contents of that word before the change.
    pub old: W,
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

    /// Records that word `slot` of `var` held `old` before a change.
    #[inline]
    pub fn record(&mut self, var: u32, slot: u32, old: W) {
        self.entries.push(Entry { var, slot, old });
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
