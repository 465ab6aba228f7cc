"""pydlx.sudoku: answers checked by an independent checker of the classic
rules; candidates against every solution; bad input."""

from __future__ import annotations

import pytest

from pydlx import SearchTimeout, sudoku

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def valid(grid: str, puzzle: str) -> bool:
    n = 9
    cells = [int(c) for c in grid]
    if any(p not in ".0" and p != g for p, g in zip(puzzle, grid)):
        return False
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    units += [
        [(br + r) * n + bc + c for r in range(3) for c in range(3)]
        for br in range(0, 9, 3)
        for bc in range(0, 9, 3)
    ]
    return all(sorted(cells[k] for k in u) == list(range(1, 10)) for u in units)


def test_solve_count_check() -> None:
    s = sudoku.solve(HARD)
    assert s is not None and valid(s, HARD)
    assert sudoku.check(HARD) == "unique"
    assert sudoku.count(HARD) == 1
    # One given fewer: several solutions.
    loose = "." + HARD[1:]
    assert sudoku.check(loose) == "multiple"
    assert sudoku.count(loose, 5) == 5
    # No digit fits r1c3 (1 and 2 in its row, 3 and 4 in its column).
    stuck = "12........3...4."
    assert sudoku.check(stuck) == "none" and sudoku.solve(stuck) is None
    assert sudoku.count(stuck) == 0
    # Clashing givens are bad input.
    with pytest.raises(ValueError, match="conflicting"):
        sudoku.check("44" + HARD[2:])
    # Two puzzles in one text: refused, not the first answered.
    for two in [f"{HARD}\n{HARD}", f"{HARD} {HARD}"]:
        with pytest.raises(ValueError, match="2 puzzles in one text"):
            sudoku.solve(two)


def test_variants_and_fpuzzles() -> None:
    x = "." * 81 + " x"
    s = sudoku.solve(x)
    assert s is not None
    assert len({s[i * 10] for i in range(9)}) == 9  # the main diagonal
    assert sudoku.count("." * 16, 1000) == 288
    # Sixteen by sixteen: letters after 9.
    big = sudoku.solve("." * 256)
    assert big is not None and len(big) == 256 and "G" in big


def test_candidates_are_the_digits_of_all_solutions() -> None:
    puzzle = "12..34.........."
    cands = sudoku.candidates(puzzle)
    assert cands[0] == [1] and cands[2] == [3, 4]
    assert all(isinstance(d, int) for c in cands for d in c)
    assert sudoku.candidates(HARD) == [[int(d)] for d in sudoku.solve(HARD) or ""]
    assert sudoku.candidates("12........3...4.") == [[] for _ in range(16)]


def test_bad_input_and_timeouts() -> None:
    with pytest.raises(ValueError):
        sudoku.solve("12345")
    with pytest.raises(ValueError):
        sudoku.count(HARD, threads=0)
    with pytest.raises(SearchTimeout):
        sudoku.count("." * 81, timeout=0.05)


WING = "..41..9....8....5.9.7..2.....5.......79...8.6.....34.....2.5.8..5..18.3..6.93...."


def test_explain_rate_and_hint() -> None:
    e = sudoku.explain(WING)
    assert e["solved"] and (e["er"], e["ep"], e["ed"]) == (4.2, 1.2, 1.2)
    solution = sudoku.solve(WING)
    assert solution is not None

    def cell(name: str) -> int:
        return (int(name[1]) - 1) * 9 + int(name[3]) - 1

    placed = 0
    for step in e["steps"]:
        for m in step["place"]:
            assert int(solution[cell(m["cell"])]) == m["digit"], step
            placed += 1
        for m in step["eliminate"]:
            assert int(solution[cell(m["cell"])]) != m["digit"], step
    assert placed == WING.count(".")
    assert sudoku.rate(WING) == {
        "solved": True,
        "stopped": False,
        "er": 4.2,
        "ep": 1.2,
        "ed": 1.2,
        "hardest": "XY-Wing",
        "steps": len(e["steps"]),
    }
    assert sudoku.hint(WING) == e["steps"][0]
    assert sudoku.hint(solution) is None
    with pytest.raises(ValueError, match="more than one solution"):
        sudoku.explain("." + HARD[1:])
    with pytest.raises(ValueError, match="anti-knight"):
        sudoku.rate("." * 81 + " antiknight")
    # Nested chains take seconds: a timeout stops them.
    inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    with pytest.raises(SearchTimeout) as stopped:
        sudoku.rate(inkala, timeout=0.05)
    assert '"stopped":true' in stopped.value.found
