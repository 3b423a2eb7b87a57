//! The test-data files the project writes itself, and the generators that write them: each test rebuilds a file
//! and checks the shipped copy is exactly what its generator writes, byte for byte.
//!
//! Regenerate (after changing a generator on purpose):
//!
//! ```text
//! SUDOKU_REGENERATE=1 cargo test -p sudoku --test datasets
//! ```
//!
//! - `datasets/bad-input/sudoku-bad-input.suite`: [`bad_input_suite`] (was `generate.py`).
//! - `datasets/sudoku-tests/{4x4,9x9,16x16,large}.txt`: [`test_sets`] (was `make_tests.py`).

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use csp_core::Limits;
use sudoku::{find, Board, Outcome, Request};

/// A file under `datasets/`.
fn dataset(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets")
        .join(relative)
}

/// Checks `bytes` against the shipped file, or writes them there when `SUDOKU_REGENERATE` is set.
fn check_or_regenerate(relative: &str, bytes: &[u8]) {
    let path = dataset(relative);
    if std::env::var_os("SUDOKU_REGENERATE").is_some() {
        std::fs::write(&path, bytes).unwrap();
        return;
    }
    let shipped = std::fs::read(&path).unwrap();
    assert!(
        shipped == bytes,
        "{relative} differs from what its generator writes ({} vs {} bytes); regenerate with \
         `SUDOKU_REGENERATE=1 cargo test -p sudoku --test datasets` if the change is intended",
        shipped.len(),
        bytes.len()
    );
}

/// The reference 9x9 puzzle (LeetCode 37) and its solution.
const L: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const S: &str = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// A 16x16 pattern grid with 45% of its cells emptied (many solutions).
const P16: &str = concat!(
    "......78...CDEF.567..A.C.EF.12..9.B.D....234567.D.FG.234.6.8..B.2.456.8...CDE.G...8.AB..E.G1234",
    "5..CD.FG1..456.89.F....456.89...D3.56789...DEFG..7.....D.FG..3...BCD.F...3...7.....123..6...A...",
    "E....89A.C..FG12389ABCD..G.23456.CD.FG1...5..89.....3.56..9..CDEF",
);

