"""Solving past one machine: Dask bags and dataframes of puzzles, solved partition by partition with
:func:`csp_sudoku.solve`.

Each partition is one native batch (one conversion, the GIL released), so Dask only moves strings and results;
the puzzles of a partition are solved on ``threads`` threads of the worker (default 1: Dask's workers already
spread partitions over the cores). The same code runs on a laptop's ``LocalCluster`` and on a cluster scheduler,
e.g. ``dask_jobqueue.SLURMCluster`` (see the package README).

>>> import dask.bag as db
>>> from csp_sudoku.dask import solve_bag
>>> bag = db.from_sequence(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
>>> [r["status"] for r in solve_bag(bag).compute(scheduler="sync")]
['solved']

:func:`solve_dataframe` does the same for a column of a Dask dataframe (and :func:`solve_frame` for a pandas one),
adding the result columns beside the others; it needs pandas (``pip install "dask[dataframe]"``).
"""

from __future__ import annotations

import importlib
from typing import Any, Dict, Iterable, List, Optional

import numpy as np

import csp_sudoku

__all__ = ["RESULT_COLUMNS", "solve_bag", "solve_dataframe", "solve_frame", "solve_partition"]

#: The keys of each result record, as in ``sudoku solve --format jsonl`` (``count`` with the solution limit).
RECORD_KEYS = ("puzzle", "solution", "status", "count", "nodes", "guesses", "error")


def solve_partition(
    puzzles: Iterable[str],
    *,
    solver: str = "fast",
    limit: int = 1,
    threads: Optional[int] = 1,
    node_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> List[Dict[str, Any]]:
    """Solves one partition (an iterable of puzzle strings) as one batch; one record per puzzle, in order.

    A record holds the puzzle, its ``solution`` string (``None`` unless solved), the ``status`` word, ``count``,
    ``nodes``, ``guesses`` and ``error`` (why the row is invalid, else ``None``).
    """
    lines = list(puzzles)
    if not lines:
        return []
    r = csp_sudoku.solve(
        lines,
        solver=solver,
        limit=limit,
        threads=threads,
        node_limit=node_limit,
        time_limit=time_limit,
    )
    texts = csp_sudoku.to_strings(r.solutions)
    return [
        {
            "puzzle": line,
            "solution": text if status == "solved" else None,
            "status": str(status),
            "count": int(count),
            "nodes": int(nodes),
            "guesses": int(guesses),
            "error": r.errors.get(i),
        }
        for i, (line, text, status, count, nodes, guesses) in enumerate(
            zip(lines, texts, r.status, r.counts, r.nodes, r.guesses)
        )
    ]


def solve_bag(bag: Any, **solve_options: Any) -> Any:
    """A ``dask.bag.Bag`` of result records (see :func:`solve_partition`) for a bag of puzzle strings.

    Lazy, like every bag operation: ``.compute()`` runs it on the current scheduler (a ``distributed.Client``
    when one is active), and the records keep the order of the input bag. Keyword options are those of
    :func:`solve_partition` (``solver``, ``limit``, ``threads``, ``node_limit``, ``time_limit``).
    """
    return bag.map_partitions(solve_partition, **solve_options)


#: The columns :func:`solve_frame` and :func:`solve_dataframe` add: the record keys less ``puzzle``.
RESULT_COLUMNS = RECORD_KEYS[1:]


def solve_frame(frame: Any, column: str = "puzzle", *, prefix: str = "", **solve_options: Any) -> Any:
    """A copy of the pandas DataFrame ``frame`` with the result of solving its ``column`` of puzzle strings, as one
    batch, in the columns :data:`RESULT_COLUMNS`, each name after ``prefix`` (a column of the same name is
    replaced: ``prefix="found_"`` keeps a Kaggle file's own ``solution`` column).

    ``solution``, ``status`` and ``error`` are pandas' nullable ``string`` columns (``solution`` missing unless
    solved, ``error`` missing unless the row is invalid), ``count``, ``nodes`` and ``guesses`` are ``int64``; the index and the other columns are kept. A missing or non-string puzzle is an
    ``invalid`` row. Keyword options are those of :func:`solve_partition`.
    """
    # Imported here (an optional dependency) and typed as Any: pandas ships no type information of its own.
    pd: Any = importlib.import_module("pandas")
    lines = [p if isinstance(p, str) else "" for p in frame[column]]
    out = frame.copy()
    if lines:
        options = {"threads": 1, **solve_options}
        r = csp_sudoku.solve(lines, **options)
        texts = csp_sudoku.to_strings(r.solutions)
        solution = np.array([t if ok else None for t, ok in zip(texts, r.solved)], dtype=object)
        status = r.status.astype(object)
        counts, nodes, guesses = r.counts, r.nodes, r.guesses
        errors = [r.errors.get(i) for i in range(len(lines))]
    else:
        solution = status = np.array([], dtype=object)
        counts = nodes = guesses = np.array([], dtype=np.int64)
        errors = []
    columns = {
        "solution": (solution, "string"),
        "status": (status, "string"),
        "count": (counts, "int64"),
        "nodes": (nodes, "int64"),
        "guesses": (guesses, "int64"),
        "error": (errors, "string"),
    }
    for name, (values, dtype) in columns.items():
        out[prefix + name] = pd.Series(values, index=frame.index, dtype=dtype)
    return out


def solve_dataframe(frame: Any, column: str = "puzzle", *, prefix: str = "", **solve_options: Any) -> Any:
    """A ``dask.dataframe.DataFrame`` with the results of solving ``column`` added partition by partition (see
    :func:`solve_frame`): lazy, partitions and index kept, each partition one native batch on one thread of its
    worker by default.

    >>> import pandas as pd, dask.dataframe as dd
    >>> leetcode = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    >>> frame = dd.from_pandas(pd.DataFrame({"puzzle": ["bad", leetcode], "id": [10, 11]}), npartitions=2)
    >>> solved = solve_dataframe(frame, limit=2).compute(scheduler="sync")
    >>> list(solved["id"]), list(solved["status"]), list(solved["count"])
    ([10, 11], ['invalid', 'solved'], [0, 1])
    """
    meta = solve_frame(frame._meta, column, prefix=prefix)
    return frame.map_partitions(solve_frame, column, prefix=prefix, meta=meta, **solve_options)
