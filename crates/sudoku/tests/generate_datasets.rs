//! The shipped datasets (`datasets/generated/`, `datasets/famous/`): every file parses without error, has the
//! count the README states, every puzzle is unique by two solvers and its solution passes the independent
//! checker, the rating comments match the puzzles, and each generated file's header command regenerates it.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::PathBuf;

use assert_cmd::Command;
use sudoku::generate::Rater;
use sudoku::parse::Reader;
use sudoku::Outcome;
use sudoku::{verify, Board};

fn datasets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../datasets")
}

/// Every puzzle of `file` with its line text, after checking that nothing failed to parse.
fn read(file: &str) -> Vec<(Board, String)> {
    let path = datasets().join(file);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let puzzle_lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let records: Vec<_> = Reader::new(text.as_bytes()).collect();
    assert_eq!(records.len(), puzzle_lines.len(), "{file}");
    records
        .into_iter()
        .zip(puzzle_lines)
        .map(|(r, line)| {
            let p = r.item.unwrap_or_else(|e| panic!("{file}: {e}"));
            (p.board, line.to_string())
        })
        .collect()
}

/// Checks that `board` has exactly one solution by both raters and that the solutions agree and verify.
fn assert_unique(file: &str, board: &Board, fast: &mut Rater, csp: &mut Rater) {
    let (_, a) = fast.rate(board, None);
    let (_, b) = csp.rate(board, Some(10_000_000));
    for (name, r) in [(fast.name, &a), (csp.name, &b)] {
        assert_eq!(
            (r.status, r.count),
            (Outcome::Solved, 1),
            "{file}: {name} on {}",
            board.to_line()
        );
        verify::verify(board, r.solution.as_ref().unwrap()).unwrap();
    }
    assert_eq!(a.solution, b.solution);
}

/// The number after `key=` on a generated line.
fn field(line: &str, key: &str) -> u64 {
    let comment = line.split_once('#').unwrap().1;
    comment
        .split_whitespace()
        .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
        .parse()
        .unwrap()
}

/// File, box size and puzzle count, as `datasets/README.md` states them.
const GENERATED: [(&str, usize, usize); 5] = [
    ("generated/4x4.txt", 2, 200),
    ("generated/9x9-easy.txt", 3, 500),
    ("generated/9x9-minimal.txt", 3, 500),
    ("generated/9x9-hard.txt", 3, 200),
    ("generated/16x16.txt", 4, 50),
];

#[test]
fn every_shipped_generated_puzzle_is_unique_and_its_comment_is_true() {
    let mut fast = Rater::named("fast").unwrap();
    let mut csp = Rater::named("csp-mrv-singles").unwrap_or(Rater::named("table").unwrap());
    for (file, box_size, count) in GENERATED {
        let puzzles = read(file);
        assert_eq!(puzzles.len(), count, "{file}");
        let mut distinct: Vec<&Board> = puzzles.iter().map(|(b, _)| b).collect();
        distinct.sort_by_key(|b| b.to_line());
        distinct.dedup();
        assert_eq!(distinct.len(), count, "{file} repeats a puzzle");
        for (board, line) in &puzzles {
            assert_eq!(board.box_size(), box_size, "{file}");
            assert_eq!(field(line, "clues"), board.givens() as u64, "{line}");
            assert!(!line.contains("unproven="), "{line}");
            assert_unique(file, board, &mut fast, &mut csp);
        }
    }
    let rating = |file: &str| -> Vec<u64> {
        read(file)
            .iter()
            .map(|(_, l)| field(l, "guesses"))
            .collect()
    };
    assert!(rating("generated/9x9-hard.txt").iter().all(|&g| g >= 12));
    assert!(rating("generated/9x9-easy.txt").iter().all(|&g| g == 0));
}

#[test]
fn the_famous_sets_parse_and_every_puzzle_is_unique() {
    let mut fast = Rater::named("fast").unwrap();
    let mut csp = Rater::named("csp-mrv-singles").unwrap_or(Rater::named("table").unwrap());
    let puzzles = read("famous/top95.txt");
    assert_eq!(puzzles.len(), 95);
    for (board, _) in &puzzles {
        assert_unique("famous/top95.txt", board, &mut fast, &mut csp);
    }
}

#[test]
fn the_header_command_of_each_generated_file_regenerates_its_first_puzzles() {
    for (file, _, _) in GENERATED {
        let text = fs::read_to_string(datasets().join(file)).unwrap();
        let header = text.lines().next().unwrap();
        let command = header
            .strip_prefix("# sudoku ")
            .and_then(|h| h.split_once(" (").map(|(c, _)| c))
            .unwrap_or_else(|| panic!("{file}: header {header}"));
        // The same command asking for 3 puzzles: a run's first puzzles do not depend on its count.
        let mut args: Vec<&str> = command.split_whitespace().collect();
        let at = args.iter().position(|&a| a == "--count").unwrap();
        args[at + 1] = "3";
        let out = Command::cargo_bin("sudoku")
            .unwrap()
            .args(&args)
            .arg("--no-header")
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let again = String::from_utf8(out).unwrap();
        let shipped: Vec<&str> = text.lines().skip(1).take(3).collect();
        assert_eq!(again.lines().collect::<Vec<_>>(), shipped, "{file}");
    }
}
