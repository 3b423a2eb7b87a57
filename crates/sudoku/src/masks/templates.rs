//! Per-digit templates: the band configurations that lie on at least one whole placement of their digit.
//!
//! A *template* of a digit is a placement of it on the whole grid: nine cells, one in each row, column and box.
//! In triad9's terms it is one configuration per horizontal band (the digit's minirow in each box of the band) and
//! one per vertical band (its minicolumn in each box), such that in every box the chosen minirow and minicolumn
//! cross at a candidate of the digit. [`restrict`] keeps, for each band and digit, only the configurations that
//! belong to some template, and leaves a digit with no template without any configuration (the search then fails
//! at once).
//!
//! Why: triad9's propagation checks a configuration box by box (each of its boxes must have a candidate in its
//! element that a configuration of the crossing band still allows), which is arc consistency between bands. A
//! template needs one configuration of each crossing band that fits all of that band's boxes at once. X-wings,
//! swordfish and longer fish are the patterns the difference catches. Measured (`docs/measurements.md`,
//! "Templates at the root"): applied once to the root that `fast` hands to triad9, it halves the search trees of
//! the hardest public sets (forum_hardest_1106, count to two: 221 -> 115 nodes per puzzle). When only the first
//! solution is wanted triad9 takes the step after a few nodes instead (`TEMPLATES_AFTER_FIRST` there), so the
//! many roots that need fewer do not pay for it.
//!
//! How: for one digit, fix the three horizontal configurations; then the three vertical bands are independent,
//! and each keeps the configurations whose minicolumns meet a candidate in the fixed minirow of each of its three
//! boxes. The sets are bytes of one word ([`ROW_V`]), so a choice of three horizontal configurations is two ANDs
//! and a test that no byte is empty, and choices that empty a byte after one or two bands are cut there: at most
//! 6 + 36 + 216 steps per digit, far fewer on real roots.

use super::tables::{minirow_key, BAND};

/// The six permutations, as triad9 numbers its configurations: `PERM[k][p]` is the element (minirow or
/// minicolumn) of peer box `p` that configuration `k` uses.
use super::triad9::{config_lanes, key_configs, unpack, PERM};

/// `ROW_V[p][m]`: for a row of a horizontal band at position `p` of the vertical bands (the band's index), whose
/// candidate columns are `m` (bit `3j + c` for column `c` of box `j`), byte `j` holds the vertical configurations
/// `k` of band `j` (bit `k`) whose minicolumn in that box, `PERM[k][p]`, is one of the row's candidates there.
/// A byte is nonzero exactly when the row has a candidate in that box.
static ROW_V: [[u32; 512]; 3] = {
    let mut t = [[0u32; 512]; 3];
    let mut p = 0;
    while p < 3 {
        let mut m = 0;
        while m < 512 {
            let mut j = 0;
            while j < 3 {
                let mut k = 0;
                while k < 6 {
                    if m >> (3 * j + PERM[k][p]) & 1 != 0 {
                        t[p][m] |= 1 << (8 * j + k);
                    }
                    k += 1;
                }
                j += 1;
            }
            m += 1;
        }
        p += 1;
    }
    t
};

/// `CONFIGS[key]`: triad9's [`key_configs`] of every minirow occupancy key (`super::tables::minirow_key`), as a
/// table.
static CONFIGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut key = 0;
    while key < 512 {
        t[key] = key_configs(key);
        key += 1;
    }
    t
};

/// `LANES[s]`: triad9's [`config_lanes`] of every set of configurations, as a table.
static LANES: [[u64; 2]; 64] = {
    let mut t = [[0u64; 2]; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = config_lanes(s as u8);
        s += 1;
    }
    t
};

/// Lane `k` = 1 for each of the six configurations: [`LANES`] of the full set.
const ALL_LANES: [u64; 2] = [0x0001_0001_0001_0001, 0x0001_0001];

