"""The csp-core constraint engine from Python: models of integer and Boolean variables, constraints, search.

>>> from csp_sudoku.engine import Model
>>> m = Model()
>>> x, y, z = (m.int_var(1, 3, name) for name in "xyz")
>>> m.all_different([x, y, z])
>>> m.linear([(1, x), (-1, y)], "<=", -1)   # x < y
>>> m.equal(z, x, 1)                        # z == x + 1
>>> r = m.solve()
>>> r.status, r[x], r[y], r[z]
('solved', 1, 3, 2)
>>> m.count().count
1

Constraints (those csp-core has today): ``all_different``, ``all_different_offset``, ``not_equal``/``equal`` with an offset, ``linear``
(``==``, ``<=``, ``>=``) and ``table``. The model stays open after a solve: added constraints count from the next
solve on. Search options, accepted by ``solve``, ``count``, ``solutions``, ``minimize`` and ``maximize``:

- ``var_order``: ``"mrv"`` (default), ``"input"``, ``"mrv-degree"``, ``"dom-wdeg"``;
- ``value_order``: ``"ascending"`` (default), ``"median"``, ``"lcv"``, ``"random"``;
- ``propagation``: ``"fc"`` (forward checking, default), ``"none"``, ``"singles"``;
- ``random_ties`` (bool), ``seed`` (int), ``intersections`` (bool), ``restarts`` (``None``, ``("luby", scale)``
  or ``("geometric", base, factor)``);
- ``node_limit`` (int) and ``time_limit`` (seconds): a search they stop has status ``limit``.

Every result carries ``stats``: nodes, guesses, fails, propagations, max_depth, restarts, solutions, time.
``minimize``/``maximize`` solve again under a tightening bound until no better solution exists (csp-core has no
branch and bound of its own yet).
"""

from ._native import IntVar, Model, SearchResult, Solution, Solutions

__all__ = ["IntVar", "Model", "SearchResult", "Solution", "Solutions"]
