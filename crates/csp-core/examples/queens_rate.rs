//! N-Queens timings: first solution for several sizes and strategies, and counting.
//!
//! `cargo run --release -p csp-core --example queens_rate -- first 8,64,256,1000,2000 [median|random|ascending] [ties] [luby]`
//! `cargo run --release -p csp-core --example queens_rate -- count 12 [par]`
//! Every first solution is checked by a direct placement test outside the timing.
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use csp_core::{parallel, Model, Problem, Restarts, SearchConfig, Solver, ValueOrder, VarId};

fn queens(n: usize) -> (Problem, Vec<VarId>) {
    let mut m = Model::new();
    let q: Vec<VarId> = (0..n)
        .map(|_| m.new_var(0, n as i64 - 1).unwrap())
        .collect();
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    (m.build().unwrap(), q)
}

fn valid(cols: &[i64]) -> bool {
    let n = cols.len();
    let mut c = vec![false; n];
    let mut d1 = vec![false; 2 * n];
    let mut d2 = vec![false; 2 * n];
    for (i, &x) in cols.iter().enumerate() {
        let x = x as usize;
        if x >= n || c[x] || d1[x + i] || d2[x + n - i] {
            return false;
        }
        c[x] = true;
        d1[x + i] = true;
        d2[x + n - i] = true;
    }
    true
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("first");
    let sizes: Vec<usize> = args
        .get(2)
        .map(|s| s.split(',').map(|x| x.parse().unwrap()).collect())
        .unwrap_or(vec![8, 64, 256, 1000, 2000]);
    let value = match args.get(3).map(String::as_str) {
        Some("random") => ValueOrder::Random,
        Some("ascending") => ValueOrder::Ascending,
        Some("lcv") => ValueOrder::Lcv,
        _ => ValueOrder::Median,
    };
    let ties = args.get(4).is_some_and(|s| s == "ties");
    // A fifth argument `luby` adds Luby restarts (scale 100 failures).
    let restarts = if args.get(5).is_some_and(|s| s == "luby") {
        Restarts::Luby { scale: 100 }
    } else {
        Restarts::None
    };
    for n in sizes {
        let (p, q) = queens(n);
        if mode == "count" {
            let cfg = SearchConfig::default();
            let t = Instant::now();
            let c0 = thread_cpu_secs().unwrap_or(0.0);
            let r = if args.get(3).is_some_and(|s| s == "par") {
                parallel::count(&p, &cfg, u64::MAX)
            } else {
                Solver::new(&p, cfg).count(&[], u64::MAX)
            };
            let cpu_ms = (thread_cpu_secs().unwrap_or(0.0) - c0) * 1e3;
            println!(
                "count n={n}: {} solutions in {:.1} ms wall ({cpu_ms:.1} ms CPU on the calling thread), {} nodes",
                r.count,
                t.elapsed().as_secs_f64() * 1e3,
                r.stats.nodes
            );
            continue;
        }
        let cfg = SearchConfig::default()
            .value_order(value)
            .random_ties(ties)
            .restarts(restarts)
            .seed(1);
        let t = Instant::now();
        let c0 = thread_cpu_secs().unwrap_or(0.0);
        let r = Solver::new(&p, cfg).solve(&[]);
        let cpu_ms = (thread_cpu_secs().unwrap_or(0.0) - c0) * 1e3;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let ok = r
            .solution
            .as_ref()
            .is_some_and(|s| valid(&q.iter().map(|&x| s.value(x)).collect::<Vec<_>>()));
        println!(
            "first n={n} {value:?} ties={ties} {restarts:?}: {:?} valid={ok} in {cpu_ms:.1} ms CPU ({ms:.1} ms wall, incl. solver setup), {} nodes, {} fails",
            r.outcome, r.stats.nodes, r.stats.fails
        );
        if r.stats.restarts > 0 {
            println!("    {} restarts", r.stats.restarts);
        }
    }
}

/// CPU time of the calling thread in seconds (Linux `/proc/thread-self/schedstat`, first field in ns): on a machine
/// shared with other jobs this measures our work, not the time spent waiting for a core. `None` elsewhere.
fn thread_cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}
