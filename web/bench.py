"""The engine in the page against the native binary, on the same puzzles:
serves web/dist/, opens it in headless Chromium, and has a worker of the
page's own (worker.js, the wasm module) check each puzzle of FILE (unique,
multiple or none: counting to 2) one after another; prints the time the
worker spent per puzzle (its `performance.now()` around each call, after a
first puzzle that warms the module) next to `dlx sudoku check --jobs 1 --stats`
on the same file. With ISS=DIR in the environment (a checkout of
sigh/Interactive-Sudoku-Solver), the same puzzles also go through that
solver in the same browser (its `SimpleSolver.uniqueSolution`, on the page's
thread, timed the same way): the one JavaScript solver that runs there.

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

ISS = os.environ.get("ISS")
server, base = serve(DIST, {"/iss/": ISS} if ISS else None)

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
        const t0 = performance.now();
        for (const p of puzzles) out.push((await ask(p)).ms);
        out.push(performance.now() - t0);
        return out;
    }""", puzzles)
    iss = None
    if ISS:
        iss = page.evaluate("""async (puzzles) => {
            self.VERSION_PARAM = '';
            const { SimpleSolver } = await import('/iss/js/sandbox/simple_solver.js');
            const solver = new SimpleSolver();
            const out = [];
            const t0 = performance.now();
            solver.uniqueSolution(puzzles[0]);
            out.push(performance.now() - t0);
            let unique = 0;
            const t1 = performance.now();
            for (const p of puzzles) {
                const t = performance.now();
                const s = solver.uniqueSolution(p);
                out.push(performance.now() - t);
                if (s) unique++;
            }
            out.push(performance.now() - t1);
            out.push(unique);
            return out;
        }""", puzzles)
    browser.close()
server.shutdown()

batch = times.pop() / 1000
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
print(f"page, the whole batch from the page (posting each puzzle to the worker and "
      f"awaiting its answer): {batch:.3f} s, {1000 * batch / len(puzzles):.3f} ms a puzzle")
print(f"ratio wasm / native: {wasm / native:.2f} (calls), {batch / native:.2f} (batch)")
if iss:
    unique = iss.pop()
    iss_batch = iss.pop() / 1000
    iss_total = sum(iss[1:]) / 1000
    print(f"Interactive Sudoku Solver: {unique} of {len(puzzles)} found unique")
    print(f"Interactive Sudoku Solver, same browser: {iss_total:.3f} s in all, "
          f"{1000 * iss_total / len(puzzles):.3f} ms a puzzle; the first call {iss[0]:.1f} ms")
    print(f"  the whole batch: {iss_batch:.3f} s")
    print(f"ratio wasm / ISS: {wasm / iss_total:.2f} (calls), {batch / iss_batch:.2f} (batch)")
