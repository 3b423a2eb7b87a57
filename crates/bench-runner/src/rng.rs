//! A tiny seeded generator for sampling and shuffling (SplitMix64, Steele et al. 2014): deterministic across
//! platforms, which is all a benchmark sample needs.

/// SplitMix64 state.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`), by multiply-shift (bias below 2^-32 for the sizes used here).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sampling_stream_is_pinned() {
        // `--sample N --seed S` picks the same puzzles in every version: these numbers must not move.
        let mut r = SplitMix64::new(2024);
        let big: Vec<u64> = (0..6).map(|k| r.below(4_000_000_007 - 97 * k)).collect();
        assert_eq!(
            big,
            [2491062150, 388927625, 1194304588, 464746889, 3322311417, 2209684925]
        );
    }
}
