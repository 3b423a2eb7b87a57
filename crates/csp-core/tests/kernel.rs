//! The group kernel (`EngineKind::Groups`) against the general engine and brute force.
//!
//! The kernel takes models made only of aligned `all_different` groups and promises the general engine's search
//! tree: the same solutions in the same order, and the same nodes, guesses and fails. These tests hold it to that on
//! thousands of random group models (permutation and non-permutation groups, repeated members, groups with more
//! members than values, two components of different widths, wrong and conflicting assumptions), under every
//! strategy the kernel runs, and check every count against enumeration.
#![allow(clippy::unwrap_used)]

use std::collections::HashSet;
use std::ops::ControlFlow;

use csp_core::{
    parallel, EngineKind, Limits, Model, Outcome, Problem, Propagation, Restarts, SearchConfig,
    Solver, ValueOrder, VarId, VarOrder,
};

/// The project's SplitMix64 with the remainder mapping: the same problems on every run.
struct Gen(csp_core::rng::Rng);

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.0.below_mod(n)
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// A random model of aligned `all_different` groups over one or two components (each its own range), with
/// random assumptions; returns the problem, the domains (for brute force) and the assumptions.
fn random_group_model(g: &mut Gen) -> (Problem, Vec<Vec<i64>>, Vec<(VarId, i64)>) {
    let mut m = Model::new();
    let mut doms = Vec::new();
    let mut components: Vec<Vec<VarId>> = Vec::new();
    for _ in 0..g.range(1, 2) {
        let lo = g.range(-2, 3);
        let width = g.range(2, 4);
        let n = g.range(1, 4) as usize;
        let mut vars = Vec::new();
        for _ in 0..n {
            vars.push(m.new_var(lo, lo + width - 1).unwrap());
            doms.push((lo..lo + width).collect::<Vec<i64>>());
        }
        for _ in 0..g.range(0, 4) {
            // Sizes around the width: below (no value forced), equal (a permutation), above (pigeonhole
            // failure); distinct members (a group repeating a variable sends the model to the general engine,
            // tested below).
            let k = g.range(2, (width + 1).min(6)) as usize;
            let mut pool = vars.clone();
            let mut group = Vec::new();
            while group.len() < k && !pool.is_empty() {
                group.push(pool.swap_remove(g.below(pool.len() as u64) as usize));
            }
            if group.len() >= 2 {
                m.all_different(&group).unwrap();
            }
        }
        components.push(vars);
    }
    let all: Vec<VarId> = components.concat();
    let mut assumptions = Vec::new();
    for _ in 0..g.range(0, 2) {
        let x = all[g.below(all.len() as u64) as usize];
        // Mostly a value of the domain, sometimes one outside it.
        assumptions.push((x, g.range(-3, 7)));
    }
    (m.build().unwrap(), doms, assumptions)
}

/// The enumerated solutions (the shared oracle, [`csp_core::fuzz_targets::brute_force`]) that agree with
/// `assumptions`.
fn brute_force(p: &Problem, doms: &[Vec<i64>], assumptions: &[(VarId, i64)]) -> HashSet<Vec<i64>> {
    let mut out = csp_core::fuzz_targets::brute_force(p, doms);
    out.retain(|s| assumptions.iter().all(|&(x, v)| s[x.index()] == v));
    out
}

/// Every strategy the kernel runs (locked candidates on and off).
fn kernel_configs() -> Vec<SearchConfig> {
    let mut out = Vec::new();
    for var in [VarOrder::Input, VarOrder::Mrv] {
        for value in [
            ValueOrder::Ascending,
            ValueOrder::Median,
            ValueOrder::Random,
        ] {
            for prop in [Propagation::ForwardChecking, Propagation::Singles] {
                for restarts in [Restarts::None, Restarts::Luby { scale: 1 }] {
                    for locked in [false, true] {
                        out.push(
                            SearchConfig::default()
                                .var_order(var)
                                .value_order(value)
                                .propagation(prop)
                                .restarts(restarts)
                                .intersections(locked)
                                .seed(7),
                        );
                    }
                }
            }
        }
    }
    out
}

