"""The event bus on Redis (``--bus``): two servers on one database, the people of one table on different ones.

Each test runs on both stores (``pair`` and ``database`` are parametrised by backend): the bus's
reloads and the lease's compare-and-sets go through the store.

Both servers run in this process (``ServerThread``), each with its own tables, its own Redis
connection and its own view of the table, so what one learns of the other's moves it learns
through Redis and the store only.  (The test of separate processes, killed, is in
``test_processes``.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from helpers.leaks import play_and_check
from helpers.postgres import BACKENDS
from helpers.web import LOOSE, create, stored
from parlour.web.run import ServerThread

RATE = (10_000.0, 10_000.0)


@pytest.fixture(scope="module", params=BACKENDS)
def pair(request: pytest.FixtureRequest, redis_server: Any,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    """Two servers sharing one database, of each backend, and the tests' Redis."""
    if request.param == "sqlite":
        db: Any = tmp_path_factory.mktemp("bus") / "shared.db"
    else:
        cluster = request.getfixturevalue("postgres_cluster")
        db = cluster.new_database()
        request.addfinalizer(lambda: cluster.drop(db))
    with ServerThread(db, rate=RATE, limits=LOOSE, bus=redis_server.url) as a, \
            ServerThread(db, rate=RATE, limits=LOOSE, bus=redis_server.url) as b:
        yield a, b


class Heard:
    """Every message published on the bus, read by a client of its own (``psubscribe``)."""

    def __init__(self, url: str) -> None:
        import redis

        self.messages: list[bytes] = []
        self._pubsub = redis.Redis.from_url(url).pubsub()
        self._pubsub.psubscribe("parlour:*")
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._stop = False
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            message = self._pubsub.get_message(timeout=0.05)
            if message and message["type"] == "pmessage":
                self.messages.append(message["data"])

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=5)
        self._pubsub.close()


async def hello(url: str, seat: int, token: str) -> Any:
    ws = await websockets.connect(url)
    await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
    return ws


async def next_state(ws: Any, frames: list[dict[str, Any]], timeout: float = 15) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        while True:
            frame = json.loads(await ws.recv())
            frames.append(frame)
            if frame["type"] == "state":
                return frame
    return await asyncio.wait_for(read(), timeout)


