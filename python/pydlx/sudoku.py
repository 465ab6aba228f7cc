"""Sudoku and its variants through the exact-cover engine.

``text`` is anything the ``dlx`` command line reads as one puzzle: a
puzzle line (81 characters, ``.`` or ``0`` for empty cells; other sizes
from 4×4 to 64×64), the variant text form (a grid line and rule words such
as ``x``, ``windoku``, ``killer=...``), f-puzzles' JSON, an f-puzzles link
or its compressed ``load=`` string. Bad input raises ``ValueError`` with the
library's message; a ``timeout`` (seconds) that expires raises
``pydlx.SearchTimeout``. ``threads`` is the library's rule for a lone
puzzle: variant puzzles, and classic grids of side 25 or more, share their
search among that many threads; smaller classic ones take milliseconds and
search on one.

>>> from pydlx import sudoku
>>> sudoku.check("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
'unique'
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from . import _core

__all__ = ["solve", "count", "check", "candidates", "explain", "rate", "hint"]


def solve(text: str, *, threads: int = 1, timeout: Optional[float] = None) -> Optional[str]:
    """The first solution as one line of symbols (digits to 9, then
    letters), row-major; ``None`` when there is none."""
    return _core.sudoku_solve(text, threads=threads, timeout=timeout)


def count(
    text: str,
    limit: Optional[int] = None,
    *,
    threads: int = 1,
    timeout: Optional[float] = None,
) -> int:
    """The number of solutions, or ``limit`` when there are at least that
    many."""
    return _core.sudoku_count(text, limit, threads=threads, timeout=timeout)


def check(text: str, *, threads: int = 1, timeout: Optional[float] = None) -> str:
    """``"unique"``, ``"multiple"`` or ``"none"``."""
    return _core.sudoku_check(text, threads=threads, timeout=timeout)


def candidates(text: str, *, timeout: Optional[float] = None) -> List[List[int]]:
    """The true candidates: for each cell (row-major) the digits it takes
    in at least one solution, ascending (every list empty when the puzzle
    has no solution)."""
    return _core.sudoku_candidates(text, timeout=timeout)


def explain(text: str, *, timeout: Optional[float] = None) -> Dict[str, Any]:
    """The solve by logic, step by step, as Sudoku Explainer (SE) takes it:
    ``{"steps": [{"technique", "rating", "place": [{"cell": "R1C1",
    "digit": 5}], "eliminate": [...], "text"}], "solved", "stopped",
    "er", "ep", "ed", "hardest"}`` (``dlx sudoku explain --json``'s
    object). The puzzle must have exactly one solution (``ValueError``
    otherwise); a ``timeout`` that expires raises ``SearchTimeout`` with
    the steps so far as ``found``.

    >>> from pydlx import sudoku
    >>> e = sudoku.explain("..41..9....8....5.9.7..2.....5.......79...8.6.....34.....2.5.8..5..18.3..6.93....")
    >>> e["er"], e["hardest"]
    (4.2, 'XY-Wing')
    """
    found: Dict[str, Any] = json.loads(_core.sudoku_explain(text, timeout=timeout))
    return found


def rate(text: str, *, timeout: Optional[float] = None) -> Dict[str, Any]:
    """SE's figures of the solve by logic: ``{"er", "ep", "ed",
    "hardest", "solved", "stopped", "steps"}`` (``er`` is ``None`` where
    the techniques here do not finish)."""
    found: Dict[str, Any] = json.loads(_core.sudoku_rate(text, timeout=timeout))
    return found


def hint(text: str, *, timeout: Optional[float] = None) -> Optional[Dict[str, Any]]:
    """The next step from the grid given (its filled cells taken as
    placed), as one of ``explain``'s steps; ``None`` on a full grid."""
    found: Optional[Dict[str, Any]] = json.loads(_core.sudoku_hint(text, timeout=timeout))
    return found
