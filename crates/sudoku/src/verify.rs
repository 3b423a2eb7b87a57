//! The independent checker: a solution keeps every given and fills every house with a permutation of `1..=N`.
//!
//! It reads the grids directly and shares no code with any solver (nor with [`Board::find_clash`]), so a search
//! or propagation bug cannot make a wrong answer pass.
//!
//! Cost: the CLI verifies every answer before printing it, so the common case (a correct solution) is one pass
//! over the cells with used-bitmasks per row, column and box, no allocation and no division (`all_houses_full`);
//! only when that pass finds something wrong does the slower walk run that names the first problem in a fixed
//! order. Measured with callgrind on `sudoku solve -j 1 kaggle_10k.txt`: 5,170 instructions per 9x9 verification
//! before (a walk per house through [`Board::house_cells`]), 950 after.

use std::fmt;

use crate::board::{symbol, Board, CellName, House, MAX_BOX};

/// Why a grid is not a solution of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// Puzzle and solution differ in size.
    SizeMismatch {
        /// Puzzle side.
        puzzle: usize,
        /// Solution side.
        solution: usize,
    },
    /// A cell of the solution is empty.
    Empty {
        /// Row-major cell index.
        cell: usize,
        /// Board side.
        side: usize,
    },
    /// The solution changes a given.
    GivenChanged {
        /// Row-major cell index.
        cell: usize,
        /// Board side.
        side: usize,
        /// The given.
        given: u8,
        /// The solution's value.
        found: u8,
    },
    /// A house lacks a digit (so another appears twice).
    NotPermutation {
        /// The house.
        house: House,
        /// The missing digit.
        missing: u8,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            VerifyError::SizeMismatch { puzzle, solution } => {
                write!(
                    f,
                    "size mismatch: puzzle is {puzzle}x{puzzle}, solution {solution}x{solution}"
                )
            }
            VerifyError::Empty { cell, side } => {
                write!(f, "cell {} is empty", CellName(cell, side))
            }
            VerifyError::GivenChanged {
                cell,
                side,
                given,
                found,
            } => write!(
                f,
                "cell {} changes the given {} to {}",
                CellName(cell, side),
                symbol(given),
                symbol(found)
            ),
            VerifyError::NotPermutation { house, missing } => {
                write!(f, "{house} lacks {} (a digit repeats)", symbol(missing))
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// Checks that `solution` solves `puzzle`: same size, givens kept, no empty cell, every house a permutation.
pub fn verify(puzzle: &Board, solution: &Board) -> Result<(), VerifyError> {
    if puzzle.side() != solution.side() {
        return Err(VerifyError::SizeMismatch {
            puzzle: puzzle.side(),
            solution: solution.side(),
        });
    }
    if all_houses_full(solution, Some(puzzle)) {
        return Ok(());
    }
    let side = puzzle.side();
    for (cell, (&given, &found)) in puzzle.cells().iter().zip(solution.cells()).enumerate() {
        if given != 0 && given != found {
            return Err(VerifyError::GivenChanged {
                cell,
                side,
                given,
                found,
            });
        }
    }
    verify_complete(solution)
}

/// [`verify`] for a 9x9 puzzle given as its 81 cells (row-major, 0 = empty, `1..=9`): the same checks, the same
/// error for the same grids, without a `Board` of the givens (the CLI's 9x9 lane reads bare lines into arrays).
pub fn verify9(givens: &[u8; 81], solution: &Board) -> Result<(), VerifyError> {
    let Ok(grid) = <&[u8; 81]>::try_from(solution.cells()) else {
        return Err(VerifyError::SizeMismatch {
            puzzle: 9,
            solution: solution.side(),
        });
    };
    if solves9(givens, grid) {
        return Ok(());
    }
    for (cell, (&given, &found)) in givens.iter().zip(grid).enumerate() {
        if given != 0 && given != found {
            return Err(VerifyError::GivenChanged {
                cell,
                side: 9,
                given,
                found,
            });
        }
    }
    verify_complete(solution)
}

/// True exactly when [`verify9`] accepts `grid` as a solution of `givens` (both row-major, 0 = empty in
/// `givens`): every given kept, every house a permutation of `1..=9` (so every value is in `1..=9`). The check
/// alone, on arrays: the CLI's 9x9 lane writes a solution that passes it without building a `Board`, and asks
/// [`verify9`] why only when it fails.
pub fn solves9(givens: &[u8; 81], grid: &[u8; 81]) -> bool {
    givens_kept_9(givens, grid) & houses_full_9_fast(grid)
}

/// Checks that `grid` is a complete, valid grid (every cell filled, every house a permutation).
pub fn verify_complete(grid: &Board) -> Result<(), VerifyError> {
    if all_houses_full(grid, None) {
        return Ok(());
    }
    let side = grid.side();
    if let Some(cell) = grid.cells().iter().position(|&v| v == 0) {
        return Err(VerifyError::Empty { cell, side });
    }
    // Digits are at most 36, so one u64 holds a house's digits.
    let full: u64 = if side == 64 {
        u64::MAX
    } else {
        (1u64 << side) - 1
    };
    for house in grid.houses() {
        let mut seen = 0u64;
        for cell in grid.house_cells(house) {
            seen |= 1u64 << (grid.cells()[cell] - 1);
        }
        if seen != full {
            let missing = (!seen & full).trailing_zeros() as u8 + 1;
            return Err(VerifyError::NotPermutation { house, missing });
        }
    }
    Ok(())
}

/// The fast path: true exactly when `grid` keeps every given of `puzzle` (when given) and every row, column and
/// box holds all of `1..=N`. Since a house has N cells, holding all N digits means it is a permutation, and an
/// empty cell (bit 63, above every digit's bit) keeps its houses from being full. `grid` and `puzzle` must have
/// the same size (the caller checks).
fn all_houses_full(grid: &Board, puzzle: Option<&Board>) -> bool {
    let cells = grid.cells();
    // 9x9 (the only size with 81 cells) on fixed-size arrays: the givens test vectorises whole.
    if let Ok(grid9) = <&[u8; 81]>::try_from(cells) {
        return match puzzle.map(|p| <&[u8; 81]>::try_from(p.cells())) {
            None => houses_full_9_fast(grid9),
            Some(Ok(givens)) => givens_kept_9(givens, grid9) & houses_full_9_fast(grid9),
            Some(Err(_)) => false,
        };
    }
    if let Some(p) = puzzle {
        // A separate pass over the whole grid: branch-free, the compiler vectorises it.
        let changed = p
            .cells()
            .iter()
            .zip(cells)
            .fold(false, |acc, (&g, &v)| acc | (g != 0 && g != v));
        if changed {
            return false;
        }
    }
    // Monomorphised per box size so the loops have constant bounds (unrolled, no bounds checks).
    match grid.box_size() {
        2 => houses_full_b::<2>(cells),
        3 => <&[u8; 81]>::try_from(cells).is_ok_and(houses_full_9_fast),
        4 => houses_full_b::<4>(cells),
        5 => houses_full_b::<5>(cells),
        _ => houses_full_b::<6>(cells),
    }
}

/// [`all_houses_full`]'s house pass for box size `B`: one walk, row by row in box-wide segments, so a cell's
/// column and box are loop indices; row and box masks are checked as soon as they are complete.
// Index loops with constant bounds on purpose: they unroll, and `c` indexes both the row and the columns.
#[allow(clippy::needless_range_loop)]
fn houses_full_b<const B: usize>(cells: &[u8]) -> bool {
    let n = B * B;
    // n <= 36, so every digit's bit and bit 63 (empty) are distinct.
    let full = (1u64 << n) - 1;
    let mut cols = [0u64; MAX_BOX * MAX_BOX];
    let mut ok = cells.len() == n * n;
    for band_cells in cells.chunks_exact(B * n).take(B) {
        let mut boxes = [0u64; MAX_BOX];
        for row in band_cells.chunks_exact(n) {
            let mut row_mask = 0u64;
            for bc in 0..B {
                for k in 0..B {
                    let c = bc * B + k;
                    let bit = 1u64 << (u32::from(row[c]).wrapping_sub(1) & 63);
                    row_mask |= bit;
                    boxes[bc] |= bit;
                    cols[c] |= bit;
                }
            }
            ok &= row_mask == full;
        }
        ok &= boxes[..B].iter().all(|&m| m == full);
    }
    ok && cols[..n].iter().all(|&m| m == full)
}

/// Whether `grid` keeps every given (nonzero cell) of `givens`: branch-free over fixed-size arrays, which the
/// compiler vectorises (16 cells per compare).
fn givens_kept_9(givens: &[u8; 81], grid: &[u8; 81]) -> bool {
    !givens
        .iter()
        .zip(grid)
        .fold(false, |acc, (&g, &v)| acc | (g != 0 && g != v))
}

/// [`houses_full_9`] by SSSE3 where the CPU has it (detected at run time, so a binary built anywhere runs
/// anywhere; see [`ssse3::houses_full_9`]), else the portable pass itself.
fn houses_full_9_fast(cells: &[u8; 81]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if let Some(full) = ssse3::houses_full_9(cells) {
        return full;
    }
    houses_full_9(cells)
}

/// The 9x9 house pass with SSSE3, sixteen cells per instruction; the portable [`houses_full_9`] is its oracle in
/// the tests.
///
/// Each value `v` (clamped to 15) becomes a byte `lo(v) = 2^(v-1)` for `1..=8` and 0 otherwise (one `pshufb`
/// table lookup). Why the tests below suffice:
/// - A column holds `1..=9` once each exactly when the OR of its `lo` is `0xFF` and its values sum to 45: the OR
///   puts each of `1..=8` in eight of its cells, whose sum is 36, so the ninth holds 9. (Checked also by
///   enumerating every multiset of nine values in `0..=15`.)
/// - When all nine columns pass, every cell holds `1..=9` and the grid holds nine 9s. A box then passes when the
///   OR of its `lo` is `0xFF`, and a row when the *sum* of its `lo` is 255: either way at least eight of its
///   cells hold `1..=8` once each (255 has eight one bits, so no fewer than eight powers of two sum to it, and
///   eight that do are distinct). If its ninth cell were not 9, this house would hold no 9, so another house of
///   the same kind would hold two and have at most seven cells for `1..=8`, and fail.
///
/// Columns are vertical ORs and byte additions of whole rows (a row is loaded as 16 bytes whose first nine are
/// its cells), boxes a fold of three lanes of each band's OR, and rows sums by `psadbw` (eight bytes at once):
/// two rows' first eight cells in one vector, their ninth cells in another.
///
/// Chosen over the SSE2 float-sum pass it replaced for speed on the command line's path; the measurement is in
/// `docs/measurements.md` ("Verification by SSSE3").
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod ssse3 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi64, _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi16, _mm_cmpeq_epi8,
        _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_sad_epu8,
        _mm_set1_epi8, _mm_set_epi16, _mm_setr_epi8, _mm_setzero_si128, _mm_shuffle_epi8,
        _mm_srli_si128, _mm_unpackhi_epi64, _mm_unpacklo_epi64,
    };

    /// Whether every row, column and box of `cells` holds `1..=9` (see the module documentation); `None` when
    /// the CPU lacks SSSE3.
    pub(super) fn houses_full_9(cells: &[u8; 81]) -> Option<bool> {
        if !is_x86_feature_detected!("ssse3") {
            return None;
        }
        // SAFETY: SSSE3 (which implies SSE2 and SSE3) was detected just above; `full_9` needs nothing else.
        Some(unsafe { full_9(cells) })
    }

    /// The 16 bytes of `cells` from `at` (`at + 16 <= 81`; the index panics otherwise, never reached: the
    /// callers' offsets are constants).
    #[target_feature(enable = "ssse3")]
    fn load(cells: &[u8; 81], at: usize) -> __m128i {
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&cells[at..at + 16]);
        // SAFETY: `bytes` is 16 readable bytes, exactly what an unaligned 128-bit load reads.
        unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
    }

    /// [`houses_full_9`] with SSSE3 enabled.
    #[target_feature(enable = "ssse3")]
    fn full_9(cells: &[u8; 81]) -> bool {
        let lo_table = _mm_setr_epi8(0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0);
        let fifteen = _mm_set1_epi8(15);
        let zero = _mm_setzero_si128();
        // Row r's cells in lanes 0..=8 of `v[r]` (clamped to 15) and `lo[r]`; lanes 9..=15 hold the next row's
        // first cells (zeros for row 8) and are never looked at.
        let mut v = [zero; 9];
        let mut lo = [zero; 9];
        for r in 0..9 {
            let row = if r < 8 {
                load(cells, 9 * r)
            } else {
                // Row 8 is the last 9 bytes: read 16 bytes ending at the grid's end and drop the first 7.
                _mm_srli_si128::<7>(load(cells, 65))
            };
            v[r] = _mm_min_epu8(row, fifteen);
            lo[r] = _mm_shuffle_epi8(lo_table, v[r]);
        }
        let ff = _mm_set1_epi8(-1);
        // Columns: the OR of `lo` and the sum of `v` (at most 9 * 15 = 135: no byte overflows). Boxes: the OR of
        // each band's `lo`, folded so that lanes 0, 3 and 6 gather their box's three columns.
        let (mut col_or, mut col_sum) = (zero, zero);
        let mut full = 0xFFFF_i32;
        for band in 0..3 {
            let r = 3 * band;
            let or = _mm_or_si128(_mm_or_si128(lo[r], lo[r + 1]), lo[r + 2]);
            col_or = _mm_or_si128(col_or, or);
            col_sum = _mm_add_epi8(
                _mm_add_epi8(col_sum, v[r]),
                _mm_add_epi8(v[r + 1], v[r + 2]),
            );
            let box_or = _mm_or_si128(
                _mm_or_si128(or, _mm_srli_si128::<1>(or)),
                _mm_srli_si128::<2>(or),
            );
            full &= _mm_movemask_epi8(_mm_cmpeq_epi8(box_or, ff)) | !0b100_1001;
        }
        let columns = _mm_and_si128(
            _mm_cmpeq_epi8(col_or, ff),
            _mm_cmpeq_epi8(col_sum, _mm_set1_epi8(45)),
        );
        full &= _mm_movemask_epi8(columns) | !0b1_1111_1111;
        // Rows, two at a time (row 8 with row 0 again): lanes 0..=7 of `unpacklo` are the first row's cells 0-7,
        // lanes 8..=15 the second's; `unpackhi` masked to lanes 0 and 8 holds their ninth cells. `psadbw` sums
        // each half, so the 16-bit lanes 0 and 4 of the sum are the two rows' totals and the rest are zero.
        let ninth = _mm_setr_epi8(-1, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0);
        let want = _mm_set_epi16(0, 0, 0, 255, 0, 0, 0, 255);
        let mut rows_ok = ff;
        for (a, b) in [(0, 1), (2, 3), (4, 5), (6, 7), (8, 0)] {
            let sum = _mm_add_epi64(
                _mm_sad_epu8(_mm_unpacklo_epi64(lo[a], lo[b]), zero),
                _mm_sad_epu8(_mm_and_si128(_mm_unpackhi_epi64(lo[a], lo[b]), ninth), zero),
            );
            rows_ok = _mm_and_si128(rows_ok, _mm_cmpeq_epi16(sum, want));
        }
        full &= _mm_movemask_epi8(rows_ok);
        full == 0xFFFF
    }
}