/// All solutions in search order, with the statistics of the enumeration.
fn enumerate(
    solver: &mut Solver<'_>,
    assumptions: &[(VarId, i64)],
) -> (Vec<Vec<i64>>, Outcome, csp_core::Stats) {
    let mut all = Vec::new();
    let (outcome, stats) = solver.for_each_solution(assumptions, |s| {
        all.push(s.values().to_vec());
        ControlFlow::Continue(())
    });
    (all, outcome, stats)
}

#[test]
fn kernel_and_general_engine_search_the_same_tree_and_match_brute_force_on_random_group_models() {
    let mut g = Gen(csp_core::rng::Rng::new(0x6b65_726e));
    let configs = kernel_configs();
    let mut with_solutions = 0;
    for case in 0..1500 {
        let (p, doms, assumptions) = random_group_model(&mut g);
        let truth = brute_force(&p, &doms, &assumptions);
        with_solutions += usize::from(!truth.is_empty());
        for cfg in &configs {
            let mut kernel = Solver::new(&p, cfg.clone());
            let mut general = Solver::new(&p, cfg.clone().generic_engine(true));
            assert_eq!(kernel.engine(), EngineKind::Groups, "case {case}");
            assert_eq!(general.engine(), EngineKind::General64, "case {case}");

            let (ks, ko, kst) = enumerate(&mut kernel, &assumptions);
            let (gs, go, gst) = enumerate(&mut general, &assumptions);
            let ctx = format!("case {case}, {cfg:?}");
            assert_eq!(ks, gs, "solutions and their order, {ctx}");
            assert_eq!(ko, go, "{ctx}");
            assert_eq!(
                (
                    kst.nodes,
                    kst.guesses,
                    kst.fails,
                    kst.max_depth,
                    kst.solutions
                ),
                (
                    gst.nodes,
                    gst.guesses,
                    gst.fails,
                    gst.max_depth,
                    gst.solutions
                ),
                "statistics, {ctx}"
            );
            let found: HashSet<Vec<i64>> = ks.iter().cloned().collect();
            assert_eq!(found.len(), ks.len(), "no solution twice, {ctx}");
            assert_eq!(found, truth, "against brute force, {ctx}");

            // First-solution mode (with restarts where configured) and counting agree with the general engine.
            let kr = kernel.solve(&assumptions);
            let gr = general.solve(&assumptions);
            assert_eq!(kr.outcome, gr.outcome, "{ctx}");
            assert_eq!(kr.solution, gr.solution, "{ctx}");
            assert_eq!(kr.stats.nodes, gr.stats.nodes, "{ctx}");
            assert_eq!(kr.stats.restarts, gr.stats.restarts, "{ctx}");
            if let Some(s) = &kr.solution {
                assert!(truth.contains(s.values()), "{ctx}");
            }
            let kc = kernel.count(&assumptions, 2);
            assert_eq!(kc.count, truth.len().min(2) as u64, "{ctx}");
            assert_eq!(
                kc.stats.nodes,
                general.count(&assumptions, 2).stats.nodes,
                "{ctx}"
            );
        }
    }
    assert!(
        with_solutions > 300,
        "the generator must produce satisfiable models too ({with_solutions})"
    );
}

/// A 9x9 Sudoku model: cell variables in row-major order, rows, columns and boxes as groups.
fn sudoku_model() -> (Problem, Vec<VarId>) {
    let mut m = Model::new();
    let cells: Vec<VarId> = (0..81).map(|_| m.new_var(1, 9).unwrap()).collect();
    for i in 0..9 {
        let row: Vec<VarId> = (0..9).map(|j| cells[i * 9 + j]).collect();
        let col: Vec<VarId> = (0..9).map(|j| cells[j * 9 + i]).collect();
        let bx: Vec<VarId> = (0..9)
            .map(|j| cells[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3])
            .collect();
        m.all_different(&row).unwrap();
        m.all_different(&col).unwrap();
        m.all_different(&bx).unwrap();
    }
    (m.build().unwrap(), cells)
}

