//! Replays every saved input of the `engine` fuzz target through its body on stable Rust, so CI checks the
//! engine against brute force on them without nightly or libFuzzer: `fuzz/corpus/engine/` (the minimised corpus
//! of the last long run, with the hand-written `seed_*` files) and `fuzz/regressions/engine/` (every input that
//! once broke a property; kept forever).

#![allow(clippy::unwrap_used)]

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use csp_core::fuzz_targets::fuzz_engine;

#[test]
fn every_saved_engine_input_matches_brute_force() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut files = Vec::new();
    for folder in ["corpus/engine", "regressions/engine"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(folder)) else {
            continue;
        };
        files.extend(entries.map(|e| e.unwrap().path()).filter(|p| p.is_file()));
    }
    files.sort();
    assert!(
        files.len() >= 10,
        "expected the seed corpus, found {} inputs",
        files.len()
    );
    let failures: Vec<String> = files
        .iter()
        .filter(|path| {
            let data = std::fs::read(path).unwrap();
            panic::catch_unwind(AssertUnwindSafe(|| fuzz_engine(&data))).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} engine inputs fail: {failures:#?}",
        failures.len(),
        files.len()
    );
}
