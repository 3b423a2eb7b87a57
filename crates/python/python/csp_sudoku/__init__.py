"""Batch Sudoku at native speed on numpy arrays, and the csp-core constraint engine, from Python.

Puzzles come as a ``numpy.ndarray`` of ``uint8`` with shape ``(N, n*n)`` (0 = blank, 1..n = values; every size
from 4x4 to 36x36) or as a list of strings in the ``sudoku`` command line's formats (one puzzle per string: an
81-character line, a CSV line, a pasted grid). Every batch function converts its input once, releases the GIL
and works on all cores (``threads=`` to choose), and returns arrays in input order. A bad row gets its own status
and message; only a wrong shape or dtype of the whole batch raises ``ValueError``. Ctrl-C stops a running batch
(``solve``, ``verify``, ``rate``, ``generate``, ``canonical``) and raises ``KeyboardInterrupt``.

>>> import csp_sudoku as cs
>>> r = cs.solve(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"], limit=2)
>>> str(r.status[0]), int(r.counts[0])
('solved', 1)
>>> bool(cs.verify(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"],
...                r.solutions)[0])
True

Modules: this one (solve, verify, rate, generate, read, canonical, augment), :mod:`csp_sudoku.engine` (models on
csp-core: ``Model``, variables, constraints, search) and :mod:`csp_sudoku.dask` (batches spread over a Dask cluster).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = [
    "Batch",
    "Generated",
    "Ratings",
    "SolveResult",
    "STATUS_WORDS",
    "augment",
    "canonical",
    "generate",
    "parse",
    "rate",
    "rater",
    "read",
    "solve",
    "solvers",
    "to_strings",
    "verify",
    "verify_errors",
]

#: The status words of ``sudoku solve --format jsonl``, indexed by the native status code.
STATUS_WORDS: Tuple[str, ...] = ("solved", "unsatisfiable", "invalid", "limit", "error")
_STATUS_ARRAY = np.array(STATUS_WORDS)
_WIDTHS = {16: 4, 81: 9, 256: 16, 625: 25, 1296: 36}

#: What every batch function accepts: a ``uint8`` array ``(N, n*n)`` or a sequence of puzzle strings.
Puzzles = Union[np.ndarray, Sequence[str]]


def _as_array(
    puzzles: Puzzles, size: Optional[int] = None, threads: Optional[int] = None
) -> Tuple[np.ndarray, Optional[np.ndarray], Dict[int, str]]:
    """The batch as a C-contiguous ``uint8`` array, a mask of rows that did not parse, and their messages."""
    if isinstance(puzzles, np.ndarray):
        if puzzles.dtype != np.uint8:
            raise ValueError(
                f"puzzles must have dtype uint8 (0 = blank, 1..n = values), not {puzzles.dtype}; "
                "convert explicitly, e.g. a.astype(np.uint8)"
            )
        if puzzles.ndim != 2 or puzzles.shape[1] not in _WIDTHS:
            raise ValueError(
                f"puzzles must have shape (N, n*n) with n*n in {sorted(_WIDTHS)}, not {puzzles.shape}"
            )
        if size is not None and _WIDTHS[puzzles.shape[1]] != size:
            raise ValueError(f"rows of {puzzles.shape[1]} cells are not {size}x{size} boards")
        return np.ascontiguousarray(puzzles), None, {}
    if isinstance(puzzles, (str, bytes)):
        raise ValueError("pass a list of puzzle strings (one puzzle per string), not a single string")
    if not isinstance(puzzles, (list, tuple)) or not all(isinstance(p, str) for p in puzzles):
        raise TypeError("puzzles must be a uint8 numpy array of shape (N, n*n) or a list of strings")
    cells, errors = _native.parse_strings(list(puzzles), size, threads)
    if not errors:
        return cells, None, {}
    skip = np.zeros(len(puzzles), dtype=bool)
    skip[[row for row, _ in errors]] = True
    return cells, skip, dict(errors)


@dataclass
class SolveResult:
    """The result of :func:`solve`, one entry per input row, in input order.

    Attributes:
        solutions: ``uint8`` array ``(N, n*n)``, the first solution found; zeros where there is none.
        status: array of status words: ``solved``, ``unsatisfiable``, ``invalid``, ``limit`` (or ``error``: a
            solver bug, never a property of the puzzle).
        counts: solutions found, up to ``limit`` (``limit=2`` proves uniqueness: 1 = unique).
        nodes: search nodes (values tried at branch points).
        guesses: branch points with more than one candidate.
        errors: row index -> why that row is ``invalid`` (or ``error``).
    """

    solutions: np.ndarray
    status: np.ndarray
    counts: np.ndarray
    nodes: np.ndarray
    guesses: np.ndarray
    errors: Dict[int, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.status)

    @property
    def solved(self) -> np.ndarray:
        """Boolean mask of the rows with a solution."""
        return np.asarray(self.status == "solved", dtype=bool)

    @property
    def unique(self) -> np.ndarray:
        """Boolean mask of the rows proved to have exactly one solution (meaningful with ``limit >= 2``)."""
        return np.asarray((self.status == "solved") & (self.counts == 1), dtype=bool)


def solve(
    puzzles: Puzzles,
    *,
    solver: str = "fast",
    limit: int = 1,
    threads: Optional[int] = None,
    node_limit: Optional[int] = None,
    time_limit: Optional[float] = None,
    size: Optional[int] = None,
) -> SolveResult:
    """Solves every puzzle of the batch in parallel with a solver of the registry (see :func:`solvers`).

    Args:
        puzzles: ``uint8`` array ``(N, n*n)`` or a list of puzzle strings.
        solver: registry name; ``fast`` is the fastest, ``csp-*`` are engine presets, ``naive`` the baseline.
        limit: stop after this many solutions per puzzle (2 proves uniqueness).
        threads: worker threads (``None`` = all cores).
        node_limit: stop a puzzle's search after this many nodes (status ``limit``).
        time_limit: stop a puzzle's search after this many seconds (status ``limit``; 0 = none).
        size: board side for string input (default: the first valid string's size).

    Every solution is checked by the independent verifier before it is returned. A row with values above ``n``,
    clashing givens or unreadable text is ``invalid`` with a message in ``errors``; it never fails the batch.

    Raises:
        ValueError: wrong dtype or shape, unknown solver, negative time limit.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    cells, skip, parse_errors = _as_array(puzzles, size, threads)
    solutions, codes, counts, nodes, guesses, errors = _native.solve(
        cells, solver, int(limit), threads, node_limit, time_limit, skip
    )
    messages = dict(errors)
    messages.update(parse_errors)
    return SolveResult(solutions, _STATUS_ARRAY[codes], counts, nodes, guesses, messages)


def verify(puzzles: Puzzles, solutions: Puzzles, *, threads: Optional[int] = None) -> np.ndarray:
    """Boolean array: whether each solution row solves its puzzle row (givens kept, every house a permutation).

    The checker is the ``sudoku`` crate's independent one: it shares no code with any solver.
    Raises ``ValueError`` when the two batches differ in shape.
    """
    return _verify(puzzles, solutions, threads)[0]


def verify_errors(puzzles: Puzzles, solutions: Puzzles, *, threads: Optional[int] = None) -> Dict[int, str]:
    """Row index -> why that solution row does not solve its puzzle row (rows that do are absent)."""
    return _verify(puzzles, solutions, threads)[1]


def _verify(puzzles: Puzzles, solutions: Puzzles, threads: Optional[int]) -> Tuple[np.ndarray, Dict[int, str]]:
    p, p_skip, p_errors = _as_array(puzzles, None, threads)
    s, s_skip, s_errors = _as_array(solutions, _WIDTHS[p.shape[1]], threads)
    ok, errors = _native.verify_rows(p, s, threads)
    messages = dict(errors)
    for mask, parse_errors, what in ((p_skip, p_errors, "puzzle"), (s_skip, s_errors, "solution")):
        if mask is not None:
            ok[mask] = False
            messages.update({row: f"{what}: {msg}" for row, msg in parse_errors.items()})
    return ok, messages


@dataclass
class Ratings:
    """The result of :func:`rate`, one entry per input row.

    Attributes:
        rating: the difficulty: guesses the rater made counting solutions up to 2 (higher = harder).
        nodes: the rater's search nodes.
        complete: False where the node limit stopped the rater (``rating`` is then a lower bound).
        counts: solutions found, up to 2 (1 = unique).
        status: status words, as in :class:`SolveResult`.
        errors: row index -> why that row is ``invalid``.
        rater: the rater's registry name (ratings of different raters are not comparable).
    """

    rating: np.ndarray
    nodes: np.ndarray
    complete: np.ndarray
    counts: np.ndarray
    status: np.ndarray
    errors: Dict[int, str]
    rater: str

    def __len__(self) -> int:
        return len(self.rating)


def rater() -> str:
    """The registry name of the pinned rater that :func:`rate` and :func:`generate` use."""
    name = _native.rater_name()
    if name is None:
        raise RuntimeError("the solver registry has no rater")
    return name


def rate(
    puzzles: Puzzles,
    *,
    threads: Optional[int] = None,
    node_limit: Optional[int] = None,
    size: Optional[int] = None,
) -> Ratings:
    """Rates every puzzle as the project's generator does.

    The rating is the number of guesses (branch points with more than one candidate) that the pinned rater
    (:func:`rater`: ``csp-mrv-singles``, MRV with naked and hidden singles on csp-core) makes while counting
    solutions up to 2, i.e. finding the solution and proving there is no other. ``node_limit`` defaults to the
    generator's for the size (none up to 9x9, 20,000 nodes above).
    """
    cells, skip, parse_errors = _as_array(puzzles, size, threads)
    guesses, nodes, complete, counts, codes, errors = _native.rate(cells, threads, node_limit, skip)
    messages = dict(errors)
    messages.update(parse_errors)
    return Ratings(guesses, nodes, complete, counts, _STATUS_ARRAY[codes], messages, rater())


@dataclass
class Generated:
    """The result of :func:`generate`.

    Attributes:
        puzzles: ``uint8`` ``(count, n*n)``, each provably unique.
        solutions: their solutions.
        rating: the rater's guesses per puzzle (see :func:`rate`).
        nodes: the rater's nodes per puzzle.
        index: each puzzle's candidate number: ``(seed, index)`` and the options reproduce it.
        complete: False where the rating hit the node limit (a lower bound).
        rater: the rater's registry name.
    """

    puzzles: np.ndarray
    solutions: np.ndarray
    rating: np.ndarray
    nodes: np.ndarray
    index: np.ndarray
    complete: np.ndarray
    rater: str

    def __len__(self) -> int:
        return len(self.puzzles)


def generate(
    size: int,
    count: int,
    seed: int,
    *,
    minimal: bool = True,
    clues: Optional[int] = None,
    min_rating: Optional[int] = None,
    max_rating: Optional[int] = None,
    symmetric: bool = False,
    threads: Optional[int] = None,
    max_candidates: Optional[int] = None,
) -> Generated:
    """Generates ``count`` distinct puzzles with a unique solution, the same ones for a seed on any thread count.

    Args:
        size: board side, 4, 9, 16, 25 or 36.
        count: puzzles wanted.
        seed: the run's seed.
        minimal: remove clues until none can go without losing uniqueness (the default target).
        clues: remove clues down to exactly this many instead (grids that cannot get there are skipped).
        min_rating, max_rating: keep only puzzles whose rating (see :func:`rate`) is in this range.
        symmetric: remove clues in 180-degree symmetric pairs.
        threads: worker threads (``None`` = all cores); the output does not depend on it.
        max_candidates: give up after this many candidates (default: 1,000 per puzzle, as the CLI).

    Raises:
        ValueError: unsupported size, impossible options, or not enough puzzles within ``max_candidates``.
    """
    if not minimal and clues is None:
        raise ValueError("minimal=False needs a clue target: pass clues=K")
    if count < 0:
        raise ValueError(f"count must be non-negative, not {count}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2**64, not {seed}")
    puzzles, solutions, guesses, nodes, index, complete, rater_name = _native.generate_batch(
        size, count, seed, clues, symmetric, min_rating, max_rating, threads, max_candidates
    )
    return Generated(puzzles, solutions, guesses, nodes, index, complete, rater_name)


@dataclass
class Batch:
    """One chunk of a file read by :func:`read`.

    Attributes:
        puzzles: ``uint8`` ``(k, n*n)``: the valid puzzles of the chunk, in file order.
        solutions: the expected solutions the file gave (e.g. Kaggle's second column); zero rows where none.
        has_solution: whether each puzzle came with an expected solution.
        lines: the 1-based line where each puzzle starts.
        errors: ``(line, message)`` for every record of the chunk that is not a valid puzzle.
    """

    puzzles: np.ndarray
    solutions: np.ndarray
    has_solution: np.ndarray
    lines: np.ndarray
    errors: List[Tuple[int, str]]

    def __len__(self) -> int:
        return len(self.puzzles)


def read(path: Union[str, "os.PathLike[str]"], chunk: int = 65536, *, size: Optional[int] = None) -> Iterator[Batch]:
    """Streams a puzzle file in any format ``sudoku solve`` reads, ``chunk`` records at a time.

    Formats: one puzzle per line (with an optional comment after whitespace, ``#``, ``:`` or ``,``), CSV files
    such as the Kaggle sets (columns found by header name; an expected solution column is kept), pasted multi-line
    grids. Blank lines and ``#`` comments are skipped. All puzzles of a stream have one size: ``size`` when given,
    else the first valid puzzle's; other sizes are reported in ``errors``.

    Raises:
        OSError: the file cannot be opened or read.
        ValueError: ``size`` is not a Sudoku side.
    """
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    reader = _native.PuzzleReader(os.fspath(path), size)
    while True:
        part = reader.next_chunk(chunk)
        if part is None:
            return
        yield Batch(*part)


def canonical(puzzles: Puzzles, *, threads: Optional[int] = None) -> np.ndarray:
    """One representative per equivalence class of the Sudoku symmetry group, per row (4x4, 9x9 and 16x16 boards).

    The group: digit relabelling, row permutations within bands, band permutations, the same for columns, and
    transposition. Two puzzles are equivalent exactly when their canonical rows are equal, so a train/test split
    can be checked for leakage with ``np.unique`` or a set of ``row.tobytes()``. The representative is the
    transformed, relabelled grid that comes first when rows are read left to right, top to bottom, with digits
    ranked before blanks and digits relabelled in order of first appearance (so the first digit read is 1).

    The search is exact: ties are all followed. On 4x4 and 9x9 every board is handled (the empty 9x9 board, the
    slowest, takes about 0.35 s). On 16x16 it handles puzzles (the shipped 140-clue ones take about 20 ms each),
    but refuses boards whose rows repeat a digit and boards with so many ties that the search would not end
    (complete grids, the empty board, many boards above about 200 clues).

    Raises:
        ValueError: wrong dtype or shape, a board larger than 16x16, or a 16x16 board it refuses (naming the row).
    """
    cells, skip, parse_errors = _as_array(puzzles, None, threads)
    if parse_errors:
        first = min(parse_errors)
        raise ValueError(f"row {first}: {parse_errors[first]}")
    return _native.canonical(cells, threads)


def augment(
    puzzles: Puzzles,
    seed: int,
    solutions: Optional[Puzzles] = None,
    *,
    threads: Optional[int] = None,
) -> Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]:
    """A random equivalent puzzle per row (any size): a random transposition, band and row permutation, stack and
    column permutation and digit relabelling, drawn from ``(seed, row)`` so the result is reproducible.

    With ``solutions``, returns ``(puzzles, solutions)`` with each solution transformed as its puzzle was.
    """
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2**64, not {seed}")
    cells, skip, parse_errors = _as_array(puzzles, None, threads)
    if parse_errors:
        first = min(parse_errors)
        raise ValueError(f"row {first}: {parse_errors[first]}")
    if solutions is None:
        return _native.augment(cells, seed, None, threads)[0]
    sol, _, sol_errors = _as_array(solutions, _WIDTHS[cells.shape[1]], threads)
    if sol_errors:
        first = min(sol_errors)
        raise ValueError(f"solution row {first}: {sol_errors[first]}")
    if sol.shape != cells.shape:
        raise ValueError(f"puzzles have shape {cells.shape} but solutions {sol.shape}")
    out, out_sol = _native.augment(cells, seed, sol, threads)
    assert out_sol is not None, "the native module transforms the solutions it is given"
    return out, out_sol