/// The bad-input suite (see `datasets/bad-input/README.md`): what users actually feed a solver, every record
/// ending with the outcome `sudoku solve --count` must give it.
fn bad_input_suite() -> Vec<u8> {
    // L with r9c7 set to 6: no clash and every empty cell keeps a candidate, but no solution (naive DFS: 4622
    // nodes).
    let unsat = format!("{}6{}", &L[..78], &L[79..]);
    // L without its r3c8 given: more than one solution (the count stops at 2).
    let multi = format!("{}.{}", &L[..25], &L[26..]);
    let mut out: Vec<u8> = Vec::new();
    let mut add = |s: &str| out.extend_from_slice(s.as_bytes());

    add(&format!(
        "\u{feff}{L} # expect solved 1: a byte-order mark before the first line\n"
    ));
    add("# Bad-input suite for `sudoku solve` and the bench runner: every line that holds a puzzle (or what should have\n\
         # been one) ends with `# expect STATUS [COUNT][: MESSAGE FRAGMENT]`, the outcome `sudoku solve --count` must give\n\
         # it. Lines starting with `#` (like this one) and blank lines are not puzzles. See README.md beside this file.\n\n");
    add(&format!("{L} # expect solved 1: the reference puzzle\n"));
    add(&format!("{L} # expect solved 1: a CRLF line ending\r\n"));
    add(&format!(
        "\t  {L}\t# expect solved 1: leading tab and spaces\n"
    ));
    add(&format!(
        "{},rating 3.5 # expect solved 1: zeros for blanks and a trailing field\n",
        L.replace('.', "0")
    ));
    add("quizzes,solutions # expect invalid: a CSV header in the middle of the file\n");
    add(&format!(
        "{} # expect invalid: wrong length: 80 cells\n",
        &L[..80]
    ));
    add(&format!("{L}1 # expect invalid: wrong length: 82 cells\n"));
    add(&format!("{L}{L} # expect invalid: glued\n"));
    add(&format!(
        "{}x{} # expect invalid: unexpected character 'x' in cell r5c5\n",
        &L[..40],
        &L[41..]
    ));
    add(&format!(
        "{}é # expect invalid: unexpected character 'é' in cell r9c9\n",
        &L[..80]
    ));
    add(&format!(
        "{}５{} # expect invalid: unexpected character '５'\n",
        &L[..10],
        &L[11..]
    ));
    add(&format!(
        "{}\u{feff}{} # expect invalid: unexpected character '\\u{{feff}}'\n",
        &L[..5],
        &L[6..]
    ));
    add(&format!(
        "55{} # expect invalid: givens clash: two 5s in row 1\n",
        &L[2..]
    ));
    add(&format!(
        "{}5{} # expect invalid: givens clash: two 5s in column 1\n",
        &L[..72],
        &L[73..]
    ));
    add(&format!(
        "{} # expect solved 2: the empty grid\n",
        ".".repeat(81)
    ));
    add(&format!(
        "{} # expect solved 2: the empty 4x4 grid\n",
        ".".repeat(16)
    ));
    add("1234341221434321 # expect solved 1: a full valid 4x4 grid\n");
    add("1234341221434312 # expect invalid: givens clash\n");
    add(&format!(
        "{unsat} # expect unsatisfiable: no clash and every empty cell has a candidate, yet no solution\n"
    ));
    add(&format!(
        ".123456789{} # expect unsatisfiable: r1c1 has no candidate (row holds 1-8, box holds 9)\n",
        ".".repeat(71)
    ));
    add(&format!(
        "{multi} # expect solved 2: one given short of unique\n"
    ));
    add(&format!("{P16} # expect solved 2: a 16x16 puzzle\n"));
    add(&format!(
        "{}H{} # expect invalid: unexpected character 'H' in cell r7c5 (a 16x16 board uses 1-9, A-G, or .)\n",
        &P16[..100],
        &P16[101..]
    ));
    add(&format!(
        "{}0{} # expect invalid: unexpected character '0' in cell r2c15\n",
        &P16[..30],
        &P16[31..]
    ));
    add(&format!(
        "{} # expect invalid: wrong length: 255 cells\n",
        &P16[..P16.len() - 1]
    ));
    add(&format!(
        "{L},{}x # expect invalid: unexpected character 'x' in solution cell r9c9\n",
        &S[..80]
    ));
    add("1 2 | . . # expect invalid: incomplete grid: 2 of 4 rows\n3 4 | . .\n");
    add(&format!(
        "{L} # expect solved 1: the puzzle right after an incomplete grid is still read\n"
    ));
    out.extend_from_slice(
        b"\x00\x01\x02\xff\xfe\xfd\x80\x81garbage\xc3\x28\xa0\xa1 # expect invalid: invalid UTF-8\n",
    );
    out.extend_from_slice(
        b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00 # expect invalid: wrong length\n",
    );
    let mut add = |s: &str| out.extend_from_slice(s.as_bytes());
    add(&format!(
        "{} # expect invalid: line longer than 65536 bytes\n",
        "1".repeat(70000)
    ));
    add(&format!(
        "{} # expect invalid: wrong length: 5400 cells\n",
        "123456789".repeat(600)
    ));
    add(&format!(
        "{L} # expect solved 1: the last line, after every bad one\n"
    ));
    out
}

#[test]
fn the_shipped_bad_input_suite_is_what_its_generator_writes() {
    check_or_regenerate("bad-input/sudoku-bad-input.suite", &bad_input_suite());
}

/// CPython's `random.Random` (MT19937 with CPython's seeding, `getrandbits`, `_randbelow`, `shuffle`, `sample`
/// and `randint`), written here from their published algorithms so that the test sets first made with Python
/// come out byte for byte the same. The stream is pinned by those files only: new data draws from the project's
/// generator (`csp_core::rng::Rng`).
struct PyRandom {
    mt: [u32; 624],
    index: usize,
}

