"""The pages and the game catalogue of the browser server: what a browser reads before it sits down.

Why a router of its own: these answer the same to everyone and change nothing (the lobby, a
table's page, the history page, the games with their options and levels, rules, keys).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from ..bots import levels
from ..cards import is_card
from ..registry import game_class, names, rules_text
from . import assets
from .views import web_keys


def games_catalogue() -> list[dict[str, Any]]:
    out = []
    for name in names():
        cls = game_class(name)
        options = [{"name": o.name, "kind": o.kind.__name__, "default": o.default, "help": o.help,
                    "low": o.low, "high": o.high, "choices": list(o.choices) if o.choices else None}
                   for o in cls.OPTIONS]
        out.append({"name": name, "title": cls.title or name, "players": cls.num_players,
                    "description": cls.description, "options": options, "levels": levels(name),
                    "fan": fan(cls.PACK)})
    return out


def fan(pack: Sequence[str]) -> list[str]:
    """Three cards of a game's own pack, drawn as a fan on its lobby tile: the highest (last in the
    pack's order) of each of its first three suits, or a one-suit pack's last three.

    Why from the pack: generic code names no game, and the fan then shows each game's own cards
    (a 7 to A pack, GOPS's diamonds) without an image file.
    """
    cards = [c for c in pack if is_card(c)]
    suits = list(dict.fromkeys(c[1] for c in cards))
    if len(suits) < 3:
        return cards[-3:]
    return [[c for c in cards if c[1] == suit][-1] for suit in suits[:3]]


def pages_router() -> APIRouter:
    """The routes above (every page is the one ``index.html``; the page reads its path)."""
    router = APIRouter()

    def page() -> Response:
        return Response(assets.page(), media_type="text/html")

    @router.get("/")
    async def lobby() -> Response:
        return page()

    @router.get("/favicon.ico")
    async def favicon() -> Response:
        """The page names its icon (``favicon.svg``); this answers whatever asks the old place anyway."""
        return Response((assets.STATIC / "favicon.svg").read_bytes(), media_type="image/svg+xml",
                        headers={"cache-control": "public, max-age=86400"})

    @router.get("/t/{table_id}")
    async def table_page(table_id: str) -> Response:
        return page()

    @router.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        return games_catalogue()

    @router.get("/api/rules/{game}")
    async def api_rules(game: str) -> PlainTextResponse:
        if game not in names():
            return PlainTextResponse("no such game", status_code=404)
        return PlainTextResponse(rules_text(game) or "No rules page.")

    @router.get("/history")
    async def history_page() -> Response:
        return page()

    @router.get("/api/keys/{game}")
    async def api_keys(game: str) -> JSONResponse:
        if game not in names():
            return JSONResponse({"error": "no such game"}, status_code=404)
        return JSONResponse(web_keys(game))

    return router
