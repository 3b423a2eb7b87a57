"""Properties of the batch API, checked with hypothesis on generated and shipped puzzles."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import csp_sudoku as cs

from conftest import DATASETS, SHARED, read_lines

# A pool of unique puzzles with their solutions: generated (minimal, seeded) and the shipped hard set.
_GENERATED = cs.generate(9, 40, 2024)
_HARD, _ = cs.parse(read_lines(DATASETS / "generated" / "9x9-hard.txt")[:40])
POOL = np.vstack([_GENERATED.puzzles, _HARD])
POOL_SOLUTIONS = np.vstack([_GENERATED.solutions, cs.solve(_HARD).solutions])
FOUR, _ = cs.parse(read_lines(DATASETS / "generated" / "4x4.txt")[:40])

rows = st.lists(st.integers(0, len(POOL) - 1), min_size=1, max_size=8)
seeds = st.integers(0, 2**64 - 1)


def _same_rows(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool((a == b).all())


@settings(max_examples=60, deadline=None)
@given(rows, seeds)
def test_the_canonical_form_of_an_augmented_puzzle_is_the_canonical_form_of_the_puzzle(picked, seed):
    p = POOL[picked]
    assert _same_rows(cs.canonical(cs.augment(p, seed)), cs.canonical(p))


@settings(max_examples=30, deadline=None)
@given(rows, seeds)
def test_the_canonical_form_of_an_augmented_solution_grid_is_the_grid_s_canonical_form(picked, seed):
    grids = POOL_SOLUTIONS[picked]
    assert _same_rows(cs.canonical(cs.augment(grids, seed)), cs.canonical(grids))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, len(FOUR) - 1), min_size=1, max_size=8), seeds)
def test_canonical_forms_of_4x4_puzzles_are_invariant_under_augmentation(picked, seed):
    p = FOUR[picked]
    assert _same_rows(cs.canonical(cs.augment(p, seed)), cs.canonical(p))


@settings(max_examples=60, deadline=None)
@given(rows, seeds)
def test_solving_an_augmented_puzzle_gives_the_augmented_solution(picked, seed):
    p = POOL[picked]
    solved = cs.solve(p).solutions
    aug_p, aug_s = cs.augment(p, seed, solved)
    r = cs.solve(aug_p, limit=2)
    assert r.unique.all()
    assert _same_rows(r.solutions, aug_s)


@settings(max_examples=40, deadline=None)
@given(rows, seeds)
def test_an_augmented_puzzle_keeps_its_clue_count_and_its_solution_verifies(picked, seed):
    p = POOL[picked]
    aug_p, aug_s = cs.augment(p, seed, POOL_SOLUTIONS[picked])
    assert ((aug_p > 0).sum(axis=1) == (p > 0).sum(axis=1)).all()
    assert cs.verify(aug_p, aug_s).all()


def test_augment_is_reproducible_for_a_seed_and_changes_with_it():
    assert _same_rows(cs.augment(POOL, 5), cs.augment(POOL, 5))
    assert not _same_rows(cs.augment(POOL, 5), cs.augment(POOL, 6))


def test_canonical_forms_tell_different_puzzles_apart():
    forms = cs.canonical(POOL)
    assert len({row.tobytes() for row in forms}) == len(POOL)
    assert len({row.tobytes() for row in cs.canonical(cs.augment(POOL, 1))}) == len(POOL)


def test_the_canonical_form_is_itself_canonical_and_starts_with_digit_one():
    forms = cs.canonical(POOL)
    assert _same_rows(cs.canonical(forms), forms)
    assert (forms[:, 0] == 1).all()


SIXTEEN, _ = cs.parse(read_lines(DATASETS / "generated" / "16x16.txt"))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, len(SIXTEEN) - 1), min_size=1, max_size=4), seeds)
def test_canonical_forms_of_16x16_puzzles_are_invariant_under_augmentation(picked, seed):
    p = SIXTEEN[picked]
    assert _same_rows(cs.canonical(cs.augment(p, seed)), cs.canonical(p))


def test_canonical_forms_of_16x16_puzzles_tell_them_apart_and_are_canonical_themselves():
    forms = cs.canonical(SIXTEEN)
    assert len({row.tobytes() for row in forms}) == len(SIXTEEN)
    assert _same_rows(cs.canonical(forms), forms)
    assert ((forms > 0).sum(axis=1) == (SIXTEEN > 0).sum(axis=1)).all()
    assert (forms[:, 0] == 1).all()


def test_canonical_refuses_what_it_cannot_settle_with_a_value_error_naming_the_row():
    grid = cs.solve(SIXTEEN[:1]).solutions
    # A complete 16x16 grid and the empty board tie on millions of column orders.
    for board in (grid, np.zeros((1, 256), dtype=np.uint8)):
        with pytest.raises(ValueError, match="row 0: .* out of reach"):
            cs.canonical(np.vstack([board]))
    clash = SIXTEEN[:2].copy()
    clash[1, :2] = 5  # a row that repeats a digit
    with pytest.raises(ValueError, match="row 1: .* without a repeated digit"):
        cs.canonical(clash)
    with pytest.raises(ValueError, match="4x4, 9x9 and 16x16"):
        cs.canonical(np.zeros((1, 625), dtype=np.uint8))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([4, 9]))
def test_generated_puzzles_are_unique_by_two_different_solvers(seed, size):
    g = cs.generate(size, 4, seed)
    for solver in ("fast", "csp-mrv", "table"):
        r = cs.solve(g.puzzles, solver=solver, limit=2)
        assert r.unique.all(), solver
        assert _same_rows(r.solutions, g.solutions), solver


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, len(POOL) - 1), min_size=1, max_size=6),
    st.lists(st.tuples(st.integers(0, 80), st.integers(0, 9)), max_size=6),
    st.sampled_from(["fast", "csp-mrv-singles", "csp-fc", "table"]),
    st.integers(1, 3),
)
def test_every_returned_solution_passes_verify(picked, edits, solver, limit):
    # Mangled puzzles: some lose clues (several solutions), some get clashing or wrong givens (no solution).
    p = POOL[picked].copy()
    for k, (cell, value) in enumerate(edits):
        p[k % len(p), cell] = value
    r = cs.solve(p, solver=solver, limit=limit, node_limit=200_000)
    solved = r.status == "solved"
    assert cs.verify(p[solved], r.solutions[solved]).all()
    assert (r.solutions[~solved] == 0).all()
    assert set(r.status) <= {"solved", "unsatisfiable", "invalid", "limit"}


def _brute_force_canonical_4x4(cells: np.ndarray) -> np.ndarray:
    """The least key over all 128 geometric transformations of a 4x4 board, digits relabelled by first
    appearance and ranked before blanks: the definition, enumerated."""
    import itertools

    orders = [
        [band * 2 + k for band, inner in zip(bands, inners) for k in inner]
        for bands in itertools.permutations(range(2))
        for inners in itertools.product(itertools.permutations(range(2)), repeat=2)
    ]
    grid = cells.reshape(4, 4)
    best = None
    for g in (grid, grid.T):
        for rows_order in orders:
            for cols_order in orders:
                t = g[np.ix_(rows_order, cols_order)].ravel()
                labels = {}
                key = []
                for v in t:
                    if v == 0:
                        key.append(5)
                    else:
                        key.append(labels.setdefault(int(v), len(labels) + 1))
                if best is None or key < best:
                    best = key
    return np.array([0 if k == 5 else k for k in best], dtype=np.uint8)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=16, max_size=16))
def test_the_canonical_form_of_a_4x4_board_is_the_least_key_by_brute_force(cells):
    board = np.array([cells], dtype=np.uint8)
    assert _same_rows(cs.canonical(board)[0], _brute_force_canonical_4x4(board[0]))


@pytest.mark.skipif(not (SHARED / "17_clue.txt").exists(), reason="needs ../shared/datasets")
def test_the_17_clue_collection_lists_pairwise_inequivalent_puzzles():
    # The collection keeps one puzzle per equivalence class: canonical forms must all differ, and an augmented
    # copy of each must land on its own form.
    batch = next(cs.read(SHARED / "17_clue.txt", chunk=2000)).puzzles
    forms = cs.canonical(batch)
    assert len({f.tobytes() for f in forms}) == len(batch)
    assert _same_rows(cs.canonical(cs.augment(batch, 99)), forms)
