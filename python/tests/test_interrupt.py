"""Ctrl-C stops a long count; a counting thread leaves Python free."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import pydlx

# The child restores Python's own Ctrl-C handler: a parent that ignores
# SIGINT (a job started with `&` from a script) passes that on, and Python
# then installs none.
COUNTING = """
import pydlx, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
n = 20
options = [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n}"] for r in range(n) for c in range(n)]
p = pydlx.Problem(options, [f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)], [f"a{k}" for k in range(2 * n)] + [f"b{k}" for k in range(2 * n + 1)])
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
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()  # never left counting Queens 20 for hours
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
    try:
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 3


def test_python_runs_while_another_thread_counts() -> None:
    n = 12
    options = [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n}"] for r in range(n) for c in range(n)]
    p = pydlx.Problem(options, [f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)], [f"a{k}" for k in range(2 * n)] + [f"b{k}" for k in range(2 * n + 1)])
    result = []
    t = threading.Thread(target=lambda: result.append(p.count()))
    t.start()
    ticks = 0
    while t.is_alive():
        ticks += 1  # the GIL is free: this loop runs meanwhile
    t.join()
    assert result == [14200]
    assert ticks > 1000


def test_one_iterator_in_two_threads_is_refused_not_deadlocked() -> None:
    n = 13
    options = [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n}"] for r in range(n) for c in range(n)]
    p = pydlx.Problem(options, [f"r{k}" for k in range(n)] + [f"c{k}" for k in range(n)], [f"a{k}" for k in range(2 * n)] + [f"b{k}" for k in range(2 * n + 1)])
    it = p.solutions()
    errors: list[str] = []
    counted = [0]

    def drain() -> None:
        try:
            for _ in it:
                counted[0] += 1
        except ValueError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=drain) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "deadlocked"
    # Each solution once, whichever thread took it; a thread that came
    # while the other searched was refused.
    assert counted[0] == 73712
    assert all("another thread" in e for e in errors)
