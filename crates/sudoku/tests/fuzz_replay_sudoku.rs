//! Replays every saved fuzz input of the sudoku targets through its body on stable Rust (the harness:
//! [`test_support::replay`]), so CI checks the fuzz properties without nightly or libFuzzer.

use sudoku::fuzz_targets::{fuzz_format, fuzz_parse, fuzz_solve};
use test_support::replay;

#[test]
fn every_saved_parser_input_keeps_the_reader_properties() {
    replay("parse_sudoku", fuzz_parse);
}

#[test]
fn every_saved_board_prints_and_reads_back() {
    replay("format_round_trip", fuzz_format);
}

#[test]
fn every_saved_grid_is_rejected_or_solved_alike_by_every_solver() {
    replay("solve_verify", fuzz_solve);
}
