//! Replays every saved input of the `engine` fuzz target through its body on stable Rust (the harness:
//! [`test_support::replay`]), so CI checks the engine against brute force on them without nightly or libFuzzer.

use csp_core::fuzz_targets::fuzz_engine;

#[test]
fn every_saved_engine_input_matches_brute_force() {
    let ran = test_support::replay("engine", fuzz_engine);
    assert!(ran >= 10, "expected the seed corpus, found {ran} inputs");
}