/// A digit is checked only when it has two or more configurations in at least this many of the six bands (five:
/// closed in at most one; the code computes that directly). Fewer open bands leave few templates, and the check
/// rarely removes anything there: on the roots `fast` hands to triad9, of the digits with eliminations 99%
/// (forum_hardest_1106, 1905) and 68% (magictour) had five or six open bands, and skipping the rest cut the
/// check's cost on magictour by a third (`docs/measurements.md`).
const MIN_OPEN_BANDS: u32 = 5;
const _: () = assert!(
    MIN_OPEN_BANDS == 5,
    "`restrict` counts the closed bands bit-sliced, up to two"
);

/// Each of the three low bytes of a word set to 0x7F: adding it sets bit 7 of every byte that was nonzero (bytes
/// hold at most six bits here, so nothing carries into the next byte).
const ALL_BYTES_SET: u32 = 0x7F_7F7F;
/// The six configurations in each of the three low bytes: every vertical band's set before any is known.
const ALL_VERTICAL: u32 = 0x3F_3F3F;
/// Bit 7 of each of the three low bytes.
const HIGH_BITS: u32 = 0x80_8080;

/// Whether none of the three low bytes of `x` (each at most 0x3F) is zero.
#[inline(always)]
fn no_empty_byte(x: u32) -> bool {
    (x + ALL_BYTES_SET) & HIGH_BITS == HIGH_BITS
}

/// The configurations of one digit that lie on some template, from its candidates `x` (band `i`'s entry, 27 bits,
/// layout of `super::tables`): per horizontal band `i` a 6-bit set, and the vertical bands' sets as bytes `j` of
/// one word. All empty when the digit has no template.
#[inline(always)]
fn digit_templates(x: &[u32; 3]) -> ([u8; 3], u32) {
    // a[i][k]: for horizontal configuration k of band i, byte j = the vertical configurations of band j that fit
    // box (i, j) in its minirow PERM[k][j]; w[r] holds those bytes for row r of the band in every box at once.
    let mut cap = ALL_VERTICAL;
    let a: [[u32; 6]; 3] = std::array::from_fn(|i| {
        let w: [u32; 3] = std::array::from_fn(|r| ROW_V[i][(x[i] >> (9 * r) & 0x1FF) as usize]);
        cap &= w[0] | w[1] | w[2];
        std::array::from_fn(|k| {
            (w[PERM[k][0]] & 0xFF) | (w[PERM[k][1]] & 0xFF00) | (w[PERM[k][2]] & 0xFF_0000)
        })
    });
    // The configurations of each horizontal band whose minirows all have candidates (exactly those whose word has
    // no empty byte). Once the enumeration has found all of them and all of `cap` for the vertical bands (what
    // the rows allow, box by box: at least what any template can use), nothing more can be learnt and it stops.
    let valid: [u32; 3] = std::array::from_fn(|i| u32::from(CONFIGS[minirow_key(x[i]) & 511]));
    let (mut h, mut v) = ([0u32; 3], 0u32);
    let mut m0 = valid[0];
    while m0 != 0 {
        let k0 = m0.trailing_zeros() as usize;
        m0 &= m0 - 1;
        let a0 = a[0][k0];
        let mut m1 = valid[1];
        while m1 != 0 {
            let k1 = m1.trailing_zeros() as usize;
            m1 &= m1 - 1;
            let a01 = a0 & a[1][k1];
            if !no_empty_byte(a01) {
                continue;
            }
            // The third band's six configurations without a branch each (which of them fit is data the
            // predictor cannot learn): a configuration outside `valid[2]` never fits.
            let mut fit = 0u32;
            for (k2, &a2) in a[2].iter().enumerate() {
                let all = a01 & a2;
                let ok = no_empty_byte(all) & (valid[2] >> k2 & 1 != 0);
                fit |= u32::from(ok) << k2;
                v |= all & 0u32.wrapping_sub(u32::from(ok));
            }
            if fit != 0 {
                h[0] |= 1 << k0;
                h[1] |= 1 << k1;
                h[2] |= fit;
            }
            if h == valid && v == cap {
                return (h.map(|x| x as u8), v);
            }
        }
    }
    (h.map(|x| x as u8), v)
}

