//! Fuzz target bodies for the puzzle-file readers, as plain functions.
//!
//! Each `fuzz_*` function is the whole body of one libFuzzer target in the repository's `fuzz/` folder; stable
//! `cargo test` replays the saved corpus and regressions through them (`tests/fuzz_replay_puzzles.rs`). They panic
//! only when a property breaks: a reader panicking or accepting something it cannot print back, an error that
//! does not name a line inside the input, or a solved instance whose answer the family's own checker rejects.
//!
//! ```
//! puzzles::fuzz_targets::fuzz_dimacs(b"p edge 3 2\ne 1 2\ne 2 3\n");
//! ```

use csp_core::Limits;

use crate::color::Coloring;
use crate::color::Graph;
use crate::error::ParseError;
use crate::hidato::Hidato;
use crate::kakuro::Kakuro;
use crate::kenken::KenKen;
use crate::killer::Killer;
use crate::latin::Latin;
use crate::nonogram::Nonogram;
use crate::puzzle::{Mode, Puzzle, Report};
use crate::queens::Queens;

/// Nodes each engine search may spend on one fuzzed instance.
pub const FUZZ_NODE_CAP: u64 = 20_000;

/// Checks an error names a line inside the input (or line 0, the whole file) and displays with it.
fn check_error(e: &ParseError, text: &str) {
    let lines = text.lines().count().max(1);
    assert!(
        e.line <= lines,
        "error line {} past the input's {lines} lines: {e}",
        e.line
    );
    let shown = e.to_string();
    assert!(!e.message.is_empty(), "an error without a message");
    if e.line > 0 {
        assert!(shown.starts_with(&format!("line {}", e.line)), "{shown}");
    }
}

/// Checks a solve: a reported answer passed the family's own checker, and a count fits the outcome.
fn check_report<A: std::fmt::Debug>(what: &str, report: &Report<A>) {
    if let Some(verdict) = &report.verified {
        assert!(
            verdict.is_ok(),
            "{what}: wrong answer {:?}: {verdict:?}",
            report.answer
        );
    }
    if report.outcome == csp_core::Outcome::Unsatisfiable {
        assert!(
            report.answer.is_none(),
            "{what}: unsatisfiable with an answer"
        );
        assert!(
            matches!(report.count, None | Some(0)),
            "{what}: unsatisfiable with a count"
        );
    }
    if report.outcome == csp_core::Outcome::Solved {
        assert!(report.answer.is_some(), "{what}: solved without an answer");
    }
}

/// The chromatic number of a graph on at most 7 vertices, by trying every colouring with k = 1, 2, ... colours.
fn brute_force_chromatic(g: &Graph) -> usize {
    let n = g.vertices();
    for k in 1..=n.max(1) {
        let mut colors = vec![0usize; n];
        loop {
            if g.edges()
                .iter()
                .all(|&(u, v)| colors[u as usize] != colors[v as usize])
            {
                return k;
            }
            // Next assignment in base k; done when it wraps around.
            let mut i = 0;
            while i < n {
                colors[i] += 1;
                if colors[i] < k {
                    break;
                }
                colors[i] = 0;
                i += 1;
            }
            if i == n {
                break;
            }
        }
    }
    n.max(1)
}

/// Target `parse_dimacs`: the DIMACS `.col` reader on arbitrary text.
///
/// Properties: no panic; errors name a line of the input; a graph read keeps its invariants (edges sorted with
/// `u < v`, adjacency symmetric) and reads back unchanged from `to_dimacs`; a graph of at most 7 vertices is
/// coloured with a verified colouring using exactly its brute-force chromatic number of colours.
pub fn fuzz_dimacs(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let graph = match Graph::parse_dimacs(text) {
        Ok(g) => g,
        Err(e) => return check_error(&e, text),
    };
    let edges = graph.edges();
    assert!(edges.windows(2).all(|w| w[0] < w[1]), "edges not sorted");
    for &(u, v) in edges {
        assert!(u < v, "edge ({u}, {v}) not normalised");
        assert!(graph.adjacent(u as usize, v as usize) && graph.adjacent(v as usize, u as usize));
    }
    match Graph::parse_dimacs(&graph.to_dimacs("fuzz")) {
        Ok(back) => assert_eq!(back, graph, "DIMACS round trip changed the graph"),
        Err(e) => panic!("the graph's own DIMACS text does not read back: {e}"),
    }
    if graph.vertices() <= 7 {
        let expected = brute_force_chromatic(&graph);
        let instance = Coloring::new(graph, None);
        let config = instance.default_config();
        let report = match instance.solve(&config, Mode::First) {
            Ok(r) => r,
            Err(e) => panic!("colouring a small graph failed: {e}"),
        };
        check_report("colouring", &report);
        let Some(coloring) = &report.answer else {
            panic!("a graph always has a colouring");
        };
        let used = coloring.iter().max().map_or(0, |&c| c + 1);
        if !coloring.is_empty() {
            assert_eq!(
                used, expected,
                "colours used vs brute-force chromatic number"
            );
        }
    }
}