/// [`houses_full_b`] for 9x9: each cell becomes a one-bit `u16` (bit `v`; an empty cell sets bit 0, which no
/// full house has), then columns and box rows are ORs of whole rows (eight lanes at a time with SSE2), and only
/// the row masks and the three-column box folds are horizontal. Its measurements, and the variants tried and
/// dropped, are in `docs/measurements.md` ("End to end again" and "The CLI at 80% of the solver-only rate").
#[allow(clippy::needless_range_loop)]
fn houses_full_9(cells: &[u8; 81]) -> bool {
    const FULL: u16 = 0b11_1111_1110;
    let mut bits = [[0u16; 9]; 9];
    for (row, values) in bits.iter_mut().zip(cells.chunks_exact(9)) {
        for (b, &v) in row.iter_mut().zip(values) {
            // Clamped, not masked: a value above 15 must not pass for another digit.
            *b = 1u16 << v.min(15);
        }
    }
    let mut cols = [0u16; 9];
    let mut houses = [0u16; 27];
    for band in 0..3 {
        let mut stack = [0u16; 9];
        for r in 3 * band..3 * band + 3 {
            for c in 0..9 {
                cols[c] |= bits[r][c];
                stack[c] |= bits[r][c];
            }
            houses[r] = bits[r].iter().fold(0, |m, &b| m | b);
        }
        for k in 0..3 {
            houses[9 + 3 * band + k] = stack[3 * k] | stack[3 * k + 1] | stack[3 * k + 2];
        }
    }
    houses[18..].copy_from_slice(&cols);
    houses.iter().fold(true, |ok, &m| ok & (m == FULL))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn the_exercise_solution_verifies() {
        let p: Board = PUZZLE.parse().unwrap();
        let s: Board = SOLUTION.parse().unwrap();
        assert_eq!(verify(&p, &s), Ok(()));
    }

    #[test]
    fn solves9_rejects_any_value_above_nine() {
        let p: Board = PUZZLE.parse().unwrap();
        let givens: [u8; 81] = p.cells().try_into().unwrap();
        let good: [u8; 81] = SOLUTION
            .parse::<Board>()
            .unwrap()
            .cells()
            .try_into()
            .unwrap();
        assert!(solves9(&givens, &good));
        for cell in 0..81 {
            for value in 10..=255u8 {
                let mut grid = good;
                grid[cell] = value;
                assert!(!solves9(&givens, &grid), "cell {cell} = {value}");
            }
        }
    }

    #[test]
    fn verify9_and_solves9_on_the_givens_array_agree_with_verify_on_every_broken_grid() {
        let p: Board = PUZZLE.parse().unwrap();
        let givens: [u8; 81] = p.cells().try_into().unwrap();
        let good: Board = SOLUTION.parse().unwrap();
        let mut grids = vec![good.clone()];
        for cell in 0..81 {
            for value in 0..=9 {
                let mut s = good.clone();
                s.set(cell, value).unwrap();
                grids.push(s);
            }
        }
        let mut failures = 0;
        for s in &grids {
            let want = verify(&p, s);
            failures += usize::from(want.is_err());
            assert_eq!(verify9(&givens, s), want, "{s}");
            let cells: &[u8; 81] = s.cells().try_into().unwrap();
            assert_eq!(solves9(&givens, cells), want.is_ok(), "{s}");
        }
        assert!(failures > 700, "the changed grids fail ({failures})");
        let small = Board::empty(2).unwrap();
        assert_eq!(
            verify9(&givens, &small),
            Err(VerifyError::SizeMismatch {
                puzzle: 9,
                solution: 4
            })
        );
    }

    #[test]
    fn a_changed_given_is_named() {
        let p: Board = PUZZLE.parse().unwrap();
        let mut s: Board = SOLUTION.parse().unwrap();
        s.set(0, 4).unwrap();
        s.set(2, 5).unwrap();
        assert_eq!(
            verify(&p, &s),
            Err(VerifyError::GivenChanged {
                cell: 0,
                side: 9,
                given: 5,
                found: 4
            })
        );
    }

    #[test]
    fn a_swap_breaks_a_column_and_is_reported() {
        let p = Board::empty(3).unwrap();
        let mut s: Board = SOLUTION.parse().unwrap();
        // Swapping two cells of row 1 keeps the row a permutation but breaks two columns.
        s.set(0, 3).unwrap();
        s.set(1, 5).unwrap();
        let err = verify(&p, &s).unwrap_err();
        assert!(
            matches!(
                err,
                VerifyError::NotPermutation {
                    house: House::Column(_),
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn the_fast_pass_agrees_with_the_house_walk_on_every_single_cell_change() {
        // Every way to change one cell of a valid grid (or empty it) is caught, by both paths, for two sizes.
        for text in [SOLUTION, "1234341221434321"] {
            let s: Board = text.parse().unwrap();
            assert!(all_houses_full(&s, None));
            assert!(all_houses_full(&s, Some(&s)));
            for cell in 0..s.cell_count() {
                for v in 0..=s.side() as u8 {
                    let mut t = s.clone();
                    t.set(cell, v).unwrap();
                    let same = t == s;
                    assert_eq!(all_houses_full(&t, None), same, "cell {cell} value {v}");
                    assert_eq!(verify_complete(&t).is_ok(), same, "cell {cell} value {v}");
                    // As a puzzle, the changed grid's givens are not kept by the original solution.
                    assert_eq!(
                        verify(&t, &s).is_ok(),
                        same || v == 0,
                        "cell {cell} value {v}"
                    );
                }
            }
        }
    }

    /// A valid grid of box size `b` (the shifted-rows pattern).
    fn pattern_grid(b: usize) -> Board {
        let n = b * b;
        let cells = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                ((b * (r % b) + r / b + c) % n + 1) as u8
            })
            .collect();
        Board::from_cells(b, cells).unwrap()
    }

    /// Swapping the digits 1 and 2 everywhere in the valid grid `s` gives another valid grid, which changes
    /// exactly the givens that hold a 1 or a 2: for k = 1, 2, 3 ... of them changed, `verify` must name the first
    /// (no count of changed givens may cancel out).
    fn assert_every_count_of_changed_givens_is_rejected(s: &Board) {
        let (b, n) = (s.box_size(), s.side());
        let swapped: Vec<u8> = s
            .cells()
            .iter()
            .map(|&v| match v {
                1 => 2,
                2 => 1,
                v => v,
            })
            .collect();
        let t = Board::from_cells(b, swapped).unwrap();
        assert_eq!(verify_complete(&t), Ok(()), "box size {b}");
        let ones_and_twos: Vec<usize> = (0..n * n).filter(|&c| s.cells()[c] <= 2).collect();
        for k in 1..=ones_and_twos.len() {
            // The givens: every cell the swap keeps, plus the first k cells it changes.
            let mut p = Board::empty(b).unwrap();
            for c in 0..n * n {
                if s.cells()[c] > 2 || ones_and_twos[..k].contains(&c) {
                    p.set(c, s.cells()[c]).unwrap();
                }
            }
            let first = ones_and_twos[0];
            assert_eq!(
                verify(&p, &t),
                Err(VerifyError::GivenChanged {
                    cell: first,
                    side: n,
                    given: s.cells()[first],
                    found: t.cells()[first]
                }),
                "box size {b}, {k} givens changed"
            );
        }
    }

    #[test]
    fn a_valid_grid_that_changes_any_number_of_givens_is_rejected_at_every_size() {
        // The sizes other than 9x9 check the givens in a pass of their own.
        for b in 2..=MAX_BOX {
            assert_every_count_of_changed_givens_is_rejected(&pattern_grid(b));
        }
    }

    #[test]
    fn the_fast_pass_accepts_valid_grids_of_every_size_and_rejects_one_changed_cell() {
        // The fast pass is what makes verification cheap; a size that silently fell through to the house walk
        // would still answer correctly, only several times slower, so it is checked directly.
        for b in 2..=6 {
            let s = pattern_grid(b);
            assert!(all_houses_full(&s, None), "box size {b}");
            assert!(all_houses_full(&s, Some(&s)), "box size {b}");
            assert_eq!(verify(&Board::empty(b).unwrap(), &s), Ok(()));
            let n = s.side();
            let mut t = s.clone();
            let last = n * n - 1;
            t.set(last, s.cells()[last] % n as u8 + 1).unwrap();
            assert!(!all_houses_full(&t, None), "box size {b}");
            assert!(verify_complete(&t).is_err(), "box size {b}");
        }
    }

    #[test]
    fn a_changed_digit_is_reported_missing_from_the_row_it_left() {
        // Houses are walked rows first, and only the changed cell's row, column and box break: the report is
        // that row, lacking the digit that was overwritten.
        for s in [SOLUTION.parse::<Board>().unwrap(), pattern_grid(2)] {
            let n = s.side();
            for cell in 0..s.cell_count() {
                let old = s.cells()[cell];
                for v in (1..=n as u8).filter(|&v| v != old) {
                    let mut t = s.clone();
                    t.set(cell, v).unwrap();
                    assert_eq!(
                        verify_complete(&t),
                        Err(VerifyError::NotPermutation {
                            house: House::Row(cell / n),
                            missing: old
                        }),
                        "cell {cell} {old} -> {v}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_valid_grid_that_changes_any_number_of_givens_is_rejected() {
        assert_every_count_of_changed_givens_is_rejected(&SOLUTION.parse().unwrap());
    }

    #[test]
    fn every_swap_of_two_different_digits_is_rejected_by_both_paths() {
        // A swap keeps every house's digit count: inside a column and a box it breaks only two rows, inside a row
        // and a box only two columns, so each kind of house must be checked on its own.
        for text in [SOLUTION, "1234341221434321"] {
            let s: Board = text.parse().unwrap();
            let cells = s.cell_count();
            for i in 0..cells {
                for j in i + 1..cells {
                    let (a, b) = (s.cells()[i], s.cells()[j]);
                    if a == b {
                        continue;
                    }
                    let mut t = s.clone();
                    t.set(i, b).unwrap();
                    t.set(j, a).unwrap();
                    assert!(!all_houses_full(&t, None), "swap {i} {j}");
                    assert!(verify_complete(&t).is_err(), "swap {i} {j}");
                }
            }
        }
    }

    #[test]
    fn a_latin_square_that_is_not_a_sudoku_is_rejected_for_its_first_box() {
        // Rows and columns are permutations, boxes are not: only the box check can see it.
        for b in 2..=6 {
            let n = b * b;
            let cells = (0..n * n)
                .map(|i| ((i / n + i % n) % n + 1) as u8)
                .collect();
            let t = Board::from_cells(b, cells).unwrap();
            assert!(!all_houses_full(&t, None), "box size {b}");
            assert!(
                matches!(
                    verify_complete(&t),
                    Err(VerifyError::NotPermutation {
                        house: House::Box(0),
                        ..
                    })
                ),
                "box size {b}"
            );
        }
    }

    #[test]
    fn every_error_message_names_the_cell_house_and_digits() {
        let cases = [
            (
                VerifyError::SizeMismatch {
                    puzzle: 9,
                    solution: 16,
                },
                "size mismatch: puzzle is 9x9, solution 16x16",
            ),
            (
                VerifyError::Empty { cell: 10, side: 9 },
                "cell r2c2 is empty",
            ),
            (
                VerifyError::GivenChanged {
                    cell: 1,
                    side: 9,
                    given: 3,
                    found: 4,
                },
                "cell r1c2 changes the given 3 to 4",
            ),
            (
                VerifyError::NotPermutation {
                    house: House::Box(2),
                    missing: 7,
                },
                "box 3 lacks 7 (a digit repeats)",
            ),
        ];
        for (err, text) in cases {
            assert_eq!(err.to_string(), text);
        }
    }

    #[test]
    fn the_9x9_pass_agrees_with_the_generic_one_on_random_damage() {
        // Up to four random cells overwritten (swaps and repeats included), and relabelled valid grids.
        let s: Board = SOLUTION.parse().unwrap();
        let mut rng = csp_core::rng::Rng::new(16);
        for round in 0..20_000 {
            let mut cells: Vec<u8> = s.cells().to_vec();
            if round % 4 == 0 {
                // A digit permutation of a valid grid is valid.
                let mut perm: Vec<u8> = (1..=9).collect();
                for i in (1..9).rev() {
                    perm.swap(i, rng.below(i as u64 + 1) as usize);
                }
                cells
                    .iter_mut()
                    .for_each(|v| *v = perm[usize::from(*v) - 1]);
            }
            for _ in 0..rng.below(5) {
                cells[rng.below(81) as usize] = rng.below(10) as u8;
            }
            if round % 4 == 2 {
                // Two cells of one column, row or box swapped: the other two kinds of house still pass.
                let (a, k) = (rng.below(81) as usize, rng.below(8) as usize + 1);
                let (r, c) = (a / 9, a % 9);
                let b = match rng.below(3) {
                    0 => (r + k) % 9 * 9 + c,
                    1 => r * 9 + (c + k) % 9,
                    _ => (r / 3 * 3 + (r + k) % 3) * 9 + c / 3 * 3 + (c + k / 3) % 3,
                };
                cells.swap(a, b);
            }
            if round % 8 == 1 {
                // Values no board holds, for a checker that must not be fooled by them either.
                cells[rng.below(81) as usize] = rng.below(256) as u8;
            }
            let cells: [u8; 81] = cells.try_into().unwrap();
            let portable = houses_full_9(&cells);
            assert_eq!(portable, houses_full_9_fast(&cells), "{cells:?}");
            if cells.iter().all(|&v| v <= 9) {
                assert_eq!(portable, houses_full_b::<3>(&cells), "{cells:?}");
            }
        }
    }

    #[test]
    fn an_empty_cell_is_not_a_solution() {
        let p = Board::empty(2).unwrap();
        assert_eq!(verify(&p, &p), Err(VerifyError::Empty { cell: 0, side: 4 }));
    }
}
