"""Shared helpers: an independent checker of exact covers and a brute force."""

from __future__ import annotations

import itertools
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple


def is_cover(
    options: Sequence[Sequence[str]],
    solution: Iterable[int],
    primary: Set[str],
    secondary: Set[str],
) -> bool:
    """Whether ``solution`` covers every primary item exactly once and each
    secondary item at most once or always in the same color."""
    count: Dict[str, int] = {}
    color: Dict[str, Optional[str]] = {}
    for k in solution:
        for x in options[k]:
            name, _, c = x.partition(":")
            cc = c or None
            if name in secondary:
                if name in color and (color[name] is None or color[name] != cc):
                    return False
                color[name] = cc
            else:
                count[name] = count.get(name, 0) + 1
    return all(count.get(p, 0) == 1 for p in primary) and all(
        n in primary for n in count
    )


def brute_force(
    options: Sequence[Sequence[str]], primary: Set[str], secondary: Set[str]
) -> List[Tuple[int, ...]]:
    """Every solution, by trying every subset of options."""
    out = []
    n = len(options)
    for r in range(n + 1):
        for subset in itertools.combinations(range(n), r):
            if is_cover(options, subset, primary, secondary):
                out.append(subset)
    return out
