"""The WebSocket play of the browser server: one ``Connection`` per browser at a table.

Why every check is here and not in the page: the server is the only authority.  A browser
proves its seat with the per-seat token (first WebSocket message, never in a URL the server
logs: the page keeps it in the link's ``#fragment``), every message is checked against a
schema and a size limit and for being legal for *that* seat *now*, each connection has a
rate limit (shared with its seat's and its address's: ``limits``), and a WebSocket from a page
of another site (``Origin``) is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..keyseq import kept, step
from ..registry import game_class
from ..text import CardKeys, refuse_action
from .guard import origin_ok, refused
from .jsontext import decode_unique, encode
from .limits import Accounts, Bucket, peer_address, take_all
from .live import LiveTable, Refused, event_from_json
from .pubsub import Subscription
from .reviews import Asked, deal_asked, reviewing, working_frame
from .reviews import frame as review_frame
from .tables import LEFT, MAX_DELAY, Tables, serving
from .views import ended_frame, narrate_events, seat_frame, web_keys

log = logging.getLogger("parlour.web")

MAX_MESSAGE = 2048  # bytes of one incoming WebSocket message
# A person sends a move, a hint or an undo: far under two a second over any stretch of play (the
# computer's moves come between theirs), a few at once when they know what to do.  The page keeps
# a bucket a little slower than this one and holds a message back rather than have it refused
# (app.js); at this rate one process serves 200 tables within 100 ms (bench/bench_web_load.py).
RATE = 2.0  # messages per second a connection may send, on average
BURST = 6.0  # ... and at once
FLOOD_AFTER = 5  # messages refused in quick succession: a flood (a page keeping its pace has one or two)
FLOOD_PAUSE = 1.0  # seconds a flooding connection waits before its next message is read
LOG_ON_CONNECT = 80  # announcements sent to a (re)connecting browser
RECONNECTING = "Reconnecting to the other servers; the table comes back as it stands."


def play_router(accounts: Accounts, rate: tuple[float, float], allowed: set[str]) -> APIRouter:
    """``/ws/{table_id}``: a browser at a table (``allowed``: other origins whose pages may connect)."""
    router = APIRouter()

    @router.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        if not origin_ok(websocket.headers.get("origin"), websocket.headers.get("host"), allowed):
            await websocket.close(code=1008)
            return
        tables = serving(websocket)
        live = await tables.load(table_id)
        if live is None:
            await websocket.close(code=1008)
            return
        address = peer_address(websocket.scope)
        refused = accounts.connect(address, await accounts.elsewhere("address", address))
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

    return router


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
        self.sub: Subscription | None = None
        self.card_keys = CardKeys(live.game)  # this browser's card keys, by the terminal's rule (parlour.text)
        self.frame_memo: dict[str, Any] = {}  # texts kept between this connection's frames (``seat_frame``)
        self.waited = False  # a "waiting" frame was sent: the first frame of the dealt table is a full one
        self.bound: dict[str, str] = {}  # card -> key of this page's hand, as its last frame showed them

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
                windows = live.connected.get(self.seat, 0) + await self.accounts.elsewhere("seat", (live.id, self.seat))
                if windows >= limits.connections_per_seat:
                    await self.refuse(f"this seat is open in too many windows (at most {limits.connections_per_seat})")
                    return
                try:
                    await self.tables.claim(live, self.seat, hello.get("name"), hello.get("client_seed"))
                except Refused as exc:  # a malformed client seed: the seat stays as it was
                    await self.refuse(str(exc))
                    return
                self.seat_bucket = self.accounts.by_seat((live.id, self.seat))
            elif live.spectators + await self.accounts.elsewhere("spectators", live.id) >= limits.spectators_per_table:
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
                action, reason = self.tables.hint(live, self.seat)
                await self.send({"type": "hint", "action": action, "reason": reason, "count": live.count})
            elif kind == "replay":
                await self.tables.replay(live, self.seat)
            elif kind == "undo":
                await self.tables.undo(live, self.seat)
            elif kind == "demo":
                await self.tables.toggle_demo(live, self.seat)
            elif kind == "resign":
                await self.tables.resign(live, self.seat)
            elif kind == "keys":
                await self.type_keys(live, self.seat, message["keys"])
            elif kind == "leave":
                await self.tables.leave(live, self.seat)
                await self.send({"type": "left", "message": LEFT})  # this page goes back to the lobby
            elif kind == "review":
                await self.review(message.get("deal"))
            else:
                await self.error("unknown message")
        except Refused as exc:
            await self.error(str(exc))

    async def review(self, deal: object) -> None:
        """This person's review of a deal that has ended (their own seat's only): sent at once when
        kept, else worked out in the pool while they play on, and sent to this connection when ready."""
        live = self.live
        seat = self.seat
        assert seat is not None
        asked = Asked(live.dealt.state.record(), deal_asked(deal, len(live.dealt.state.deals)), seat,
                      tuple(i for i, s in enumerate(live.seats) if s["kind"] == "human" and i != seat))
        reviews = reviewing(self.ws)
        found = reviews.kept(asked)
        if found is not None:
            await self.send(review_frame(found, live.count))
            return
        future = reviews.ask((live.id, seat), asked)
        await self.send(working_frame(asked.deal, live.count))

        async def answer() -> None:
            try:
                data = await future
                await self.send(review_frame(data, self.live.count))
            except Refused as exc:
                await self.error(str(exc))
            except (WebSocketDisconnect, RuntimeError, AttributeError):
                pass  # the connection closed meanwhile: the review is kept, asking again gives it at once

        task = asyncio.get_running_loop().create_task(answer())
        reviews.tasks.add(task)
        task.add_done_callback(reviews.tasks.discard)

    async def type_keys(self, live: LiveTable, seat: int, typed: str) -> None:
        """The keys typed so far of a choice made with several (``x a s``, ``b 5``; ``""``: Esc), decoded
        as the terminal decodes them (``keyseq.step``, with this page's card keys): answered with what
        to say and the keys that stand; once complete, the choice is made (or refused, with the
        engine's reason).  Why here and not in the page: the words and the rules are
        ``parlour.text``'s, and the page kept a copy of them.
        """
        table = live.dealt
        legal = table.state.legal_actions() if table.to_move == seat else []
        hand = set(self.bound)
        status, said = step(live.game, typed, self.bound, [a for a in legal if a not in hand], table.state.game.PACK)
        answer = {"type": "keys", "keys": typed, "typed": kept(status, typed), "said": said, "error": False}
        if status == "done":
            answer["said"] = ""
            if said in legal:
                try:
                    await self.tables.act(live, seat, said)
                except Refused as exc:
                    answer.update(said=str(exc), error=True)
            else:
                answer.update(said=refuse_action(said, table.state.why_not(said) or ""), error=True)
        elif status == "refused":
            answer["error"] = True
        await self.send(answer)

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
        if "bus" in message:  # the bus between processes is lost: another's moves may not reach us meanwhile
            await self.send({"type": "reconnecting", "message": RECONNECTING})
            return
        if message.get("full"):  # rebuilt from the store (another process's undo, a gap): a whole frame
            await self.send_state([], full=True)
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
        while live.saved != live.count:  # nothing is drawn from a table before it is saved (moves made meanwhile too)
            if not await self.tables.send_unsent(live):
                return  # reloaded: every browser was told to resynchronise
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
        if live.ended is not None:
            ended_frame(frame, live.ended)
        # a person may resign the game, alone against the computer too (it is then a game lost, not one
        # left unfinished); leaving the seat to a computer is for a table with other people, who play on
        with_people = self.seat is not None and not self.tables.solo(live, self.seat)
        frame["can_resign"] = self.seat is not None and not live.over
        frame["can_leave"] = with_people and not live.over and bool(live.settings.get("takeover"))
        frame["commitment"] = live.commitment  # shown from the start; what it commits to comes after the game
        frame["proof"] = live.revealed(self.seat)
        frame["demo"] = self.seat in live.demo if self.seat is not None else False
        frame["can_speed"] = (self.tables.solo(live, self.seat) if self.seat is not None
                              else all(s["kind"] == "bot" for s in live.seats))
        self.bound = frame["card_keys"]
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
    "resign": {"type": str},
    "leave": {"type": str},
    "review": {"type": str, "deal": int},
    "keys": {"type": str, "keys": str},
}
_LIMITS = {"token": 64, "name": 60, "action": 64, "client_seed": 32, "keys": 8}


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


