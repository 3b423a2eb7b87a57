//! The `sudoku` command-line tool; everything lives in [`sudoku::cli`].

fn main() -> std::process::ExitCode {
    sudoku::cli::main()
}
