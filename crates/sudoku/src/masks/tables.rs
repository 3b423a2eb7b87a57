//! Constant lookup tables of the 9x9 band solver, built at compile time.
//!
//! Band layout (one `u32` per digit and band, 27 low bits used):
//!
//! ```text
//!            box 0      box 1      box 2
//!   row 0:  0  1  2 |  3  4  5 |  6  7  8
//!   row 1:  9 10 11 | 12 13 14 | 15 16 17
//!   row 2: 18 19 20 | 21 22 23 | 24 25 26
//! ```
//!
//! A *minirow* is the three cells of one row inside one box; minirow `j = 3 * row + box` occupies bits
//! `3j..3j+3`, so the nine minirows of a band tile its 27 bits in order.

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// `x * COL_SPREAD` copies a 9-bit column set into the three rows of a band (no carries: the copies do not overlap).
pub(super) const COL_SPREAD: u32 = 1 | (1 << 9) | (1 << 18);

/// The minirow occupancy key of a band's cells `a`: bit `3 * box + row` is set when minirow (`row`, `box`) holds
/// a cell. Eight operations: `(g & 3) + 3` cannot carry out of a 3-bit group and has bit 2 set when `g & 3` is
/// nonzero, so after OR-ing `g` in, bit 2 of each group tells whether the minirow is occupied; multiplying those
/// nine bits (2, 5, .., 26) by `1 + 2^8 + 2^16` lays rows 0, 1 and 2 side by side at bits 18..27 (every partial
/// product lands on a distinct bit, so nothing carries). Replaced three lookups in a per-row table (17
/// instructions; 1106 first-solution instructions per puzzle 374k -> 361k), then a shift-and-OR fold (14).
#[inline(always)]
pub(super) fn minirow_key(a: u32) -> usize {
    let x = (((a & 0o333_333_333) + 0o333_333_333) | a) & 0o444_444_444;
    (x.wrapping_mul(0x1_0101) >> 18 & 0x1FF) as usize
}

/// `KEEP[key]`: for the minirow occupancy key of one digit in one band (see [`minirow_key`]), the cells of the
/// minirows that lie on at least one placement of the digit consistent with the rules: one minirow per row, one per
/// box, i.e. a permutation `row -> box`. Zero when no permutation fits (the digit cannot be placed in the band).
///
/// This one lookup applies, for a digit inside a band, pointing and claiming (locked candidates between rows and
/// boxes) and hidden singles in boxes (a box with one candidate fixes its row's minirow).
pub(super) static KEEP: [u32; 512] = keep_table();

/// `CELL_KEEP[cell]`: the band minus the peers of `cell` inside its band (same row, same box, same column),
/// keeping `cell` itself. Placing a digit ANDs this into the digit's band. Entries 27..32 are the whole band, so
/// an index masked by 31 needs no other check.
pub(super) static CELL_KEEP: [u32; 32] = cell_keep_table();

/// `COL_CLEAR[cell]`: every bit but the cell's column (`!(COL_SPREAD << (cell % 9))`), ANDed into the digit's
/// other two bands when it is placed at `cell`: a load instead of a division. Entries 27..32 are all ones.
pub(super) static COL_CLEAR: [u32; 32] = col_clear_table();

/// `ROW_COL_SHIFT[cell]`: `(9 * (cell / 9), cell % 9)`, the shifts that bring the cell's row down to bits 0..9 and
/// its column to bits 0, 9 and 18 (loads instead of two divisions in the branching choice). Entries 27..32 are 0.
pub(super) static ROW_COL_SHIFT: [(u8, u8); 32] = row_col_shift_table();

/// `LOCKED_COLS[cols]`: for the 9-bit set of columns where a digit has candidates in one band, the columns that
/// are the only column of their box. The digit's cell of that box lies in that column, so the column is used by
/// this band and the digit leaves it in the other two bands (pointing, box -> column). A row reduced to one cell
/// makes its box a single column too, so this also carries hidden singles across bands.
#[cfg(test)]
static LOCKED_COLS: [u16; 512] = locked_cols_table();

/// `LOCKED[cols]`: `LOCKED_COLS[cols]` spread over the band's three rows (the cells of those columns), so that an
/// update ANDs its complement into the other bands without a multiply.
pub(super) static LOCKED: [u32; 512] = locked_table();

/// `SOLO_ROWS[key]`: for the minirow key of a digit's cells in a band before [`KEEP`], the cells (all nine) of the
/// rows left with exactly one minirow by `KEEP`. Such a row owns its box (no other row can use it), so the box's
/// columns are the row's columns: the row holds one cell exactly when that box has one column. Hence the cells
/// of the band's rows with one candidate are `a & SOLO_ROWS[key] & LOCKED[cols]`: two ANDs and a lookup instead
/// of a 13-instruction field-wise count.
pub(super) static SOLO_ROWS: [u32; 512] = solo_rows_table();

/// `POP9[x]`: the number of set bits of a 9-bit value (the default x86-64 target has no popcount instruction).
pub(super) static POP9: [u8; 512] = pop9_table();

