"""What the browser-server tests share: creating a table through the lobby's API, and the limits they run under."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx

from parlour.cli import main as cli_main
from parlour.store import Store, open_store
from parlour.web.limits import Limits

#: Every test client is 127.0.0.1: the per-address caps (and the table-creation rate) raised far
#: above what a test does, as ``rate=`` raises the message rate.
LOOSE = Limits(connections_per_address=10_000, address_rate=(1e6, 1e6), new_tables=(1e6, 1e6))


def stored(database: Any, read: Callable[[Store], Any]) -> Any:
    """What ``read`` finds in the database (a path or a URL), through a store opened and closed for it."""
    store = open_store(database)
    try:
        return read(store)
    finally:
        store.close()


def create(server: Any, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A new table (no pause between computer moves); ``tokens``: seat -> the secret of its invite link."""
    r = httpx.post(server.url + "/api/tables", json={"game": game, "seats": seats, "delay": 0, **extra})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    out["tokens"] = {}
    for link in out["links"]:
        frag = dict(p.split("=", 1) for p in link["url"].split("#", 1)[1].split("&"))
        out["tokens"][int(frag["seat"])] = frag["k"]
    return out


async def frames_until(ws: Any, done: Callable[[dict[str, Any]], bool], into: list[dict[str, Any]],
                       timeout: float = 30) -> dict[str, Any]:
    """Read frames (kept in ``into``) until one satisfies ``done``; returns it."""
    async def read() -> dict[str, Any]:
        while True:
            frame = json.loads(await ws.recv())
            into.append(frame)
            if done(frame):
                return frame
    return await asyncio.wait_for(read(), timeout)


def parlour_history(db: Any, capsys: Any) -> str:
    """What ``parlour history`` prints for the database ``db`` (``capsys``: the test's capture)."""
    capsys.readouterr()
    assert cli_main(["history", "--db", str(db)]) == 0
    return str(capsys.readouterr().out)
