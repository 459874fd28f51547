"""``parlour serve``: the FastAPI app (lobby API, the static page) and the WebSocket play.

Why every check is here and not in the page: the server is the only authority.  A browser
proves its seat with the per-seat token (first WebSocket message, never in a URL the server
logs: the page keeps it in the link's ``#fragment``), every message is checked against a
schema and a size limit and for being legal for *that* seat *now*, each connection has a
rate limit, and a WebSocket from a page of another site (``Origin``) is refused.  What guards
the HTTP layer itself (the ``Host`` names, body sizes, every response's headers) is in ``guard``;
what one client may take beyond that (connections, shared rates, tables) is ``limits.Limits``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import signal
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from ..bots import levels
from ..registry import game_class, names, rules_text
from ..store import Store
from ..text import CardKeys
from . import assets
from .guard import (
    LOOPBACK_NAMES,
    BodyLimit,
    DenialAsClose,
    Guarded,
    Layer,
    SameOrigin,
    SecurityHeaders,
    is_loopback,
    origin_ok,
    quiet_client_faults,
    refused,
    trusted_hosts,
)
from .history import history_router
from .jsontext import decode_unique, encode
from .limits import Accounts, Bucket, Limits, peer_address, take_all
from .paced import PacedWebSockets
from .pubsub import Subscription
from .tables import MAX_DELAY, LiveTable, Refused, Tables, event_from_json
from .views import narrate_events, seat_frame, web_keys

log = logging.getLogger("parlour.web")

MAX_MESSAGE = 2048  # bytes of one incoming WebSocket message
MAX_BODY = 8192  # bytes of a request body (the lobby's form)
# A person sends a move, a hint or an undo: far under two a second over any stretch of play (the
# computer's moves come between theirs), a few at once when they know what to do.  The page keeps
# a bucket a little slower than this one and holds a message back rather than have it refused
# (app.js); at this rate one process serves 200 tables within 100 ms (bench/bench_web_load.py).
RATE = 2.0  # messages per second a connection may send, on average
BURST = 6.0  # ... and at once
FLOOD_AFTER = 5  # messages refused in quick succession: a flood (a page keeping its pace has one or two)
FLOOD_PAUSE = 1.0  # seconds a flooding connection waits before its next message is read
LOG_ON_CONNECT = 80  # announcements sent to a (re)connecting browser
# No permessage-deflate: a frame is a few kilobytes of JSON, and compressing every one cost the
# server about a tenth of its CPU under load (bench/bench_web_load.py); CPU is the scarce thing here.
WS_DEFLATE = False




def games_catalogue() -> list[dict[str, Any]]:
    out = []
    for name in names():
        cls = game_class(name)
        options = [{"name": o.name, "kind": o.kind.__name__, "default": o.default, "help": o.help,
                    "low": o.low, "high": o.high, "choices": list(o.choices) if o.choices else None}
                   for o in cls.OPTIONS]
        out.append({"name": name, "title": cls.title or name, "players": cls.num_players,
                    "description": cls.description, "options": options, "levels": levels(name)})
    return out


def create_app(db: str | Path | None = None, *, workers: int = 2, allowed_origins: set[str] | None = None,
               store: Store | None = None, rate: tuple[float, float] = (RATE, BURST),
               allowed_hosts: Sequence[str] = LOOPBACK_NAMES, share_history: bool = True,
               limits: Limits | None = None, inline: tuple[str, ...] | None = None) -> FastAPI:
    """The whole web application on the saved-games database ``db``.

    ``rate``: messages per second and burst per connection, and per seat (tests driving many
    games raise it); ``limits``: the caps per address, table and server (``Limits``; tests,
    all from 127.0.0.1, raise them).  ``allowed_hosts``: the names accepted in ``Host``
    (``guard.trusted_hosts``), HTTP and WebSocket alike: a request naming another host is
    refused (400; a WebSocket handshake 403) before anything else reads it.  ``share_history``:
    whether the whole database's history and statistics are shown to anyone who reaches the
    server (``web.history``).  ``workers`` and ``inline`` go to ``Tables``: a test that must
    reach the worker pool passes ``inline=()``, as by default the cheap levels play on the
    event loop.
    """
    allowed = set(allowed_origins or ())
    state: dict[str, Tables] = {}
    quiet_client_faults()
    limits = limits or Limits()
    accounts = Accounts(limits, rate)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own = store is None
        st = Store(db) if store is None else store
        tables = Tables(st, workers=workers, inline=inline, unjoined_kept=limits.unjoined_seconds)
        state["tables"] = tables
        try:
            yield
        finally:
            tables.close()
            if own:
                st.close()

    outer: list[Layer] = [
        functools.partial(SecurityHeaders, immutable=assets.prefix()),  # outermost: every response
        DenialAsClose,
        functools.partial(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts), www_redirect=False),
        functools.partial(SameOrigin, allowed=allowed),
        functools.partial(BodyLimit, limit=MAX_BODY),
    ]
    app = Guarded(outer=outer, title="Parlour", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.mount(assets.prefix(), StaticFiles(directory=str(assets.STATIC)), name="static")
    app.mount("/static", StaticFiles(directory=str(assets.STATIC)), name="static-unversioned")  # older pages' links

    def page() -> Response:
        return Response(assets.page(), media_type="text/html")

    @app.get("/")
    async def lobby() -> Response:
        return page()

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> Response:
        return page()

    @app.get("/api/games")
    async def api_games() -> list[dict[str, Any]]:
        return games_catalogue()

    @app.get("/api/rules/{game}")
    async def api_rules(game: str) -> PlainTextResponse:
        if game not in names():
            return PlainTextResponse("no such game", status_code=404)
        return PlainTextResponse(rules_text(game) or "No rules page.")

    @app.get("/history")
    async def history_page() -> Response:
        return page()

    app.include_router(history_router(share_history))

    @app.get("/api/keys/{game}")
    async def api_keys(game: str) -> JSONResponse:
        if game not in names():
            return JSONResponse({"error": "no such game"}, status_code=404)
        return JSONResponse(web_keys(game))

    @app.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        address = peer_address(request.scope)
        if not accounts.may_create(address):
            return JSONResponse({"error": "too many new tables from your address: try again in a minute"},
                                status_code=429, headers={"Retry-After": str(accounts.retry_after(address))})
        if state["tables"].store.open_web_tables() >= limits.open_tables:
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
            table_id, tokens = state["tables"].create(game, options, wanted, open_hands=bool(body.get("open")),
                                                      delay=delay, takeover=takeover)
        except (ValueError, TypeError) as exc:
            return JSONResponse({"error": str(exc)[:300]}, status_code=400)
        links = [{"seat": i, "kind": seats[i].get("kind"), "url": f"/t/{table_id}#seat={i}&k={tok}"}
                 for i, tok in enumerate(tokens) if tok is not None]
        return JSONResponse({"id": table_id, "links": links, "watch": f"/t/{table_id}"})

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        if not origin_ok(websocket.headers.get("origin"), websocket.headers.get("host"), allowed):
            await websocket.close(code=1008)
            return
        tables = state["tables"]
        live = tables.get(table_id)
        if live is None:
            await websocket.close(code=1008)
            return
        address = peer_address(websocket.scope)
        refused = accounts.connect(address)
        if refused is not None and not refused.answered:
            await websocket.close(code=1008)
            return
        try:
            await websocket.accept()
            if refused is not None:
                await websocket.send_text(encode({"type": "error", "message": refused.message}))
                await websocket.close(code=1008)
                return
            await Connection(websocket, tables, live, Bucket(*rate), accounts, address).run()
        finally:
            if refused is None:
                accounts.disconnect(address)

    app.state.parlour = state
    return app


class Connection:
    """One browser (or scripted client) at one table, as one seat or as a spectator."""

    def __init__(self, websocket: WebSocket, tables: Tables, live: LiveTable, bucket: Bucket,
                 accounts: Accounts, address: str) -> None:
        self.ws = websocket
        self.tables = tables
        self.live = live
        self.seat: int | None = None
        self.bucket = bucket
        self.accounts = accounts
        self.address = address
        self.seat_bucket: Bucket | None = None  # shared by every connection of this seat (``Accounts``)
        self.sent_count = -1
        self.sub: Subscription | None = None
        self.card_keys = CardKeys()  # this browser's keys bound to cards, for the deal (as at the terminal)
        self.frame_memo: dict[str, Any] = {}  # texts kept between this connection's frames (``seat_frame``)
        self.waited = False  # a "waiting" frame was sent: the first frame of the dealt table is a full one

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_text(encode(frame))

    async def error(self, message: str) -> None:
        await self.send({"type": "error", "message": message})

    async def refuse(self, message: str) -> None:
        """Say why, then close with 1008 (a policy violation: the page shows the reason and retries slowly)."""
        await self.error(message)
        await self.ws.close(code=1008)

    async def run(self) -> None:
        limits = self.accounts.limits
        try:
            try:
                async with asyncio.timeout(limits.hello_seconds):  # no task of its own, as wait_for makes
                    hello = await self.receive()
            except TimeoutError:
                await self.refuse(f"say hello within {limits.hello_seconds:g} seconds")
                return
            if hello is None or hello.get("type") != "hello":
                await self.refuse("say hello first")
                return
            live = self.live
            before = live.players()
            if hello.get("seat") is not None:
                try:
                    self.seat = self.tables.seat_for(live, hello.get("seat"), hello.get("token"))
                except Refused as exc:
                    await self.refuse(str(exc))
                    return
                if live.connected.get(self.seat, 0) >= limits.connections_per_seat:
                    await self.refuse(f"this seat is open in too many windows (at most {limits.connections_per_seat})")
                    return
                try:
                    self.tables.claim(live, self.seat, hello.get("name"), hello.get("client_seed"))
                except Refused as exc:  # a malformed client seed: the seat stays as it was
                    await self.refuse(str(exc))
                    return
                self.seat_bucket = self.accounts.by_seat((live.id, self.seat))
            elif live.watchers - sum(live.connected.values()) >= limits.spectators_per_table:
                await self.refuse(f"this table has as many spectators as it takes ({limits.spectators_per_table})")
                return
            self.presence(+1)
            sub = self.sub = self.tables.pubsub.subscribe(live.id)
            self.tables.watch(live, +1)
            try:
                await self.send_state(narrate_events(live.recent(LOG_ON_CONNECT), live.game,
                                                     live.num_players, self.seat), full=True)
                await self.publish_presence(before)
                reader = asyncio.create_task(self.read_loop())
                try:
                    async for message in sub:
                        await self.on_published(message)
                        if reader.done():
                            break
                finally:
                    reader.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await reader
            finally:
                sub.close()
                before = self.live.players()
                self.presence(-1)
                self.tables.watch(self.live, -1)
                await self.publish_presence(before)
        except WebSocketDisconnect:
            return
        finally:
            self._let_go()

    async def publish_presence(self, before: list[dict[str, Any]]) -> None:
        """Tell the table's other connections of a change of its seats (a person came or went), if any.

        Why only the seats, and only on a change: every connection used to answer a join or a
        leave with a whole frame of its own, so 300 spectators cost 45,000 frames; a spectator
        changes no seat, and a seat's change is one small frame that every connection forwards.
        """
        players = self.live.players()
        if players != before:
            await self.tables.pubsub.publish(self.live.id, {"count": self.live.count, "players": players})

    def _let_go(self) -> None:
        """Let go of the table as the connection ends.

        Why: a closed connection's objects often sit in reference cycles (a cancelled reader
        task, an exception's frames) until the garbage collector's rare full collection; holding
        the table from there kept every finished table in memory until then (``Tables.watch``
        drops it), and made that collection long enough to stall every other table.
        """
        self.frame_memo.clear()
        self.sub = None
        with contextlib.suppress(AttributeError):
            del self.live

    def presence(self, delta: int) -> None:
        if self.seat is not None:
            self.tables.presence(self.live, self.seat, delta)

    async def receive(self) -> dict[str, Any] | None:
        """The next message, checked against the schema and the size limit (None: not acceptable).

        A binary frame ends the connection (1003, after an error frame, one log line): this
        protocol is JSON text, and a client sending bytes is not one of ours.
        """
        received = await self.ws.receive()
        if received["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(received.get("code", 1000), received.get("reason"))
        text = received.get("text")
        if not isinstance(text, str):
            refused(self.ws.scope, "a binary WebSocket frame")
            await self.error("messages are JSON text")
            await self.ws.close(code=1003)
            raise WebSocketDisconnect(1003)
        if len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
            await self.error("message too large")
            return None
        try:
            message = decode_unique(text)
        except ValueError:  # not JSON, or a key given twice (which one would count?)
            await self.error("a message is a JSON object")
            return None
        if not isinstance(message, dict) or not _schema_ok(message):
            await self.error("unknown message")
            return None
        return message

    async def read_loop(self) -> None:
        """Read and answer messages, each one within the connection's, the seat's and the address's rates.

        Why a flood is slowed rather than closed: after a refusal or two (a page that lost its
        pace), messages refused in quick succession make the connection wait ``FLOOD_PAUSE``
        before its next is read, so the flood waits in its own socket buffers, at no CPU cost here.  A
        connection closed instead is reconnected at once, and until its closing handshake ends
        the server still parses everything the flooder sends (up to ten seconds: uvicorn).
        """
        refused = 0  # refusals lately (less one for each message taken)
        try:
            while True:
                message = await self.receive()
                if not take_all(self.bucket, self.seat_bucket, self.accounts.by_address(self.address)):
                    refused += 1
                    await self.error("too many messages: slow down")
                    if refused >= FLOOD_AFTER:
                        await asyncio.sleep(FLOOD_PAUSE)
                    continue
                refused = max(0, refused - 1)  # a flood stays one until it has kept its rate a while
                if message is not None:
                    await self.handle(message)
        finally:
            if self.sub is not None:  # ends the publish loop: the connection ends with its reader
                self.sub.close()

    async def handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "ping":
            await self.send({"type": "pong"})
            return
        if kind == "speed":  # a demo's watchers may change its speed too
            try:
                self.tables.set_delay(self.live, self.seat, message.get("delay"))
            except Refused as exc:
                await self.error(str(exc))
                return
            await self.tables.pubsub.publish(self.live.id, {"count": self.live.count, "events": [], "presence": True})
            return
        if self.seat is None:
            await self.error("spectators watch: they cannot act")
            return
        live = self.live
        try:
            if kind == "act":
                await self.tables.act(live, self.seat, message.get("action"))
            elif kind == "hint":
                await self.send({"type": "hint", "action": self.tables.hint(live, self.seat)})
            elif kind == "replay":
                await self.tables.replay(live, self.seat)
            elif kind == "undo":
                await self.tables.undo(live, self.seat)
            elif kind == "demo":
                await self.tables.toggle_demo(live, self.seat)
            else:
                await self.error("unknown message")
        except Refused as exc:
            await self.error(str(exc))

    async def on_published(self, message: dict[str, Any]) -> None:
        live = self.tables.live.get(self.live.id)
        if live is None or live is not self.live:  # reloaded after a refused write: resynchronise
            reloaded = self.tables.get(self.live.id)
            if reloaded is None:
                return
            self.tables.watch(reloaded, +1)  # the old one is gone from memory: its count no longer matters
            self.live = reloaded
            await self.send_state([], full=True)
            return
        if message.get("count", -1) < 0:
            return
        if "players" in message:  # the seats alone (``publish_presence``): the page redraws them
            if self.waited and live.table is not None:  # ... unless the last person sat down: the deal
                await self.send_state([], full=True)
            else:
                await self.send({"type": "presence", "players": message["players"]})
            return
        events = [event_from_json(e) for e in message.get("events", [])]
        lines = narrate_events(events, live.game, live.num_players, self.seat)
        await self.send_state(lines)

    async def send_state(self, lines: list[str], *, full: bool = False) -> None:
        live = self.live
        if not self.tables.save_pending(live):  # nothing is drawn from a table before it is saved
            await self.tables.pubsub.publish(live.id, {"count": -1, "events": []})  # reloaded: resynchronise
            return
        if live.table is None:  # not dealt: the people are still taking their seats
            self.waited = True
            await self.send({"type": "waiting", "table": live.id, "seat": self.seat, "game": live.game,
                             "title": game_class(live.game).title or live.game, "players": live.players(),
                             "commitment": live.commitment})
            return
        full = full or self.waited
        self.waited = False
        frame = seat_frame(live.table, self.seat, count=live.count, lines=lines, players=live.players(),
                           table_id=live.id, can_undo=self.tables.can_undo(live, self.seat),
                           card_keys=self.card_keys, memo=self.frame_memo)
        frame["can_replay"] = frame["can_replay"] and self.tables.solo(live, self.seat) if self.seat is not None \
            else False
        frame["full"] = full
        if full:
            frame["keys_help"] = web_keys(live.game)
            frame["rate"] = [self.bucket.rate, self.bucket.burst]  # the page paces itself by it (app.js)
        frame["delay"] = min(float(live.settings.get("delay", 0.0)), MAX_DELAY)
        frame["finished"] = live.finished
        frame["commitment"] = live.commitment  # shown from the start; what it commits to comes after the game
        frame["proof"] = live.revealed(self.seat)
        frame["demo"] = self.seat in live.demo if self.seat is not None else False
        frame["can_speed"] = (self.tables.solo(live, self.seat) if self.seat is not None
                              else all(s["kind"] == "bot" for s in live.seats))
        self.sent_count = live.count
        await self.send(frame)


_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"type": str, "seat": (int, type(None)), "token": (str, type(None)), "name": (str, type(None)),
              "client_seed": (str, type(None))},
    "act": {"type": str, "action": str},
    "hint": {"type": str},
    "replay": {"type": str},
    "undo": {"type": str},
    "ping": {"type": str},
    "speed": {"type": str, "delay": (int, float)},
    "demo": {"type": str},
}
_LIMITS = {"token": 64, "name": 60, "action": 64, "client_seed": 32}


def _schema_ok(message: dict[str, Any]) -> bool:
    fields = _FIELDS.get(str(message.get("type")))
    if fields is None:
        return False
    for key, value in message.items():
        kind = fields.get(key)
        if kind is None or not isinstance(value, kind) or isinstance(value, bool):
            return False
        if isinstance(value, str) and len(value) > _LIMITS.get(key, 16):
            return False
    return True


#: The collector's thresholds for a long-running server (see ``_tune_gc``).
GC_THRESHOLDS = (1_000, 50, 20)


def _tune_gc() -> None:
    """Short pauses for a long-running server process: the garbage collector's and cold caches'.

    Why: every pause stalls every table, and the p99 latency under load is made of them
    (bench/bench_web_load.py, 200 tables).  Each game's computer players are imported and,
    where a bots module has a ``warm_up`` hook (Le Truc's fills its play-out caches: about
    1.5 s), warmed now rather than on the tables' time; then all of it is frozen out of the
    collector's sight.  The youngest generation is collected every 1,000 net allocations (its
    pauses stay at a few milliseconds: at 20,000 they grew to 30-50 ms), the middle one every
    50 of those, so that it rarely holds much; tables dropped from memory once nobody watches
    them (``Tables.watch``), and their logs kept encoded (``LiveTable.remember``), keep the old
    generation small.
    """
    import gc

    from ..registry import part

    for name in names():
        levels(name)  # imports its computer players
        part(name, "text")
        warm_up = getattr(part(name, "bots"), "warm_up", None)
        if callable(warm_up):
            warm_up()  # a game's inline players fill their caches now, not on the tables' time
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def uvicorn_settings(proxies: Sequence[str] = ()) -> dict[str, Any]:
    """uvicorn's settings for this server (``serve`` and ``run.ServerThread`` alike).

    Why each: no ``Server`` header (it names the software to whoever probes for it); a
    forwarded client address (``X-Forwarded-For``) believed only from the ``proxies`` named,
    none by default, where uvicorn's own default believes 127.0.0.1 (so anything on this
    machine could claim any address); WebSocket frames of at most twice a message, parsed only
    as the app reads them (``paced``).
    """
    return {"log_level": "warning", "server_header": False, "proxy_headers": True,
            "forwarded_allow_ips": list(proxies), "ws_max_size": MAX_MESSAGE * 2,
            "ws_per_message_deflate": WS_DEFLATE, "ws": PacedWebSockets}


def history_is_shared(host: str, asked: bool | None) -> bool:
    """``--share-history``'s default: on for a loopback address, where only this machine reaches the server."""
    return is_loopback(host) if asked is None else asked


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, *, workers: int = 2,
          allowed_hosts: Sequence[str] = (), proxies: Sequence[str] = (), share_history: bool | None = None,
          limits: Limits | None = None) -> int:
    """Run the server until interrupted (``parlour serve``).

    ``allowed_hosts``: the names people type to reach it (``--allowed-host``), needed when
    ``host`` is not a loopback address (a ValueError otherwise); ``proxies``: the addresses of
    the reverse proxies whose ``X-Forwarded-For`` is believed (``--proxy``).  ``share_history``
    (``--share-history``/``--no-share-history``): None shares it on a loopback address only,
    where nobody but this machine reaches the server.  ``limits``: the defaults unless given.
    """
    import uvicorn

    hosts = trusted_hosts(host, allowed_hosts)  # refuses, in one line, a public address without names
    # Fail here, in one line, if the database cannot be used (before uvicorn starts).
    Store(db).close()
    app = create_app(db, workers=workers, allowed_hosts=hosts, share_history=history_is_shared(host, share_history),
                     limits=limits)
    print("Getting the computer players ready...", flush=True)
    _tune_gc()
    name = host if is_loopback(host) or not allowed_hosts else allowed_hosts[0]  # not 0.0.0.0: a name it answers to
    shown = f"[{name}]" if ":" in name else name
    print(f"Parlour is serving at http://{shown}:{port}/ (Ctrl+C stops it)", flush=True)
    # uvicorn stops gracefully on Ctrl+C (every table saved, the pool and the store closed), then
    # raises the signal again for the handler it found.  That was asyncio's, which on uvloop
    # interrupted a task and logged a traceback; this one lets the stop end quietly.
    previous = signal.signal(signal.SIGINT, _stopped)
    try:
        uvicorn.run(app, host=host, port=port, **uvicorn_settings(proxies))
    finally:
        signal.signal(signal.SIGINT, previous)
    print("Parlour has stopped serving.", flush=True)
    return 0


def _stopped(signum: int, frame: object) -> None:
    """Ctrl+C once uvicorn has stopped (or, in the instant before it starts, nothing to do)."""
