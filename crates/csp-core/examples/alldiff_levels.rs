//! The `all_different` consistency levels side by side on the same models: search nodes, fails and solutions
//! (count up to 2), one line per run. Instruction counts come from running this under callgrind (commands and
//! figures in `docs/measurements.md`, "all_different levels").
//!
//! ```text
//! cargo run --release -p csp-core --example alldiff_levels -- LEVEL MODEL ARGS
//!   LEVEL: value-fc | value-singles | bounds | domain
//!   MODEL: sudoku FILE N      the first N 81-character lines of FILE ('.' or '0' blank), givens as assumptions
//!          latin FILE         a Latin square with holes (puzzles crate format: rows of `1..n` or `.`)
//!          pigeon N           2N variables on 1..2N, pairwise different, N + 1 of them on the N odd values
//!                             (unsatisfiable: a pigeonhole hidden in a permutation, with holes, so neither the
//!                             pigeonhole count of the value level nor a Hall interval sees it)
//! ```
//!
//! Every model runs on the general engine (`generic_engine`), MRV, ascending values, so the three levels differ
//! only in their propagator (the group kernel, which runs the value level on Sudoku by default, would change the
//! instructions but not the nodes).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use csp_core::constraints::AllDifferentLevel;
use csp_core::{Limits, Model, Outcome, Propagation, SearchConfig, Solver, VarId};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: alldiff_levels value-fc|value-singles|bounds|domain sudoku FILE N | latin FILE | pigeon N";
    let (level, prop) = match args.get(1).map(String::as_str) {
        Some("value-fc") => (AllDifferentLevel::Value, Propagation::ForwardChecking),
        Some("value-singles") => (AllDifferentLevel::Value, Propagation::Singles),
        Some("bounds") => (AllDifferentLevel::Bounds, Propagation::ForwardChecking),
        Some("domain") => (AllDifferentLevel::Domain, Propagation::ForwardChecking),
        _ => panic!("{usage}"),
    };
    // A node limit per search keeps the weak levels' hopeless runs short; a run that hits it says `limit`.
    let cfg = SearchConfig::default()
        .propagation(prop)
        .generic_engine(true)
        .limits(Limits {
            nodes: Some(1_000_000),
            ..Limits::default()
        });
    let mut m = Model::new();
    let post = |m: &mut Model, xs: &[VarId]| {
        m.all_different_with(xs, &vec![0; xs.len()], level).unwrap();
    };
    let (mut nodes, mut fails, mut sols, mut props) = (0u64, 0u64, 0u64, 0u64);
    let mut limited = false;
    match args.get(2).map(String::as_str) {
        Some("sudoku") => {
            let text = std::fs::read_to_string(args.get(3).expect(usage)).unwrap();
            let limit: usize = args.get(4).map_or(usize::MAX, |s| s.parse().unwrap());
            let cells: Vec<VarId> = (0..81).map(|_| m.new_var(1, 9).unwrap()).collect();
            for i in 0..9 {
                let row: Vec<VarId> = (0..9).map(|j| cells[i * 9 + j]).collect();
                let col: Vec<VarId> = (0..9).map(|j| cells[j * 9 + i]).collect();
                let bx: Vec<VarId> = (0..9)
                    .map(|k| cells[(i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3])
                    .collect();
                post(&mut m, &row);
                post(&mut m, &col);
                post(&mut m, &bx);
            }
            let p = m.build().unwrap();
            let mut solver = Solver::new(&p, cfg);
            for line in text
                .lines()
                .map(str::trim)
                .filter(|l| l.len() == 81)
                .take(limit)
            {
                let givens: Vec<(VarId, i64)> = line
                    .bytes()
                    .enumerate()
                    .filter(|&(_, b)| (b'1'..=b'9').contains(&b))
                    .map(|(i, b)| (cells[i], i64::from(b - b'0')))
                    .collect();
                let r = solver.count(&givens, 2);
                limited |= matches!(r.outcome, Outcome::Limit(_));
                nodes += r.stats.nodes;
                fails += r.stats.fails;
                props += r.stats.propagations;
                sols += r.count;
            }
        }
        Some("latin") => {
            let text = std::fs::read_to_string(args.get(3).expect(usage)).unwrap();
            let rows: Vec<Vec<&str>> = text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .map(|l| l.split_whitespace().collect())
                .collect();
            let n = rows.len();
            let cells: Vec<VarId> = (0..n * n)
                .map(|_| m.new_var(1, n as i64).unwrap())
                .collect();
            for i in 0..n {
                let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
                let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
                post(&mut m, &row);
                post(&mut m, &col);
            }
            let givens: Vec<(VarId, i64)> = rows
                .iter()
                .enumerate()
                .flat_map(|(r, row)| row.iter().enumerate().map(move |(c, t)| (r * n + c, *t)))
                .filter_map(|(i, t)| {
                    t.parse::<i64>()
                        .ok()
                        .filter(|&v| v > 0)
                        .map(|v| (cells[i], v))
                })
                .collect();
            let p = m.build().unwrap();
            let r = Solver::new(&p, cfg).count(&givens, 2);
            limited = matches!(r.outcome, Outcome::Limit(_));
            (nodes, fails, props, sols) =
                (r.stats.nodes, r.stats.fails, r.stats.propagations, r.count);
        }
        Some("pigeon") => {
            let n: i64 = args.get(3).expect(usage).parse().unwrap();
            let odd: Vec<i64> = (1..2 * n).step_by(2).collect();
            let mut xs: Vec<VarId> = (0..=n)
                .map(|_| m.new_var_with_values(&odd).unwrap())
                .collect();
            xs.extend((1..n).map(|_| m.new_var(1, 2 * n).unwrap()));
            post(&mut m, &xs);
            let p = m.build().unwrap();
            let r = Solver::new(&p, cfg).count(&[], 2);
            limited = matches!(r.outcome, Outcome::Limit(_));
            (nodes, fails, props, sols) =
                (r.stats.nodes, r.stats.fails, r.stats.propagations, r.count);
        }
        _ => panic!("{usage}"),
    }
    println!(
        "{} {}: nodes {nodes}, fails {fails}, propagations {props}, solutions {sols}{}",
        args[1],
        args[2],
        if limited { " (node limit hit)" } else { "" }
    );
}
