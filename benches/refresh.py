#!/usr/bin/env python3
"""Refreshes BENCHMARKS.md's current tables: each comparison run again on
this machine, whole processes in interleaved rounds, and its table written
between the markers that hold it.

    python3 benches/refresh.py [--rounds N] [--write] [TABLE ...]

TABLE is one or more of the names below (default: every one whose other
programs are at hand). Without --write the tables are printed; with it
they also replace the old ones in BENCHMARKS.md, between
`<!-- refresh:TABLE -->` and `<!-- /refresh:TABLE -->`.

    exact-cover     dlx cover against Knuth's DLX1 and SSXCC and the `dlx`
                    crate: queens 13, Langford 12, pentominoes 6x10, the
                    Sudoku-enumeration matrix
    multiplicities  dlx cover against Knuth's DLX3: two-queens 8,
                    pentominoes 6x6 and 5x8 with each piece 0 to 2 times
    classic         dlx sudoku check --jobs 1 against the classic solvers:
                    17-clue (first 20,000), magictour top1465, forum
                    hardest 1905 11+ (first 3,000), from ../shared/puzzles
    iss             dlx sudoku check --jobs 1 (f-puzzles JSON) against the
                    Interactive Sudoku Solver on its collections
                    (../shared/puzzles/iss/)
    pydlx           pydlx against xcover and exact_cover
                    (python/bench/compare.py, with its own rounds; needs the
                    wheel, xcover and exact_cover installed)
    page            the page's worker against native and, with ISS_DIR, ISS
                    in the same browser (web/bench.py on the first 1,000 of
                    top95; needs web/dist, built by web/build.sh, and
                    Playwright's Chromium)

The other programs are not the project's and are named by environment
variables, each a command; `{file}` in it is the input's path, `{name}`
the row's name (a collection of ISS's), else the input comes on standard
input:

    DLX1, DLX3, SSXCC   Knuth's programs, built from his CWEB sources
                        (ctangle, then gcc -O3 -march=native with gb_flip)
    DLX_CRATE           default: the example dlx_crate_count, built here
    SUDOKU_CRATE, TDOKU, FASTDOKU
                        a harness each that proves every puzzle of {file}
                        unique (counts to 2), skipping lines that start with
                        `#`, and prints `N unique, M other`
    ISS                 ISS's benchmark of the collection {name}: `node
                        DIR/tools/perf/benchmark_puzzles.js --max-backtracks
                        none --json --puzzles {name}` in a checkout DIR of
                        sigh/Interactive-Sudoku-Solver (ISS_DIR for the page)

`NAME_NAME` (TDOKU_NAME="tdoku af42618", say) names a program's column
with its version. A table whose other programs are all missing is skipped
and says so. Each
row runs every program once a round, the order turning each round, and
reports the median CPU time (user + system, from the process's own
rusage) with dlx's over each other's. Counts are compared where both sides
print one: a program that disagrees with dlx fails the run.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "puzzles")
BENCHMARKS = os.path.join(ROOT, "BENCHMARKS.md")


@dataclass
class Program:
    """A program in a table: its column name and its command, `{file}` the
    input's path (absent: the input on standard input), and how its count
    is read from what it prints (None: not compared)."""

    name: str
    command: str
    count: Optional[Callable[[str, str], Optional[int]]] = None
    #: The environment variable that named it: the table shows `$ENV`,
    #: not this machine's paths.
    env: Optional[str] = None

    def shown(self) -> str:
        if self.env:
            return f"${self.env}"
        return self.command.replace(ROOT + os.sep, "")

    def argv(self, row: "Row") -> Tuple[List[str], Optional[str]]:
        """The command's words for `row`, and the file to give it on
        standard input (None: it names its input itself)."""
        command = self.command.replace("{name}", shlex.quote(row.label))
        if "{file}" in command:
            return shlex.split(command.replace("{file}", shlex.quote(row.path))), None
        if "{name}" in self.command:
            return shlex.split(command), None
        return shlex.split(command), row.path


@dataclass
class Row:
    label: str
    path: str


@dataclass
class Table:
    name: str
    what: str
    #: What the programs' counts are: a table's column.
    counted: str
    rows: List[Row]
    ours: Program
    others: List[Program]
    missing: List[str] = field(default_factory=list)


def first_number(out: str, _err: str) -> Optional[int]:
    m = re.search(r"^\s*(\d+)\s*$", out, re.M)
    return int(m.group(1)) if m else None


def unique_lines(out: str, _err: str) -> Optional[int]:
    """`dlx sudoku check`: its lines that say `unique`."""
    return sum(1 for line in out.splitlines() if line.strip() == "unique")


def unique_said(out: str, _err: str) -> Optional[int]:
    """A harness's `N unique, M other`."""
    m = re.search(r"(\d+) unique", out)
    return int(m.group(1)) if m else None


