"""Every problem of the exact-cover-samples package gives exactly its
published solutions (pentomino boards, Langford pairs, Knuth's examples…)."""

from __future__ import annotations

from typing import Any, Set, Tuple

import numpy as np
import pytest

import pydlx

samples = pytest.importorskip("exact_cover_samples")


def canonical(solutions: Any) -> Set[Tuple[int, ...]]:
    return {tuple(sorted(int(x) for x in s)) for s in solutions}


@pytest.mark.parametrize("name", sorted(samples.problems))
def test_sample(name: str) -> None:
    problem = samples.problems[name]()
    data = np.asarray(problem["data"])
    want = canonical(problem["solutions"])
    p = pydlx.Problem.from_matrix(data)
    got = [tuple(sorted(s)) for s in p.solutions()]
    assert len(got) == len(set(got)), "a solution found twice"
    assert set(got) == want
    assert p.count() == len(want)
