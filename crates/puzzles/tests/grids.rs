//! Latin squares, Killer Sudoku and KenKen on the engine: known counts, shipped unique instances with their
//! solutions, generators, and brute-force cross-checks of the cage models.
#![allow(clippy::unwrap_used)]

use std::ops::ControlFlow;

use csp_core::{Limits, Outcome, SearchConfig};
use puzzles::kenken::{Clue, KenKen, Op};
use puzzles::killer::Killer;
use puzzles::latin::{generate, random_latin_square, Latin};
use puzzles::Rng;
use puzzles::{grow_cages, Cage};
use puzzles::{Mode, Puzzle};

fn dataset_dir(kind: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets/puzzles")
        .join(kind)
}

/// Every `*.txt` file of a dataset folder with its text, sorted by name.
fn dataset_files(kind: &str) -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(dataset_dir(kind))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

/// The `# solution <grid>` comment a shipped unique instance carries.
fn expected_solution(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("# solution "))
        .map(|s| s.trim().to_string())
}

/// Solves with count limit 2, checks uniqueness, the verifier, and the recorded solution.
fn assert_unique<P: Puzzle>(name: &str, text: &str) {
    let p = P::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let r = p.solve(&p.default_config(), Mode::Count(2)).unwrap();
    assert_eq!((r.outcome, r.count), (Outcome::Solved, Some(1)), "{name}");
    r.verified.unwrap().unwrap();
    let answer = r.answer.unwrap();
    let json = p.answer_json(&answer);
    if let Some(expected) = expected_solution(text) {
        assert_eq!(json.as_str().unwrap(), expected, "{name}");
    }
}

#[test]
fn there_are_576_latin_squares_of_order_4() {
    let empty = Latin {
        n: 4,
        cells: vec![None; 16],
    };
    let r = empty
        .solve(&empty.default_config(), Mode::Count(u64::MAX))
        .unwrap();
    assert_eq!(r.count, Some(576));
}

#[test]
fn shipped_unique_latin_instances_have_their_recorded_solution() {
    let files = dataset_files("latin-unique");
    assert!(!files.is_empty());
    for (name, text) in files {
        assert_unique::<Latin>(&name, &text);
    }
}

#[test]
fn generated_quasigroups_with_holes_complete_and_verify() {
    for seed in 1..=3 {
        let inst = generate(20, 0.42, seed);
        let cfg = inst
            .default_config()
            .limits(Limits::none().with_nodes(2_000_000));
        let r = inst.solve(&cfg, Mode::First).unwrap();
        assert_eq!(r.outcome, Outcome::Solved, "seed {seed}");
        r.verified.unwrap().unwrap();
    }
}

#[test]
fn a_latin_grid_with_clashing_givens_is_invalid_before_search() {
    let inst = Latin::parse("1 1 .\n. . .\n. . .\n").unwrap();
    let e = inst
        .solve(&SearchConfig::default(), Mode::First)
        .err()
        .unwrap();
    assert!(e.to_string().contains("r1c1"), "{e}");
}

#[test]
fn shipped_killer_instances_are_unique_with_their_recorded_solution() {
    let files = dataset_files("killer");
    assert!(!files.is_empty());
    for (name, text) in files {
        assert_unique::<Killer>(&name, &text);
    }
}

#[test]
fn generated_killer_sudoku_is_unique_and_matches_its_source_grid() {
    let (k, grid) = puzzles::killer::generate_unique(11, 5).unwrap();
    let r = k.solve(&k.default_config(), Mode::Count(2)).unwrap();
    assert_eq!(r.count, Some(1));
    assert_eq!(r.answer.unwrap(), grid);
    assert!(k.cages.len() < 60, "cages were merged: {}", k.cages.len());
}

