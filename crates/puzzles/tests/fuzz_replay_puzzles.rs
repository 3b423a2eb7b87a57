//! Replays every saved fuzz input of the puzzles targets through its body on stable Rust (the harness:
//! [`test_support::replay`]), so CI checks the fuzz properties without nightly or libFuzzer.

use puzzles::fuzz_targets::{fuzz_dimacs, fuzz_puzzles};
use test_support::replay;

#[test]
fn every_saved_dimacs_input_keeps_the_reader_properties() {
    replay("parse_dimacs", fuzz_dimacs);
}

#[test]
fn every_saved_puzzle_file_is_rejected_with_a_line_or_read_back_and_verified() {
    replay("parse_puzzles", fuzz_puzzles);
}
