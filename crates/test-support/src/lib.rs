//! Helpers shared by the tests of several crates, and only by tests: every crate that uses this one has it as a
//! dev-dependency, so nothing here reaches a library build.
//!
//! - [`fuzz_inputs`] and [`replay`]: the saved inputs of a libFuzzer target (`fuzz/corpus/<target>/`, the
//!   minimised corpus of the last long run, and `fuzz/regressions/<target>/`, every input that once broke a
//!   property, kept forever) run through the target's body on stable Rust, so `cargo test` checks the fuzz
//!   properties without nightly or libFuzzer. Each crate's `tests/fuzz_replay*.rs` is a list of one-line tests.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// The workspace's `fuzz/` folder (this crate lives at `crates/test-support`).
pub fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// Every saved input of `target`: the files of `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/`, sorted by
/// path so failures are reported in a stable order. A missing folder contributes nothing.
///
/// # Panics
/// When a folder that exists cannot be listed (a test helper: the failure is the test's).
pub fn fuzz_inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = fuzz_dir();
    let mut files = Vec::new();
    for folder in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(folder).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = match entry {
                Ok(entry) => entry.path(),
                Err(e) => panic!("listing fuzz/{folder}/{target}: {e}"),
            };
            if path.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Runs `body` on every saved input of `target` (see [`fuzz_inputs`]) and returns how many ran. Every input is
/// run even after a failure, and the test fails once, naming every failing file.
///
/// # Panics
/// When `target` has no saved input at all (a renamed folder must not turn the test into one that cannot fail),
/// when a file cannot be read, or when `body` panics on any input.
pub fn replay(target: &str, body: impl Fn(&[u8])) -> usize {
    let files = fuzz_inputs(target);
    assert!(!files.is_empty(), "no saved inputs for {target}");
    let mut failures = Vec::new();
    for path in &files {
        let data = match std::fs::read(path) {
            Ok(data) => data,
            Err(e) => panic!("reading {}: {e}", path.display()),
        };
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
    files.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_without_saved_inputs_lists_nothing() {
        assert!(fuzz_inputs("no_such_target_here").is_empty());
    }

    #[test]
    #[should_panic(expected = "no saved inputs")]
    fn replaying_a_target_without_saved_inputs_fails() {
        replay("no_such_target_here", |_| {});
    }

    #[test]
    #[should_panic(expected = "inputs of parse_sudoku fail")]
    fn a_body_that_panics_on_a_saved_input_fails_the_replay() {
        replay("parse_sudoku", |_| panic!("a property broke"));
    }

    #[test]
    fn every_saved_input_of_a_target_reaches_the_body() {
        let seen = std::cell::Cell::new(0);
        let ran = replay("parse_sudoku", |_| seen.set(seen.get() + 1));
        assert_eq!(ran, seen.get());
        assert_eq!(ran, fuzz_inputs("parse_sudoku").len());
    }
}
