//! Bad models and bad assumptions give clear errors, never panics.
#![allow(clippy::unwrap_used)]

use csp_core::{Model, ModelError, Outcome, Relation, SearchConfig, Solver};

#[test]
fn an_empty_range_is_rejected_with_its_bounds() {
    let mut m = Model::new();
    let e = m.new_var(5, 4).unwrap_err();
    assert_eq!(
        e,
        ModelError::EmptyDomain {
            var: 0,
            min: 5,
            max: 4
        }
    );
    assert!(e.to_string().contains("5..=4"));
    assert!(matches!(
        m.new_var_with_values(&[]),
        Err(ModelError::NoValues { .. })
    ));
}

#[test]
fn a_domain_wider_than_the_maximum_is_rejected() {
    let mut m = Model::new();
    assert!(matches!(
        m.new_var(i64::MIN, i64::MAX),
        Err(ModelError::DomainTooWide { .. })
    ));
    assert!(m.new_var(0, 4095).is_ok());
}

#[test]
fn a_variable_from_another_model_is_rejected() {
    let mut a = Model::new();
    let mut b = Model::new();
    let x = a.new_var(1, 3).unwrap();
    let y = b.new_var(1, 3).unwrap();
    let e = b.all_different(&[x, y]).unwrap_err();
    assert!(matches!(e, ModelError::ForeignVariable { .. }));
    assert!(e.to_string().contains("does not belong"));
    assert!(b.not_equal(y, x, 0).is_err());
    assert!(b.linear(&[(1, x)], Relation::Le, 3).is_err());
}

#[test]
fn a_table_tuple_of_the_wrong_arity_is_rejected_with_its_index() {
    let mut m = Model::new();
    let x = m.new_var(1, 3).unwrap();
    let y = m.new_var(1, 3).unwrap();
    let e = m.table(&[x, y], &[vec![1, 2], vec![3]]).unwrap_err();
    assert_eq!(
        e,
        ModelError::TableArity {
            tuple: 1,
            expected: 2,
            got: 1
        }
    );
}

#[test]
fn a_linear_sum_that_can_overflow_is_rejected() {
    let mut m = Model::new();
    let x = m.new_var(0, 1000).unwrap();
    let e = m
        .linear(&[(i64::MAX / 10, x)], Relation::Le, 0)
        .unwrap_err();
    assert!(matches!(e, ModelError::Overflow { .. }));
    let y = m.new_var(i64::MAX - 5, i64::MAX).unwrap();
    assert!(matches!(
        m.all_different_offset(&[x, y], &[0, 10]),
        Err(ModelError::Overflow { .. })
    ));
    assert!(matches!(
        m.not_equal(x, y, 10),
        Err(ModelError::Overflow { .. })
    ));
}

#[test]
fn mismatched_offsets_are_rejected() {
    let mut m = Model::new();
    let x = m.new_var(0, 3).unwrap();
    let e = m.all_different_offset(&[x], &[1, 2]).unwrap_err();
    assert_eq!(
        e,
        ModelError::LengthMismatch {
            what: "all_different_offset",
            expected: 1,
            got: 2
        }
    );
}

#[test]
fn an_assumption_outside_the_domain_is_unsatisfiable_and_explained() {
    let mut m = Model::new();
    let x = m.new_var(1, 9).unwrap();
    let p = m.build().unwrap();
    let r = Solver::new(&p, SearchConfig::default()).solve(&[(x, 10)]);
    assert_eq!(r.outcome, Outcome::Unsatisfiable);
    let e = p.check_assumptions(&[(x, 10)]).unwrap_err();
    assert_eq!(
        e,
        ModelError::AssumptionOutsideDomain {
            var: 0,
            value: 10,
            min: 1,
            max: 9
        }
    );
    assert!(e.to_string().contains("x0 = 10"));
}

#[test]
fn conflicting_assumptions_are_unsatisfiable() {
    let mut m = Model::new();
    let x = m.new_var(1, 9).unwrap();
    let y = m.new_var(1, 9).unwrap();
    m.all_different(&[x, y]).unwrap();
    let p = m.build().unwrap();
    let mut s = Solver::new(&p, SearchConfig::default());
    assert_eq!(s.solve(&[(x, 3), (y, 3)]).outcome, Outcome::Unsatisfiable);
    assert_eq!(s.solve(&[(x, 3), (x, 4)]).outcome, Outcome::Unsatisfiable);
    assert_eq!(s.solve(&[(x, 3)]).outcome, Outcome::Solved);
}

#[test]
fn an_assumption_on_a_foreign_variable_is_unsatisfiable_not_a_panic() {
    let mut a = Model::new();
    let mut b = Model::new();
    let _ = a.new_var(1, 2).unwrap();
    let bx: Vec<_> = (0..5).map(|_| b.new_var(1, 2).unwrap()).collect();
    let p = a.build().unwrap();
    let r = Solver::new(&p, SearchConfig::default()).solve(&[(bx[4], 1)]);
    assert_eq!(r.outcome, Outcome::Unsatisfiable);
    assert!(matches!(
        p.check_assumptions(&[(bx[4], 1)]),
        Err(ModelError::ForeignVariable { .. })
    ));
}

#[test]
fn problems_are_shared_across_threads_and_solvers_move_between_them() {
    fn shared<T: Send + Sync>() {}
    fn movable<T: Send>() {}
    shared::<csp_core::Problem>();
    movable::<Solver<'static>>();
    shared::<csp_core::Solution>();
}

