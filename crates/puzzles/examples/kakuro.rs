//! Solve the Kakuro of Wikipedia's article from its text, prove the solution unique and check it independently.
//! Run: `cargo run --release -p puzzles --example kakuro`
//!
//! The family's model (`src/kakuro.rs`, `encode`) is the pattern for a puzzle of your own: one csp-core variable
//! per cell to fill, then per clue the constraints it states (`all_different` and `linear` for each run).
use puzzles::kakuro::{verify_digits, Kakuro};
use puzzles::{Mode, Puzzle};

const WIKIPEDIA: &str = r"
X    23\  30\  X     X     27\  12\  16\
\16  .    .    X     17\24 .    .    .
\17  .    .    15\29 .     .    .    .
\35  .    .    .     .     .    12\  X
X    \7   .    .     7\8   .    .    7\
X    11\  10\16 .    .     .    .    .
\21  .    .    .     .     \5   .    .
\6   .    .    .     X     \3   .    .
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let puzzle = Kakuro::parse(WIKIPEDIA)?;
    let report = puzzle.solve(&puzzle.default_config(), Mode::Count(2))?;
    let answer = report.answer.ok_or("no solution")?;
    verify_digits(&puzzle, &answer)?;
    print!("{}", puzzle.answer_text(&answer));
    println!(
        "{} solution(s) ({} runs, {} white cells), {} nodes",
        report.count.unwrap_or(0),
        puzzle.runs.len(),
        puzzle.whites().len(),
        report.stats.nodes
    );
    Ok(())
}
