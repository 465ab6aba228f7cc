"""pydlx.Problem: answers checked by an independent checker and against a
brute force; every engine and rule; errors, limits and threads."""

from __future__ import annotations

import os
import pathlib
import random
from typing import Callable, List, Set, Tuple

import numpy as np
import pytest
import scipy.sparse

import pydlx
from conftest import brute_force, is_cover

ENGINES = ["auto", "links", "dense", "bits", "masks"]
RULES = ["knuth", "first-forced", "lookahead"]
TAOCP = [["C", "E", "F"], ["A", "D", "G"], ["B", "C", "F"], ["A", "D"], ["B", "G"], ["D", "E", "G"]]


def queens(n: int) -> List[List[str]]:
    """n queens: rows and columns primary, diagonals secondary."""
    return [
        [f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n - 1}"] for r in range(n) for c in range(n)
    ]


def queens_problem(n: int, **kw: str) -> pydlx.Problem:
    prim = [f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)]
    sec = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    return pydlx.Problem(queens(n), prim, sec, **kw)


def random_problem(rng: random.Random, colors: bool) -> Tuple[List[List[str]], Set[str], Set[str]]:
    primary = {f"p{k}" for k in range(rng.randint(1, 5))}
    secondary = {f"s{k}" for k in range(rng.randint(0, 3))}
    options = []
    for _ in range(rng.randint(1, 9)):
        opt = rng.sample(sorted(primary), rng.randint(1, len(primary)))
        for s in sorted(secondary):
            if rng.random() < 0.4:
                opt.append(f"{s}:{rng.choice('xy')}" if colors else s)
        options.append(opt)
    return options, primary, secondary


def test_taocp_example_on_every_engine_and_rule() -> None:
    for engine in ENGINES:
        for rule in RULES:
            try:
                p = pydlx.Problem(TAOCP, engine=engine, rule=rule)
            except ValueError:
                continue  # an engine without that rule says so
            assert p.count() == 1
            sol = p.solve()
            assert sol is not None and sorted(sol) == [0, 3, 4]
            assert [sorted(s) for s in p.solutions()] == [[0, 3, 4]]


def test_random_problems_match_brute_force_on_every_engine() -> None:
    rng = random.Random(3)
    for case in range(150):
        options, primary, secondary = random_problem(rng, colors=case % 2 == 1)
        want = sorted(brute_force(options, primary, secondary))
        for engine in ENGINES:
            try:
                p = pydlx.Problem(options, sorted(primary), sorted(secondary), engine=engine)
            except ValueError:
                continue
            got = sorted(tuple(sorted(s)) for s in p.solutions())
            assert got == want, (case, engine, options)
            assert p.count() == len(want)
            first = p.solve()
            assert (first is None) == (not want)
            if first is not None:
                assert is_cover(options, first, primary, secondary)


def test_queens_on_every_engine_counts_and_checks() -> None:
    for engine in ENGINES:
        p = queens_problem(8, engine=engine)
        assert p.count() == 92
        assert p.stats.solutions == 92
        sols = list(p.solutions())
        assert len(sols) == 92 == len({tuple(sorted(s)) for s in sols})
        for s in sols:
            assert is_cover(queens(8), s, {f"r{k}" for k in range(8)} | {f"c{k}" for k in range(8)}, {f"a{k}" for k in range(15)} | {f"b{k}" for k in range(15)})


def test_knuths_rule_counts_the_same_nodes_and_updates_on_every_engine() -> None:
    counters = set()
    for engine in ENGINES:
        try:
            p = queens_problem(8, rule="knuth", engine=engine)
        except ValueError:
            continue  # an engine without Knuth's rule refuses it by name
        assert p.rule == "knuth"
        assert p.count() == 92
        s = p.stats
        assert s.solutions == 92 and s.nodes > 92
        counters.add((s.nodes, s.updates))
    assert len(counters) == 1, counters
    assert queens_problem(8, engine="links").engine == "links"


