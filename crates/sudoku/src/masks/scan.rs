//! The dirty scan of [`super::band9`]: which of the 27 band entries changed since their last band update. The one
//! module of the crate with `unsafe` code: SSE2 intrinsics, four entries per compare, on x86-64 (where SSE2 is part
//! of the baseline target, so it is known at compile time and needs no runtime detection); the scalar loop
//! everywhere else, and as the oracle the tests hold the vector path to.
//!
//! The scalar scan, compares included, was a fifth of forum_hardest_1106's instructions; the vector one took
//! solve9 from 307k to 298k instructions per puzzle there (callgrind; docs/measurements.md, "fast solver (issue
//! 16)"). Narrowing the seven compare masks by saturating packs into two byte masks instead of
//! one `movmskps` per compare: 1106 first 262.4k -> 255.0k, serg (first 3000) count 2 17.10k -> 16.74k.

/// Bit `i` set when `cand[i] != prev[i]`, for `i < 27`.
///
/// Seven 4-entry compares; their all-ones / all-zeros lanes are narrowed by signed saturating packs (-1 stays -1,
/// 0 stays 0) to bytes, 16 entries per vector, so two byte masks give all 27 bits (31 instructions against 44
/// with one `movmskps`, shift and OR per compare).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
#[inline(always)]
pub(super) fn changed(cand: &[u32; 32], prev: &[u32; 32]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16,
        _mm_packs_epi32,
    };
    // SAFETY: SSE2 is enabled at compile time (the cfg above), which is all these intrinsics require; the loads
    // read entries 4k..4k+4 <= 28 of 32-entry arrays (k < 7), in bounds, and `loadu` needs no alignment.
    let (low, high) = unsafe {
        let eq = |k: usize| {
            let c = _mm_loadu_si128(cand.as_ptr().add(4 * k).cast::<__m128i>());
            let p = _mm_loadu_si128(prev.as_ptr().add(4 * k).cast::<__m128i>());
            _mm_cmpeq_epi32(c, p)
        };
        let (e0, e1, e2, e3, e4, e5, e6) = (eq(0), eq(1), eq(2), eq(3), eq(4), eq(5), eq(6));
        let low = _mm_packs_epi16(_mm_packs_epi32(e0, e1), _mm_packs_epi32(e2, e3));
        let high = _mm_packs_epi16(_mm_packs_epi32(e4, e5), _mm_packs_epi32(e6, e6));
        (_mm_movemask_epi8(low), _mm_movemask_epi8(high))
    };
    let same = (low as u32 & 0xFFFF) | (high as u32) << 16;
    !same & ((1 << 27) - 1)
}

/// Bit `i` set when `cand[i] != prev[i]`, for `i < 27`.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
pub(super) fn changed(cand: &[u32; 32], prev: &[u32; 32]) -> u32 {
    changed_scalar(cand, prev)
}

/// [`changed`] one entry at a time: the portable path and the oracle of the vector one (here and, through
/// `band9::solve9_scalar`, for the whole search).
#[inline(always)]
pub(super) fn changed_scalar(cand: &[u32; 32], prev: &[u32; 32]) -> u32 {
    let mut dirty = 0u32;
    for (i, (c, p)) in cand[..27].iter().zip(&prev[..27]).enumerate() {
        dirty |= u32::from(c != p) << i;
    }
    dirty
}

#[cfg(test)]
mod tests {
    use super::{changed, changed_scalar};

    #[test]
    fn vector_and_scalar_scans_agree_on_random_and_edge_arrays() {
        // xorshift: deterministic, no dependency.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..20_000 {
            let mut cand = [0u32; 32];
            for x in &mut cand[..27] {
                *x = next() as u32 & 0x7FF_FFFF;
            }
            let mut prev = cand;
            // Change a random subset of entries (none, some, or all), by one bit or many.
            let pick = if round % 7 == 0 { 0 } else { next() as u32 };
            for (i, p) in prev[..27].iter_mut().enumerate() {
                if pick >> i & 1 == 1 {
                    *p ^= 1 << (next() % 27);
                }
            }
            assert_eq!(changed(&cand, &prev), changed_scalar(&cand, &prev));
            assert_eq!(changed_scalar(&cand, &prev), pick & ((1 << 27) - 1));
        }
        // Entries 27..32 are never looked at.
        let (a, mut b) = ([0u32; 32], [0u32; 32]);
        b[27..].fill(u32::MAX);
        assert_eq!(changed(&a, &b), 0);
    }
}
