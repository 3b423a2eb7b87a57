//! The Sudoku board: a square grid of `N x N` cells, `N = box_size^2`, with `box_size` in `2..=6`.
//!
//! Cells are stored row-major as `u8`: `0` = empty, `1..=N` = a digit. The conversion between a digit and its
//! printed symbol (`1-9`, then `A-Z`, then `0` for the 36th symbol of a 36x36 board) lives only in [`symbol`]
//! and [`value_of_symbol`], so every parser and printer agrees.
//!
//! ```text
//! cell index = row * N + col            box index = (row / b) * b + col / b      (b = box_size)
//! 9x9:  row 0 = cells 0..9, row 1 = cells 9..18, ...; box 4 is the centre box (rows 3..6, cols 3..6)
//! ```

use std::fmt;

use smallvec::SmallVec;

/// Smallest supported box size (a 4x4 board).
pub const MIN_BOX: usize = 2;
/// Largest supported box size (a 36x36 board).
pub const MAX_BOX: usize = 6;

/// The symbols of the digits `1..=36`, in order; digit `d` prints as `SYMBOLS[d - 1]`.
///
/// `1-9` then `A-Z` covers 35 digits; a 36x36 board needs one more, and `0` (free because `0` is a blank only on
/// boards up to 9x9) is the 36th, as on a keyboard row.
const SYMBOLS: &[u8; 36] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0";

/// The printed symbol of digit `value` (`1..=36`); `0` (empty) prints as `.`.
///
/// Values above 36 cannot occur in a [`Board`]; they print as `?` rather than panic.
pub fn symbol(value: u8) -> char {
    char::from(SYMBOL_BYTES[usize::from(value)])
}

/// [`symbol`] as a byte, by one table lookup (writers print 81 of them per 9x9 result).
pub fn symbol_byte(value: u8) -> u8 {
    SYMBOL_BYTES[usize::from(value)]
}

/// The printed symbols of `cells` (values of a board of side `n`) into `out` (same length): [`symbol_byte`] for
/// every cell, by arithmetic up to 9x9 (`.` or `'0' + v`), which vectorises (about 40 instructions per 81-cell
/// line against 400 by table).
pub fn symbols_into(cells: &[u8], n: usize, out: &mut [u8]) {
    if n <= 9 {
        for (o, &v) in out.iter_mut().zip(cells) {
            *o = if v == 0 { b'.' } else { b'0' + v };
        }
    } else {
        for (o, &v) in out.iter_mut().zip(cells) {
            *o = symbol_byte(v);
        }
    }
}

/// `SYMBOL_BYTES[v]`: the printed symbol of value `v` (see [`symbol`]).
static SYMBOL_BYTES: [u8; 256] = {
    let mut t = [b'?'; 256];
    t[0] = b'.';
    let mut i = 0;
    while i < SYMBOLS.len() {
        t[i + 1] = SYMBOLS[i];
        i += 1;
    }
    t
};

/// The digit that `ch` denotes on a board of side `n`: `Some(0)` for a blank, `Some(d)` for a digit in `1..=n`,
/// `None` when `ch` is not a symbol of this board size.
///
/// Blanks are `.` on every size and `0` on boards up to 9x9 (on 36x36, `0` is the digit 36). Letters are accepted
/// in either case.
pub fn value_of_symbol(ch: char, n: usize) -> Option<u8> {
    let code = usize::try_from(u32::from(ch)).ok()?;
    match *ASCII_VALUES.get(code)? {
        NOT_A_SYMBOL => None,
        ZERO if n <= 9 => Some(0),
        ZERO if n == 36 => Some(36),
        ZERO => None,
        v if usize::from(v) <= n => Some(v),
        _ => None,
    }
}

