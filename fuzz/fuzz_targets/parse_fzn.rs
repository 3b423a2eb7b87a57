//! libFuzzer wrapper; the body and its properties are `flatzinc::fuzz_targets::fuzz_fzn`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| flatzinc::fuzz_targets::fuzz_fzn(data));
