"""The table API of the browser server: a new table from the lobby's form.

Why a router of its own: creating a table is the one request that costs the server storage,
so it is where the per-address creation limit and the cap of open tables are kept
(``limits.Limits``); the table itself is ``Tables.create``'s.
"""

from __future__ import annotations

import time

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..registry import names
from ..store import Store
from .jsontext import decode_unique
from .limits import Accounts, Limits, peer_address
from .tables import serving


class OpenCount:
    """The store's count of unfinished tables (``Limits.open_tables``), read at most every ``EVERY`` seconds.

    Why not on every new table: the count is a query over the whole table of tables, and on a
    database server a round trip that held the event loop (the load bench at 200 tables on
    PostgreSQL: 16 new tables a second, 0.7 ms each).  Between two reads the tables made here are
    added, and none that ended is taken off, so in one process the cap holds exactly or early;
    the other processes' new tables count from the next read, a second later at most.
    """

    EVERY = 1.0

    def __init__(self) -> None:
        self._count = 0
        self._read_at: float | None = None  # (none yet: the first new table asks the store)

    async def full(self, store: Store, cap: int) -> bool:
        """Whether the server holds ``cap`` unfinished tables already."""
        now = time.monotonic()
        if self._read_at is None or now - self._read_at >= self.EVERY:
            self._count, self._read_at = await store.from_loop(store.open_web_tables), now
        return self._count >= cap

    def made(self) -> None:
        """A table was made here since the last read."""
        self._count += 1


def lobby_router(accounts: Accounts, limits: Limits) -> APIRouter:
    """``POST /api/tables``: the table, its seat links (one per person) and the spectators' link."""
    router = APIRouter()
    open_count = OpenCount()

    @router.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        address = peer_address(request.scope)
        if not accounts.may_create(address):
            return JSONResponse({"error": "too many new tables from your address: try again in a minute"},
                                status_code=429, headers={"Retry-After": str(accounts.retry_after(address))})
        if await open_count.full(serving(request).store, limits.open_tables):
            return JSONResponse({"error": "this server has as many open tables as it can keep: try again later"},
                                status_code=503, headers={"Retry-After": "60"})
        try:
            body = decode_unique(await request.body())  # ValueError: not JSON, not UTF-8, a repeated key
            if not isinstance(body, dict):
                raise ValueError("a table is a JSON object")
            game = body.get("game")
            if game not in names():
                raise ValueError("choose one of the games")
            options = body.get("options") or {}
            seats = body.get("seats")
            if not isinstance(options, dict) or not isinstance(seats, list):
                raise ValueError("options and seats are needed")
            mine = [i for i, s in enumerate(seats) if isinstance(s, dict) and s.get("kind") == "me"]
            if len(mine) > 1:
                raise ValueError("you can take one seat")
            wanted = []
            for s in seats:
                if not isinstance(s, dict):
                    raise ValueError("each seat is a person or a computer player")
                kind = s.get("kind")
                if kind == "me":
                    wanted.append({"kind": "human", "claimed": True, "name": body.get("name")})
                elif kind == "invite":
                    wanted.append({"kind": "human"})
                else:
                    wanted.append({"kind": "bot", "level": s.get("level", "easy")})
            delay = body.get("delay", 0.5)
            takeover = body.get("takeover")  # None: an absent person's seat waits for them
            table_id, tokens = await serving(request).create(game, options, wanted, open_hands=bool(body.get("open")),
                                                            delay=delay, takeover=takeover)
        except (ValueError, TypeError) as exc:
            return JSONResponse({"error": str(exc)[:300]}, status_code=400)
        open_count.made()
        links = [{"seat": i, "kind": seats[i].get("kind"), "url": f"/t/{table_id}#seat={i}&k={tok}"}
                 for i, tok in enumerate(tokens) if tok is not None]
        return JSONResponse({"id": table_id, "links": links, "watch": f"/t/{table_id}"})

    return router