async def play(ws: Any, seat: int, until: int, frames: list[dict[str, Any]],
               frame: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``seat`` (its first legal choice) until the table has ``until`` actions or is over;
    ``frame``: the last state frame already read (play goes on from it)."""
    acted = -1
    while True:
        frame = frame or await next_state(ws, frames)
        view = frame["view"]
        if frame["count"] >= until or view["current_player"] is None:
            return frame
        if view["current_player"] == seat and view.get("legal_actions") and acted != frame["count"]:
            acted = frame["count"]
            await ws.send(json.dumps({"type": "act", "action": view["legal_actions"][0]}))
        frame = None


def test_the_people_of_one_table_on_two_servers_see_each_others_moves(pair: Any, redis_server: Any) -> None:
    a, b = pair
    table = create(a, "truc", [{"kind": "invite"}, {"kind": "invite"}])
    heard = Heard(redis_server.url)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], list[Any], list[Any]]:
        fa: list[dict[str, Any]] = []
        fb: list[dict[str, Any]] = []
        wa = await hello(f"{a.ws_url}/ws/{table['id']}", 0, table["tokens"][0])
        wb = await hello(f"{b.ws_url}/ws/{table['id']}", 1, table["tokens"][1])
        try:
            last = await asyncio.wait_for(asyncio.gather(play(wa, 0, 12, fa), play(wb, 1, 12, fb)), 60)
        finally:
            await wa.close()
            await wb.close()
        return last[0], last[1], fa, fb

    try:
        end_a, end_b, fa, fb = asyncio.run(scenario())
    finally:
        heard.close()
    assert end_a["count"] >= 12 and end_b["count"] >= 12, "each server's person saw the other's moves"
    for frames, seat in ((fa, 0), (fb, 1)):
        states = [f for f in frames if f["type"] == "state"]
        assert all(f["seat"] == seat and f["view"]["seat"] == seat for f in states), "only the seat's own view"
        counts = [f["count"] for f in states]
        assert counts == sorted(counts), f"seat {seat}'s frames come in action-count order: {counts}"
    # the moves of the other server were told as moves (narrated), not only drawn
    assert any("plays" in line for f in fb if f["type"] == "state" for line in f["log"])
    assert heard.messages, "the servers talked through Redis"
    for raw in heard.messages:
        assert b'"hand"' not in raw and b"token" not in raw and b'"view"' not in raw, raw[:200]
    for raw in heard.messages:  # a private move is told without its card
        message = json.loads(raw)["m"]
        for event in message.get("events", []):
            if event["kind"] == "action" and event["data"].get("private"):
                assert event["data"]["action"] is None


def test_healthz_reports_the_bus(pair: Any) -> None:
    answer = httpx.get(pair[0].url + "/healthz")
    assert answer.status_code == 200 and answer.json() == {"store": "ok", "bus": "ok"}


def test_redis_away_for_a_moment_loses_no_client(database: str) -> None:
    from helpers.redis import RedisServer, why_not

    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    redis = RedisServer().start()
    db = database
    try:
        with ServerThread(db, rate=RATE, limits=LOOSE, bus=redis.url) as a, \
                ServerThread(db, rate=RATE, limits=LOOSE, bus=redis.url) as b:
            table = create(a, "truc", [{"kind": "invite"}, {"kind": "invite"}])

            async def scenario() -> None:
                fa: list[dict[str, Any]] = []
                fb: list[dict[str, Any]] = []
                wa = await hello(f"{a.ws_url}/ws/{table['id']}", 0, table["tokens"][0])
                wb = await hello(f"{b.ws_url}/ws/{table['id']}", 1, table["tokens"][1])
                try:
                    first = {0: await next_state(wa, fa), 1: await next_state(wb, fb)}
                    mover = first[0]["view"]["current_player"]
                    ws, frames, other, others = (wa, fa, wb, fb) if mover == 0 else (wb, fb, wa, fa)
                    server = a if mover == 0 else b
                    legal = first[mover]["view"]["legal_actions"]
                    redis.stop()

                    async def said_reconnecting() -> None:
                        while True:
                            frame = json.loads(await other.recv())
                            others.append(frame)
                            if frame["type"] == "reconnecting":
                                return
                    await asyncio.wait_for(said_reconnecting(), 10)
                    health = await asyncio.to_thread(httpx.get, server.url + "/healthz")
                    assert health.status_code == 503 and health.json()["bus"] == "unavailable"
                    await ws.send(json.dumps({"type": "act", "action": legal[0]}))
                    moved = await next_state(ws, frames)
                    while moved["count"] < 1:
                        moved = await next_state(ws, frames)
                    time.sleep(0.3)  # the other server cannot hear of it meanwhile
                    redis.start()
                    caught_up = await next_state(other, others, timeout=15)
                    while caught_up["count"] < moved["count"] or not caught_up["full"]:
                        caught_up = await next_state(other, others, timeout=15)  # reloaded: a whole frame
                    health = await asyncio.to_thread(httpx.get, server.url + "/healthz")
                    assert health.status_code == 200, health.text
                finally:
                    await wa.close()
                    await wb.close()

            asyncio.run(scenario())
    finally:
        redis.close()


def _tables(server: Any) -> Any:
    return server.app.state.parlour["tables"]


def test_one_process_runs_a_tables_computer_players_and_another_takes_over_when_it_stops(
        pair: Any, redis_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Server a is made to stop renewing its leases for this test only (``monkeypatch``): the pair of
    servers is the module's, and a that never held a lease again made every later test's tables run by b."""
    import redis

    from parlour import from_json

    a, b = pair
    table = create(a, "truc", [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}], delay=0.05)
    key = f"parlour:lease:{table['id']}"
    client = redis.Redis.from_url(redis_server.url)

    async def watch(server: Any, frames: list[dict[str, Any]]) -> Any:
        ws = await websockets.connect(f"{server.ws_url}/ws/{table['id']}")
        await ws.send(json.dumps({"type": "hello"}))
        await next_state(ws, frames)
        return ws

    async def until(ws: Any, frames: list[dict[str, Any]], count: int) -> dict[str, Any]:
        frame = frames[-1]
        while frame["type"] != "state" or frame["count"] < count:
            frame = await next_state(ws, frames)
        return frame

    async def scenario() -> tuple[int, list[dict[str, Any]]]:
        fa: list[dict[str, Any]] = []
        fb: list[dict[str, Any]] = []
        wa = await watch(a, fa)
        async with asyncio.timeout(5):  # a runs it before b loads it (else their first looks race, under load)
            while not _tables(a).computers.leases.holds(table["id"]):
                await asyncio.sleep(0.02)
        wb = await watch(b, fb)
        try:
            await until(wb, fb, 4)
            assert client.get(key) == _tables(a).computers.leases.mark.encode(), "the first to load it runs it"
            leases = _tables(a).computers.leases

            async def nothing(table_ids: list[str]) -> set[str]:
                return set()

            monkeypatch.setattr(leases, "_look", nothing)  # a no longer renews its leases (as if it hung) ...
            leases._held.clear()  # ... and it stops moving (it would at the lease's margin)
            await asyncio.sleep(0.3)  # what a had saved before it stopped has reached b meanwhile
            row = stored(a.db, lambda store: store.load_web_table(table["id"]))
            assert row is not None
            stopped = row.actions
            await until(wb, fb, stopped + 6)  # b took over: the computers play on
            assert client.get(key) == _tables(b).computers.leases.mark.encode()
            return stopped, fb
        finally:
            await wa.close()
            await wb.close()

    started = time.monotonic()
    stopped, frames = asyncio.run(scenario())
    assert time.monotonic() - started < 15
    counts = [f["count"] for f in frames if f["type"] == "state"]
    assert counts == sorted(counts)
    row = stored(a.db, lambda store: store.load_web_table(table["id"]))
    assert row is not None
    state = from_json(row.record)  # the record replays: every move once, each legal where it stands
    assert len(state.actions) == row.actions >= stopped + 6