/// [`value_of_symbol`] over ASCII bytes into `out` (same length): false when some byte is no symbol of a board of
/// side `n` (`out` then holds garbage). Branch-free per byte, for the reader's common case of an ASCII line.
pub fn values_of_ascii(bytes: &[u8], n: usize, out: &mut [u8]) -> bool {
    if n <= 9 {
        return values_of_digits(bytes, n, out);
    }
    let zero = match n {
        ..=9 => 0,
        36 => 36,
        _ => NOT_A_SYMBOL,
    };
    let mut bad = false;
    for (v, &b) in out.iter_mut().zip(bytes) {
        // A byte above 127 is no ASCII symbol: it maps to NOT_A_SYMBOL through index 127 (DEL) being one.
        let t = ASCII_VALUES[usize::from(b.min(127))];
        let t = if t == ZERO { zero } else { t };
        bad |= usize::from(t) > n;
        *v = t;
    }
    !bad && bytes.len() == out.len()
}

/// [`values_of_ascii`] for boards up to 9x9, whose symbols are `.`, `0` (both blank) and `1..=n`: arithmetic
/// instead of a table, so the loop vectorises (16 bytes per step with SSE2; callgrind: about 100 instructions per
/// 81-cell line against 750 by table).
fn values_of_digits(bytes: &[u8], n: usize, out: &mut [u8]) -> bool {
    // Bytes, not `usize`, all the way: a widened compare keeps the loop scalar.
    let mut worst = 0u8;
    for (v, &b) in out.iter_mut().zip(bytes) {
        // Any byte other than `.` and `0..=9` lands above 9 (below `0` it wraps past 200).
        let d = if b == b'.' { 0 } else { b.wrapping_sub(b'0') };
        worst = worst.max(d);
        *v = d;
    }
    usize::from(worst) <= n && bytes.len() == out.len()
}

/// [`values_of_ascii`] for one 9x9 line of exactly 81 bytes, with the same result: over fixed-size arrays the
/// loop unrolls into five 16-byte steps and one byte, without the slice version's variable trip count (callgrind:
/// about 146 instructions per line by the slice version).
pub fn values_of_ascii9(bytes: &[u8; 81], out: &mut [u8; 81]) -> bool {
    let mut worst = 0u8;
    for (v, &b) in out.iter_mut().zip(bytes) {
        let d = if b == b'.' { 0 } else { b.wrapping_sub(b'0') };
        worst = worst.max(d);
        *v = d;
    }
    worst <= 9
}

/// Marks a character that is no symbol on any board in [`ASCII_VALUES`].
const NOT_A_SYMBOL: u8 = u8::MAX;
/// Marks `0` in [`ASCII_VALUES`]: a blank up to 9x9, the digit 36 on 36x36.
const ZERO: u8 = u8::MAX - 1;

/// The digit of each ASCII character (`.` = 0, `1-9`, `A-Z` and `a-z` = 10..=35), read once per input cell: a
/// table lookup instead of a chain of range tests.
static ASCII_VALUES: [u8; 128] = {
    let mut t = [NOT_A_SYMBOL; 128];
    t[b'.' as usize] = 0;
    t[b'0' as usize] = ZERO;
    let mut i = 0u8;
    while i < 26 {
        if i < 9 {
            t[(b'1' + i) as usize] = i + 1;
        }
        t[(b'A' + i) as usize] = i + 10;
        t[(b'a' + i) as usize] = i + 10;
        i += 1;
    }
    t
};

/// The box size whose board has `cells` cells (16, 81, 256, 625, 1296), if any.
pub fn box_size_for_cells(cells: usize) -> Option<usize> {
    (MIN_BOX..=MAX_BOX).find(|b| b * b * b * b == cells)
}

/// The box size whose board side is `side` (4, 9, 16, 25, 36), if any.
pub fn box_size_for_side(side: usize) -> Option<usize> {
    (MIN_BOX..=MAX_BOX).find(|b| b * b == side)
}

