"""The browser server against abuse of its connections and resources, each point against a real server.

What an outside attacker test found, and what is checked here: watchers' joins and leaves cost
a whole frame per connection (now a small seats-only frame, and only when a seat changes), a
table takes any number of spectators (now capped), a connection that never says hello stayed
open forever, the rate limit was per connection (now also per seat and per address, with a cap
on an address's connections), table creation was unlimited (now a rate per address, tables
nobody joined expire, and the open tables are capped), and the bot workers outlived a killed
server.  Clients of "another address" bind 127.0.0.2 (Linux routes all of 127.0.0.0/8 to the
loopback).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from helpers.web import LOOSE, create
from parlour.store import open_store
from parlour.web.limits import Limits
from parlour.web.run import ServerThread, free_port

OTHER = "127.0.0.2"  # a second client address on the loopback
GOPS = [{"kind": "invite"}, {"kind": "bot", "level": "easy"}]


def limits(**changes: Any) -> Limits:
    """The tests' loose limits (every client is 127.0.0.1) with the one under test set."""
    return dataclasses.replace(LOOSE, **changes)


def hello(seat: int | None = None, token: str | None = None) -> str:
    return json.dumps({"type": "hello", "seat": seat, "token": token})


async def connect(server: Any, table: str, local: str | None = None) -> Any:
    extra: dict[str, Any] = {"local_addr": (local, 0)} if local else {}
    return await websockets.connect(f"{server.ws_url}/ws/{table}", **extra)


async def first_of(ws: Any, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next frame of type ``kind`` (others skipped)."""
    async def read() -> dict[str, Any]:
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == kind:
                return frame
    return await asyncio.wait_for(read(), timeout)


async def drain(ws: Any, quiet: float = 0.5) -> list[dict[str, Any]]:
    """Every frame that arrives until none has for ``quiet`` seconds."""
    out = []
    while True:
        try:
            out.append(json.loads(await asyncio.wait_for(ws.recv(), quiet)))
        except TimeoutError:
            return out


def dealt(server: Any, seats: list[dict[str, Any]] = GOPS) -> dict[str, Any]:
    """A table whose person has taken their seat once and left: it is dealt (no deal before the people)."""
    table = create(server, "gops", seats)

    async def sit() -> None:
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}") as ws:
            await ws.send(hello(0, table["tokens"][0]))
            await first_of(ws, "state")

    asyncio.run(sit())
    return table


async def refused(ws: Any, timeout: float = 10) -> str:
    """The error frame of a refused connection, after checking it was closed with 1008 (policy)."""
    message = (await first_of(ws, "error", timeout))["message"]
    with pytest.raises(websockets.ConnectionClosed):
        await asyncio.wait_for(ws.recv(), timeout)
    assert ws.close_code == 1008, ws.close_code
    return str(message)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with ServerThread(tmp_path_factory.mktemp("abuse") / "web.db", rate=(10_000, 10_000),
                      limits=limits(spectators_per_table=5, connections_per_seat=2)) as srv:
        yield srv


# ------------------------------------------------------------------ 1. presence deltas, the spectators' cap
def test_spectators_coming_and_going_cost_no_frames_and_a_seat_is_one_small_frame(server: Any) -> None:
    table = dealt(server)

    async def scenario() -> None:
        first = await connect(server, table["id"])
        await first.send(hello())
        await first_of(first, "state")
        await drain(first)
        for _ in range(2):  # four spectators come and go, twice: the first hears nothing of it
            others = [await connect(server, table["id"]) for _ in range(4)]
            for ws in others:
                await ws.send(hello())
                await first_of(ws, "state")
            for ws in others:
                await ws.close()
        assert await drain(first) == [], "a spectator changes no seat: no frame to the others"
        seat = await connect(server, table["id"])
        await seat.send(hello(0, table["tokens"][0]))
        await first_of(seat, "state")
        came = await drain(first)
        assert [f["type"] for f in came] == ["presence"], came
        assert came[0]["players"][0]["connected"] and came[0]["players"][0]["claimed"]
        assert len(json.dumps(came[0])) < 600, "the seats alone, not the whole table"
        await seat.close()
        went = await drain(first)
        assert [f["type"] for f in went] == ["presence"] and not went[0]["players"][0]["connected"], went
        await first.close()

    asyncio.run(scenario())


def test_a_table_takes_so_many_spectators_and_a_seat_so_many_windows(server: Any) -> None:
    table = dealt(server)

    async def scenario() -> None:
        watching = [await connect(server, table["id"]) for _ in range(5)]
        for ws in watching:
            await ws.send(hello())
            await first_of(ws, "state")
        extra = await connect(server, table["id"])
        await extra.send(hello())
        assert "as many spectators as it takes (5)" in await refused(extra)
        windows = [await connect(server, table["id"]) for _ in range(2)]  # seats are not spectators
        for ws in windows:
            await ws.send(hello(0, table["tokens"][0]))
            await first_of(ws, "state")
        third = await connect(server, table["id"])
        await third.send(hello(0, table["tokens"][0]))
        assert "too many windows (at most 2)" in await refused(third)
        await watching[0].close()
        again = await connect(server, table["id"])  # a place freed is a place taken
        await again.send(hello())
        await first_of(again, "state")
        for ws in [*watching[1:], *windows, again]:
            await ws.close()

    asyncio.run(scenario())


@pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="Debian's chromium is not installed")
def test_the_page_redraws_the_seats_from_a_presence_frame(server: Any) -> None:
    """In Chromium: a spectator's page shows North away, then (from the small frame alone) there, then away."""
    sync_api = pytest.importorskip("playwright.sync_api")
    table = dealt(server)
    came, leave = threading.Event(), threading.Event()

    def north() -> None:  # a person at North, in a thread of its own (the page's API is synchronous)
        async def visit() -> None:
            ws = await connect(server, table["id"])
            await ws.send(hello(0, table["tokens"][0]))
            await first_of(ws, "state")
            came.set()
            await asyncio.to_thread(leave.wait, 30)
            await ws.close()
        asyncio.run(visit())

    away = "document.querySelector('#others').textContent.includes('away')"
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            page = browser.new_context(bypass_csp=True).new_page()
            page.goto(f"{server.url}/t/{table['id']}")
            page.wait_for_function(away, timeout=15_000)
            visitor = threading.Thread(target=north)
            visitor.start()
            assert came.wait(15)
            page.wait_for_function(f"!({away})", timeout=15_000)
            leave.set()
            visitor.join(15)
            page.wait_for_function(away, timeout=15_000)
        finally:
            leave.set()
            browser.close()


# ------------------------------------------------------------------ 2. the hello deadline
def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "hello.db", limits=limits(hello_seconds=0.5)) as srv:
        table = create(srv, "gops", GOPS)

        async def scenario() -> None:
            silent = await connect(srv, table["id"])
            started = time.monotonic()
            assert "say hello within 0.5 seconds" in await refused(silent, timeout=10)
            assert time.monotonic() - started < 5

        asyncio.run(scenario())