def parse(
    puzzles: Sequence[str], *, size: Optional[int] = None, threads: Optional[int] = None
) -> Tuple[np.ndarray, Dict[int, str]]:
    """Parses one puzzle per string (any format ``sudoku solve`` reads) into a ``uint8`` array ``(N, n*n)``.

    Returns the array and ``{row: message}`` for the strings that are not valid puzzles (their rows are zero).
    The size is ``size`` (a side) when given, else the first valid string's; other sizes are errors.
    """
    if isinstance(puzzles, (str, bytes)):
        raise ValueError("pass a list of puzzle strings (one puzzle per string), not a single string")
    cells, errors = _native.parse_strings(list(puzzles), size, threads)
    return cells, dict(errors)


def solvers() -> List[str]:
    """The registry's solver names, slowest baseline first (``fast`` last)."""
    return list(_native.solver_names())


def to_strings(puzzles: np.ndarray) -> List[str]:
    """Rows of a ``uint8`` batch as the CLI's line format (``.`` for blanks, ``1-9`` then ``A-Z``, then ``0``)."""
    cells, _, _ = _as_array(puzzles)
    # Values above 36 exist on no board: they print as '?', as the Rust side prints them.
    symbols = np.full(256, ord("?"), dtype=np.uint8)
    symbols[:37] = np.frombuffer(b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0", dtype=np.uint8)
    text = symbols[cells]
    return [row.tobytes().decode("ascii") for row in text]
