//! Tests of the mask solvers, the generator's per-size solve ([`solve_cells`], here `solve`) and the registry's
//! `fast` entry against an independent checker and a plain DFS counter written here.
#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use csp_core::rng::Rng;
use csp_core::{LimitKind, Limits, Outcome};

use super::dispatch::Path;
use super::{solve9, solve9_band, solve9_triad, solve9_triad_portable, solve_generic, InputError};
use crate::generate::solve_cells as solve;

/// Proper 9x9 puzzles (one solution each): the classic textbook one, then hard ones from public benchmark lists
/// (forum hardest, magictour top1465, 17-clue).
const PROPER: &[&str] = &[
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
    "..34...8.......1.37........2...9.......5..8...6...7.4...51....8.7...5...9...62.5.",
    ".................1.....2.3......45.6..3.......17...8.....16......8....4..6.5..2..",
    ".................1..2..3.4......2.....4.5....16......7...7.4.....8...32..9.1.....",
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
];

/// Puzzles with two or more solutions (the first three from serg_benchmark, then an empty grid).
const MULTIPLE: &[&str] = &[
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
    "8.........95.......76.........428967...573412...691583.....4196....3.748...8..235",
    "8.........95.......76.........426798...571432...893165....5.916...9.8247......583",
    ".................................................................................",
];

/// Puzzles with no solution: clashing givens (row, column, box), and ones whose givens do not clash but which
/// cannot be completed.
const NONE: &[&str] = &[
    "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "53..7....5..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "53..7....6..195....95....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    // Row 1 needs a 9 but every empty cell of row 1 sees a 9.
    "12345678.........9...............................................................",
    // Cell r1c1 must be 1 (its row holds 2..9) but its column holds a 1.
    ".23456789...........................1............................................",
    // The classic puzzle with r1c1 changed from 5 to 2: no clash, no solution.
    "23..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
];

fn parse(line: &str) -> Vec<u8> {
    line.chars()
        .map(|ch| match ch {
            '.' | '0' => 0,
            '1'..='9' => ch as u8 - b'0',
            'A'..='Z' => ch as u8 - b'A' + 10,
            _ => panic!("bad fixture character {ch:?}"),
        })
        .collect()
}

fn cells81(line: &str) -> [u8; 81] {
    parse(line).try_into().unwrap()
}

/// The 9x9 puzzles of the shipped `datasets/` files `files`: each line whose first token has 81 symbols (comment
/// lines skipped), as cells.
pub(super) fn shipped_9x9(files: &[&str]) -> Vec<[u8; 81]> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets");
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in text.lines() {
            let token = line.split_whitespace().next().unwrap_or("");
            if token.len() == 81 && !line.starts_with('#') {
                out.push(cells81(token));
            }
        }
    }
    out
}

/// Independent check: same length, every given kept, every row, column and box a permutation of 1..=N.
pub(super) fn verify(box_size: usize, givens: &[u8], solution: &[u8]) -> bool {
    let n = box_size;
    let size = n * n;
    if solution.len() != size * size || givens.len() != size * size {
        return false;
    }
    if givens.iter().zip(solution).any(|(&g, &s)| g != 0 && g != s) {
        return false;
    }
    let house_ok = |cells: &mut dyn Iterator<Item = usize>| {
        let mut seen = vec![false; size + 1];
        for c in cells {
            let v = solution[c] as usize;
            if v == 0 || v > size || seen[v] {
                return false;
            }
            seen[v] = true;
        }
        true
    };
    (0..size).all(|i| {
        let (r0, c0) = ((i / n) * n, (i % n) * n);
        house_ok(&mut (0..size).map(|k| i * size + k))
            && house_ok(&mut (0..size).map(|k| k * size + i))
            && house_ok(&mut (0..size).map(|k| (r0 + k / n) * size + c0 + k % n))
    })
}

/// Plain DFS counter, independent of the solvers under test: fill the empty cell with the fewest legal values
/// (legality by scanning its row, column and box), try each value, count complete grids up to `limit`.
pub(super) fn dfs_count(box_size: usize, givens: &[u8], limit: u64) -> u64 {
    fn legal(n: usize, g: &[u8], cell: usize) -> Vec<u8> {
        let size = n * n;
        let (r, c) = (cell / size, cell % size);
        let (r0, c0) = ((r / n) * n, (c / n) * n);
        (1..=size as u8)
            .filter(|&v| {
                (0..size).all(|k| {
                    g[r * size + k] != v
                        && g[k * size + c] != v
                        && g[(r0 + k / n) * size + c0 + k % n] != v
                })
            })
            .collect()
    }
    fn go(n: usize, g: &mut Vec<u8>, limit: u64, count: &mut u64) {
        let mut best: Option<(usize, Vec<u8>)> = None;
        for cell in 0..g.len() {
            if g[cell] == 0 {
                let vals = legal(n, g, cell);
                if best.as_ref().is_none_or(|(_, b)| vals.len() < b.len()) {
                    best = Some((cell, vals));
                }
            }
        }
        let Some((cell, vals)) = best else {
            *count += 1;
            return;
        };
        for v in vals {
            g[cell] = v;
            go(n, g, limit, count);
            if *count >= limit {
                break;
            }
        }
        g[cell] = 0;
    }
    // Clashing givens: no solution (the DFS only checks the cells it fills).
    let size = box_size * box_size;
    let mut g = givens.to_vec();
    for cell in 0..g.len() {
        let v = g[cell];
        if v != 0 {
            g[cell] = 0;
            let ok = legal(box_size, &g, cell).contains(&v);
            g[cell] = v;
            if !ok {
                return 0;
            }
        }
    }
    debug_assert_eq!(g.len(), size * size);
    let mut count = 0;
    go(box_size, &mut g, limit, &mut count);
    count
}