# ------------------------------------------------------------------ 3. rates per seat and address, connections
async def pongs(sockets: list[Any], pings: int) -> tuple[int, int]:
    """Send ``pings`` pings on each socket at once; the pongs and the refusals that come back."""
    for ws in sockets:
        for _ in range(pings):
            await ws.send(json.dumps({"type": "ping"}))
    ok = errors = 0
    for ws in sockets:
        for frame in await drain(ws):
            ok += frame["type"] == "pong"
            errors += frame["type"] == "error" and "slow down" in frame["message"]
    return ok, errors


def test_a_seats_windows_share_one_rate_limit(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "seat.db", rate=(0.5, 5), limits=LOOSE) as srv:
        table = create(srv, "gops", GOPS)

        async def scenario() -> None:
            windows = [await connect(srv, table["id"]) for _ in range(2)]
            for ws in windows:
                await ws.send(hello(0, table["tokens"][0]))
                await first_of(ws, "state")
            ok, errors = await pongs(windows, 5)  # each window alone may send 5 at once; together 5 (and the refill)
            assert ok <= 7 and errors >= 3, (ok, errors)
            for ws in windows:
                await ws.close()

        asyncio.run(scenario())


def test_an_addresss_connections_share_one_rate_limit_and_are_capped(tmp_path: Path) -> None:
    loose_rate = limits(address_rate=(0.5, 12), connections_per_address=4)
    with ServerThread(tmp_path / "address.db", rate=(1000, 1000), limits=loose_rate) as srv:
        table = create(srv, "gops", GOPS)

        async def scenario() -> None:
            mine = [await connect(srv, table["id"]) for _ in range(4)]  # four connections: four tokens
            for ws in mine:
                await ws.send(hello())
                await first_of(ws, "waiting")  # (a spectator: nobody has sat down)
            fifth = await connect(srv, table["id"])
            assert "too many connections from your address (at most 4)" in await refused(fifth)
            ok, errors = await pongs(mine, 5)  # 20 pings; the address has 7 tokens left (and the refill)
            assert ok <= 11 and errors >= 9, (ok, errors)
            for _ in range(10):  # reconnecting in a loop: once out of tokens, refused before being accepted
                try:
                    assert "too many connections" in await refused(await connect(srv, table["id"]))
                except websockets.InvalidStatus as exc:
                    assert exc.response.status_code == 403
                    break
            else:
                raise AssertionError("every attempt was accepted to be refused")
            elsewhere = await connect(srv, table["id"], local=OTHER)  # another address: its own budget
            await elsewhere.send(hello())
            await first_of(elsewhere, "waiting")
            assert await pongs([elsewhere], 3) == (3, 0)
            for ws in [*mine, elsewhere]:
                await ws.close()

        asyncio.run(scenario())


