"""Compiling the search kernels without a player ever waiting for it.

Why a separate process: numba compiles on a kernel's first call and holds the interpreter
while it does (tens of seconds for ``search/tricks.py`` on this machine, once per install: the
result is cached on disk).  So :func:`start` compiles in a child process (``python -m
parlour.search.warm``), and only when the cache is written does a thread of this process
load it; until then :func:`kernels` hands out the same kernels as plain Python
(``search/jit.py``), which a player spends its usual budget on with fewer samples.
:func:`now` is the foreground version, for benches and tests.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

from . import jit, tricks
from .trick_rules import Objective, TrickRules

FIRST_RUN = "Preparing the computer players, first run only…"
_ready = threading.Event()
_lock = threading.Lock()
_started = False
#: the background thread of :func:`start` (for tests), once started
thread: threading.Thread | None = None
#: how long :func:`start` waits for another process's compilation before it gives up
WAIT_LIMIT = 600.0
#: seconds the last :func:`now` took, and whether it found the kernels cached (for the bench);
#: ``failed``: why :func:`start` gave up on compiled kernels (they stay plain Python)
last: dict[str, float | bool | str] = {}


def kernels() -> ModuleType:
    """The compiled kernels once they are ready, else the same kernels as Python."""
    if _ready.is_set() or not jit.AVAILABLE:
        return tricks
    return jit.python_copy(tricks)


def compiled() -> bool:
    """Whether :func:`kernels` hands out compiled code (False: Python, slower, same answers)."""
    return jit.AVAILABLE and _ready.is_set()


def note() -> str:
    """What a hint adds when the search is not compiled: the level says so (an empty string when it is)."""
    if compiled():
        return ""
    if "failed" in last:
        return " (the compiled search could not be prepared, so it runs as plain Python: fewer deals a decision)"
    if not jit.AVAILABLE:
        return " (numba is not available here, so the search runs as plain Python: fewer deals a decision)"
    return " (the compiled search is still being prepared, so this decision searched fewer deals)"


def cached() -> bool:
    """Whether numba's on-disk cache already holds the kernels (so no compilation is ahead)."""
    if not jit.AVAILABLE:
        return True
    cache = getattr(tricks.search, "_cache", None)
    index = getattr(getattr(cache, "_impl", None), "locator", None)
    if index is None:
        return False
    path = Path(index.get_cache_path())
    source = Path(tricks.__file__).stat().st_mtime
    # numba keys its cache on the source file's time stamp: an older index is stale
    return any(p.stat().st_mtime >= source for p in path.glob("tricks.search-*.nbi"))


def _exercise(module: ModuleType) -> None:
    """Call every kernel once on a two-card deal, so each one is compiled (or loaded)."""
    rules = TrickRules(nplayers=2, ncards=2, follow=(3, 3), head=(0, 0), ruff=(0, 0), power=((1, 2), (2, 1)),
                       group=(0, 0), rank=(0, 1))
    table, power, params = rules.arrays(Objective((1, 2)))
    side = np.array([tricks.MAX | tricks.COUNTED, 0, 0], np.int64)
    tt = tricks.new_table(16)
    buf = np.zeros(64 * 32, np.int64)
    stats = np.zeros(2, np.int64)
    frames = np.zeros((tricks.MAX_PLY + 2, tricks.FRAME_WORDS), np.int64)
    trick = np.zeros(3 * 14, np.int64)
    hands = np.array([1, 2, 0], np.int64)
    module.exact(hands, trick, 0, 0, 0, 0, table, power, side, params, tt, buf, frames, stats)
    module.at_least(hands, trick, 0, 0, 0, 1, table, power, side, params, tt, buf, frames, stats)
    out = np.zeros(1, np.int64)
    module.move_values(hands, trick, 0, 0, np.array([0], np.int64), 1, out, table, power, side, params,
                       tt, buf, frames, stats)


def now() -> None:
    """Compile (or load from the cache) in this process and make :func:`kernels` hand them out."""
    with _lock:
        if _ready.is_set():
            return
        was_cached = cached()
        t0 = time.perf_counter()
        if jit.AVAILABLE:
            _exercise(tricks)
        last.update(seconds=time.perf_counter() - t0, cached=was_cached)
        _ready.set()


def start(report: Callable[[str], None] | None = None, *, compile: bool = True) -> None:
    """Make the compiled kernels ready in the background; ``report`` hears the one-line notice
    when compiling is ahead (a first run), and nothing otherwise.  Safe to call more than once.

    ``compile=False``: another process compiles (a browser server's workers wait for the
    server's own ``start``), so this one only loads the cache once it is written.
    """
    global _started, thread
    if _started or _ready.is_set() or not jit.AVAILABLE:
        return
    _started = True
    first = not cached()
    if first and compile and report is not None:
        report(FIRST_RUN)

    def run() -> None:
        if first and compile:
            child = subprocess.run([sys.executable, "-m", "parlour.search.warm"], check=False,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if not cached():  # it failed, or could not write the cache: loading here would compile here
                last["failed"] = f"the compiling process ended with code {child.returncode} and no cache"
                return
        give_up = time.monotonic() + WAIT_LIMIT
        while not cached():
            if time.monotonic() > give_up:
                last["failed"] = f"no compiled cache appeared within {WAIT_LIMIT:.0f} s"
                return
            time.sleep(2)
        now()

    thread = threading.Thread(target=run, name="parlour-warm", daemon=True)
    thread.start()


if __name__ == "__main__":  # the child process of start(): compile and write the cache
    now()
    print(f"{'loaded' if last['cached'] else 'compiled'} in {last['seconds']:.1f} s")