/// A Sudoku grid, possibly partly filled.
///
/// Invariants: `MIN_BOX <= box_size <= MAX_BOX`; `cells.len() == N * N`; every cell is in `0..=N`.
/// Nothing else is promised: a `Board` may have clashing givens (see [`Board::find_clash`]).
///
/// Boards up to 9x9 keep their cells inline (no heap allocation): a file of 9x9 puzzles read, solved and printed
/// allocates nothing per puzzle (issue 16: the allocations of the parsed board and of the solution were ~0.4k of
/// the CLI's 14k instructions per kaggle puzzle). Larger boards spill to the heap as a `Vec` would.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    box_size: usize,
    cells: Cells,
}

/// A board's cell storage: inline up to 81 cells.
pub(crate) type Cells = SmallVec<[u8; 81]>;

/// Why a board could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The box size is outside `2..=6`.
    BoxSize(usize),
    /// The number of cells is not `N * N` for the box size.
    CellCount {
        /// Cells the size needs.
        expected: usize,
        /// Cells given.
        found: usize,
    },
    /// A cell holds a value above `N`.
    Value {
        /// Cell index (row-major).
        cell: usize,
        /// The offending value.
        value: u8,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BoxSize(b) => write!(f, "box size {b} is not supported (2..=6)"),
            BoardError::CellCount { expected, found } => {
                write!(f, "expected {expected} cells, found {found}")
            }
            BoardError::Value { cell, value } => {
                write!(f, "cell {} holds {value}, above the board's side", cell + 1)
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// A house: a row, column or box, numbered from 0 internally and printed from 1 ("row 3").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum House {
    /// Row index, 0-based.
    Row(usize),
    /// Column index, 0-based.
    Column(usize),
    /// Box index, 0-based, boxes numbered row-major.
    Box(usize),
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(i) => write!(f, "row {}", i + 1),
            House::Column(i) => write!(f, "column {}", i + 1),
            House::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// Two givens with the same digit in one house.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clash {
    /// The house holding both.
    pub house: House,
    /// The repeated digit.
    pub value: u8,
    /// The two cells (row-major indices), first occurrence first.
    pub cells: (usize, usize),
    /// Board side, kept to print cells as `r3c5`.
    pub side: usize,
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "givens clash: two {}s in {} ({} and {})",
            symbol(self.value),
            self.house,
            CellName(self.cells.0, self.side),
            CellName(self.cells.1, self.side)
        )
    }
}

impl std::error::Error for Clash {}

/// Displays a row-major cell index as `r<row>c<col>`, 1-based.
#[derive(Clone, Copy, Debug)]
pub struct CellName(pub usize, pub usize);

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.1.max(1);
        write!(f, "r{}c{}", self.0 / side + 1, self.0 % side + 1)
    }
}

impl Board {
    /// An empty board of the given box size.
    pub fn empty(box_size: usize) -> Result<Board, BoardError> {
        if !(MIN_BOX..=MAX_BOX).contains(&box_size) {
            return Err(BoardError::BoxSize(box_size));
        }
        let side = box_size * box_size;
        Ok(Board {
            box_size,
            cells: smallvec::smallvec![0; side * side],
        })
    }

    /// A board from row-major cell values (`0` = empty).
    pub fn from_cells(box_size: usize, cells: Vec<u8>) -> Result<Board, BoardError> {
        Board::check_cells(box_size, &cells)?;
        Ok(Board {
            box_size,
            cells: Cells::from_vec(cells),
        })
    }

    /// [`Board::from_cells`] from a slice: no allocation up to 9x9.
    pub fn from_slice(box_size: usize, cells: &[u8]) -> Result<Board, BoardError> {
        Board::check_cells(box_size, cells)?;
        Ok(Board {
            box_size,
            cells: Cells::from_slice(cells),
        })
    }

    /// A 9x9 board from its 81 cells by value: the checks of [`Board::from_cells`] (values `0..=9`) without an
    /// allocation and with a vectorised value test, for answers of a solver's direct 9x9 entry.
    pub fn from_array9(cells: [u8; 81]) -> Result<Board, BoardError> {
        if cells.iter().fold(0, |m, &v| m.max(v)) > 9 {
            Board::check_cells(3, &cells)?;
        }
        Ok(Board {
            box_size: 3,
            cells: Cells::from_buf(cells),
        })
    }

