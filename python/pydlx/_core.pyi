"""Type stubs of pydlx's compiled part (python/src/lib.rs)."""

import os
from typing import Any, Iterable, Iterator, List, Optional, Tuple, Union, final

Item = Union[str, int]

@final
class Stats:
    """The counters of a search: Knuth's nodes and updates, guesses
    (levels with two options or more), solutions, lookahead probes and
    options pruned."""

    @property
    def nodes(self) -> int: ...
    @property
    def updates(self) -> int: ...
    @property
    def guesses(self) -> int: ...
    @property
    def solutions(self) -> int: ...
    @property
    def probes(self) -> int: ...
    @property
    def pruned(self) -> int: ...

@final
class Spread:
    """One estimated quantity over the probes."""

    @property
    def mean(self) -> float: ...
    @property
    def std_error(self) -> float: ...
    @property
    def min(self) -> float: ...
    @property
    def max(self) -> float: ...

@final
class Estimate:
    """Knuth's estimate of a search tree from random probes."""

    @property
    def probes(self) -> int: ...
    @property
    def solutions(self) -> Spread: ...
    @property
    def nodes(self) -> Spread: ...
    @property
    def updates(self) -> Spread: ...
    @property
    def depth(self) -> float: ...

@final
class MemoStats:
    """The work of a memo count: states entered, options tried, children
    found in the table, states kept and evicted, the table's largest size
    in bytes, how often the count started again one width up, and the nodes
    written to a decision diagram (``zdd=``)."""

    @property
    def states(self) -> int: ...
    @property
    def tried(self) -> int: ...
    @property
    def hits(self) -> int: ...
    @property
    def kept(self) -> int: ...
    @property
    def evicted(self) -> int: ...
    @property
    def table_bytes(self) -> int: ...
    @property
    def widened(self) -> int: ...
    @property
    def zdd_nodes(self) -> int: ...

@final
class Solutions(Iterator[List[int]]):
    """The lazy iterator of ``Problem.solutions``."""

    def __iter__(self) -> "Solutions": ...
    def __next__(self) -> List[int]: ...