def test_a_person_connected_to_another_process_is_present_and_no_computer_takes_their_seat(pair: Any) -> None:

    a, b = pair
    table = create(a, "truc", [{"kind": "invite"}, {"kind": "invite"}], takeover={"level": "easy", "after": 2})

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        fa: list[dict[str, Any]] = []
        fb: list[dict[str, Any]] = []
        wa = await hello(f"{a.ws_url}/ws/{table['id']}", 0, table["tokens"][0])
        wb = await hello(f"{b.ws_url}/ws/{table['id']}", 1, table["tokens"][1])

        async def read(ws: Any, into: list[dict[str, Any]]) -> None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2.6):  # past the grace period (2 s: more than a look at the presence)
                    while True:
                        into.append(json.loads(await ws.recv()))
        try:
            await asyncio.gather(read(wa, fa), read(wb, fb))
        finally:
            await wa.close()
            await wb.close()
        return fa, fb

    fa, fb = asyncio.run(scenario())
    for frames in (fa, fb):
        players = [f["players"] for f in frames if f.get("players")][-1]
        assert [p["connected"] for p in players] == [True, True], "each sees the other, served elsewhere, connected"
        assert all(p["stand_in"] is None for f in frames if f.get("players") for p in f["players"])
    row = stored(a.db, lambda store: store.load_web_table(table["id"]))
    assert row is not None and row.actions == 0, "no computer played the seat of a person who is there"


def test_frames_across_processes_never_carry_a_card_the_seat_could_not_know(pair: Any) -> None:
    """The frame-leak test (``test_server``) with each table's people on two servers: every frame a
    seat gets from the server that did not make the move is its true view, built there from the store."""
    counts = {"games": 0, "frames": 0, "card_mentions": 0}
    per_game: dict[str, int] = {}
    for index, (game, humans, options) in enumerate([("truc", 2, {}), ("sixbid", 3, {"chips": 10}),
                                                     ("schafkopf", 2, {"target": 1})]):
        play_and_check(list(pair), game, humans, options, 500 + index * 10, counts, per_game)
    assert counts["games"] == 3 and counts["frames"] > 100


def test_the_computer_plays_for_a_person_who_asked_through_a_process_that_does_not_run_the_table(pair: Any) -> None:
    a, b = pair
    table = create(a, "truc", [{"kind": "invite"}, {"kind": "invite"}])

    async def scenario() -> dict[str, Any]:
        fa: list[dict[str, Any]] = []
        fb: list[dict[str, Any]] = []
        wa = await hello(f"{a.ws_url}/ws/{table['id']}", 0, table["tokens"][0])
        wb = await hello(f"{b.ws_url}/ws/{table['id']}", 1, table["tokens"][1])
        try:
            await next_state(wa, fa)
            await next_state(wb, fb)
            for ws in (wa, wb):  # F2 on both: whichever process runs the table plays both seats
                await ws.send(json.dumps({"type": "demo"}))
            frame = fa[-1]
            while frame["count"] < 10 and frame["view"]["current_player"] is not None:
                frame = await next_state(wa, fa, timeout=10)
            return frame
        finally:
            await wa.close()
            await wb.close()

    frame = asyncio.run(scenario())
    assert frame["count"] >= 10 or frame["view"]["current_player"] is None


