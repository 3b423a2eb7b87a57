//! Reader limits and bad input across the puzzle families: a header cannot make a reader allocate without bound,
//! and every error names its line.

#![allow(clippy::unwrap_used)]

use puzzles::color::{Graph, MAX_VERTICES};
use puzzles::latin::Latin;
use puzzles::Puzzle;

#[test]
fn a_dimacs_header_declaring_billions_of_vertices_is_an_error_not_an_allocation() {
    // Without a cap, this one line allocated ~48 GB of adjacency lists and aborted the process.
    let err = Graph::parse_dimacs("c huge\np edge 2000000000 0\n").unwrap_err();
    assert_eq!((err.line, err.column), (2, Some(8)));
    assert!(err.message.contains("too many vertices"), "{err}");
    let at_cap = format!("p edge {MAX_VERTICES} 0\n");
    assert_eq!(
        Graph::parse_dimacs(&at_cap).unwrap().vertices(),
        MAX_VERTICES
    );
}

#[test]
fn dimacs_errors_name_their_line() {
    for (text, line) in [
        ("p edge 3 1\ne 1 4\n", 2),
        ("e 1 2\np edge 3 1\n", 1),
        ("p edge 3 1\np edge 3 1\n", 2),
        ("p edge 3 1\ne 2 2\n", 2),
        ("p edge x 1\n", 1),
        ("p edge 3 1\nq 1 2\n", 2),
        ("p edge 3 1\ne 1\n", 2),
    ] {
        let err = Graph::parse_dimacs(text).unwrap_err();
        assert_eq!(err.line, line, "{text:?}: {err}");
        assert!(
            err.to_string().starts_with(&format!("line {line}")),
            "{err}"
        );
    }
}

#[test]
fn latin_rows_of_the_wrong_width_name_their_line() {
    let err = Latin::parse("1 2 .\n. 1\n").unwrap_err();
    assert_eq!(err.line, 2, "{err}");
}
