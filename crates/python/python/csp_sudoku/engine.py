"""The csp-core constraint engine from Python: models of integer and Boolean variables, constraints, search.

>>> from csp_sudoku.engine import Model
>>> m = Model()
>>> x, y, z = (m.int_var(1, 3, name) for name in "xyz")
>>> m.all_different([x, y, z])
>>> m.linear([(1, x), (1, y)], "<", 4)      # x + y < 4
>>> m.equal(z, x, 1)                        # z == x + 1
>>> r = m.solve()
>>> r.status, r[x], r[y], r[z]
('solved', 2, 1, 3)
>>> m.count().count
1
>>> m = Model()
>>> x, y = m.int_var(-3, 3, "x"), m.int_var(-3, 3, "y")
>>> sq, big = m.int_var(0, 9, "sq"), m.bool_var("big")
>>> m.times(x, x, sq)                                # sq == x * x
>>> m.reify_linear([(1, x), (1, y)], ">=", 2, big)   # big == (x + y >= 2)
>>> best = m.minimize([(1, sq), (-5, big), (-1, y)])  # branch and bound on sq - 5 big - y
>>> best.status, best.objective, best[x], best[y]
('optimal', -8, 0, 3)

The model stays open after a solve: added constraints count from the next solve on. Constraints, each a method
of :class:`Model` (see its docstrings and the stubs):

- ``all_different`` (``level="value"``, ``"bounds"`` or ``"domain"``), ``all_different_offset``,
  ``not_equal``/``equal`` with an offset, ``linear`` (``==``,
  ``!=``, ``<=``, ``>=``, ``<``, ``>``), ``table``;
- Booleans: ``clause``, ``bool_and``, ``bool_or``, ``bool_xor``, ``bool_not``, ``bool_equiv``; reification
  ``reify_linear`` (``b == (linear relation)``, or ``b -> (...)`` with ``half=True``);
- arithmetic: ``times``, ``div``, ``mod`` (rounding toward zero as C does, not as Python's ``//`` and ``%``),
  ``pow``, ``abs``, ``min_of``, ``max_of``; ``element`` over integers or variables;
- globals: ``count_eq``, ``global_cardinality``, ``inverse``, ``lex``, ``regular``, ``circuit``, ``subcircuit``.

A bad argument raises ``ValueError`` (what the engine refuses, naming the variable) or ``TypeError`` (the wrong
kind of argument), never a crash.

Search options, accepted by ``solve``, ``count``, ``solutions``, ``minimize`` and ``maximize``:

- ``var_order``: ``"mrv"`` (default), ``"input"``, ``"mrv-degree"``, ``"dom-wdeg"``, ``"anti-first-fail"``,
  ``"smallest"``, ``"largest"``, ``"max-regret"`` (csp-core's ``VarOrder`` names; ``_`` for ``-`` also works);
- ``value_order``: ``"ascending"`` (default), ``"median"``, ``"lcv"``, ``"random"``, ``"descending"``,
  ``"split"``, ``"reverse-split"`` (bisection: ``x <= mid`` first, or ``x > mid`` first);
- ``phases``: ``[(variables, var_order, value_order), ...]``: branch on the first group with its orders until it
  is assigned, then on the next (MiniZinc's ``seq_search``); the rest come last with the orders above;
- ``propagation``: ``"fc"`` (forward checking, default), ``"none"``, ``"singles"``;
- ``random_ties`` (bool), ``seed`` (int), ``intersections`` (bool), ``restarts`` (``None``, ``("luby", scale)``
  or ``("geometric", base, factor)``);
- ``node_limit`` (int) and ``time_limit`` (seconds): a search they stop has status ``limit`` (``feasible`` or
  ``unknown`` when optimising), never ``unsatisfiable``.

Every result carries ``stats``: nodes, guesses, fails, propagations, max_depth, restarts, solutions, time.
Ctrl-C stops a running search and raises ``KeyboardInterrupt``.

``minimize``/``maximize`` take a variable or a list of ``(coefficient, variable)`` terms and run csp-core's
branch and bound (one search: each solution found must beat the previous one). The status is ``optimal``,
``feasible`` (a solution, but a limit or the callback ended the search before the proof), ``unsatisfiable`` or
``unknown`` (stopped before any solution). ``on_improve(solution, value)`` sees every improving solution as it
is found; returning ``False`` stops the search. An objective whose range is wider than a domain may be (65,536
values) is optimised by solving again under a tightening bound, with the same statuses and limits (and
``feasible`` when a bound near 2**63 is more than the engine's 64-bit linear check accepts).
"""

from ._native import IntVar, Model, SearchResult, Solution, Solutions

__all__ = ["IntVar", "Model", "SearchResult", "Solution", "Solutions"]