def test_a_demo_whose_note_the_bus_lost_is_played_by_the_process_that_runs_the_table(pair: Any,
                                                                                     redis_server: Any) -> None:
    """A demo is kept in the store, not only told in a note: the note is lost on its way to the lease
    owner (Redis drops what is published before a subscription takes effect, or while it is away), and
    the owner still plays that seat once it reads the table again (here: as its own person asks a demo)."""
    import redis

    a, b = pair
    table = create(a, "truc", [{"kind": "invite"}, {"kind": "invite"}])
    client = redis.Redis.from_url(redis_server.url)

    async def scenario() -> dict[str, Any]:
        frames: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
        sockets = (await hello(f"{a.ws_url}/ws/{table['id']}", 0, table["tokens"][0]),
                   await hello(f"{b.ws_url}/ws/{table['id']}", 1, table["tokens"][1]))
        try:
            for ws, into in zip(sockets, frames, strict=True):
                await next_state(ws, into)
            async with asyncio.timeout(5):
                while (holder := client.get(f"parlour:lease:{table['id']}")) is None:
                    await asyncio.sleep(0.02)
            owner = 0 if holder == _tables(a).computers.leases.mark.encode() else 1
            bus = _tables(pair[owner]).pubsub
            heard = bus._remote

            async def deaf(topic: str, message: dict[str, Any]) -> None:
                if not message.get("presence"):  # the owner never hears a note
                    await heard(topic, message)

            bus._remote = deaf
            try:
                await sockets[1 - owner].send(json.dumps({"type": "demo"}))
                await asyncio.sleep(0.3)  # the note was published and lost meanwhile
            finally:
                bus._remote = heard
            await sockets[owner].send(json.dumps({"type": "demo"}))
            frame = frames[owner][-1]
            while frame["count"] < 10 and frame["view"]["current_player"] is not None:
                frame = await next_state(sockets[owner], frames[owner], timeout=10)
            return frame
        finally:
            for ws in sockets:
                await ws.close()

    frame = asyncio.run(scenario())
    assert frame["count"] >= 10 or frame["view"]["current_player"] is None
    row = stored(a.db, lambda store: store.load_web_table(table["id"]))
    assert row is not None and all(seat.get("demo") for seat in row.seats), "both demos are in the store"


def test_a_table_watched_by_one_process_alone_is_not_sent_and_a_newcomer_still_hears_every_move(pair: Any) -> None:
    """Both people on ``a``: once Redis says ``a``'s messages reach nobody else, ``a`` stops sending them
    (``RedisPubSub._heard_by``); a spectator on ``b`` subscribes, says so, and sees the table as it
    stands and every move after, though some were made while nothing was sent."""
    a, b = pair
    table = create(a, "truc", [{"kind": "invite"}, {"kind": "invite"}])
    bus = _tables(a).pubsub

    async def scenario() -> tuple[int, dict[str, Any]]:
        fa: list[dict[str, Any]] = []
        fb: list[dict[str, Any]] = []
        w0 = await hello(f"{a.ws_url}/ws/{table['id']}", 0, table["tokens"][0])
        w1 = await hello(f"{a.ws_url}/ws/{table['id']}", 1, table["tokens"][1])
        try:
            last0, last1 = await asyncio.wait_for(asyncio.gather(play(w0, 0, 8, fa), play(w1, 1, 8, fb)), 60)
            for _ in range(100):
                if table["id"] in bus._alone:
                    break
                await asyncio.sleep(0.05)
            alone = table["id"] in bus._alone
            spectator = await websockets.connect(f"{b.ws_url}/ws/{table['id']}")
            await spectator.send(json.dumps({"type": "hello", "seat": None}))
            seen: list[dict[str, Any]] = []
            await next_state(spectator, seen)
            await asyncio.wait_for(asyncio.gather(play(w0, 0, 16, fa, last0), play(w1, 1, 16, fb, last1)), 60)
            last = await next_state(spectator, seen)
            while last["count"] < 16 and last["view"]["current_player"] is not None:
                last = await next_state(spectator, seen)
            await spectator.close()
        finally:
            await w0.close()
            await w1.close()
        return alone, last

    alone, last = asyncio.run(scenario())
    assert alone, "a table whose watchers are all on one process is not sent to Redis"
    assert last["count"] >= 16 or last["view"]["current_player"] is None, "the spectator on b saw every move"


