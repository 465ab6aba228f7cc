"""The engine in the page against the native binary, on the same puzzles:
serves web/dist/, opens it in headless Chromium, and has a worker of the
page's own (worker.js, the wasm module) check each puzzle of FILE (unique,
multiple or none: counting to 2) one after another; prints the time the
worker spent per puzzle (its `performance.now()` around each call, after a
first puzzle that warms the module) next to `dlx sudoku check --jobs 1 --stats`
on the same file.

    python web/bench.py DIST DLX FILE [LIMIT]
"""

import os
import re
import subprocess
import sys

from playwright.sync_api import sync_playwright

from serve import launch, serve

DIST, DLX, FILE = sys.argv[1], sys.argv[2], sys.argv[3]
LIMIT = int(sys.argv[4]) if len(sys.argv) > 4 else 1000

with open(FILE) as f:
    puzzles = [l.strip() for l in f if l.strip() and not l.startswith("#")][:LIMIT]

server, base = serve(DIST)

with sync_playwright() as p:
    browser = launch(p)
    page = browser.new_page()
    page.goto(base)
    times = page.evaluate("""async (puzzles) => {
        const w = new Worker('./worker.js', { type: 'module' });
        let id = 0;
        const ask = (input) => new Promise((resolve, reject) => {
            w.onmessage = (e) => e.data.ok ? resolve(e.data) : reject(new Error(e.data.error));
            w.postMessage({ id: id++, kind: 'run', input, action: 'check', cap: 2, seed: 0 });
        });
        const first = await ask(puzzles[0]);
        const out = [first.ms];
        for (const p of puzzles) out.push((await ask(p)).ms);
        return out;
    }""", puzzles)
    browser.close()
server.shutdown()

first, rest = times[0], times[1:]
out = subprocess.run([DLX, "sudoku", "check", "--jobs", "1", "--stats"], input="\n".join(puzzles) + "\n",
                     capture_output=True, text=True)
native = float(re.search(r"seconds: ([0-9.]+)", out.stderr).group(1))
wasm = sum(rest) / 1000
rest.sort()
print(f"{len(puzzles)} puzzles of {os.path.basename(FILE)}")
print(f"page (wasm, one worker): {wasm:.3f} s in all, {1000 * wasm / len(puzzles):.3f} ms a puzzle "
      f"(median {rest[len(rest) // 2]:.3f} ms, slowest {rest[-1]:.1f} ms); the first call, cold: {first:.1f} ms")
print(f"native, --jobs 1:        {native:.3f} s in all, {1000 * native / len(puzzles):.3f} ms a puzzle")
print(f"ratio wasm / native: {wasm / native:.2f}")
