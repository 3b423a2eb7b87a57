//! N-Queens straight on csp-core: one variable per row (the queen's column), three all-different constraints.
//! Run: `cargo run --release -p puzzles --example queens -- 1000`
use csp_core::{Model, SearchConfig, Solver, ValueOrder, VarOrder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: i64 = std::env::args().nth(1).map_or(Ok(8), |a| a.parse())?;
    let mut m = Model::new();
    let q = (0..n)
        .map(|_| m.new_var(0, n - 1))
        .collect::<Result<Vec<_>, _>>()?;
    let up: Vec<i64> = (0..n).collect();
    let down: Vec<i64> = (0..n).map(|r| -r).collect();
    m.all_different(&q)?; // one queen per column
    m.all_different_offset(&q, &up)?; // q[r] + r distinct: one per "/" diagonal
    m.all_different_offset(&q, &down)?; // q[r] - r distinct: one per "\" diagonal
    let problem = m.build()?;
    let cfg = SearchConfig::default()
        .var_order(VarOrder::Mrv)
        .value_order(ValueOrder::Median);
    let result = Solver::new(&problem, cfg).solve(&[]);
    println!(
        "{} after {} nodes in {:?}",
        result.outcome, result.stats.nodes, result.stats.time
    );
    for &c in result.solution.iter().flat_map(|s| s.values()).take(20) {
        let row: String = (0..n.min(20))
            .map(|j| if j == c { 'Q' } else { '.' })
            .collect();
        println!("{row}");
    }
    Ok(())
}
