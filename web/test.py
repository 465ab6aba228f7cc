"""The page in a real browser: builds nothing, serves web/dist/ on
127.0.0.1, drives Debian's Chromium headless with Playwright through a set
of puzzles by the page's address contract (?load=<f-puzzles string>&action=A,
?grid=<line>&action=A), checks every answer, and takes screenshots.

The puzzles and their answers come from puzzles/ (published puzzles with
their setters' solutions); the f-puzzles strings are made here with the
native `dlx` (its JSON) and PyPI's `lzstring` (the compression), so the page
reads what f-puzzles links carry, compressed by another implementation.
Every variant-text example of docs/variants.md's table of constraints is
also shown on an empty grid: the page draws every kind without an error.

    python web/test.py DIST DLX SCREENSHOTS
"""

import json
import os
import re
import subprocess
import sys
import time

import lzstring
from playwright.sync_api import sync_playwright

from serve import launch, serve

DIST, DLX, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def lines(name):
    with open(os.path.join(ROOT, "puzzles", name)) as f:
        return f.read().splitlines()


def fpuzzles_string(puzzle_line):
    """The f-puzzles load string of a puzzle in variant text: the native
    dlx's JSON (givens only kept), compressed by PyPI's lzstring."""
    out = subprocess.run(
        [DLX, "sudoku", "solve", "--output-format", "fpuzzles", "--timeout", "20s"],
        input=puzzle_line + "\n", capture_output=True, text=True,
    )
    doc = json.loads(out.stdout)
    for row in doc["grid"]:
        for cell in row:
            if not cell.get("given"):
                cell.pop("value", None)
    return doc, lzstring.LZString().compressToBase64(json.dumps(doc))


def doc_examples():
    """The variant-text examples of docs/variants.md's table of constraints
    (its second column), those without an ellipsis."""
    with open(os.path.join(ROOT, "docs", "variants.md")) as f:
        rows = [l for l in f if l.startswith("| ") and not l.startswith("| Constraint")]
    out = []
    for row in rows:
        cols = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cols) > 1:
            out += [m for m in re.findall(r"`([^`]+)`", cols[1]) if "…" not in m and " " not in m]
    return out


def native(args, puzzle_line):
    out = subprocess.run([DLX, "sudoku", *args], input=puzzle_line + "\n",
                         capture_output=True, text=True)
    return out.stdout.strip()