#[test]
fn every_enumerated_killer_solution_verifies() {
    // Weak clues (each row split in three 3-cell cages) leave many solutions: all the first 300 must verify.
    let grid = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let g: Vec<u8> = grid.bytes().map(|b| b - b'0').collect();
    let mut text = String::new();
    for r in 0..9 {
        for b in 0..3 {
            let cells: Vec<usize> = (0..3).map(|j| r * 9 + b * 3 + j).collect();
            let sum: u32 = cells.iter().map(|&c| u32::from(g[c])).sum();
            text.push_str(&sum.to_string());
            for c in cells {
                text.push_str(&format!(" r{}c{}", c / 9 + 1, c % 9 + 1));
            }
            text.push('\n');
        }
    }
    let k = Killer::parse(&text).unwrap();
    let enc = k.encode().unwrap();
    let mut solver = csp_core::Solver::new(&enc.problem, k.default_config());
    let mut n = 0;
    solver.for_each_solution(&enc.assumptions, |s| {
        k.verify(&k.decode(s)).unwrap();
        n += 1;
        if n == 300 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(n, 300);
}

#[test]
fn shipped_kenken_instances_are_unique_with_their_recorded_solution() {
    let files = dataset_files("kenken");
    assert!(!files.is_empty());
    for (name, text) in files {
        assert_unique::<KenKen>(&name, &text);
    }
}

#[test]
fn generated_kenken_is_unique_and_matches_its_source_square() {
    for (n, seed) in [(4, 1), (6, 2)] {
        let (k, grid) = puzzles::kenken::generate_unique(n, seed, 4).unwrap();
        let r = k.solve(&k.default_config(), Mode::Count(2)).unwrap();
        assert_eq!(r.count, Some(1));
        assert_eq!(r.answer.unwrap(), grid);
    }
}

/// All 576 Latin squares of order 4, by brute force.
fn all_latin_squares_4() -> Vec<Vec<usize>> {
    let perms: Vec<Vec<usize>> = {
        let mut out = Vec::new();
        for code in 0..256usize {
            let p: Vec<usize> = (0..4).map(|i| code >> (2 * i) & 3).map(|v| v + 1).collect();
            let mut s = p.clone();
            s.sort_unstable();
            s.dedup();
            if s.len() == 4 {
                out.push(p);
            }
        }
        out
    };
    let mut squares = Vec::new();
    for a in &perms {
        for b in &perms {
            for c in &perms {
                for d in &perms {
                    let g: Vec<usize> = [a, b, c, d]
                        .iter()
                        .flat_map(|r| r.iter().copied())
                        .collect();
                    if (0..4).all(|col| {
                        let mut s: Vec<usize> = (0..4).map(|r| g[r * 4 + col]).collect();
                        s.sort_unstable();
                        s.dedup();
                        s.len() == 4
                    }) {
                        squares.push(g);
                    }
                }
            }
        }
    }
    squares
}

#[test]
fn kenken_counts_match_brute_force_on_random_4x4_cages() {
    let squares = all_latin_squares_4();
    assert_eq!(squares.len(), 576);
    for seed in 0..40u64 {
        let mut rng = Rng::new(seed);
        let source = random_latin_square(4, &mut rng);
        // Random cages with random operations; no uniqueness demanded, so counts vary.
        let cages: Vec<Cage<Clue>> = grow_cages(
            4,
            1 + (seed as usize % 4),
            1,
            &mut rng,
            |rng, cells| {
                let vals: Vec<u64> = cells.iter().map(|&c| source[c] as u64).collect();
                Some(match vals[..] {
                    [v] => Clue {
                        target: v,
                        op: Op::Given,
                    },
                    [a, b] if rng.below_hi32(2) == 0 => Clue {
                        target: a.abs_diff(b),
                        op: Op::Sub,
                    },
                    _ if rng.below_hi32(2) == 0 => Clue {
                        target: vals.iter().product(),
                        op: Op::Mul,
                    },
                    _ => Clue {
                        target: vals.iter().sum(),
                        op: Op::Add,
                    },
                })
            },
            |_| Ok(true),
        )
        .unwrap();
        let inst = KenKen { n: 4, cages };
        let expected = squares
            .iter()
            .filter(|g| puzzles::kenken::verify_grid(&inst, g).is_ok())
            .count() as u64;
        let r = inst
            .solve(&SearchConfig::default(), Mode::Count(u64::MAX))
            .unwrap();
        assert_eq!(r.count, Some(expected), "seed {seed}:\n{}", inst.to_text());
        assert!(expected >= 1);
    }
}