def iss_unique(out: str, _err: str) -> Optional[int]:
    """ISS's benchmark: its rows that say unique (`--json`: a list of rows
    with a `status`; else its table, two spaces before each status)."""
    try:
        return sum(1 for row in json.loads(out) if row.get("status") == "unique")
    except (ValueError, AttributeError, TypeError):
        return len(re.findall(r"\s{2,}unique\s", out))


def knuth_count(_out: str, err: str) -> Optional[int]:
    m = re.search(r"Altogether (\d+) solutions", err)
    return int(m.group(1)) if m else None


def run_once(program: Program, row: Row) -> Tuple[float, float, str, str]:
    """Runs `program` on `row`: its CPU seconds, wall seconds, output."""
    argv, stdin_path = program.argv(row)
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    out_f = tempfile.TemporaryFile()
    err_f = tempfile.TemporaryFile()
    try:
        start = time.perf_counter()
        p = subprocess.Popen(argv, stdin=stdin, stdout=out_f, stderr=err_f)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - start
        p.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_path:
            stdin.close()
    out_f.seek(0)
    err_f.seek(0)
    out = out_f.read().decode("utf-8", "replace")
    err = err_f.read().decode("utf-8", "replace")
    # dlx exits 0 (found), 1 (none) or 3 (stopped); Knuth's programs 0.
    if p.returncode not in (0, 1):
        raise SystemExit(f"{program.name} on {row.label}: exit {p.returncode}\n{err[-2000:]}")
    return usage.ru_utime + usage.ru_stime, wall, out, err


def measure(table: Table, rounds: int) -> List[Dict[str, float]]:
    """Every program on every row, `rounds` times, interleaved: per row, the
    median CPU seconds of each program."""
    programs = [table.ours] + table.others
    results = []
    for row in table.rows:
        times: Dict[str, List[float]] = {p.name: [] for p in programs}
        counts: Dict[str, int] = {}
        for r in range(rounds):
            turn = programs[r % len(programs):] + programs[: r % len(programs)]
            for p in turn:
                cpu, _wall, out, err = run_once(p, row)
                times[p.name].append(cpu)
                if p.count is not None:
                    n = p.count(out, err)
                    if n is not None:
                        counts[p.name] = n
        ours = counts.get(table.ours.name)
        for name, n in counts.items():
            if ours is not None and n != ours:
                raise SystemExit(f"{row.label}: {name} counts {n}, dlx {ours}")
        median = {name: statistics.median(ts) for name, ts in times.items()}
        if ours is not None:
            median["counted"] = ours
        results.append(median)
        print(f"  {row.label}: " + ", ".join(f"{k} {v:.3f}" for k, v in median.items()),
              file=sys.stderr)
    return results


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs, {model}"


def render(table: Table, results: List[Dict[str, float]], rounds: int) -> str:
    others = table.others
    head = ["", table.counted, table.ours.name] + [p.name for p in others]
    head += [f"{table.ours.name} / {p.name}" for p in others]
    lines = [
        f"{datetime.date.today().isoformat()}, {machine()}; `python3 benches/refresh.py "
        f"{table.name}`, {rounds} interleaved rounds, median CPU time of the whole process. "
        f"{table.what}",
        "",
        "Commands: " + "; ".join(f"{p.name}: `{p.shown()}`" for p in [table.ours] + others)
        + " (the script's help says what each variable names).",
    ]
    if table.missing:
        lines += ["", "Not at hand this time: " + ", ".join(table.missing) + "."]
    lines += ["", "| " + " | ".join(head) + " |",
              "|---|" + "---:|" * (len(head) - 1)]
    for row, m in zip(table.rows, results):
        cells = [row.label, f"{int(m['counted']):,}" if "counted" in m else ""]
        cells += [f"{m[p.name]:.3f} s" for p in [table.ours] + others]
        cells += [f"{m[table.ours.name] / m[p.name]:.2f}" if m[p.name] > 0 else "" for p in others]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def cargo_built(args: List[str], path: str) -> str:
    """`path`, built first (or found up to date) by cargo."""
    subprocess.run(["cargo", "build", "--quiet", "--release", *args], cwd=ROOT, check=True)
    return path


