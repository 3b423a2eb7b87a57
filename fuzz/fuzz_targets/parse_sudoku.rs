//! libFuzzer wrapper; the body and its properties are `sudoku::fuzz_targets::fuzz_parse`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sudoku::fuzz_targets::fuzz_parse(data));
