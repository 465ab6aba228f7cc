"""pydlx: exact cover with Knuth's Dancing Links, compiled.

Items (primary ones covered exactly once, secondary ones at most once or in
one color), options, DLX3's multiplicities and DLX5's costs; first solution,
count (exact counts of any size with a memo of states), a lazy iterator, the cheapest solutions, Knuth's estimate, a random
solution; the search runs with the GIL released, on threads if asked, and
Ctrl-C or a timeout stops it. ``pydlx.sudoku`` solves Sudoku and its
variants. ``pydlx.compat`` has drop-in shims for ``exact_cover`` and
``xcover``.

>>> import pydlx
>>> p = pydlx.Problem([["A", "B"], ["A"], ["B"]])
>>> p.count()
2
>>> sorted(sorted(s) for s in p.solutions())
[[0], [1, 2]]
"""

from __future__ import annotations

from ._core import Estimate, MemoStats, Problem, Solutions, Spread, Stats
from ._errors import SearchTimeout
from . import sudoku

__all__ = [
    "Estimate",
    "MemoStats",
    "Problem",
    "SearchTimeout",
    "Solutions",
    "Spread",
    "Stats",
    "sudoku",
]
__version__ = "0.1.0"
