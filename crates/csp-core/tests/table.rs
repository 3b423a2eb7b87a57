//! Large `table` constraints (hundreds to thousands of rows, several row words, shared variables) against brute
//! force, on every representation: the compact-table propagator must count exactly what enumeration counts, under
//! every heuristic, and every solution must satisfy every constraint.
#![allow(clippy::unwrap_used)]

use std::collections::HashSet;

use csp_core::{
    Model, Outcome, Problem, Propagation, SearchConfig, Solver, ValueOrder, VarId, VarOrder,
};

/// SplitMix64, so the generated tables are the same on every run.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Debug builds (which also check every propagation from scratch) run a sample of the cases and strategies; the
/// release run (CI) runs them all.
const SAMPLE: usize = if cfg!(debug_assertions) { 5 } else { 1 };

fn configs(naive: bool) -> Vec<SearchConfig> {
    let mut v = Vec::new();
    for vo in VarOrder::ALL {
        for val in ValueOrder::ALL {
            for prop in [Propagation::ForwardChecking, Propagation::Singles] {
                v.push(
                    SearchConfig::default()
                        .var_order(vo)
                        .value_order(val)
                        .propagation(prop)
                        .seed(7),
                );
            }
        }
    }
    if naive {
        // The naive level once: it never runs the table propagator, so it checks the model, not the filtering
        // (too slow on wide domains, where it enumerates the whole product).
        v.push(SearchConfig::default().propagation(Propagation::None));
    }
    v.into_iter().step_by(SAMPLE).collect()
}

/// `rows` random tuples of arity `k` over `0..width`.
fn random_tuples(g: &mut Gen, rows: usize, k: usize, width: i64) -> Vec<Vec<i64>> {
    (0..rows)
        .map(|_| (0..k).map(|_| g.below(width as u64) as i64).collect())
        .collect()
}

/// Every solution, by enumerating the first table's rows and the cartesian product of the other variables'
/// domains (every solution satisfies the first table, so this covers them all).
fn brute_force(
    p: &Problem,
    first: &[Vec<i64>],
    first_scope: &[usize],
    doms: &[Vec<i64>],
) -> HashSet<Vec<i64>> {
    let mut out = HashSet::new();
    let rest: Vec<usize> = (0..doms.len())
        .filter(|v| !first_scope.contains(v))
        .collect();
    let mut cur = vec![0i64; doms.len()];
    for row in first {
        for (&v, &x) in first_scope.iter().zip(row) {
            cur[v] = x;
        }
        let mut idx = vec![0usize; rest.len()];
        loop {
            for (j, &v) in rest.iter().enumerate() {
                cur[v] = doms[v][idx[j]];
            }
            if p.is_solution(&cur) {
                out.insert(cur.clone());
            }
            let mut j = 0;
            while j < rest.len() {
                idx[j] += 1;
                if idx[j] < doms[rest[j]].len() {
                    break;
                }
                idx[j] = 0;
                j += 1;
            }
            if j == rest.len() {
                break;
            }
        }
    }
    out
}

fn check(p: &Problem, expected: &HashSet<Vec<i64>>, vars: &[VarId], case: usize, naive: bool) {
    // The brute-force set holds only checked solutions, so set equality proves every solution right; the direct
    // check runs for the first strategy only (it dominates the run time on big tables).
    for (k, cfg) in configs(naive).into_iter().enumerate() {
        let mut solver = Solver::new(p, cfg.clone());
        let mut found = HashSet::new();
        solver.for_each_solution(&[], |s| {
            assert!(
                k > 0 || p.is_solution(s.values()),
                "case {case}: non-solution"
            );
            let vals: Vec<i64> = vars.iter().map(|&x| s.value(x)).collect();
            assert!(found.insert(vals), "case {case}: duplicate solution");
            std::ops::ControlFlow::Continue(())
        });
        assert_eq!(
            &found, expected,
            "case {case}: solutions differ with {cfg:?}"
        );
        let r = solver.solve(&[]);
        assert_eq!(
            r.outcome == Outcome::Solved,
            !expected.is_empty(),
            "case {case}: {cfg:?}"
        );
    }
}