fn givens(cells: &[VarId], line: &str) -> Vec<(VarId, i64)> {
    line.bytes()
        .enumerate()
        .filter(|(_, c)| (b'1'..=b'9').contains(c))
        .map(|(i, c)| (cells[i], i64::from(c - b'0')))
        .collect()
}

/// Published puzzles: the LeetCode 37 example, "AI Escargot" (Arto Inkala, 2006), the first of Norvig's top95
/// (datasets/famous/top95.txt), the LeetCode example's first three rows alone (many solutions), and a grid whose
/// givens admit no solution though no house repeats a digit.
const PUZZLES: [&str; 5] = [
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "53..7....6..195....98....6.......................................................",
    "..9.287..8.6..4..5..3.....46.........2.71345.........23.....5..9..4..8.7..125.3..",
];

#[test]
fn kernel_matches_the_general_engine_node_for_node_on_sudoku_puzzles() {
    let (p, cells) = sudoku_model();
    for cfg in kernel_configs() {
        let mut kernel = Solver::new(&p, cfg.clone());
        let mut general = Solver::new(&p, cfg.clone().generic_engine(true));
        assert_eq!(kernel.engine(), EngineKind::Groups);
        for line in PUZZLES {
            let a = givens(&cells, line);
            let k = kernel.count(&a, 2);
            let g = general.count(&a, 2);
            assert_eq!((k.count, k.outcome), (g.count, g.outcome), "{line} {cfg:?}");
            assert_eq!(k.first, g.first, "{line} {cfg:?}");
            assert_eq!(
                (k.stats.nodes, k.stats.guesses, k.stats.fails),
                (g.stats.nodes, g.stats.guesses, g.stats.fails),
                "{line} {cfg:?}"
            );
            if let Some(s) = &k.first {
                assert!(p.is_solution(s.values()));
                for &(x, v) in &a {
                    assert_eq!(s.value(x), v, "givens kept");
                }
            }
        }
    }
    let mut s = Solver::new(
        &p,
        SearchConfig::default().propagation(Propagation::Singles),
    );
    let counts: Vec<u64> = PUZZLES
        .iter()
        .map(|l| s.count(&givens(&cells, l), 2).count)
        .collect();
    assert_eq!(counts, [1, 1, 1, 2, 0]);
}

#[test]
fn kernel_counts_latin_squares_of_order_four_and_five() {
    // Latin squares: 576 of order 4, 161,280 of order 5 (OEIS A002860).
    for (n, expected) in [(4usize, 576u64), (5, 161_280)] {
        let mut m = Model::new();
        let x: Vec<VarId> = (0..n * n)
            .map(|_| m.new_var(0, n as i64 - 1).unwrap())
            .collect();
        for i in 0..n {
            m.all_different(&(0..n).map(|j| x[i * n + j]).collect::<Vec<_>>())
                .unwrap();
            m.all_different(&(0..n).map(|j| x[j * n + i]).collect::<Vec<_>>())
                .unwrap();
        }
        let p = m.build().unwrap();
        for prop in [Propagation::ForwardChecking, Propagation::Singles] {
            let cfg = SearchConfig::default().propagation(prop);
            let mut s = Solver::new(&p, cfg.clone());
            assert_eq!(s.engine(), EngineKind::Groups);
            let r = s.count(&[], u64::MAX);
            assert_eq!(
                (r.count, r.outcome),
                (expected, Outcome::Solved),
                "order {n}"
            );
            let par = parallel::count(&p, &cfg, u64::MAX);
            assert_eq!(par.count, expected, "parallel, order {n}");
            assert_eq!(par.stats.solutions, expected);
        }
    }
}

