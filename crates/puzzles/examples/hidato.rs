//! Generate a uniquely solvable Hidato, print it in the text format, solve it back and check the answer.
//! Run: `cargo run --release -p puzzles --example hidato -- [WIDTH] [HEIGHT] [SEED]` (default 8 8 1).
//!
//! The model (`src/hidato.rs`, `encode`) is a path on csp-core: `at[v]` = the cell of number v + 1,
//! `all_different(at)` and a `table` of king-adjacent cell pairs between consecutive numbers.
use puzzles::hidato::{generate_unique, verify_numbering, Hidato};
use puzzles::{Mode, Puzzle};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let w: usize = args.next().map_or(Ok(8), |a| a.parse())?;
    let h: usize = args.next().map_or(Ok(8), |a| a.parse())?;
    let seed: u64 = args.next().map_or(Ok(1), |a| a.parse())?;
    let (generated, solution) = generate_unique(w, h, 0.2, seed)?;
    let text = generated.to_text();
    print!("{text}");
    let puzzle = Hidato::parse(&text)?;
    let report = puzzle.solve(&puzzle.default_config(), Mode::Count(2))?;
    let answer = report.answer.ok_or("no solution")?;
    verify_numbering(&puzzle, &answer)?;
    assert_eq!(answer, solution);
    print!("{}", puzzle.answer_text(&answer));
    println!(
        "{} solution(s), {} nodes",
        report.count.unwrap_or(0),
        report.stats.nodes
    );
    Ok(())
}
