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


# A 4x4 SudokuPad link drawing a killer cage (R1C1+R1C2 = 3) and a
# thermometer (its bulb on R3C2), its rules in words and its solution in
# the link; CAGE_4 draws the cage with 4, which that solution breaks.
PAD = (
    "https://sudokupad.app/sclN4SwJgXA5AHlA0BjAzhArABiQUwgbT2ADcIBGAX3ioF148r5b6a6HizzraAnXAvLBi"
    "ZZSTUvCF1xopgPgAmYfADMYhWtWz5EpttF1lOg/Bl082xXW2rjlvIc21EAQ3zBEfOZLmmSyzvAANm4A7gAO+OYAdGgmMW"
    "IxcWhcSBAAwgBimZnwAC4AFhDyFLQArm6IufjyiaTx8CEQGFEAHLGFzW1I8ulZffDcELkBALbYuc5gzhMQwNylgdioUAA"
    "iIADmILnIAAQgAHY7LutLO8ilIzu5APZX+dhHgaXYUTtrm9s7zoHX++tfd2w3BG1zGuSBe32iF4zmQDwAZtxQYCdgAjBa"
    "oqIIZDXJ65EC/aCkeTKAAsZOJxXJ5OKUHI5CAA="
)
CAGE_4 = (
    "https://sudokupad.app/sclN4SwJgXA5AHlA0BjAzhArABiQUwgbT2ADcIBGAX3ioF148r5b6a6HizzraAnXAvLBi"
    "ZZSTUvCF1xopgPgAmYfADMYhWtWz5EpttF1lOg/Bl082xXW2rjlvIc21EAQ3zBEfOZLmmSAFk54ABs3AHcAB3xzADo0E1"
    "ixWPi0LiQIAGEAMSys+AAXAAsIeQpaAFc3RDz8eSTSBPhQiAxogA44opb2pHkM7P74bgg8wIBbbDznMGdJiGBuMqDsVCg"
    "AERAAcxA85AACEAA7XZcN5d3kMtHdvIB7a4LsY6Cy7Gjd9a2d3ecgm4ON773bDcUY3cZ5YH7A6IXjOZCPABm3DBQN2ACN"
    "FmjoghkDdnnkQH9oKR5Mo/GSSSVyeSSlByOQgA="
)


def test_sudokupad_links_are_read_as_drawn() -> None:
    assert sudoku.solve(PAD) == "1234341221434321"
    with pytest.raises(ValueError, match="killer cage"):
        sudoku.solve(CAGE_4)
    with pytest.raises(ValueError, match="short id"):
        sudoku.solve("https://sudokupad.app/abc123")


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


KILLER = " ".join(
    [
        ".................................................................................",
        "cage=21:R6C3,R7C3,R8C3,R8C4",
        "cage=10:R5C5,R5C6",
        "cage=22:R3C8,R4C7,R4C8,R5C7",
        "cage=15:R2C2,R2C3,R3C3",
        "cage=17:R9C6,R9C7,R9C8",
        "cage=15:R8C2,R9C1,R9C2",
        "cage=16:R8C5,R9C3,R9C4,R9C5",
        "cage=18:R4C3,R5C2,R5C3,R6C2",
        "cage=22:R6C6,R6C7,R7C6,R7C7",
        "cage=18:R6C8,R6C9,R7C8,R8C8",
        "cage=16:R3C1,R4C1,R4C2,R5C1",
        "cage=21:R6C4,R6C5,R7C4,R7C5",
        "cage=7:R3C2",
        "cage=24:R6C1,R7C1,R8C1",
        "cage=13:R3C6,R4C6",
        "cage=3:R1C1,R2C1",
        "cage=5:R1C5,R1C6",
        "cage=30:R1C8,R1C9,R2C8,R2C9",
        "cage=12:R4C9,R5C9",
        "cage=11:R7C9,R8C9,R9C9",
        "cage=1:R7C2",
        "cage=16:R1C7,R2C6,R2C7,R3C7",
        "cage=2:R5C8",
        "cage=17:R1C4,R2C4,R3C4,R4C4",
        "cage=21:R2C5,R3C5,R4C5",
        "cage=10:R8C6,R8C7",
        "cage=15:R1C2,R1C3",
        "cage=3:R5C4",
        "cage=4:R3C9",
    ]
)

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
    with pytest.raises(ValueError, match="more than one solution"):
        sudoku.rate("." * 81 + " antiknight")
    # A killer (the first of puzzles/generated_killer_seed1.txt): its
    # cages give steps named after them.
    killer = sudoku.explain(KILLER)
    assert killer["solved"] and killer["er"] == 2.3
    assert killer["steps"][0]["technique"] == "killer cage"
    assert killer["steps"][0]["eliminate"] == [
        {"cell": "R5C5", "digit": 5},
        {"cell": "R5C6", "digit": 5},
    ]
    # A grid with pencil marks, as HoDoKu prints it (a Sukaku line reads
    # the same): the hint from where the marks stand; marks that leave out
    # the solution's digit are named.
    marks = [c if c != "." else "123456789" for c in WING]
    first = WING.index(".")
    kept = "".join(sorted({solution[first], "1" if solution[first] != "1" else "2"}))
    marks[first] = kept
    grid = "\n".join("| " + " ".join(marks[r * 9 : r * 9 + 9]) + " |" for r in range(9))
    step = sudoku.hint(grid)
    assert step is not None and step["place"] + step["eliminate"]
    wrong = marks.copy()
    wrong[first] = "".join(d for d in "123456789" if d != solution[first])
    with pytest.raises(ValueError, match="pencil marks leave out the solution's digit"):
        sudoku.hint("".join("".join(d if d in m else "." for d in "123456789") for m in wrong))
    # Nested chains take seconds: a timeout stops them.
    inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    with pytest.raises(SearchTimeout) as stopped:
        sudoku.rate(inkala, timeout=0.05)
    assert '"stopped":true' in stopped.value.found
