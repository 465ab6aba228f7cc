"""``xcover``'s solvers on pydlx's engine: switch with one import.

``from pydlx.compat import xcover`` in place of ``import xcover``: ``covers``
and ``covers_bool`` with the same arguments, yielding each solution as a
list of option indices; no compile on the first call.
"""

from __future__ import annotations

from typing import Any, Dict, Hashable, Iterable, Iterator, List, Optional, Sequence

from .._core import Problem

__all__ = ["covers", "covers_bool"]


def _split(x: Any, colored: bool) -> "tuple[Any, Optional[str]]":
    if colored and isinstance(x, str) and ":" in x:
        name, color = x.rsplit(":", 1)
        return name, color
    return x, None


def covers(
    options: Sequence[Iterable[Hashable]],
    primary: Optional[Iterable[Hashable]] = None,
    secondary: Optional[Iterable[Hashable]] = None,
    colored: bool = False,
) -> Iterator[List[int]]:
    """Exact cover with colors, as ``xcover.covers``: ``options`` lists of
    items (any hashable; with ``colored``, secondary items written
    ``"name:color"``); ``primary`` and ``secondary`` inferred as xcover
    infers them. Yields each solution as a list of option indices."""
    opts = [[_split(x, colored) for x in opt] for opt in options]
    universe: Dict[Any, None] = {}
    for opt in opts:
        for name, _ in opt:
            universe.setdefault(name, None)
    if primary is None and secondary is None:
        prim = list(universe)
        sec: List[Any] = []
    elif primary is None:
        sec = [_split(x, colored)[0] for x in secondary or []]
        listed = set(sec)
        prim = [x for x in universe if x not in listed]
    elif secondary is None:
        prim = list(primary)
        listed = set(prim)
        sec = [x for x in universe if x not in listed]
    else:
        prim, sec = list(primary), [_split(x, colored)[0] for x in secondary]
    # Names the engine takes: each item's and each color's number.
    ids: Dict[Any, str] = {}
    for x in prim + sec:
        ids.setdefault(x, str(len(ids)))
    for x in universe:
        ids.setdefault(x, str(len(ids)))
    colors: Dict[str, str] = {}
    encoded = [
        [
            ids[name] if color is None else ids[name] + ":" + colors.setdefault(color, str(len(colors)))
            for name, color in opt
        ]
        for opt in opts
    ]
    problem = Problem(encoded, [ids[x] for x in prim], [ids[x] for x in sec])
    yield from problem.solutions()


def covers_bool(matrix: Any) -> Iterator[List[int]]:
    """Exact cover of a boolean matrix (rows the options, columns the
    items), as ``xcover.covers_bool``: yields lists of row indices."""
    yield from Problem.from_matrix(matrix).solutions()
