//! Determinism of `sudoku solve` across thread counts and runs, on an input longer than one parallel chunk
//! (`CHUNK` = 4096 records) with invalid and unsolvable lines mixed in: `-j 1`, `-j 2` and a repeated `-j 2` give
//! byte-identical line output and stderr, and JSON lines equal in everything but the timings.

#![allow(clippy::unwrap_used)]

use assert_cmd::Command;
use csp_core::rng::Rng;
use serde_json::Value;
use sudoku::fuzz_targets::{random_solved_grid, with_holes};

/// Records per parallel batch in `sudoku solve` (`src/bin/sudoku/solve.rs`, private there); the input spans two batches.
const CHUNK: usize = 4096;

/// A file of `CHUNK + 1000` records: 4x4 and 9x9 puzzles, some with a changed given, some malformed.
fn mixed_input() -> String {
    let mut rng = Rng::new(42);
    let mut text = String::new();
    for i in 0..CHUNK + 1000 {
        let box_size = if i % 4 == 0 { 2 } else { 3 };
        let mut board = with_holes(
            &random_solved_grid(box_size, rng.next_u64()),
            550,
            rng.next_u64(),
        );
        match i % 50 {
            7 => text.push_str("not a puzzle at all\n"),
            13 => {
                let n = board.side();
                board
                    .set(
                        rng.below_mod((n * n) as u64) as usize,
                        1 + rng.below_mod(n as u64) as u8,
                    )
                    .unwrap();
                text.push_str(&format!("{}\n", board.to_line()));
            }
            29 => text.push_str(&format!("{}x\n", &board.to_line()[1..])),
            _ => text.push_str(&format!("{}\n", board.to_line())),
        }
    }
    text
}

fn solve(input: &str, args: &[&str]) -> (String, String) {
    let out = Command::cargo_bin("sudoku")
        .unwrap()
        .arg("solve")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "invalid lines fail the run");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn results_are_identical_with_one_thread_two_threads_and_a_second_run() {
    let input = mixed_input();
    let (one, err_one) = solve(&input, &["--count", "-j", "1"]);
    let (two, err_two) = solve(&input, &["--count", "-j", "2"]);
    let (again, err_again) = solve(&input, &["--count", "-j", "2"]);
    assert_eq!(one.lines().count(), CHUNK + 1000, "one result per record");
    assert!(
        one == two && two == again,
        "line output differs between runs"
    );
    assert!(
        err_one == err_two && err_two == err_again,
        "stderr differs between runs"
    );
    assert!(
        one.lines().any(|l| l == "unsatisfiable"),
        "the input has unsolvable puzzles"
    );
    assert!(
        one.lines().any(|l| l.ends_with(" 2")),
        "and multi-solution ones"
    );
}

#[test]
fn json_lines_agree_across_thread_counts_in_everything_but_timings() {
    let input = mixed_input();
    let strip = |out: String| -> Vec<Value> {
        out.lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("micros");
                v
            })
            .collect()
    };
    let (one, _) = solve(&input, &["--count", "--format", "jsonl", "-j", "1"]);
    let (two, _) = solve(&input, &["--count", "--format", "jsonl", "-j", "2"]);
    let (one, two) = (strip(one), strip(two));
    assert_eq!(one.len(), CHUNK + 1000);
    assert_eq!(one, two);
}
