//! Draw a random picture, keep only its clues, solve the Nonogram from them with `regular` per line, and check the
//! answer against the clues directly (it may differ from the picture when the clues allow several).
//! Run: `cargo run --release -p puzzles --example nonogram -- [SIZE] [SEED]` (default 25 1).
//!
//! The model (`src/nonogram.rs`: `automaton` and `encode`) shows how a line rule becomes a csp-core `regular`
//! constraint: the clue's automaton over {0, 1}, one per row and column.
use puzzles::nonogram::{generate, verify_picture, Keep};
use puzzles::{Mode, Puzzle};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(25), |a| a.parse())?;
    let seed: u64 = args.next().map_or(Ok(1), |a| a.parse())?;
    let (puzzle, _picture, _) = generate(n, n, 0.5, seed, Keep::Any, 1)?;
    let report = puzzle.solve(&puzzle.default_config(), Mode::First)?;
    let answer = report.answer.ok_or("no solution")?;
    verify_picture(&puzzle, &answer)?;
    print!("{}", puzzle.answer_text(&answer));
    println!(
        "nonogram {n}x{n} seed {seed}: solved and checked against the clues, {} nodes, {:.3} s",
        report.stats.nodes,
        report.stats.time.as_secs_f64()
    );
    Ok(())
}