/// Checks one 9x9 puzzle with both solvers in both modes against the expected count (capped at 2).
fn check9(line: &str, expected: u64) {
    let givens = cells81(line);
    for limit in [1, 2] {
        let want = expected.min(limit);
        let fast = solve9(&givens, limit, &Limits::none()).unwrap();
        let generic = solve_generic(3, &givens, limit, &Limits::none()).unwrap();
        let triad = solve9_triad(&givens, limit, &Limits::none()).unwrap();
        for (name, outcome, count, solution) in [
            (
                "triad9",
                triad.outcome,
                triad.count,
                triad.solution.map(Vec::from),
            ),
            (
                "band9",
                fast.outcome,
                fast.count,
                fast.solution.map(Vec::from),
            ),
            ("generic", generic.outcome, generic.count, generic.solution),
        ] {
            assert_eq!(count, want, "{name} count, limit {limit}, puzzle {line}");
            let want_outcome = if want == 0 {
                Outcome::Unsatisfiable
            } else {
                Outcome::Solved
            };
            assert_eq!(outcome, want_outcome, "{name} outcome, puzzle {line}");
            match solution {
                Some(s) => assert!(
                    verify(3, &givens, &s),
                    "{name} returned a wrong solution for {line}"
                ),
                None => assert_eq!(want, 0, "{name} found no solution for {line}"),
            }
        }
    }
}

#[test]
fn proper_puzzles_have_exactly_one_verified_solution() {
    for line in PROPER {
        check9(line, 1);
    }
}

#[test]
fn multi_solution_puzzles_count_two() {
    for line in MULTIPLE {
        check9(line, 2);
    }
}

#[test]
fn clashing_or_dead_puzzles_are_unsatisfiable() {
    for line in NONE {
        assert_eq!(
            dfs_count(3, &cells81(line), 1),
            0,
            "fixture {line} should have no solution"
        );
        check9(line, 0);
    }
}

#[test]
fn the_oracle_agrees_with_the_fixture_counts() {
    for line in PROPER.iter().take(2) {
        assert_eq!(dfs_count(3, &cells81(line), 2), 1);
    }
    assert_eq!(dfs_count(3, &cells81(MULTIPLE[0]), 2), 2);
}

#[test]
fn counting_all_solutions_of_a_small_multi_solution_puzzle_matches_the_oracle() {
    // The classic puzzle with its first row cleared.
    let mut givens = cells81(PROPER[0]);
    givens[..9].fill(0);
    givens[9..18].fill(0);
    let want = dfs_count(3, &givens, u64::MAX);
    assert!(want > 2);
    assert_eq!(solve9(&givens, 0, &Limits::none()).unwrap().count, want);
    assert_eq!(
        solve9_triad(&givens, 0, &Limits::none()).unwrap().count,
        want
    );
    assert_eq!(
        solve_generic(3, &givens, 0, &Limits::none()).unwrap().count,
        want
    );
}

#[test]
fn a_node_limit_reports_limit_not_unsatisfiable() {
    // A hard puzzle needs more than one node.
    let givens = cells81(PROPER[1]);
    let limits = Limits::none().with_nodes(1);
    let r = solve9(&givens, 2, &limits).unwrap();
    assert_eq!(r.outcome, Outcome::Limit(LimitKind::Nodes));
    let r = solve9_triad(&givens, 2, &limits).unwrap();
    assert_eq!(r.outcome, Outcome::Limit(LimitKind::Nodes));
    let r = solve_generic(3, &givens, 2, &limits).unwrap();
    assert_eq!(r.outcome, Outcome::Limit(LimitKind::Nodes));
}

#[test]
fn a_raised_cancel_flag_stops_the_search() {
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits::none().with_cancel(flag);
    // The empty grid counted exhaustively would never finish; the flag is read every 1024 nodes.
    let r = solve9(&[0; 81], 0, &limits).unwrap();
    assert_eq!(r.outcome, Outcome::Limit(LimitKind::Cancelled));
    assert!(r.count > 0);
    let r = solve9_triad(&[0; 81], 0, &limits).unwrap();
    assert_eq!(r.outcome, Outcome::Limit(LimitKind::Cancelled));
    assert!(r.count > 0);
}

