//! The FlatZinc reader and the spec's output: malformed inputs give a message with line and column (never a
//! panic), refused features give one clear message, and the markers follow the spec.

use flatzinc::{run, Error, Options};

fn go(src: &str, opts: &Options) -> Result<String, String> {
    let mut out = Vec::new();
    match run(src, opts, &mut out) {
        Ok(()) => Ok(String::from_utf8(out).expect("utf8")),
        Err(e) => Err(e.to_string()),
    }
}

fn err(src: &str) -> String {
    go(src, &Options::default()).expect_err("must be refused")
}

#[test]
fn syntax_errors_name_line_and_column() {
    let cases = [
        (
            "var 1..3: x;\nconstraint int_eq(x, );\nsolve satisfy;\n",
            "line 2, column 22",
        ),
        ("var 1..3: x\nsolve satisfy;\n", "line 2, column 1"),
        (
            "var 1..3: x;\nconstraint int_eq(x, 1);\n",
            "missing solve item",
        ),
        ("var 1..3: x;\nsolve satisfy; $\n", "line 2, column 16"),
        ("int: n;\nsolve satisfy;\n", "line 1, column 1"),
        ("var 1..3: x;\nsolve find;\n", "line 2, column 1"),
        (
            "array [0..2] of int: a = [1, 2, 3];\nsolve satisfy;\n",
            "1..n",
        ),
        (
            "var 1..99999999999999999999: x;\nsolve satisfy;\n",
            "line 1, column 8",
        ),
        (
            "var 1..3: x :: output_var;\nconstraint \"oops;\nsolve satisfy;\n",
            "unterminated string",
        ),
    ];
    for (src, want) in cases {
        let e = err(src);
        assert!(
            e.contains(want),
            "{src:?}: got `{e}`, expected it to mention `{want}`"
        );
    }
}

#[test]
fn truncated_inputs_never_panic() {
    let full = "array [1..2] of int: c = [1, -1];\nvar 1..3: x :: output_var;\nvar {1, 3}: y :: output_var;\n\
                array [1..2] of var int: v :: output_array([1..2]) = [x, y];\n\
                constraint int_lin_le(c, v, 0) :: domain;\nsolve :: int_search(v, first_fail, indomain_min, complete) minimize x;\n";
    assert!(go(full, &Options::default()).is_ok());
    for cut in 0..full.len() {
        let _ = go(&full[..cut], &Options::default());
    }
}

#[test]
fn float_and_set_variables_are_refused_with_one_message() {
    let e = err("var 0.0..1.0: f;\nsolve satisfy;\n");
    assert!(e.contains("float variables") && e.contains("line 1"), "{e}");
    let e = err("var set of 1..3: s;\nsolve satisfy;\n");
    assert!(e.contains("set variables"), "{e}");
    let e = err("var 1..3: x;\nconstraint float_lin_eq([1.0], [x], 1.0);\nsolve satisfy;\n");
    assert!(e.contains("float"), "{e}");
}

#[test]
fn unknown_constraints_and_wrong_arity_are_errors() {
    let e = err("var 1..3: x;\nconstraint frobnicate(x);\nsolve satisfy;\n");
    assert!(
        e.contains("line 2") && e.contains("unsupported constraint `frobnicate`"),
        "{e}"
    );
    let e = err("var 1..3: x;\nconstraint int_eq(x);\nsolve satisfy;\n");
    assert!(e.contains("int_eq") && e.contains("arguments"), "{e}");
}

#[test]
fn an_unknown_csp_builtin_says_the_solver_library_is_newer_than_the_binary() {
    let e = err("var 1..3: x;\nconstraint csp_frobnicate(x);\nsolve satisfy;\n");
    assert!(
        e.contains("line 2")
            && e.contains("unsupported constraint `csp_frobnicate`")
            && e.contains("cargo build --release -p flatzinc"),
        "{e}"
    );
}