#[test]
fn kernel_honours_node_limits_and_the_cancel_flag() {
    let (p, _) = sudoku_model();
    let cfg = SearchConfig::default()
        .propagation(Propagation::ForwardChecking)
        .limits(Limits::none().with_nodes(50));
    let mut s = Solver::new(&p, cfg);
    assert_eq!(s.engine(), EngineKind::Groups);
    // An empty grid has about 6.7e21 solutions: counting them all must stop at the node limit.
    let r = s.count(&[], u64::MAX);
    assert_eq!(r.outcome, Outcome::Limit(csp_core::LimitKind::Nodes));
    assert_eq!(r.stats.nodes, 50);
    assert!(r.count > 0);

    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    s.set_limits(Limits::none().with_cancel(flag));
    let r = s.count(&[], u64::MAX);
    assert_eq!(r.outcome, Outcome::Limit(csp_core::LimitKind::Cancelled));
}

#[test]
fn models_outside_the_kernel_run_on_the_general_engine() {
    let (p, _) = sudoku_model();
    for cfg in [
        SearchConfig::default().var_order(VarOrder::MrvDegree),
        SearchConfig::default().var_order(VarOrder::DomWdeg),
        SearchConfig::default().value_order(ValueOrder::Lcv),
        SearchConfig::default().random_ties(true),
        SearchConfig::default().propagation(Propagation::None),
        SearchConfig::default().generic_engine(true),
    ] {
        assert_eq!(
            Solver::new(&p, cfg.clone()).engine(),
            EngineKind::General64,
            "{cfg:?}"
        );
    }
    // Another constraint kind, a wide domain, or more than 64 groups: the general engine.
    let mut m = Model::new();
    let a = m.new_var(0, 3).unwrap();
    let b = m.new_var(0, 3).unwrap();
    m.all_different(&[a, b]).unwrap();
    m.not_equal(a, b, 1).unwrap();
    let p = m.build().unwrap();
    assert_eq!(
        Solver::new(&p, SearchConfig::default()).engine(),
        EngineKind::General64
    );
    let mut m = Model::new();
    let a = m.new_var(0, 99).unwrap();
    let b = m.new_var(0, 99).unwrap();
    m.all_different(&[a, b]).unwrap();
    let p = m.build().unwrap();
    assert_eq!(
        Solver::new(&p, SearchConfig::default()).engine(),
        EngineKind::General128
    );
    let mut m = Model::new();
    let xs: Vec<VarId> = (0..130).map(|_| m.new_var(0, 3).unwrap()).collect();
    for w in xs.windows(2) {
        m.all_different(w).unwrap();
    }
    let p = m.build().unwrap();
    assert_eq!(p.num_constraints(), 129);
    assert_eq!(
        Solver::new(&p, SearchConfig::default()).engine(),
        EngineKind::General64
    );
    // A group repeating a variable (unsatisfiable) also stays on the general engine.
    let mut m = Model::new();
    let a = m.new_var(0, 3).unwrap();
    let b = m.new_var(0, 3).unwrap();
    m.all_different(&[a, b, a]).unwrap();
    let p = m.build().unwrap();
    let mut s = Solver::new(&p, SearchConfig::default());
    assert_eq!(s.engine(), EngineKind::General64);
    assert_eq!(s.count(&[], 10).count, 0);
}

#[test]
fn a_group_model_beside_an_interval_variable_runs_on_the_general_engine_and_counts_exactly() {
    // The kernel gives every variable a bitset of its values; an interval has none. Before the fix an interval
    // in no group let the kernel take the model and index past its slot while building it (a panic in
    // `Solver::new`; fuzz/regressions/parse_fzn/interval_beside_all_different_groups).
    for (lo, hi) in [(0, 2), (-177_777_777_777, 6)] {
        let mut m = Model::new();
        let a = m.new_var(1, 4).unwrap();
        let b = m.new_var(1, 4).unwrap();
        let z = m.new_interval_var(lo, hi).unwrap();
        m.all_different(&[a, b]).unwrap();
        let p = m.build().unwrap();
        assert!(p.has_intervals());
        for cfg in [
            SearchConfig::default(),
            SearchConfig::default().var_order(VarOrder::Input),
        ] {
            let mut s = Solver::new(&p, cfg);
            assert_eq!(s.engine(), EngineKind::General64);
            let r = s.solve(&[]);
            let sol = r.solution.unwrap();
            assert!(p.is_solution(sol.values()));
            assert!((lo..=hi).contains(&sol.value(z)));
            let r = s.count(&[], 40);
            if hi - lo == 2 {
                // 12 ordered pairs of different values times 3 values of z.
                assert_eq!((r.count, r.outcome), (36, Outcome::Solved));
            } else {
                assert_eq!(r.count, 40);
            }
        }
    }
}

