//! Compressed rows: `rows` lists of items stored back to back (watch lists, occurrence lists).

/// Row `r` is `items[start[r]..start[r + 1]]`. Built once, read in the hot path without pointer chasing.
#[derive(Clone, Debug, Default)]
pub struct Csr<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Csr<T> {
    /// Builds `rows` rows from `(row, item)` pairs; items keep their relative order within a row.
    pub fn from_pairs(rows: usize, pairs: &[(u32, T)]) -> Self {
        let mut start = vec![0u32; rows + 1];
        for &(r, _) in pairs {
            start[r as usize + 1] += 1;
        }
        for r in 0..rows {
            start[r + 1] += start[r];
        }
        let mut fill = start.clone();
        let mut items: Vec<Option<T>> = vec![None; pairs.len()];
        for &(r, t) in pairs {
            items[fill[r as usize] as usize] = Some(t);
            fill[r as usize] += 1;
        }
        Self {
            start,
            items: items.into_iter().flatten().collect(),
        }
    }

    /// The items of row `r`.
    #[inline]
    pub fn row(&self, r: u32) -> &[T] {
        let r = r as usize;
        &self.items[self.start[r] as usize..self.start[r + 1] as usize]
    }

    /// Total number of items over all rows.
    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when no row has an item.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.start.len().saturating_sub(1)
    }
}
