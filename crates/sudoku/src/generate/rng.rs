//! The generator's random streams: the project's one generator ([`Rng`], csp-core's SplitMix64, re-exported by
//! [`generate`](super)) with the two helpers only the generator needs.
//!
//! Why our own and not `rand`: the shipped datasets are reproduced from their seed, so the stream must never
//! change under us with a dependency upgrade. SplitMix64's output function doubles as the seed mixer that gives
//! every candidate puzzle an independent stream ([`candidate_rng`]), which is what lets candidates be generated in
//! parallel and still come out the same. Indices are drawn with [`Rng::below_usize`] (Lemire's multiply-shift on
//! the whole word), the mapping the shipped datasets were generated with.

pub use csp_core::rng::Rng;
use csp_core::rng::{mix, GAMMA};

/// The stream of candidate `index` of a run seeded with `seed`: independent of every other candidate's, so
/// candidate `i` is the same whether it is generated alone, in order, or on another thread.
pub fn candidate_rng(seed: u64, index: u64) -> Rng {
    Rng::new(mix(seed ^ mix(index.wrapping_add(GAMMA))))
}

/// A uniformly chosen set bit of `mask` (which must be non-zero; `0` gives bit 0), as its index.
pub(crate) fn pick_bit(rng: &mut Rng, mask: u64) -> u32 {
    let mut k = rng.below_usize(mask.count_ones() as usize);
    let mut m = mask;
    while k > 0 {
        m &= m - 1;
        k -= 1;
    }
    m.trailing_zeros() % 64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_pinned_for_the_shipped_datasets() {
        // The datasets are regenerated from seeds: these exact numbers (whole-word multiply-shift) must not move.
        let mut r = Rng::new(2024);
        let xs: Vec<usize> = (1..=12).map(|n| r.below_usize(n * 7)).collect();
        assert_eq!(xs, [4, 1, 6, 3, 29, 23, 6, 33, 10, 29, 35, 70]);
        let mut items: Vec<u32> = (0..10).collect();
        r.shuffle(&mut items);
        assert_eq!(items, [0, 2, 6, 3, 7, 9, 4, 1, 5, 8]);
        let mut r = Rng::new(2024);
        let big: Vec<usize> = (0..6)
            .map(|k| r.below_usize(4_000_000_007 - 97 * k))
            .collect();
        assert_eq!(
            big,
            [2491062150, 388927625, 1194304588, 464746889, 3322311417, 2209684925]
        );
        assert_eq!(candidate_rng(5, 3).next_u64(), 0x30E0_DCBF_81A5_00EC);
        let mut r = Rng::new(99);
        let bits: Vec<u32> = [0b1010_0100, 0xFFFF, 1 << 40 | 1 << 3, 0b111]
            .into_iter()
            .map(|m| pick_bit(&mut r, m))
            .collect();
        assert_eq!(bits, [2, 0, 40, 0]);
    }

    #[test]
    fn the_stream_matches_the_published_splitmix64_values() {
        // Reference values of SplitMix64 seeded with 0 (as in the Java SplittableRandom and the C reference).
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut r = Rng::new(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let x = r.below_usize(5);
            assert!(x < 5);
            seen[x] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(r.below_usize(0), 0);
    }

    #[test]
    fn candidate_streams_differ_by_index_and_repeat_by_seed() {
        let a = candidate_rng(1, 0).next_u64();
        let b = candidate_rng(1, 1).next_u64();
        let c = candidate_rng(2, 0).next_u64();
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, candidate_rng(1, 0).next_u64());
    }

    #[test]
    fn pick_bit_only_returns_set_bits() {
        let mut r = Rng::new(3);
        for _ in 0..100 {
            let bit = pick_bit(&mut r, 0b1010_0100);
            assert!([2, 5, 7].contains(&bit));
        }
    }
}
