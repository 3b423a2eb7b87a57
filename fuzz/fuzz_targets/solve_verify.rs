//! libFuzzer wrapper; the body and its properties are `sudoku::fuzz_targets::fuzz_solve`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sudoku::fuzz_targets::fuzz_solve(data));
