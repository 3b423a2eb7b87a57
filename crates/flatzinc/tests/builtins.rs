//! Every builtin of the table against brute force: a tiny FlatZinc model per builtin, all solutions enumerated by
//! the solver (`-a`) must equal the assignments of a Rust predicate over the product of the domains.

use std::collections::BTreeSet;

use flatzinc::{run, Options};

#[derive(Clone, Copy)]
enum V {
    /// An integer variable with its range.
    I(&'static str, i64, i64),
    /// A Boolean variable.
    B(&'static str),
}

fn solve_all(fzn: &str) -> (BTreeSet<String>, String) {
    let opts = Options {
        all: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    run(fzn, &opts, &mut out).unwrap_or_else(|e| panic!("{e}\n{fzn}"));
    let text = String::from_utf8(out).expect("utf8");
    let mut sols = BTreeSet::new();
    let mut last = String::new();
    for block in text.split("----------\n") {
        if block.starts_with("==") || block.is_empty() {
            last = block.trim().to_string();
            continue;
        }
        assert!(
            sols.insert(block.to_string()),
            "solution printed twice: {block}"
        );
    }
    (sols, last)
}

fn expected(vars: &[V], pred: &dyn Fn(&[i64]) -> bool) -> BTreeSet<String> {
    let ranges: Vec<(i64, i64)> = vars
        .iter()
        .map(|v| match v {
            V::I(_, a, b) => (*a, *b),
            V::B(_) => (0, 1),
        })
        .collect();
    let mut out = BTreeSet::new();
    let mut cur: Vec<i64> = ranges.iter().map(|r| r.0).collect();
    loop {
        if pred(&cur) {
            let mut s = String::new();
            for (v, &x) in vars.iter().zip(&cur) {
                match v {
                    V::I(n, ..) => s += &format!("{n} = {x};\n"),
                    V::B(n) => s += &format!("{n} = {};\n", x != 0),
                }
            }
            out.insert(s);
        }
        let mut k = 0;
        loop {
            if k == cur.len() {
                return out;
            }
            if cur[k] < ranges[k].1 {
                cur[k] += 1;
                break;
            }
            cur[k] = ranges[k].0;
            k += 1;
        }
    }
}

fn check(vars: &[V], constraint: &str, pred: impl Fn(&[i64]) -> bool) {
    let mut fzn = String::new();
    for v in vars {
        match v {
            V::I(n, a, b) => fzn += &format!("var {a}..{b}: {n} :: output_var;\n"),
            V::B(n) => fzn += &format!("var bool: {n} :: output_var;\n"),
        }
    }
    fzn += &format!("constraint {constraint};\nsolve satisfy;\n");
    let (got, last) = solve_all(&fzn);
    let want = expected(vars, &pred);
    assert_eq!(
        last, "==========",
        "{constraint}: search not reported complete"
    );
    assert_eq!(got, want, "{constraint}: solution sets differ");
}

fn check_unsat_or(vars: &[V], constraint: &str, pred: impl Fn(&[i64]) -> bool) {
    let want = expected(vars, &pred);
    if want.is_empty() {
        let mut fzn = String::new();
        for v in vars {
            if let V::I(n, a, b) = v {
                fzn += &format!("var {a}..{b}: {n} :: output_var;\n");
            }
        }
        fzn += &format!("constraint {constraint};\nsolve satisfy;\n");
        let (got, last) = solve_all(&fzn);
        assert!(got.is_empty());
        assert_eq!(last, "=====UNSATISFIABLE=====");
    } else {
        check(vars, constraint, pred);
    }
}

const X: V = V::I("x", -2, 2);
const Y: V = V::I("y", -2, 2);
const Z: V = V::I("z", -3, 3);
const A: V = V::B("a");
const B: V = V::B("b");
const C: V = V::B("c");
const R: V = V::B("r");

fn b(x: bool) -> bool {
    x
}

#[test]
fn int_comparisons_match_brute_force() {
    check(&[X, Y], "int_eq(x, y)", |v| v[0] == v[1]);
    check(&[X, Y], "int_ne(x, y)", |v| v[0] != v[1]);
    check(&[X, Y], "int_le(x, y)", |v| v[0] <= v[1]);
    check(&[X, Y], "int_lt(x, y)", |v| v[0] < v[1]);
    check(&[X, Y], "int_lt(x, 1)", |v| v[0] < 1);
}

#[test]
fn int_reified_comparisons_match_brute_force() {
    type Rel = fn(i64, i64) -> bool;
    let rels: [(&str, Rel); 4] = [
        ("eq", |x, y| x == y),
        ("ne", |x, y| x != y),
        ("le", |x, y| x <= y),
        ("lt", |x, y| x < y),
    ];
    for (name, f) in rels {
        check(&[X, Y, R], &format!("int_{name}_reif(x, y, r)"), |v| {
            (v[2] == 1) == f(v[0], v[1])
        });
        check(&[X, Y, R], &format!("int_{name}_imp(x, y, r)"), |v| {
            v[2] == 0 || f(v[0], v[1])
        });
    }
}

#[test]
fn int_linear_and_its_reifications_match_brute_force() {
    let s = |v: &[i64]| 2 * v[0] - 3 * v[1];
    check(&[X, Y], "int_lin_eq([2, -3], [x, y], 1)", |v| s(v) == 1);
    check(&[X, Y], "int_lin_le([2, -3], [x, y], 1)", |v| s(v) <= 1);
    check(&[X, Y], "int_lin_ne([2, -3], [x, y], 1)", |v| s(v) != 1);
    // Two terms with opposite coefficients go to csp-core's `equal` / `not_equal` with an offset.
    check(&[X, Y], "int_lin_eq([1, -1], [x, y], 1)", |v| {
        v[0] - v[1] == 1
    });
    check(&[X, Y], "int_lin_eq([-2, 2], [x, y], 2)", |v| {
        -2 * v[0] + 2 * v[1] == 2
    });
    check_unsat_or(&[X, Y], "int_lin_eq([2, -2], [x, y], 1)", |v| {
        2 * v[0] - 2 * v[1] == 1
    });
    check(&[X, Y], "int_lin_ne([3, -3], [x, y], -3)", |v| {
        3 * v[0] - 3 * v[1] != -3
    });
    check(&[X, Y], "int_lin_le([1, -1], [x, y], 1)", |v| {
        v[0] - v[1] <= 1
    });
    check(&[X], "int_lin_eq([1, -1], [x, x], 0)", |_| true);
    type Rel = fn(i64) -> bool;
    let rels: [(&str, Rel); 3] = [("eq", |t| t == 1), ("le", |t| t <= 1), ("ne", |t| t != 1)];
    for (name, f) in rels {
        check(
            &[X, Y, R],
            &format!("int_lin_{name}_reif([2, -3], [x, y], 1, r)"),
            |v| (v[2] == 1) == f(s(v)),
        );
        check(
            &[X, Y, R],
            &format!("int_lin_{name}_imp([2, -3], [x, y], 1, r)"),
            |v| v[2] == 0 || f(s(v)),
        );
    }
}

#[test]
fn int_arithmetic_matches_brute_force() {
    check(&[X, Y, Z], "int_plus(x, y, z)", |v| v[0] + v[1] == v[2]);
    check(&[X, Y, Z], "int_minus(x, y, z)", |v| v[0] - v[1] == v[2]);
    check(&[X, Y, Z], "int_times(x, y, z)", |v| v[0] * v[1] == v[2]);
    check(&[X, Y, Z], "int_div(x, y, z)", |v| {
        v[1] != 0 && v[0] / v[1] == v[2]
    });
    check(&[X, Y, Z], "int_mod(x, y, z)", |v| {
        v[1] != 0 && v[0] % v[1] == v[2]
    });
    let e = V::I("y", 0, 3);
    let w = V::I("z", -8, 9);
    check(&[X, e, w], "int_pow(x, y, z)", |v| {
        v[0].pow(v[1] as u32) == v[2]
    });
    check(&[X, w], "int_pow_fixed(x, 3, z)", |v| v[0].pow(3) == v[1]);
    check(&[Z, X], "int_abs(z, x)", |v| v[0].abs() == v[1]);
    check(&[X, Y, Z], "int_max(x, y, z)", |v| v[0].max(v[1]) == v[2]);
    check(&[X, Y, Z], "int_min(x, y, z)", |v| v[0].min(v[1]) == v[2]);
    check(&[Z, X, Y], "array_int_maximum(z, [x, y, 1])", |v| {
        v[1].max(v[2]).max(1) == v[0]
    });
    check(&[Z, X, Y], "array_int_minimum(z, [x, y, 1])", |v| {
        v[1].min(v[2]).min(1) == v[0]
    });
}

#[test]
fn element_builtins_match_brute_force() {
    let arr = [3, -1, 2, 0];
    check(&[Z, X], "array_int_element(x, [3, -1, 2, 0], z)", |v| {
        (1..=4).contains(&v[1]) && arr[(v[1] - 1) as usize] == v[0]
    });
    check(&[X, Y, Z], "array_var_int_element(x, [y, z, 1], z)", |v| {
        let a = [v[1], v[2], 1];
        (1..=3).contains(&v[0]) && a[(v[0] - 1) as usize] == v[2]
    });
    check(
        &[X, A],
        "array_bool_element(x, [true, false, true], a)",
        |v| {
            let a = [1, 0, 1];
            (1..=3).contains(&v[0]) && a[(v[0] - 1) as usize] == v[1]
        },
    );
    check(
        &[X, A, B],
        "array_var_bool_element(x, [a, b, true], a)",
        |v| {
            let a = [v[1], v[2], 1];
            (1..=3).contains(&v[0]) && a[(v[0] - 1) as usize] == v[1]
        },
    );
}

#[test]
fn set_membership_on_constant_sets_matches_brute_force() {
    check(&[Z], "set_in(z, {-3, 0, 2})", |v| {
        [-3, 0, 2].contains(&v[0])
    });
    check(&[Z], "set_in(z, -1..1)", |v| (-1..=1).contains(&v[0]));
    check_unsat_or(&[Z], "set_in(z, 5..7)", |v| (5..=7).contains(&v[0]));
    check(&[Z, R], "set_in_reif(z, {-3, 0, 2}, r)", |v| {
        (v[1] == 1) == [-3, 0, 2].contains(&v[0])
    });
    check(&[Z, R], "set_in_reif(z, 1..2, r)", |v| {
        (v[1] == 1) == (1..=2).contains(&v[0])
    });
    check(&[Z, R], "set_in_imp(z, 1..2, r)", |v| {
        v[1] == 0 || (1..=2).contains(&v[0])
    });
}

#[test]
fn boolean_builtins_match_brute_force() {
    check(&[A, V::I("x", -1, 2)], "bool2int(a, x)", |v| v[0] == v[1]);
    check(&[A, B], "bool_eq(a, b)", |v| v[0] == v[1]);
    check(&[A, B], "bool_not(a, b)", |v| v[0] != v[1]);
    check(&[A, B], "bool_le(a, b)", |v| v[0] <= v[1]);
    check(&[A, B], "bool_lt(a, b)", |v| v[0] < v[1]);
    check(&[A, B, R], "bool_eq_reif(a, b, r)", |v| {
        (v[2] == 1) == (v[0] == v[1])
    });
    check(&[A, B, R], "bool_le_reif(a, b, r)", |v| {
        (v[2] == 1) == (v[0] <= v[1])
    });
    check(&[A, B, R], "bool_lt_reif(a, b, r)", |v| {
        (v[2] == 1) == (v[0] < v[1])
    });
    check(&[A, B, R], "bool_eq_imp(a, b, r)", |v| {
        v[2] == 0 || v[0] == v[1]
    });
    check(&[A, B, R], "bool_le_imp(a, b, r)", |v| {
        v[2] == 0 || v[0] <= v[1]
    });
    check(&[A, B, R], "bool_lt_imp(a, b, r)", |v| {
        v[2] == 0 || v[0] < v[1]
    });
    check(&[A, B, R], "bool_and(a, b, r)", |v| {
        (v[2] == 1) == (v[0] == 1 && v[1] == 1)
    });
    check(&[A, B, R], "bool_or(a, b, r)", |v| {
        (v[2] == 1) == (v[0] == 1 || v[1] == 1)
    });
    check(&[A, B, R], "bool_xor(a, b, r)", |v| {
        (v[2] == 1) == (v[0] != v[1])
    });
    check(&[A, B], "bool_xor(a, b)", |v| v[0] != v[1]);
    check(&[A, B, C], "bool_clause([a, b], [c])", |v| {
        v[0] == 1 || v[1] == 1 || v[2] == 0
    });
    check(&[A, B, C], "bool_clause([], [a, b])", |v| {
        v[0] == 0 || v[1] == 0
    });
    check(&[A, B, C, R], "bool_clause_reif([a], [b, c], r)", |v| {
        (v[3] == 1) == b(v[0] == 1 || v[1] == 0 || v[2] == 0)
    });
    check(&[A, B, C, R], "array_bool_and([a, b, c], r)", |v| {
        (v[3] == 1) == (v[0] + v[1] + v[2] == 3)
    });
    check(&[A, B, C, R], "array_bool_or([a, b, c], r)", |v| {
        (v[3] == 1) == (v[0] + v[1] + v[2] > 0)
    });
    check(&[A, B, C], "array_bool_xor([a, b, c])", |v| {
        (v[0] + v[1] + v[2]) % 2 == 1
    });
    check(
        &[A, B, V::I("x", -1, 4)],
        "bool_lin_eq([1, 2], [a, b], x)",
        |v| v[0] + 2 * v[1] == v[2],
    );
    check(&[A, B], "bool_lin_eq([1, 2], [a, b], 2)", |v| {
        v[0] + 2 * v[1] == 2
    });
    check(&[A, B, C], "bool_lin_le([1, 2, 1], [a, b, c], 2)", |v| {
        v[0] + 2 * v[1] + v[2] <= 2
    });
}

#[test]
fn library_globals_match_brute_force() {
    check(
        &[X, Y, V::I("z", -2, 2)],
        "csp_all_different_int([x, y, z])",
        |v| v[0] != v[1] && v[0] != v[2] && v[1] != v[2],
    );
    check(
        &[X, Y],
        "csp_table_int([x, y], [1, 2, 2, 1, -2, -2, 7, 7])",
        |v| [(1, 2), (2, 1), (-2, -2)].contains(&(v[0], v[1])),
    );
    check(
        &[A, B],
        "csp_table_bool([a, b], [true, false, false, false])",
        |v| v[1] == 0,
    );
}

/// `succ` (values numbered from `first`) is one circuit through every node (`sub`: through the nodes that do not
/// point to themselves, possibly none).
fn is_circuit(succ: &[i64], first: i64, sub: bool) -> bool {
    let n = succ.len() as i64;
    if succ.iter().any(|&s| s < first || s >= first + n) {
        return false;
    }
    let next = |i: usize| (succ[i] - first) as usize;
    let moving: Vec<usize> = (0..succ.len()).filter(|&i| next(i) != i).collect();
    if !sub && moving.len() != succ.len() {
        return false;
    }
    let Some(&start) = moving.first() else {
        return sub;
    };
    let (mut at, mut steps) = (start, 0);
    loop {
        at = next(at);
        steps += 1;
        if at == start || steps > moving.len() {
            break;
        }
    }
    at == start && steps == moving.len()
}

#[test]
fn engine_globals_match_brute_force() {
    // DFA over symbols 1..2: state 1 start, 2 after a 2 (accepting), 3 unreachable; no two 2s in a row.
    let w = V::I("w", 0, 3);
    check(
        &[V::I("x", 0, 3), V::I("y", 0, 3), w],
        "csp_regular([x, y, w], 3, 2, [1, 2, 1, 0, 3, 3], 1, {2, 3})",
        |v| v.iter().all(|&s| s == 1 || s == 2) && v.windows(2).all(|p| p != [2, 2]) && v[2] == 2,
    );
    let s = V::I("s", 0, 4);
    let (p, q) = (V::I("p", 0, 4), V::I("q", 1, 4));
    check(
        &[p, q, s, V::I("t", 1, 4)],
        "csp_circuit([p, q, s, t], 1)",
        |v| is_circuit(v, 1, false),
    );
    check(
        &[p, q, s, V::I("t", 1, 4)],
        "csp_subcircuit([p, q, s, t], 1)",
        |v| is_circuit(v, 1, true),
    );
    check(&[X, Y], "csp_circuit([x, y], -1)", |v| {
        is_circuit(v, -1, false)
    });
    check(&[X, Y, Z], "csp_subcircuit([x, y, z], -2)", |v| {
        is_circuit(v, -2, true)
    });
    let n = V::I("n", 0, 3);
    check(&[X, Y, n], "csp_count_eq([x, y, 1], 1, n)", |v| {
        (v[0] == 1) as i64 + (v[1] == 1) as i64 + 1 == v[2]
    });
    check(&[X, Y, Z, n], "csp_count_eq([x, y], z, n)", |v| {
        (v[0] == v[2]) as i64 + (v[1] == v[2]) as i64 == v[3]
    });
    let m = V::I("m", 0, 3);
    check(
        &[X, Y, Z, n, m],
        "csp_global_cardinality([x, y, z], [0, 2], [n, m])",
        |v| {
            let k = |a: i64| v[..3].iter().filter(|&&x| x == a).count() as i64;
            v[3] == k(0) && v[4] == k(2)
        },
    );
    let (f1, f2, g1, g2) = (
        V::I("f1", 0, 3),
        V::I("f2", 1, 2),
        V::I("g1", 1, 3),
        V::I("g2", -1, 2),
    );
    check(
        &[f1, f2, g1, g2],
        "csp_inverse([f1, f2], [g1, g2], 1)",
        |v| {
            let (f, g) = (&v[..2], &v[2..]);
            (0..2).all(|i| {
                (1..=2).contains(&f[i])
                    && (1..=2).contains(&g[i])
                    && g[(f[i] - 1) as usize] == i as i64 + 1
            })
        },
    );
    check(&[X, Y, Z], "csp_inverse([x, y, z], [y, z, x], -2)", |v| {
        let g = [v[1], v[2], v[0]];
        (0..3).all(|i| (-2..=0).contains(&v[i]) && g[(v[i] + 2) as usize] == i as i64 - 2)
    });
    let w2 = V::I("w", -2, 2);
    check(&[X, Y, Z, w2], "csp_lex_int([x, y], [z, w], true)", |v| {
        (v[0], v[1]) < (v[2], v[3])
    });
    check(&[X, Y, Z, w2], "csp_lex_int([x, y], [z, w], false)", |v| {
        (v[0], v[1]) <= (v[2], v[3])
    });
    check(&[A, B, C, R], "csp_lex_bool([a, b], [c, r], false)", |v| {
        (v[0], v[1]) <= (v[2], v[3])
    });
    check(&[A, B, C, R], "csp_lex_bool([a, b], [c, r], true)", |v| {
        (v[0], v[1]) < (v[2], v[3])
    });
}

/// `cumulative` by its definition: at every time, the tasks running use at most `b`; durations and uses are
/// non-negative, and so is `b` when there is a task.
fn cumulative_holds(s: &[i64], d: &[i64], r: &[i64], b: i64) -> bool {
    if d.iter().chain(r).any(|&x| x < 0) || (!s.is_empty() && b < 0) {
        return false;
    }
    (-10..20).all(|t| {
        let load: i64 = (0..s.len())
            .filter(|&i| s[i] <= t && t < s[i] + d[i])
            .map(|i| r[i])
            .sum();
        load <= b
    })
}

#[test]
fn cumulative_matches_brute_force() {
    // Three tasks: starts x, y in -2..2 and 0; durations 2, z in -3..3 (the constraint removes the negative ones)
    // and 1; uses 1, 2, and the variable u; capacity b.
    let (u, b) = (V::I("u", 0, 2), V::I("b", -1, 3));
    check(
        &[X, Y, Z, u, b],
        "csp_cumulative([x, y, 0], [2, z, 1], [1, 2, u], b)",
        |v| cumulative_holds(&[v[0], v[1], 0], &[2, v[2], 1], &[1, 2, v[3]], v[4]),
    );
    // Constant capacity; a task of use 0 and one of duration 0 take no room.
    check(
        &[X, Y, Z],
        "csp_cumulative([x, y, z], [3, 2, 0], [2, 0, 5], 2)",
        |v| cumulative_holds(v, &[3, 2, 0], &[2, 0, 5], 2),
    );
    check(&[X, Y], "csp_cumulative([x, y], [3, 3], [2, 2], 3)", |v| {
        cumulative_holds(v, &[3, 3], &[2, 2], 3)
    });
}

#[test]
fn every_table_row_is_covered_by_a_test_above() {
    let src = include_str!("builtins.rs");
    // The reified families are tested through `format!` templates over these relations.
    let mut templated = Vec::new();
    for rel in ["eq", "ne", "le", "lt"] {
        for suffix in ["reif", "imp"] {
            templated.push(format!("int_{rel}_{suffix}"));
            templated.push(format!("int_lin_{rel}_{suffix}"));
        }
    }
    for row in flatzinc::builtins::TABLE {
        assert!(
            src.contains(&format!("\"{}(", row.name)) || templated.iter().any(|t| t == row.name),
            "builtin {} has no test",
            row.name
        );
    }
}

/// The `nodes` statistic of a satisfaction run of `fzn` (`-s`), and whether it found a solution.
fn nodes_of(fzn: &str) -> (u64, bool) {
    let opts = Options {
        statistics: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    run(fzn, &opts, &mut out).unwrap_or_else(|e| panic!("{e}\n{fzn}"));
    let text = String::from_utf8(out).expect("utf8");
    let nodes = text
        .lines()
        .find_map(|l| l.strip_prefix("%%%mzn-stat: nodes="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {text}"));
    (nodes, text.contains("----------"))
}

#[test]
fn the_domain_annotation_on_all_different_selects_the_matching_propagator() {
    // Five pigeons, four holes with holes in them: only a matching sees it before searching.
    let vars = "var {1, 3, 5, 7}: a;\nvar {1, 3, 5, 7}: b;\nvar {1, 3, 5, 7}: c;\nvar {1, 3, 5, 7}: d;\nvar {1, 3, 5, 7}: e;\n";
    let plain =
        format!("{vars}constraint csp_all_different_int([a, b, c, d, e]);\nsolve satisfy;\n");
    let domain = plain.replace("e]);", "e]) :: domain;");
    let bounds = plain.replace("e]);", "e]) :: bounds;");
    let (n_plain, sat_plain) = nodes_of(&plain);
    let (n_domain, sat_domain) = nodes_of(&domain);
    let (n_bounds, sat_bounds) = nodes_of(&bounds);
    assert!(!sat_plain && !sat_domain && !sat_bounds);
    assert_eq!(n_domain, 0, "the matching fails at the root");
    assert!(
        n_plain > 0 && n_bounds > 0,
        "value {n_plain}, bounds {n_bounds}"
    );
    // Every level accepts the same solutions.
    for ann in [
        " :: domain",
        " :: bounds",
        " :: value_propagation",
        " :: domain_propagation",
    ] {
        check(
            &[X, Y, V::I("z", -2, 2)],
            &format!("csp_all_different_int([x, y, z]){ann}"),
            |v| v[0] != v[1] && v[0] != v[2] && v[1] != v[2],
        );
    }
}

/// Three counts over one array `[x, y, z]` (values 0, 1, 2), each count's own constraint line.
const COUNT_GROUP: &str = "csp_count_eq([x, y, z], 0, a);\nconstraint csp_count_eq([x, y, z], 1, b);\nconstraint csp_count_eq([x, y, z], 2, c)";

#[test]
fn counts_of_several_values_over_one_array_keep_exactly_the_brute_force_solutions() {
    let count = |v: &[i64], w: i64| v[..3].iter().filter(|&&x| x == w).count() as i64;
    let (a, b, c) = (V::I("a", 0, 3), V::I("b", 0, 3), V::I("c", 0, 3));
    // Members within the counted values (the implied sum is an equality) and beyond them (at most).
    for (x, y, z) in [
        (V::I("x", 0, 2), V::I("y", 0, 2), V::I("z", 0, 2)),
        (V::I("x", -1, 2), V::I("y", 0, 3), V::I("z", 0, 2)),
    ] {
        check(&[x, y, z, a, b, c], COUNT_GROUP, |v| {
            v[3] == count(v, 0) && v[4] == count(v, 1) && v[5] == count(v, 2)
        });
    }
    // A value counted twice, and one count variable shared by two values.
    let (x, y, z) = (V::I("x", 0, 2), V::I("y", 0, 2), V::I("z", 0, 2));
    check(
        &[x, y, z, a, b],
        "csp_count_eq([x, y, z], 0, a);\nconstraint csp_count_eq([x, y, z], 0, a);\nconstraint csp_count_eq([x, y, z], 1, b);\nconstraint csp_count_eq([x, y, z], 2, b)",
        |v| v[3] == count(v, 0) && v[4] == count(v, 1) && v[4] == count(v, 2),
    );
}

#[test]
fn counts_over_one_array_see_at_the_root_that_their_sum_exceeds_its_length() {
    // x, y, z take 0..2 and the counts of 0, 1 and 2 must reach 2, 2 and 1: five members for three places. Each
    // count alone is satisfiable; only their implied sum (= 3) fails before any decision.
    let vars =
        "var 0..2: x;\nvar 0..2: y;\nvar 0..2: z;\nvar 2..3: a;\nvar 2..3: b;\nvar 1..3: c;\n";
    let fzn = format!("{vars}constraint {COUNT_GROUP};\nsolve satisfy;\n");
    let (nodes, sat) = nodes_of(&fzn);
    assert!(!sat);
    assert_eq!(nodes, 0, "the implied sum fails at the root");
    // With members beyond the counted values (x may be 5) the sum is only bounded above, and still fails.
    let wider = fzn.replace("var 0..2: x;", "var 0..5: x;");
    let (nodes, sat) = nodes_of(&wider);
    assert!(!sat);
    assert_eq!(nodes, 0, "sum <= 3 fails at the root");
}
