//! The seeded generator for sampling and shuffling: the project's SplitMix64 (Steele et al. 2014) from
//! `csp_core::rng`, deterministic across platforms, which is all a benchmark sample needs.

/// The project's SplitMix64 ([`csp_core::rng::Rng`]); its `below` (whole-word multiply-shift) is the mapping
/// this runner always sampled with.
pub use csp_core::rng::Rng as SplitMix64;

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