@functools.lru_cache(maxsize=None)
def dlx_binary() -> str:
    return os.environ.get("DLX") or cargo_built(
        ["-p", "dlx-cli"], os.path.join(ROOT, "target", "release", "dlx"))


def generated(tmp: str, name: str, args: List[str]) -> str:
    path = os.path.join(tmp, name + ".dlx")
    with open(path, "wb") as f:
        subprocess.run([dlx_binary(), "gen", *args], stdout=f, check=True)
    return path


def others_of(names: List[Tuple[str, str, Optional[Callable]]]) -> Tuple[List[Program], List[str]]:
    found, missing = [], []
    for env, name, count in names:
        command = os.environ.get(env)
        if command:
            found.append(Program(os.environ.get(env + "_NAME", name), command, count, env))
        else:
            missing.append(f"{name} (set {env})")
    return found, missing


def tables(tmp: str) -> Dict[str, Callable[[], Optional[Table]]]:
    dlx = dlx_binary()

    def exact_cover() -> Optional[Table]:
        others, missing = others_of([("DLX1", "DLX1", knuth_count), ("SSXCC", "SSXCC", knuth_count)])
        crate = os.environ.get("DLX_CRATE") or cargo_built(
            ["-p", "dlx@0.1.0", "--example", "dlx_crate_count"],
            os.path.join(ROOT, "target", "release", "examples", "dlx_crate_count"))
        others.append(Program("dlx crate 0.8.5", crate + " {file}", first_number))
        rows = [
            Row("queens 13", generated(tmp, "queens13", ["queens", "13"])),
            Row("Langford 12", generated(tmp, "langford12", ["langford", "12"])),
            Row("pentominoes 6×10", generated(tmp, "pent6x10", ["pentominoes", "6x10"])),
            Row("Sudoku enumeration", os.path.join(ROOT, "puzzles", "sudoku_enumeration.dlx")),
        ]
        return Table("exact-cover", "One thread; every count the same.",
                     "solutions", rows, Program("dlx", dlx + " cover {file}", first_number), others, missing)

    def multiplicities() -> Optional[Table]:
        others, missing = others_of([("DLX3", "DLX3", knuth_count)])
        if not others:
            return Table("multiplicities", "", "", [], Program("dlx", dlx), [], missing)
        rows = [
            Row("two-queens 8", generated(tmp, "twoqueens8", ["two-queens", "8"])),
            Row("pentominoes 6×6, each 0 to 2 times",
                generated(tmp, "pent6x6", ["pentominoes", "6x6", "--up-to", "2"])),
            Row("pentominoes 5×8, each 0 to 2 times",
                generated(tmp, "pent5x8", ["pentominoes", "5x8", "--up-to", "2"])),
        ]
        return Table("multiplicities", "One thread; every count the same.",
                     "solutions", rows, Program("dlx", dlx + " cover {file}", first_number), others, missing)

    def sudoku_sets(name: str, sets: List[Tuple[str, str, Optional[int]]], envs, ours: str,
                    what: str) -> Optional[Table]:
        others, missing = others_of(envs)
        rows = []
        for label, file, take in sets:
            path = os.path.join(SHARED, file)
            if not os.path.exists(path):
                missing.append(f"{file} (../shared/puzzles)")
                continue
            if take is not None:
                cut = os.path.join(tmp, os.path.basename(file))
                with open(path) as f, open(cut, "w") as g:
                    puzzles = (line for line in f if not line.startswith("#"))
                    g.writelines(line for _, line in zip(range(take), puzzles))
                path = cut
            rows.append(Row(label, path))
        if not others or not rows:
            return Table(name, "", "", [], Program("dlx", dlx), [], missing)
        return Table(name, what, "unique", rows, Program("dlx", ours, unique_lines),
                     others, missing)

    def classic() -> Optional[Table]:
        return sudoku_sets(
            "classic",
            [("17-clue, first 20,000", "puzzles2_17_clue.txt", 20000),
             ("magictour top1465", "puzzles3_magictour_top1465.txt", None),
             ("forum hardest 1905 11+, first 3,000", "puzzles5_forum_hardest_1905_11+.txt", 3000)],
            [("SUDOKU_CRATE", "sudoku crate", unique_said), ("TDOKU", "tdoku", unique_said),
             ("FASTDOKU", "fastdoku", unique_said)],
            dlx + " sudoku check --jobs 1 {file}",
            "One thread, each puzzle proven unique (counted to 2).")

    def iss() -> Optional[Table]:
        names = ["EXTREME_KILLERS", "TAREK_ALL", "HS_KILLERS", "MATHEMAGIC_KILLERS",
                 "HARD_THERMOS", "HARD_RENBAN"]
        return sudoku_sets(
            "iss", [(n, os.path.join("iss", n + ".jsonl"), None) for n in names],
            [("ISS", "ISS", iss_unique)],
            dlx + " sudoku check --jobs 1 {file}",
            "One thread, each puzzle proven unique; ISS's figures include node's start and "
            "its modules' loading, about 0.4 s (most of HS_KILLERS').")

    return {"exact-cover": exact_cover, "multiplicities": multiplicities, "classic": classic,
            "iss": iss}