def test_limits_and_laziness() -> None:
    p = queens_problem(8)
    assert p.count(limit=10) == 10
    assert p.count(limit=1000) == 92
    it = p.solutions(limit=3)
    assert len(list(it)) == 3
    it = p.solutions()
    first = next(it)
    assert len(first) == 8
    assert len(list(it)) == 91
    with pytest.raises(StopIteration):
        next(it)


def test_colors_bounds_and_costs_as_knuth_writes_them() -> None:
    # Colors: x must agree.
    p = pydlx.Problem([["A", "x:red"], ["B", "x:red"], ["B", "x:blue"], ["A", "B"]])
    assert p.primary_count == 2 and p.items == ["A", "B", "x"]
    assert sorted(sorted(s) for s in p.solutions()) == [[0, 1], [3]]
    # Multiplicities: A twice, B zero or one time.
    p = pydlx.Problem([["A"], ["A", "B"], ["A"]], ["2|A", "0:1|B"])
    assert p.count() == 3
    # Costs: the cheapest cover first.
    p = pydlx.Problem([["A", "B", "|5"], ["A", "|1"], ["B", "|1"], ["A", "B", "|3"]])
    best = p.best(3)
    assert [(c, sorted(s)) for c, s in best] == [(2, [1, 2]), (3, [3]), (5, [0])]
    assert len(p.best(1)) == 1
    # The same through Knuth's text.
    q = pydlx.Problem.from_knuth("A B\nA B |5\nA |1\nB |1\nA B |3\n")
    assert [c for c, _ in q.best(3)] == [2, 3, 5]
    assert pydlx.Problem.from_knuth(q.to_knuth()).count() == 3


def test_from_matrix_numpy_and_scipy() -> None:
    a = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 1, 1], [1, 1, 1, 1]], dtype=np.int8)
    dense = pydlx.Problem.from_matrix(a)
    want = sorted(sorted(s) for s in dense.solutions())
    assert want == [[0, 1], [2, 3], [4]]
    for m in [a.astype(bool), scipy.sparse.csr_matrix(a), scipy.sparse.coo_matrix(a), scipy.sparse.csc_matrix(a)]:
        assert sorted(sorted(s) for s in pydlx.Problem.from_matrix(m).solutions()) == want
    # The last column secondary: covers need not reach it.
    p = pydlx.Problem.from_matrix(a, secondary_columns=1)
    assert p.primary_count == 3
    assert sorted(sorted(s) for s in p.solutions()) == [[0, 1], [2, 3], [4]]
    with pytest.raises(ValueError):
        pydlx.Problem.from_matrix(np.zeros(3))
    with pytest.raises(ValueError):
        pydlx.Problem.from_matrix(a, secondary_columns=5)


def test_errors_are_python_exceptions_with_the_librarys_message() -> None:
    with pytest.raises(ValueError, match="engine"):
        pydlx.Problem(TAOCP, engine="warp")
    with pytest.raises(ValueError, match="rule"):
        pydlx.Problem(TAOCP, rule="fastest")
    with pytest.raises(ValueError):
        pydlx.Problem([["A", "B"]], ["A", "A"])
    with pytest.raises(ValueError):
        pydlx.Problem([["A B"]])
    with pytest.raises(ValueError, match="line 2"):
        pydlx.Problem.from_knuth("A B\nA C\n")
    with pytest.raises(TypeError):
        pydlx.Problem([["A", 1.5]])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        pydlx.Problem(["AB"])
    with pytest.raises(ValueError):
        queens_problem(4).count(threads=0)
    with pytest.raises(ValueError):
        queens_problem(4).count(timeout=-1)


def test_int_items_and_declared_items() -> None:
    p = pydlx.Problem([[1, 2], [1], [2]])
    assert p.count() == 2
    p = pydlx.Problem([["A", "x"], ["A"]], primary=["A"], secondary=["x"])
    assert p.primary_count == 1 and p.count() == 2
    # A list given names every item: an undeclared one (a typo) is refused.
    with pytest.raises(ValueError, match='"Z", not in primary'):
        pydlx.Problem([["A", "Z"], ["A"]], primary=["A"])
    with pytest.raises(ValueError, match='"A", not in secondary'):
        pydlx.Problem([["A", "x"], ["A"]], secondary=["x"])
    with pytest.raises(ValueError, match="option 1 has no item"):
        pydlx.Problem([["A"], []])


