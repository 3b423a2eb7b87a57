"""Every constraint of csp_sudoku.engine against brute-force enumeration in Python, under several search strategies;
branch and bound against the enumerated optimum; limits never reported as unsatisfiable; bad arguments as
exceptions."""

import itertools
from typing import Callable, List, Sequence, Tuple

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from csp_sudoku.engine import IntVar, Model

#: Strategies every brute-force check runs under (the default first).
STRATEGIES = [
    {},
    {"var_order": "input", "propagation": "none"},
    {"var_order": "dom-wdeg", "value_order": "median"},
    {"var_order": "mrv-degree", "propagation": "singles", "value_order": "lcv"},
    {"var_order": "mrv", "value_order": "random", "random_ties": True, "seed": 7},
]

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Domain = Tuple[int, int]
#: A small integer range as (min, max).
domains = st.tuples(st.integers(-3, 3), st.integers(0, 3)).map(lambda t: (t[0], t[0] + t[1]))
bool_domain = (0, 1)


def make(m: Model, ds: Sequence[Domain], prefix: str = "v") -> List[IntVar]:
    return [m.int_var(lo, hi, f"{prefix}{i}") for i, (lo, hi) in enumerate(ds)]


def check(m: Model, xs: Sequence[IntVar], ds: Sequence[Domain], holds: Callable[..., bool]) -> int:
    """The solutions of `m` on `xs` are exactly the assignments brute force accepts, each found once, under every
    strategy; returns how many there are."""
    brute = {t for t in itertools.product(*(range(lo, hi + 1) for lo, hi in ds)) if holds(*t)}
    for options in STRATEGIES:
        found = [tuple(s[x] for x in xs) for s in m.solutions(**options)]
        assert len(found) == len(set(found)), options
        assert set(found) == brute, options
        r = m.count(**options)
        assert (r.status, r.count) == ("solved" if brute else "unsatisfiable", len(brute)), options
    return len(brute)


def tdiv(x: int, y: int) -> int:
    """Division rounding toward zero (csp-core's `div`)."""
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def tmod(x: int, y: int) -> int:
    return x - y * tdiv(x, y)


# --- Booleans and clauses ---------------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(1, 4), st.data())
def test_clauses_and_boolean_logic_accept_exactly_what_brute_force_does(n, data):
    kind = data.draw(st.sampled_from(["clause", "and", "or", "xor", "not", "equiv"]))
    m = Model()
    bs = [m.bool_var(f"b{i}") for i in range(n)]
    r = m.bool_var("r")
    xs = bs + [r]
    ds = [bool_domain] * (n + 1)
    if kind == "clause":
        signs = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
        m.clause([b for b, s in zip(bs, signs) if s], [b for b, s in zip(bs, signs) if not s])
        holds = lambda *v: any(v[i] == int(signs[i]) for i in range(n))  # noqa: E731
    elif kind == "and":
        m.bool_and(bs, r)
        holds = lambda *v: v[n] == int(all(v[:n]))  # noqa: E731
    elif kind == "or":
        m.bool_or(bs, r)
        holds = lambda *v: v[n] == int(any(v[:n]))  # noqa: E731
    elif kind == "xor":
        odd = data.draw(st.booleans())
        m.bool_xor(bs, odd)
        holds = lambda *v: sum(v[:n]) % 2 == int(odd)  # noqa: E731
    elif kind == "not":
        m.bool_not(bs[0], r)
        holds = lambda *v: v[n] == 1 - v[0]  # noqa: E731
    else:
        m.bool_equiv(bs[0], r)
        holds = lambda *v: v[n] == v[0]  # noqa: E731
    check(m, xs, ds, holds)


# --- Linear relations and reification --------------------------------------------------------------------------

RELATIONS = {
    "==": lambda s, c: s == c,
    "!=": lambda s, c: s != c,
    "<=": lambda s, c: s <= c,
    ">=": lambda s, c: s >= c,
    "<": lambda s, c: s < c,
    ">": lambda s, c: s > c,
}


