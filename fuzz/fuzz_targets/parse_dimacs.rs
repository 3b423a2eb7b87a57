//! libFuzzer wrapper; the body and its properties are `puzzles::fuzz_targets::fuzz_dimacs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| puzzles::fuzz_targets::fuzz_dimacs(data));