#[test]
fn stats_count_guesses_nodes_and_depth() {
    let r = solve9(&cells81(PROPER[1]), 2, &Limits::none()).unwrap();
    assert!(r.stats.guesses > 0);
    assert!(
        r.stats.nodes >= r.stats.guesses * 2,
        "every guess tries at least two values when counting to 2"
    );
    assert!(r.stats.max_depth > 0);
    assert_eq!(r.stats.solutions, 1);
    let easy = solve9(&cells81(PROPER[0]), 2, &Limits::none()).unwrap();
    assert_eq!(easy.stats.guesses, 0, "the classic puzzle falls to singles");
    let r = solve9_triad(&cells81(PROPER[1]), 2, &Limits::none()).unwrap();
    assert!(r.stats.guesses > 0);
    assert_eq!(
        r.stats.nodes,
        r.stats.guesses * 2,
        "every triad guess is a binary split, both sides tried when counting to 2"
    );
    assert!(r.stats.max_depth > 0);
    assert_eq!(r.stats.solutions, 1);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let mut givens = [0u8; 81];
    givens[10] = 10;
    // A legal 9 before it: the error names the first cell above 9, not the first 9.
    givens[3] = 9;
    assert_eq!(
        solve9(&givens, 1, &Limits::none()),
        Err(InputError::BadValue {
            cell: 10,
            value: 10,
            size: 9
        })
    );
    assert_eq!(
        solve9_triad(&givens, 1, &Limits::none()),
        Err(InputError::BadValue {
            cell: 10,
            value: 10,
            size: 9
        })
    );
    assert!(matches!(
        solve(3, &[0; 80], 1, &Limits::none()),
        Err(InputError::BadLength {
            expected: 81,
            found: 80
        })
    ));
    assert!(matches!(
        solve(7, &[0; 2401], 1, &Limits::none()),
        Err(InputError::BadBoxSize(7))
    ));
    assert!(matches!(
        solve(2, &[5; 16], 1, &Limits::none()),
        Err(InputError::BadValue { .. })
    ));
    let msg = solve9(&givens, 1, &Limits::none()).unwrap_err().to_string();
    assert!(msg.contains("r2c2"), "{msg}");
}

#[test]
fn every_input_error_message_names_what_is_wrong_and_where() {
    // Cells off the diagonal (row != column), so a row computed from the wrong operation shows.
    let mut givens = [0u8; 81];
    givens[7] = 12;
    assert_eq!(
        solve9(&givens, 1, &Limits::none()).unwrap_err().to_string(),
        "cell r1c8 holds 12, above the largest value 9"
    );
    let mut givens = [0u8; 256];
    givens[38] = 17;
    assert_eq!(
        solve(4, &givens, 1, &Limits::none())
            .unwrap_err()
            .to_string(),
        "cell r3c7 holds 17, above the largest value 16"
    );
    assert_eq!(
        solve(3, &[0; 80], 1, &Limits::none())
            .unwrap_err()
            .to_string(),
        "expected 81 cells, found 80"
    );
    // The shared input check (the 9x9 path above checks the length itself).
    assert_eq!(
        solve_generic(3, &[0; 80], 1, &Limits::none())
            .unwrap_err()
            .to_string(),
        "expected 81 cells, found 80"
    );
    assert_eq!(
        solve(4, &[0; 255], 1, &Limits::none())
            .unwrap_err()
            .to_string(),
        "expected 256 cells, found 255"
    );
    assert_eq!(
        solve(7, &[0; 2401], 1, &Limits::none())
            .unwrap_err()
            .to_string(),
        "box size 7 is not supported (2..=6)"
    );
}

/// A solved grid of box size n from the test grid generator ([`crate::fuzz_targets::random_solved_grid`]), seeded by
/// `rng`.
fn random_grid(n: usize, rng: &mut Rng) -> Vec<u8> {
    crate::fuzz_targets::random_solved_grid(n, rng.next_u64())
        .cells()
        .to_vec()
}

/// A random solved 9x9 grid, as cells.
pub(super) fn random_grid9(rng: &mut Rng) -> [u8; 81] {
    let mut g = [0u8; 81];
    g.copy_from_slice(&random_grid(3, rng));
    g
}

#[test]
fn random_grids_are_valid_solutions() {
    let mut rng = Rng::new(7);
    for n in 2..=5 {
        let g = random_grid(n, &mut rng);
        assert!(verify(n, &vec![0; g.len()], &g), "box size {n}");
    }
}

/// Random 9x9 puzzles: a random grid with random holes (many solutions when there are many holes), sometimes with
/// one given changed to another digit (often a clash or a dead end). Both solvers must match the DFS counter in
/// both modes, and every solution must verify.
#[test]
fn random_9x9_puzzles_count_like_plain_dfs() {
    let mut rng = Rng::new(0x5eed_0001);
    for _ in 0..300 {
        let mut g = random_grid(3, &mut rng);
        let holes = 40 + rng.below_mod(25) as usize;
        for _ in 0..holes {
            g[rng.below_mod(81) as usize] = 0;
        }
        if rng.below_mod(3) == 0 {
            let cell = rng.below_mod(81) as usize;
            g[cell] = 1 + rng.below_mod(9) as u8;
        }
        let want = dfs_count(3, &g, 2);
        let line: String = g
            .iter()
            .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
            .collect();
        check9(&line, want);
    }
}