@SETTINGS
@given(
    st.lists(domains, min_size=1, max_size=3),
    st.data(),
    st.sampled_from(sorted(RELATIONS)),
    st.integers(-6, 6),
)
def test_linear_relations_of_every_kind_accept_exactly_what_brute_force_does(ds, data, op, rhs):
    coefs = data.draw(st.lists(st.integers(-3, 3), min_size=len(ds), max_size=len(ds)))
    m = Model()
    xs = make(m, ds)
    m.linear(list(zip(coefs, xs)), op, rhs)
    check(m, xs, ds, lambda *v: RELATIONS[op](sum(a * x for a, x in zip(coefs, v)), rhs))


@SETTINGS
@given(
    st.lists(domains, min_size=1, max_size=3),
    st.data(),
    st.sampled_from(sorted(RELATIONS)),
    st.integers(-5, 5),
    st.booleans(),
)
def test_reified_and_half_reified_linear_relations_accept_exactly_what_brute_force_does(ds, data, op, rhs, half):
    coefs = data.draw(st.lists(st.integers(-2, 2), min_size=len(ds), max_size=len(ds)))
    m = Model()
    xs = make(m, ds)
    b = m.bool_var("b")
    m.reify_linear(list(zip(coefs, xs)), op, rhs, b, half=half)

    def holds(*v):
        rel = RELATIONS[op](sum(a * x for a, x in zip(coefs, v[:-1])), rhs)
        return (not v[-1] or rel) if half else v[-1] == int(rel)

    check(m, xs + [b], ds + [bool_domain], holds)


# --- Arithmetic -------------------------------------------------------------------------------------------------

ARITH = {
    "times": lambda x, y, z: z == x * y,
    "div": lambda x, y, z: y != 0 and z == tdiv(x, y),
    "mod": lambda x, y, z: y != 0 and z == tmod(x, y),
    "pow": lambda x, y, z: y >= 0 and z == x**y,
}


@SETTINGS
@given(st.sampled_from(sorted(ARITH)), domains, domains, st.tuples(st.integers(-9, 9), st.integers(0, 12)))
def test_times_div_mod_and_pow_accept_exactly_what_brute_force_does(op, dx, dy, z):
    dz = (z[0], z[0] + z[1])
    m = Model()
    x, y, r = make(m, [dx, dy, dz])
    try:
        getattr(m, op)(x, y, r)
    except ValueError as e:
        # Only a divisor that can only be zero is refused at these sizes.
        assert op in ("div", "mod") and dy == (0, 0), e
        return
    check(m, [x, y, r], [dx, dy, dz], ARITH[op])


@SETTINGS
@given(st.lists(domains, min_size=1, max_size=3), domains, st.sampled_from(["abs", "min_of", "max_of"]))
def test_abs_min_and_max_accept_exactly_what_brute_force_does(ds, dz, op):
    m = Model()
    xs = make(m, ds)
    z = m.int_var(dz[0], dz[1], "z")
    if op == "abs":
        m.abs(xs[0], z)
        holds = lambda *v: v[-1] == abs(v[0])  # noqa: E731
    elif op == "min_of":
        m.min_of(xs, z)
        holds = lambda *v: v[-1] == min(v[:-1])  # noqa: E731
    else:
        m.max_of(xs, z)
        holds = lambda *v: v[-1] == max(v[:-1])  # noqa: E731
    check(m, xs + [z], ds + [dz], holds)


# --- Element, counting, cardinality -----------------------------------------------------------------------------


