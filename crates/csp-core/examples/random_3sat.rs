//! Random 3-SAT on csp-core's Boolean clauses: the clause-heavy model the watched literals are measured on.
//!
//! `cargo run --release -p csp-core --example random_3sat -- VARS CLAUSES SEED [count]`
//! Draws `CLAUSES` clauses of three distinct variables among `VARS`, each negated with probability 1/2 (SplitMix64
//! from `SEED`), then finds a first solution (or proves there is none), or counts all with `count`; prints the
//! outcome, the count, nodes and propagations. A found assignment is checked against every clause directly.
#![allow(clippy::unwrap_used)]

use csp_core::rng::Rng;
use csp_core::{Model, SearchConfig, Solver, VarId};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (n, m, seed) = (arg(0, 60) as usize, arg(1, 256) as usize, arg(2, 1));
    let count = args.get(3).is_some_and(|a| a == "count");
    let mut rng = Rng::new(seed);
    let mut model = Model::new();
    let xs: Vec<VarId> = (0..n).map(|_| model.new_bool().unwrap()).collect();
    let mut clauses = Vec::with_capacity(m);
    for _ in 0..m {
        let mut lits: Vec<(usize, bool)> = Vec::with_capacity(3);
        while lits.len() < 3 {
            let v = rng.below(n as u64) as usize;
            if lits.iter().all(|&(u, _)| u != v) {
                lits.push((v, rng.below(2) == 0));
            }
        }
        let pos: Vec<VarId> = lits.iter().filter(|l| l.1).map(|l| xs[l.0]).collect();
        let neg: Vec<VarId> = lits.iter().filter(|l| !l.1).map(|l| xs[l.0]).collect();
        model.clause(&pos, &neg).unwrap();
        clauses.push(lits);
    }
    let p = model.build().unwrap();
    let mut solver = Solver::new(&p, SearchConfig::default());
    if count {
        let r = solver.count(&[], u64::MAX);
        println!(
            "{n} vars {m} clauses seed {seed}: {:?}, {} solutions, {} nodes, {} propagations",
            r.outcome, r.count, r.stats.nodes, r.stats.propagations
        );
        return;
    }
    let r = solver.solve(&[]);
    if let Some(s) = &r.solution {
        let ok = clauses.iter().all(|c| {
            c.iter()
                .any(|&(v, positive)| (s.value(xs[v]) != 0) == positive)
        });
        assert!(ok, "the solution violates a clause");
    }
    println!(
        "{n} vars {m} clauses seed {seed}: {:?}, {} nodes, {} propagations",
        r.outcome, r.stats.nodes, r.stats.propagations
    );
}
