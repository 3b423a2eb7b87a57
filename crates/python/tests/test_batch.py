"""The batch Sudoku API: solve, verify, rate, generate, read, to_strings."""

import numpy as np
import pytest

import csp_sudoku as cs

from conftest import DATASETS, LEETCODE, read_lines


def test_solving_a_string_gives_the_known_solution_and_proves_it_unique():
    r = cs.solve([LEETCODE], limit=2)
    assert list(r.status) == ["solved"]
    assert r.counts[0] == 1
    assert cs.to_strings(r.solutions)[0].startswith("534678912")
    assert r.solutions.dtype == np.uint8 and r.solutions.shape == (1, 81)


def test_every_solver_of_the_registry_solves_the_same_batch():
    batch, _ = cs.parse(read_lines(DATASETS / "generated" / "9x9-easy.txt")[:5])
    first = cs.solve(batch, limit=2)
    assert first.unique.all()
    for name in cs.solvers():
        r = cs.solve(batch, solver=name, limit=2)
        assert (r.status == "solved").all(), name
        assert (r.solutions == first.solutions).all(), name


def test_results_keep_input_order_whatever_the_thread_count(hard9):
    one = cs.solve(hard9, threads=1)
    two = cs.solve(hard9, threads=2)
    assert (one.solutions == two.solutions).all()
    assert (one.nodes == two.nodes).all()
    assert cs.verify(hard9, one.solutions).all()


def test_a_bad_row_gets_its_own_status_and_the_batch_goes_on():
    clash = "11" + "." * 79
    batch = [LEETCODE, "not a puzzle", clash, LEETCODE]
    r = cs.solve(batch)
    assert list(r.status) == ["solved", "invalid", "invalid", "solved"]
    assert set(r.errors) == {1, 2}
    assert "clash" in r.errors[2]
    assert (r.solutions[1] == 0).all() and (r.solutions[2] == 0).all()


def test_an_array_row_with_a_value_above_the_side_is_invalid():
    a = np.zeros((2, 16), dtype=np.uint8)
    a[1, 0] = 5
    r = cs.solve(a)
    assert list(r.status) == ["solved", "invalid"]
    assert "above" in r.errors[1]


def test_an_unsatisfiable_puzzle_is_reported_as_such():
    # Row 1 holds 1..8 and the 9 sits in column 9 further down: r1c9 has no candidate left.
    line = "12345678." + "." * 8 + "9" + "." * 63
    r = cs.solve([line])
    assert list(r.status) == ["unsatisfiable"]
    assert r.counts[0] == 0


def test_a_node_limit_stops_a_search_with_the_status_limit():
    r = cs.solve(["." * 81], solver="csp-mrv", limit=1000, node_limit=5)
    assert list(r.status) == ["limit"]


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((2, 81), dtype=np.int64),
        np.zeros((2, 80), dtype=np.uint8),
        np.zeros(81, dtype=np.uint8),
        np.zeros((2, 9, 9), dtype=np.uint8),
    ],
)
def test_a_wrong_dtype_or_shape_raises_value_error(bad):
    with pytest.raises(ValueError):
        cs.solve(bad)


def test_a_single_string_instead_of_a_list_raises_value_error():
    with pytest.raises(ValueError):
        cs.solve(LEETCODE)


def test_an_unknown_solver_raises_value_error():
    with pytest.raises(ValueError, match="unknown solver"):
        cs.solve([LEETCODE], solver="no-such-solver")


def test_a_non_contiguous_view_is_accepted(hard9):
    view = hard9[::2]
    assert not view.flags["C_CONTIGUOUS"] or view.base is not None
    r = cs.solve(view)
    assert cs.verify(view, r.solutions).all()


@pytest.mark.parametrize("name,side", [("4x4.txt", 4), ("16x16.txt", 16)])
def test_other_sizes_solve_from_strings_and_arrays(name, side):
    lines = read_lines(DATASETS / "generated" / name)[:20]
    r = cs.solve(lines, limit=2)
    assert r.solutions.shape == (20, side * side)
    assert r.unique.all()
    array, errors = cs.parse(lines)
    assert errors == {} and array.shape == (20, side * side)
    again = cs.solve(array, limit=2)
    assert (again.solutions == r.solutions).all()
    assert cs.to_strings(array) == [l.replace("0", ".") for l in lines]


def test_25x25_and_36x36_boards_solve():
    for side in (25, 36):
        g = cs.generate(side, 1, 1, clues=int(side * side * 0.8), threads=2)
        r = cs.solve(g.puzzles)
        assert list(r.status) == ["solved"]
        assert cs.verify(g.puzzles, r.solutions).all()