@SETTINGS
@given(
    st.lists(st.integers(-3, 3), min_size=1, max_size=4),
    domains,
    domains,
    st.integers(-2, 2),
    st.booleans(),
)
def test_element_over_constants_and_over_variables_accepts_exactly_what_brute_force_does(
    array, dindex, dz, first, of_variables
):
    m = Model()
    index, z = m.int_var(dindex[0], dindex[1], "i"), m.int_var(dz[0], dz[1], "z")
    if of_variables:
        ds = [(a, a + 1) for a in array]
        items = make(m, ds, "a")
        m.element(index, items, z, first=first)
        n = len(items)
        holds = lambda i, zv, *a: 0 <= i - first < n and zv == a[i - first]  # noqa: E731
        check(m, [index, z] + items, [dindex, dz] + ds, holds)
    else:
        m.element(index, array, z, first=first)
        holds = lambda i, zv: 0 <= i - first < len(array) and zv == array[i - first]  # noqa: E731
        check(m, [index, z], [dindex, dz], holds)


@SETTINGS
@given(st.lists(domains, min_size=1, max_size=3), st.integers(-2, 2), st.booleans(), st.integers(0, 3))
def test_count_eq_with_a_constant_or_a_variable_accepts_exactly_what_brute_force_does(ds, value, by_var, nmax):
    m = Model()
    xs = make(m, ds)
    n = m.int_var(0, nmax, "n")
    if by_var:
        y = m.int_var(value - 1, value + 1, "y")
        m.count_eq(xs, y, n)
        holds = lambda *v: v[-2] == sum(x == v[-1] for x in v[:-2])  # noqa: E731
        check(m, xs + [n, y], ds + [(0, nmax), (value - 1, value + 1)], holds)
    else:
        m.count_eq(xs, value, n)
        check(m, xs + [n], ds + [(0, nmax)], lambda *v: v[-1] == sum(x == value for x in v[:-1]))


@SETTINGS
@given(st.lists(domains, min_size=1, max_size=3), st.lists(st.integers(-3, 3), min_size=1, max_size=2, unique=True))
def test_global_cardinality_accepts_exactly_what_brute_force_does(ds, values):
    m = Model()
    xs = make(m, ds)
    counts = [m.int_var(0, 2, f"c{k}") for k in range(len(values))]
    m.global_cardinality(xs, values, counts)
    k = len(xs)

    def holds(*v):
        return all(v[k + j] == sum(x == value for x in v[:k]) for j, value in enumerate(values))

    check(m, xs + counts, ds + [(0, 2)] * len(values), holds)


# --- Globals on sequences ---------------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(1, 4), st.integers(-1, 1))
def test_inverse_accepts_exactly_the_pairs_of_inverse_permutations(n, first):
    m = Model()
    d = (first - 1, first + n)  # wider than the index range: values outside it have no partner
    f = make(m, [d] * n, "f")
    g = make(m, [d] * n, "g")
    m.inverse(f, g, first=first)

    def holds(*v):
        fs, gs = v[:n], v[n:]
        ok = all(first <= x < first + n for x in v)
        return ok and all((fs[i] == j + first) == (gs[j] == i + first) for i in range(n) for j in range(n))

    assert check(m, f + g, [d] * (2 * n), holds) == [1, 1, 2, 6, 24][n]


@SETTINGS
@given(st.lists(st.tuples(domains, domains), min_size=1, max_size=3), st.booleans())
def test_lex_less_and_lex_less_or_equal_accept_exactly_what_brute_force_does(pairs, strict):
    m = Model()
    xs = make(m, [p[0] for p in pairs], "x")
    ys = make(m, [p[1] for p in pairs], "y")
    m.lex(xs, ys, strict=strict)
    k = len(pairs)
    check(
        m,
        xs + ys,
        [p[0] for p in pairs] + [p[1] for p in pairs],
        lambda *v: v[:k] < v[k:] if strict else v[:k] <= v[k:],
    )


@SETTINGS
@given(st.integers(1, 4), st.integers(1, 3), st.data())
def test_regular_accepts_exactly_the_words_of_its_automaton(length, states, data):
    symbols = [0, 1, 2]
    transitions = {}
    for q in range(states):
        for s in symbols:
            to = data.draw(st.one_of(st.none(), st.integers(0, states - 1)))
            if to is not None:
                transitions[(q, s)] = to
    accepting = data.draw(st.lists(st.integers(0, states - 1), max_size=states, unique=True))
    m = Model()
    xs = make(m, [(0, 2)] * length)
    m.regular(xs, states, 0, [(q, s, t) for (q, s), t in transitions.items()], accepting)

    def holds(*word):
        q = 0
        for s in word:
            if (q, s) not in transitions:
                return False
            q = transitions[(q, s)]
        return q in accepting

    check(m, xs, [(0, 2)] * length, holds)