def test_negative_numbers_are_value_errors_naming_the_argument() -> None:
    p = queens_problem(4)
    calls: List[Tuple[Callable[[], object], str]] = [
        (lambda: p.count(limit=-1), "limit"),
        (lambda: p.count(threads=-1), "threads"),
        (lambda: p.best(-1), "k"),
        (lambda: p.solutions(limit=-2), "limit"),
        (lambda: p.estimate(-5), "samples"),
        (lambda: pydlx.sudoku.count("1" + "." * 15, -1), "limit"),
        (lambda: pydlx.sudoku.check("1" + "." * 15, threads=-1), "threads"),
    ]
    for call, name in calls:
        with pytest.raises(ValueError, match=f"{name} must be 0 or more"):
            call()


def test_threads_count_the_same() -> None:
    p = queens_problem(10)
    one = p.count()
    assert p.count(threads=2) == one == 724
    assert p.count(threads=3, limit=100) == 100


def test_a_timeout_raises_with_what_was_found() -> None:
    p = queens_problem(14)
    with pytest.raises(pydlx.SearchTimeout) as e:
        p.count(timeout=0.05)
    assert isinstance(e.value, TimeoutError)
    assert isinstance(e.value.found, int) and e.value.found < 365596
    assert e.value.stats.nodes > 0
    with pytest.raises(pydlx.SearchTimeout):
        p.count(threads=2, timeout=0.05)
    # A generous timeout changes nothing.
    assert queens_problem(6).count(timeout=60) == 4


def test_estimate_and_random_solutions() -> None:
    p = queens_problem(8)
    e = p.estimate(2000, seed=1)
    assert e.probes == 2000
    assert 92 * 0.5 < e.solutions.mean < 92 * 1.5
    assert e.nodes.mean > 0 and e.solutions.std_error >= 0
    rows = {f"r{k}" for k in range(8)} | {f"c{k}" for k in range(8)}
    diag = {f"a{k}" for k in range(15)} | {f"b{k}" for k in range(15)}
    seen = set()
    for seed in range(30):
        s = p.random_solution(seed)
        assert s is not None and is_cover(queens(8), s, rows, diag)
        seen.add(tuple(sorted(s)))
    assert len(seen) > 10
    assert p.random_solution(5) == p.random_solution(5)
    assert pydlx.Problem([["A"], ["B"]], ["A", "B", "C"]).random_solution() is None


def dominoes(rows: int, cols: int) -> List[List[str]]:
    """Domino tilings of a rows × cols board: an item per cell."""
    out = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                out.append([f"{r},{c}", f"{r},{c + 1}"])
            if r + 1 < rows:
                out.append([f"{r},{c}", f"{r + 1},{c}"])
    return out


def test_memo_counts_match_brute_force_in_either_order() -> None:
    rng = random.Random(11)
    for case in range(120):
        options, primary, secondary = random_problem(rng, colors=case % 2 == 1)
        want = len(brute_force(options, primary, secondary))
        p = pydlx.Problem(options, sorted(primary), sorted(secondary))
        for order in ("first-item", "knuth"):
            assert p.count_memo(order=order) == want, (case, order, options)
        stats = p.memo_stats
        assert stats is not None and stats.states >= 1


def test_memo_counts_multiplicities_as_algorithm_m_does() -> None:
    rng = random.Random(5)
    for case in range(60):
        items = [f"p{k}" for k in range(rng.randint(1, 4))]
        bounds = []
        for x in items:
            lo = rng.randint(0, 2)
            bounds.append(f"{lo}:{lo + rng.randint(1, 2)}|{x}" if rng.random() < 0.7 else x)
        options = [rng.sample(items, rng.randint(1, len(items))) for _ in range(rng.randint(1, 8))]
        text = " ".join(bounds) + "\n" + "".join(" ".join(o) + "\n" for o in options)
        p = pydlx.Problem.from_knuth(text)
        assert p.count_memo() == p.count(), (case, text)