impl PyRandom {
    /// `random.Random(seed)` for a seed below 2^32 (CPython's `init_by_array` with the one-word key).
    fn new(seed: u32) -> PyRandom {
        let mut mt = [0u32; 624];
        mt[0] = 19_650_218;
        for i in 1..624 {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        let key = [seed];
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..624.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..623 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        PyRandom { mt, index: 624 }
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for k in 0..624 {
                let y = (self.mt[k] & 0x8000_0000) | (self.mt[(k + 1) % 624] & 0x7fff_ffff);
                let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
                self.mt[k] = self.mt[(k + 397) % 624] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `_randbelow(n)` by rejection on `getrandbits(n.bit_length())` (`n` below 2^32).
    fn below(&mut self, n: usize) -> usize {
        let bits = usize::BITS - n.leading_zeros();
        if bits == 0 {
            return 0;
        }
        loop {
            let r = (self.next_u32() >> (32 - bits)) as usize;
            if r < n {
                return r;
            }
        }
    }

    /// `randint(a, b)`.
    fn randint(&mut self, a: usize, b: usize) -> usize {
        a + self.below(b - a + 1)
    }

    /// `shuffle(items)`.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// `sample(range(n), k)`: a pool for small populations, rejection from a set for large ones, as CPython
    /// chooses between them.
    fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut setsize = 21usize;
        if k > 5 {
            let exponent = ((k * 3) as f64).ln() / 4f64.ln();
            setsize += 4usize.pow(exponent.ceil() as u32);
        }
        let mut result = Vec::with_capacity(k);
        if n <= setsize {
            let mut pool: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = self.below(n - i);
                result.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = std::collections::HashSet::new();
            for _ in 0..k {
                let mut j = self.below(n);
                while selected.contains(&j) {
                    j = self.below(n);
                }
                selected.insert(j);
                result.push(j);
            }
        }
        result
    }
}

/// The printed symbols of the digits, `1..=36`.
const SYMBOLS: &[u8; 36] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0";

/// A random valid grid of box size `b`: the shifted-rows pattern, then digit, band, row-in-band, stack and
/// column-in-stack permutations.
fn py_grid(rng: &mut PyRandom, b: usize) -> Vec<u8> {
    let n = b * b;
    let mut digits: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut digits);
    let lines = |rng: &mut PyRandom| {
        let mut bands: Vec<usize> = (0..b).collect();
        rng.shuffle(&mut bands);
        let mut out = Vec::with_capacity(n);
        for band in bands {
            out.extend(rng.sample(b, b).into_iter().map(|r| band * b + r));
        }
        out
    };
    let rows = lines(rng);
    let cols = lines(rng);
    let mut cells = Vec::with_capacity(n * n);
    for &r in &rows {
        for &c in &cols {
            cells.push((digits[(r * b + r / b + c) % n] + 1) as u8);
        }
    }
    cells
}

fn py_line(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|&v| {
            if v == 0 {
                '.'
            } else {
                SYMBOLS[usize::from(v) - 1] as char
            }
        })
        .collect()
}

fn py_holes(rng: &mut PyRandom, cells: &[u8], k: usize) -> Vec<u8> {
    let mut out = cells.to_vec();
    for i in rng.sample(cells.len(), k) {
        out[i] = 0;
    }
    out
}

/// What `sudoku solve --count --node-limit 2000000 -j 1` said of a puzzle when the files were made, with `table`
/// (the DFS with used-tables, then the default solver): status, solutions (up to 2), solution. Which puzzles
/// were kept depends on where that search stopped, so the files are reproduced with that solver.
fn count(line: &str) -> (Outcome, u64, String) {
    let board: Board = line.parse().unwrap();
    let mut solver = (find("table").unwrap().make)();
    let req = Request::count_up_to(2).with_limits(Limits::none().with_nodes(2_000_000));
    let r = solver.solve(&board, &req);
    let solution = r.solution.map(|s| s.to_line()).unwrap_or_default();
    (r.status, r.count, solution)
}

