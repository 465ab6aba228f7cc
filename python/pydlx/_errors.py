"""The exceptions of pydlx."""

from __future__ import annotations

from typing import Any


class SearchTimeout(TimeoutError):
    """A search ran out of time before its answer was known.

    ``found`` is what it had found by then: for ``count`` the number of
    solutions (a lower bound of the count), for ``best`` the cheapest
    solutions found (not proven cheapest), for ``candidates`` the digits
    seen so far, 0 otherwise. ``stats`` holds the search's counters.
    """

    found: Any
    stats: Any

    def __init__(self, message: str, found: Any = None, stats: Any = None) -> None:
        super().__init__(message)
        self.found = found
        self.stats = stats
