"""pydlx against exact_cover and xcover, side by side in one process.

    python python/bench/compare.py [rounds]

Each round times every package on every instance in turn (interleaved, so
the packages share the machine's minutes); the table gives each one's best
round. xcover is warmed first (numba compiles on the first call), and its
first-import time is reported apart. Instances: pentominoes 6×10 and 5×12
and Langford pairs 11 from the exact-cover-samples package, queens 12 and
13 (diagonals secondary; exact_cover, which has no secondary items, gets a
slack row per diagonal), and the count of a Sudoku with one given removed
(the 729 × 324 matrix less the givens). Then the cost of crossing into
Python: solutions per second yielded to a loop on queens 12, and counting
pentominoes 6×10 on two threads.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

t0 = time.perf_counter()
import pydlx  # noqa: E402

PYDLX_IMPORT = time.perf_counter() - t0

import exact_cover  # noqa: E402
import exact_cover_samples as samples  # noqa: E402

t0 = time.perf_counter()
import xcover  # noqa: E402

XCOVER_IMPORT = time.perf_counter() - t0


def queens_lists(n: int) -> Tuple[List[List[str]], List[str], List[str]]:
    opts = [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n - 1}"] for r in range(n) for c in range(n)]
    prim = [f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)]
    sec = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    return opts, prim, sec


def queens_slack_matrix(n: int) -> "np.ndarray[Any, Any]":
    """Queens for a package without secondary items: a slack row per diagonal."""
    opts, prim, sec = queens_lists(n)
    cols = {x: k for k, x in enumerate(prim + sec)}
    rows = [[cols[x] for x in o] for o in opts] + [[cols[s]] for s in sec]
    m = np.zeros((len(rows), len(cols)), dtype=bool)
    for r, cs in enumerate(rows):
        m[r, cs] = True
    return m


def sudoku_matrix(puzzle: str) -> "np.ndarray[Any, Any]":
    """The classic 9×9 matrix less the rows that clash with the givens."""
    rows = []
    for cell in range(81):
        r, c = divmod(cell, 9)
        b = (r // 3) * 3 + c // 3
        given = puzzle[cell]
        for d in range(9):
            if given not in ".0" and int(given) != d + 1:
                continue
            rows.append([cell, 81 + r * 9 + d, 162 + c * 9 + d, 243 + b * 9 + d])
    m = np.zeros((len(rows), 324), dtype=bool)
    for k, cs in enumerate(rows):
        m[k, cs] = True
    return m


def sample(name: str) -> "np.ndarray[Any, Any]":
    return np.asarray(samples.problems[name]()["data"]).astype(bool)


PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
LOOSE = "." + PUZZLE[1:]

instances: Dict[str, Dict[str, Callable[[], int]]] = {}
for name, label in [("p6x10", "pentominoes 6×10"), ("p5x12", "pentominoes 5×12"), ("lgfd11", "Langford 11")]:
    m = sample(name)
    p = pydlx.Problem.from_matrix(m)
    instances[label] = {
        "pydlx": p.count,
        "xcover": (lambda m=m: sum(1 for _ in xcover.covers_bool(m))),
        "exact_cover": (lambda m=m: int(exact_cover.get_solution_count(m))),
    }
for n in (12, 13):
    opts, prim, sec = queens_lists(n)
    p = pydlx.Problem(opts, prim, sec)
    slack = queens_slack_matrix(n)
    instances[f"queens {n}"] = {
        "pydlx": p.count,
        "xcover": (lambda o=opts, a=prim, b=sec: sum(1 for _ in xcover.covers(o, a, b))),
        "exact_cover": (lambda m=slack: int(exact_cover.get_solution_count(m))),
    }
sm = sudoku_matrix(LOOSE)
instances["Sudoku, one given removed"] = {
    "pydlx": (lambda: pydlx.sudoku.count(LOOSE)),
    "pydlx matrix": pydlx.Problem.from_matrix(sm).count,
    "xcover": (lambda: sum(1 for _ in xcover.covers_bool(sm))),
    "exact_cover": (lambda: int(exact_cover.get_solution_count(sm))),
}

# Warm xcover (numba compiles each signature on its first call).
list(xcover.covers_bool(sample("knuth2019").astype(bool)))
list(xcover.covers([["a", "b"], ["a"], ["b"]], ["a"], ["b"]))

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
best: Dict[Tuple[str, str], float] = {}
counts: Dict[Tuple[str, str], int] = {}
for _ in range(rounds):
    for label, runs in instances.items():
        for package, run in runs.items():
            t = time.perf_counter()
            counts[label, package] = run()
            dt = time.perf_counter() - t
            best[label, package] = min(dt, best.get((label, package), dt))

print(f"import: pydlx {PYDLX_IMPORT:.3f} s, xcover {XCOVER_IMPORT:.3f} s (first call compiles apart)")
print("| instance | solutions | pydlx | xcover | exact_cover | pydlx / xcover | pydlx / exact_cover |")
print("|---|---:|---:|---:|---:|---:|---:|")
for label, runs in instances.items():
    c = {counts[label, k] for k in runs}
    assert len(c) == 1, (label, {k: counts[label, k] for k in runs})
    ours = best[label, "pydlx"]
    x, e = best[label, "xcover"], best[label, "exact_cover"]
    print(f"| {label} | {c.pop():,} | {ours:.3f} s | {x:.3f} s | {e:.3f} s | {ours / x:.2f} | {ours / e:.3f} |")
    if "pydlx matrix" in runs:
        pm = best[label, "pydlx matrix"]
        print(f"| {label} (as a matrix) | | {pm:.3f} s | | | {pm / x:.2f} | {pm / e:.3f} |")

# Crossing into Python: the lazy iterator on queens 12.
opts, prim, sec = queens_lists(12)
p = pydlx.Problem(opts, prim, sec)
it_best, count_best = 1e9, 1e9
for _ in range(5):
    t = time.perf_counter()
    n = 0
    for _s in p.solutions():
        n += 1
    it_best = min(it_best, time.perf_counter() - t)
    t = time.perf_counter()
    p.count()
    count_best = min(count_best, time.perf_counter() - t)
print(
    f"queens 12, {n:,} solutions: iterated in {it_best * 1e3:.1f} ms "
    f"({n / it_best / 1e6:.2f} M solutions/s), counted in {count_best * 1e3:.1f} ms "
    f"({n / count_best / 1e6:.2f} M/s): {(it_best - count_best) / n * 1e9:.0f} ns a solution to cross"
)
# Threads: pentominoes 6×10.
def timed(f: Callable[[], object]) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


p = pydlx.Problem.from_matrix(sample("p6x10"))
one = min(timed(p.count) for _ in range(3))
two = min(timed(lambda: p.count(threads=2)) for _ in range(3))
print(f"pentominoes 6×10: one thread {one:.3f} s, two {two:.3f} s ({two / one:.2f} of one)")