def test_a_flood_is_slowed_not_answered_message_by_message(tmp_path: Path) -> None:
    """A connection flooding past its rate waits before each next message is read (at no cost to the
    server) instead of being answered fifty times and closed, to reconnect at once."""
    with ServerThread(tmp_path / "flood.db", rate=(1, 2), limits=LOOSE) as srv:
        table = create(srv, "gops", GOPS)

        async def scenario() -> None:
            ws = await connect(srv, table["id"])
            await ws.send(hello())
            await first_of(ws, "waiting")  # (a spectator: nobody has sat down)
            for _ in range(300):
                await ws.send(json.dumps({"type": "ping"}))
            replies = []
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2.0):
                    while True:
                        replies.append(await ws.recv())
            assert len(replies) <= 15, f"{len(replies)} answers in 2 s: the flood was read at full speed"
            assert ws.close_code is None, "still open: closed, it would come back at once"
            await ws.close()

        asyncio.run(scenario())


# ------------------------------------------------------------------ 4. table creation: a rate, expiry, a cap
def post_table(srv: Any, local: str | None = None) -> httpx.Response:
    transport = httpx.HTTPTransport(local_address=local) if local else None
    with httpx.Client(transport=transport) as client:
        return client.post(srv.url + "/api/tables", json={"game": "gops", "seats": GOPS})


def test_table_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "create.db", limits=limits(new_tables=(0.01, 3))) as srv:
        assert [post_table(srv).status_code for _ in range(3)] == [200, 200, 200]
        r = post_table(srv)
        assert r.status_code == 429 and "too many new tables" in r.json()["error"]
        assert int(r.headers["retry-after"]) >= 1
        assert post_table(srv, local=OTHER).status_code == 200, "another address is not held back"


def test_open_tables_are_capped_per_server(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "cap.db", limits=limits(open_tables=2)) as srv:
        assert [post_table(srv).status_code for _ in range(2)] == [200, 200]
        r = post_table(srv, local=OTHER)
        assert r.status_code == 503 and "as many open tables as it can keep" in r.json()["error"]