/// Three ternary tables of 200 rows over five variables with domains of 8 values (all overlapping), as in the
/// Killer cages: several row words per table, supports spread over all of them.
#[test]
fn random_ternary_tables_of_200_rows_over_domains_of_8_match_brute_force() {
    let mut g = Gen(0x7AB1E);
    let mut nonempty = 0;
    for case in (0..12).step_by(SAMPLE.min(3)) {
        let mut m = Model::new();
        let x: Vec<VarId> = (0..5).map(|_| m.new_var(0, 7).unwrap()).collect();
        let doms = vec![(0..8).collect::<Vec<i64>>(); 5];
        let scopes: [[usize; 3]; 3] = [[0, 1, 2], [2, 3, 4], [4, 1, 3]];
        let tables: Vec<Vec<Vec<i64>>> = scopes
            .iter()
            .map(|_| random_tuples(&mut g, 200, 3, 8))
            .collect();
        for (s, t) in scopes.iter().zip(&tables) {
            let xs: Vec<VarId> = s.iter().map(|&i| x[i]).collect();
            m.table(&xs, t).unwrap();
        }
        if case % 3 == 0 {
            m.all_different(&x).unwrap();
        }
        let p = m.build().unwrap();
        let expected = brute_force(&p, &tables[0], &scopes[0], &doms);
        nonempty += usize::from(!expected.is_empty());
        check(&p, &expected, &x, case, true);
    }
    assert!(
        nonempty >= 4 / SAMPLE.min(3),
        "only {nonempty} satisfiable cases"
    );
}

/// One table of 2,000 rows (32 row words) with arity 4 plus a smaller one, so the sparse set of non-zero words
/// shrinks and grows back across many levels.
#[test]
fn a_table_of_2000_rows_matches_brute_force() {
    let mut g = Gen(0xB16);
    for case in (0..4).step_by(SAMPLE.min(4)) {
        let mut m = Model::new();
        let x: Vec<VarId> = (0..5).map(|_| m.new_var(0, 7).unwrap()).collect();
        let doms = vec![(0..8).collect::<Vec<i64>>(); 5];
        let big = random_tuples(&mut g, 2000, 4, 8);
        let small = random_tuples(&mut g, 60, 2, 8);
        m.table(&x[..4], &big).unwrap();
        m.table(&[x[3], x[4]], &small).unwrap();
        let p = m.build().unwrap();
        let expected = brute_force(&p, &big, &[0, 1, 2, 3], &doms);
        check(&p, &expected, &x, case, false);
    }
}

/// Tables over 100-value (two-word `u128`) and 300-value (`bitvec`) domains, with a repeated variable in one
/// scope, against the same enumeration.
#[test]
fn tables_on_wide_domains_and_repeated_variables_match_brute_force() {
    let mut g = Gen(0x1DE);
    for (case, width) in [100i64, 300, 100, 300].into_iter().enumerate() {
        let mut m = Model::new();
        let x: Vec<VarId> = (0..3).map(|_| m.new_var(0, width - 1).unwrap()).collect();
        let y = m.new_var(0, 5).unwrap();
        let doms = vec![
            (0..width).collect::<Vec<i64>>(),
            (0..width).collect(),
            (0..width).collect(),
            (0..6).collect(),
        ];
        // Values concentrated on a few positions in different words, so rows meet often.
        let pick = |g: &mut Gen| [1, 63, 64, 65, 99, width - 1][g.below(6) as usize];
        let big: Vec<Vec<i64>> = (0..300)
            .map(|_| (0..3).map(|_| pick(&mut g)).collect())
            .collect();
        let second: Vec<Vec<i64>> = (0..120)
            .map(|_| vec![pick(&mut g), g.below(6) as i64, pick(&mut g)])
            .collect();
        m.table(&x, &big).unwrap();
        // x2 twice: only rows whose first and last value agree can hold.
        m.table(&[x[2], y, x[2]], &second).unwrap();
        let p = m.build().unwrap();
        let all = [x[0], x[1], x[2], y];
        let expected = brute_force(&p, &big, &[0, 1, 2], &doms);
        check(&p, &expected, &all, case, false);
    }
}