/// The same for the generic solver on 4x4 and 16x16 boards (and 25x25 with few holes).
#[test]
fn random_other_sizes_count_like_plain_dfs() {
    let mut rng = Rng::new(0x5eed_0002);
    for (n, rounds, max_holes) in [(2, 300, 14), (4, 20, 120), (5, 4, 150)] {
        for _ in 0..rounds {
            let size = n * n;
            let mut g = random_grid(n, &mut rng);
            let holes = max_holes / 2 + rng.below_mod((max_holes / 2) as u64) as usize;
            for _ in 0..holes {
                g[rng.below_mod((size * size) as u64) as usize] = 0;
            }
            if rng.below_mod(3) == 0 {
                let cell = rng.below_mod((size * size) as u64) as usize;
                g[cell] = 1 + rng.below_mod(size as u64) as u8;
            }
            let want = dfs_count(n, &g, 2);
            for limit in [1, 2] {
                let r = solve(n, &g, limit, &Limits::none()).unwrap();
                assert_eq!(
                    r.count,
                    want.min(limit),
                    "box size {n}, limit {limit}, puzzle {g:?}"
                );
                let want_outcome = if want == 0 {
                    Outcome::Unsatisfiable
                } else {
                    Outcome::Solved
                };
                assert_eq!(r.outcome, want_outcome);
                if let Some(s) = r.solution {
                    assert!(verify(n, &g, &s), "box size {n}: wrong solution for {g:?}");
                }
            }
        }
    }
}

#[test]
fn an_empty_36x36_board_is_solved_and_verified() {
    let givens = vec![0u8; 36 * 36];
    let r = solve(6, &givens, 1, &Limits::none().with_nodes(1_000_000)).unwrap();
    assert_eq!(r.outcome, Outcome::Solved);
    assert!(verify(6, &givens, &r.solution.unwrap()));
}

#[test]
fn the_registry_entry_solves_every_size_and_the_crate_verifier_accepts_it() {
    use crate::registry::find;
    use crate::solver::Request;
    use crate::{verify, Board};
    use csp_core::Outcome;
    let info = find("fast").unwrap();
    let mut solver = (info.make)();
    let mut rng = Rng::new(0x5eed_0003);
    for n in 2..=6 {
        assert!((info.supports)(n));
        let mut cells = random_grid(n, &mut rng);
        let side = n * n;
        for _ in 0..side * side / 2 {
            cells[rng.below_mod((side * side) as u64) as usize] = 0;
        }
        let board = Board::from_cells(n, cells).unwrap();
        let r = solver.solve(&board, &Request::count_up_to(2));
        assert_eq!(r.status, Outcome::Solved, "box size {n}");
        assert!(r.count >= 1);
        verify::verify(&board, r.solution.as_ref().unwrap()).unwrap();
    }
}

#[test]
fn the_registry_entry_reports_clashes_as_unsatisfiable_and_limits_as_limit() {
    use crate::registry::find;
    use crate::solver::Request;
    use crate::Board;
    use csp_core::Outcome;
    let mut solver = (find("fast").unwrap().make)();
    let clash = Board::from_cells(3, parse(NONE[0])).unwrap();
    let r = solver.solve(&clash, &Request::first());
    assert_eq!((r.status, r.count), (Outcome::Unsatisfiable, 0));
    let empty = Board::empty(4).unwrap();
    let req = Request::count_up_to(u64::MAX).with_limits(Limits::none().with_nodes(50));
    let r = solver.solve(&empty, &req);
    assert!(r.status.is_limit());
    assert_eq!(r.stats.nodes, 50);
}

#[test]
fn boards_of_25x25_and_36x36_are_solved_through_the_kernel_with_their_givens_kept() {
    for b in [5usize, 6] {
        let n = b * b;
        // The pattern grid (b (r mod b) + r / b + c) mod n, every third cell blanked.
        let full: Vec<u8> = (0..n * n)
            .map(|i| ((b * (i / n % b) + i / n / b + i % n) % n) as u8 + 1)
            .collect();
        let givens: Vec<u8> = full
            .iter()
            .enumerate()
            .map(|(i, &v)| if i % 3 == 0 { 0 } else { v })
            .collect();
        let r = solve(b, &givens, 1, &Limits::none().with_nodes(200_000)).expect("valid input");
        assert_eq!(r.outcome, Outcome::Solved, "box {b}");
        let s = r.solution.expect("solved");
        for (i, (&g, &v)) in givens.iter().zip(&s).enumerate() {
            assert!(g == 0 || g == v, "given {i} kept");
        }
        let board = crate::Board::from_cells(b, s).expect("values 1..=n");
        let puzzle = crate::Board::from_cells(b, givens.clone()).expect("values 0..=n");
        assert!(crate::verify::verify(&puzzle, &board).is_ok(), "box {b}");

        let mut bad = givens.clone();
        bad[7] = n as u8 + 1;
        assert!(matches!(
            solve(b, &bad, 1, &Limits::none()),
            Err(InputError::BadValue { cell: 7, .. })
        ));
        assert!(matches!(
            solve(b, &givens[1..], 1, &Limits::none()),
            Err(InputError::BadLength { .. })
        ));
    }
}

