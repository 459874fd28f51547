"""A child process ends when the process that started it does, however that one ends.

Why: the bot workers are spawned processes; when the server was killed (``kill -9``, the OOM
killer) they lived on, each holding its imported games, and with them multiprocessing's
resource tracker (it waits for every holder of its pipe), about 74 MB in all.  Likewise a
process that only waits for another's compilation of the search kernels (``search.warm``).
On Linux the kernel sends the child a signal as its parent dies (``prctl(PR_SET_PDEATHSIG)``);
everywhere a daemon thread also looks at the parent process id once a second (it changes when
the parent is gone), so a platform without ``prctl``, or a child whose parent died before it
asked, ends too.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
POLL_SECONDS = 1.0


def exit_with_parent(poll: float = POLL_SECONDS, kernel: bool = True) -> None:
    """From now on this process ends when its parent ends (call it in a worker's initializer).

    ``kernel``: False leaves it to the watching thread alone (the test of the portable way).
    """
    parent = multiprocessing.parent_process()
    expected = parent.pid if parent is not None and parent.pid is not None else os.getppid()
    if kernel:
        _ask_the_kernel()
    if os.getppid() != expected:  # the parent died before the kernel was asked: nobody will tell us
        os._exit(1)
    watcher = threading.Thread(target=_watch, args=(expected, poll), name="parlour-lifeline", daemon=True)
    watcher.start()


def _ask_the_kernel() -> None:
    """Linux: SIGKILL to this process when its parent dies (a worker has nothing to save)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def _watch(parent: int, poll: float) -> None:
    """The portable fallback: once the parent is gone this process has been handed to another."""
    while os.getppid() == parent:
        time.sleep(poll)
    os._exit(1)