def test_tables_nobody_joined_expire(tmp_path: Path) -> None:
    db = tmp_path / "expire.db"
    with ServerThread(db, rate=(1000, 1000), limits=limits(unjoined_seconds=0.5)) as srv:
        nobody = create(srv, "gops", GOPS)
        creator_never_came = create(srv, "gops", [{"kind": "me"}, {"kind": "bot", "level": "easy"}])
        joined = create(srv, "gops", GOPS)
        watched = create(srv, "gops", [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
                         delay=1.0)

        async def scenario() -> None:
            seat = await connect(srv, joined["id"])
            await seat.send(hello(0, joined["tokens"][0]))
            await first_of(seat, "state")
            await seat.close()
            watcher = await connect(srv, watched["id"])
            await watcher.send(hello())
            await first_of(watcher, "state")
            await asyncio.sleep(1.0)
            create(srv, "gops", GOPS)  # a table made: the server looks for expired ones
            store = open_store(db)
            assert store.load_web_table(nobody["id"]) is None
            assert store.load_web_table(creator_never_came["id"]) is None
            assert store.load_web_table(joined["id"]) is not None
            assert store.load_web_table(watched["id"]) is not None, "a table in use stays"
            store.close()
            with pytest.raises(websockets.InvalidStatus):  # no such table (any more)
                await connect(srv, nobody["id"])
            await watcher.close()

        asyncio.run(scenario())


def test_the_store_expires_only_untouched_unjoined_unfinished_tables(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.db")
    person = {"kind": "human", "token": "x", "claimed": False, "joined": False}
    store.create_web_table("nobody", "gops", "{}", [person, {"kind": "bot"}], {}, 0)
    store.create_web_table("joined", "gops", "{}", [{**person, "joined": True}], {}, 0)
    store.create_web_table("old-claimed", "gops", "{}", [{"kind": "human", "claimed": True}], {}, 0)  # no mark
    store.create_web_table("kept", "gops", "{}", [person], {}, 0)
    store.create_web_table("done", "gops", "{}", [person], {}, 0)
    store.save_web_table("done", "{}", expected=0, actions=1,
                         finished={"level": "easy", "human_seat": 0, "winner": 0, "scores": [1, 0]})
    assert store.open_web_tables() == 4
    assert store.expire_web_tables(time.time() - 60) == [], "nothing is that old"
    assert store.expire_web_tables(time.time() + 1, keep={"kept"}) == ["nobody"]
    assert store.open_web_tables() == 3 and store.load_web_table("done") is not None
    store.close()


# ------------------------------------------------------------------ 5. no orphans after kill -9
def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (children's children too), from /proc."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    kids = {int(c) for c in fh.read().split()}
            except OSError:
                continue
            todo += kids - found
            found |= kids
    return found


def alive(pid: int) -> bool:
    """Running, not a zombie waiting for a parent (in a container PID 1 may never reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads the process tree from /proc (Linux)")
def test_killing_the_server_leaves_no_worker_or_resource_tracker_behind(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "parlour.cli", "serve", "--port", str(port),
                             "--db", str(tmp_path / "serve.db")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    below: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while True:  # serving, and its two workers and the resource tracker started
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2)
                if len(descendants(proc.pid)) >= 3:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "the server did not start its workers"
            time.sleep(0.2)
        time.sleep(0.5)  # the workers' initializers have run (the warm-up they were given follows them)
        below = descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(alive(p) for p in below) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in below if alive(p)], "processes outlived the server"
    finally:
        if proc.poll() is None:
            proc.kill()
        for p in below | descendants(proc.pid):  # never leave them to the next test
            if alive(p):
                with contextlib.suppress(OSError):
                    os.kill(p, signal.SIGKILL)


POOL_OF_ONE = """
import concurrent.futures, functools, multiprocessing, os, sys, time
from parlour.lifeline import exit_with_parent
pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                              initializer=functools.partial(exit_with_parent, 0.1, False))
print(pool.submit(os.getpid).result(), flush=True)
pool.submit(time.sleep, 60)
time.sleep(60)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads the process tree from /proc (Linux)")
def test_a_worker_ends_with_its_parent_without_the_kernels_help() -> None:
    """The portable way (a thread watching the parent's pid), on its own: what a platform without prctl has."""
    proc = subprocess.Popen([sys.executable, "-c", POOL_OF_ONE], stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        assert proc.stdout is not None
        worker = int(proc.stdout.readline())
        assert alive(worker)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(worker), "the worker outlived its parent"
    finally:
        if proc.poll() is None:
            proc.kill()
        if worker and alive(worker):
            os.kill(worker, signal.SIGKILL)


def test_the_open_tables_count_is_read_once_a_second_and_counts_the_tables_made_here_meanwhile() -> None:
    """``OpenCount``: the store is asked at most every ``EVERY`` seconds; between, each table made here
    counts, so one process never passes the cap; a table that ended frees its place at the next read."""
    from parlour.web.lobby import OpenCount

    class Store:
        def __init__(self) -> None:
            self.open, self.asked = 1, 0

        def open_web_tables(self) -> int:
            self.asked += 1
            return self.open

        async def from_loop(self, query: Any) -> Any:
            return query()

    store, count = Store(), OpenCount()

    def full() -> bool:
        return asyncio.run(count.full(store, 3))  # type: ignore[arg-type]

    assert not full()
    count.made()
    assert not full()
    count.made()
    store.open = 0  # (the store would say 3; a table ended meanwhile)
    assert full() and store.asked == 1, "the tables made here count before the next read"
    count._read_at = -OpenCount.EVERY  # a second on
    assert not full() and store.asked == 2, "the next read sees the place freed"
