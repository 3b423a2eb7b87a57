//! libFuzzer wrapper; the body and its properties are `csp_core::fuzz_targets::fuzz_engine`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| csp_core::fuzz_targets::fuzz_engine(data));