/// The whole 9x9 solver on random puzzles from the test grid generator (seeded) that are unique, multi-solution
/// (many holes) or unsatisfiable (a given changed, or an extra clashing given), and on every 9x9 line the project
/// ships: counts to one and to two agree with the generic mask solver, every solution verifies, and the search
/// to two finds the same first solution as the search to one (the same search, stopped later).
#[test]
fn the_9x9_solver_counts_as_the_generic_one_and_its_solutions_verify_on_random_and_shipped_puzzles()
{
    let both = |givens: &[u8; 81], kinds: &mut [usize; 3]| {
        let first = solve9(givens, 1, &Limits::none()).unwrap();
        let two = solve9(givens, 2, &Limits::none()).unwrap();
        assert_eq!(first.solution, two.solution, "puzzle {givens:?}");
        assert_eq!(first.count, two.count.min(1), "puzzle {givens:?}");
        if let Some(s) = &two.solution {
            assert!(verify(3, givens, s), "wrong solution for {givens:?}");
        }
        let generic = solve_generic(3, givens, 2, &Limits::none()).unwrap();
        assert_eq!(two.count, generic.count, "count to two, {givens:?}");
        assert_eq!(two.outcome, generic.outcome, "outcome, {givens:?}");
        for limit in [1, 2] {
            let triad = solve9_triad(givens, limit, &Limits::none()).unwrap();
            assert_eq!(
                triad.count,
                two.count.min(limit),
                "triad9 count, {givens:?}"
            );
            assert_eq!(triad.outcome, two.outcome, "triad9 outcome, {givens:?}");
            if let Some(s) = &triad.solution {
                assert!(verify(3, givens, s), "triad9 wrong solution for {givens:?}");
            }
        }
        kinds[two.count as usize] += 1;
    };
    let mut rng = Rng::new(0x16_5ca1a2);
    let mut kinds = [0usize; 3];
    for _ in 0..3000 {
        let mut g: [u8; 81] = random_grid(3, &mut rng).try_into().unwrap();
        let holes = 30 + rng.below_mod(40) as usize;
        for _ in 0..holes {
            g[rng.below_mod(81) as usize] = 0;
        }
        match rng.below_mod(4) {
            // A given changed to another digit: often a clash, else usually a dead end.
            0 => {
                let cell = rng.below_mod(81) as usize;
                g[cell] = 1 + rng.below_mod(9) as u8;
            }
            // A blank filled with a digit of its row: a clash.
            1 => {
                if let Some(blank) = g.iter().position(|&v| v == 0) {
                    let row = blank / 9;
                    g[blank] = (0..9).map(|c| g[row * 9 + c]).max().unwrap_or(1).max(1);
                }
            }
            _ => {}
        }
        both(&g, &mut kinds);
    }
    let shipped = shipped_9x9(&[
        "famous/top95.txt",
        "generated/9x9-easy.txt",
        "generated/9x9-hard.txt",
        "generated/9x9-minimal.txt",
    ]);
    assert!(
        shipped.len() > 1000,
        "only {} shipped 9x9 lines found",
        shipped.len()
    );
    for g in &shipped {
        both(g, &mut kinds);
    }
    assert!(
        kinds.iter().all(|&k| k >= 300),
        "unsatisfiable / unique / multiple: {kinds:?}"
    );
}

/// The triad solver's two compiled copies (the feature-compiled one on a machine that has the features, which
/// this test reports, and the portable one) return identical results, statistics included, on random unique,
/// multi-solution and unsatisfiable puzzles and on the shipped 9x9 files, with solution limits 1, 2 and 0 (all;
/// only on puzzles with few holes).
#[test]
fn the_triad_solvers_feature_and_portable_copies_agree_on_answers_counts_and_guesses() {
    eprintln!(
        "copy in use: {:?}",
        super::dispatch::choose(super::dispatch::Path::Best, super::dispatch::detect())
    );
    let same = |givens: &[u8; 81], limits: &[u64]| {
        for &limit in limits {
            let best = solve9_triad(givens, limit, &Limits::none()).unwrap();
            let portable = solve9_triad_portable(givens, limit, &Limits::none()).unwrap();
            assert_eq!(best, portable, "limit {limit}, puzzle {givens:?}");
        }
    };
    random_and_shipped_9x9(0x16_7a1ad, 2000, same);
}

/// band9's two compiled copies (`popcnt,bmi1,bmi2` on a machine that has them, which this test reports, and the
/// portable one) return identical results, statistics included, on random unique, multi-solution and
/// unsatisfiable puzzles and on the shipped 9x9 files, with solution limits 1, 2 and 0 (all; only on puzzles with
/// few holes): band9 alone, and `fast`'s route with every open root kept in band9 (the threshold above any count).
#[test]
fn band9s_bit_and_portable_copies_agree_on_answers_counts_and_guesses() {
    eprintln!(
        "band9's bit copy in use: {}",
        super::dispatch::band_bits(Path::Best, super::dispatch::detect())
    );
    let same = |givens: &[u8; 81], limits: &[u64]| {
        for &limit in limits {
            for route in [None, Some((u32::MAX, Path::Portable))] {
                let solve =
                    |path| super::dispatch::solve_band(givens, limit, &Limits::none(), route, path);
                let portable = solve(Path::Portable);
                assert_eq!(
                    solve(Path::Best),
                    portable,
                    "route {route:?}, limit {limit}, puzzle {givens:?}"
                );
                if let Some(s) = &portable.solution {
                    assert!(verify(3, givens, s), "wrong solution for {givens:?}");
                }
            }
        }
    };
    random_and_shipped_9x9(0xb17_c0b1, 1500, same);
}

