//! A small seeded generator (SplitMix64) for instance generators and shuffles.
//!
//! Written here rather than taken from `rand` so that a seed names the same instance on every platform and every
//! future version of this crate: the shipped datasets are regenerated from their seeds.

/// The puzzles crate's view of [`csp_core::rng::Rng`] (SplitMix64): the generator is the project's one, and
/// `below` keeps this crate's mapping (multiply-shift on the high 32 bits, [`csp_core::rng::Rng::below_hi32`]),
/// which the shipped instances were generated with.
#[derive(Clone, Debug)]
pub struct Rng(csp_core::rng::Rng);

impl Rng {
    /// A generator whose whole output is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        Self(csp_core::rng::Rng::new(seed))
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform integer in `0..n` (`n > 0`), multiply-shift on the high 32 bits (bias below 2^-32 for the sizes
    /// used here; irrelevant for puzzle generation).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        self.0.below_hi32(n)
    }

    /// Fisher-Yates shuffle, indices drawn with [`Rng::below`].
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.0.shuffle_by(items, csp_core::rng::Rng::below_hi32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_pinned_for_the_shipped_instances() {
        // Regenerating the shipped instances depends on these exact numbers (high-32-bit multiply-shift).
        let mut r = Rng::new(2024);
        let xs: Vec<usize> = (1..=12).map(|n| r.below(n * 7)).collect();
        assert_eq!(xs, [4, 1, 6, 3, 29, 23, 6, 33, 10, 29, 35, 70]);
        let mut items: Vec<u32> = (0..10).collect();
        r.shuffle(&mut items);
        assert_eq!(items, [0, 2, 6, 3, 7, 9, 4, 1, 5, 8]);
        let mut r = Rng::new(2024);
        let big: Vec<usize> = (0..6).map(|k| r.below(4_000_000_007 - 97 * k)).collect();
        assert_eq!(
            big,
            [2491062150, 388927625, 1194304588, 464746889, 3322311417, 2209684924]
        );
    }

    #[test]
    fn same_seed_gives_same_sequence() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut r = Rng::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = r.below(7);
            assert!(v < 7);
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
