"""``parlour serve``: the FastAPI app put together, and the server process around it.

The app is its routers, one per concern: ``pages`` (the pages and the game catalogue),
``health`` (``/healthz``, for a proxy), ``lobby`` (a new table), ``history`` (who may see which
finished game) and ``play`` (the WebSocket play, where every message is checked).  What
guards the HTTP layer itself (the ``Host`` names, body sizes, every response's headers) is in
``guard``; what one client may take beyond that (connections, shared rates, tables) is
``limits.Limits``.  Here: the wiring, the lifespan of the tables and the store, the
collector's tuning and ``serve``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import signal
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from ..bots import levels
from ..registry import names
from ..store import Store, open_store
from . import assets
from .bus import Leases, LocalLeases, LocalPresence, Presence, RedisLeases, RedisPresence, RedisPubSub
from .guard import (
    LOOPBACK_NAMES,
    BodyLimit,
    DenialAsClose,
    Guarded,
    Layer,
    SameOrigin,
    SecurityHeaders,
    is_loopback,
    quiet_client_faults,
    trusted_hosts,
)
from .health import health_router
from .history import history_router
from .limits import Accounts, Limits
from .lobby import lobby_router
from .paced import PacedWebSockets
from .pages import pages_router
from .play import BURST, MAX_MESSAGE, RATE, play_router
from .pubsub import LocalPubSub, PubSub
from .reviews import Reviews
from .shared_limits import RedisLimits, connections
from .tables import Tables

log = logging.getLogger("parlour.web")

MAX_BODY = 8192  # bytes of a request body (the lobby's form)
# No permessage-deflate: a frame is a few kilobytes of JSON, and compressing every one cost the
# server about a tenth of its CPU under load (bench/bench_web_load.py); CPU is the scarce thing here.
WS_DEFLATE = False


def create_app(db: str | Path | None = None, *, workers: int = 2, allowed_origins: set[str] | None = None,
               store: Store | None = None, rate: tuple[float, float] = (RATE, BURST),
               allowed_hosts: Sequence[str] = LOOPBACK_NAMES, share_history: bool = True,
               limits: Limits | None = None, inline: tuple[str, ...] | None = None,
               bus: str | None = None) -> FastAPI:
    """The whole web application on the saved-games database ``db``.

    ``rate``: messages per second and burst per connection, and per seat (tests driving many
    games raise it); ``limits``: the caps per address, table and server (``Limits``; tests,
    all from 127.0.0.1, raise them).  ``allowed_hosts``: the names accepted in ``Host``
    (``guard.trusted_hosts``), HTTP and WebSocket alike: a request naming another host is
    refused (400; a WebSocket handshake 403) before anything else reads it.  ``share_history``:
    whether the whole database's history and statistics are shown to anyone who reaches the
    server (``web.history``).  ``workers`` and ``inline`` go to ``Tables``: a test that must
    reach the worker pool passes ``inline=()``, as by default the cheap levels play on the
    event loop.  ``bus``: the Redis URL of the event bus shared with other server processes
    (``web.bus``; None: events stay in this process).
    """
    allowed = set(allowed_origins or ())
    state: dict[str, Any] = {}
    quiet_client_faults()
    limits = limits or Limits()
    accounts = Accounts(limits, rate)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own = store is None
        st = open_store(db) if store is None else store
        pubsub: PubSub = LocalPubSub() if bus is None else RedisPubSub(bus)
        leases: Leases = RedisLeases(pubsub) if isinstance(pubsub, RedisPubSub) else LocalLeases()
        seen: Presence = RedisPresence(pubsub) if isinstance(pubsub, RedisPubSub) else LocalPresence()
        tables = Tables(st, pubsub=pubsub, workers=workers, inline=inline, unjoined_kept=limits.unjoined_seconds,
                        unfinished_kept=limits.unfinished_seconds,
                        leases=leases, shared=seen)
        state["tables"] = tables
        shared = None if not isinstance(pubsub, RedisPubSub) else \
            RedisLimits(pubsub, accounts, functools.partial(connections, accounts, tables))
        state["reviews"] = Reviews(tables, workers)
        await pubsub.start()
        await leases.start()
        await seen.start()
        if shared is not None:
            await shared.start()
        try:
            yield
        finally:
            if shared is not None:
                await shared.close()
            await seen.close()
            await tables.drain()
            await leases.close()  # handed on now: another process takes the tables over at once
            await pubsub.close()
            tables.close()
            if own:
                st.close()

    outer: list[Layer] = [
        functools.partial(SecurityHeaders, immutable=assets.prefix()),  # outermost: every response
        DenialAsClose,
        functools.partial(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts), www_redirect=False),
        functools.partial(SameOrigin, allowed=allowed),
        functools.partial(BodyLimit, limit=MAX_BODY),
    ]
    app = Guarded(outer=outer, title="Parlour", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.mount(assets.prefix(), StaticFiles(directory=str(assets.STATIC)), name="static")
    app.mount("/static", StaticFiles(directory=str(assets.STATIC)), name="static-unversioned")  # older pages' links

    app.include_router(pages_router())
    app.include_router(health_router())
    app.include_router(history_router(share_history))
    app.include_router(lobby_router(accounts, limits))
    app.include_router(play_router(accounts, rate, allowed))
    app.state.parlour = state
    return app


#: Seconds a stopping server waits for its connections to close (``uvicorn_settings``); the
#: tables are saved after it (the lifespan's end), whatever the clients do.
SHUTDOWN_WAIT = 5.0
#: The collector's thresholds for a long-running server (see ``_tune_gc``).
GC_THRESHOLDS = (1_000, 50, 20)


def _tune_gc() -> None:
    """Short pauses for a long-running server process: the garbage collector's and cold caches'.

    Why: every pause stalls every table, and the p99 latency under load is made of them
    (bench/bench_web_load.py, 200 tables).  Each game's computer players are imported and,
    where a bots module has a ``warm_up`` hook (Le Truc's fills its play-out caches: about
    1.5 s), warmed now rather than on the tables' time; then all of it is frozen out of the
    collector's sight.  The youngest generation is collected every 1,000 net allocations (its
    pauses stay at a few milliseconds: at 20,000 they grew to 30-50 ms), the middle one every
    50 of those, so that it rarely holds much; tables dropped from memory once nobody watches
    them (``Tables.watch``), and their logs kept encoded (``LiveTable.remember``), keep the old
    generation small.
    """
    import gc

    from ..registry import part

    for name in names():
        levels(name)  # imports its computer players
        part(name, "text")
        warm_up = getattr(part(name, "bots"), "warm_up", None)
        if callable(warm_up):
            warm_up()  # a game's inline players fill their caches now, not on the tables' time
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def uvicorn_settings(proxies: Sequence[str] = ()) -> dict[str, Any]:
    """uvicorn's settings for this server (``serve`` and ``run.ServerThread`` alike).

    Why each: no ``Server`` header (it names the software to whoever probes for it); a
    forwarded client address (``X-Forwarded-For``) believed only from the ``proxies`` named,
    none by default, where uvicorn's own default believes 127.0.0.1 (so anything on this
    machine could claim any address); WebSocket frames of at most twice a message, parsed only
    as the app reads them (``paced``); a stop that waits at most ``SHUTDOWN_WAIT`` seconds for the
    connections to close before it closes them itself (uvicorn's default waits for ever: a
    client that never answers the closing handshake held a stopping server, and the tables'
    last saves behind it, for good).
    """
    return {"log_level": "warning", "server_header": False, "proxy_headers": True,
            "forwarded_allow_ips": list(proxies), "ws_max_size": MAX_MESSAGE * 2,
            "ws_per_message_deflate": WS_DEFLATE, "ws": PacedWebSockets,
            "timeout_graceful_shutdown": SHUTDOWN_WAIT}


def history_is_shared(host: str, asked: bool | None, proxies: Sequence[str] = ()) -> bool:
    """``--share-history``'s default: on for a loopback address, where only this machine reaches the server.

    Off behind a reverse proxy (``--proxy``) even on a loopback address: there everyone who
    reaches the proxy reaches the server, though it listens on 127.0.0.1 only.
    """
    return is_loopback(host) and not proxies if asked is None else asked


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, *, workers: int = 2,
          allowed_hosts: Sequence[str] = (), proxies: Sequence[str] = (), share_history: bool | None = None,
          limits: Limits | None = None, bus: str | None = None, processes: int = 1) -> int:
    """Run the server until interrupted (``parlour serve``).

    ``allowed_hosts``: the names people type to reach it (``--allowed-host``), needed when
    ``host`` is not a loopback address (a ValueError otherwise); ``proxies``: the addresses of
    the reverse proxies whose ``X-Forwarded-For`` is believed (``--proxy``).  ``share_history``
    (``--share-history``/``--no-share-history``): None shares it on a loopback address with no
    proxy only, where nobody but this machine reaches the server.  ``limits``: the defaults unless given.
    ``bus``: the event bus's Redis URL (``--bus``), shared with the other processes on the database.
    ``processes`` (``--processes``): server processes on this host's one port (``_supervise``);
    more than one needs the bus.
    """
    import uvicorn

    hosts = trusted_hosts(host, allowed_hosts)  # refuses, in one line, a public address without names
    # Fail here, in one line, if the database cannot be used (before uvicorn starts).
    open_store(db).close()
    if bus is not None:
        RedisPubSub(bus)  # a URL that is not Redis's: refused here, in one line
    if processes > 1 and bus is None:
        raise ValueError("--processes above 1 needs --bus: the processes tell each other of their tables' moves")
    settings: dict[str, Any] = {"db": db, "workers": workers, "allowed_hosts": list(hosts), "limits": limits,
                                "share_history": history_is_shared(host, share_history, proxies), "bus": bus}
    print("Getting the computer players ready...", flush=True)
    from ..search import warm  # compiled in a child process on a first run; the workers load its cache

    warm.start(lambda line: print(line, flush=True))
    name = host if is_loopback(host) or not allowed_hosts else allowed_hosts[0]  # not 0.0.0.0: a name it answers to
    shown = f"[{name}]" if ":" in name else name
    if processes > 1:
        return _supervise(host, port, processes, settings, list(proxies), f"http://{shown}:{port}/")
    _tune_gc()
    app = create_app(**settings)
    print(f"Parlour is serving at http://{shown}:{port}/ (Ctrl+C stops it)", flush=True)
    # uvicorn stops gracefully on Ctrl+C and on SIGTERM (every table saved, the worker pool shut
    # down, the store closed), then raises the signal again for the handler it found.  For
    # SIGINT that was asyncio's, which on uvloop interrupted a task and logged a traceback; for
    # SIGTERM the default one, which killed the process before its exit handlers ran, so
    # multiprocessing's resource tracker found the pool's semaphores unreleased and printed
    # "leaked semaphore objects".  This one lets both stops end quietly, through a normal exit.
    previous = {sig: signal.signal(sig, _stopped) for sig in STOP_SIGNALS}
    try:
        uvicorn.run(app, host=host, port=port, **uvicorn_settings(proxies))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("Parlour has stopped serving.", flush=True)
    return 0


DRAIN_SECONDS = 30.0  # how long a stopping server process may take to drain before it is killed


def _supervise(host: str, port: int, processes: int, settings: dict[str, Any], proxies: list[str],
               url: str) -> int:
    """``processes`` server processes sharing one listening socket (the kernel spreads the connections).

    Why a supervisor of our own rather than uvicorn's ``workers``: each process is a whole
    server of its own (its tables, its leases, its Redis connection, its computer players'
    pool) built by ``create_app`` from these settings, and a process that dies (``kill -9``, a
    crash) is started again while the others serve on (its tables' leases lapse and are taken
    over).  On SIGTERM or Ctrl+C every process drains (``_serve_one``: no new connections, the
    pages told to reconnect with WebSocket code 1012, what is in flight saved, the leases handed
    on), within ``DRAIN_SECONDS``.
    """
    import multiprocessing
    import os
    import socket
    import time

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    context = multiprocessing.get_context("spawn")

    def start(number: int) -> Any:
        child = context.Process(target=_serve_one, args=(sock, settings, proxies), name=f"parlour-serve-{number}")
        child.start()
        return child

    stopping: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: stopping.append(signum)) for sig in STOP_SIGNALS}
    children = [start(i) for i in range(processes)]
    print(f"Parlour is serving at {url} with {processes} processes (Ctrl+C stops it)", flush=True)
    try:
        while not stopping:
            time.sleep(0.2)
            for i, child in enumerate(children):
                if not child.is_alive() and not stopping:
                    log.warning("server process %s ended (exit code %s); starting another", child.pid, child.exitcode)
                    children[i] = start(i)
    finally:
        for child in children:
            if child.is_alive() and child.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.pid, signal.SIGTERM)
        deadline = time.monotonic() + DRAIN_SECONDS
        for child in children:
            child.join(max(0.0, deadline - time.monotonic()))
            if child.is_alive():
                child.kill()
                child.join()
        sock.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("Parlour has stopped serving.", flush=True)
    return 0


def _serve_one(sock: Any, settings: dict[str, Any], proxies: list[str]) -> None:
    """One of ``_supervise``'s server processes: ``create_app`` on the shared socket, until SIGTERM."""
    import uvicorn

    from ..lifeline import exit_with_parent
    from ..search import warm

    exit_with_parent()  # the supervisor killed: so is this (its tables are in the store, its leases lapse)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the supervisor's: it asks each process with SIGTERM
    warm.start(compile=False)
    _tune_gc()
    server = uvicorn.Server(uvicorn.Config(create_app(**settings), **uvicorn_settings(proxies)))
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        server.run(sockets=[sock])
    finally:
        signal.signal(signal.SIGTERM, previous)


#: The signals that stop ``parlour serve``: Ctrl+C, and ``kill`` (or a service manager) asking it to stop.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _stopped(signum: int, frame: object) -> None:
    """A stop signal once uvicorn has stopped (or, in the instant before it starts, nothing to do)."""
