"""The browser tables: each one a ``parlour.table.Table`` saved in the store after every action.

Why this layer apart from the web server: it is the authority on a table (who may act, what
is legal, the bots' turns, saving) and is tested without a browser.  It keeps no state the
store does not hold: a table in memory is a cache of its stored record, every save is a
compare-and-set on the action count (a stale writer is refused and reloads, never merges),
and every change is announced through the ``PubSub`` interface.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import json
import logging
import multiprocessing
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, levels, make
from ..engine import REPLAY_DEAL, UNDO, IllegalAction, undo_count
from ..registry import game_class, load
from ..store import Store
from ..table import CannotUndo, Event, NotYourTurn, Table
from .pubsub import LocalPubSub, PubSub

log = logging.getLogger("parlour.web")

MAX_DELAY = 3.0  # seconds between computer moves, at most
EVENTS_KEPT = 300  # events kept in memory per table for a (re)connecting browser's log


class Refused(ValueError):
    """An incoming request that changes nothing; ``str()`` is said to that browser."""


def token_hash(token: str) -> str:
    """Tokens are stored hashed: the database alone never lets anyone take a seat."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _bot_act(game: str, level: str, view: dict[str, Any], seed: int) -> str:
    """A computer player's choice, in a worker (a fresh bot: it sees only this view)."""
    return make(game, level).act(view, random.Random(seed))


def _warm_up() -> None:
    """Import every game's bots in a new worker, so the first moves of a table do not wait for it."""
    from ..registry import names, part

    for name in names():
        part(name, "bots")


@dataclass
class LiveTable:
    id: str
    game: str
    table: Table
    seats: list[dict[str, Any]]  # kind human|bot, level, name, token (hash), claimed
    settings: dict[str, Any]
    count: int
    finished: int | None = None
    events: list[Event] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    advancing: bool = False
    connected: dict[int, int] = field(default_factory=dict)  # seat -> open connections (presence only)

    def players(self) -> list[dict[str, Any]]:
        """The seats as every browser may see them: never a token."""
        return [{"kind": s["kind"], "level": s.get("level"), "name": s.get("name") or "",
                 "claimed": bool(s.get("claimed")), "connected": self.connected.get(i, 0) > 0}
                for i, s in enumerate(self.seats)]


def _table_for(game: str, record: dict[str, Any], seats: list[dict[str, Any]],
               open_hands: bool) -> tuple[Table, list[Event]]:
    """Rebuild a table from its record, with the events that told its story (for the log)."""
    g = load(game, **record.get("options", {}))
    state = g.new_state(seed=record["seed"], deck=record.get("deck"), dealer=record.get("dealer"))
    players: list[Bot | None] = [make(game, s["level"]) if s["kind"] == "bot" else None for s in seats]
    table = Table(state, players, open_hands=open_hands)
    events: list[Event] = []
    for action in record.get("actions", []):
        if action == REPLAY_DEAL:
            table.state.replay_deal()
            events.append(Event("replay", None, {"dealer": state.dealer, "deal": len(state.deals) + 1}))
        elif action.startswith(UNDO):
            n = undo_count(action)
            table.state.undo(n)
            events.append(Event("undo", None, {"count": n}))
        else:
            events += table.play(action)
    return table, events[-EVENTS_KEPT:]


def event_json(event: Event) -> dict[str, Any]:
    return {"kind": event.kind, "seat": event.seat, "data": event.data}


def event_from_json(data: dict[str, Any]) -> Event:
    return Event(data["kind"], data["seat"], data["data"])


