"""Ctrl-C during a long native call stops it and raises KeyboardInterrupt.

Each case runs in a child process: a thread sends SIGINT to the process half a second after the call starts, and
the child reports which Python line the KeyboardInterrupt came out of. Every call below would run for hours if it
ignored the signal, so the only time bound is the parent's hang guard.
"""

import subprocess
import sys

import pytest

CHILD = r"""
import os, signal, sys, threading, time, traceback
import csp_sudoku as cs
from csp_sudoku.engine import Model


def pigeonhole():
    # 14 pigeons in 13 holes without propagation: no solution, and a search tree far too big to finish.
    m = Model()
    xs = [m.int_var(0, 12, f"p{i}") for i in range(14)]
    m.all_different(xs)
    return m, xs


def call(what):
    if what == "generate":
        # No candidate reaches this rating, so the call would try a billion candidates.
        cs.generate(9, 10, seed=1, min_rating=10**9, max_candidates=10**9, threads=1)  # NATIVE
    elif what == "count":
        m, _ = pigeonhole()
        m.count(propagation="none")  # NATIVE
    elif what == "minimize":
        m, xs = pigeonhole()
        m.minimize([(1, x) for x in xs], propagation="none")  # NATIVE
    elif what == "solutions":
        m, _ = pigeonhole()
        next(m.solutions(propagation="none"))  # NATIVE


def interrupt_soon():
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGINT)


# Python installs its KeyboardInterrupt handler only when SIGINT is not ignored at startup, and a child started
# from a background job of a non-interactive shell (a CI runner's `cmd &`) inherits SIGINT ignored: restore it, so
# the test checks the native calls and not how the test run was started.
signal.signal(signal.SIGINT, signal.default_int_handler)
threading.Thread(target=interrupt_soon, daemon=True).start()
try:
    call(sys.argv[1])
except KeyboardInterrupt as e:
    frames = traceback.extract_tb(e.__traceback__)
    print("interrupted at:", frames[-1].line)
    sys.exit(0)
print("finished without an interrupt")
sys.exit(1)
"""


@pytest.mark.parametrize("what", ["generate", "count", "minimize", "solutions"])
def test_ctrl_c_stops_a_long_native_call_with_keyboard_interrupt(what, tmp_path):
    script = tmp_path / "child.py"  # a file, so the traceback can show source lines
    script.write_text(CHILD)
    # The hang guard: an ignored Ctrl-C leaves the child running for hours, not seconds.
    child = subprocess.run([sys.executable, str(script), what], capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stdout + child.stderr
    # The interrupt came out of the native call itself (for generate: the line of csp_sudoku.generate that calls
    # the native module), not out of Python code before or after it.
    line = child.stdout.split("interrupted at:", 1)[1].strip()
    assert "NATIVE" in line or "_native.generate_batch" in line, child.stdout
