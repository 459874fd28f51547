"""The history and statistics of the browser server: who may see which finished game.

Why a router of its own: a record holds its game's seed, so it reveals every deal.  What the
server hands out is decided here, in one place:

- a person's own games: ``POST /api/my-games`` and ``POST /api/record`` take the seat links
  the browser holds (table, seat, token: in a body, never in a URL that a log keeps), and
  answer only for a seat that token opens; a record only once the game is over;
- the whole database's history and statistics (``GET /api/history``, ``/api/history/{id}``,
  ``/api/stats``): only when the server shares them (``parlour serve --share-history``, on by
  default on a loopback address, where only this machine reaches the server: a player at home
  keeps the history page).  Otherwise they answer 403 and 404, and nothing else names a
  finished game's number.
"""

from __future__ import annotations

import json
import secrets

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..records import from_json
from ..registry import names
from ..store import WebTable
from ..table import Event
from ..text import format_stats, game_result, history_result, narrate
from .jsontext import decode_unique
from .tables import Tables, serving, token_hash

#: Seat links one request may ask about (a browser keeps its latest ones).
MAX_LINKS = 200
NOT_SHARED = "this server does not share its history: your own games are listed from your seat links"


def history_router(share_history: bool) -> APIRouter:
    """The routes above; ``share_history``: whether the whole database's history is shown to anyone."""
    router = APIRouter()

    @router.get("/api/stats")
    async def api_stats(request: Request) -> JSONResponse:
        """The statistics for the lobby (no game numbers: the history page lists those)."""
        if not share_history:
            return JSONResponse({"text": None, "shared": False})
        return JSONResponse({"text": format_stats(serving(request).store.stats()), "shared": True})

    @router.get("/api/history")
    async def api_history(request: Request, game: str | None = None) -> JSONResponse:
        """Finished games (the store ``parlour history`` reads, terminal and browser games alike) and the statistics."""
        if not share_history:
            return JSONResponse({"error": NOT_SHARED, "shared": False}, status_code=403)
        if game is not None and game not in names():
            return JSONResponse({"error": "no such game"}, status_code=404)
        st = serving(request).store
        games = [{**g.as_json(), "result": history_result(g)} for g in st.finished_games(game, limit=200)]
        return JSONResponse({"stats": format_stats(st.stats()), "games": games, "shared": True})

    @router.get("/api/history/{game_id}")
    async def api_history_record(request: Request, game_id: int) -> JSONResponse:
        """One finished game: its record (as ``parlour export`` prints it) and its deals' summaries."""
        record = serving(request).store.finished_record(game_id) if share_history and 0 < game_id < 2**62 else None
        if record is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        return JSONResponse({"id": game_id, "record": json.loads(record), "text": record, "deals": deal_lines(record)})

    @router.post("/api/my-games")
    async def api_my_games(request: Request) -> JSONResponse:
        """The tables these seat links open, each with how it stands (never a record or a game number)."""
        links = await _links(request)
        if isinstance(links, JSONResponse):
            return links
        out = []
        store = serving(request).store
        for table_id, seat, row in _opened(serving(request), links):
            done = store.finished_game(row.finished) if row.finished else None
            record = json.loads(row.record) if done else {}  # who left: its record says (``LiveTable.record``)
            left = [x["seat"] for x in record.get("left", [])]
            result = game_result(len(row.seats), seat, done.winner, done.ended, left=seat in left) \
                if done else "not finished"
            out.append({"table": table_id, "seat": seat, "game": row.game, "actions": row.actions,
                        "ended": done.ended if done else None, "left": left, "result": result,
                        "names": [s.get("name") or "" for s in row.seats], "finished": done is not None,
                        "winner": done.winner if done else None, "scores": done.scores if done else None,
                        "when": done.finished if done else None})
        return JSONResponse({"games": out, "shared": share_history})

    @router.post("/api/record")
    async def api_table_record(request: Request, download: bool = False) -> Response:
        """A finished table's record and deal summaries, for a person who sat at it (its seat link).

        ``download``: the record alone, as the file ``parlour verify`` reads.  Why the stored text
        itself, here and as ``"text"``: its seeds are numbers of up to 77 digits, which a browser's
        JSON numbers would round.
        """
        links = await _links(request, one=True)
        if isinstance(links, JSONResponse):
            return links
        opened = _opened(serving(request), links)
        if not opened:
            return JSONResponse({"error": "this link does not open a seat at that table"}, status_code=403)
        _table_id, _seat, row = opened[0]
        if row.finished is None:
            return JSONResponse({"error": "the record is given to the table's people once the game is over"},
                                status_code=403)
        if download:
            return Response(row.record, media_type="application/json",
                            headers={"Content-Disposition": 'attachment; filename="parlour-game.json"'})
        return JSONResponse({"record": json.loads(row.record), "text": row.record, "deals": deal_lines(row.record)})

    return router


async def _links(request: Request, one: bool = False) -> list[tuple[str, int, str]] | JSONResponse:
    """The seat links of the body (``{"links": [{"table", "seat", "token"}, ...]}``, or one link itself)."""
    try:
        body = decode_unique(await request.body())
        items = [body] if one else body.get("links") if isinstance(body, dict) else None
        if not isinstance(items, list) or len(items) > MAX_LINKS:
            raise ValueError(f"send at most {MAX_LINKS} seat links")
        links = []
        for item in items:
            if not isinstance(item, dict):
                raise ValueError("a seat link is a table, a seat and a token")
            table, seat, token = item.get("table"), item.get("seat"), item.get("token")
            if not isinstance(table, str) or len(table) > 40 or not isinstance(token, str) or len(token) > 64 \
                    or isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 16:
                raise ValueError("a seat link is a table, a seat and a token")
            links.append((table, seat, token))
    except ValueError as exc:
        return JSONResponse({"error": str(exc)[:200]}, status_code=400)
    return links


def _opened(tables: Tables, links: list[tuple[str, int, str]]) -> list[tuple[str, int, WebTable]]:
    """The stored tables whose seat each token opens (compared in constant time), in the links' order."""
    out = []
    for table_id, seat, token in links:
        row = tables.store.load_web_table(table_id)
        if row is None or seat >= len(row.seats):
            continue
        info = row.seats[seat]
        if info.get("kind") == "human" and secrets.compare_digest(token_hash(token), str(info.get("token"))):
            out.append((table_id, seat, row))
    return out


def deal_lines(record: str) -> list[list[str]]:
    """Each scored deal of a finished game, said as line mode and the table say it (``summarize``)."""
    try:
        finished = from_json(record)
    except (ValueError, KeyError, TypeError):
        return []
    game = finished.game
    return [narrate(Event("deal_scored", None, dict(deal)), game.name, game.num_players) for deal in finished.deals]