    /// A board from cells the caller has already checked (box size in range, `N * N` cells, values `0..=N`):
    /// the parser's fast path, which validates every byte as it converts it.
    pub(crate) fn from_checked(box_size: usize, cells: Cells) -> Board {
        debug_assert!(Board::check_cells(box_size, &cells).is_ok());
        Board { box_size, cells }
    }

    /// The invariants of [`Board`] on `cells` for `box_size`.
    fn check_cells(box_size: usize, cells: &[u8]) -> Result<(), BoardError> {
        if !(MIN_BOX..=MAX_BOX).contains(&box_size) {
            return Err(BoardError::BoxSize(box_size));
        }
        let side = box_size * box_size;
        if cells.len() != side * side {
            return Err(BoardError::CellCount {
                expected: side * side,
                found: cells.len(),
            });
        }
        if let Some((cell, &value)) = cells
            .iter()
            .enumerate()
            .find(|&(_, &v)| usize::from(v) > side)
        {
            return Err(BoardError::Value { cell, value });
        }
        Ok(())
    }

    /// Box size `b` (2..=6).
    #[inline]
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Side `N = b * b`: digits run `1..=N`.
    #[inline]
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// Number of cells, `N * N`.
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The cells, row-major, `0` = empty.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at `(row, col)`, or `None` outside the board.
    pub fn get(&self, row: usize, col: usize) -> Option<u8> {
        let n = self.side();
        if row < n && col < n {
            self.cells.get(row * n + col).copied()
        } else {
            None
        }
    }

    /// Sets cell `index` (row-major) to `value` (`0` clears it).
    pub fn set(&mut self, index: usize, value: u8) -> Result<(), BoardError> {
        if usize::from(value) > self.side() {
            return Err(BoardError::Value { cell: index, value });
        }
        match self.cells.get_mut(index) {
            Some(c) => {
                *c = value;
                Ok(())
            }
            None => Err(BoardError::CellCount {
                expected: self.cells.len(),
                found: index + 1,
            }),
        }
    }

    /// Number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty (says nothing about correctness; see [`crate::verify`]).
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Box index of `(row, col)`.
    #[inline]
    pub fn box_of(&self, row: usize, col: usize) -> usize {
        (row / self.box_size) * self.box_size + col / self.box_size
    }

    /// The row-major cell indices of `house`, in reading order (empty for an index outside the board).
    pub fn house_cells(&self, house: House) -> impl Iterator<Item = usize> + '_ {
        let n = self.side();
        let b = self.box_size;
        let (idx, kind) = match house {
            House::Row(i) => (i, 0),
            House::Column(i) => (i, 1),
            House::Box(i) => (i, 2),
        };
        let count = if idx < n { n } else { 0 };
        (0..count).map(move |k| match kind {
            0 => idx * n + k,
            1 => k * n + idx,
            _ => ((idx / b) * b + k / b) * n + (idx % b) * b + k % b,
        })
    }

    /// Every house: rows, then columns, then boxes.
    pub fn houses(&self) -> impl Iterator<Item = House> {
        let n = self.side();
        (0..n)
            .map(House::Row)
            .chain((0..n).map(House::Column))
            .chain((0..n).map(House::Box))
    }

    /// The first pair of equal givens sharing a house (rows first, then columns, then boxes), if any.
    pub fn find_clash(&self) -> Option<Clash> {
        if !self.may_clash() {
            return None;
        }
        self.locate_clash()
    }

    /// One pass with used-bitmasks per house: false proves there is no clash. Reading a file runs this on every
    /// puzzle, so it avoids the per-house walk of [`Board::locate_clash`], which only runs when this says yes.
    ///
    /// Branch-free per cell and without a division (see [`may_clash_b`]). Measured with callgrind on
    /// `sudoku solve -j 1 kaggle_10k.txt`: 1,825 instructions per 9x9 puzzle before (an `if` and a division per
    /// cell), 1,190 after.
    fn may_clash(&self) -> bool {
        // Monomorphised per box size so the loops have constant bounds (unrolled, no bounds checks).
        match self.box_size {
            2 => may_clash_b::<2>(&self.cells),
            3 => may_clash_b::<3>(&self.cells),
            4 => may_clash_b::<4>(&self.cells),
            5 => may_clash_b::<5>(&self.cells),
            _ => may_clash_b::<6>(&self.cells),
        }
    }

    /// The first clash in house order (rows, columns, boxes), found by walking every house.
    fn locate_clash(&self) -> Option<Clash> {
        let mut seen = [usize::MAX; MAX_BOX * MAX_BOX + 1];
        for house in self.houses() {
            seen.fill(usize::MAX);
            for cell in self.house_cells(house) {
                let v = self.cells[cell];
                if v == 0 {
                    continue;
                }
                let slot = &mut seen[usize::from(v)];
                if *slot != usize::MAX {
                    return Some(Clash {
                        house,
                        value: v,
                        cells: (*slot, cell),
                        side: self.side(),
                    });
                }
                *slot = cell;
            }
        }
        None
    }

    /// The board as one line of symbols, `.` for empty cells.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| symbol(v)).collect()
    }
}

