//! Replays every saved fuzz input through its target body on stable Rust, so CI checks the fuzz properties
//! without nightly or libFuzzer: `fuzz/corpus/<target>/` (the minimised corpus of the last long run) and
//! `fuzz/regressions/<target>/` (every input that once broke a property; kept forever).

#![allow(clippy::unwrap_used)]

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use puzzles::fuzz_targets::{fuzz_dimacs, fuzz_puzzles};

fn inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut files = Vec::new();
    for folder in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(folder).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Runs `body` on every saved input of `target`, reporting all failing files at once.
fn replay(target: &str, body: fn(&[u8])) {
    let files = inputs(target);
    assert!(!files.is_empty(), "no saved inputs for {target}");
    let mut failures = Vec::new();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        if panic::catch_unwind(AssertUnwindSafe(|| body(&data))).is_err() {
            failures.push(path.display().to_string());
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} inputs of {target} fail: {failures:#?}",
        failures.len(),
        files.len()
    );
}

#[test]
fn every_saved_dimacs_input_keeps_the_reader_properties() {
    replay("parse_dimacs", fuzz_dimacs);
}

#[test]
fn every_saved_puzzle_file_is_rejected_with_a_line_or_read_back_and_verified() {
    replay("parse_puzzles", fuzz_puzzles);
}
