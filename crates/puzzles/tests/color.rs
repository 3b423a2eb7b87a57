//! Graph colouring on the engine: published chromatic numbers of the generated benchmark graphs, counts that match
//! the chromatic polynomial, and the shipped DIMACS files equal to the generators' output.
#![allow(clippy::unwrap_used)]

use csp_core::{Outcome, SearchConfig};
use puzzles::color::{chromatic_number, Coloring};
use puzzles::color::{mycielski_graph, queen_graph, verify_coloring, Graph};
use puzzles::{Mode, Puzzle};

fn dataset(name: &str) -> String {
    let path = format!(
        "{}/../../datasets/puzzles/color/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Finds the chromatic number, checks the colouring, and that k - 1 was proved impossible.
fn assert_chromatic(g: Graph, expected: usize) {
    let c = Coloring::new(g, None);
    let ch = chromatic_number(&c, &c.default_config()).unwrap();
    verify_coloring(&c.graph, &ch.coloring, ch.colors).unwrap();
    assert_eq!(ch.colors, expected);
    assert!(ch.optimal, "k = {} was not proved infeasible", expected - 1);
}

#[test]
fn mycielski_graphs_3_to_5_have_chromatic_numbers_4_to_6() {
    assert_chromatic(mycielski_graph(3), 4);
    assert_chromatic(mycielski_graph(4), 5);
    assert_chromatic(mycielski_graph(5), 6);
}

#[test]
fn queen5_5_and_queen6_6_have_chromatic_numbers_5_and_7() {
    assert_chromatic(queen_graph(5, 5), 5);
    assert_chromatic(queen_graph(6, 6), 7);
}

#[test]
fn queen7_7_is_7_colourable_and_its_clique_proves_6_impossible() {
    assert_chromatic(queen_graph(7, 7), 7);
}

#[test]
fn queen8_8_has_chromatic_number_9() {
    assert_chromatic(queen_graph(8, 8), 9);
}

#[test]
fn queen8_8_is_9_colourable() {
    let c = Coloring::new(queen_graph(8, 8), Some(9));
    let r = c.solve(&c.default_config(), Mode::First).unwrap();
    assert_eq!(r.outcome, Outcome::Solved);
    verify_coloring(&c.graph, r.answer.as_ref().unwrap(), 9).unwrap();
}

/// The hard half of the benchmark: about 11,500 nodes with the default dom/wdeg + singles.
#[test]
fn queen8_8_has_no_8_colouring() {
    let c = Coloring::new(queen_graph(8, 8), Some(8));
    let r = c.solve(&c.default_config(), Mode::First).unwrap();
    assert_eq!(r.outcome, Outcome::Unsatisfiable);
}

#[test]
fn counts_times_the_fixed_clique_colourings_equal_the_chromatic_polynomial() {
    // C5: P(k) = (k-1)^5 - (k-1). Its greedy clique is an edge, fixed to colours 0 and 1, so the engine counts
    // P(k) / (k (k-1)) colourings.
    let c5 = Graph::new(5, (0..5).map(|i| (i, (i + 1) % 5))).unwrap();
    for k in 2..=5u64 {
        let c = Coloring::new(c5.clone(), Some(k as usize));
        let r = c
            .solve(&SearchConfig::default(), Mode::Count(u64::MAX))
            .unwrap();
        let p = (k - 1).pow(5) - (k - 1);
        assert_eq!(r.count.unwrap() * k * (k - 1), p, "k = {k}");
    }
    // Petersen graph: chromatic number 3, 12960 proper 4-colourings... checked via its clique (an edge).
    let outer = (0..5).map(|i| (i, (i + 1) % 5));
    let spokes = (0..5).map(|i| (i, i + 5));
    let inner = (0..5).map(|i| (5 + i, 5 + (i + 2) % 5));
    let petersen = Graph::new(10, outer.chain(spokes).chain(inner)).unwrap();
    let c = Coloring::new(petersen.clone(), Some(3));
    let r = c
        .solve(&SearchConfig::default(), Mode::Count(u64::MAX))
        .unwrap();
    // P_petersen(3) = 120.
    assert_eq!(r.count.unwrap() * 6, 120);
    assert_chromatic(petersen, 3);
}

#[test]
fn shipped_dimacs_files_are_the_generated_graphs() {
    for n in 5..=8 {
        let g = Graph::parse_dimacs(&dataset(&format!("queen{n}_{n}.col"))).unwrap();
        assert_eq!(g, queen_graph(n, n), "queen{n}_{n}");
    }
    for k in 3..=6 {
        let g = Graph::parse_dimacs(&dataset(&format!("myciel{k}.col"))).unwrap();
        assert_eq!(g, mycielski_graph(k), "myciel{k}");
    }
}

#[test]
fn value_precedence_keeps_exactly_the_colourable_cases() {
    // First-solution searches use value precedence, counts do not: on random graphs both must agree on
    // whether k colours suffice, and every colouring found must be proper.
    let mut rng = puzzles::Rng::new(5);
    for round in 0..60 {
        let n = 6 + round % 5;
        let edges: Vec<(usize, usize)> = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .filter(|_| rng.below_hi32(100) < 45)
            .collect();
        let g = Graph::new(n, edges).unwrap();
        for k in 1..=5 {
            let c = Coloring::new(g.clone(), Some(k));
            let first = c.solve_k(k, &c.default_config(), Mode::First).unwrap();
            let counted = c.solve_k(k, &c.default_config(), Mode::Count(1)).unwrap();
            assert_eq!(first.outcome, counted.outcome, "round {round}, k = {k}");
            if let Some(a) = &first.answer {
                verify_coloring(&g, a, k).unwrap();
            }
        }
    }
}
