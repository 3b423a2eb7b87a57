"""Type stubs of the native module ``csp_sudoku._native`` (Rust, PyO3). Use the wrappers in ``csp_sudoku``:
they check shapes and dtypes and return named results; these functions take checked, C-contiguous arrays."""

from os import PathLike
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

U8Array = npt.NDArray[np.uint8]
U64Array = npt.NDArray[np.uint64]
BoolArray = npt.NDArray[np.bool_]
RowErrors = List[Tuple[int, str]]

def solve(
    puzzles: U8Array,
    solver: str,
    limit: int,
    threads: Optional[int],
    node_limit: Optional[int],
    time_limit: Optional[float],
    skip: Optional[BoolArray] = None,
) -> Tuple[U8Array, U8Array, U64Array, U64Array, U64Array, RowErrors]:
    """Solutions, status codes (0 solved, 1 unsatisfiable, 2 invalid, 3 limit, 4 error), counts, nodes, guesses,
    and (row, message) for invalid or failed rows. Rows marked in ``skip`` are left ``invalid`` unsolved."""

def verify_rows(
    puzzles: U8Array, solutions: U8Array, threads: Optional[int] = None
) -> Tuple[BoolArray, RowErrors]:
    """Whether each solution row solves its puzzle row, and why not for the others."""

def rate(
    puzzles: U8Array,
    threads: Optional[int] = None,
    node_limit: Optional[int] = None,
    skip: Optional[BoolArray] = None,
) -> Tuple[U64Array, U64Array, BoolArray, U64Array, U8Array, RowErrors]:
    """Guesses, nodes, complete, solution counts (up to 2), status codes and errors of the pinned rater."""

def parse_strings(
    texts: List[str], size: Optional[int] = None, threads: Optional[int] = None
) -> Tuple[U8Array, RowErrors]:
    """One puzzle per string into an (N, n*n) array; rows that do not parse are zero and listed."""

def solver_names() -> List[str]:
    """The registry's solver names."""

def rater_name() -> Optional[str]:
    """The pinned rater's registry name."""

def generate_batch(
    size: int,
    count: int,
    seed: int,
    clues: Optional[int],
    symmetric: bool,
    min_rating: Optional[int],
    max_rating: Optional[int],
    threads: Optional[int],
    max_candidates: Optional[int],
) -> Tuple[U8Array, U8Array, U64Array, U64Array, U64Array, BoolArray, str]:
    """Puzzles, solutions, ratings, nodes, candidate indices, rating complete, and the rater's name."""

class PuzzleReader:
    """A puzzle file read chunk by chunk with the sudoku crate's streaming reader."""

    def __init__(self, path: Union[str, PathLike[str]], size: Optional[int] = None) -> None: ...
    def next_chunk(
        self, records: int
    ) -> Optional[Tuple[U8Array, U8Array, BoolArray, U64Array, List[Tuple[int, str]]]]:
        """Puzzles, expected solutions, has-solution mask, lines and (line, message) errors, or None at the end."""

def canonical(puzzles: U8Array, threads: Optional[int] = None) -> U8Array:
    """The canonical form of every row (4x4 and 9x9)."""

def augment(
    puzzles: U8Array, seed: int, solutions: Optional[U8Array] = None, threads: Optional[int] = None
) -> Tuple[U8Array, Optional[U8Array]]:
    """A random equivalent of every row, drawn from (seed, row), and the solutions transformed alike."""


class IntVar:
    """An integer variable of a Model (a Boolean one is an integer variable on 0..=1)."""

    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...

Terms = Sequence[Tuple[int, IntVar]]

class Solution:
    """Values of every variable of a model, read with ``solution[x]``."""

    def __getitem__(self, x: IntVar) -> int: ...
    @property
    def values(self) -> List[int]: ...
    def as_dict(self) -> Dict[str, int]: ...
    def __len__(self) -> int: ...

class SearchResult:
    """What solve, count, minimize and maximize return."""

    @property
    def status(self) -> str: ...
    @property
    def count(self) -> int: ...
    @property
    def solution(self) -> Optional[Solution]: ...
    @property
    def objective(self) -> Optional[int]: ...
    @property
    def stats(self) -> Dict[str, Any]: ...
    def __getitem__(self, x: IntVar) -> int: ...
    def __bool__(self) -> bool: ...

class Solutions(Iterator[Solution]):
    """The lazy iterator of Model.solutions(); the search runs one solution ahead on its own thread."""

    def __iter__(self) -> "Solutions": ...
    def __next__(self) -> Solution: ...
    def close(self) -> None: ...
    @property
    def status(self) -> Optional[str]: ...
    @property
    def stats(self) -> Optional[Dict[str, Any]]: ...

class Model:
    """A model under construction: variables with finite integer domains and constraints on them."""

    def __init__(self) -> None: ...
    def int_var(self, min: int, max: int, name: Optional[str] = None) -> IntVar: ...
    def int_var_from(self, values: Sequence[int], name: Optional[str] = None) -> IntVar: ...
    def bool_var(self, name: Optional[str] = None) -> IntVar: ...
    def all_different(self, xs: Sequence[IntVar]) -> None: ...
    def all_different_offset(self, xs: Sequence[IntVar], offsets: Sequence[int]) -> None: ...
    def not_equal(self, x: IntVar, y: IntVar, offset: int = 0) -> None: ...
    def equal(self, x: IntVar, y: IntVar, offset: int = 0) -> None: ...
    def linear(self, terms: Terms, relation: str, rhs: int) -> None: ...
    def table(self, xs: Sequence[IntVar], tuples: Sequence[Sequence[int]]) -> None: ...
    @property
    def num_vars(self) -> int: ...
    @property
    def num_constraints(self) -> int: ...
    def solve(self, **options: Any) -> SearchResult: ...
    def count(self, limit: Optional[int] = None, **options: Any) -> SearchResult: ...
    def solutions(self, **options: Any) -> Solutions: ...
    def minimize(self, objective: Terms, **options: Any) -> SearchResult: ...
    def maximize(self, objective: Terms, **options: Any) -> SearchResult: ...