/// Target `parse_puzzles`: the Queens, Latin square, Killer Sudoku, KenKen, Kakuro, Nonogram and Hidato readers on
/// arbitrary text.
///
/// Bytes: the first picks the family (its value modulo 7: 0 queens, 1 Latin, 2 Killer, 3 KenKen, 4 Kakuro,
/// 5 Nonogram, 6 Hidato; before Kakuro, Nonogram and Hidato it was modulo 4), the rest is the file. Properties: no panic; errors name a line of the
/// input; an instance read prints (`to_text`) and reads back unchanged; a small instance solved within
/// [`FUZZ_NODE_CAP`] nodes per search has an answer its family's checker accepts.
pub fn fuzz_puzzles(data: &[u8]) {
    let Some((&family, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let limited =
        |config: csp_core::SearchConfig| config.limits(Limits::none().with_nodes(FUZZ_NODE_CAP));
    match family % 7 {
        0 => match Queens::parse(text) {
            Ok(q) if q.n <= 12 => {
                let report = q.solve(&limited(q.default_config()), Mode::Count(2));
                check_report(
                    "queens",
                    &report.unwrap_or_else(|e| panic!("queens {}: {e}", q.n)),
                );
            }
            Ok(_) => {}
            Err(e) => check_error(&e, text),
        },
        1 => match Latin::parse(text) {
            Ok(l) => {
                assert_eq!(
                    Latin::parse(&l.to_text()).as_ref(),
                    Ok(&l),
                    "Latin round trip"
                );
                if l.n <= 9 {
                    if let Ok(report) = l.solve(&limited(l.default_config()), Mode::Count(2)) {
                        check_report("latin", &report);
                    }
                }
            }
            Err(e) => check_error(&e, text),
        },
        2 => match Killer::parse(text) {
            Ok(k) => {
                assert_eq!(
                    Killer::parse(&k.to_text()).as_ref(),
                    Ok(&k),
                    "Killer round trip"
                );
                if let Ok(report) = k.solve(&limited(k.default_config()), Mode::Count(2)) {
                    check_report("killer", &report);
                }
            }
            Err(e) => check_error(&e, text),
        },
        4 => match Kakuro::parse(text) {
            Ok(k) => {
                assert_eq!(
                    Kakuro::parse(&k.to_text()).as_ref(),
                    Ok(&k),
                    "Kakuro round trip"
                );
                if k.whites().len() <= 30 {
                    if let Ok(report) = k.solve(&limited(k.default_config()), Mode::Count(2)) {
                        check_report("kakuro", &report);
                    }
                }
            }
            Err(e) => check_error(&e, text),
        },
        5 => match Nonogram::parse(text) {
            Ok(n) => {
                assert_eq!(
                    Nonogram::parse(&n.to_text()).as_ref(),
                    Ok(&n),
                    "Nonogram round trip"
                );
                if n.height() * n.width() <= 100 {
                    if let Ok(report) = n.solve(&limited(n.default_config()), Mode::Count(2)) {
                        check_report("nonogram", &report);
                    }
                }
            }
            Err(e) => check_error(&e, text),
        },
        6 => match Hidato::parse(text) {
            Ok(h) => {
                assert_eq!(
                    Hidato::parse(&h.to_text()).as_ref(),
                    Ok(&h),
                    "Hidato round trip"
                );
                if h.cells().len() <= 30 {
                    if let Ok(report) = h.solve(&limited(h.default_config()), Mode::Count(2)) {
                        check_report("hidato", &report);
                    }
                }
            }
            Err(e) => check_error(&e, text),
        },
        _ => match KenKen::parse(text) {
            Ok(k) => {
                assert_eq!(
                    KenKen::parse(&k.to_text()).as_ref(),
                    Ok(&k),
                    "KenKen round trip"
                );
                if k.n <= 6 {
                    if let Ok(report) = k.solve(&limited(k.default_config()), Mode::Count(2)) {
                        check_report("kenken", &report);
                    }
                }
            }
            Err(e) => check_error(&e, text),
        },
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn brute_force_chromatic_numbers_of_small_graphs() {
        let triangle = Graph::new(3, [(0, 1), (1, 2), (0, 2)]).unwrap();
        assert_eq!(brute_force_chromatic(&triangle), 3);
        let path = Graph::new(4, [(0, 1), (1, 2), (2, 3)]).unwrap();
        assert_eq!(brute_force_chromatic(&path), 2);
        assert_eq!(brute_force_chromatic(&Graph::new(5, []).unwrap()), 1);
        let c5 = Graph::new(5, [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)]).unwrap();
        assert_eq!(brute_force_chromatic(&c5), 3);
    }

    #[test]
    fn fuzz_bodies_accept_empty_and_tiny_inputs() {
        for data in [
            &b""[..],
            b"\n",
            b"\xff",
            b"p edge 0 0",
            b"p edge 5 1\ne 1 5\n",
            b"\x008",
            b"\x01",
            b"\x04X 4\\ 7\\\n\\3 . .\n\\8 . .\n",
            b"\x05rows\n1\n0\ncolumns\n1\n0\n",
            b"\x061 . X\n. 4 .\n",
        ] {
            fuzz_dimacs(data);
            fuzz_puzzles(data);
        }
    }
}
