"""The history and statistics of the browser server: who may see which finished game.

Why a router of its own: a record holds its game's seed, so it reveals every deal.  What the
server hands out is decided here, in one place:

- a person's own games: ``POST /api/my-games`` and ``POST /api/record`` take the seat links
  the browser holds (table, seat, token: in a body, never in a URL that a log keeps), and
  answer only for a seat that token opens; a record only once the game is over;
- the review of a deal (``POST /api/review`` with a seat link, ``POST /api/history/{id}/review``
  when shared): the person's own seat's only, worked out on request (``web.reviews``);
- the whole database's history and statistics (``GET /api/history``, ``/api/history/{id}``,
  ``/api/stats``): only when the server shares them (``parlour serve --share-history``, on by
  default on a loopback address, where only this machine reaches the server: a player at home
  keeps the history page).  Otherwise they answer 403 and 404, and nothing else names a
  finished game's number.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..records import from_json
from ..registry import names
from ..store import WebTable
from ..table import Event
from ..text import format_stats, game_result, history_result, narrate
from .jsontext import decode_unique
from .limits import peer_address
from .live import Refused
from .reviews import Asked, Busy, deal_asked, frame, reviewing, working_frame
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
        store = serving(request).store
        return JSONResponse({"text": format_stats(store.stats(), store.loss_trends()), "shared": True})

    @router.get("/api/history")
    async def api_history(request: Request, game: str | None = None) -> JSONResponse:
        """Finished games (the store ``parlour history`` reads, terminal and browser games alike) and the statistics."""
        if not share_history:
            return JSONResponse({"error": NOT_SHARED, "shared": False}, status_code=403)
        if game is not None and game not in names():
            return JSONResponse({"error": "no such game"}, status_code=404)
        st = serving(request).store
        games = [{**g.as_json(), "result": history_result(g)} for g in st.finished_games(game, limit=200)]
        return JSONResponse({"stats": format_stats(st.stats(), st.loss_trends()), "games": games, "shared": True})

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
        opened = await _seat_opened(request)
        if isinstance(opened, JSONResponse):
            return opened
        _table_id, _seat, row = opened
        if row.finished is None:
            return JSONResponse({"error": "the record is given to the table's people once the game is over"},
                                status_code=403)
        if download:
            return Response(row.record, media_type="application/json",
                            headers={"Content-Disposition": 'attachment; filename="parlour-game.json"'})
        return JSONResponse({"record": json.loads(row.record), "text": row.record, "deals": deal_lines(row.record)})

    @router.post("/api/review")
    async def api_table_review(request: Request) -> JSONResponse:
        """The review of a deal for the person at a seat (its seat link and the deal: ``{"table", "seat",
        "token", "deal"}``): their own seat's, once the deal has ended (``web.reviews``)."""
        opened = await _seat_opened(request)
        if isinstance(opened, JSONResponse):
            return opened
        table_id, seat, row = opened
        record = json.loads(row.record)
        people = tuple(i for i, s in enumerate(row.seats) if s.get("kind") == "human" and i != seat)
        return await _review(request, (table_id, seat), record, seat, people)

    @router.post("/api/history/{game_id}/review")
    async def api_history_review(request: Request, game_id: int) -> JSONResponse:
        """The review of a deal of a finished game of the shared history (``{"deal"}``), for its player's seat."""
        store = serving(request).store
        text = store.finished_record(game_id) if share_history and 0 < game_id < 2**62 else None
        row = store.finished_game(game_id) if text is not None else None
        if text is None or row is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        seat = row.human_seat if row.human_seat is not None else 0
        return await _review(request, ("address", peer_address(request.scope)), json.loads(text), seat, ())

    return router


async def _review(request: Request, person: tuple[str, int] | tuple[str, str], record: dict[str, Any], seat: int,
                  people: tuple[int, ...]) -> JSONResponse:
    """A review by HTTP: 200 with it when kept, 202 while it is worked out (the page asks again), 503
    when the server is busy, 403 for a deal not over or a refusal."""
    try:
        body = decode_unique(await request.body())
        deals = len(from_json(record).deals)
    except (ValueError, KeyError, TypeError):
        return JSONResponse({"error": "no review of that game"}, status_code=400)
    try:
        deal = deal_asked(body.get("deal") if isinstance(body, dict) else None, deals)
    except Refused as exc:
        return JSONResponse({"status": "refused", "error": str(exc)}, status_code=403)
    reviews = reviewing(request)
    asked = Asked(record, deal, seat, people)
    kept = reviews.kept(asked)
    if kept is not None:
        return JSONResponse(frame(kept, 0))
    try:
        reviews.ask(person, asked)
    except Busy as exc:
        return JSONResponse({"status": "busy", "error": str(exc)}, status_code=503)
    except Refused as exc:
        return JSONResponse({"status": "refused", "error": str(exc)}, status_code=429)
    return JSONResponse(working_frame(deal, 0), status_code=202)


async def _seat_opened(request: Request) -> tuple[str, int, WebTable] | JSONResponse:
    """The stored table and seat the body's one seat link opens, or the answer refusing it."""
    links = await _links(request, one=True)
    if isinstance(links, JSONResponse):
        return links
    opened = _opened(serving(request), links)
    if not opened:
        return JSONResponse({"error": "this link does not open a seat at that table"}, status_code=403)
    return opened[0]


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