/// Runs `check` on `rounds` random 9x9 puzzles from `seed` (a random grid with 25-74 holes, unique or with many
/// solutions, and every fourth one with a given changed, so often unsatisfiable), with the solution limits 1, 2
/// and 0 (all; only with fewer than 45 holes), then on every shipped hard 9x9 line with the limits 1 and 2.
fn random_and_shipped_9x9(seed: u64, rounds: usize, check: impl Fn(&[u8; 81], &[u64])) {
    let mut rng = Rng::new(seed);
    for round in 0..rounds {
        let mut g: [u8; 81] = random_grid(3, &mut rng).try_into().unwrap();
        let holes = 25 + rng.below_mod(50) as usize;
        for _ in 0..holes {
            g[rng.below_mod(81) as usize] = 0;
        }
        if round % 4 == 0 {
            let cell = rng.below_mod(81) as usize;
            g[cell] = 1 + rng.below_mod(9) as u8;
        }
        let limits: &[u64] = if holes < 45 { &[1, 2, 0] } else { &[1, 2] };
        check(&g, limits);
    }
    let shipped = shipped_9x9(&[
        "famous/top95.txt",
        "generated/9x9-hard.txt",
        "generated/9x9-minimal.txt",
    ]);
    assert!(
        shipped.len() > 500,
        "only {} shipped 9x9 lines found",
        shipped.len()
    );
    for g in &shipped {
        check(g, &[1, 2]);
    }
}

/// Random 9x9 puzzles with few enough holes to count every solution (and some made unsatisfiable by one changed
/// given), as cells.
fn countable_9x9_puzzles(seed: u64, rounds: usize) -> Vec<[u8; 81]> {
    let mut rng = Rng::new(seed);
    (0..rounds)
        .map(|round| {
            let mut g: [u8; 81] = random_grid(3, &mut rng).try_into().unwrap();
            let holes = 40 + rng.below_mod(20) as usize;
            for _ in 0..holes {
                g[rng.below_mod(81) as usize] = 0;
            }
            if round % 4 == 0 {
                let cell = rng.below_mod(81) as usize;
                g[cell] = 1 + rng.below_mod(9) as u8;
            }
            g
        })
        .collect()
}

/// Checks the shape of an exhaustive search tree against its statistics: every vertex is the root or a node (a
/// value tried), every leaf is a solution or a fail, every inner vertex is a guess with at least two children, and
/// the depth is at most the number of guesses and nonzero exactly when something was guessed.
fn assert_the_statistics_describe_a_search_tree(name: &str, stats: &csp_core::Stats, count: u64) {
    assert_eq!(
        stats.solutions, count,
        "{name}: solutions in the statistics"
    );
    assert_eq!(
        stats.nodes + 1,
        stats.guesses + count + stats.fails,
        "{name}: vertices (root + nodes) = inner (guesses) + leaves (solutions + fails), {stats:?}"
    );
    assert!(
        stats.nodes >= 2 * stats.guesses,
        "{name}: every guess tries at least two values, {stats:?}"
    );
    assert!(
        stats.max_depth <= stats.guesses && (stats.max_depth == 0) == (stats.guesses == 0),
        "{name}: depth against guesses, {stats:?}"
    );
}

/// Counting every solution (limit 0) searches the whole tree, so the statistics must add up as a tree's do
/// (`nodes + 1 = guesses + solutions + fails`) whatever the branching rule; the count must match the plain DFS.
/// A lost `fails += 1`, a guess counted twice or a wrong depth shows here, where the answers alone would not.
#[test]
fn counting_every_solution_gives_statistics_that_add_up_as_a_search_tree_does() {
    let mut searched = [0u64; 2];
    for g in countable_9x9_puzzles(0x5eed_7ee5, 300) {
        let want = dfs_count(3, &g, u64::MAX);
        let fast = solve9(&g, 0, &Limits::none()).unwrap();
        assert_eq!(fast.count, want, "band9 count of all, {g:?}");
        assert_the_statistics_describe_a_search_tree("band9", &fast.stats, fast.count);
        let generic = solve_generic(3, &g, 0, &Limits::none()).unwrap();
        assert_eq!(generic.count, want, "generic count of all, {g:?}");
        assert_the_statistics_describe_a_search_tree("generic", &generic.stats, generic.count);
        searched[0] += fast.stats.guesses;
        searched[1] += u64::from(fast.stats.fails > 0);
    }
    assert!(
        searched[0] > 200 && searched[1] > 50,
        "the puzzles need guessing and failing: {searched:?}"
    );
}

