"""csp-core from Python: models, constraints, search options, iterators, counting, optimisation."""

import itertools
import re
from pathlib import Path

import pytest

from csp_sudoku.engine import Model

README = Path(__file__).resolve().parents[3] / "README.md"


def _queens(n):
    m = Model()
    q = [m.int_var(0, n - 1, f"q{i}") for i in range(n)]
    m.all_different(q)
    for i, j in itertools.combinations(range(n), 2):
        m.not_equal(q[i], q[j], j - i)
        m.not_equal(q[i], q[j], i - j)
    return m, q


def test_counting_n_queens_gives_the_known_numbers_under_every_strategy():
    known = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92}
    for n, count in known.items():
        m, _ = _queens(n)
        for var_order in ("input", "mrv", "mrv-degree", "dom-wdeg"):
            for propagation in ("none", "fc", "singles"):
                r = m.count(var_order=var_order, propagation=propagation)
                assert (r.status, r.count) == ("solved", count), (n, var_order, propagation)


VAR_ORDERS = ("input", "mrv", "mrv-degree", "dom-wdeg", "anti-first-fail", "smallest", "largest", "max-regret")
VALUE_ORDERS = ("ascending", "median", "lcv", "random", "descending", "split", "reverse-split")


def test_every_engine_order_is_accepted_by_name_and_counts_the_same():
    m, _ = _queens(6)
    for var_order in VAR_ORDERS:
        for value_order in VALUE_ORDERS:
            r = m.count(var_order=var_order, value_order=value_order)
            assert (r.status, r.count) == ("solved", 4), (var_order, value_order)
    assert m.count(var_order="MAX_REGRET").count == 4
    with pytest.raises(ValueError, match="anti-first-fail"):
        m.solve(var_order="first-fail")


def test_queens_with_offset_all_different_count_as_with_pairwise_constraints():
    for n in (6, 8):
        m = Model()
        q = [m.int_var(0, n - 1) for _ in range(n)]
        m.all_different(q)
        m.all_different_offset(q, list(range(n)))
        m.all_different_offset(q, [-i for i in range(n)])
        assert m.count(propagation="singles").count == _queens(n)[0].count().count


def test_the_solution_iterator_yields_every_solution_once_and_reports_how_it_ended():
    m, q = _queens(6)
    it = m.solutions(value_order="median")
    seen = [tuple(s[x] for x in q) for s in it]
    assert len(seen) == len(set(seen)) == 4
    assert it.status == "solved"
    assert it.stats["solutions"] == 4


def test_a_solution_iterator_dropped_early_stops_its_search():
    m, q = _queens(12)
    it = m.solutions()
    first = next(it)
    assert len(first) == 12
    it.close()
    assert it.status == "limit"
    assert list(it) == []


def test_linear_equal_and_table_constraints_hold_in_every_solution():
    m = Model()
    x = m.int_var(0, 5, "x")
    y = m.int_var_from([1, 3, 5, 7], "y")
    b = m.bool_var("b")
    m.linear([(2, x), (1, y), (3, b)], "<=", 13)
    m.equal(x, y, -1)  # x == y - 1
    m.table([x, b], [(0, 0), (2, 1), (4, 0), (4, 1)])
    found = {(s[x], s[y], s[b]) for s in m.solutions()}
    brute = {
        (xv, yv, bv)
        for xv in range(6)
        for yv in (1, 3, 5, 7)
        for bv in (0, 1)
        if 2 * xv + yv + 3 * bv <= 13 and xv == yv - 1 and (xv, bv) in {(0, 0), (2, 1), (4, 0), (4, 1)}
    }
    assert found == brute and len(found) == 3


def test_constraints_added_after_a_solve_count_from_the_next_solve():
    m = Model()
    x, y = m.int_var(1, 3, "x"), m.int_var(1, 3, "y")
    assert m.count().count == 9
    m.not_equal(x, y)
    assert m.count().count == 6
    m.linear([(1, x), (1, y)], ">=", 5)
    assert m.count().count == 2


def test_minimize_and_maximize_prove_the_optimum():
    m = Model()
    xs = [m.int_var(1, 4, f"x{i}") for i in range(4)]
    m.all_different(xs)
    weights = [3, 1, 4, 1]
    objective = list(zip(weights, xs))
    low = m.minimize(objective)
    high = m.maximize(objective)
    values = [sum(w * v for w, v in zip(weights, p)) for p in itertools.permutations(range(1, 5))]
    assert (low.status, low.objective) == ("optimal", min(values))
    assert (high.status, high.objective) == ("optimal", max(values))
    assert sum(w * high[x] for w, x in objective) == high.objective


def test_limits_stop_the_search_with_the_status_limit():
    m, _ = _queens(10)
    r = m.count(node_limit=10)
    assert r.status == "limit"
    assert r.stats["nodes"] <= 11


def test_an_unsatisfiable_model_says_so():
    m = Model()
    x, y, z = (m.int_var(1, 2) for _ in range(3))
    m.all_different([x, y, z])
    r = m.solve()
    assert (r.status, bool(r), r.solution) == ("unsatisfiable", False, None)
    with pytest.raises(RuntimeError):
        r[x]


def test_all_different_at_every_level_counts_the_same_and_the_domain_level_needs_no_search_on_a_hall_set():
    def model(level):
        m = Model()
        # Five variables on {1, 3, 5, 7} and a sixth on 1..9: the first five cannot all differ.
        xs = [m.int_var_from([1, 3, 5, 7]) for _ in range(5)] + [m.int_var(1, 9)]
        m.all_different(xs, level=level)
        return m

    for level in (None, "value", "bounds", "domain"):
        r = model(level).count()
        assert (r.status, r.count) == ("unsatisfiable", 0), level
    assert model("domain").count().stats["nodes"] == 0
    assert model("value").count().stats["nodes"] > 0
    # Satisfiable: three variables on {1, 3, 5, 7} (4 * 3 * 2 ways) and one on 1..9 (the 6 values left).
    for level in (None, "value", "bounds", "domain"):
        m = Model()
        xs = [m.int_var_from([1, 3, 5, 7]) for _ in range(3)] + [m.int_var(1, 9)]
        m.all_different(xs, level=level)
        assert m.count().count == 4 * 3 * 2 * 6, level
    with pytest.raises(ValueError, match="level"):
        Model().all_different([], level="arc")


def test_model_errors_raise_value_error_where_they_are_made():
    m = Model()
    other = Model().int_var(0, 1)
    with pytest.raises(ValueError):
        m.int_var(3, 1)
    with pytest.raises(ValueError):
        m.all_different([other])
    x = m.int_var(0, 1)
    with pytest.raises(ValueError):
        m.table([x], [(0, 1)])
    with pytest.raises(ValueError):
        m.linear([(1, x)], "=<", 1)
    with pytest.raises(ValueError):
        m.solve(var_order="fastest")
    with pytest.raises(TypeError):
        m.solve(no_such_option=1)
    assert m.num_vars == 1 and m.num_constraints == 0


def test_restarts_and_random_choices_still_find_a_valid_solution():
    m, q = _queens(16)
    r = m.solve(value_order="random", random_ties=True, seed=7, restarts=("luby", 8))
    assert r.status == "solved"
    cols = [r[x] for x in q]
    assert len(set(cols)) == 16
    assert all(abs(cols[i] - cols[j]) != j - i for i, j in itertools.combinations(range(16), 2))


def test_the_readme_modelling_section_runs_as_written():
    text = README.read_text()
    section = text.split("## Modelling in Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
