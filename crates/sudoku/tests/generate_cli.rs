//! `sudoku generate` as a user runs it: output format, determinism, exit codes and messages.
#![allow(clippy::unwrap_used)]

use assert_cmd::Command;
use predicates::prelude::*;
use sudoku::parse::Reader;

fn sudoku() -> Command {
    Command::cargo_bin("sudoku").unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = sudoku().args(args).assert().success().get_output().clone();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn generate_writes_a_header_and_one_parsable_rated_line_per_puzzle() {
    let text = stdout_of(&["generate", "--size", "9", "--count", "7", "--seed", "5"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8);
    assert!(
        lines[0].starts_with("# sudoku generate --size 9 --count 7 --seed 5 --minimal --rater ")
    );
    for line in &lines[1..] {
        assert!(line.contains(" # guesses="), "{line}");
        assert!(line.contains(" seed=5 index="), "{line}");
    }
    let records: Vec<_> = Reader::new(text.as_bytes()).collect();
    assert_eq!(records.len(), 7);
    assert!(records.iter().all(|r| r.item.is_ok()));
}

#[test]
fn generated_puzzles_solve_uniquely_through_the_solve_command() {
    let text = stdout_of(&["generate", "--size", "4", "--count", "30", "--seed", "8"]);
    let solved = sudoku()
        .args(["solve", "--count", "--solver", "table"])
        .write_stdin(text)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let solved = String::from_utf8(solved).unwrap();
    assert_eq!(solved.lines().count(), 30);
    assert!(solved.lines().all(|l| l.ends_with(" 1")), "{solved}");
}

#[test]
fn the_same_seed_prints_the_same_file_whatever_the_thread_count() {
    let args = |j: &'static str| {
        [
            "generate",
            "--size",
            "9",
            "--count",
            "20",
            "--seed",
            "77",
            "--clues",
            "30",
            "--symmetric",
            "-j",
            j,
        ]
    };
    let one = stdout_of(&args("1"));
    let two = stdout_of(&args("2"));
    assert_eq!(one, two);
    let other = stdout_of(&[
        "generate", "--size", "9", "--count", "20", "--seed", "78", "--clues", "30",
    ]);
    assert_ne!(one, other);
}

#[test]
fn bad_options_are_usage_errors_with_a_message() {
    sudoku()
        .args(["generate", "--size", "10"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "board side 10 is not one of 4, 9, 16, 25, 36",
        ));
    sudoku()
        .args(["generate", "--min-rating", "5", "--max-rating", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "minimum rating 5 is above maximum rating 1",
        ));
    sudoku()
        .args(["generate", "--rater", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown rater `nope`"));
    sudoku()
        .args(["generate", "--size", "4", "--clues", "20"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "20 clues asked for, but the board has only 16 cells",
        ));
    sudoku()
        .args(["generate", "--minimal", "--clues", "30"])
        .assert()
        .code(2);
}

#[test]
fn an_unreachable_target_ends_with_exit_one_and_says_how_far_it_got() {
    sudoku()
        .args([
            "generate",
            "--size",
            "9",
            "--count",
            "2",
            "--clues",
            "12",
            "--max-attempts",
            "3",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "found only 0 of 2 puzzles in 3 candidates",
        ));
}
