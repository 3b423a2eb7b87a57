//! The time limit and the cancel flag are read often enough that a search whose nodes are slow still stops soon
//! after them (measured in nodes, so the test needs no clock).
#![allow(clippy::unwrap_used)]

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use csp_core::{LimitKind, Limits, Model, Outcome, SearchConfig, Solver};

#[test]
fn a_cancel_flag_raised_mid_search_stops_it_within_one_check_interval_of_nodes() {
    // 10^12 solutions, one every node or two: the search would run for hours without the flag.
    let mut m = Model::new();
    let xs: Vec<_> = (0..12).map(|_| m.new_var(0, 9).unwrap()).collect();
    m.linear(&[(1, xs[0]), (1, xs[1])], csp_core::Relation::Le, 18)
        .unwrap();
    let p = m.build().unwrap();
    for generic in [false, true] {
        let flag = Arc::new(AtomicBool::new(false));
        let cfg = SearchConfig::default()
            .generic_engine(generic)
            .limits(Limits::none().with_cancel(flag.clone()));
        let mut solver = Solver::new(&p, cfg);
        let mut solutions = 0u64;
        let (outcome, stats) = solver.for_each_solution(&[], |_| {
            solutions += 1;
            if solutions == 100 {
                flag.store(true, Ordering::Relaxed);
            }
            ControlFlow::Continue(())
        });
        assert_eq!(outcome, Outcome::Limit(LimitKind::Cancelled));
        // The flag went up at the 100th solution, about 111 nodes in (the first needs 12 decisions, each
        // further one one more); the general engine (the linear constraint keeps the group kernel out) reads it
        // every 16 nodes. Before, every 1024.
        assert!(
            stats.nodes <= 100 + 12 + 16,
            "generic {generic}: {} nodes",
            stats.nodes
        );
        assert!(solutions < 100 + 32, "{solutions}");
    }
}
