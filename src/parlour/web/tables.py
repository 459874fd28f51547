"""The browser tables: each one a ``parlour.table.Table`` saved in the store after every action
(before any browser hears of it: a person's move and the computer's immediate replies in one write).

Why this layer apart from the web server: it is the authority on a table (who may act, what
is legal, the bots' turns, saving) and is tested without a browser.  It keeps no state the
store does not hold: a table in memory is a cache of its stored record, every save is a
compare-and-set on the action count (a stale writer is refused and reloads, never merges),
and every change is announced through the ``PubSub`` interface.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Collection, Coroutine, Iterable
from typing import Any

from starlette.requests import HTTPConnection

from ..bots import Bot, levels, make
from ..engine import RECORD_VERSION, Game, IllegalAction, State, new_seed
from ..fairness import Proof, commitment, committed_state, proven_state
from ..fairness import client_seed as fair_client_seed
from ..records import from_json
from ..registry import game_class, load
from ..store import Store, WebTable
from ..table import CannotUndo, Event, NotYourTurn, Table
from .bus import Leases, LocalLeases, LocalPresence, Presence
from .computers import Computers
from .jsontext import encode
from .live import EVENTS_KEPT, LiveTable, Refused, event_from_json, event_json, note
from .pubsub import LocalPubSub, PubSub

log = logging.getLogger("parlour.web")

MAX_DELAY = 3.0  # seconds between computer moves, at most
MAX_GRACE = 3600.0  # seconds a person may be away before a computer takes over, at most
IDLE_KEPT = 600.0  # seconds an unfinished table nobody watches stays in memory (the store has it)
SWEEP_EVERY = 30.0  # seconds between looks for such tables
UNJOINED_KEPT = 3600.0  # seconds an unfinished table nobody joined stays in the store untouched (``Limits``)
UNFINISHED_KEPT = 30 * 86_400.0  # seconds a game begun stays open untouched, then is closed (``Limits``)
EXPIRE_EVERY = 300.0  # seconds between looks in the store for such tables (a scan of the open ones)


CLAIM_TRIES = 5  # compare-and-sets of a seat taken, before giving up (another process's people taking theirs)


LEFT = "you left this seat: a computer player plays it to the end of the game"


def token_hash(token: str) -> str:
    """Tokens are stored hashed: the database alone never lets anyone take a seat."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _is_table_id(table_id: object) -> bool:
    """Whether ``table_id`` may name a table (a short text: anything else is no table, never a query)."""
    return isinstance(table_id, str) and len(table_id) <= 40


def _table_for(game: str, record: dict[str, Any], seats: list[dict[str, Any]],
               open_hands: bool) -> tuple[Table, list[Event]]:
    """Rebuild a table from its record, with the events that told its story (for the log)."""
    table = _new_table(game, from_json({**record, "actions": []}), seats, open_hands)
    events: list[Event] = []
    for _, told in table.replay(record.get("actions", [])):
        events += told
    return table, events[-EVENTS_KEPT:]


def _new_table(game: str, state: State, seats: list[dict[str, Any]], open_hands: bool) -> Table:
    players: list[Bot | None] = [make(game, s["level"]) if s["kind"] == "bot" else None for s in seats]
    return Table(state, players, open_hands=open_hands)


def _undealt_record(game: Game, server_seed: int) -> dict[str, Any]:
    """What the store holds for a table before its first deal: the game, and the server's secret seed."""
    return {"version": RECORD_VERSION, "game": game.name, "options": dict(game.options),
            "pending": {"server_seed": server_seed, "commitment": commitment(server_seed),
                        "options": dict(game.options)},
            "actions": []}


