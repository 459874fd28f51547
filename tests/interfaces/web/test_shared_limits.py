"""The per-address and per-seat limits held for the whole server when it is several processes (``--bus``).

Two servers in this process share one database and the tests' Redis, as in ``test_bus``; every
client here is 127.0.0.1, one address, so what one server let it take the other must count.
Each waits for a look (``RedisLimits.EVERY``) of both servers before it is asked: the limits are
shared a look late, by design.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from helpers.web import LOOSE
from parlour.web.run import ServerThread
from parlour.web.shared_limits import RedisLimits

LOOK = 2.5 * RedisLimits.EVERY  # both servers have looked at least once since
GOPS = {"game": "gops", "seats": [{"kind": "invite"}, {"kind": "bot", "level": "easy"}]}


@pytest.fixture
def pair(redis_server: Any, tmp_path: Any) -> Iterator[tuple[Any, Any]]:
    """Two servers on one database and Redis, with small caps on the one address every client has."""
    import redis

    redis.Redis.from_url(redis_server.url).flushdb()  # no bucket of an earlier test's address
    limits = dataclasses.replace(LOOSE, connections_per_address=3, connections_per_seat=1, new_tables=(1 / 3600, 3))
    db = tmp_path / "shared.db"
    with ServerThread(db, rate=(1000, 1000), limits=limits, bus=redis_server.url) as a, \
            ServerThread(db, rate=(1000, 1000), limits=limits, bus=redis_server.url) as b:
        yield a, b


def new_table(server: Any) -> httpx.Response:
    return httpx.post(server.url + "/api/tables", json=GOPS)


def test_tables_made_through_one_process_count_in_the_other(pair: Any) -> None:
    a, b = pair
    assert [new_table(a).status_code for _ in range(2)] == [200, 200]
    time.sleep(LOOK)
    assert new_table(b).status_code == 200, "the third of three"
    time.sleep(LOOK)
    for server in (b, a):
        refused = new_table(server)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0


async def _opened(url: str, hello: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    ws = await websockets.connect(url)
    with contextlib.suppress(websockets.ConnectionClosed):  # (a connection refused at once is closed)
        await ws.send(json.dumps({"type": "hello", **hello}))
    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return ws, frame


def test_an_addresss_connections_and_a_seats_windows_are_capped_across_processes(pair: Any) -> None:
    a, b = pair
    table = new_table(a).json()
    token = table["links"][0]["url"].split("k=", 1)[1].split("&", 1)[0]
    seat = {"seat": 0, "token": token}

    async def scenario() -> None:
        first, frame = await _opened(f"{a.ws_url}/ws/{table['id']}", seat)
        assert frame["type"] in ("state", "waiting")
        second, frame = await _opened(f"{a.ws_url}/ws/{table['id']}", {"seat": None})
        await asyncio.sleep(LOOK)
        window, frame = await _opened(f"{b.ws_url}/ws/{table['id']}", seat)
        assert frame["type"] == "error" and "too many windows" in frame["message"], frame
        await window.close()
        await asyncio.sleep(LOOK)
        third, frame = await _opened(f"{b.ws_url}/ws/{table['id']}", {"seat": None})
        assert frame["type"] != "error", "the third of three connections"
        await asyncio.sleep(LOOK)
        fourth, frame = await _opened(f"{b.ws_url}/ws/{table['id']}", {"seat": None})
        assert frame["type"] == "error" and "too many connections from your address" in frame["message"], frame
        for ws in (first, second, third, fourth):
            await ws.close()

    asyncio.run(scenario())


def test_a_process_alone_keeps_its_buckets_exact_refill_through_the_looks() -> None:
    """One process, the bucket near full between looks: Redis's level (refilled and capped once a
    look) falls behind, but the bucket takes only the others' spending (none)."""
    from parlour.web.limits import Buckets

    buckets = Buckets((2.0, 6.0))
    bucket = buckets("seat")
    start = bucket.at
    bucket.level, bucket.spent = 5.0, 1.0  # one message taken from a full bucket
    buckets.take_spent()
    buckets.shared("seat", level=5.0, total=1.0, mine=1.0, at=start, lag=0.5)
    bucket.at = start + 0.5
    bucket.level = min(6.0, 5.0 + 0.5 * 2.0)  # refilled to full by the next look; Redis says 5 again
    buckets.shared("seat", level=5.0, total=1.0, mine=0.0, at=start + 0.5, lag=0.5)
    assert bucket.refill(start + 0.5) == 6.0, "the cap's lag at Redis is not taken"


def test_a_process_takes_the_others_spending_off_its_bucket() -> None:
    from parlour.web.limits import Buckets

    buckets = Buckets((2.0, 6.0))
    bucket = buckets("seat")
    at = bucket.at
    buckets.shared("seat", level=2.0, total=4.0, mine=0.0, at=at, lag=0.5)  # first look: the server's level,
    assert bucket.refill() == pytest.approx(3.0, abs=0.05)  # ... and a look's refill it may lag by
    buckets.shared("seat", level=0.0, total=7.0, mine=1.0, at=at, lag=0.5)  # 2 spent elsewhere since
    assert bucket.refill() == pytest.approx(1.0, abs=0.05)
    buckets.shared("seat", level=-6.0, total=30.0, mine=0.0, at=at, lag=0.5)  # a flood elsewhere: a burst of debt
    assert bucket.refill() == pytest.approx(-6.0, abs=0.05)