def _successor_cycles(succ: Sequence[int]) -> List[List[int]]:
    """The cycles of a successor function on 0..n-1 (every node reached, as a permutation)."""
    seen, cycles = set(), []
    for start in range(len(succ)):
        if start in seen:
            continue
        cycle, node = [], start
        while node not in seen:
            seen.add(node)
            cycle.append(node)
            node = succ[node]
        cycles.append(cycle)
    return cycles


def _is_permutation(v: Sequence[int], first: int) -> bool:
    return sorted(v) == list(range(first, first + len(v)))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("first", [0, 1])
def test_circuit_accepts_exactly_the_hamiltonian_circuits(n, first):
    m = Model()
    xs = make(m, [(first, first + n - 1)] * n)
    m.circuit(xs, first=first)

    def holds(*v):
        return _is_permutation(v, first) and len(_successor_cycles([x - first for x in v])) == 1

    assert check(m, xs, [(first, first + n - 1)] * n, holds) == [1, 1, 2, 6, 24][n - 1]  # (n-1)! circuits


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("first", [0, 1])
def test_subcircuit_accepts_exactly_one_circuit_with_the_other_nodes_pointing_to_themselves(n, first):
    m = Model()
    xs = make(m, [(first, first + n - 1)] * n)
    m.subcircuit(xs, first=first)

    def holds(*v):
        if not _is_permutation(v, first):
            return False
        return sum(len(c) > 1 for c in _successor_cycles([x - first for x in v])) <= 1

    check(m, xs, [(first, first + n - 1)] * n, holds)


@SETTINGS
@given(
    st.lists(domains, min_size=1, max_size=3),
    st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), max_size=8),
)
def test_table_and_all_different_together_accept_exactly_what_brute_force_does(ds, rows):
    m = Model()
    xs = make(m, ds)
    tuples = [r[: len(ds)] for r in rows]
    m.table(xs, tuples)
    m.all_different(xs)
    check(m, xs, ds, lambda *v: list(v) in tuples and len(set(v)) == len(v))


# --- Branch and bound -------------------------------------------------------------------------------------------


@SETTINGS
@given(
    st.lists(domains, min_size=2, max_size=4),
    st.data(),
    st.booleans(),
    st.sampled_from([0, 1, 20_000]),
)
def test_branch_and_bound_finds_the_enumerated_optimum_and_reports_each_improvement(ds, data, maximize, scale):
    # scale 20,000 makes the objective's range wider than a domain: the re-solving path.
    coefs = data.draw(st.lists(st.integers(-3, 3), min_size=len(ds), max_size=len(ds)))
    coefs = [a * scale if scale else a for a in coefs]
    cap = data.draw(st.integers(-4, 6))
    m = Model()
    xs = make(m, ds)
    m.linear([(1, x) for x in xs], "<=", cap)
    m.all_different(xs[:2])
    feasible = [
        v
        for v in itertools.product(*(range(lo, hi + 1) for lo, hi in ds))
        if sum(v) <= cap and v[0] != v[1]
    ]
    objective = list(zip(coefs, xs))
    assume(any(coefs))
    seen: List[int] = []
    options = data.draw(st.sampled_from(STRATEGIES))
    call = m.maximize if maximize else m.minimize
    r = call(objective, on_improve=lambda s, v: seen.append(v), **options)
    if not feasible:
        assert (r.status, r.solution, r.objective, seen) == ("unsatisfiable", None, None, [])
        return
    values = [sum(a * x for a, x in zip(coefs, v)) for v in feasible]
    best = max(values) if maximize else min(values)
    assert (r.status, r.objective, r.count) == ("optimal", best, 1)
    got = tuple(r[x] for x in xs)
    assert got in feasible and sum(a * x for a, x in zip(coefs, got)) == best
    assert seen and seen[-1] == best and r.improvements == len(seen)
    assert all((b > a) if maximize else (b < a) for a, b in zip(seen, seen[1:]))