/// Narrows `configs` (six bands in triad9's packing: bands 0..3 horizontal, 3..6 vertical; lane `k` of a band =
/// the digits that may follow configuration `k`) to the configurations on some template of their digit, given the
/// candidates `cand` (band9's entries: `cand[9b + d]` for band `b`, digit `d`). Sound: a solution's placement of a
/// digit is a template on its candidates, so every solution keeps its configurations. A digit without a template
/// loses every configuration in every band.
#[inline(always)]
pub(super) fn restrict(cand: &[u32; 32], configs: &mut [[u64; 2]; 6]) {
    // The digits to check: open (two or more configurations) in at least MIN_OPEN_BANDS of the six bands, i.e.
    // closed in at most one. Per band, `two` = digits with at least two configurations (bit-sliced over the
    // lanes); then, over the bands, the digits closed in two or more.
    let (mut closed_once, mut closed_twice) = (0u16, 0u16);
    for band in configs.iter() {
        let (mut one, mut two) = (0u16, 0u16);
        for lane in unpack(band) {
            two |= one & lane;
            one |= lane;
        }
        let closed = !two;
        closed_twice |= closed_once & closed;
        closed_once |= closed;
    }
    let checked = u32::from(!closed_twice) & 0x1FF;
    // The digits not checked keep every configuration (multiplying by a lane mask copies them into each lane).
    let skipped = u64::from(!checked & 0x1FF);
    let mut keep = [[ALL_LANES[0] * skipped, ALL_LANES[1] * skipped]; 6];
    let mut digits = checked;
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let x = [
            cand[d] & BAND,
            cand[(9 + d) & 31] & BAND,
            cand[(18 + d) & 31] & BAND,
        ];
        let (h, v) = digit_templates(&x);
        for (band, out) in keep.iter_mut().enumerate() {
            let set = if band < 3 {
                h[band]
            } else {
                (v >> (8 * (band - 3))) as u8
            };
            let lanes = LANES[usize::from(set & 0x3F)];
            out[0] |= lanes[0] << d;
            out[1] |= lanes[1] << d;
        }
    }
    for (c, k) in configs.iter_mut().zip(&keep) {
        c[0] &= k[0];
        c[1] &= k[1];
    }
}

#[cfg(test)]
mod tests {
    use csp_core::rng::Rng;

    use super::{digit_templates, restrict, PERM};

    /// The oracle: every placement of the digit (one candidate cell per row, distinct columns, distinct boxes)
    /// enumerated row by row, each mapped to its six configurations. Written from the definition, independently
    /// of the byte-packed enumeration.
    fn model(x: &[u32; 3]) -> ([u8; 3], [u8; 3]) {
        let cell = |r: usize, c: usize| x[r / 3] >> (9 * (r % 3) + c) & 1 != 0;
        let config_of = |elem: [usize; 3]| (0..6).find(|&k| PERM[k] == elem).unwrap_or(6);
        let (mut h, mut v) = ([0u8; 3], [0u8; 3]);
        let mut cols = [0usize; 9];
        fn place(
            r: usize,
            cols: &mut [usize; 9],
            cell: &dyn Fn(usize, usize) -> bool,
            found: &mut dyn FnMut(&[usize; 9]),
        ) {
            if r == 9 {
                found(cols);
                return;
            }
            for c in 0..9 {
                let clash =
                    (0..r).any(|q| cols[q] == c || (q / 3 == r / 3 && cols[q] / 3 == c / 3));
                if !clash && cell(r, c) {
                    cols[r] = c;
                    place(r + 1, cols, cell, found);
                }
            }
        }
        place(0, &mut cols, &cell, &mut |cols| {
            for (i, set) in h.iter_mut().enumerate() {
                // Horizontal band i: the minirow of each box j.
                let mut elem = [0; 3];
                for (ri, &c) in cols[3 * i..3 * i + 3].iter().enumerate() {
                    elem[c / 3] = ri;
                }
                *set |= 1 << config_of(elem);
            }
            for (j, set) in v.iter_mut().enumerate() {
                // Vertical band j: the minicolumn of each box (row of boxes) p.
                let mut elem = [0; 3];
                for (r, &c) in cols.iter().enumerate() {
                    if c / 3 == j {
                        elem[r / 3] = c % 3;
                    }
                }
                *set |= 1 << config_of(elem);
            }
        });
        (h, v)
    }

