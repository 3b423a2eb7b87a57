"""Solving past one machine: Dask bags of puzzles, solved partition by partition with :func:`csp_sudoku.solve`.

Each partition is one native batch (one conversion, the GIL released), so Dask only moves strings and results;
the puzzles of a partition are solved on ``threads`` threads of the worker (default 1: Dask's workers already
spread partitions over the cores). The same code runs on a laptop's ``LocalCluster`` and on a cluster scheduler,
e.g. ``dask_jobqueue.SLURMCluster`` (see the package README).

>>> import dask.bag as db
>>> from csp_sudoku.dask import solve_bag
>>> bag = db.from_sequence(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
>>> [r["status"] for r in solve_bag(bag).compute(scheduler="sync")]
['solved']
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional

import csp_sudoku

__all__ = ["solve_bag", "solve_partition"]

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