/// `SPREAD8[x]`: the low 8 bits of `x` spread to one per byte (bit `j` to bit 0 of byte `j`), for band9's
/// solution grid. Computed by multiplication: the byte copies of `x` keep bit `j` in byte `j`, and adding 0x7F
/// per byte carries a set bit into bit 7 (never out of the byte). 2 KiB.
pub(super) static SPREAD8: [u64; 256] = {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let copies = (x as u64).wrapping_mul(ONES) & 0x8040_2010_0804_0201;
        t[x] = ((copies + 0x7F * ONES) & (0x80 * ONES)) >> 7;
        x += 1;
    }
    t
};

const fn pop9_table() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = (x as u32).count_ones() as u8;
        x += 1;
    }
    t
}

/// Swaps row and box in a 9-bit minirow set: bit `3 * row + box` <-> bit `3 * box + row` (its own inverse).
const fn transpose(m: usize) -> usize {
    let mut t = 0;
    let mut j = 0;
    while j < 9 {
        if m & (1 << j) != 0 {
            t |= 1 << (3 * (j % 3) + j / 3);
        }
        j += 1;
    }
    t
}

/// The six permutations `row -> box` of a band (`PERMS[p][row]`): [`KEEP`]'s, and the vector first sweep's rule
/// in `band9`.
pub(super) const PERMS: [[u32; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

const fn keep_table() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut key = 0;
    while key < 512 {
        let m = transpose(key);
        let mut minis = 0u32;
        let mut p = 0;
        while p < 6 {
            let bits = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
            if m as u32 & bits == bits {
                minis |= bits;
            }
            p += 1;
        }
        let mut cells = 0u32;
        let mut j = 0;
        while j < 9 {
            if minis & (1 << j) != 0 {
                cells |= 7 << (3 * j);
            }
            j += 1;
        }
        t[key] = cells;
        key += 1;
    }
    t
}

const fn locked_cols_table() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut k = 0;
        while k < 3 {
            let group = (cols >> (3 * k)) & 7;
            if group != 0 && group & (group - 1) == 0 {
                t[cols] |= (group << (3 * k)) as u16;
            }
            k += 1;
        }
        cols += 1;
    }
    t
}

const fn locked_table() -> [u32; 512] {
    let cols = locked_cols_table();
    let mut t = [0u32; 512];
    let mut c = 0;
    while c < 512 {
        t[c] = cols[c] as u32 * COL_SPREAD;
        c += 1;
    }
    t
}

const fn solo_rows_table() -> [u32; 512] {
    let keep = keep_table();
    let mut t = [0u32; 512];
    let mut key = 0;
    while key < 512 {
        let cells = keep[key];
        let mut row = 0;
        while row < 3 {
            let mut minis = 0;
            let mut bx = 0;
            while bx < 3 {
                if cells & (7 << (9 * row + 3 * bx)) != 0 {
                    minis += 1;
                }
                bx += 1;
            }
            if minis == 1 {
                t[key] |= 0x1FF << (9 * row);
            }
            row += 1;
        }
        key += 1;
    }
    t
}

const fn row_col_shift_table() -> [(u8, u8); 32] {
    let mut t = [(0u8, 0u8); 32];
    let mut cell = 0;
    while cell < 27 {
        t[cell] = (9 * (cell / 9) as u8, (cell % 9) as u8);
        cell += 1;
    }
    t
}

const fn col_clear_table() -> [u32; 32] {
    let mut t = [u32::MAX; 32];
    let mut cell = 0;
    while cell < 27 {
        t[cell] = !(COL_SPREAD << (cell % 9));
        cell += 1;
    }
    t
}