def test_an_objective_variable_is_optimised_directly_and_a_callback_returning_false_stops_the_search():
    m = Model()
    xs = [m.int_var(0, 9, f"x{i}") for i in range(4)]
    total = m.int_var(0, 36, "total")
    m.linear([(1, x) for x in xs] + [(-1, total)], "==", 0)
    m.all_different(xs)
    assert m.maximize(total).objective == 9 + 8 + 7 + 6
    first = m.maximize(total, on_improve=lambda s, v: False)
    assert first.status == "feasible" and first.improvements == 1
    assert first.objective == first[total] == sum(first[x] for x in xs)


def test_an_exception_in_the_callback_stops_the_search_and_is_raised():
    m = Model()
    x = m.int_var(0, 100, "x")

    def fail(solution, value):
        raise LookupError(f"stop at {value}")

    with pytest.raises(LookupError, match="stop at"):
        m.minimize(x, on_improve=fail)


# --- Limits -----------------------------------------------------------------------------------------------------


def _queens(n: int) -> Tuple[Model, List[IntVar]]:
    m = Model()
    q = [m.int_var(0, n - 1, f"q{i}") for i in range(n)]
    m.all_different(q)
    m.all_different_offset(q, list(range(n)))
    m.all_different_offset(q, [-i for i in range(n)])
    return m, q


@SETTINGS
@given(st.integers(4, 9), st.integers(0, 30), st.sampled_from(STRATEGIES))
def test_a_node_limit_is_reported_as_a_limit_never_as_unsatisfiable(n, nodes, options):
    m, q = _queens(n)
    solve = m.solve(node_limit=nodes, **options)
    count = m.count(node_limit=nodes, **options)
    best = m.minimize([(i + 1, x) for i, x in enumerate(q)], node_limit=nodes, **options)
    # Every board of 4 or more queens has solutions.
    assert solve.status in ("solved", "limit")
    assert count.status in ("solved", "limit")
    assert best.status in ("optimal", "feasible", "unknown")
    assert (best.solution is None) == (best.status == "unknown")


def test_a_time_limit_stops_a_long_optimisation_as_feasible_or_unknown():
    m, q = _queens(40)
    r = m.minimize([(i * i + 1, x) for i, x in enumerate(q)], time_limit=0.2)
    assert r.status in ("feasible", "unknown")


# --- Options and errors -----------------------------------------------------------------------------------------


def test_phases_branch_on_their_groups_first_and_count_the_same_solutions():
    m, q = _queens(6)
    plain = m.count()
    phased = m.count(phases=[(q[3:], "input", "median"), (q[:1], "dom-wdeg", "ascending")])
    assert (phased.status, phased.count) == (plain.status, plain.count) == ("solved", 4)
    with pytest.raises(TypeError, match="phases must be"):
        m.solve(phases=[q])
    with pytest.raises(ValueError, match="var_order"):
        m.solve(phases=[(q, "sideways", "ascending")])