#[test]
fn unbounded_variables_get_bounds_from_their_definition() {
    let src = "var 1..3: x :: output_var;\nvar 0..5: y;\nvar int: s :: output_var :: is_defined_var;\n\
               constraint int_lin_eq([2, 3, -1], [x, y, s], 0) :: defines_var(s);\nsolve maximize s;\n";
    let out = go(src, &Options::default()).expect("solves");
    assert_eq!(out, "x = 3;\ns = 21;\n----------\n==========\n");
    let e = err("var int: s;\nsolve satisfy;\n");
    assert!(e.contains("no finite bounds"), "{e}");
}

#[test]
fn domains_wider_than_a_bitset_are_solved_as_intervals() {
    let src = "var 0..100000: wide :: output_var;\nconstraint int_lin_eq([1], [wide], 99999);\nsolve satisfy;\n";
    let out = go(src, &Options::default()).expect("solves");
    assert_eq!(out, "wide = 99999;\n----------\n");
}

#[test]
fn an_element_of_a_constant_array_on_a_wide_variable_is_solved_by_bounds() {
    let src = "var 0..100000: wide :: output_var;\nvar 1..3: i :: output_var;\n\
               constraint array_int_element(i, [1, 2, 99999], wide);\nsolve maximize wide;\n";
    let out = go(src, &Options::default()).expect("solves");
    assert!(
        out.ends_with("wide = 99999;\ni = 3;\n----------\n==========\n"),
        "{out}"
    );
}

#[test]
fn an_element_of_an_array_of_wide_variables_is_solved_by_bounds() {
    // `a[2]` is an interval (0..100000); the index i, the entries and y meet by their bounds.
    let src = "var 1..3: i :: output_var;\narray [1..3] of var 0..100000: a :: output_array([1..3]);\n\
               var 0..100000: y :: output_var;\n\
               constraint int_le(50000, a[2]);\nconstraint int_le(a[1], 10);\nconstraint int_le(a[3], 10);\n\
               constraint array_var_int_element(i, a, y);\nsolve maximize y;\n";
    let out = go(src, &Options::default()).expect("solves");
    assert!(
        out.contains("i = 2;") && out.contains("y = 100000;"),
        "{out}"
    );
    assert!(out.ends_with("----------\n==========\n"), "{out}");
}

#[test]
fn a_constraint_that_needs_enumerable_domains_on_a_wide_variable_is_refused_at_its_line() {
    let e = err(
        "var 0..100000: wide :: output_var;\nvar 1..3: i :: output_var;\n\
         constraint csp_table_int([i, wide], [1, 2, 3, 99999]);\nsolve satisfy;\n",
    );
    assert!(
        e.contains("line 3") && e.contains("interval") && e.contains("65536"),
        "{e}"
    );
    // The refused variable is named as the FlatZinc declares it, with its line, not by csp-core's number.
    assert!(e.contains("variable `wide` (line 1) is an interval"), "{e}");
    assert!(!e.contains("x0") && !e.contains("x1"), "{e}");
}

