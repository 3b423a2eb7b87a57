//! `sudoku check FILE`: verify solutions with the independent checker.
//!
//! Each record of FILE is checked as: its puzzle against the solution on the same line (`puzzle,solution` CSV or
//! any line with a second grid); or, with `--puzzles P`, against the record at the same position in P (for
//! example the line output of `sudoku solve P`); or, when it is a full grid with nothing to compare to, as a
//! complete valid grid.

use std::io::{self, Write};

use clap::Args;

use super::input::{self, is_broken_pipe};
use super::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use crate::parse::{Reader, ReaderOptions, Record};
use crate::verify;

/// Options of `sudoku check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// File of solutions (`-` = stdin).
    pub file: String,
    /// Puzzles to check the solutions against, record by record.
    #[arg(long)]
    pub puzzles: Option<String>,
    /// Board side (4, 9, 16, 25, 36) instead of inferring it.
    #[arg(long, value_parser = input::parse_size)]
    pub size: Option<usize>,
}

/// Runs `sudoku check`.
pub fn run(args: &CheckArgs) -> u8 {
    let options = ReaderOptions {
        box_size: args.size,
    };
    let input = match input::open(&args.file) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("sudoku: {}: {e}", args.file);
            return EXIT_USAGE;
        }
    };
    let name = input.name;
    let mut puzzles = match &args.puzzles {
        Some(path) => match input::open(path) {
            Ok(i) => Some((i.name, Reader::with_options(i.reader, options))),
            Err(e) => {
                eprintln!("sudoku: {path}: {e}");
                return EXIT_USAGE;
            }
        },
        None => None,
    };
    let (mut checked, mut failed, mut io_error) = (0u64, 0u64, false);
    for record in Reader::with_options(input.reader, options) {
        if let Err(e) = &record.item {
            if e.is_io() {
                eprintln!("sudoku: {name}: {}", e.kind);
                io_error = true;
                break;
            }
        }
        checked += 1;
        let against = match &mut puzzles {
            Some((pname, reader)) => match reader.next() {
                Some(p) => Some((pname.as_str(), p)),
                None => {
                    eprintln!(
                        "{name}: line {}: no puzzle left in {pname} to check against",
                        record.line
                    );
                    failed += 1;
                    continue;
                }
            },
            None => None,
        };
        if let Err(msg) = check_record(&record, against.as_ref().map(|(n, r)| (*n, r))) {
            eprintln!("{name}: line {}: {msg}", record.line);
            failed += 1;
        }
    }
    // Puzzles left over once the solutions ran out: failures, counted apart so `ok + failed = checked` holds.
    let mut missing = 0u64;
    if let Some((pname, reader)) = &mut puzzles {
        missing = reader.count() as u64;
        if missing > 0 {
            eprintln!("{pname}: {missing} puzzles have no solution in {name}");
        }
    }
    let unsolved = if missing > 0 {
        format!(", {missing} puzzles without a solution")
    } else {
        String::new()
    };
    if let Err(e) = writeln!(
        io::stdout(),
        "checked {checked}: {} ok, {failed} failed{unsolved}",
        checked.saturating_sub(failed)
    ) {
        if !is_broken_pipe(&e) {
            eprintln!("sudoku: writing output: {e}");
            io_error = true;
        }
    }
    if io_error {
        EXIT_USAGE
    } else if failed == 0 && missing == 0 {
        EXIT_OK
    } else {
        EXIT_FAILED
    }
}

/// Checks one solution record, optionally against its puzzle record.
fn check_record(record: &Record, against: Option<(&str, &Record)>) -> Result<(), String> {
    let found = record
        .item
        .as_ref()
        .map_err(|e| format!("not a solution: {}", e.kind))?;
    if let Some((pname, puzzle)) = against {
        let p = puzzle.item.as_ref().map_err(|e| {
            format!(
                "its puzzle ({pname}: line {}) is invalid: {}",
                puzzle.line, e.kind
            )
        })?;
        return verify::verify(&p.board, &found.board).map_err(|e| format!("wrong: {e}"));
    }
    match &found.solution {
        Some(solution) => verify::verify(&found.board, solution).map_err(|e| format!("wrong: {e}")),
        None if found.board.is_full() => {
            verify::verify_complete(&found.board).map_err(|e| format!("wrong: {e}"))
        }
        None => Err(
            "nothing to check: the grid has empty cells and no solution on its line".to_string(),
        ),
    }
}
