//! The project's one seeded generator: SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014; the constants of `java.util.SplittableRandom`).
//!
//! Why our own and not `rand`: shipped datasets and tests are regenerated from seeds, so a stream must never
//! change under us with a dependency upgrade. SplitMix64 has 64 bits of state, passes BigCrush, and its output
//! function [`mix`] doubles as a seed mixer for independent sub-streams.
//!
//! Every crate draws from this type, but the crates grew up with three ways of mapping a word into `0..n`, and
//! the streams they produce are pinned by shipped data and tests, so all three stay, each under its own name:
//! [`Rng::below`] (Lemire's multiply-shift on the whole word; the engine, the Sudoku generator, the bench
//! runner), [`Rng::below_hi32`] (multiply-shift on the high 32 bits; the puzzles crate's generators) and
//! [`Rng::below_mod`] (the remainder; test and fuzz boards). Each one consumes exactly one word per call.
//!
//! ```
//! use csp_core::rng::Rng;
//! let mut r = Rng::new(0);
//! assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF); // the published first value for seed 0
//! let mut items = [1, 2, 3, 4];
//! r.shuffle(&mut items);
//! items.sort();
//! assert_eq!(items, [1, 2, 3, 4]);
//! ```

/// Golden-ratio increment of SplitMix64.
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective 64-bit mixer.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A SplitMix64 stream. Deterministic: the same seed gives the same numbers on every platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A stream starting from `seed` (the state before the first step).
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// Uniform in `0..n` by Lemire's multiply-shift on the whole word (`0` when `n == 0`). The bias is below
    /// `n / 2^64`; the method never loops.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// [`Rng::below`] for an index bound.
    #[inline]
    pub fn below_usize(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// Uniform in `0..n` by multiply-shift on the high 32 bits of the word (`n < 2^32`; bias below `n / 2^32`).
    /// The puzzles crate's generators use this mapping; it differs from [`Rng::below`] in the low bits of the
    /// product, so the two are not interchangeable where a stream is pinned.
    #[inline]
    pub fn below_hi32(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 32).wrapping_mul(n as u64) >> 32) as usize
    }

    /// `next_u64() % n` (`n == 0` is taken as 1): the mapping of the test and fuzz board generators.
    #[inline]
    pub fn below_mod(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// Shuffles `items` in place (Fisher-Yates from the back, indices by [`Rng::below`]).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.shuffle_by(items, Rng::below_usize);
    }

    /// Shuffles `items` in place (Fisher-Yates from the back), drawing index `j` in `0..=i` with `below(self, i +
    /// 1)`: the same walk for every mapping, so a crate keeps its pinned stream with its own mapping.
    pub fn shuffle_by<T>(&mut self, items: &mut [T], below: fn(&mut Rng, usize) -> usize) {
        for i in (1..items.len()).rev() {
            let j = below(self, i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_matches_the_published_splitmix64_values() {
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn every_mapping_stays_in_range_and_reaches_every_value() {
        let mut r = Rng::new(7);
        let mut seen = [[false; 5]; 3];
        for _ in 0..300 {
            let xs = [r.below_usize(5), r.below_hi32(5), r.below_mod(5) as usize];
            for (k, x) in xs.into_iter().enumerate() {
                assert!(x < 5);
                seen[k][x] = true;
            }
        }
        assert!(seen.iter().flatten().all(|&s| s));
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below_mod(0), 0);
    }

    #[test]
    fn the_three_mappings_are_the_formulas_the_crates_pinned() {
        let mut a = Rng::new(42);
        let mut b = a.clone();
        for n in 1..200u64 {
            let x = b.next_u64();
            let (wide, hi, rem) = (
                ((x as u128 * n as u128) >> 64) as u64,
                ((x >> 32) * n) >> 32,
                x % n,
            );
            let mut c = a.clone();
            let mut d = a.clone();
            assert_eq!(a.below(n), wide);
            assert_eq!(c.below_hi32(n as usize) as u64, hi);
            assert_eq!(d.below_mod(n), rem);
        }
    }
}
