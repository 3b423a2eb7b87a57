"""Type stubs of the native module ``csp_sudoku._native`` (Rust, PyO3). Use the wrappers in ``csp_sudoku``:
they check shapes and dtypes and return named results; these functions take checked, C-contiguous arrays."""

from os import PathLike
from typing import Any, Callable, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union

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
    """The canonical form of every row (4x4, 9x9 and 16x16; ValueError names a row it refuses)."""

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
#: A variable, or a linear expression as ``(coefficient, variable)`` terms.
Objective = Union[IntVar, Terms]

class Solution:
    """Values of the variables a model had when it was solved, read with ``solution[x]``."""

    def __getitem__(self, x: IntVar) -> int: ...
    @property
    def values(self) -> List[int]: ...
    def as_dict(self) -> Dict[str, int]: ...
    def __len__(self) -> int: ...

class SearchResult:
    """What solve, count, minimize and maximize return.

    ``status``: ``solved``, ``unsatisfiable`` or ``limit`` for solve and count; ``optimal``, ``feasible`` (a
    solution, but a limit or the callback stopped the proof), ``unsatisfiable`` or ``unknown`` (a limit stopped
    the search before any solution) for minimize and maximize."""

    @property
    def status(self) -> str: ...
    @property
    def count(self) -> int: ...
    @property
    def solution(self) -> Optional[Solution]: ...
    @property
    def objective(self) -> Optional[int]: ...
    @property
    def improvements(self) -> int: ...
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
    """A model under construction: variables with finite integer domains and constraints on them.

    Every constraint method raises ``ValueError`` for arguments the engine refuses (a variable of another
    model, lengths that differ, a non-Boolean where a Boolean is needed, a constant zero divisor, arithmetic
    that overflows 64 bits, a malformed automaton) and ``TypeError`` for arguments of the wrong kind."""

    def __init__(self) -> None: ...
    def int_var(self, min: int, max: int, name: Optional[str] = None) -> IntVar:
        """A new integer variable with domain ``min..=max`` (at most 65,536 values)."""
    def int_var_from(self, values: Sequence[int], name: Optional[str] = None) -> IntVar:
        """A new integer variable whose domain is exactly ``values``."""
    def bool_var(self, name: Optional[str] = None) -> IntVar:
        """A new Boolean variable: an integer variable on 0..=1 (1 = true)."""
    def all_different(
        self, xs: Sequence[IntVar], level: Optional[Literal["value", "bounds", "domain"]] = None
    ) -> None:
        """The variables take pairwise different values.

        ``level`` chooses the propagation: ``"value"`` (forward checking and hidden singles; the default),
        ``"bounds"`` (Hall intervals) or ``"domain"`` (a matching: every value left belongs to some assignment of
        the group, so Hall sets with holes are found too; bounds on interval variables). Any other string is a
        ``ValueError``.
        """
    def all_different_offset(self, xs: Sequence[IntVar], offsets: Sequence[int]) -> None:
        """The values ``xs[i] + offsets[i]`` are pairwise different."""
    def not_equal(self, x: IntVar, y: IntVar, offset: int = 0) -> None:
        """``x != y + offset``."""
    def equal(self, x: IntVar, y: IntVar, offset: int = 0) -> None:
        """``x == y + offset``."""
    def linear(self, terms: Terms, relation: str, rhs: int) -> None:
        """``sum(a * x for a, x in terms) <relation> rhs``; relation ``==``, ``!=``, ``<=``, ``>=``, ``<``, ``>``."""
    def table(self, xs: Sequence[IntVar], tuples: Sequence[Sequence[int]]) -> None:
        """The variables take one of the tuples."""
    def clause(self, pos: Sequence[IntVar], neg: Sequence[IntVar] = ...) -> None:
        """``pos[0] or pos[1] or ... or not neg[0] or not neg[1] or ...`` over Booleans."""
    def bool_and(self, xs: Sequence[IntVar], b: IntVar) -> None:
        """``b == (xs[0] and xs[1] and ...)`` over Booleans."""
    def bool_or(self, xs: Sequence[IntVar], b: IntVar) -> None:
        """``b == (xs[0] or xs[1] or ...)`` over Booleans."""
    def bool_xor(self, xs: Sequence[IntVar], odd: bool = True) -> None:
        """An odd (``odd=False``: even) number of the Booleans are true."""
    def bool_not(self, x: IntVar, y: IntVar) -> None:
        """``y == not x`` over Booleans."""
    def bool_equiv(self, x: IntVar, y: IntVar) -> None:
        """``x == y`` over Booleans."""
    def reify_linear(self, terms: Terms, relation: str, rhs: int, b: IntVar, half: bool = False) -> None:
        """``b == (sum(a * x) <relation> rhs)``; with ``half=True`` only ``b -> (...)``."""
    def times(self, x: IntVar, y: IntVar, z: IntVar) -> None:
        """``z == x * y``."""
    def div(self, x: IntVar, y: IntVar, z: IntVar) -> None:
        """``z == x div y`` rounding toward zero (not Python's ``//``); ``y != 0``."""
    def mod(self, x: IntVar, y: IntVar, z: IntVar) -> None:
        """``z == x - y * (x div y)``, the sign of ``x`` (not Python's ``%``); ``y != 0``."""
    def pow(self, x: IntVar, y: IntVar, z: IntVar) -> None:
        """``z == x ** y`` with ``y >= 0`` (``0 ** 0 == 1``)."""
    def abs(self, x: IntVar, z: IntVar) -> None:
        """``z == abs(x)``."""
    def min_of(self, xs: Sequence[IntVar], z: IntVar) -> None:
        """``z == min(xs)``."""
    def max_of(self, xs: Sequence[IntVar], z: IntVar) -> None:
        """``z == max(xs)``."""
    def element(
        self, index: IntVar, array: Union[Sequence[int], Sequence[IntVar]], result: IntVar, first: int = 0
    ) -> None:
        """``result == array[index - first]`` for an array of integers or of variables."""
    def count_eq(self, xs: Sequence[IntVar], value: Union[int, IntVar], n: IntVar) -> None:
        """``n`` == the number of ``xs`` equal to ``value``."""
    def global_cardinality(self, xs: Sequence[IntVar], values: Sequence[int], counts: Sequence[IntVar]) -> None:
        """``counts[k]`` == the number of ``xs`` equal to ``values[k]``."""
    def inverse(self, f: Sequence[IntVar], g: Sequence[IntVar], first: int = 0) -> None:
        """``f[i] == j + first`` exactly when ``g[j] == i + first``."""
    def lex(self, xs: Sequence[IntVar], ys: Sequence[IntVar], strict: bool = False) -> None:
        """``xs <= ys`` lexicographically (``strict=True``: ``<``)."""
    def regular(
        self,
        xs: Sequence[IntVar],
        states: int,
        start: int,
        transitions: Sequence[Tuple[int, int, int]],
        accepting: Sequence[int],
    ) -> None:
        """The values of ``xs`` form a word of the automaton (``(from, value, to)`` transitions)."""
    def circuit(self, xs: Sequence[IntVar], first: int = 0) -> None:
        """One Hamiltonian circuit in successor form (``xs[i] == j + first``: node j follows node i)."""
    def subcircuit(self, xs: Sequence[IntVar], first: int = 0) -> None:
        """A circuit through the nodes not pointing to themselves (``xs[i] == i + first`` leaves node i out)."""
    @property
    def num_vars(self) -> int: ...
    @property
    def num_constraints(self) -> int: ...
    def solve(self, **options: Any) -> SearchResult: ...
    def count(self, limit: Optional[int] = None, **options: Any) -> SearchResult: ...
    def solutions(self, **options: Any) -> Solutions: ...
    def minimize(
        self,
        objective: Objective,
        on_improve: Optional[Callable[[Solution, int], Optional[bool]]] = None,
        **options: Any,
    ) -> SearchResult: ...
    def maximize(
        self,
        objective: Objective,
        on_improve: Optional[Callable[[Solution, int], Optional[bool]]] = None,
        **options: Any,
    ) -> SearchResult: ...