/// Givens that repeat a digit in a house are refused before any search: unsatisfiable, no node, one fail, in every
/// combination of bands (clashes at the same cell of two or three bands included), across bands (a column) and
/// inside a box. `from_givens` reports the clash itself, but the first band update would too (placing the second
/// given leaves a row without the digit), so this pins the outcome and statistics, not which of the two saw it
/// (see docs/reliability.md, the eleventh session's band9 run).
#[test]
fn clashing_givens_in_any_combination_of_bands_are_refused_at_the_root() {
    // Bit 1 of a band clashes when its row holds one digit at columns 0 and 1; each band gets its own digit so
    // no column is shared.
    let clash_in = |bands: &[usize]| {
        let mut g = [0u8; 81];
        for &b in bands {
            let digit = 3 + b as u8;
            g[27 * b] = digit;
            g[27 * b + 1] = digit;
        }
        g
    };
    let mut cases: Vec<(String, [u8; 81])> = Vec::new();
    for bands in [&[0][..], &[1], &[2], &[0, 1], &[0, 2], &[1, 2], &[0, 1, 2]] {
        cases.push((format!("row clash in bands {bands:?}"), clash_in(bands)));
    }
    // A column clash across bands and a box clash inside one, on a cleared grid.
    let mut col = [0u8; 81];
    col[4] = 9;
    col[58] = 9;
    cases.push(("column clash across bands 0 and 2".into(), col));
    let mut bx = [0u8; 81];
    bx[30] = 2;
    bx[40] = 2;
    cases.push(("box clash in band 1".into(), bx));
    for (what, g) in &cases {
        assert_eq!(dfs_count(3, g, 1), 0, "{what}: the fixture clashes");
        for limit in [1, 2, 0] {
            let r = solve9(g, limit, &Limits::none()).unwrap();
            assert_eq!(
                (r.outcome, r.count, r.solution),
                (Outcome::Unsatisfiable, 0, None),
                "{what}"
            );
            assert_eq!(
                (
                    r.stats.nodes,
                    r.stats.guesses,
                    r.stats.fails,
                    r.stats.max_depth
                ),
                (0, 0, 1, 0),
                "{what}: refused at the root"
            );
        }
    }
}

/// `[solutions, nodes, guesses, fails, sum of the maximum depths]` of `solve` summed over `puzzles` (the pinned
/// figures of the statistics tests, here and in `triad9.rs`).
pub(super) fn summed_stats(
    puzzles: &[[u8; 81]],
    solve: impl Fn(&[u8; 81]) -> (u64, csp_core::Stats),
) -> [u64; 5] {
    let mut sum = [0u64; 5];
    for g in puzzles {
        let (count, s) = solve(g);
        for (acc, x) in sum
            .iter_mut()
            .zip([count, s.nodes, s.guesses, s.fails, s.max_depth])
        {
            *acc += x;
        }
    }
    sum
}

/// band9's search statistics ([`solve9_band`]), summed over the shipped hard puzzles (first solution and count to
/// two) and over random countable ones (every solution), are the figures measured for its propagation and
/// branching rule
/// (`band9.rs`'s module doc, `docs/measurements.md`). The answers do not depend on the rule or on how soon
/// propagation reaches its fixpoint, so a change to either is otherwise invisible to the tests: a weaker
/// elimination, a different branching cell or digit order, a lost hidden single. A deliberate change of the rule
/// changes these figures; update them together with the measurements.
#[test]
fn the_9x9_search_statistics_on_fixed_puzzles_are_the_measured_ones() {
    let total = |puzzles: &[[u8; 81]], limit: u64| {
        summed_stats(puzzles, |g| {
            let r = solve9_band(g, limit, &Limits::none()).unwrap();
            (r.count, r.stats)
        })
    };
    let hard = shipped_9x9(&[
        "famous/top95.txt",
        "generated/9x9-hard.txt",
        "generated/9x9-minimal.txt",
    ]);
    let random = countable_9x9_puzzles(0x5eed_7ee5, 300);
    let got = [total(&hard, 1), total(&hard, 2), total(&random, 0)];
    // [solutions, nodes, guesses, fails, sum of the maximum depths]
    let measured = [
        [795, 3578, 2080, 1498, 1481],
        [795, 5676, 2837, 2839, 1673],
        [443, 419, 209, 67, 146],
    ];
    assert_eq!(
        got,
        measured,
        "first solution, count to two, count of all (hard puzzles: {}, random: {})",
        hard.len(),
        random.len()
    );
}

/// A node limit stops the 9x9 search exactly at that many nodes, with the solutions found so far, whichever other
/// limits are set beside it (a time limit far away, a lowered cancel flag: both make the search check the limits
/// at every node instead of only from the node limit on). The cancel flag is read every 1024 nodes: raised, it
/// stops the search at node 1024, not before.
#[test]
fn a_node_limit_stops_the_9x9_search_at_exactly_that_many_nodes() {
    // The empty grid counted exhaustively never ends by itself.
    let empty = [0u8; 81];
    let far = std::time::Duration::from_secs(3600);
    let lowered = Arc::new(AtomicBool::new(false));
    for max in [1u64, 2, 3, 10, 100, 1023, 1024, 1025, 3000] {
        for (what, limits) in [
            ("nodes only", Limits::none().with_nodes(max)),
            (
                "with a time limit",
                Limits::none().with_nodes(max).with_time(far),
            ),
            (
                "with a cancel flag",
                Limits::none().with_nodes(max).with_cancel(lowered.clone()),
            ),
        ] {
            let r = solve9(&empty, 0, &limits).unwrap();
            assert_eq!(r.outcome, Outcome::Limit(LimitKind::Nodes), "{what}, {max}");
            assert_eq!(r.stats.nodes, max, "{what}: nodes at the limit {max}");
            assert_eq!(r.count, r.stats.solutions, "{what}, {max}");
            assert_eq!(r.count > 0, r.solution.is_some(), "{what}, {max}");
        }
    }
    let raised = Arc::new(AtomicBool::new(true));
    let r = solve9(&empty, 0, &Limits::none().with_cancel(raised.clone())).unwrap();
    assert_eq!(
        (r.outcome, r.stats.nodes),
        (Outcome::Limit(LimitKind::Cancelled), 1024)
    );
    let r = solve9(
        &empty,
        0,
        &Limits::none().with_cancel(raised).with_time(far),
    )
    .unwrap();
    assert_eq!(
        (r.outcome, r.stats.nodes),
        (Outcome::Limit(LimitKind::Cancelled), 1024)
    );
    // A solution limit is not a resource limit: the count reaches it and the outcome is Solved.
    for limit in [1u64, 5, 77] {
        let r = solve9(&empty, limit, &Limits::none()).unwrap();
        assert_eq!((r.outcome, r.count), (Outcome::Solved, limit));
        assert!(verify(3, &empty, &r.solution.unwrap()));
    }
}