#[test]
fn a_non_boolean_variable_in_a_boolean_constraint_is_rejected_with_its_domain() {
    let mut m = Model::new();
    let b = m.new_bool().unwrap();
    let x = m.new_var(0, 2).unwrap();
    let e = m.clause(&[b], &[x]).unwrap_err();
    assert!(matches!(
        e,
        ModelError::NotBoolean {
            what: "clause",
            var: 1,
            min: 0,
            max: 2
        }
    ));
    assert!(e.to_string().contains("Boolean"));
    assert!(matches!(
        m.reify_linear(
            &[(1, b)],
            Relation::Eq,
            1,
            x,
            csp_core::constraints::Reification::Equivalent
        ),
        Err(ModelError::NotBoolean { .. })
    ));
}

#[test]
fn division_by_the_constant_zero_is_rejected() {
    let mut m = Model::new();
    let x = m.new_var(0, 5).unwrap();
    let zero = m.new_var(0, 0).unwrap();
    let z = m.new_var(0, 5).unwrap();
    for op in [
        csp_core::constraints::ArithOp::Div,
        csp_core::constraints::ArithOp::Mod,
    ] {
        let e = m.arith(op, x, zero, z).unwrap_err();
        assert!(
            matches!(e, ModelError::DivisionByZero { var: 1, .. }),
            "{e}"
        );
    }
}

#[test]
fn a_product_or_power_that_can_overflow_is_rejected() {
    let mut m = Model::new();
    let big = m.new_var_with_values(&[-1, 1 << 40]).unwrap();
    let z = m.new_var(0, 1).unwrap();
    assert!(matches!(
        m.times(big, big, z),
        Err(ModelError::Overflow { what: "times", .. })
    ));
    let e = m.new_var(0, 30).unwrap();
    assert!(matches!(
        m.arith(csp_core::constraints::ArithOp::Pow, big, e, z),
        Err(ModelError::Overflow { what: "pow", .. })
    ));
}

#[test]
fn empty_argument_lists_and_foreign_variables_of_new_constraints_are_rejected() {
    let mut m = Model::new();
    let x = m.new_var(0, 3).unwrap();
    assert!(matches!(
        m.max_of(&[], x),
        Err(ModelError::EmptyArgument { .. })
    ));
    assert!(matches!(
        m.element(x, 0, &[], x),
        Err(ModelError::EmptyArgument { .. })
    ));
    assert!(matches!(
        m.element_var(x, 0, &[], x),
        Err(ModelError::EmptyArgument { .. })
    ));
    let mut other = Model::new();
    let y = other.new_var(0, 3).unwrap();
    let _ = other.new_var(0, 3).unwrap();
    assert!(matches!(
        m.times(x, y, x),
        Err(ModelError::ForeignVariable { .. })
    ));
    assert!(matches!(
        m.element_var(x, 0, &[y], x),
        Err(ModelError::ForeignVariable { .. })
    ));
}

#[test]
fn an_automaton_with_states_out_of_range_is_rejected() {
    let mut m = Model::new();
    let xs: Vec<_> = (0..3).map(|_| m.new_var(0, 1).unwrap()).collect();
    for (start, t, acc) in [
        (2, vec![(0, 0, 1)], vec![1]),
        (0, vec![(0, 0, 5)], vec![1]),
        (0, vec![(0, 0, 1)], vec![7]),
        (0, vec![(0, 0, 1), (0, 0, 0)], vec![1]),
    ] {
        let e = m.regular(&xs, 2, start, &t, &acc).unwrap_err();
        assert!(matches!(e, ModelError::InvalidAutomaton { .. }), "{e}");
    }
    assert!(m.regular(&xs, 2, 0, &[(0, 0, 1), (1, 1, 0)], &[1]).is_ok());
    assert!(matches!(
        m.inverse(&xs[..2], &xs[..1], 0),
        Err(ModelError::LengthMismatch { .. })
    ));
    assert!(matches!(
        m.lex(&xs[..2], &xs, false),
        Err(ModelError::LengthMismatch { .. })
    ));
    assert!(matches!(
        m.circuit(&[], 0),
        Err(ModelError::EmptyArgument { .. })
    ));
}

#[test]
fn describe_names_the_variables_of_every_message_as_the_caller_asks() {
    let name = |v: usize| format!("`v{v}`");
    let mut m = Model::new();
    let big = m.new_var(i64::MAX - 2, i64::MAX).unwrap();
    let y = m.new_var(0, 3).unwrap();
    let zero = m.new_var(0, 0).unwrap();
    let wide = m.new_var(0, 1_000_000).unwrap();
    // Overflow details name both operands; the numbers inside other words stay as they are.
    let e = m.times(big, big, y).unwrap_err();
    assert_eq!(e.to_string(), e.describe(&|v| format!("x{v}")));
    let d = e.describe(&name);
    assert!(d.contains("`v0` * `v0`") && !d.contains("x0"), "{d}");
    let e = m
        .arith(csp_core::constraints::ArithOp::Div, y, zero, y)
        .unwrap_err();
    assert!(e.describe(&name).contains("(`v2` can only be 0)"), "{e}");
    // (`element` takes intervals, over constants and over variables; `table` needs enumerable domains.)
    let e = m.table(&[y, wide], &[vec![1, 2]]).unwrap_err();
    assert!(matches!(e, ModelError::NeedsEnumerable { var: 3, .. }));
    let d = e.describe(&name);
    assert!(
        d.contains("variable `v3` is an interval") && !d.contains("x3"),
        "{d}"
    );
    assert!(e.to_string().contains("variable x3 is an interval"), "{e}");
}
