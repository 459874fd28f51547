"""A Redis server of the tests' own: Debian's ``redis-server``, a temporary folder, a loopback port, no persistence.

Why one of its own: the tests must not depend on, or touch, a Redis someone runs (its data,
its port), and CI starts from a bare machine (``.ci/run`` installs Debian's ``redis-server``).
It listens on 127.0.0.1 only, on a port free when it starts, and writes nothing to disk
(``--save ''``, ``--appendonly no``).  ``stop`` and ``start`` again on the same port are how
a test makes the bus briefly unreachable.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from helpers.postgres import free_port


def why_not() -> str | None:
    """Why Redis tests cannot run here (None: they can)."""
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (Debian: apt-get install redis-server)"
    try:
        import redis  # noqa: F401
    except ImportError:
        return "redis-py is not installed (pip install 'redis>=5')"
    return None


class Running:
    """A Redis someone else started (``.ci/run``: ``helpers.services``): only its ``url``, a database of it."""

    def __init__(self, url: str) -> None:
        self.url = url


class RedisServer:
    """``RedisServer().start()``; ``url``; ``stop()`` (``start()`` again: the same port, empty)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="parlour-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder), "--logfile", str(self.folder / "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = self.folder / "redis.log"
                raise RuntimeError("redis-server did not start: " + (log.read_text()[-1000:] if log.exists() else ""))
            time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
