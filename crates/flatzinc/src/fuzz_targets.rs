//! The body of the `parse_fzn` fuzz target (`fuzz/fuzz_targets/parse_fzn.rs`), replayed over the saved corpus by
//! `tests/fuzz_replay.rs` on stable.
//!
//! Properties: reading and translating any bytes never panics; every syntax or translation error names a line and
//! column inside the input; a model that translates builds or is refused with a `ModelError`, and a short search
//! (1,000 nodes) on it never panics and only reports solutions every constraint's checker accepts.

use std::ops::ControlFlow;

use csp_core::{Limits, SearchConfig, Solver};

/// Checks the properties above on `data`.
pub fn fuzz_fzn(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = text.lines().count().max(1) + 1;
    let fzn = match crate::parser::parse(text) {
        Ok(f) => f,
        Err(e) => {
            assert!(
                e.pos.line >= 1 && e.pos.line <= lines,
                "error outside the input: {e}"
            );
            return;
        }
    };
    let t = match crate::translate::translate(&fzn) {
        Ok(t) => t,
        Err(e) => {
            assert!(
                e.pos.line >= 1 && e.pos.line <= lines,
                "error outside the input: {e}"
            );
            return;
        }
    };
    let Ok(problem) = t.model.build() else {
        return;
    };
    let cfg = SearchConfig::default().limits(Limits::none().with_nodes(1_000));
    let mut solver = Solver::new(&problem, cfg);
    let mut seen = 0;
    solver.for_each_solution(&[], |s| {
        assert!(problem.is_solution(s.values()), "reported a non-solution");
        seen += 1;
        if seen >= 10 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
}