def pydlx_table(rounds: int) -> Optional[str]:
    try:
        import pydlx  # noqa: F401
        import xcover  # noqa: F401
        import exact_cover  # noqa: F401
    except ImportError as e:
        print(f"pydlx: skipped ({e.name} is not installed)", file=sys.stderr)
        return None
    out = subprocess.run([sys.executable, os.path.join(ROOT, "python", "bench", "compare.py"),
                          str(rounds)], check=True, capture_output=True, text=True).stdout
    return (f"{datetime.date.today().isoformat()}, {machine()}; `python3 benches/refresh.py "
            f"pydlx` (`python/bench/compare.py {rounds}`, best round of each):\n\n" + out)


def page_table() -> Optional[str]:
    dist = os.path.join(ROOT, "web", "dist")
    top95 = os.path.join(SHARED, "norvig_top95.txt")
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("page: skipped (Playwright is not installed)", file=sys.stderr)
        return None
    if not os.path.isdir(dist) or not os.path.exists(top95):
        print("page: skipped (no web/dist: run web/build.sh; or no top95)", file=sys.stderr)
        return None
    env = dict(os.environ)
    if os.environ.get("ISS_DIR"):
        env["ISS"] = os.environ["ISS_DIR"]
    out = subprocess.run([sys.executable, os.path.join(ROOT, "web", "bench.py"), dist,
                          dlx_binary(), top95, "1000"], check=True, capture_output=True,
                         text=True, cwd=os.path.join(ROOT, "web"), env=env).stdout
    return (f"{datetime.date.today().isoformat()}, {machine()}; `python3 benches/refresh.py "
            f"page` (`web/bench.py web/dist target/release/dlx top95 1000`):\n\n```text\n"
            + out + "```\n")


def write(blocks: Dict[str, str]) -> None:
    with open(BENCHMARKS) as f:
        text = f.read()
    for name, body in blocks.items():
        start, end = f"<!-- refresh:{name} -->", f"<!-- /refresh:{name} -->"
        a, b = text.find(start), text.find(end)
        if a < 0 or b < a:
            raise SystemExit(f"BENCHMARKS.md has no {start} … {end}")
        text = text[: a + len(start)] + "\n" + body + text[b:]
    with open(BENCHMARKS, "w") as f:
        f.write(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tables", nargs="*", help="which tables (default: all)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--write", action="store_true", help="write them into BENCHMARKS.md")
    args = ap.parse_args()
    known = ["exact-cover", "multiplicities", "classic", "iss", "pydlx", "page"]
    wanted = args.tables or known
    for t in wanted:
        if t not in known:
            raise SystemExit(f"no table {t!r} (tables: {', '.join(known)})")
    blocks: Dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        makers = tables(tmp)
        for name in wanted:
            if name in ("pydlx", "page"):
                body = pydlx_table(args.rounds) if name == "pydlx" else page_table()
                if body:
                    blocks[name] = body
                    if args.write:
                        write({name: body})
                continue
            table = makers[name]()
            if table is None or not table.others:
                why = ", ".join(table.missing) if table else ""
                print(f"{name}: skipped (none of its other programs: {why})", file=sys.stderr)
                continue
            print(f"{name}:", file=sys.stderr)
            blocks[name] = render(table, measure(table, args.rounds), args.rounds)
            if args.write:
                # Each table as soon as it is measured: a later one that
                # fails loses none of the others.
                write({name: blocks[name]})
    for name, body in blocks.items():
        print(f"<!-- refresh:{name} -->\n{body}<!-- /refresh:{name} -->\n")


if __name__ == "__main__":
    main()
