"""A browser table in memory (``LiveTable``), and the events it keeps and tells.

Why a module of its own: the table cache (``tables.Tables``) and the computer players
(``computers.Computers``) both work on a table in memory, and neither module may import the
other (``tests/core/test_layers.py``: no import cycles).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ..fairness import fingerprint
from ..table import Event, Table
from .jsontext import decode, encode

EVENTS_KEPT = 300  # events kept in memory per table for a (re)connecting browser's log


class Refused(ValueError):
    """An incoming request that changes nothing; ``str()`` is said to that browser."""


@dataclass
class LiveTable:
    """A table in memory: ``table`` is None until every person has taken their seat (``Tables.claim``).

    ``pending``: until then, the server's secret seed and its commitment (``parlour.fairness``);
    once dealt, the state's ``proof`` holds them.
    """

    id: str
    game: str
    table: Table | None
    seats: list[dict[str, Any]]  # kind human|bot, level, name, token (hash), claimed, client_seed
    settings: dict[str, Any]
    count: int
    finished: int | None = None
    pending: dict[str, Any] | None = None
    events: deque[str] = field(default_factory=lambda: deque(maxlen=EVENTS_KEPT))  # see ``remember``
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    saving: asyncio.Lock = field(default_factory=asyncio.Lock)  # a save and its announcement (``Tables.send_unsent``)
    advancing: bool = False
    unsent: list[Event] = field(default_factory=list)  # not yet announced (see ``Tables.send_unsent``)
    undo_memo: dict[int, tuple[int, bool]] = field(default_factory=dict)  # seat -> (count, can undo then)
    connected: dict[int, int] = field(default_factory=dict)  # seat -> open connections (presence only)
    away_since: dict[int, float] = field(default_factory=dict)  # human seat -> when it was left (monotonic)
    standing_in: set[int] = field(default_factory=set)  # seats a computer plays while their person is away
    saved: int = -1  # the action count in the store (``count`` until a burst of moves is saved; see ``Tables._commit``)
    watchers: int = 0  # open connections, seats' and spectators' (``Tables.watch``)
    idle_since: float = field(default_factory=time.monotonic)  # when the last connection closed (or the load)
    elsewhere: set[int] = field(default_factory=set)  # seats connected to other processes (``bus.RedisPresence``)
    ended: dict[str, Any] | None = None  # a game ended before its end: {"how": "resignation", "seat", "winner", "at"}

    def __post_init__(self) -> None:
        if self.saved < 0:
            self.saved = self.count
        now = time.monotonic()  # a person's grace period starts when the table is opened (or reopened)
        for seat, info in enumerate(self.seats):
            if info["kind"] == "human":
                self.away_since.setdefault(seat, now)

    def remember(self, events: list[Event]) -> None:
        """Keep the latest events for the log of a browser that connects later (``recent``).

        Why encoded: kept as objects, the last few hundred events of every table were most of
        what the garbage collector had to walk under load, and its pauses stalled every table;
        a string is not tracked by it.
        """
        self.events.extend(encode(event_json(event)) for event in events)

    def recent(self, n: int) -> list[Event]:
        """The last ``n`` events kept (as JSON gives them back: lists for tuples, text keys)."""
        kept = list(self.events)[-n:] if n > 0 else []
        return [event_from_json(decode(e)) for e in kept]

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def spectators(self) -> int:
        """This process's connections to the table without a seat (``watchers`` counts the seats' too)."""
        return self.watchers - sum(self.connected.values())

    @property
    def demo(self) -> dict[int, str]:
        """The seats whose person asked the computer to play them (F2), and its level.

        Why read from the seats (``"demo"``), which the store holds, rather than kept apart: a
        demo asked through one process must be played by the process that runs the table's
        computer players, and a note on the bus does not always reach it -- Redis pub/sub drops
        a message published before the other process's subscription to the table took effect
        (within ``bus.POLL`` of its first connection to it), or while Redis is away; a process
        that takes the table's lease over, or loads it later, never heard it at all.  Each of
        them reads the table from the store then (``Tables.refresh``), so the demo must be there.
        """
        return {seat: str(info["demo"]) for seat, info in enumerate(self.seats) if info.get("demo")}

    @property
    def over(self) -> bool:
        """Whether the game has ended: played to its end, or ended by a resignation (``Tables.resign``)."""
        return self.ended is not None or (self.table is not None and self.table.is_over)

    def record(self) -> dict[str, Any]:
        """The game's record, with how the browser table changed it: who resigned, who left their seat.

        Why in the record: it is what the store keeps of a finished game and what ``parlour
        export`` hands out, so it must say why a game stopped short of its end (``"ended"``) and
        whose moves a computer made once its person left (``"left"``).  ``from_json`` reads past
        both keys: the actions replay as they stand.
        """
        record = self.dealt.state.record()
        left = [{"seat": seat, **info["left"]} for seat, info in enumerate(self.seats) if info.get("left")]
        if left:
            record["left"] = left
        if self.ended is not None:
            record["ended"] = dict(self.ended)
        return record

    @property
    def dealt(self) -> Table:
        """The table, once dealt; ``Refused`` before (every request to play one says so)."""
        if self.table is None:
            raise Refused("the game starts once every person has taken their seat")
        return self.table

    @property
    def commitment(self) -> dict[str, str] | None:
        """The commitment shown to everyone before the deal, whole and as its fingerprint (None: a
        seed given by hand, as tests do)."""
        if self.table is None:
            commit = None if self.pending is None else str(self.pending["commitment"])
        else:
            proof = self.table.state.proof
            commit = None if proof is None else str(proof["commitment"])
        return None if commit is None else {"hex": commit, "short": fingerprint(commit)}

    def revealed(self, seat: int | None) -> dict[str, Any] | None:
        """What proves the deal fair, for a person seated here once the game is over; else None.

        Why only then and only to them: the server seed gives the game's seed, and the seed
        every deal (DESIGN.md: a record goes to people only after the game).  Texts, not
        numbers: a browser's JSON numbers cannot hold 128 bits.
        """
        if seat is None or self.table is None or not self.over or self.table.state.proof is None:
            return None
        proof = self.table.state.proof
        return {"commitment": proof["commitment"], "server_seed": str(proof["server_seed"]),
                "client_seeds": list(proof["client_seeds"]), "seed": str(self.table.state.seed)}

    def stand_in(self, seat: int) -> str | None:
        """The level of the computer player that plays ``seat`` now, its person being away (None: nobody).

        Why computed rather than stored: it is "the table creator chose a takeover, the seat has
        had no connection for the grace period" -- the person's return ends it by itself.
        """
        if seat in self.demo:
            return self.demo[seat]
        left = self.seats[seat].get("left")
        if left:  # its person left it for good (``Tables.leave``)
            return str(left["level"])
        takeover = self.settings.get("takeover")
        if not takeover or self.seats[seat]["kind"] != "human" or self.connected.get(seat, 0) > 0 \
                or seat in self.elsewhere:
            return None
        since = self.away_since.get(seat)
        if since is None or time.monotonic() - since < float(takeover["after"]):
            return None
        return str(takeover["level"])

    def players(self) -> list[dict[str, Any]]:
        """The seats as every browser may see them: never a token."""
        return [{"kind": s["kind"], "level": s.get("level"), "name": s.get("name") or "",
                 "claimed": bool(s.get("claimed")), "joined": bool(s.get("joined")),
                 "connected": self.connected.get(i, 0) > 0 or i in self.elsewhere, "left": bool(s.get("left")),
                 "stand_in": self.stand_in(i)}
                for i, s in enumerate(self.seats)]


def event_json(event: Event) -> dict[str, Any]:
    return {"kind": event.kind, "seat": event.seat, "data": event.data}


def event_from_json(data: dict[str, Any]) -> Event:
    return Event(data["kind"], data["seat"], data["data"])


def note(kind: str, seat: int | None, data: dict[str, Any]) -> Event:
    """An event of the browser table, not of the game (a computer standing in, a demo): narrated by ``views``."""
    return event_from_json({"kind": kind, "seat": seat, "data": data})
