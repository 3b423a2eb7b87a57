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

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

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
