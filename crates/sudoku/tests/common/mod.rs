//! Shared by the integration tests: the shipped test sets.

#![allow(dead_code, clippy::unwrap_used)]

use std::path::PathBuf;

use sudoku::Board;

/// Path of a file in `datasets/sudoku-tests/`.
pub fn test_set(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets/sudoku-tests")
        .join(name)
}

/// One `puzzle:count:solution` line.
#[derive(Debug)]
pub struct Expected {
    /// 1-based line in the file.
    pub line: usize,
    /// The puzzle.
    pub puzzle: Board,
    /// Solutions, capped at 2.
    pub count: u64,
    /// The solution when it is unique.
    pub solution: Option<Board>,
}

/// Reads a `puzzle:count:solution` file.
pub fn expected(name: &str) -> Vec<Expected> {
    let text = std::fs::read_to_string(test_set(name)).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let mut fields = l.split(':');
            let puzzle: Board = fields.next().unwrap().parse().unwrap();
            let count: u64 = fields.next().unwrap().parse().unwrap();
            let solution = fields
                .next()
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap());
            assert_eq!(
                solution.is_some(),
                count == 1,
                "{name}:{}: a solution exactly when the count is 1",
                i + 1
            );
            Expected {
                line: i + 1,
                puzzle,
                count,
                solution,
            }
        })
        .collect()
}