def test_memo_counts_beyond_64_bits_exactly() -> None:
    # Fibonacci: a 2 × n strip has F(n + 1) domino tilings.
    fib = [1, 1]
    while len(fib) < 42:
        fib.append(fib[-1] + fib[-2])
    assert pydlx.Problem(dominoes(2, 40)).count_memo() == fib[40]
    # 14 × 14: OEIS A004003, above what 64 bits hold.
    p = pydlx.Problem(dominoes(14, 14))
    n = p.count_memo()
    assert n == 112202208776036178000000 and n > 2**64
    assert p.count_memo(threads=2) == n
    assert pydlx.Problem(dominoes(6, 6)).count_memo(memory=1 << 12) == 6728


def test_memo_auto_counts_by_the_memo_only_where_it_pays() -> None:
    # Dominoes 14 × 14: the memo counts (its states in memo_stats).
    p = pydlx.Problem(dominoes(14, 14))
    assert p.count_memo(auto=True) == 112202208776036178000000
    stats = p.memo_stats
    assert stats is not None and stats.hits > 0
    # Queens 10: the plain search counts (its nodes in stats), on one
    # thread and two.
    q = queens_problem(10)
    for threads in (1, 2):
        assert q.count_memo(auto=True, threads=threads) == 724
        assert q.stats.nodes > 0


def test_memo_refusals_and_timeout() -> None:
    p = pydlx.Problem(dominoes(4, 4))
    with pytest.raises(ValueError, match="no memo order"):
        p.count_memo(order="fastest")
    with pytest.raises(ValueError, match="threads"):
        p.count_memo(threads=0)
    with pytest.raises(ValueError, match="65,535"):
        pydlx.Problem.from_knuth("70000:70000|A\nA\n").count_memo()
    slow = queens_problem(16)
    with pytest.raises(pydlx.SearchTimeout) as e:
        slow.count_memo(timeout=0.05)
    assert isinstance(e.value.found, int)
    assert isinstance(e.value.stats, pydlx.MemoStats) and e.value.stats.states > 0


def zdd_family(path: str) -> Tuple[List[Set[int]], int]:
    """The sets of options of a diagram written by ``count_memo(zdd=...)``
    (read here line by line, children before parents) and its root's
    count."""
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("# dlx zdd 1")
    fam: List[List[Set[int]]] = [[], [set()]]
    words = lines[-1].split()
    assert words[0] == "root"
    for line in lines[1:-1]:
        ident, option, lo, hi = map(int, line.split())
        assert ident == len(fam) and lo < ident and 0 < hi < ident
        fam.append(fam[lo] + [s | {option} for s in fam[hi]])
    return fam[int(words[1])], int(words[2])


def test_memo_writes_the_diagram_of_every_solution(tmp_path: pathlib.Path) -> None:
    rng = random.Random(23)
    for case in range(40):
        options, primary, secondary = random_problem(rng, colors=case % 2 == 1)
        want = sorted(sorted(s) for s in brute_force(options, primary, secondary))
        p = pydlx.Problem(options, sorted(primary), sorted(secondary))
        path = os.path.join(tmp_path, f"{case}.zdd")
        n = p.count_memo(zdd=path)
        sets, count = zdd_family(path)
        assert n == count == len(want), (case, options)
        assert sorted(sorted(s) for s in sets) == want, (case, options)
        stats = p.memo_stats
        with open(path) as f:
            assert stats is not None and stats.zdd_nodes == len(f.read().splitlines()) - 2
    p = pydlx.Problem(dominoes(4, 4))
    with pytest.raises(ValueError, match="auto"):
        p.count_memo(zdd=os.path.join(tmp_path, "a.zdd"), auto=True)
    with pytest.raises(ValueError, match="one thread"):
        p.count_memo(zdd=os.path.join(tmp_path, "b.zdd"), threads=2)
    with pytest.raises(OSError):
        p.count_memo(zdd=os.path.join(tmp_path, "no", "such", "dir.zdd"))
    slow = pydlx.Problem(dominoes(18, 18))
    late = os.path.join(tmp_path, "late.zdd")
    with pytest.raises(pydlx.SearchTimeout):
        slow.count_memo(zdd=late, timeout=0.05)
    assert not os.path.exists(late)
