//! The one place with `unsafe` in the mask solvers: calling a feature-compiled copy of a search after checking
//! that the running processor has the features. triad9 has three copies (portable, AVX2, AVX-512), band9 two
//! (portable, and `popcnt,bmi1,bmi2`), whose bit copy builds its root on AVX-512 where it can ([`root`]) and
//! tests its column claims on AVX2 where it can ([`claimable`]); every copy is the same source compiled with other
//! target features (the root: the same rules without their tables), and the tests hold each to the portable
//! copy's answers and statistics. Besides the calls, one function here loads bytes into AVX-512 registers for
//! that root ([`value_masks_x512`]).
#![allow(unsafe_code)]

use std::sync::atomic::{AtomicU16, Ordering};

use super::MaskResult;
use csp_core::Limits;

/// Which compiled copy of a search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// The fastest copy the machine has the features for: triad9's AVX-512, else AVX2, else portable copy;
    /// band9's bit-manipulation, else portable copy.
    Best,
    /// The copy compiled for the default target (what the tests compare the others with).
    Portable,
    /// triad9's AVX2 copy when the machine has its features, else the portable one; band9's copy as for `Best`
    /// (for the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Avx2,
}

/// The processor features the compiled copies need, as `is_x86_feature_detected!` reports them, in this
/// order: the four of triad9's AVX2 copy (`avx2`, `popcnt`, `bmi1`, `bmi2`), then the four its AVX-512 copy adds
/// (`avx512f`, `avx512vl`, `avx512bw`, `avx512bitalg`); band9's bit copy needs the second to fourth. A plain
/// value so that [`choose`] and [`band_bits`] can be tested on processors other than the one running the tests.
pub(crate) type Features = [bool; 8];

/// A compiled copy of triad9's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compiled {
    /// `x512`: needs all eight [`Features`].
    Avx512,
    /// `x86`: needs the first four.
    Avx2,
    /// `portable`: needs none.
    Portable,
}

/// [`detect`]'s answer once known: bit `i` for feature `i` of [`Features`], and [`KNOWN`]. Invariant (the
/// `SAFETY` comments below rest on it): zero, or [`KNOWN`] with the bits of [`detect_now`] on this process's
/// processor. Each solve reads it instead of asking the standard library eight times (those took 78
/// instructions per 9x9 solve, 1.6% of a kaggle puzzle's solve; now 33: `docs/measurements.md`, twentieth
/// session). Threads that race to fill it write the same value.
static DETECTED: AtomicU16 = AtomicU16::new(0);

/// Set in [`DETECTED`] once it holds the detected features.
const KNOWN: u16 = 1 << 8;

/// The running processor's [`Features`] (all `false` off x86-64), detected on the first call and cached.
#[inline]
pub(crate) fn detect() -> Features {
    let mut bits = DETECTED.load(Ordering::Relaxed);
    if bits & KNOWN == 0 {
        bits = known(detect_now());
        DETECTED.store(bits, Ordering::Relaxed);
    }
    std::array::from_fn(|i| bits >> i & 1 == 1)
}

/// `features` as [`DETECTED`] holds them: bit `i` for feature `i`, and [`KNOWN`].
fn known(features: Features) -> u16 {
    features
        .iter()
        .enumerate()
        .fold(KNOWN, |acc, (i, &f)| acc | u16::from(f) << i)
}

/// The running processor's [`Features`], asked of the standard library.
#[cold]
fn detect_now() -> Features {
    #[cfg(target_arch = "x86_64")]
    {
        [
            std::is_x86_feature_detected!("avx2"),
            std::is_x86_feature_detected!("popcnt"),
            std::is_x86_feature_detected!("bmi1"),
            std::is_x86_feature_detected!("bmi2"),
            std::is_x86_feature_detected!("avx512f"),
            std::is_x86_feature_detected!("avx512vl"),
            std::is_x86_feature_detected!("avx512bw"),
            std::is_x86_feature_detected!("avx512bitalg"),
        ]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        [false; 8]
    }
}

/// The copy `path` runs on a processor with `features`. Invariant (the safety of [`solve`] rests on it): the
/// copy returned needs no feature outside `features`.
pub(crate) fn choose(path: Path, features: Features) -> Compiled {
    let avx2 = features[..4].iter().all(|&f| f);
    let avx512 = avx2 && features[4..].iter().all(|&f| f);
    match path {
        Path::Best if avx512 => Compiled::Avx512,
        Path::Best | Path::Avx2 if avx2 => Compiled::Avx2,
        _ => Compiled::Portable,
    }
}