/// The generic mask solver's statistics (first solution and count to two on shipped hard puzzles, every solution
/// of random countable ones), as measured. Its answers do not depend on its branching rule (the first open cell
/// with the fewest values) or on how much its hidden singles find, so the answer checks cannot see a weaker
/// elimination or another branching cell; these figures can. A deliberate change of either changes them: update
/// them with it.
#[test]
fn the_generic_mask_search_statistics_on_fixed_puzzles_are_the_measured_ones() {
    let total = |puzzles: &[[u8; 81]], limit: u64| {
        summed_stats(puzzles, |g| {
            let r = solve_generic(3, g, limit, &Limits::none()).unwrap();
            (r.count, r.stats)
        })
    };
    let hard = shipped_9x9(&["famous/top95.txt", "generated/9x9-hard.txt"]);
    let random = countable_9x9_puzzles(0x6e7e_41c5, 200);
    let got = [total(&hard, 1), total(&hard, 2), total(&random, 0)];
    // [solutions, nodes, guesses, fails, sum of the maximum depths]
    let measured = [
        [295, 10144, 5445, 4699, 1481],
        [295, 17904, 8932, 8972, 1555],
        [317, 321, 160, 44, 90],
    ];
    assert_eq!(
        got,
        measured,
        "first solution, count to two, count of all (hard puzzles: {}, random: {})",
        hard.len(),
        random.len()
    );
}

/// The generic solver's buffers (`Scratch`: the geometry of the last box size, the level stack) kept across solves
/// of different sizes give exactly what a fresh solve gives: the geometry is rebuilt whenever the size changes.
#[test]
fn one_generic_scratch_reused_across_box_sizes_gives_the_fresh_results() {
    use super::generic::{solve_with, Scratch};
    let mut rng = Rng::new(0x5c4a_7c11);
    let mut scratch = Scratch::default();
    for n in [3, 2, 3, 4, 2, 4, 3] {
        let mut g = random_grid(n, &mut rng);
        let cells = g.len();
        for _ in 0..cells / 2 {
            g[rng.below_mod(cells as u64) as usize] = 0;
        }
        for limit in [1, 2] {
            let kept = solve_with(&mut scratch, n, &g, limit, &Limits::none()).unwrap();
            let fresh = solve_generic(n, &g, limit, &Limits::none()).unwrap();
            assert_eq!(
                (kept.count, kept.solution, kept.stats),
                (fresh.count, fresh.solution, fresh.stats),
                "box size {n}, limit {limit}"
            );
        }
    }
}

/// triad9 seeded from band9's root (`solve9`'s route for hard roots), forced onto every root band9 leaves open
/// (threshold 0): on random unique, multi-solution and unsatisfiable puzzles and on the shipped 9x9 files, with
/// solution limits 1, 2 and 0 (all; only on puzzles with few holes), it gives band9's outcome and count and a
/// solution the independent checker accepts, and its three compiled copies (portable, AVX2 and the best the
/// machine has) return identical results, statistics included.
#[test]
fn the_seeded_triad_route_answers_as_band9_and_its_copies_agree_on_everything() {
    let check = |givens: &[u8; 81], limits: &[u64]| {
        for &limit in limits {
            let band = solve9_band(givens, limit, &Limits::none()).unwrap();
            let route = |path| {
                super::dispatch::solve_band(givens, limit, &Limits::none(), Some((0, path)), path)
            };
            let portable = route(Path::Portable);
            assert_eq!(
                (portable.outcome, portable.count),
                (band.outcome, band.count),
                "limit {limit}, puzzle {givens:?}"
            );
            assert_eq!(portable.stats.solutions, portable.count);
            if let Some(s) = &portable.solution {
                assert!(verify(3, givens, s), "wrong solution for {givens:?}");
            }
            assert_eq!(portable.count > 0, portable.solution.is_some());
            assert_eq!(
                route(Path::Avx2),
                portable,
                "AVX2 copy, limit {limit}, {givens:?}"
            );
            assert_eq!(
                route(Path::Best),
                portable,
                "best copy, limit {limit}, {givens:?}"
            );
        }
    };
    random_and_shipped_9x9(0x05ee_ded9, 1500, check);
    // Clashing givens and the empty grid (every cell open, a search that never ends by itself, so a node limit).
    for line in NONE {
        check(&cells81(line), &[1, 2, 0]);
    }
    let limited = Limits::none().with_nodes(50);
    let r = super::dispatch::solve_band(&[0; 81], 0, &limited, Some((0, Path::Best)), Path::Best);
    assert_eq!(
        (r.outcome, r.stats.nodes),
        (Outcome::Limit(LimitKind::Nodes), 50)
    );
}
