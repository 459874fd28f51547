"""What the browser-server tests share: creating a table through the lobby's API."""

from __future__ import annotations

from typing import Any

import httpx


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
