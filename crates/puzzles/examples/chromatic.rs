//! The chromatic number of a generated Mycielski graph through the `puzzles` library: clique lower bound,
//! DSATUR upper bound, then descending k with the engine until k - 1 colours are proved impossible.
//! Run: `cargo run --release -p puzzles --example chromatic -- 4`
use puzzles::color::{chromatic_number, Coloring};
use puzzles::color::{mycielski_graph, verify_coloring};
use puzzles::Puzzle;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let k: usize = std::env::args().nth(1).map_or(Ok(4), |a| a.parse())?;
    let instance = Coloring::new(mycielski_graph(k), None);
    let g = &instance.graph;
    println!(
        "myciel{k}: {} vertices, {} edges",
        g.vertices(),
        g.edges().len()
    );
    let ch = chromatic_number(&instance, &instance.default_config())?;
    verify_coloring(g, &ch.coloring, ch.colors)?;
    println!(
        "chromatic number {} (optimal: {}, clique bound {}, DSATUR {}), {:?}",
        ch.colors, ch.optimal, ch.clique, ch.dsatur, ch.time
    );
    for (k, outcome, stats) in &ch.steps {
        println!(
            "  k = {k}: {outcome} after {} nodes in {:?}",
            stats.nodes, stats.time
        );
    }
    Ok(())
}
