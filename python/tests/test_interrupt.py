"""Ctrl-C stops a long count; a counting thread leaves Python free."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import pydlx

COUNTING = """
import pydlx, sys
n = 20
options = [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n}"] for r in range(n) for c in range(n)]
p = pydlx.Problem(options, [f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)])
print("counting", flush=True)
try:
    p.count()
except KeyboardInterrupt:
    print("interrupted", p.stats.nodes > 0, flush=True)
    sys.exit(3)
"""


def test_ctrl_c_ends_a_count() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", COUNTING], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "counting"
    time.sleep(0.3)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    # Queens 20 counts for hours: ending at all is the signal's doing.
    assert time.monotonic() - start < 10, "Ctrl-C did not end the count"
    assert proc.returncode == 3, err
    assert out.strip() == "interrupted True"


def test_ctrl_c_ends_an_iteration() -> None:
    script = COUNTING.replace("p.count()", "for _ in p.solutions(): pass")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "counting"
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 3


def test_python_runs_while_another_thread_counts() -> None:
    n = 12
    options = [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n}"] for r in range(n) for c in range(n)]
    p = pydlx.Problem(options, [f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)])
    result = []
    t = threading.Thread(target=lambda: result.append(p.count()))
    t.start()
    ticks = 0
    while t.is_alive():
        ticks += 1  # the GIL is free: this loop runs meanwhile
    t.join()
    assert result == [14200]
    assert ticks > 1000