class Tables:
    """Every table of this server process, backed by ``store``: the cache of them, and what people do at them.

    Their computer players are ``computers``' (``web.computers``): the lease holder's job.
    """

    def __init__(self, store: Store, *, pubsub: PubSub | None = None, workers: int = 2,
                 inline: tuple[str, ...] | None = None, unjoined_kept: float = UNJOINED_KEPT,
                 unfinished_kept: float = UNFINISHED_KEPT,
                 leases: Leases | None = None, shared: Presence | None = None) -> None:
        """``inline``: the levels played on the event loop (default ``INLINE_LEVELS``; ``()``: all in the pool);
        ``unjoined_kept``: seconds an untouched table nobody joined stays (``expire``); ``unfinished_kept``:
        seconds an untouched game people began stays open (``close_stale``); ``leases``: which
        tables' computer players this process runs (``bus.RedisLeases``; by default all of them); ``shared``:
        the seats connected to other processes (``bus.RedisPresence``; by default none)."""
        self.store = store
        self.unjoined_kept = unjoined_kept
        self.unfinished_kept = unfinished_kept
        self._expired = time.monotonic()
        self.pubsub: PubSub = pubsub or LocalPubSub()
        self.pubsub.attach(self.remote, self.bus_state)
        self.shared: Presence = shared or LocalPresence()
        self.shared.attach(self._connected_here, self.seen_elsewhere)
        self.live: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._swept = time.monotonic()
        self._stop_checkpoints = store.checkpoint_in_background()  # no disk sync inside a save on the event loop
        self.computers = Computers(self, leases or LocalLeases(), workers=workers, inline=inline)

    def close(self) -> None:
        """Stop the computer players and the store's background work (the app's lifespan ends).

        Why the pool is waited for: its worker processes and the queues between them (whose
        semaphores multiprocessing's resource tracker watches) are then gone before the store
        closes and the process exits, however it exits; a pool left to shut down by itself
        outlived the lifespan.  A move being thought about is no longer wanted (its table is
        saved); it is at most a strong player's budget, a second or two.
        """
        for task in list(self._tasks):
            task.cancel()
        self.computers.close()
        self._stop_checkpoints()

    async def drain(self) -> None:
        """A graceful stop (SIGTERM): what is in flight is saved and announced, before the leases are handed on."""
        for live in list(self.live.values()):
            if live.table is not None and (live.unsent or live.saved != live.count):
                try:
                    await self.send_unsent(live)
                except Exception:
                    log.exception("table %s: its last moves could not be saved", live.id)

    # -- making and finding tables --------------------------------------------------------
    async def create(self, game: str, options: dict[str, Any], seats: list[dict[str, Any]], *,
                     open_hands: bool = False, delay: float = 0.0, seed: int | None = None,
                     takeover: dict[str, Any] | None = None) -> tuple[str, list[str | None]]:
        """A new table; returns its id and each seat's token (None for a computer player's seat).

        ``seats``: one dict per seat, ``{"kind": "human"}`` (``"name"`` optional, ``"claimed"``
        true for the creator's own seat) or ``{"kind": "bot", "level": L}``.  ``takeover``
        (``{"level": L, "after": seconds}``): a computer player of that level plays a person's
        seat once it has had no connection for that long, until the person is back.
        """
        cls = game_class(game)
        g = cls(**options)  # ValueError names a bad option
        if len(seats) != cls.num_players:
            raise Refused(f"{cls.title} needs {cls.num_players} seats")
        if not isinstance(delay, int | float) or isinstance(delay, bool) or not 0 <= delay <= MAX_DELAY:
            raise Refused(f"the computer's delay must be 0 to {MAX_DELAY:g} seconds")
        if takeover is not None:
            takeover = _takeover(game, takeover)
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
                               "token": token_hash(token), "claimed": bool(seat.get("claimed")), "joined": False,
                               "client_seed": None})
                tokens.append(token)
            else:
                raise Refused("each seat is a person or a computer player")
        if seed is not None:  # a seed given by hand (tests, benchmarks): dealt now, and it proves nothing
            record = g.new_state(seed=seed).record()
        elif all(s["kind"] == "bot" for s in stored):  # a demo: nobody to wait for
            record = committed_state(g).record()
        else:  # no deal before the people: each brings a client seed as they take their seat (``claim``)
            record = _undealt_record(g, new_seed())
        table_id = secrets.token_urlsafe(9)
        settings: dict[str, Any] = {"open": bool(open_hands), "delay": float(delay)}
        if takeover is not None:
            settings["takeover"] = takeover
        await self.store.from_loop(self.store.create_web_table, table_id, game, encode(record), stored, settings, 0)
        self.sweep()
        return table_id, tokens

    def watch(self, live: LiveTable, delta: int) -> None:
        """A connection to ``live`` (a seat's or a spectator's) opened (+1) or closed (-1).

        Why counted: a table in memory is only a cache of the store, and a server that kept
        every table it ever served grew without end (and its garbage collector's pauses with
        it).  A finished table is dropped as its last watcher leaves, an unfinished one after
        ``IDLE_KEPT`` seconds without any; ``get`` loads either again from the store.
        """
        live.watchers = max(0, live.watchers + delta)
        if live.watchers == 0:
            live.idle_since = time.monotonic()
            if live.finished is not None and self._quiet(live):
                del self.live[live.id]
        self.sweep()

    def sweep(self, now: float | None = None) -> None:
        """Drop from memory the tables nobody watches that are finished or idle too long (every ``SWEEP_EVERY`` s),
        and from the store the tables nobody joined (``expire``, every ``EXPIRE_EVERY`` s)."""
        now = time.monotonic() if now is None else now
        if now - self._expired >= min(EXPIRE_EVERY, self.unjoined_kept, self.unfinished_kept):
            self._expired = now
            self.expire()
            self.close_stale()
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        for live in list(self.live.values()):
            if self._quiet(live) and (live.finished is not None or now - live.idle_since > IDLE_KEPT):
                del self.live[live.id]

    def expire(self) -> list[str]:
        """Delete from the store (and memory) the unfinished tables nobody joined, untouched ``unjoined_kept`` s.

        Why: creating a table costs its creator nothing, and a table nobody ever sat at would stay
        in the store forever (and count against ``Limits.open_tables``).  A table in use is kept.
        """
        busy = {table_id for table_id, live in self.live.items() if not self._quiet(live)}
        gone = self.store.expire_web_tables(time.time() - self.unjoined_kept, keep=busy)
        for table_id in gone:
            self.live.pop(table_id, None)
        return gone

    def close_stale(self) -> list[str]:
        """End the games people began and nobody moved in for ``unfinished_kept`` s, and show them the proof.

        Why: a table left half-played would hold its server seed secret for ever, so its people
        could never check that its deals were fair (the proof comes with a game's end:
        ``LiveTable.revealed``); and it would stay open in the store for ever.  Closed, it is
        recorded as a finished game that ended unplayed (``ended["how"] = "closed"``, no
        winner, counted in no statistics), and a person who opens their link sees it over with
        the proof.  Several processes may close the same table at once: the compare-and-set on
        its action count lets one of them save it.  A table never dealt (its people never all sat
        down) has nothing to prove: it is deleted.  A table in use now is left alone.
        """
        busy = {table_id for table_id, live in self.live.items() if not self._quiet(live)}
        before = time.time() - self.unfinished_kept
        stale = self.store.stale_web_tables(before, keep=busy)
        for table_id in stale:
            self._soon(self._close(table_id, before))
        return stale

    async def _close(self, table_id: str, before: float) -> None:
        live = self.get(table_id)
        if live is None:
            return
        async with live.lock:
            if live.over or live.finished is not None:
                return  # ended meanwhile
            if live.table is None:
                if self.store.delete_web_table(table_id, before):
                    self.live.pop(table_id, None)
                return
            days = round(self.unfinished_kept / 86_400, 1)
            live.ended = {"how": "closed", "seat": None, "winner": None, "at": live.count, "days": days}
            await self._commit(live, [note("closed", None, {"days": days})])

    def _quiet(self, live: LiveTable) -> bool:
        """Nobody watches ``live``, nothing is moving it, and everything it did is saved and announced."""
        return (live.watchers == 0 and not live.advancing and live.saved == live.count and not live.unsent
                and self.live.get(live.id) is live)

    def get(self, table_id: str) -> LiveTable | None:
        """The table, from memory or from the store (after a restart, or another process's write)."""
        if not _is_table_id(table_id):
            return None
        return self.live.get(table_id) or self._cached(table_id, self.store.load_web_table(table_id))

    async def load(self, table_id: str) -> LiveTable | None:
        """``get`` for a connection being opened: the store read off the event loop (``Store.from_loop``)."""
        if not _is_table_id(table_id) or table_id in self.live:
            return self.get(table_id)  # (refused, or in memory: nothing to read)
        row = await self.store.from_loop(self.store.load_web_table, table_id)
        return self.live.get(table_id) or self._cached(table_id, row)  # (or loaded meanwhile, by another)

    def _cached(self, table_id: str, row: WebTable | None) -> LiveTable | None:
        """The table of ``row`` as read from the store, kept in memory from now on."""
        if row is None:
            return None
        record = json.loads(row.record)
        pending = record.get("pending")
        table, events = (None, []) if pending is not None else \
            _table_for(row.game, record, row.seats, bool(row.settings.get("open")))
        live = LiveTable(table_id, row.game, table, row.seats, row.settings, row.actions, row.finished,
                         pending=pending)
        live.ended = record.get("ended")
        live.remember(events)
        self.live[table_id] = live
        self.computers.kick(live)
        self.computers.wake_after_grace(live)
        self._soon(self.shared.look([table_id]))  # who is connected to the other processes (before a grace ends)
        return live

    def reload(self, live: LiveTable) -> LiveTable | None:
        """Forget the cached table (a write was refused: another writer got there first) and load it again."""
        self.live.pop(live.id, None)
        return self.get(live.id)

    # -- other processes' writes (a shared bus, ``web.bus``) -----------------------------
    def refresh(self, live: LiveTable) -> tuple[bool, list[Event] | None]:
        """Bring a cached table up to its row in the store, which another process wrote.

        Returns whether anything changed, and the events of the actions taken in (None: the
        table was rebuilt from its record -- an undo, a replay, moves of ours refused -- and its
        browsers are sent whole frames).  Why from the store and not from the message: the
        message says nothing a seat may not know, and a process that missed one (a gap, Redis
        away) finds everything here; new actions are played on the cached table, so each seat's
        view and the narration are built here as in the process that made them.
        """
        row = self.store.load_web_table(live.id)
        if row is None:
            return False, []
        changed = row.seats != live.seats or row.settings != live.settings or row.finished != live.finished
        live.seats, live.settings, live.finished = row.seats, row.settings, row.finished
        if live.table is not None and row.actions == live.saved:  # no action of anyone else's
            if changed:
                live.ended = json.loads(row.record).get("ended")  # (a resignation changes no count)
            return changed, []
        record = json.loads(row.record)
        live.ended = record.get("ended")
        if record.get("pending") is not None:  # still not dealt: the seats are all that changed
            live.pending = record["pending"]
            return changed, []
        live.pending = None
        actions = list(record.get("actions", []))
        if live.table is not None and live.saved == live.count:
            mine = live.table.state.actions
            if len(actions) >= len(mine) and actions[:len(mine)] == list(mine) \
                    and not any(a.startswith("#") for a in actions[len(mine):]):
                events: list[Event] = []
                try:
                    for action in actions[len(mine):]:
                        events += live.table.play(action)
                except (IllegalAction, NotYourTurn):
                    log.warning("table %s: the stored record does not follow from ours; rebuilding it", live.id)
                else:
                    live.count = live.saved = len(live.table.state.actions)
                    live.undo_memo.clear()
                    live.remember(events)
                    return changed or bool(events), events
        table, told = _table_for(live.game, record, live.seats, bool(live.settings.get("open")))
        live.table = table
        live.count = live.saved = len(table.state.actions)
        live.unsent = []
        live.undo_memo.clear()
        live.events.clear()
        live.remember(told)
        return True, None

    async def remote(self, table_id: str, message: dict[str, Any]) -> None:
        """Another process published ``message`` for this table (``bus.RedisPubSub``): read the store, tell ours."""
        live = self.live.get(table_id)
        if live is None:
            return  # nobody here watches it (a watcher would have loaded it)
        async with live.saving:  # (not in the middle of a save of ours: ``send_unsent``)
            changed, events = self.refresh(live)
        notes: list[Event] = []
        if message.get("presence"):  # a computer standing in, a demo, a speed: notes of the browser table
            notes = [event_from_json(e) for e in message.get("events", []) if e.get("kind") not in _GAME_EVENTS]
            # a demo itself was read with the seats (``refresh``): the note only tells it, as it may be lost
            for note in notes:
                if str(note.kind) == "demo" and isinstance(note.seat, int):
                    live.standing_in.discard(note.seat)
            live.remember(notes)
        if events is None:
            await self.pubsub.deliver(live.id, {"count": live.count, "events": [], "full": True})
        elif events or notes or (changed and "players" not in message and not message.get("subscribed")):
            await self.pubsub.deliver(live.id, {"count": live.count, "events": [event_json(e) for e in events + notes]})
        if events is not None and ("players" in message or (changed and not events and not notes)):
            await self.pubsub.deliver(live.id, {"count": live.count, "players": live.players()})
        self.computers.kick(live)

    async def bus_state(self, healthy: bool) -> None:
        """The bus was lost (every page says "reconnecting") or is back (every watched table reloaded)."""
        for live in list(self.live.values()):
            if not live.watchers:
                continue
            if not healthy:
                await self.pubsub.deliver(live.id, {"count": live.count, "bus": "down"})
                continue
            async with live.saving:
                self.refresh(live)
            await self.pubsub.deliver(live.id, {"count": live.count, "events": [], "full": True})
            self.computers.kick(live)

    def seat_for(self, live: LiveTable, seat: object, token: object) -> int:
        """The seat this token opens; ``Refused`` for anything else (compared in constant time)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(live.seats):
            raise Refused("no such seat")
        info = live.seats[seat]
        if info["kind"] != "human" or not isinstance(token, str) or len(token) > 64:
            raise Refused("this link does not open that seat")
        if not secrets.compare_digest(token_hash(token), info["token"]):
            raise Refused("this link does not open that seat")
        if info.get("left"):
            raise Refused(LEFT)
        return seat

    async def claim(self, live: LiveTable, seat: int, name: object, client_seed: object = None) -> None:
        """``seat``'s link was opened: the seat is taken (and the table joined: it never expires);
        the last person to take theirs deals the first pack.

        ``client_seed``: the 32 hex digits the person's browser chose, counted when the seat is
        first taken before the deal (a scripted client without one gives ""); a malformed one is
        refused and leaves the seat as it was.  Once every person's seat is taken, the game's
        seed is made from the server's seed and theirs (``_deal_first``).
        """
        # One claim at a time a table, and no bus refresh meanwhile (``remote`` waits for ``live.saving``):
        # the seats changed here wait for their save, and a refresh read in that time would put back
        # the seats as stored before it, without this person's (then the last person's seat taken
        # would not deal: a table with two people on one process, on PostgreSQL, never began).
        async with live.saving:
            for _ in range(CLAIM_TRIES):
                before = copy.deepcopy(live.seats)
                if not self._claim_once(live, seat, name, client_seed) \
                        or await self.store.from_loop(self.store.save_web_seats, live.id, live.seats, expected=before):
                    break
                # another process changed the seats meanwhile (its person took theirs): read them, claim again
                live.seats = before
                self.refresh(live)
            else:
                raise Refused("the seats are changing too fast; open the link again")
            if live.table is None and all(s["kind"] != "human" or s.get("joined") for s in live.seats):
                await self._deal_first(live)  # (the one writer whose seats made it complete deals)

    @staticmethod
    def _claim_once(live: LiveTable, seat: int, name: object, client_seed: object) -> bool:
        """Take ``seat`` in ``live.seats``; whether that changed them (they need saving)."""
        info = live.seats[seat]
        first = live.table is None and not info.get("joined")
        if first:
            try:
                info["client_seed"] = "" if client_seed is None else fair_client_seed(client_seed)
            except ValueError as exc:
                raise Refused(str(exc)) from None
        changed = first or not info.get("claimed") or info.get("joined") is False  # (a table saved before has none)
        info["claimed"] = True
        if "joined" in info:
            info["joined"] = True
        if isinstance(name, str) and name.strip() and _name(name) != info.get("name"):
            info["name"] = _name(name)
            changed = True
        return changed

    async def _deal_first(self, live: LiveTable) -> None:
        """Every person is seated: make the game's seed from the committed server seed and their seeds, and deal."""
        assert live.pending is not None
        seeds = [str(s.get("client_seed") or "") for s in live.seats]
        proof = Proof.made(int(live.pending["server_seed"]), seeds)
        state = proven_state(load(live.game, **live.pending["options"]), proof)
        live.table = _new_table(live.game, state, live.seats, bool(live.settings.get("open")))
        live.pending = None
        saved = await self.store.from_loop(self.store.save_web_table, live.id, encode(state.record()), expected=0,
                                           actions=0)
        if saved is None:  # another writer dealt it first: theirs stands
            self.reload(live)
            return
        self.computers.kick(live)

    # -- acting ---------------------------------------------------------------------------
    async def act(self, live: LiveTable, seat: int, action: object) -> None:
        """A person's action for their own seat; ``Refused`` (nothing changed) unless legal for it now."""
        if not isinstance(action, str) or not action or len(action) > 64:
            raise Refused("an action is a short text")
        table = live.dealt
        if live.finished is not None or live.over:
            raise Refused("the game is over")
        if live.seats[seat].get("left"):
            raise Refused(LEFT)
        if table.to_move != seat:
            raise Refused("it is not your turn")
        if action not in table.state.legal_actions():
            reason = ""
            try:
                table.state.apply(action)  # raises: not in the legal list; gives the engine's reason
            except IllegalAction as exc:
                reason = exc.why
            raise Refused(f"{action} is not a legal move now" + (f": {reason}" if reason else ""))
        await self.apply_move(live, seat, action, hold=True)
        self.computers.kick(live)
        if not live.advancing:  # nothing follows at once: announce it now (else ``_advance`` does, with the replies)
            await self.send_unsent(live)

    def solo(self, live: LiveTable, seat: int) -> bool:
        """Whether ``seat`` plays alone against computer players (then undo and replay are allowed)."""
        return all(s["kind"] == "bot" for i, s in enumerate(live.seats) if i != seat)

    async def replay(self, live: LiveTable, seat: int) -> None:
        """Deal the previous deal's pack again (only against computer players: it changes everyone's cards)."""
        if not self.solo(live, seat) or live.finished is not None:
            raise Refused("a deal can be replayed only at a table against computer players")
        async with live.lock:
            try:
                events = live.dealt.replay_deal()
            except (CannotUndo, ValueError) as exc:
                raise Refused(str(exc)) from None
            await self._commit(live, events)
        self.computers.kick(live)

    async def undo(self, live: LiveTable, seat: int) -> None:
        """Take back ``seat``'s last move and the computer's replies (only against computer players)."""
        if not self.solo(live, seat) or live.finished is not None:
            raise Refused("a move can be taken back only at a table against computer players")
        async with live.lock:
            try:
                events = live.dealt.undo(seat)
            except CannotUndo as exc:
                raise Refused(str(exc)) from None
            await self._commit(live, events)
        self.computers.kick(live)

    def can_undo(self, live: LiveTable, seat: int | None) -> bool:
        """Whether ``seat`` may take a move back now (asked for every frame sent to that seat).

        Why remembered per action count: ``Table.undo_count`` replays the whole game from its
        start (a millisecond late in a long game), and a frame is built after every action;
        ``_carry_undo`` brings the answer forward over each ordinary action instead.
        """
        if seat is None or live.finished is not None or live.table is None or not self.solo(live, seat):
            return False
        memo = live.undo_memo.get(seat)
        if memo is not None and memo[0] == live.count:
            return memo[1]
        try:
            live.dealt.undo_count(seat)
            ok = True
        except CannotUndo:
            ok = False
        live.undo_memo[seat] = (live.count, ok)
        return ok

    @staticmethod
    def _carry_undo(live: LiveTable, before: int, actor: int, by_table: bool, standing: int) -> None:
        """``can_undo`` after ``actor``'s action, from its answer before it (the rule of ``Table.undo_count``).

        Within a deal a seat may undo once it has made a decision of its own (not an answer the
        table made for it); a new deal, or the end of the game, leaves nothing to take back.
        Anything else (an undo, a replay, an answer not known before) is recomputed when asked.
        """
        state = live.dealt.state
        count = len(state.actions)
        same_deal = not state.is_over and state.deal_actions == standing + 1
        fresh = state.is_over or state.deal_actions == 0
        for seat, (at, ok) in list(live.undo_memo.items()):
            if at != before or not (same_deal or fresh):
                del live.undo_memo[seat]
            else:
                live.undo_memo[seat] = (count, same_deal and (ok or (seat == actor and not by_table)))

    def hint(self, live: LiveTable, seat: int) -> tuple[str, str | None]:
        """The hint player's move for ``seat`` and why, where it can say (``Table.suggest``, as the terminal's)."""
        try:
            return live.dealt.suggest(seat)
        except NotYourTurn as exc:
            raise Refused(str(exc)) from None

    async def apply_move(self, live: LiveTable, seat: int, action: str, expect: int | None = None,
                         hold: bool = False) -> bool:
        """``seat`` plays ``action`` (a person's checked move, or a computer's); False when the table moved
        on meanwhile (another seat to move, or not at the count ``expect``) and nothing was done."""
        async with live.lock:
            if live.dealt.to_move != seat or live.over or (expect is not None and live.count != expect):
                return False
            before = live.count
            state = live.dealt.state
            standing, by_table = 0, False
            if live.undo_memo:
                standing = state.deal_actions
                legal = state.legal_actions()
                by_table = len(legal) == 1 and legal[0] in state.game.AUTO_ACTIONS
            try:
                events = live.dealt.play(action, seat)
            except (IllegalAction, NotYourTurn) as exc:
                raise Refused(str(exc)) from None
            if live.undo_memo:
                self._carry_undo(live, before, seat, by_table, standing)
            return await self._commit(live, events, hold=hold)

    async def _commit(self, live: LiveTable, events: list[Event], hold: bool = False) -> bool:
        """Take in an action (the table has made it); save and announce it unless ``hold``.

        ``hold``: a person's move or a computer's reply that more moves follow at once (the
        computer's immediate replies).  They are saved together, in one compare-and-set write,
        and reach each browser as one frame, when the table rests (``send_unsent``).  Why one
        write: a write was a fifth of an action's cost under load, and what nobody has seen yet
        needs no write of its own.  The guarantee is unchanged: nothing reaches a browser, as an
        announcement or as a frame drawn from the table (``play.Connection.send_state``), before it is saved,
        and the table is saved before it waits for anything (a worker, the computer's delay).
        A computer's immediate replies are seeded by the table's seed and count, so after a
        crash the same replies are made again.
        """
        live.count = len(live.dealt.state.actions)
        live.remember(events)
        live.unsent += events
        if hold:
            return True
        return await self.send_unsent(live)

    async def send_unsent(self, live: LiveTable) -> bool:
        """Save the actions taken in since the last save (a compare-and-set on the stored count),
        then announce them in one message, with their count.

        False: another writer got there first; the table is reloaded from the store (what was
        not saved was never shown to anyone) and every browser is told to resynchronise.  Why
        one save at a time a table (``live.saving``): the save is awaited (``Store.
        save_web_table_on_loop``), and a second one begun meanwhile would expect the count the
        first is changing, and be refused; moves taken in meanwhile wait for the next save.
        """
        async with live.saving:
            count, told = live.count, len(live.unsent)
            ended = live.ended is not None and live.finished is None  # (a resignation, a closing: no action count)
            if live.saved != count or ended:
                finished = self._finished(live) if live.over else None
                saved = await self.store.save_web_table_on_loop(live.id, encode(live.record()), expected=live.saved,
                                                                actions=count, finished=finished)
                if saved is None:
                    log.warning("table %s: a stale write was refused; reloading it", live.id)
                    live.unsent = []
                    self.reload(live)
                    await self.pubsub.publish(live.id, {"count": -1, "events": []})
                    return False
                live.saved = count
                if finished is not None:
                    live.finished = saved
            events = live.unsent[:told]
            del live.unsent[:told]
            if events:
                await self.pubsub.publish(live.id, {"count": count, "events": [event_json(e) for e in events]})
            return True

    @staticmethod
    def _finished(live: LiveTable) -> dict[str, Any]:
        """A game over, as the finished games keep it (``Store.save_web_table``'s ``finished``)."""
        humans = [i for i, s in enumerate(live.seats) if s["kind"] == "human"]
        bots = [s["level"] for s in live.seats if s["kind"] == "bot"]
        # a game the computer finished for the person (demo, F2; a seat its person left) is no result of
        # theirs, as at the terminal: the result counted is the first person's who played on
        human_seat = next((i for i in humans if i not in live.demo and not live.seats[i].get("left")), None)
        state = live.dealt.state
        winner = state.winner if live.ended is None else live.ended["winner"]
        return {"level": bots[0] if bots else "people", "human_seat": human_seat,
                "winner": winner, "scores": list(state.scores)}

    # -- presence, the takeover of an absent seat, the speed ----------------------------------
    def presence(self, live: LiveTable, seat: int, delta: int) -> None:
        """A connection for ``seat`` opened (+1) or closed (-1): starts or ends its person's absence."""
        was = live.connected.get(seat, 0)
        n = live.connected[seat] = max(0, was + delta)
        if (was > 0) != (n > 0):
            self._soon(self.shared.look([live.id]))  # the other processes hear of it within their next look
        takeover = live.settings.get("takeover")
        if n > 0:
            live.away_since.pop(seat, None)
            if seat in live.standing_in and seat not in live.demo:
                live.standing_in.discard(seat)
                self.announce(live, [note("stand_in_end", seat, {})])
        elif takeover and seat not in live.elsewhere:
            live.away_since[seat] = time.monotonic()
            self.computers.wake_after_grace(live)

    def _connected_here(self, only: Collection[str] | None = None) -> dict[str, set[int]]:
        """Each unfinished table in memory (of ``only``, if given), and its seats with a connection to this process.

        Why ``only``: a look at one table (one loaded, a connection opened or closed there) comes
        several times a second under load, and a walk over every table in memory for it was 7 %
        of the event loop's time at 200 busy tables (py-spy)."""
        if only is None:
            chosen: Iterable[tuple[str, LiveTable]] = self.live.items()
        else:
            chosen = ((t, self.live[t]) for t in only if t in self.live)
        return {table_id: {seat for seat, n in live.connected.items() if n > 0}
                for table_id, live in chosen if not live.over}

    async def seen_elsewhere(self, table_id: str, seats: set[int], last_seen: dict[int, float] | None = None) -> None:
        """The seats of ``table_id`` connected to other processes changed (``bus.RedisPresence``).

        As ``presence`` does for this process's connections: a person connected anywhere is not
        away (a computer standing in gives the seat back), and one gone from everywhere is away from now.
        ``last_seen``: when each seat last had a connection to any process (epoch seconds): a person
        away since before this process loaded the table (it took the table over) is away since then,
        so the grace period is not given again.
        """
        live = self.live.get(table_id)
        if live is None:
            return
        now, wall = time.monotonic(), time.time()
        for seat, seen in (last_seen or {}).items():
            if (0 <= seat < live.num_players and live.seats[seat]["kind"] == "human" and seat not in seats
                    and live.connected.get(seat, 0) == 0 and seat in live.away_since):
                live.away_since[seat] = min(live.away_since[seat], now - max(0.0, wall - seen))
                self.computers.kick(live)  # its grace may be over already
        before = live.players()
        came, gone = seats - live.elsewhere, live.elsewhere - seats
        live.elsewhere = set(seats)
        for seat in came:
            live.away_since.pop(seat, None)
            if seat in live.standing_in and seat not in live.demo:
                live.standing_in.discard(seat)
                self.announce(live, [note("stand_in_end", seat, {})])
        for seat in gone:
            if live.connected.get(seat, 0) == 0 and live.seats[seat]["kind"] == "human":
                live.away_since[seat] = time.monotonic()
                self.computers.wake_after_grace(live)
        if live.players() != before:
            await self.pubsub.deliver(live.id, {"count": live.count, "players": live.players()})

    async def toggle_demo(self, live: LiveTable, seat: int) -> None:
        """Demo (the terminal's F2): the computer plays this person's seat too; again: the seat back.

        Saved with the seats before it is told (``LiveTable.demo``): whichever process runs the
        table's computer players finds it in the store, whether or not the note reaches it.
        """
        if live.finished is not None:
            raise Refused("the game is over")
        level = live.dealt.hint_level

        def toggle(seats: list[dict[str, Any]]) -> None:
            if seats[seat].pop("demo", None) is None:
                seats[seat]["demo"] = level

        self._change_seats(live, toggle)
        if seat in live.demo:
            live.standing_in.discard(seat)
            await self.publish_events(live, [note("demo", seat, {"level": live.demo[seat]})])
            self.computers.kick(live)
        else:
            await self.publish_events(live, [note("demo_end", seat, {})])

    def _change_seats(self, live: LiveTable, change: Callable[[list[dict[str, Any]]], None]) -> None:
        """Change the seats and save them by compare-and-set (a demo asked, a seat left).

        Why a compare-and-set: two people of one table may change their own seats through two
        processes at once (both ask for a demo); a plain write of one process's seats would undo
        the other's change.  A refused write reads the seats again and makes the change on them.
        """
        for _ in range(CLAIM_TRIES):
            before = copy.deepcopy(live.seats)
            change(live.seats)
            if self.store.save_web_seats(live.id, live.seats, expected=before):
                return
            row = self.store.load_web_table(live.id)  # another process changed them meanwhile
            live.seats = before if row is None else row.seats
        raise Refused("the seats are changing too fast; try again")

    # -- leaving a table: resigning the game, leaving the seat to a computer ------------------
    async def resign(self, live: LiveTable, seat: int) -> None:
        """``seat``'s person gives the game up: it ends now, recorded as ended by their resignation.

        The winner: the other player of a two-player game; with more players nobody (the game
        never reached its end, and no game's score says who was ahead of whom).  Saved as a
        finished game at once (``send_unsent``), then told to everyone.
        """
        async with live.lock:
            if live.dealt.is_over or live.ended is not None or live.finished is not None:  # (dealt: refuses before)
                raise Refused("the game is over")
            winner = 1 - seat if live.num_players == 2 else None
            live.ended = {"how": "resignation", "seat": seat, "winner": winner, "at": live.count}
            await self._commit(live, [note("resigned", seat, {"winner": winner})])

    async def leave(self, live: LiveTable, seat: int) -> None:
        """``seat``'s person leaves the table for good: the takeover's computer player plays the seat to the end.

        Only at a table made with a takeover (the others agreed to play on against a computer);
        elsewhere the person may resign, or close the page and keep the seat.  Their link no
        longer opens the seat (``seat_for``), and the game is no result of theirs.
        """
        takeover = live.settings.get("takeover")
        if not takeover:
            raise Refused("at this table no computer player takes over a seat: resign the game instead, "
                          "or close the page (your seat stays yours)")
        if live.over or live.finished is not None:
            raise Refused("the game is over")
        level = str(takeover["level"])

        def leave(seats: list[dict[str, Any]]) -> None:
            seats[seat]["left"] = {"at": live.count, "level": level}
            seats[seat].pop("demo", None)

        self._change_seats(live, leave)
        live.standing_in.discard(seat)
        await self.publish_events(live, [note("left", seat, {"level": level})])
        self.computers.kick(live)

    def announce(self, live: LiveTable, events: list[Event]) -> None:
        self._soon(self.publish_events(live, events))

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background (nothing, outside the event loop: a test's direct call)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            work.close()
            return
        task = loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def publish_events(self, live: LiveTable, events: list[Event]) -> None:
        """Events that are not actions (a computer standing in): told to every browser, kept for the log."""
        live.remember(events)
        await self.pubsub.publish(live.id, {"count": live.count, "events": [event_json(e) for e in events],
                                            "presence": True})

    def set_delay(self, live: LiveTable, seat: int | None, delay: object) -> None:
        """The computer's pause between moves: a person playing alone against computers, or anyone
        watching a demo (no person seated) may change it; it is kept with the table."""
        if seat is None and any(s["kind"] == "human" for s in live.seats):
            raise Refused("only the players change the speed of this table")
        if seat is not None and not self.solo(live, seat):
            raise Refused("the speed can be changed only at a table against computer players")
        if not isinstance(delay, int | float) or isinstance(delay, bool) or not 0 <= delay <= MAX_DELAY:
            raise Refused(f"the computer's delay must be 0 to {MAX_DELAY:g} seconds")
        live.settings["delay"] = float(delay)
        self.store.save_web_settings(live.id, live.settings)

    # -- the computer players ----------------------------------------------------------------
#: Kinds of the game's own events (``table.EventKind``): another process's message never brings one here.
_GAME_EVENTS = frozenset({"action", "trick", "deal_scored", "deal", "replay", "undo", "game_over"})


def serving(connection: HTTPConnection) -> Tables:
    """The tables of the server a request or a WebSocket reached (``create_app`` keeps them on the app)."""
    found: Tables = connection.app.state.parlour["tables"]
    return found


def _takeover(game: str, takeover: object) -> dict[str, Any]:
    """A checked takeover option: ``{"level": a level of this game, "after": 0 < seconds <= MAX_GRACE}``."""
    if not isinstance(takeover, dict):
        raise Refused("the takeover is a level and a grace period")
    level, after = takeover.get("level", "easy"), takeover.get("after")
    if level not in levels(game):
        raise Refused(f"unknown level {str(level)[:20]!r} for the takeover")
    if not isinstance(after, int | float) or isinstance(after, bool) or not 0 < after <= MAX_GRACE:
        raise Refused(f"the takeover's grace period must be more than 0 and at most {MAX_GRACE:g} seconds")
    return {"level": level, "after": float(after)}


def _name(name: object) -> str:
    if not isinstance(name, str):
        return ""
    return " ".join("".join(ch for ch in name if ch.isprintable()).split())[:30]