#[test]
fn kernel_matches_the_general_engine_on_latin_squares_with_random_givens() {
    // Models made only of permutation groups take the kernel's value-major root; random givens (some clashing,
    // some outside the domain) exercise its naked-single rounds, the switch to hidden singles, and failures.
    let mut g = Gen(csp_core::rng::Rng::new(0x6c61_7469));
    for case in 0..400 {
        let n = g.range(3, 5) as usize;
        let mut m = Model::new();
        let x: Vec<VarId> = (0..n * n)
            .map(|_| m.new_var(1, n as i64).unwrap())
            .collect();
        for i in 0..n {
            m.all_different(&(0..n).map(|j| x[i * n + j]).collect::<Vec<_>>())
                .unwrap();
            m.all_different(&(0..n).map(|j| x[j * n + i]).collect::<Vec<_>>())
                .unwrap();
        }
        let p = m.build().unwrap();
        let givens: Vec<(VarId, i64)> = (0..g.range(0, 2 * n as i64))
            .map(|_| (x[g.below((n * n) as u64) as usize], g.range(0, n as i64)))
            .collect();
        for cfg in kernel_configs() {
            let mut kernel = Solver::new(&p, cfg.clone());
            let mut general = Solver::new(&p, cfg.clone().generic_engine(true));
            // Up to 30 solutions: both engines stop at the same place of the same tree.
            let k = kernel.count(&givens, 30);
            let gr = general.count(&givens, 30);
            let ctx = format!("case {case}, order {n}, {givens:?}, {cfg:?}");
            assert_eq!((k.count, k.outcome), (gr.count, gr.outcome), "{ctx}");
            assert_eq!(k.first, gr.first, "{ctx}");
            assert_eq!(
                (k.stats.nodes, k.stats.guesses, k.stats.fails),
                (gr.stats.nodes, gr.stats.guesses, gr.stats.fails),
                "{ctx}"
            );
            let ks: Vec<Vec<i64>> = k.first.iter().map(|s| s.values().to_vec()).collect();
            for s in &ks {
                assert!(p.is_solution(s), "{ctx}");
            }
        }
    }
}

#[test]
fn kernel_with_more_than_64_groups_matches_the_general_engine_and_brute_force() {
    // 65-100 groups (sets of groups in a u128) over at most 6 variables: many repeated scopes and pairs.
    let mut g = Gen(csp_core::rng::Rng::new(0x7769_6465));
    for case in 0..150 {
        let mut m = Model::new();
        let width = g.range(2, 4);
        let n = g.range(2, 6) as usize;
        let xs: Vec<VarId> = (0..n).map(|_| m.new_var(1, width).unwrap()).collect();
        let doms: Vec<Vec<i64>> = (0..n).map(|_| (1..=width).collect()).collect();
        for _ in 0..g.range(65, 100) {
            let k = g.range(2, (width as usize).min(n) as i64) as usize;
            let mut pool = xs.clone();
            let group: Vec<VarId> = (0..k)
                .map(|_| pool.swap_remove(g.below(pool.len() as u64) as usize))
                .collect();
            m.all_different(&group).unwrap();
        }
        let p = m.build().unwrap();
        let truth = brute_force(&p, &doms, &[]);
        for cfg in kernel_configs() {
            let mut kernel = Solver::new(&p, cfg.clone());
            let mut general = Solver::new(&p, cfg.clone().generic_engine(true));
            assert_eq!(kernel.engine(), EngineKind::Groups, "case {case}");
            let (ks, ko, kst) = enumerate(&mut kernel, &[]);
            let (gs, go, gst) = enumerate(&mut general, &[]);
            let ctx = format!("case {case}, {cfg:?}");
            assert_eq!((&ks, ko), (&gs, go), "{ctx}");
            assert_eq!((kst.nodes, kst.fails), (gst.nodes, gst.fails), "{ctx}");
            assert_eq!(ks.iter().cloned().collect::<HashSet<_>>(), truth, "{ctx}");
        }
    }
}

