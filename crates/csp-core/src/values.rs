//! Value tables: the map between a variable's integer values and the bit positions of its domain.
//!
//! Bit `i` of a domain stands for the `i`-th smallest value of the variable. A range `min..=max` maps
//! `i <-> min + i` by arithmetic; an explicit set keeps its sorted values and maps by binary search.
//! Domains of variables created from the same range therefore share one index space, which lets
//! `all_different` work on raw masks.
//!
//! An [`Values::Interval`] variable (a range too wide for a bitset, or one the model asked to keep as bounds) maps
//! positions the same way as a range, `i <-> min + i`, but its domain is never a bitset: the search state keeps
//! only its smallest and largest position (see [`crate::state`]).

/// The values a variable can take, sorted ascending, and their bit positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Values {
    /// `min, min + 1, ..., min + width - 1`.
    Range {
        /// Smallest value (bit 0).
        min: i64,
        /// Number of values.
        width: u32,
    },
    /// Explicit strictly increasing values; bit `i` is `values[i]`.
    List(Box<[i64]>),
    /// `min, min + 1, ..., min + width - 1` kept as an interval (bounds) domain: position `i` is `min + i`, and
    /// the state stores only the lowest and highest position left. `1 <= width <= MAX_INTERVAL_WIDTH`.
    Interval {
        /// Smallest value (position 0).
        min: i64,
        /// Number of values.
        width: u64,
    },
}

/// Widest interval domain (`2^62` values): positions and their sums stay far from `usize` / `i64` overflow.
pub const MAX_INTERVAL_WIDTH: u64 = 1 << 62;

impl Values {
    /// Number of values (= domain width in bits).
    #[inline]
    pub fn width(&self) -> usize {
        match self {
            Values::Range { width, .. } => *width as usize,
            Values::List(v) => v.len(),
            Values::Interval { width, .. } => *width as usize,
        }
    }

    /// True for an interval (bounds) domain.
    #[inline]
    pub fn is_interval(&self) -> bool {
        matches!(self, Values::Interval { .. })
    }

    /// The value at bit `i` (`i < width`).
    #[inline]
    pub fn value(&self, i: usize) -> i64 {
        match self {
            Values::Range { min, .. } => min + i as i64,
            Values::List(v) => v[i],
            Values::Interval { min, .. } => (*min as i128 + i as i128) as i64,
        }
    }

    /// The bit of `value`, if the variable can take it.
    #[inline]
    pub fn index_of(&self, value: i64) -> Option<usize> {
        match self {
            Values::Range { min, width } => {
                let d = value.checked_sub(*min)?;
                if d >= 0 && d < *width as i64 {
                    Some(d as usize)
                } else {
                    None
                }
            }
            Values::List(v) => v.binary_search(&value).ok(),
            Values::Interval { min, width } => {
                let d = value as i128 - *min as i128;
                (d >= 0 && d < *width as i128).then_some(d as usize)
            }
        }
    }

    /// First bit whose value is `>= value` (may equal `width`).
    pub fn first_index_ge(&self, value: i64) -> usize {
        match self {
            Values::Range { min, width } => {
                if value <= *min {
                    0
                } else {
                    ((value as i128 - *min as i128).min(*width as i128)) as usize
                }
            }
            Values::List(v) => v.partition_point(|&x| x < value),
            Values::Interval { min, width } => {
                (value as i128 - *min as i128).clamp(0, *width as i128) as usize
            }
        }
    }

    /// Number of bits whose value is `<= value` (the bits `0..n` are the ones at most `value`).
    pub fn count_le(&self, value: i64) -> usize {
        match self {
            Values::Range { min, width } => {
                if value < *min {
                    0
                } else {
                    ((value as i128 - *min as i128 + 1).min(*width as i128)) as usize
                }
            }
            Values::List(v) => v.partition_point(|&x| x <= value),
            Values::Interval { min, width } => {
                (value as i128 - *min as i128 + 1).clamp(0, *width as i128) as usize
            }
        }
    }

    /// Smallest value.
    pub fn min(&self) -> i64 {
        self.value(0)
    }

    /// Largest value.
    pub fn max(&self) -> i64 {
        self.value(self.width() - 1)
    }

    /// The `min` of a bitset range, `None` for an explicit list or an interval: ranges allow index arithmetic on
    /// bitset positions (intervals have no bitset).
    #[inline]
    pub fn range_min(&self) -> Option<i64> {
        match self {
            Values::Range { min, .. } => Some(*min),
            Values::List(_) | Values::Interval { .. } => None,
        }
    }
}
