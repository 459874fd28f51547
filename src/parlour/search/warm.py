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

import contextlib
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import numpy as np

from . import jit, tricks
from .trick_rules import Objective, TrickRules

try:
    import fcntl
except ImportError:  # (Windows: each process compiles for itself)
    fcntl = None  # type: ignore[assignment]

FIRST_RUN = "Preparing the computer players, first run only…"
_ready = threading.Event()
_lock = threading.Lock()
_started = False
#: the background thread of :func:`start` (for tests), once started
thread: threading.Thread | None = None
#: the lock file beside numba's cache that one compiling process holds (``_compiling_alone``)
LOCK_NAME = "parlour-compiling.lock"
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


def _cache_folder() -> Path | None:
    """Where numba keeps the kernels' cache (None: numba is absent, or keeps none)."""
    cache = getattr(tricks.search, "_cache", None)
    index = getattr(getattr(cache, "_impl", None), "locator", None)
    return None if index is None else Path(index.get_cache_path())


#: the kernels :func:`_exercise` compiles, in its order: the last one's index is written last
KERNELS = ("exact", "at_least", "move_values")


def cached() -> bool:
    """Whether numba's on-disk cache holds every kernel, fresh (so no compilation is ahead).

    Why every one: a compilation cut short (a process killed, llvmlite aborting) leaves the
    first kernels' indexes and not the rest.  When one was enough, every process that started
    then took the cache as written and compiled the missing kernels itself, outside the lock:
    the load bench's first runs on a fresh clone had the browser server and each of its workers
    compiling at once for minutes (5 ms of CPU an action, p99 over a second), and two processes
    writing numba's same cache files at once aborted one of them in LLVM.  :func:`_exercise`
    compiles ``move_values`` last, so its index is written after theirs.

    Why numba's own reading of each index (``_load_index``, empty when the index is missing or
    stale; numba has no public call for it): numba 0.68 keys its cache on the source's contents,
    older versions on its time stamp.  Compared by time stamp here, a source touched but not
    changed (a git checkout to another branch and back) looked newer than its cache: every
    process told the player it was preparing the computer players, its compiling child loaded the
    cache in half a second and wrote nothing, and the level stayed on the Python path for good,
    its hints saying the compiled search could not be prepared.
    """
    if not jit.AVAILABLE:
        return True
    for name in KERNELS:  # (numba's internals through getattr, as in _cache_folder: absent, the answer is no)
        index = getattr(getattr(getattr(tricks, name), "_cache", None), "_cache_file", None)
        read = getattr(index, "_load_index", None)
        if read is None or not read():
            return False
    return True


def _exercise(module: ModuleType) -> None:
    """Call every kernel once on a two-card deal, so each one is compiled (or loaded)."""
    rules = TrickRules(nplayers=2, ncards=2, follow=(3, 3), head=(0, 0), ruff=(0, 0), power=((1, 2), (2, 1)),
                       group=(0, 0), rank=(0, 1))
    table, power, params = rules.arrays(Objective((1, 2)))
    side = np.array([tricks.MAX | tricks.COUNTED, 0, 0], np.int64)
    tt = tricks.new_table(16)
    buf, frames, stats = tricks.work_arrays()
    trick = tricks.trick_array()
    hands = np.array([1, 2, 0], np.int64)
    module.exact(hands, trick, 0, 0, 0, 0, table, power, side, params, tt, buf, frames, stats)
    module.at_least(hands, trick, 0, 0, 0, 1, table, power, side, params, tt, buf, frames, stats)
    out = np.zeros(1, np.int64)
    module.move_values(hands, trick, 0, 0, np.array([0], np.int64), 1, tricks.EXACT, out, table, power, side,
                       params, tt, buf, frames, stats)


def now(waiting: Callable[[], None] | None = None) -> None:
    """Compile (or load from the cache) in this process and make :func:`kernels` hand them out.

    ``waiting``: called if another process is compiling, before this one waits for its cache.
    """
    with _lock:
        if _ready.is_set():
            return
        t0 = time.perf_counter()
        was_cached = cached()
        if jit.AVAILABLE:
            # the lock even when the cache looks whole: loading it while another process writes
            # it (a newer numba, or a kernel's index stale) would read half-written files
            with _compiling_alone(None if was_cached else waiting):
                was_cached = was_cached or cached()  # (another process wrote it while this one waited)
                _exercise(tricks)
        last.update(seconds=time.perf_counter() - t0, cached=was_cached)
        _ready.set()


@contextlib.contextmanager
def _compiling_alone(waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """One compilation on the machine at a time: a process that would compile waits for the one
    compiling, then loads what it wrote.

    Why: each process that finds no cache compiles the same kernels, a minute of a core each on a
    first run (the test suite's two workers and the servers its tests start, a browser server and
    its worker pool) when one compilation serves them all.  A lock file beside numba's cache,
    ``flock``-ed: the lock goes with its process, however that ends.  Where there is no ``fcntl``
    (Windows) each process compiles as before.
    """
    folder = _cache_folder()
    if folder is None or fcntl is None:
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK_NAME, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


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
    from ..lifeline import exit_with_parent

    # A child that only waits for another's compilation has nothing to finish once its parent is
    # gone (a server killed meanwhile); one that compiles lives on to write the cache for the next run.
    now(waiting=exit_with_parent)
    print(f"{'loaded' if last['cached'] else 'compiled'} in {last['seconds']:.1f} s")
