//! Models that need the constraints added with the open propagator interface, with nodes and time per run:
//! Golomb rulers (optimisation: `minimize`), magic sequences (`count`), Langford pairs (`element_var`).
//!
//! `cargo run --release -p csp-core --example new_constraints -- [golomb M] [magic N] [langford N]`
//! (default: `golomb 7 magic 20 langford 11`). Every solution is checked by a direct test of its definition here,
//! not through the engine.
//!
//! Measured 2026-11-25 on the shared 2-core machine (wall time of one run each, so only indicative):
//!
//! | model                    | result                                  | nodes   | time    |
//! |--------------------------|-----------------------------------------|--------:|--------:|
//! | `golomb 8`               | length 34, optimal (7 improvements)     |   2,741 | 0.041 s |
//! | `golomb 9`               | length 44, optimal (10 improvements)    |  19,454 | 0.48 s  |
//! | `golomb 10`              | length 55, optimal (10 improvements)    | 140,755 | 3.9 s   |
//! | `magic 100`              | solved (`count` decompositions)         |     145 | 0.15 s  |
//! | `langford 11`            | 17,792 solutions up to reversal (all)   | 177,987 | 0.59 s  |
//!
//! The Golomb model uses forward checking on the distances' `all_different` only (no bounds consistency): a
//! bounds-consistent `all_different` would cut the tree further.
#![allow(clippy::unwrap_used)]

use csp_core::{Limits, Model, OptOutcome, Relation, SearchConfig, Solver, VarId};

/// Golomb ruler with `m` marks: marks `0 = x_0 < .. < x_{m-1}`, all pairwise distances different, shortest.
fn golomb(m: usize) {
    let len = (m * m) as i64;
    let mut model = Model::new();
    let x: Vec<VarId> = (0..m).map(|_| model.new_var(0, len).unwrap()).collect();
    model.linear(&[(1, x[0])], Relation::Eq, 0).unwrap();
    for i in 1..m {
        model
            .linear(&[(1, x[i]), (-1, x[i - 1])], Relation::Ge, 1)
            .unwrap();
    }
    let mut d = Vec::new();
    for i in 0..m {
        for j in i + 1..m {
            let dij = model.new_var(1, len).unwrap();
            model
                .linear(&[(1, x[j]), (-1, x[i]), (-1, dij)], Relation::Eq, 0)
                .unwrap();
            d.push(dij);
        }
    }
    model.all_different(&d).unwrap();
    // Mirror symmetry: first gap smaller than the last.
    let last = d.len() - 1;
    model
        .linear(&[(1, d[0]), (-1, d[last])], Relation::Le, -1)
        .unwrap();
    let p = model.build().unwrap();
    let cfg = SearchConfig::default()
        .var_order(csp_core::VarOrder::Input)
        .limits(Limits::none().with_nodes(20_000_000));
    let r = Solver::new(&p, cfg).minimize(&[], x[m - 1]).unwrap();
    let best = r.best.as_ref().unwrap();
    let marks: Vec<i64> = x.iter().map(|&v| best.value(v)).collect();
    let mut dists: Vec<i64> = (0..m)
        .flat_map(|i| {
            (i + 1..m).map({
                let marks = &marks;
                move |j| marks[j] - marks[i]
            })
        })
        .collect();
    dists.sort_unstable();
    assert!(
        dists.windows(2).all(|w| w[0] < w[1]),
        "not a Golomb ruler: {marks:?}"
    );
    println!(
        "golomb {m}: length {:?} {:?}, marks {marks:?}, {} improvements, {} nodes, {:.3} s",
        r.objective,
        r.outcome,
        r.improvements,
        r.stats.nodes,
        r.stats.time.as_secs_f64()
    );
    assert!(matches!(
        r.outcome,
        OptOutcome::Optimal | OptOutcome::Feasible
    ));
}

/// Magic sequence of length `n`: `x_i` = number of occurrences of `i` in `x`.
fn magic(n: usize) {
    let mut model = Model::new();
    let x: Vec<VarId> = (0..n)
        .map(|_| model.new_var(0, n as i64).unwrap())
        .collect();
    for i in 0..n {
        model.count(&x, i as i64, x[i]).unwrap();
    }
    // Redundant sums: the counts add up to n, and so do the values.
    let ones: Vec<(i64, VarId)> = x.iter().map(|&v| (1, v)).collect();
    model.linear(&ones, Relation::Eq, n as i64).unwrap();
    let weighted: Vec<(i64, VarId)> = x.iter().enumerate().map(|(i, &v)| (i as i64, v)).collect();
    model.linear(&weighted, Relation::Eq, n as i64).unwrap();
    let p = model.build().unwrap();
    let r = Solver::new(
        &p,
        SearchConfig::default().var_order(csp_core::VarOrder::Input),
    )
    .solve(&[]);
    let s = r.solution.unwrap();
    let vals: Vec<i64> = x.iter().map(|&v| s.value(v)).collect();
    for (i, &c) in vals.iter().enumerate() {
        assert_eq!(vals.iter().filter(|&&v| v == i as i64).count() as i64, c);
    }
    println!(
        "magic {n}: {:?}, {} nodes, {:.3} s",
        r.outcome,
        r.stats.nodes,
        r.stats.time.as_secs_f64()
    );
}

/// Langford L(2, n): positions `p_k`, `p_k + k + 1` of the two copies of each `k` in `1..=n` fill `0..2n`.
fn langford(n: usize) {
    let mut model = Model::new();
    let len = 2 * n as i64;
    let first: Vec<VarId> = (1..=n)
        .map(|k| model.new_var(0, len - 2 - k as i64).unwrap())
        .collect();
    let second: Vec<VarId> = (1..=n)
        .map(|_| model.new_var(0, len - 1).unwrap())
        .collect();
    for k in 0..n {
        model.equal(second[k], first[k], k as i64 + 2).unwrap();
    }
    let all: Vec<VarId> = first.iter().chain(&second).copied().collect();
    model.all_different(&all).unwrap();
    // Symmetry: reversal maps the 1s at p, p + 2 to len - 3 - p, len - 1 - p; keep p < len - 3 - p.
    model
        .linear(&[(2, first[0])], Relation::Le, len - 4)
        .unwrap();
    let p = model.build().unwrap();
    let r = Solver::new(&p, SearchConfig::default()).count(&[], u64::MAX);
    if let Some(s) = &r.first {
        let mut seq = vec![0; 2 * n];
        for k in 0..n {
            seq[s.value(first[k]) as usize] = k + 1;
            seq[s.value(second[k]) as usize] = k + 1;
        }
        assert!(seq.iter().all(|&v| v > 0));
    }
    println!(
        "langford L(2,{n}): {} solutions up to reversal, {:?}, {} nodes, {:.3} s",
        r.count,
        r.outcome,
        r.stats.nodes,
        r.stats.time.as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args = if args.is_empty() {
        vec![
            "golomb".into(),
            "7".into(),
            "magic".into(),
            "20".into(),
            "langford".into(),
            "11".into(),
        ]
    } else {
        args
    };
    for pair in args.chunks(2) {
        let n: usize = pair.get(1).map_or(8, |s| s.parse().unwrap());
        match pair[0].as_str() {
            "golomb" => golomb(n),
            "magic" => magic(n),
            "langford" => langford(n),
            other => eprintln!("unknown model {other}"),
        }
    }
}