def test_a_table_alone_before_its_subscription_is_confirmed_sends_again_and_pokes_at_the_confirmation() -> None:
    """A message that reached nobody, on a channel asked for and not yet confirmed, makes the table alone
    at once (its next messages are not sent); at the confirmation it sends again and pokes the others,
    since a hello said meanwhile by a process that subscribed before us could not reach us.  After the
    confirmation an answer of none says nothing (it was sent before): the table stays as it was."""
    from parlour.web.bus import HELLO, POKE, PREFIX, RedisPubSub

    bus = RedisPubSub("redis://127.0.0.1:1/0")  # never connected: the steps are driven by hand
    posted: list[tuple[str, dict[str, Any]]] = []
    bus._post = lambda topic, message: posted.append((topic, message))  # type: ignore[method-assign]
    bus._heard_by("t", 0, 0)
    assert "t" not in bus._alone, "a channel not asked for yet tells nothing"
    bus._subscribed = {"t", "u"}
    bus._heard_by("t", 0, 0)
    assert "t" in bus._alone
    asyncio.run(bus._confirmed({"channel": (PREFIX + "t").encode()}))
    assert posted == [("t", HELLO), ("t", POKE)] and "t" not in bus._alone
    bus._heard_by("t", 0, 0)
    assert "t" not in bus._alone, "a late answer of none, after the confirmation, makes nothing alone"
    asyncio.run(bus._confirmed({"channel": (PREFIX + "u").encode()}))
    assert posted[-1] == ("u", HELLO), "a table never alone only says hello"


def test_an_answer_of_one_to_a_message_sent_before_our_subscription_was_confirmed_makes_nothing_alone() -> None:
    """A message that reached Redis before our subscription did (asked for late, or made again by redis-py
    after a dropped connection) reached one subscriber that was not us: another process listens.  Counted
    as alone, the table's next moves were not sent until our hello's answer came, and one made meanwhile
    never reached the other process."""
    from parlour.web.bus import PREFIX, RedisPubSub

    bus = RedisPubSub("redis://127.0.0.1:1/0")  # never connected: the steps are driven by hand
    bus._post = lambda topic, message: None  # type: ignore[method-assign]
    bus._subscribed = {"t"}
    for _ in range(2):  # subscribed, then made again
        sent = bus._joins.get("t", 0)  # a message sent now, before the confirmation: answered after it
        asyncio.run(bus._confirmed({"channel": (PREFIX + "t").encode()}))
        bus._heard_by("t", 1, sent)
        assert "t" not in bus._alone, "the one it reached was another process"
        bus._heard_by("t", 1, bus._joins["t"])
        assert "t" in bus._alone, "sent once we listened, the one it reached was us"
        bus._alone.clear()


async def _swallowing_work() -> None:
    """A Redis call as redis-py sometimes makes it: a cancellation landing inside it is lost (its
    issues 2028, 2551), the call returns as if nothing had happened."""
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.sleep(10)


def test_a_background_loop_stops_when_its_redis_call_swallowed_the_cancellation() -> None:
    """One ``cancel()`` stops a ``periodic`` loop even when the call it was in lost the cancellation:
    otherwise ``ended`` (and with it a server's graceful stop) waited for it for ever."""
    from parlour.web.bus import periodic

    calls: list[int] = []

    async def work() -> None:
        calls.append(1)
        if len(calls) == 1:
            await _swallowing_work()
        else:
            await asyncio.sleep(10)

    async def scenario() -> bool:
        task = periodic(0.0, work, "swallowing", "test")
        await asyncio.sleep(0.05)  # inside its first work
        task.cancel()
        await asyncio.wait({task}, timeout=2)
        stopped = task.cancelled()
        task.cancel()  # (a loop that went on is in its second work now: this one is heard)
        await asyncio.wait({task}, timeout=2)
        return stopped

    assert asyncio.run(scenario())


def test_ended_asks_again_and_gives_up_on_a_task_that_never_stops(monkeypatch: pytest.MonkeyPatch,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    from parlour.web import bus

    monkeypatch.setattr(bus, "END_WAIT", 0.05)

    deafness = [True]

    async def deaf() -> None:  # loses every cancellation, while ``deafness`` holds
        while deafness[0]:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(10)

    async def once_deaf() -> None:  # loses the first one only
        await _swallowing_work()
        await asyncio.sleep(10)

    async def scenario() -> tuple[bool, float]:
        once = asyncio.get_running_loop().create_task(once_deaf())
        never = asyncio.get_running_loop().create_task(deaf(), name="deaf")
        await asyncio.sleep(0)
        await bus.ended(once)
        started = time.monotonic()
        await bus.ended(never)
        took = time.monotonic() - started
        deafness[0] = False  # (so that the test's own loop can end)
        never.cancel()
        return once.cancelled(), took

    with caplog.at_level("WARNING", logger="parlour.web"):
        stopped, took = asyncio.run(scenario())
    assert stopped, "asked again, a task that lost one cancellation stops"
    assert took < 2, "a task that never stops is given up"
    assert "the background task deaf did not stop" in caplog.text