@final
class Problem:
    """An exact-cover problem.

    ``options`` is a list of options, each a list of items: names (``str``;
    no spaces, ``:`` or ``|``) or ``int``s. ``"name:color"`` gives a
    secondary item a color (DLX2); a token ``"|n"`` adds ``n`` to the
    option's cost (DLX5). ``primary`` and ``secondary`` list the items;
    a primary item written ``"v|name"`` or ``"u:v|name"`` is covered
    exactly ``v`` or ``u`` to ``v`` times (DLX3). When both are ``None``,
    items given a color are secondary and all others primary; when either
    is given, the two name every item: an item of the options in neither
    raises ``ValueError`` naming it (a typo is not taken for a secondary
    item). An empty option raises ``ValueError`` too. A negative ``limit``,
    ``k``, ``threads``, ``samples`` or ``memory`` raises ``ValueError``
    naming the argument.

    ``engine`` (``"auto"``, ``"links"``, ``"dense"``, ``"bits"``,
    ``"masks"``) and ``rule`` (``"knuth"``, ``"first-forced"``,
    ``"lookahead"``) choose the search; an unknown name, or an engine that
    cannot take the problem or the rule, raises ``ValueError``.
    """

    def __init__(
        self,
        options: Iterable[Iterable[Item]],
        primary: Optional[Iterable[Item]] = None,
        secondary: Optional[Iterable[Item]] = None,
        *,
        engine: Optional[str] = None,
        rule: Optional[str] = None,
    ) -> None: ...
    @staticmethod
    def from_knuth(text: str, *, engine: Optional[str] = None, rule: Optional[str] = None) -> "Problem":
        """A problem in Knuth's text format (DLX1/2/3/5)."""
    @staticmethod
    def from_matrix(
        a: Any,
        secondary_columns: int = 0,
        *,
        engine: Optional[str] = None,
        rule: Optional[str] = None,
    ) -> "Problem":
        """A problem from a numpy array or a scipy sparse matrix: rows are
        options, columns items, the last ``secondary_columns`` secondary."""
    def to_knuth(self) -> str:
        """The problem in Knuth's text format."""
    @property
    def item_count(self) -> int: ...
    @property
    def primary_count(self) -> int: ...
    @property
    def option_count(self) -> int: ...
    @property
    def items(self) -> List[str]: ...
    @property
    def engine(self) -> Optional[str]:
        """The engine of the last query (before any, the one chosen)."""
    @property
    def rule(self) -> str: ...
    @property
    def stats(self) -> Stats:
        """The counters of the last query."""
    def solve(self, *, timeout: Optional[float] = None) -> Optional[List[int]]:
        """The first solution (option indices, in the order chosen) or
        ``None``; ``SearchTimeout`` when ``timeout`` seconds pass first."""
    def count(
        self, limit: Optional[int] = None, *, threads: int = 1, timeout: Optional[float] = None
    ) -> int:
        """The number of solutions, or ``limit`` when there are at least
        that many, on ``threads`` threads; ``SearchTimeout`` (with
        ``found``, a lower bound) when ``timeout`` seconds pass first."""
    def count_memo(
        self,
        *,
        order: str = "first-item",
        memory: Optional[int] = None,
        threads: int = 1,
        timeout: Optional[float] = None,
        auto: bool = False,
        zdd: Union[str, "os.PathLike[str]", None] = None,
    ) -> int:
        """The exact number of solutions, however large, counted with a memo
        of states (DXZ): each state (the items covered, colors and
        multiplicities set) is counted once. ``order`` is ``"first-item"``
        or ``"knuth"``; ``memory`` caps the table in bytes (default 2 GiB);
        ``SearchTimeout`` (``found`` a lower bound, ``stats`` a
        ``MemoStats``) when ``timeout`` seconds pass first. With ``auto``
        the memo only where it pays: a forecast of the problem's own search
        gives the memo a sixteenth of its time, and the search counts where
        the memo does not finish (``memo_stats`` the memo's last try). With
        ``zdd`` (a path) the decision diagram of all solutions is written
        there, as ``dlx cover --zdd`` writes it (one thread, not with
        ``auto``; a timeout removes the file)."""
    @property
    def memo_stats(self) -> Optional[MemoStats]:
        """The work of the last ``count_memo``, or ``None`` before one."""
    def best(
        self, k: int = 1, *, threads: int = 1, timeout: Optional[float] = None
    ) -> List[Tuple[int, List[int]]]:
        """The ``k`` cheapest solutions as ``(cost, options)``, cheapest first."""
    def estimate(self, samples: int = 1000, seed: Optional[int] = None) -> Estimate:
        """Knuth's estimate of the search tree from ``samples`` probes."""
    def random_solution(
        self, seed: Optional[int] = None, *, timeout: Optional[float] = None
    ) -> Optional[List[int]]:
        """A random solution (a complete search with the options in a random
        order: every solution can come, not all equally often), or ``None``."""
    def solutions(self, limit: Optional[int] = None) -> Solutions:
        """Every solution, lazily (at most ``limit``)."""

def sudoku_solve(text: str, *, threads: int = 1, timeout: Optional[float] = None) -> Optional[str]: ...
def sudoku_count(
    text: str, limit: Optional[int] = None, *, threads: int = 1, timeout: Optional[float] = None
) -> int: ...
def sudoku_check(text: str, *, threads: int = 1, timeout: Optional[float] = None) -> str: ...
def sudoku_candidates(text: str, *, timeout: Optional[float] = None) -> List[List[int]]: ...
def sudoku_explain(text: str, *, timeout: Optional[float] = None) -> str: ...
def sudoku_rate(text: str, *, timeout: Optional[float] = None) -> str: ...
def sudoku_hint(text: str, *, timeout: Optional[float] = None) -> str: ...