def _bad_calls():
    """(description, call) pairs that must raise ValueError or TypeError."""
    m = Model()
    other = Model().int_var(0, 1, "foreign")
    x, y = m.int_var(0, 3, "x"), m.int_var(-2, 2, "y")
    zero = m.int_var(0, 0, "zero")
    b = m.bool_var("b")
    huge = m.int_var(-(2**62), -(2**62) + 10, "huge")
    return m, [
        ("foreign variable", lambda: m.all_different([x, other])),
        ("empty domain", lambda: m.int_var(3, 1)),
        ("too wide", lambda: m.int_var(-(2**62), 2**62)),
        ("no values", lambda: m.int_var_from([])),
        ("relation", lambda: m.linear([(1, x)], "=<", 1)),
        ("non-Boolean in a clause", lambda: m.clause([x], [])),
        ("non-Boolean reified", lambda: m.reify_linear([(1, x)], "==", 1, y)),
        ("division by constant zero", lambda: m.div(x, zero, y)),
        ("mod by constant zero", lambda: m.mod(x, zero, y)),
        ("overflowing product", lambda: m.times(huge, huge, y)),
        ("overflowing linear", lambda: m.linear([(2**62, huge)], "==", 0)),
        ("empty min", lambda: m.min_of([], x)),
        ("empty element", lambda: m.element(x, [], y)),
        ("mixed element", lambda: m.element(x, [1, y], y)),
        ("element of strings", lambda: m.element(x, ["a"], y)),
        ("count value", lambda: m.count_eq([x], "2", y)),
        ("gcc lengths", lambda: m.global_cardinality([x], [1, 2], [y])),
        ("inverse lengths", lambda: m.inverse([x, y], [x])),
        ("lex lengths", lambda: m.lex([x], [x, y])),
        ("automaton start", lambda: m.regular([x], 2, 5, [], [0])),
        ("automaton transition", lambda: m.regular([x], 2, 0, [(0, 1, 9)], [0])),
        ("automaton duplicate", lambda: m.regular([x], 2, 0, [(0, 1, 0), (0, 1, 1)], [0])),
        ("empty circuit", lambda: m.circuit([])),
        ("table arity", lambda: m.table([x, y], [(1,)])),
        ("objective kind", lambda: m.minimize("x")),
        ("empty objective", lambda: m.minimize([(0, x)])),
        ("unknown option", lambda: m.solve(nodes=3)),
        ("bad var_order", lambda: m.solve(var_order="best")),
        ("bad restarts", lambda: m.solve(restarts=("geometric", 10, 0.5))),
        ("negative time", lambda: m.solve(time_limit=-1.0)),
        ("foreign solution lookup", lambda: m.solve()[other]),
        ("bool of a bigger var", lambda: m.bool_and([b, x], b)),
    ]


def test_bad_arguments_raise_value_or_type_errors_naming_the_problem_and_leave_the_model_usable():
    m, calls = _bad_calls()
    before = (m.num_vars, m.num_constraints)
    for what, call in calls:
        with pytest.raises((ValueError, TypeError)) as info:
            call()
        assert str(info.value), what
    assert (m.num_vars, m.num_constraints) == before
    assert m.count().count == 4 * 5 * 1 * 2 * 11  # x, y, zero, b, huge: no constraint got in


def test_a_cardinality_of_a_value_at_the_edge_of_64_bits_that_no_variable_can_take_is_zero():
    # csp-core's dedicated count propagator takes any constant value (the old decomposition refused this one as
    # an overflow half-way through posting).
    m = Model()
    xs = [m.int_var(0, 2, f"x{i}") for i in range(3)]
    zeros, edge = m.int_var(0, 3, "zeros"), m.int_var(0, 3, "edge")
    m.global_cardinality(xs, [0, 2**63 - 1], [zeros, edge])
    r = m.count()
    assert r.count == 27  # the x's decide both counts
    assert all(s[edge] == 0 for s in m.solutions())


def test_error_messages_name_the_python_variables():
    m = Model()
    m.int_var(0, 5, "first")
    x = m.int_var(0, 3, "height")
    with pytest.raises(ValueError, match="height must be Boolean"):
        m.clause([x])


def test_a_huge_objective_is_never_called_optimal_unless_it_is():
    # The objective's range is far wider than a domain (re-solving path), and a bound near 2**62 passes the
    # engine's 64-bit linear check: the search may stop there, but only as feasible.
    m = Model()
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    terms = [(2**60, x), (2**60, y)]
    high = m.maximize(terms)
    assert high.status in ("optimal", "feasible")
    assert high.objective == 2**60 * (high[x] + high[y])
    if high.status == "optimal":
        assert high.objective == 6 * 2**60
    low = m.minimize(terms)
    assert (low.status, low.objective) == ("optimal", 0)