def main():
    variants, variant_solutions = lines("public_variants.txt"), lines("public_variants.solutions.txt")
    published, published_solutions = lines("published_constraints.txt"), lines(
        "published_constraints.solutions.txt")
    classic = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    classic_solution = native(["solve"], classic)
    cases = []  # (name, query, action, expected)
    cases.append(("classic", f"grid={classic}", "solve", classic_solution))
    cases.append(("classic", f"grid={classic}", "check", "unique"))
    # The next step by logic and the rating, as the native command says.
    cases.append(("classic", f"grid={classic}", "hint", native(["hint"], classic)))
    cases.append(("classic", f"grid={classic}", "rate", native(["rate"], classic)))
    named = {
        "jigsaw": (variants[0], variant_solutions[0]),
        "killer": (variants[5], variant_solutions[5]),
        "thermo": (published[0], published_solutions[0]),
        "arrow": (published[7], published_solutions[7]),
        "clone": (published[19], published_solutions[19]),
    }
    docs = {}
    for name, (line, solution) in named.items():
        doc, packed = fpuzzles_string(line)
        docs[name] = doc
        cases.append((name, f"load={packed}", "solve", solution))
        cases.append((name, f"load={packed}", "check", "unique"))
    # Equal products whose groups cross (SudokuPad's "Cross Product"), 6x6:
    # drawn under the shading, before the other lines.
    products = (".................................... boxes=2x3 products=R1C5,R2C6:"
                "R3C1,R4C2,R5C3,R6C4:R5C1,R4C2,R3C3,R2C4,R1C5:R6C2,R5C3,R4C4,R3C5,R2C6")
    packed = fpuzzles_string(products)[1]
    cases.append(("products", f"load={packed}", "solve", native(["solve"], products)))
    # One candidate a cell, the solution's, for a unique puzzle.
    packed = fpuzzles_string(published[0])[1]
    cases.append(("thermo", f"load={packed}", "candidates", " ".join(published_solutions[0])))
    # No solution: the first thermometer turned round.
    doc = json.loads(json.dumps(docs["thermo"]))
    doc["thermometer"][0]["lines"][0].reverse()
    none = lzstring.LZString().compressToBase64(json.dumps(doc))
    cases.append(("no solution", f"load={none}", "check", "none"))
    cases.append(("no solution", f"load={none}", "solve", "none"))
    # Several solutions: the classic puzzle less its first three givens.
    loose = "." * 9 + classic[9:]
    cases.append(("multiple", f"grid={loose}", "check", "multiple"))
    # The page counts up to 1,000 unless asked for more.
    assert int(native(["count"], loose)) > 1000
    cases.append(("multiple", f"grid={loose}", "count", "at least 1000"))
    small = "12..34.........."
    cases.append(("multiple 4x4", f"grid={small}", "count", native(["count"], small)))
    # Each cell's digits, as the native command finds them (its groups are
    # digits:counts).
    for line in (loose, small):
        groups = native(["candidates"], line).split()
        cases.append(("multiple", f"grid={line}", "candidates",
                      " ".join(g.split(":")[0] for g in groups)))
    # Bad input: an error, said as such.
    cases.append(("bad input", "load=not-a-puzzle", "solve", None))

    server, base = serve(DIST)
    os.makedirs(SHOTS, exist_ok=True)
    failures = 0
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        for name, query, action, expected in cases:
            start = time.time()
            page.goto(f"{base}?{query}&action={action}")
            page.wait_for_selector("#result[data-state='done'], #result[data-state='error']",
                                   timeout=60_000)
            state = page.get_attribute("#result", "data-state")
            got = page.text_content("#result")
            ok = state == "error" if expected is None else (state == "done" and got == expected)
            took = time.time() - start
            print(f"{'ok  ' if ok else 'FAIL'} {name:12} {action:10} {took:6.2f} s  "
                  f"{page.text_content('#status')}")
            if not ok:
                failures += 1
                print(f"     expected {expected!r}\n     got {state} {got!r}")
            if (name in ("killer", "arrow", "jigsaw") and action == "solve") or action == "hint":
                page.locator("#board").screenshot(path=os.path.join(SHOTS, f"{name}-{action}.png"))
        # Every constraint drawn: each example of docs/variants.md's table
        # on an empty 9x9, shown (the page never dies on what the command
        # line reads).
        drawn = 0
        for word in doc_examples():
            out = subprocess.run(
                [DLX, "sudoku", "solve", "--output-format", "fpuzzles", "--timeout", "20s"],
                input="." * 81 + " " + word + "\n", capture_output=True, text=True)
            if out.returncode != 0:
                continue  # no solution to carry: the table's example alone
            doc = json.loads(out.stdout)
            for row in doc["grid"]:
                for cell in row:
                    cell.pop("value", None)
            packed = lzstring.LZString().compressToBase64(json.dumps(doc))
            page.goto(f"{base}?load={packed}")
            # (Shown, the result is empty: attached, not visible.)
            page.wait_for_selector("#result[data-state='done'], #result[data-state='error']",
                                   state="attached", timeout=60_000)
            drawn += 1
            if page.get_attribute("#result", "data-state") != "done":
                failures += 1
                print(f"FAIL drawn {word}: {page.text_content('#result')!r}")
        print(f"ok   drawn: {drawn} of the table's examples")
        assert drawn >= 40, drawn
        # The Stop button ends a long search and the page stays usable.
        page.goto(f"{base}?grid={'.' * 255}1")
        page.fill("#cap", "1000000000")
        page.click("#count")
        page.wait_for_selector("#stop:enabled", timeout=10_000)
        page.wait_for_timeout(300)
        page.click("#stop")
        page.wait_for_selector("#result[data-state='stopped']", timeout=5_000)
        page.fill("#input", classic)
        page.click("#check")
        page.wait_for_selector("#result[data-state='done']", timeout=30_000)
        ok = page.text_content("#result") == "unique"
        print(f"{'ok  ' if ok else 'FAIL'} stop, then check again")
        failures += not ok
        page.screenshot(path=os.path.join(SHOTS, "page.png"))
        if errors:
            print("page errors:", errors)
            failures += 1
        browser.close()
    server.shutdown()
    checks = len(cases) + 1 + drawn
    print(f"{checks - failures} of {checks} passed")
    sys.exit(1 if failures else 0)


main()