def test_verify_rejects_a_changed_given_and_says_why():
    r = cs.solve([LEETCODE])
    wrong = r.solutions.copy()
    wrong[0, [0, 1]] = wrong[0, [1, 0]]
    assert list(cs.verify([LEETCODE, LEETCODE], np.vstack([r.solutions, wrong]))) == [True, False]
    reasons = cs.verify_errors([LEETCODE, LEETCODE], np.vstack([r.solutions, wrong]))
    assert list(reasons) == [1]


def test_rate_uses_the_generators_pinned_rater_and_matches_the_shipped_ratings():
    path = DATASETS / "generated" / "9x9-hard.txt"
    lines = [l for l in path.read_text().splitlines() if l and not l.startswith("#")][:30]
    expected = [int(l.split("guesses=")[1].split()[0]) for l in lines]
    ratings = cs.rate([l.split()[0] for l in lines])
    assert ratings.rater == cs.rater() == "csp-mrv-singles"
    assert list(ratings.rating) == expected
    assert (ratings.counts == 1).all() and ratings.complete.all()


def test_generate_is_deterministic_for_a_seed_and_independent_of_threads():
    a = cs.generate(9, 8, 42, threads=1)
    b = cs.generate(9, 8, 42, threads=2)
    assert (a.puzzles == b.puzzles).all() and (a.rating == b.rating).all()
    assert not (cs.generate(9, 8, 43).puzzles == a.puzzles).all()


def test_generate_reproduces_the_shipped_dataset_of_the_cli():
    path = DATASETS / "generated" / "9x9-minimal.txt"
    header = path.read_text().splitlines()[0]
    lines = read_lines(path)[:5]
    assert "--seed 1" in header and "--minimal" in header
    g = cs.generate(9, 5, 1)
    assert cs.to_strings(g.puzzles) == lines


def test_generate_honours_clues_ratings_and_symmetry():
    g = cs.generate(9, 4, 3, clues=30, symmetric=True, max_rating=5)
    assert ((g.puzzles > 0).sum(axis=1) == 30).all()
    assert (g.rating <= 5).all()
    blanks = g.puzzles == 0
    assert (blanks == blanks[:, ::-1]).all(), "180-degree symmetric pattern"
    hard = cs.generate(9, 2, 3, min_rating=10)
    assert (hard.rating >= 10).all()


def test_generate_rejects_impossible_options():
    with pytest.raises(ValueError):
        cs.generate(10, 1, 1)
    with pytest.raises(ValueError):
        cs.generate(9, 1, 1, min_rating=5, max_rating=2)
    with pytest.raises(ValueError):
        cs.generate(9, 1, 1, minimal=False)


def test_read_streams_a_file_in_chunks_with_lines_and_errors(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(f"# comment\n{LEETCODE}\nnot a puzzle\n\n{LEETCODE} # again\n")
    batches = list(cs.read(path, chunk=1))
    assert [len(b) for b in batches] == [1, 0, 1]
    assert [int(b.lines[0]) for b in batches if len(b)] == [2, 5]
    assert batches[1].errors[0][0] == 3
    assert cs.to_strings(batches[0].puzzles) == [LEETCODE]


def test_read_keeps_the_expected_solution_of_a_csv(tmp_path):
    solution = cs.to_strings(cs.solve([LEETCODE]).solutions)[0]
    path = tmp_path / "k.csv"
    path.write_text(f"quizzes,solutions\n{LEETCODE.replace('.', '0')},{solution}\n")
    (batch,) = list(cs.read(path))
    assert batch.has_solution.all()
    assert cs.verify(batch.puzzles, batch.solutions).all()


def test_read_raises_os_error_for_a_missing_file(tmp_path):
    with pytest.raises(OSError):
        next(cs.read(tmp_path / "missing.txt"))


def test_two_python_threads_solve_at_once_with_the_gil_released(hard9):
    from concurrent.futures import ThreadPoolExecutor

    expected = cs.solve(hard9, threads=1).solutions
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda _: cs.solve(hard9, threads=1).solutions, range(4)))
    assert all((r == expected).all() for r in results)


def test_to_strings_prints_every_symbol_and_marks_impossible_values():
    a = np.array([[0, 1, 9, 10, 35, 36, 200] + [0] * 9], dtype=np.uint8)
    assert cs.to_strings(a) == [".19AZ0?" + "." * 9]


def test_a_negative_seed_raises_value_error():
    with pytest.raises(ValueError):
        cs.generate(9, 1, -1)
    with pytest.raises(ValueError):
        cs.augment(np.zeros((1, 81), dtype=np.uint8), -5)


def test_an_interrupt_stops_a_long_batch_promptly(hard9):
    import signal
    import time

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        start = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            # About 45 s of work without the interrupt (naive DFS, 0.05 s per hard puzzle).
            cs.solve(np.tile(hard9, (5, 1)), solver="naive", limit=2, threads=1)
        assert time.perf_counter() - start < 5
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert list(cs.solve(hard9[:2]).status) == ["solved", "solved"], "the next batch runs normally"