/// Whether [`Path::Best`] runs a vector copy (AVX2 or AVX-512) here: where triad9 is worth a route of its own
/// (as [`solve_fast`] decides; the tests' expectation).
#[cfg(test)]
pub(crate) fn has_vector_copy() -> bool {
    choose(Path::Best, detect()) != Compiled::Portable
}

/// Runs one solve on `path`.
pub(crate) fn solve(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
    path: Path,
) -> MaskResult<[u8; 81]> {
    match choose(path, detect()) {
        #[cfg(target_arch = "x86_64")]
        Compiled::Avx512 => {
            // SAFETY: `x512::solve` is compiled with `avx2,popcnt,bmi1,bmi2,avx512f,avx512vl,avx512bw,
            // avx512bitalg`, and `choose` returns `Avx512` only when `detect` reports that the running
            // processor supports all eight (its invariant, tested on every feature set; `detect` reports the
            // standard library's detection, cached, see `DETECTED`).
            unsafe { super::triad9::x512::solve(givens, solution_limit, limits) }
        }
        #[cfg(target_arch = "x86_64")]
        Compiled::Avx2 => {
            // SAFETY: `x86::solve` is compiled with `avx2,popcnt,bmi1,bmi2`, and `choose` returns `Avx2`
            // only when `detect` reports all four; its code is otherwise safe Rust.
            unsafe { super::triad9::x86::solve(givens, solution_limit, limits) }
        }
        _ => super::triad9::portable::solve(givens, solution_limit, limits),
    }
}

/// Runs one seeded solve (triad9's `solve9_seeded`) on `path`.
pub(crate) fn solve_seeded(
    configs: &[[u64; 2]; 6],
    cand: &[u32; 32],
    solution_limit: u64,
    limits: &Limits,
    path: Path,
) -> MaskResult<[u8; 81]> {
    match choose(path, detect()) {
        #[cfg(target_arch = "x86_64")]
        Compiled::Avx512 => {
            // SAFETY: as in `solve`: `x512::solve_seeded` is compiled with the same eight features, which
            // `choose` has just found in `detect`'s report.
            unsafe { super::triad9::x512::solve_seeded(configs, cand, solution_limit, limits) }
        }
        #[cfg(target_arch = "x86_64")]
        Compiled::Avx2 => {
            // SAFETY: as in `solve`: `x86::solve_seeded` needs the four AVX2 features `choose` confirmed.
            unsafe { super::triad9::x86::solve_seeded(configs, cand, solution_limit, limits) }
        }
        _ => super::triad9::portable::solve_seeded(configs, cand, solution_limit, limits),
    }
}

/// Whether band9's bit-manipulation copy (`band9::bits`, compiled with `popcnt,bmi1,bmi2`) runs for `path` on a
/// processor with `features`: for every path but [`Path::Portable`], when the three are there (the AVX2 copy's
/// features but `avx2`). Invariant (the safety of [`solve_band`] rests on it): true only when all three are in
/// `features`.
pub(crate) fn band_bits(path: Path, features: Features) -> bool {
    path != Path::Portable && features[1..4].iter().all(|&f| f)
}

/// band9's column claiming test (`band9::claimable`) for its bit copy: on AVX2 where the processor has it
/// (`band9::simd::claimable`, same results), else the scalar one.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline]
pub(crate) fn claimable(cand: &[u32; 32]) -> Result<u32, super::band9::Conflict> {
    #[cfg(target_arch = "x86_64")]
    if detect()[0] {
        // SAFETY: `simd::claimable` is compiled with `avx2` alone, which `detect` (the standard library's
        // detection, cached in `DETECTED`) has just reported on the running processor.
        return unsafe { super::band9::simd::claimable(cand) };
    }
    super::band9::claimable(cand)
}

/// `fast`'s 9x9 solve ([`super::solve9`]): band9's root and search on its best copy, and a root with `from` or
/// more open candidates continued in triad9's best copy where triad9 has a vector copy. One feature detection
/// serves both choices.
pub(crate) fn solve_fast(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
    from: u32,
) -> MaskResult<[u8; 81]> {
    let features = detect();
    let route = (choose(Path::Best, features) != Compiled::Portable).then_some((from, Path::Best));
    band_on(
        givens,
        solution_limit,
        limits,
        route,
        band_bits(Path::Best, features),
    )
}

