"""The dataframe helpers: a pandas frame solved as one batch, a Dask dataframe partition by partition, both equal to
the single-process csp_sudoku.solve, and the result written to Parquet."""

import numpy as np
import pytest

import csp_sudoku as cs

from conftest import DATASETS, read_lines

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

from csp_sudoku.dask import RESULT_COLUMNS, solve_dataframe, solve_frame  # noqa: E402


def _frame(rows: int = 2_000) -> "pd.DataFrame":
    """Puzzle strings with an id column and a non-default index; a few rows invalid, one missing."""
    lines = read_lines(DATASETS / "generated" / "9x9-hard.txt") + read_lines(DATASETS / "famous" / "top95.txt")
    base, errors = cs.parse(lines)
    assert not errors
    strings = cs.to_strings(cs.augment(np.resize(base, (rows, 81)), seed=3))
    puzzles: list = list(strings)
    puzzles[5] = "12"  # too short
    puzzles[77] = None  # missing
    return pd.DataFrame({"puzzle": puzzles, "id": np.arange(rows) * 3}, index=np.arange(rows) + 1000)


def _expected(frame: "pd.DataFrame", **options):
    lines = [p if isinstance(p, str) else "" for p in frame["puzzle"]]
    return cs.solve(lines, **options)


def test_a_pandas_frame_gets_the_result_columns_of_the_single_batch_call():
    frame = _frame()
    out = solve_frame(frame, limit=2)
    r = _expected(frame, limit=2)
    assert list(out.columns) == ["puzzle", "id", *RESULT_COLUMNS]
    assert (out.index == frame.index).all() and (out["id"] == frame["id"]).all()
    assert list(out["status"]) == list(r.status)
    assert list(out["count"]) == list(r.counts) and out["count"].dtype == np.int64
    assert list(out["nodes"]) == list(r.nodes) and list(out["guesses"]) == list(r.guesses)
    texts = cs.to_strings(r.solutions)
    assert _values(out["solution"]) == [t if s == "solved" else None for t, s in zip(texts, r.status)]
    assert out["status"].iloc[5] == out["status"].iloc[77] == "invalid"
    assert out["error"].iloc[5] and out["error"].iloc[0] is pd.NA
    assert frame.columns.tolist() == ["puzzle", "id"]  # the input is left alone


def test_an_empty_frame_gets_empty_result_columns_of_the_right_types():
    out = solve_frame(pd.DataFrame({"puzzle": pd.Series([], dtype=object)}))
    assert len(out) == 0 and list(out.columns) == ["puzzle", *RESULT_COLUMNS]
    assert out["nodes"].dtype == np.int64


def test_a_dask_dataframe_is_solved_partition_by_partition_as_the_single_batch_call(tmp_path):
    frame = _frame()
    lazy = solve_dataframe(dd.from_pandas(frame, npartitions=7), limit=2)
    out = lazy.compute(scheduler="threads")
    whole = solve_frame(frame, limit=2)
    # Dask may store strings as Arrow strings (missing = <NA>): values are compared, not dtypes.
    assert (out.index == whole.index).all() and list(out.columns) == list(whole.columns)
    for name in whole.columns:
        assert _values(out[name]) == _values(whole[name]), name
    # The README's "keep it distributed" line: straight to Parquet and back.
    lazy.to_parquet(tmp_path / "solved")
    back = dd.read_parquet(tmp_path / "solved").compute()
    for name in RESULT_COLUMNS:
        assert _values(back[name]) == _values(whole[name]), name


def _values(column: "pd.Series") -> list:
    """The column's values as Python objects, every kind of missing value as None."""
    return [None if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)) else v for v in column]


def test_a_prefix_keeps_a_column_of_the_same_name():
    frame = _frame(100)
    frame["solution"] = "expected"
    out = solve_frame(frame, prefix="found_")
    assert (out["solution"] == "expected").all()
    assert list(out.columns) == ["puzzle", "id", "solution", *("found_" + c for c in RESULT_COLUMNS)]
    lazy = solve_dataframe(dd.from_pandas(frame, npartitions=3), prefix="found_")
    assert _values(lazy.compute(scheduler="sync")["found_status"]) == _values(out["found_status"])