/// [`Board::may_clash`] for box size `B`: cells are walked row by row in box-wide segments, so the column and
/// the box of a cell are loop indices; an empty cell's bit is 0 (`(1 << 0) >> 1`), so it needs no test. A
/// repeated digit leaves a bit in `dup`. `cells` has `B^4` values in `0..=B^2` (the board's invariant).
///
/// Tried and dropped (callgrind, same input): counting mask bits against the number of givens instead of `dup`
/// (+10%: `count_ones` is a software popcount on the baseline x86-64 target), and one loop per row with the box
/// index `c / B` (+20%).
// Index loops with constant bounds on purpose: they unroll, and `c` indexes both the row and the columns.
#[allow(clippy::needless_range_loop)]
fn may_clash_b<const B: usize>(cells: &[u8]) -> bool {
    let n = B * B;
    let mut cols = [0u64; MAX_BOX * MAX_BOX];
    let mut dup = 0u64;
    for band_cells in cells.chunks_exact(B * n).take(B) {
        let mut boxes = [0u64; MAX_BOX];
        for row in band_cells.chunks_exact(n) {
            let mut row_mask = 0u64;
            for bc in 0..B {
                for k in 0..B {
                    let c = bc * B + k;
                    // `v <= 36`, so the shift is in range.
                    let bit = (1u64 << row[c]) >> 1;
                    dup |= (row_mask | boxes[bc] | cols[c]) & bit;
                    row_mask |= bit;
                    boxes[bc] |= bit;
                    cols[c] |= bit;
                }
            }
        }
    }
    dup != 0
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_line())
    }
}