/// band9's root before propagation (`Board9::root`: the givens' state and the first sweep) for its bit copy:
/// where the processor has the eight features [`Compiled::Avx512`] needs, on the AVX-512 copy, with the first
/// sweep repeated while enough entries are due (`band9::wide::root`); else on the scalar copy. Each vector step
/// gives the scalar one's state (tested). Values must be at most 9.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn root(
    board: &mut super::band9::Board9,
    givens: &[u8; 81],
) -> Result<(), super::band9::Conflict> {
    #[cfg(target_arch = "x86_64")]
    if choose(Path::Best, detect()) == Compiled::Avx512 {
        // SAFETY: `band9::wide::root` is compiled with the eight features of `Compiled::Avx512`, which `choose`
        // returns only when `detect` reports all eight (its invariant, tested on every feature set).
        return unsafe { super::band9::wide::root(board, givens) };
    }
    board.root(givens)
}

/// For each value `v` in `0..=9` and band `b`, the cells of band `b` of `givens` holding `v` (`masks[v][b]`, 27
/// bits): two 64-byte compares per value on AVX-512 (`band9`'s `value_masks` is the scalar oracle). For
/// `band9::wide::root`, which has the features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
// Inlined into the root, so the masks stay in registers: returned through memory, each one was stored as three
// words and read back by a 64-byte load, which cannot be forwarded from those stores (twenty-fourth session:
// the root 9.3% -> 7.4% of serg's samples, kaggle +5-7%).
#[inline]
pub(crate) fn value_masks_x512(givens: &[u8; 81]) -> [[u32; 3]; 10] {
    use std::arch::x86_64::{
        _mm512_cmpeq_epi8_mask, _mm512_loadu_si512, _mm512_maskz_loadu_epi8, _mm512_set1_epi8,
    };
    const BAND: u64 = (1 << 27) - 1;
    // SAFETY: reads the 64 bytes from the start of `givens`, which has 81.
    let low = unsafe { _mm512_loadu_si512(givens.as_ptr().cast()) };
    // SAFETY: a masked load of the 17 bytes from offset 64 (`givens[64..]`, exactly 17 long): the lanes masked
    // off are neither read nor able to fault.
    let high = unsafe { _mm512_maskz_loadu_epi8((1 << 17) - 1, givens[64..].as_ptr().cast()) };
    let mut masks = [[0u32; 3]; 10];
    for (v, m) in (0i8..).zip(masks.iter_mut()) {
        let value = _mm512_set1_epi8(v);
        let low = _mm512_cmpeq_epi8_mask(low, value);
        // The masked-off lanes load as 0 and would match the value 0.
        let high = _mm512_cmpeq_epi8_mask(high, value) & ((1 << 17) - 1);
        *m = [
            (low & BAND) as u32,
            (low >> 27 & BAND) as u32,
            ((low >> 54 | high << 10) & BAND) as u32,
        ];
    }
    masks
}

/// [`value_masks_x512`] where the processor has the AVX-512 copy's features, else `None` (for the tests).
#[cfg(test)]
pub(crate) fn value_masks_x512_checked(givens: &[u8; 81]) -> Option<[[u32; 3]; 10]> {
    #[cfg(target_arch = "x86_64")]
    if choose(Path::Best, detect()) == Compiled::Avx512 {
        // SAFETY: `value_masks_x512` needs `avx512f` and `avx512bw`, two of the eight `choose` has just found.
        return Some(unsafe { value_masks_x512(givens) });
    }
    let _ = givens;
    None
}

/// Runs band9 ([`super::band9`]'s `solve`, with its root `route`) on the copy `path` calls for.
pub(crate) fn solve_band(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
    route: Option<(u32, Path)>,
    path: Path,
) -> MaskResult<[u8; 81]> {
    band_on(
        givens,
        solution_limit,
        limits,
        route,
        band_bits(path, detect()),
    )
}