    #[test]
    fn the_packed_enumeration_finds_exactly_the_configurations_of_the_placements() {
        let mut rng = Rng::new(0x7e3a_91c5_d2b4_0f68);
        let mut with_templates = 0;
        for round in 0..2000 {
            // Dense to sparse candidate sets: each cell kept with probability (8 - density) / 8.
            let density = round % 7;
            let mut x = [0u32; 3];
            for band in &mut x {
                for bit in 0..27 {
                    if rng.next_u64() % 8 >= density as u64 {
                        *band |= 1 << bit;
                    }
                }
            }
            let (h, v) = digit_templates(&x);
            let (mh, mv) = model(&x);
            assert_eq!(h, mh, "horizontal, candidates {x:?}");
            let got_v: [u8; 3] = std::array::from_fn(|j| (v >> (8 * j)) as u8);
            assert_eq!(got_v, mv, "vertical, candidates {x:?}");
            with_templates += usize::from(mh != [0; 3]);
        }
        assert!(
            with_templates > 700 && with_templates < 1950,
            "the rounds mix digits with and without templates: {with_templates} of 2000 have some"
        );
    }

    #[test]
    fn restrict_narrows_each_checked_digit_to_its_templates_and_leaves_the_others_alone() {
        let mut rng = Rng::new(0x51d0_c0de_2b7f_9a13);
        let (mut checked, mut narrowed, mut emptied) = (0, 0, 0);
        for round in 0..250 {
            // Candidates from dense to sparse, configurations from full to random.
            let density = round % 5;
            let mut cand = [0u32; 32];
            for entry in cand.iter_mut().take(27) {
                for bit in 0..27 {
                    if rng.next_u64() % 8 >= density {
                        *entry |= 1 << bit;
                    }
                }
            }
            let before: [[u64; 2]; 6] = std::array::from_fn(|_| {
                let keep = if round % 3 == 0 {
                    u64::MAX
                } else {
                    rng.next_u64() | rng.next_u64()
                };
                [keep & 0x01FF_01FF_01FF_01FF, keep >> 7 & 0x01FF_01FF]
            });
            let mut after = before;
            restrict(&cand, &mut after);
            for d in 0..9 {
                // Per band, the digit's configurations as a 6-bit set.
                let set = |c: &[u64; 2]| {
                    (0..6).fold(0u8, |s, k| {
                        s | (((c[k / 4] >> (16 * (k % 4) + d)) & 1) as u8) << k
                    })
                };
                let was: Vec<u8> = before.iter().map(set).collect();
                let now: Vec<u8> = after.iter().map(set).collect();
                let open = was.iter().filter(|s| s.count_ones() >= 2).count() as u32;
                if open < super::MIN_OPEN_BANDS {
                    assert_eq!(now, was, "digit {d} with {open} open bands is left alone");
                    continue;
                }
                checked += 1;
                let (h, v) = model(&[cand[d], cand[9 + d], cand[18 + d]]);
                let want: Vec<u8> = was
                    .iter()
                    .zip(h.iter().chain(&v))
                    .map(|(w, m)| w & m)
                    .collect();
                assert_eq!(now, want, "digit {d}: its configurations on some template");
                narrowed += usize::from(now != was);
                emptied += usize::from(now.iter().all(|&s| s == 0));
            }
        }
        assert!(
            checked > 1000 && narrowed > 100 && emptied > 20,
            "checked {checked}, narrowed {narrowed}, emptied {emptied}"
        );
    }
}
