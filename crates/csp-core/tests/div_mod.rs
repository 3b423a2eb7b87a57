//! `div` and `mod` on interval (bounds) variables inside a search: the divisor of a division and both operands of a
//! remainder are narrowed by propagation, so a search that branches on them first finds the answer without
//! failing on the values propagation removes. Answers checked against a direct scan of the ranges.
#![allow(clippy::unwrap_used)]

use csp_core::constraints::ArithOp;
use csp_core::{Model, Outcome, SearchConfig, Solver, ValueOrder, VarOrder};

/// Input order, smallest value first: the divisor (created first) is the first decision.
fn divisor_first() -> SearchConfig {
    SearchConfig {
        var_order: VarOrder::Input,
        value_order: ValueOrder::Ascending,
        ..SearchConfig::default()
    }
}

#[test]
fn division_narrows_the_divisor_so_a_search_on_it_never_fails() {
    // x div y = 100 with x in 1000..=1010, y in 1..=10^5: only y = 10 works (x div 9 >= 111, x div 11 <= 91), and
    // then x <= 1009. Without narrowing y, this order tries y = 1..9 and fails nine times first.
    let mut m = Model::new();
    let y = m.new_interval_var(1, 100_000).unwrap();
    let x = m.new_interval_var(1000, 1010).unwrap();
    let z = m.new_interval_var(100, 100).unwrap();
    m.arith(ArithOp::Div, x, y, z).unwrap();
    let p = m.build().unwrap();
    let mut solver = Solver::new(&p, divisor_first());
    let r = solver.solve(&[]);
    assert_eq!(r.outcome, Outcome::Solved);
    let s = r.solution.unwrap();
    assert_eq!((s.value(y), s.value(x) / s.value(y)), (10, 100));
    assert_eq!(
        r.stats.fails, 0,
        "the divisor was not narrowed before the search"
    );
    let direct = (1000..=1010i64)
        .flat_map(|x| (1..=100_000i64).map(move |y| (x, y)))
        .filter(|&(x, y)| x / y == 100)
        .count() as u64;
    assert_eq!(solver.count(&[], 100).count, direct);
}

#[test]
fn remainder_narrows_the_divisor_and_the_dividend_so_a_search_on_them_never_fails() {
    // x mod y = 7 with x in 0..=10, y in 1..=10^5: the remainder is below the divisor, so y >= 8, and has the
    // dividend's sign and at most its magnitude, so x >= 7. This order tries y = 8 first: x = 7 is the only
    // dividend left (8, 9, 10 mod 8 are 0..2). Without narrowing, y = 1..7 fail first.
    let mut m = Model::new();
    let y = m.new_interval_var(1, 100_000).unwrap();
    let x = m.new_interval_var(0, 10).unwrap();
    let z = m.new_interval_var(7, 7).unwrap();
    m.arith(ArithOp::Mod, x, y, z).unwrap();
    let p = m.build().unwrap();
    let mut solver = Solver::new(&p, divisor_first());
    let r = solver.solve(&[]);
    assert_eq!(r.outcome, Outcome::Solved);
    let s = r.solution.unwrap();
    assert_eq!((s.value(y), s.value(x)), (8, 7));
    assert_eq!(
        r.stats.fails, 0,
        "the remainder's operands were not narrowed"
    );
    let direct = (0..=10i64)
        .flat_map(|x| (1..=100_000i64).map(move |y| (x, y)))
        .filter(|&(x, y)| x % y == 7)
        .count() as u64;
    assert_eq!(solver.count(&[], direct + 1).count, direct);
}