/// Runs band9's bit copy when `bits` (which must come from [`band_bits`] on [`detect`]'s features), else its
/// portable copy.
#[inline(always)]
fn band_on(
    givens: &[u8; 81],
    solution_limit: u64,
    limits: &Limits,
    route: Option<(u32, Path)>,
    bits: bool,
) -> MaskResult<[u8; 81]> {
    #[cfg(target_arch = "x86_64")]
    if bits {
        // SAFETY: `band9::bits::solve` is compiled with `popcnt,bmi1,bmi2`; both callers pass `bits` from
        // `band_bits` on the features `detect` reports, true only when all three are there. Its code
        // is otherwise safe Rust.
        return unsafe { super::band9::bits::solve(givens, solution_limit, limits, route) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bits;
    super::band9::portable::solve(givens, solution_limit, limits, route)
}

#[cfg(test)]
mod tests {
    use super::{band_bits, Features, Path};

    /// On all 256 feature sets, `Best` runs the AVX-512 copy exactly when all eight features are there, else the
    /// AVX2 copy when its four are, else the portable one; `Avx2` never the AVX-512 copy; `Portable` always the
    /// portable one. So no path runs a copy that needs a feature the processor lacks (the safety of `solve`).
    #[test]
    fn each_path_runs_the_fastest_copy_whose_every_feature_the_processor_has() {
        use super::{choose, Compiled};
        for bits in 0u32..256 {
            let features: super::Features = std::array::from_fn(|i| (bits >> i) & 1 == 1);
            let avx2 = bits & 0x0f == 0x0f;
            let (best, second) = match (bits == 0xff, avx2) {
                (true, _) => (Compiled::Avx512, Compiled::Avx2),
                (false, true) => (Compiled::Avx2, Compiled::Avx2),
                (false, false) => (Compiled::Portable, Compiled::Portable),
            };
            assert_eq!(choose(Path::Best, features), best, "{features:?}");
            assert_eq!(choose(Path::Avx2, features), second, "{features:?}");
            assert_eq!(choose(Path::Portable, features), Compiled::Portable);
        }
    }

    /// `has_vector_copy` (whether `fast` may route hard roots to triad9) holds exactly on processors with the AVX2
    /// copy's four features, as the standard library detects them.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_triad_route_is_open_exactly_where_the_avx2_copys_features_are_detected() {
        let avx2 = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2");
        assert_eq!(super::has_vector_copy(), avx2);
    }

    /// `detect` reports the standard library's detection of each feature, in the order `Features` documents.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_detected_features_are_the_standard_librarys_in_the_documented_order() {
        let expected = [
            std::is_x86_feature_detected!("avx2"),
            std::is_x86_feature_detected!("popcnt"),
            std::is_x86_feature_detected!("bmi1"),
            std::is_x86_feature_detected!("bmi2"),
            std::is_x86_feature_detected!("avx512f"),
            std::is_x86_feature_detected!("avx512vl"),
            std::is_x86_feature_detected!("avx512bw"),
            std::is_x86_feature_detected!("avx512bitalg"),
        ];
        eprintln!("features: {expected:?}");
        assert_eq!(super::detect(), expected);
    }

    /// The packing of the cache puts feature `i` at bit `i` and the known mark above them, for all 256 feature
    /// sets (the unpacking in `detect` is checked by the cache test below).
    #[test]
    fn the_cache_packs_each_feature_at_its_own_bit_and_marks_the_set_known() {
        for bits in 0u16..256 {
            let features: Features = std::array::from_fn(|i| (bits >> i) & 1 == 1);
            assert_eq!(super::known(features), bits | super::KNOWN, "{features:?}");
        }
    }

    /// After a first call, the cache holds exactly what the standard library detects, marked known, and later
    /// calls report it unchanged (the invariant of `DETECTED`).
    #[test]
    fn the_cached_features_are_the_detected_ones_marked_known() {
        let first = super::detect();
        let cached = super::DETECTED.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(cached, super::known(super::detect_now()));
        assert_eq!(super::detect(), first);
        assert_eq!(first, super::detect_now());
    }

    /// On all 256 feature sets, band9's bit-manipulation copy runs for `Best` and `Avx2` exactly when `popcnt`,
    /// `bmi1` and `bmi2` are there, and never for `Portable` (the safety of `solve_band`).
    #[test]
    fn band9s_bit_copy_runs_exactly_where_its_three_features_are() {
        for bits in 0u32..256 {
            let features: Features = std::array::from_fn(|i| (bits >> i) & 1 == 1);
            let three = bits & 0x0e == 0x0e;
            assert_eq!(band_bits(Path::Best, features), three, "{features:?}");
            assert_eq!(band_bits(Path::Avx2, features), three, "{features:?}");
            assert!(!band_bits(Path::Portable, features));
        }
    }
}
