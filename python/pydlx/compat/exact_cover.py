"""``exact_cover``'s functions on pydlx's engine: switch with one import.

``from pydlx.compat import exact_cover`` in place of ``import exact_cover``:
the same functions, arguments and return types (numpy ``int32`` row
indices, ascending; ``NoSolution`` when there is none).
``get_all_solutions`` searches once, stopping at ``max_count``.
"""

from __future__ import annotations

from typing import Any, Optional, Set, Tuple

import numpy as np

from .._core import Problem

__all__ = [
    "ExactCoverError",
    "NoSolution",
    "CannotSplitFurther",
    "get_exact_cover",
    "get_solution_count",
    "get_all_solutions",
]


class ExactCoverError(Exception):
    """The base of this module's errors, as in ``exact_cover``."""


class NoSolution(ExactCoverError):
    """The matrix has no exact cover."""


class CannotSplitFurther(ExactCoverError):
    """Kept for ``exact_cover``'s names; never raised here."""


def _problem(matrix: Any) -> Problem:
    return Problem.from_matrix(np.asarray(matrix))


def get_exact_cover(matrix: Any) -> "np.ndarray[Any, np.dtype[np.int32]]":
    """The rows of one exact cover, ascending; ``NoSolution`` if none."""
    found = _problem(matrix).solve()
    if found is None:
        raise NoSolution("No solutions found.")
    return np.array(sorted(found), dtype=np.int32)


def get_solution_count(matrix: Any) -> int:
    """The number of exact covers."""
    return _problem(matrix).count()


def get_all_solutions(matrix: Any, max_count: Optional[int] = None) -> Set[Tuple[Any, ...]]:
    """Every exact cover (at most ``max_count``), each a tuple of row
    indices (numpy ``int32``), ascending; ``NoSolution`` if none."""
    found = {
        tuple(np.int32(r) for r in sorted(s))
        for s in _problem(matrix).solutions(limit=max_count)
    }
    if not found:
        raise NoSolution("No solutions found.")
    return found