const fn cell_keep_table() -> [u32; 32] {
    let mut t = [BAND; 32];
    let mut cell = 0;
    while cell < 27 {
        let row = cell / 9;
        let col = cell % 9;
        let bx = col / 3;
        let row_mask = 0x1FF << (9 * row);
        let box_mask = (7 * COL_SPREAD) << (3 * bx);
        let col_mask = COL_SPREAD << col;
        t[cell] = (BAND & !(row_mask | box_mask | col_mask)) | (1 << cell);
        cell += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `KEEP` indexed by minirow set with bit `3 * row + box`, the order the tests below are written in.
    fn keep(m: usize) -> u32 {
        KEEP[transpose(m)]
    }

    #[test]
    fn every_band_mask_table_stays_inside_the_band() {
        // The masks are ANDed into 27-bit band words; a bit past the band would leak into the padding of the
        // word (and, for SOLO_ROWS, claim a fourth row).
        for key in 0..512 {
            for (name, mask) in [
                ("KEEP", KEEP[key]),
                ("LOCKED", LOCKED[key]),
                ("SOLO_ROWS", SOLO_ROWS[key]),
            ] {
                assert_eq!(mask & !BAND, 0, "{name}[{key}] = {mask:#x}");
            }
        }
        for (cell, keep) in CELL_KEEP.iter().enumerate() {
            assert_eq!(keep & !BAND, 0, "CELL_KEEP[{cell}]");
        }
    }

    #[test]
    fn minirow_key_marks_exactly_the_occupied_minirows() {
        for row in 0..3 {
            for bx in 0..3 {
                for pattern in 1..8u32 {
                    let a = pattern << (9 * row + 3 * bx);
                    assert_eq!(
                        minirow_key(a),
                        1 << (3 * bx + row),
                        "row {row} box {bx} {pattern:#b}"
                    );
                }
            }
        }
        // Minirows combine by OR.
        assert_eq!(minirow_key(BAND), 511);
        assert_eq!(minirow_key((1 << 26) | 1), (1 << 8) | 1);
        let mut x = 0x9E37_79B9_u32;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let a = x & BAND;
            let mut want = 0;
            for row in 0..3 {
                for bx in 0..3 {
                    if a & (7 << (9 * row + 3 * bx)) != 0 {
                        want |= 1 << (3 * bx + row);
                    }
                }
            }
            assert_eq!(minirow_key(a), want, "band {a:#029b}");
        }
    }

    #[test]
    fn keep_of_a_full_band_is_the_full_band() {
        assert_eq!(KEEP[511], BAND);
    }

    #[test]
    fn keep_is_zero_when_two_rows_are_confined_to_one_box() {
        // Rows 0 and 1 both only in box 0: no permutation.
        let m = 0b111_001_001;
        assert_eq!(keep(m), 0);
    }

    #[test]
    fn keep_removes_a_box_claimed_by_a_single_minirow_row() {
        // Row 0 only in box 0, rows 1 and 2 everywhere: box 0 is taken by row 0.
        let m = 0b111_111_001;
        let cells = keep(m);
        assert_eq!(cells & (7 << 9), 0, "row 1 loses box 0");
        assert_eq!(cells & (7 << 18), 0, "row 2 loses box 0");
        assert_eq!(cells & 7, 7);
    }

    #[test]
    fn keep_is_idempotent() {
        for m in 0..512 {
            let cells = keep(m);
            let mut m2 = 0usize;
            for j in 0..9 {
                if cells & (7 << (3 * j)) != 0 {
                    m2 |= 1 << j;
                }
            }
            assert_eq!(keep(m2), cells, "m = {m:#b}");
        }
    }

    #[test]
    fn solo_rows_and_locked_columns_find_exactly_the_rows_with_one_cell() {
        // Every band of one digit after KEEP, sampled by a fixed pseudo-random walk over all 2^27 subsets, plus
        // every subset of the first row's and first box's cells.
        let mut x = 0x2545_F491_u32;
        let mut bands: Vec<u32> = (0..200_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x & BAND
            })
            .collect();
        bands.extend((0..512).map(|m| m | 0x1FF << 18));
        bands.extend((0..512).map(|m| (m & 7) | (m >> 3 & 7) << 9 | (m >> 6) << 18));
        for a in bands {
            let a = a & KEEP[minirow_key(a)];
            if a == 0 {
                continue;
            }
            let cols = ((a | a >> 9 | a >> 18) & 0x1FF) as usize;
            let got = a & SOLO_ROWS[minirow_key(a)] & LOCKED[cols];
            let mut want = 0;
            for row in 0..3 {
                let r = a & 0x1FF << (9 * row);
                if r.count_ones() == 1 {
                    want |= r;
                }
            }
            assert_eq!(got, want, "band {a:#029b}");
        }
    }

    #[test]
    fn locked_cols_keeps_the_columns_alone_in_their_box() {
        // Box 0: column 1 alone; box 1: columns 3 and 5; box 2: column 8 alone.
        assert_eq!(LOCKED_COLS[0b100_101_010], 0b100_000_010);
    }

    #[test]
    fn cell_keep_clears_row_box_and_column_but_keeps_the_cell() {
        // Cell 13 = row 1, column 4, box 1.
        let k = CELL_KEEP[13];
        assert_ne!(k & (1 << 13), 0);
        for c in 0..27 {
            if c == 13 {
                continue;
            }
            let peer = c / 9 == 1 || c % 9 == 4 || (c % 9) / 3 == 1;
            assert_eq!(k & (1 << c) == 0, peer, "cell {c}");
        }
    }

    #[test]
    fn col_clear_and_row_col_shift_locate_each_cell_and_pad_past_the_band() {
        for cell in 0..27 {
            let (row_shift, col_shift) = ROW_COL_SHIFT[cell];
            assert_eq!(
                (usize::from(row_shift), usize::from(col_shift)),
                (9 * (cell / 9), cell % 9)
            );
            for other in 0..27 {
                let same_col = other % 9 == cell % 9;
                assert_eq!(
                    COL_CLEAR[cell] & (1 << other) == 0,
                    same_col,
                    "{cell} {other}"
                );
            }
        }
        for pad in 27..32 {
            assert_eq!((COL_CLEAR[pad], CELL_KEEP[pad]), (u32::MAX, BAND));
        }
    }
}
