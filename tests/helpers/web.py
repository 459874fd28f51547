"""What the browser-server tests share: creating a table through the lobby's API, and the limits they run under."""

from __future__ import annotations

from typing import Any

import httpx

from parlour.web.limits import Limits

#: Every test client is 127.0.0.1: the per-address caps (and the table-creation rate) raised far
#: above what a test does, as ``rate=`` raises the message rate.
LOOSE = Limits(connections_per_address=10_000, address_rate=(1e6, 1e6), new_tables=(1e6, 1e6))


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
