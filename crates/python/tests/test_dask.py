"""The Dask helper on a real distributed cluster: two worker processes on the loopback interface."""

import numpy as np
import pytest

import csp_sudoku as cs

from conftest import DATASETS, read_lines

db = pytest.importorskip("dask.bag")
distributed = pytest.importorskip("distributed")

from csp_sudoku.dask import solve_bag, solve_partition  # noqa: E402

PUZZLES = 100_000


def _hundred_thousand_puzzles():
    """100,000 puzzle strings: every shipped 9x9 puzzle, repeated and each copy augmented (an equivalent puzzle,
    so most lines differ), plus a few invalid lines that must keep their place."""
    lines = []
    for name in ("9x9-easy.txt", "9x9-hard.txt", "9x9-minimal.txt"):
        lines += read_lines(DATASETS / "generated" / name)
    lines += read_lines(DATASETS / "famous" / "top95.txt")
    base, errors = cs.parse(lines)
    assert not errors
    repeated = np.resize(base, (PUZZLES, 81))
    strings = cs.to_strings(cs.augment(repeated, seed=15))
    for row in (7, 50_000, PUZZLES - 1):
        strings[row] = "not a puzzle"
    return strings


def test_a_local_cluster_solves_100k_puzzles_exactly_as_the_single_process_call():
    strings = _hundred_thousand_puzzles()
    expected = cs.solve(strings, limit=2)
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        bag = db.from_sequence(strings, npartitions=20)
        records = solve_bag(bag, limit=2).compute()
    assert len(records) == PUZZLES
    assert [r["puzzle"] for r in records] == strings
    assert [r["status"] for r in records] == list(expected.status)
    assert [r["count"] for r in records] == list(expected.counts)
    assert [r["nodes"] for r in records] == list(expected.nodes)
    texts = cs.to_strings(expected.solutions)
    assert [r["solution"] for r in records] == [
        t if s == "solved" else None for t, s in zip(texts, expected.status)
    ]
    assert [i for i, r in enumerate(records) if r["status"] == "invalid"] == [7, 50_000, PUZZLES - 1]


def test_a_partition_is_solved_as_one_batch_with_one_record_per_puzzle():
    lines = read_lines(DATASETS / "famous" / "top95.txt")[:3] + ["bad"]
    records = solve_partition(iter(lines), limit=2)
    assert [r["status"] for r in records] == ["solved", "solved", "solved", "invalid"]
    assert records[3]["error"] and records[3]["solution"] is None
    assert solve_partition([]) == []
