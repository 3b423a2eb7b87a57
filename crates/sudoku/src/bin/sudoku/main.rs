//! The `sudoku` command line: one module per subcommand (`solve`, `check`, `generate`), shared input handling in `input`.
//!
//! Exit codes: 0 when every puzzle was solved (or checked correct), 1 when some puzzle was invalid, unsolvable,
//! stopped by a limit or wrong, 2 on usage or I/O errors. One bad line never stops a run: it gets its own result
//! and a message on stderr naming file and line. A closed output pipe (`sudoku solve big.txt | head -1`) ends the
//! run quietly, as in ripgrep: not an error, the exit code covers the results written. Ctrl-C during
//! `sudoku solve` writes the results finished so far, in input order up to the first unfinished puzzle, names
//! where it stopped and exits with 130; a second Ctrl-C quits at once.
//!
//! With several inputs, line and grid results name their file as grep does (`FILE:LINE:`, `# FILE: line L:`);
//! `-H/--with-filename` and `--no-filename` force it on or off, and one input's output never changes.
//!
//! Adding a subcommand: one variant in [`Command`] and one module beside this file with its `Args` and `run`.
//!
//! The binary is a client of the `sudoku` library like any other: it builds only with the `cli` feature (on by
//! default), so `clap` and `ctrlc` are dependencies of this binary, not of the library.
//!
//! ```text
//! sudoku solve puzzles.txt                      # one solution line per puzzle, default solver, all cores
//! sudoku solve --count --format jsonl -j 1 -    # stdin; uniqueness (solutions 0/1/2) as JSON lines, one thread
//! sudoku solve --solver naive --node-limit 1000000 --time-limit 2s hard.txt
//! sudoku solve --size 16 --format grid grid16.txt
//! sudoku solve a.txt b.txt                     # a.txt:1:534678912...  (file names with several inputs)
//! sudoku solve p.txt > s.txt && sudoku check --puzzles p.txt s.txt
//! sudoku check kaggle.csv                       # puzzle,solution CSV
//! sudoku list                                   # the registry
//! ```

mod check;
mod generate;
mod input;
mod solve;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// The library modules the subcommands use, imported at the crate root so that their `crate::registry::...` paths
// read the same as when this command line lived inside the library.
#[cfg(test)]
use sudoku::solvers;
use sudoku::{board, format, parse, per_thread, pipeline, registry, verify};

/// Every puzzle solved / checked.
pub const EXIT_OK: u8 = 0;
/// Some puzzle was invalid, unsatisfiable, limited or wrong.
pub const EXIT_FAILED: u8 = 1;
/// Usage or I/O error.
pub const EXIT_USAGE: u8 = 2;
/// Interrupted by Ctrl-C (`sudoku solve` writes the results finished before stopping), as shells report SIGINT.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Sudoku of every size (4x4 to 36x36): solve, count and check puzzles from files or stdin.
#[derive(Debug, Parser)]
#[command(name = "sudoku", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of the inputs, writing results in input order.
    Solve(solve::SolveArgs),
    /// Verify solutions: a `puzzle,solution` file, solved grids, or a solutions file against `--puzzles`.
    Check(check::CheckArgs),
    /// Generate unique puzzles for a board size and seed, rated by search effort.
    Generate(generate::GenerateArgs),
    /// List the registered solvers.
    List,
}

/// Parses the process arguments and runs the command.
fn main() -> ExitCode {
    let cli = Cli::parse();
    ExitCode::from(run(cli))
}

/// Runs a parsed command line; returns the exit code.
pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Solve(args) => solve::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::List => match list(&mut io::stdout().lock()) {
            Ok(()) => EXIT_OK,
            Err(e) if input::is_broken_pipe(&e) => EXIT_OK,
            Err(e) => {
                eprintln!("sudoku: writing output: {e}");
                EXIT_USAGE
            }
        },
    }
}

/// Writes the registry, one solver a line (not `println!`, which panics when stdout is closed or full).
fn list(out: &mut impl Write) -> io::Result<()> {
    for s in crate::registry::registry() {
        writeln!(out, "{:<16} {}", s.name, s.description)?;
    }
    out.flush()
}