#[test]
fn kernel_matches_the_general_engine_on_25x25_sudoku_with_75_groups() {
    // A 25x25 grid from the pattern (5 (r mod 5) + r / 5 + c) mod 25, two thirds of its cells blanked at random:
    // counted to 2 by both engines on the same tree.
    let (b, n) = (5usize, 25usize);
    let mut m = Model::new();
    let cells: Vec<VarId> = (0..n * n)
        .map(|_| m.new_var(1, n as i64).unwrap())
        .collect();
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        let bx: Vec<VarId> = (0..n)
            .map(|j| cells[(i / b * b + j / b) * n + i % b * b + j % b])
            .collect();
        m.all_different(&row).unwrap();
        m.all_different(&col).unwrap();
        m.all_different(&bx).unwrap();
    }
    let p = m.build().unwrap();
    let mut g = Gen(csp_core::rng::Rng::new(25));
    for _ in 0..3 {
        let givens: Vec<(VarId, i64)> = (0..n * n)
            .filter(|_| g.below(3) == 0)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                (cells[i], ((b * (r % b) + r / b + c) % n) as i64 + 1)
            })
            .collect();
        let cfg = SearchConfig::default().propagation(Propagation::Singles);
        let mut kernel = Solver::new(&p, cfg.clone());
        assert_eq!(kernel.engine(), EngineKind::Groups);
        let mut general = Solver::new(&p, cfg.generic_engine(true));
        let k = kernel.count(&givens, 2);
        let gr = general.count(&givens, 2);
        assert_eq!((k.count, k.outcome), (gr.count, gr.outcome));
        assert_eq!(k.first, gr.first);
        assert_eq!(
            (k.stats.nodes, k.stats.fails),
            (gr.stats.nodes, gr.stats.fails)
        );
        let s = k.first.expect("the pattern grid is a solution");
        assert!(p.is_solution(s.values()));
    }
}

#[test]
fn degenerate_group_models_behave_on_the_kernel() {
    // No variable at all: one (empty) solution.
    let p = Model::new().build().unwrap();
    let mut s = Solver::new(&p, SearchConfig::default());
    assert_eq!(s.engine(), EngineKind::Groups);
    let r = s.count(&[], 10);
    assert_eq!((r.count, r.outcome), (1, Outcome::Solved));
    // Variables but no group: every combination is a solution; one-value domains are fixed from the start.
    let mut m = Model::new();
    let a = m.new_var(0, 2).unwrap();
    let b = m.new_var(5, 5).unwrap();
    let p = m.build().unwrap();
    let mut s = Solver::new(
        &p,
        SearchConfig::default().propagation(Propagation::Singles),
    );
    assert_eq!(s.engine(), EngineKind::Groups);
    assert_eq!(s.count(&[], 10).count, 3);
    // The same variable assumed twice: with one value it is kept, with two it fails.
    assert_eq!(s.count(&[(a, 1), (a, 1), (b, 5)], 10).count, 1);
    assert_eq!(
        s.count(&[(a, 1), (a, 2)], 10).outcome,
        Outcome::Unsatisfiable
    );
    // A value outside the domain, or a variable of another model: unsatisfiable, never a panic.
    assert_eq!(s.count(&[(b, 4)], 10).outcome, Outcome::Unsatisfiable);
    let mut other = Model::new();
    let foreign = other.new_var(0, 2).unwrap();
    assert_eq!(s.count(&[(foreign, 0)], 10).outcome, Outcome::Unsatisfiable);
}