#[test]
fn engine_refusals_name_the_flatzinc_variable_and_its_line() {
    // A member of an array declared without a value: named by the array and the index. (`table` needs
    // enumerable domains; `element` takes intervals.)
    let e = err("var 1..3: i :: output_var;
array [1..2] of var 0..100000: a;
var 0..3: y;
         constraint csp_table_int([i, a[2], y], [1, 2, 3]);
solve satisfy;
");
    assert!(
        e.contains("line 4") && e.contains("variable `a[2]` (line 2) is an interval"),
        "{e}"
    );
    // A divisor that can only be zero.
    let e = err("var 1..3: x;
var 0..0: zero;
var 0..3: q;
constraint int_div(x, zero, q);
solve satisfy;
");
    assert!(
        e.contains("line 4") && e.contains("`zero` (line 2) can only be 0"),
        "{e}"
    );
    // A declaration the engine refuses names the declaration.
    let e = err("var 5..7: y;
var {}: empty;
solve satisfy;
");
    assert!(e.contains("line 2") && e.contains("`empty`"), "{e}");
}

#[test]
fn output_follows_the_spec() {
    let src = "var 1..3: x :: output_var;\nvar bool: b :: output_var;\n\
               array [1..4] of var int: a :: output_array([1..2, 1..2]) = [x, 1, x, 2];\n\
               constraint bool2int(b, x);\nsolve satisfy;\n";
    let one = go(src, &Options::default()).expect("ok");
    assert_eq!(
        one,
        "x = 1;\nb = true;\na = array2d(1..2, 1..2, [1, 1, 1, 2]);\n----------\n"
    );
    let all = go(
        src,
        &Options {
            all: true,
            ..Options::default()
        },
    )
    .expect("ok");
    assert!(all.ends_with("----------\n==========\n"), "{all}");
    let n2 = go(
        "var 1..3: x :: output_var;\nsolve satisfy;\n",
        &Options {
            num_solutions: Some(2),
            ..Options::default()
        },
    )
    .expect("ok");
    assert_eq!(n2, "x = 1;\n----------\nx = 2;\n----------\n");
    let unsat = go(
        "var 1..3: x;\nconstraint int_lt(x, 1);\nsolve satisfy;\n",
        &Options::default(),
    );
    assert_eq!(unsat.expect("ok"), "=====UNSATISFIABLE=====\n");
    let stats = go(
        "var 1..3: x :: output_var;\nsolve satisfy;\n",
        &Options {
            statistics: true,
            ..Options::default()
        },
    )
    .expect("ok");
    assert!(
        stats.contains("%%%mzn-stat: nodes=") && stats.ends_with("%%%mzn-stat-end\n"),
        "{stats}"
    );
}

#[test]
fn optimisation_prints_improvements_with_dash_a_and_only_the_best_without() {
    let src = "var 1..4: x :: output_var;\nsolve minimize x;\n";
    let best = go(src, &Options::default()).expect("ok");
    assert_eq!(best, "x = 1;\n----------\n==========\n");
    let opts = Options {
        all: true,
        free: true,
        ..Options::default()
    };
    let src = "var 1..4: x :: output_var;\nsolve maximize x;\n";
    let all = go(src, &opts).expect("ok");
    assert!(
        all.starts_with("x = 1;\n----------\n")
            && all.ends_with("x = 4;\n----------\n==========\n"),
        "{all}"
    );
}

#[test]
fn a_time_limit_before_any_solution_prints_unknown() {
    // 14 variables all different over 13 values: a zero time limit stops the search at its first check, unless
    // the root propagation (pigeonhole test) already proves it unsatisfiable.
    let mut src = String::new();
    for i in 0..14 {
        src += &format!("var 1..13: x{i};\n");
    }
    let vars: Vec<String> = (0..14).map(|i| format!("x{i}")).collect();
    src += &format!("constraint int_lin_ne([1, -1], [x0, x1], 0);\nconstraint csp_all_different_int([{}]);\nsolve satisfy;\n", vars.join(", "));
    let out = go(
        &src,
        &Options {
            time_limit: Some(std::time::Duration::ZERO),
            ..Options::default()
        },
    )
    .expect("ok");
    assert!(
        out == "=====UNKNOWN=====\n" || out == "=====UNSATISFIABLE=====\n",
        "{out}"
    );
}

#[test]
fn errors_are_typed() {
    let mut out = Vec::new();
    let e = run("solve satisfy", &Options::default(), &mut out).expect_err("no semicolon");
    assert!(matches!(e, Error::Parse(_)));
}

#[test]
fn seq_search_groups_are_phases_with_their_own_orders() {
    // y is annotated first: it is branched on first (ascending from its lower bound 2, since x < y), then x with
    // its own median order. One global order (the old mapping) would give x = 1 or y = 5.
    let src =
        "var 1..9: x :: output_var;\nvar 1..9: y :: output_var;\nvar 1..9: z :: output_var;\n\
               constraint int_lt(x, y);\n\
               solve :: seq_search([int_search([y], input_order, indomain_min, complete), \
               int_search([x, z], input_order, indomain_median, complete)]) satisfy;\n";
    assert_eq!(
        go(src, &Options::default()).expect("solves"),
        "x = 1;\ny = 2;\nz = 5;\n----------\n"
    );
    // The groups swapped: x first, at the (lower) median 4 of 1..8, then y ascending from 5.
    let src = "var 1..9: x :: output_var;\nvar 1..9: y :: output_var;\n\
               constraint int_lt(x, y);\n\
               solve :: seq_search([int_search([x], input_order, indomain_median, complete), \
               bool_search([], input_order, indomain_min, complete), \
               int_search([y], first_fail, indomain_min, complete)]) satisfy;\n";
    assert_eq!(
        go(src, &Options::default()).expect("solves"),
        "x = 4;\ny = 5;\n----------\n"
    );
    // A slice as MiniZinc writes it in annotations: `array1d(2..2, [...])`.
    let src = "var 1..9: x :: output_var;\nvar 1..9: y :: output_var;\n\
               constraint int_lt(x, y);\n\
               solve :: seq_search([int_search(array1d(2..2, [y]), input_order, indomain_median, complete), \
               int_search([x], input_order, indomain_min, complete)]) satisfy;\n";
    assert_eq!(
        go(src, &Options::default()).expect("solves"),
        "x = 1;\ny = 5;\n----------\n"
    );
}

#[test]
fn search_annotations_become_one_phase_each() {
    use csp_core::{ValueOrder, VarOrder};
    let src = "var 1..9: x;\nvar bool: b;\narray [1..2] of var int: v = [x, x];\n\
               solve :: seq_search([int_search(v, dom_w_deg, indomain_random, complete), \
               bool_search([b], smallest, indomain_max, complete)]) satisfy;\n";
    let fzn = flatzinc::parser::parse(src).expect("parses");
    let t = flatzinc::translate::translate(&fzn).expect("translates");
    let s = &t.search;
    assert_eq!(s.phases.len(), 2);
    assert_eq!(s.phases[0].vars.len(), 2);
    assert_eq!(s.phases[0].vars[0], s.phases[0].vars[1]);
    assert_eq!(
        (s.phases[0].var_order, s.phases[0].value_order),
        (VarOrder::DomWdeg, ValueOrder::Random)
    );
    assert_eq!(s.phases[1].vars.len(), 1);
    assert_ne!(s.phases[1].vars[0], s.phases[0].vars[0]);
    assert_eq!(
        (s.phases[1].var_order, s.phases[1].value_order),
        (VarOrder::Smallest, ValueOrder::Descending)
    );
    // The unlisted variables keep the first annotation's orders.
    assert_eq!(
        (s.var_order, s.value_order),
        (Some(VarOrder::DomWdeg), Some(ValueOrder::Random))
    );
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

#[test]
fn every_standard_search_order_maps_natively_and_unknown_ones_warn() {
    use csp_core::{ValueOrder, VarOrder};
    let orders = |var: &str, val: &str| {
        let src =
            format!("var 1..9: x;\nsolve :: int_search([x], {var}, {val}, complete) satisfy;\n");
        let fzn = flatzinc::parser::parse(&src).expect("parses");
        let s = flatzinc::translate::translate(&fzn)
            .expect("translates")
            .search;
        (s.phases[0].var_order, s.phases[0].value_order, s.warnings)
    };
    for (name, order) in [
        ("input_order", VarOrder::Input),
        ("first_fail", VarOrder::Mrv),
        ("anti_first_fail", VarOrder::AntiFirstFail),
        ("smallest", VarOrder::Smallest),
        ("largest", VarOrder::Largest),
        ("occurrence", VarOrder::MrvDegree),
        ("most_constrained", VarOrder::MrvDegree),
        ("max_regret", VarOrder::MaxRegret),
        ("dom_w_deg", VarOrder::DomWdeg),
    ] {
        let (v, _, w) = orders(name, "indomain_min");
        assert_eq!(v, order, "{name}");
        assert!(w.is_empty(), "{name}: {w:?}");
    }
    for (name, order) in [
        ("indomain_min", ValueOrder::Ascending),
        ("indomain_max", ValueOrder::Descending),
        ("indomain_median", ValueOrder::Median),
        ("indomain_random", ValueOrder::Random),
        ("indomain_split", ValueOrder::Split),
        ("indomain_reverse_split", ValueOrder::ReverseSplit),
    ] {
        let (_, v, w) = orders("input_order", name);
        assert_eq!(v, order, "{name}");
        assert!(w.is_empty(), "{name}: {w:?}");
    }
    let (v, _, w) = orders("no_such_order", "indomain_min");
    assert_eq!((v, w.len()), (VarOrder::Input, 1));
}
