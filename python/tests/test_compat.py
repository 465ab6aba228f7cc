"""The shims give the real packages' answers on random instances."""

from __future__ import annotations

import itertools
import random
from typing import Any, List, Set, Tuple

import numpy as np
import pytest

from pydlx.compat import exact_cover as ours_ec
from pydlx.compat import xcover as ours_xc

real_ec = pytest.importorskip("exact_cover")
real_xc = pytest.importorskip("xcover")


def random_matrix(rng: random.Random) -> "np.ndarray[Any, Any]":
    rows, cols = rng.randint(1, 14), rng.randint(1, 7)
    m = np.zeros((rows, cols), dtype=bool)
    for r in range(rows):
        for c in rng.sample(range(cols), rng.randint(1, cols)):
            m[r, c] = True
    return m


def brute_force(m: "np.ndarray[Any, Any]") -> Set[Tuple[int, ...]]:
    rows = range(m.shape[0])
    return {
        subset
        for r in range(m.shape[0] + 1)
        for subset in itertools.combinations(rows, r)
        if (m[list(subset)].sum(axis=0) == 1).all()
    }


def as_set(solutions: Any) -> Set[Tuple[int, ...]]:
    return {tuple(sorted(int(x) for x in s)) for s in solutions}


def test_exact_cover_shim() -> None:
    rng = random.Random(8)
    for _ in range(150):
        m = random_matrix(rng)
        n = real_ec.get_solution_count(m)
        assert ours_ec.get_solution_count(m) == n
        if n == 0:
            with pytest.raises(real_ec.error.NoSolution):
                real_ec.get_exact_cover(m)
            with pytest.raises(ours_ec.NoSolution):
                ours_ec.get_exact_cover(m)
            with pytest.raises(ours_ec.NoSolution):
                ours_ec.get_all_solutions(m)
            continue
        mine = ours_ec.get_exact_cover(m)
        theirs = real_ec.get_exact_cover(m)
        assert mine.dtype == theirs.dtype
        # A cover, as theirs is: every column once.
        assert (m[mine].sum(axis=0) == 1).all()
        all_theirs = real_ec.get_all_solutions(m)
        assert all(type(x) is np.int32 for s in all_theirs for x in s)
        all_mine = ours_ec.get_all_solutions(m)
        if () in all_theirs:
            # exact_cover 1.5 truncates a solution that fills its result
            # row (as many options as the solution array is wide) to ():
            # compare with a brute force then.
            all_theirs = brute_force(m)
        assert as_set(all_mine) == as_set(all_theirs)
        # Their element type: numpy int32.
        assert all(type(x) is np.int32 for s in all_mine for x in s)
        assert len(ours_ec.get_all_solutions(m, max_count=1)) == 1


def test_xcover_shim() -> None:
    rng = random.Random(9)
    for case in range(120):
        colored = case % 2 == 1
        # Two items at least: xcover 0.2.6 fails on one ("pop from empty list").
        prim = [("p", k) for k in range(rng.randint(2, 4))]
        sec = [f"s {k}" for k in range(rng.randint(0, 3))]
        options: List[List[Any]] = []
        for _ in range(rng.randint(1, 8)):
            opt: List[Any] = rng.sample(prim, rng.randint(1, len(prim)))
            for s in sec:
                if rng.random() < 0.4:
                    opt.append(f"{s}:{rng.choice(['red', 'blue'])}" if colored else s)
            options.append(opt)
        if colored:
            # xcover wants str items when colored: name the primaries.
            options = [[x if isinstance(x, str) else f"{x[0]}{x[1]}" for x in o] for o in options]
            primary: List[Any] = [f"p{k}" for k, _ in enumerate(prim)]
        else:
            primary = prim
        theirs = as_set(real_xc.covers(options, primary=primary, colored=colored))
        mine = as_set(ours_xc.covers(options, primary=primary, colored=colored))
        assert mine == theirs, (options, primary, colored)
        if not colored and len({x for o in options for x in o}) >= 2:
            assert as_set(ours_xc.covers(options)) == as_set(real_xc.covers(options))
    rng2 = random.Random(10)
    for _ in range(60):
        m = random_matrix(rng2)
        if m.shape[1] < 2:
            continue  # as above
        assert as_set(ours_xc.covers_bool(m)) == as_set(real_xc.covers_bool(m))