/// One size's lines: `n_unique` puzzles with one solution, `n_multi` with several, `n_zero` with none.
fn py_make(
    rng: &mut PyRandom,
    b: usize,
    (n_unique, n_multi, n_zero): (usize, usize, usize),
    hole_range: (usize, usize),
    multi_holes: usize,
) -> Vec<String> {
    let n = b * b;
    let (mut unique, mut multi): (Vec<(String, String)>, Vec<String>) = (Vec::new(), Vec::new());
    while unique.len() < n_unique || multi.len() < n_multi {
        let solved = py_grid(rng, b);
        let k = rng.randint(hole_range.0, hole_range.1);
        let p = py_line(&py_holes(rng, &solved, k));
        let m = py_line(&py_holes(rng, &solved, multi_holes));
        let (status, found, solution) = count(&p);
        if status == Outcome::Solved && found == 1 && unique.len() < n_unique {
            unique.push((p, solution));
        }
        let (status, found, _) = count(&m);
        if status == Outcome::Solved && found == 2 && multi.len() < n_multi {
            multi.push(m);
        }
    }
    let mut zero = Vec::new();
    for (p, s) in unique.iter().take(n_zero) {
        let mut cells: Vec<u8> = p.bytes().collect();
        let s = s.as_bytes();
        for i in (0..cells.len()).filter(|&i| p.as_bytes()[i] == b'.') {
            let (r, c) = (i / n, i % n);
            let (br, bc) = (r / b * b, c / b * b);
            for &v in &SYMBOLS[..n] {
                if v == s[i] {
                    continue;
                }
                let seen = (0..n).any(|x| {
                    cells[r * n + x] == v
                        || cells[x * n + c] == v
                        || cells[(br + x / b) * n + bc + x % b] == v
                });
                if !seen {
                    cells[i] = v;
                    break;
                }
            }
            if cells[i] != b'.' {
                break;
            }
        }
        let z = String::from_utf8(cells).unwrap();
        assert_eq!(count(&z).0, Outcome::Unsatisfiable, "{z}");
        zero.push(z);
    }
    unique
        .into_iter()
        .map(|(p, s)| format!("{p}:1:{s}"))
        .chain(multi.into_iter().map(|m| format!("{m}:2:")))
        .chain(zero.into_iter().map(|z| format!("{z}:0:")))
        .collect()
}

/// The generated test sets (seed 20261122), each with its header, in the order they draw from the one stream.
fn test_sets() -> Vec<(&'static str, String)> {
    const HEADER: &str = "# Generated (seed 20261122) by `test_sets` in crates/sudoku/tests/datasets.rs: \
                          `SUDOKU_REGENERATE=1 cargo test -p sudoku --test datasets`.\n\
                          # Line format: puzzle:count:solution   (count 2 means \"2 or more\"; the solution is given only when count is 1)\n";
    let mut rng = PyRandom::new(20_261_122);
    let four = py_make(&mut rng, 2, (6, 4, 3), (6, 10), 12);
    let nine = py_make(&mut rng, 3, (8, 4, 4), (40, 55), 62);
    let sixteen = py_make(&mut rng, 4, (5, 3, 3), (60, 110), 150);
    let mut large = py_make(&mut rng, 5, (2, 0, 1), (80, 120), 0);
    large.extend(py_make(&mut rng, 6, (1, 0, 1), (60, 100), 0));
    [
        ("sudoku-tests/4x4.txt", four),
        ("sudoku-tests/9x9.txt", nine),
        ("sudoku-tests/16x16.txt", sixteen),
        ("sudoku-tests/large.txt", large),
    ]
    .into_iter()
    .map(|(name, lines)| (name, format!("{HEADER}{}\n", lines.join("\n"))))
    .collect()
}

#[test]
fn the_shipped_generated_test_sets_are_what_their_generator_writes() {
    for (name, text) in test_sets() {
        check_or_regenerate(name, text.as_bytes());
    }
}
