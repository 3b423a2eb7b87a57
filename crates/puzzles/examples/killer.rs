//! Generate a uniquely solvable Killer Sudoku, print it in the text format, solve it back and check the answer.
//! Run: `cargo run --release -p puzzles --example killer -- 7`
use puzzles::killer::{generate_unique, Killer};
use puzzles::{Mode, Puzzle};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed: u64 = std::env::args().nth(1).map_or(Ok(1), |a| a.parse())?;
    let (generated, solution) = generate_unique(seed, 5)?;
    let text = generated.to_text();
    print!("{text}");
    let puzzle = Killer::parse(&text)?;
    let report = puzzle.solve(&puzzle.default_config(), Mode::Count(2))?;
    let answer = report.answer.ok_or("no solution")?;
    assert_eq!(answer, solution);
    println!(
        "{} solution(s), {} nodes: {}",
        report.count.unwrap_or(0),
        report.stats.nodes,
        puzzle.answer_text(&answer)
    );
    Ok(())
}