class Tables:
    """Every table of this server process, backed by ``store``; bots run in ``pool``."""

    def __init__(self, store: Store, *, pubsub: PubSub | None = None, workers: int = 2) -> None:
        self.store = store
        self.pubsub: PubSub = pubsub or LocalPubSub()
        self.live: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # Processes, not threads: a strong bot thinking holds the GIL and would stall the event loop.
        self.pool: concurrent.futures.Executor
        if workers > 0:
            self.pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
            for _ in range(workers):
                self.pool.submit(_warm_up)
        else:
            self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)

    # -- making and finding tables --------------------------------------------------------
    def create(self, game: str, options: dict[str, Any], seats: list[dict[str, Any]], *,
               open_hands: bool = False, delay: float = 0.0, seed: int | None = None) -> tuple[str, list[str | None]]:
        """A new table; returns its id and each seat's token (None for a computer player's seat).

        ``seats``: one dict per seat, ``{"kind": "human"}`` (``"name"`` optional, ``"claimed"``
        true for the creator's own seat) or ``{"kind": "bot", "level": L}``.
        """
        cls = game_class(game)
        g = cls(**options)  # ValueError names a bad option
        if len(seats) != cls.num_players:
            raise Refused(f"{cls.title} needs {cls.num_players} seats")
        if not isinstance(delay, int | float) or isinstance(delay, bool) or not 0 <= delay <= MAX_DELAY:
            raise Refused(f"the computer's delay must be 0 to {MAX_DELAY:g} seconds")
        stored: list[dict[str, Any]] = []
        tokens: list[str | None] = []
        for seat in seats:
            if seat.get("kind") == "bot":
                level = seat.get("level", "easy")
                if level not in levels(game):
                    raise Refused(f"unknown level {str(level)[:20]!r}; {cls.title} offers {', '.join(levels(game))}")
                stored.append({"kind": "bot", "level": level, "name": f"computer ({level})"})
                tokens.append(None)
            elif seat.get("kind") == "human":
                token = secrets.token_urlsafe(16)  # 128 random bits
                stored.append({"kind": "human", "level": None, "name": _name(seat.get("name")),
                               "token": token_hash(token), "claimed": bool(seat.get("claimed"))})
                tokens.append(token)
            else:
                raise Refused("each seat is a person or a computer player")
        state = g.new_state(seed=seed)
        table_id = secrets.token_urlsafe(9)
        settings = {"open": bool(open_hands), "delay": float(delay)}
        self.store.create_web_table(table_id, game, state.to_json(), stored, settings, 0)
        return table_id, tokens

    def get(self, table_id: str) -> LiveTable | None:
        """The table, from memory or from the store (after a restart, or another process's write)."""
        if not isinstance(table_id, str) or len(table_id) > 40:
            return None
        live = self.live.get(table_id)
        if live is not None:
            return live
        row = self.store.load_web_table(table_id)
        if row is None:
            return None
        record = json.loads(row["record"])
        table, events = _table_for(row["game"], record, row["seats"], bool(row["settings"].get("open")))
        live = LiveTable(table_id, row["game"], table, row["seats"], row["settings"], row["actions"],
                         row["finished"], events)
        self.live[table_id] = live
        self.kick(live)
        return live

    def reload(self, live: LiveTable) -> LiveTable | None:
        """Forget the cached table (a write was refused: another writer got there first) and load it again."""
        self.live.pop(live.id, None)
        return self.get(live.id)

    def seat_for(self, live: LiveTable, seat: object, token: object) -> int:
        """The seat this token opens; ``Refused`` for anything else (compared in constant time)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(live.seats):
            raise Refused("no such seat")
        info = live.seats[seat]
        if info["kind"] != "human" or not isinstance(token, str) or len(token) > 64:
            raise Refused("this link does not open that seat")
        if not secrets.compare_digest(token_hash(token), info["token"]):
            raise Refused("this link does not open that seat")
        return seat

    def claim(self, live: LiveTable, seat: int, name: object) -> None:
        info = live.seats[seat]
        changed = not info.get("claimed")
        info["claimed"] = True
        if isinstance(name, str) and name.strip() and _name(name) != info.get("name"):
            info["name"] = _name(name)
            changed = True
        if changed:
            self.store.save_web_seats(live.id, live.seats)

    # -- acting ---------------------------------------------------------------------------
    async def act(self, live: LiveTable, seat: int, action: object) -> None:
        """A person's action for their own seat; ``Refused`` (nothing changed) unless legal for it now."""
        if not isinstance(action, str) or not action or len(action) > 64:
            raise Refused("an action is a short text")
        table = live.table
        if live.finished is not None or table.is_over:
            raise Refused("the game is over")
        if table.to_move != seat:
            raise Refused("it is not your turn")
        if action not in table.state.legal_actions():
            reason = ""
            try:
                table.state.apply(action)  # raises: not in the legal list; gives the engine's reason
            except IllegalAction as exc:
                reason = exc.why
            raise Refused(f"{action} is not a legal move now" + (f": {reason}" if reason else ""))
        await self._apply(live, seat, action)
        self.kick(live)

    def solo(self, live: LiveTable, seat: int) -> bool:
        """Whether ``seat`` plays alone against computer players (then undo and replay are allowed)."""
        return all(s["kind"] == "bot" for i, s in enumerate(live.seats) if i != seat)

    async def replay(self, live: LiveTable, seat: int) -> None:
        """Deal the previous deal's pack again (only against computer players: it changes everyone's cards)."""
        if not self.solo(live, seat) or live.finished is not None:
            raise Refused("a deal can be replayed only at a table against computer players")
        async with live.lock:
            before = live.count
            try:
                events = live.table.replay_deal()
            except (CannotUndo, ValueError) as exc:
                raise Refused(str(exc)) from None
            await self._commit(live, before, events)
        self.kick(live)

    async def undo(self, live: LiveTable, seat: int) -> None:
        """Take back ``seat``'s last move and the computer's replies (only against computer players)."""
        if not self.solo(live, seat) or live.finished is not None:
            raise Refused("a move can be taken back only at a table against computer players")
        async with live.lock:
            before = live.count
            try:
                events = live.table.undo(seat)
            except CannotUndo as exc:
                raise Refused(str(exc)) from None
            await self._commit(live, before, events)
        self.kick(live)

    def can_undo(self, live: LiveTable, seat: int | None) -> bool:
        if seat is None or live.finished is not None or not self.solo(live, seat):
            return False
        try:
            live.table.undo_count(seat)
        except CannotUndo:
            return False
        return True

    def hint(self, live: LiveTable, seat: int) -> str:
        try:
            return live.table.hint(seat)
        except NotYourTurn as exc:
            raise Refused(str(exc)) from None

    async def _apply(self, live: LiveTable, seat: int, action: str, expect: int | None = None) -> bool:
        async with live.lock:
            if live.table.to_move != seat or live.table.is_over or (expect is not None and live.count != expect):
                return False
            before = live.count
            try:
                events = live.table.play(action, seat)
            except (IllegalAction, NotYourTurn) as exc:
                raise Refused(str(exc)) from None
            return await self._commit(live, before, events)

    async def _commit(self, live: LiveTable, before: int, events: list[Event]) -> bool:
        """Save after an action (compare-and-set on the count), then announce it."""
        state = live.table.state
        count = len(state.actions)
        finished = None
        if state.is_over:
            humans = [i for i, s in enumerate(live.seats) if s["kind"] == "human"]
            bots = [s["level"] for s in live.seats if s["kind"] == "bot"]
            finished = {"level": bots[0] if bots else "people", "human_seat": humans[0] if humans else None,
                        "winner": state.winner, "scores": list(state.scores)}
        saved = self.store.save_web_table(live.id, state.to_json(), live.seats, expected=before, actions=count,
                                          finished=finished)
        if saved is None:
            log.warning("table %s: a stale write was refused; reloading it", live.id)
            self.reload(live)
            await self.pubsub.publish(live.id, {"count": -1, "events": []})
            return False
        live.count = count
        if finished is not None:
            live.finished = saved
        live.events = (live.events + events)[-EVENTS_KEPT:]
        await self.pubsub.publish(live.id, {"count": count, "events": [event_json(e) for e in events]})
        return True

    # -- the computer players ----------------------------------------------------------------
    def kick(self, live: LiveTable) -> None:
        """Let the computer players (and automatic answers) move, in the background."""
        if live.advancing or live.table.is_over:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.advancing = True
        task = loop.create_task(self._advance(live))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _advance(self, live: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.live.get(live.id) is live:
                table = live.table
                seat = table.to_move
                if seat is None or table.is_over:
                    return
                action = table.auto_action()
                count = live.count
                if action is None:
                    if table.is_human(seat):
                        return
                    level = live.seats[seat]["level"]
                    seed = (table.state.seed * 7919 + count) % (2**63)
                    view = dict(table.state.view(seat))
                    action = await loop.run_in_executor(self.pool, _bot_act, live.game, level, view, seed)
                    if live.count != count or self.live.get(live.id) is not live:
                        continue  # the table changed meanwhile (a replay): think again
                delay = float(live.settings.get("delay", 0.0))
                if delay > 0:
                    await asyncio.sleep(delay)
                if not await self._apply(live, seat, action, expect=count):
                    if live.count != count:
                        continue  # someone else moved the table on meanwhile: look again
                    return
        except Exception:  # a bot failing must not take the server down; the table waits
            log.exception("table %s: a computer player failed", live.id)
        finally:
            live.advancing = False


def _name(name: object) -> str:
    if not isinstance(name, str):
        return ""
    return " ".join("".join(ch for ch in name if ch.isprintable()).split())[:30]
