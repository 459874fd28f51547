"""``GET /healthz``: whether this server process can reach what it needs, for a proxy or an orchestrator.

Why a route of its own: a proxy in front of several server processes (or an orchestrator
restarting them) must send people only to a process that can save their moves.  It answers
200 with ``{"store": "ok", "bus": "ok"}``, or 503 naming what is ``"unavailable"``.  The cause
goes to the server's log only: the route answers whoever reaches the server, and a database's
address or user is nobody else's business.  The bus is asked too: in process it is always
there; on Redis (``--bus``) it must answer a ping.
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..store import StoreError
from .tables import serving

log = logging.getLogger("parlour.web")


def health_router() -> APIRouter:
    router = APIRouter()

    @router.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        store = "ok"
        tables = serving(request)
        try:
            tables.store.ping()
        except StoreError as exc:
            log.warning("health check: the store is unavailable: %s", exc)
            store = "unavailable"
        bus = "ok" if await tables.pubsub.ping() else "unavailable"  # (the bus logs why)
        ok = store == "ok" and bus == "ok"
        return JSONResponse({"store": store, "bus": bus}, status_code=200 if ok else 503)

    return router