/// Displays the board as one line of symbols, `.` for empty (the line output format writes this).
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for &v in &self.cells {
            f.write_char(symbol(v))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn symbols_by_arithmetic_are_the_table_symbols() {
        for n in [4, 9, 16, 25, 36] {
            let cells: Vec<u8> = (0..=n as u8).collect();
            let mut out = vec![0u8; cells.len()];
            symbols_into(&cells, n, &mut out);
            let want: Vec<u8> = cells.iter().map(|&v| symbol_byte(v)).collect();
            assert_eq!(out, want, "side {n}");
        }
    }

    #[test]
    fn ascii_values_and_symbol_bytes_agree_with_the_char_functions() {
        for n in [4, 9, 16, 25, 36] {
            for b in 0..=255u8 {
                let mut out = [0u8; 1];
                let ok = values_of_ascii(&[b], n, &mut out);
                let want = if b.is_ascii() {
                    value_of_symbol(char::from(b), n)
                } else {
                    None
                };
                assert_eq!(ok.then_some(out[0]), want, "byte {b} on side {n}");
            }
        }
        assert!(!values_of_ascii(b"12", 9, &mut [0u8; 3]), "length mismatch");
        for v in 0..=255u8 {
            assert_eq!(char::from(symbol_byte(v)), symbol(v));
        }
        assert_eq!(
            (symbol(0), symbol(10), symbol(36), symbol(37)),
            ('.', 'A', '0', '?')
        );
    }

    #[test]
    fn symbols_round_trip_for_every_size() {
        for b in MIN_BOX..=MAX_BOX {
            let n = b * b;
            for v in 1..=n as u8 {
                assert_eq!(value_of_symbol(symbol(v), n), Some(v), "size {n} value {v}");
            }
            assert_eq!(value_of_symbol('.', n), Some(0));
        }
    }

    #[test]
    fn zero_is_a_blank_up_to_nine_and_digit_36_on_the_largest_board() {
        assert_eq!(value_of_symbol('0', 9), Some(0));
        assert_eq!(value_of_symbol('0', 16), None);
        assert_eq!(value_of_symbol('0', 36), Some(36));
        assert_eq!(value_of_symbol('G', 16), Some(16));
        assert_eq!(value_of_symbol('H', 16), None);
        assert_eq!(value_of_symbol('5', 4), None);
        assert_eq!(value_of_symbol('é', 9), None);
    }

    #[test]
    fn box_of_the_centre_cell_is_box_four() {
        let b = Board::empty(3).unwrap();
        assert_eq!(b.box_of(4, 4), 4);
        let cells: Vec<usize> = b.house_cells(House::Box(4)).collect();
        assert_eq!(cells, vec![30, 31, 32, 39, 40, 41, 48, 49, 50]);
    }

    #[test]
    fn clash_names_the_house_one_based() {
        let mut b = Board::empty(3).unwrap();
        b.set(2 * 9, 5).unwrap();
        b.set(2 * 9 + 7, 5).unwrap();
        let clash = b.find_clash().unwrap();
        assert_eq!(clash.house, House::Row(2));
        assert_eq!(
            clash.to_string(),
            "givens clash: two 5s in row 3 (r3c1 and r3c8)"
        );
    }

    /// A valid complete grid of any size, from the test grid generator.
    fn pattern(b: usize) -> Board {
        crate::fuzz_targets::random_solved_grid(b, b as u64)
    }

    #[test]
    fn the_bitmask_pass_finds_a_clash_exactly_when_the_house_walk_does() {
        for b in MIN_BOX..=MAX_BOX {
            let full = pattern(b);
            assert!(full.locate_clash().is_none(), "size {b}");
            // Every other cell emptied, then one cell set to each digit: clashes appear in its row, column or box.
            let mut holes = full.clone();
            for i in (0..holes.cell_count()).step_by(2) {
                holes.set(i, 0).unwrap();
            }
            let n = full.side();
            let cells: Vec<usize> = if b <= 3 {
                (0..full.cell_count()).collect()
            } else {
                (0..full.cell_count()).step_by(37).collect()
            };
            for base in [&full, &holes] {
                for &cell in &cells {
                    for v in 0..=n as u8 {
                        let mut t = base.clone();
                        t.set(cell, v).unwrap();
                        assert_eq!(
                            t.may_clash(),
                            t.locate_clash().is_some(),
                            "size {b}, cell {cell}, value {v}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn out_of_range_values_and_sizes_are_rejected() {
        assert_eq!(Board::empty(7), Err(BoardError::BoxSize(7)));
        assert!(Board::from_cells(2, vec![5; 16]).is_err());
        assert!(Board::from_cells(2, vec![0; 15]).is_err());
        let mut b = Board::empty(2).unwrap();
        assert!(b.set(0, 5).is_err());
        assert!(b.set(16, 1).is_err());
    }
}
