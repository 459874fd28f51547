"""A server on 127.0.0.1 and a free port, in a background thread (tests and the load bench).

Why in the package: the browser tests, the frame-leak test and ``bench/bench_web_load.py``
all start and stop real servers (uvicorn, real sockets) the same way.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import uvicorn

from .guard import LOOPBACK_NAMES
from .limits import Limits
from .play import BURST, RATE
from .server import create_app, uvicorn_settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerThread:
    """``with ServerThread(db) as server: ... server.url ...``; stops (and frees the port) on exit."""

    def __init__(self, db: str | Path, *, workers: int = 0, port: int | None = None,
                 rate: tuple[float, float] = (RATE, BURST), allowed_hosts: Sequence[str] = LOOPBACK_NAMES,
                 proxies: Sequence[str] = (), share_history: bool = True, limits: Limits | None = None,
                 inline: tuple[str, ...] | None = None, bus: str | None = None) -> None:
        """``rate``, ``limits`` and the rest as ``create_app`` takes them (every client here is 127.0.0.1)."""
        self.db = db
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.app = create_app(db, workers=workers, rate=rate, allowed_hosts=allowed_hosts, share_history=share_history,
                              limits=limits, inline=inline, bus=bus)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, lifespan="on",
                                **uvicorn_settings(proxies))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name=f"parlour-web-{self.port}", daemon=True)

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()
