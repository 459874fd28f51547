"""What one client may take of the browser server: the limits, and the accounting that enforces them.

Why a module of its own: a limit per connection is multiplied by opening more connections, so
the server also counts per seat token (all the windows of one person), per client address (all
the connections of one machine, or of one household behind its router) and per server (open
tables).  The numbers live in one frozen ``Limits``, passed to ``create_app`` (and to
``ServerThread``) as the message rate is; the test suite and the load bench run every client
from 127.0.0.1, so they raise the per-address caps there, never in the defaults.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol

from starlette.types import Scope

from .guard import client_address


@dataclass(frozen=True)
class Limits:
    """The caps of one server; the defaults are for a public server.

    Why these defaults: a person has a few tabs open (``connections_per_seat``), a household or
    an office shares one address (``connections_per_address``, ``address_rate`` -- ten people's
    message rate), and a lobby makes a table a game (``new_tables``: ten a minute, twenty at
    once, is several people's evening).  ``open_tables`` keeps the store and the memory of the
    tables in play bounded (one process serves 200 busy tables within 100 ms:
    bench/bench_web_load.py; most open tables sit idle in the store).
    """

    hello_seconds: float = 10.0  # a connection says hello within this, or is closed
    spectators_per_table: int = 50  # connections without a seat, at one table
    connections_per_seat: int = 8  # one person's windows on one seat
    connections_per_address: int = 32  # open WebSocket connections from one client address
    address_rate: tuple[float, float] = (20.0, 60.0)  # messages (and connections opened) per second, at once
    new_tables: tuple[float, float] = (10 / 60, 20.0)  # tables one address creates per second, at once
    open_tables: int = 2_000  # unfinished tables in the store, the whole server's
    unjoined_seconds: float = 3_600.0  # an unfinished table nobody took a seat at, untouched this long, goes
    # a game people sat down to and nobody moved in for this long is closed, and its deal's proof shown
    # to its people (``Tables.close_stale``): thirty days, a long holiday's pause
    unfinished_seconds: float = 30 * 86_400.0


class Bucket:
    """A token bucket: ``rate`` tokens a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = time.monotonic()
        self.spent = 0.0  # tokens taken since the other processes were last told (``shared_limits``)
        self.seen: float | None = None  # the whole server's spending of this key at the last look (``shared_limits``)

    def refill(self, now: float | None = None) -> float:
        """The level now (the tokens earned since the last look added)."""
        now = time.monotonic() if now is None else now
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        return self.level

    def take(self) -> bool:
        return take_all(self)


def take_all(*buckets: Bucket | None) -> bool:
    """One token from each bucket (None: no such limit), or none at all when one of them is empty.

    Why all or none: a message refused by the address's bucket must not also spend the
    connection's token, or a neighbour's flood would starve a quiet person's own budget.
    """
    now = time.monotonic()
    present = [b for b in buckets if b is not None]
    if any(b.refill(now) < 1 for b in present):
        return False
    for b in present:
        b.level -= 1
        b.spent += 1
    return True


class Buckets:
    """One bucket per key (a seat, an address), made on first use and forgotten once full again.

    Why forgotten: a full bucket is the same as a new one, so dropping it loses nothing, and the
    keys an attacker can make up (addresses, tables) never grow the server's memory for good.
    """

    def __init__(self, rate: tuple[float, float]) -> None:
        self.rate, self.burst = rate
        self._buckets: dict[Hashable, Bucket] = {}
        self._pruned_at = 64  # size at which to look for full buckets next (doubles: amortised O(1))

    def __call__(self, key: Hashable) -> Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._pruned_at:
                self._prune()
            bucket = self._buckets[key] = Bucket(self.rate, self.burst)
        return bucket

    def _prune(self) -> None:
        now = time.monotonic()
        self._buckets = {k: b for k, b in self._buckets.items() if b.refill(now) < b.burst or b.spent}
        self._pruned_at = max(64, 2 * len(self._buckets))

    def take_spent(self) -> dict[Hashable, float]:
        """Every bucket's tokens taken since the last call (zeros too: each then learns the whole server's
        level), which it forgets (``shared_limits``)."""
        spent = {}
        for key, bucket in self._buckets.items():
            spent[key], bucket.spent = bucket.spent, 0.0
        return spent

    def shared(self, key: Hashable, level: float, total: float, mine: float, at: float, lag: float) -> None:
        """What Redis answered for ``key`` (``shared_limits``): the whole server's bucket at ``level``
        and its spending at ``total``, as asked at ``at`` (monotonic), ``mine`` of it this
        process's since its last look; ``lag``: seconds between looks.

        A bucket's first look (a new one, or one made again after it was full and forgotten)
        takes the whole server's level if that is lower than its own by more than a look's
        refill (less what it spent since, refilled since ``at``): another process's client
        spent it.  Every later look takes only what the other processes spent since the last
        one (``total`` less ``mine`` and the last total) off the bucket, never more than a burst
        into debt.  Why not the level every time: Redis refills its bucket once a look and caps
        it then, so near full it falls behind the bucket here by up to a look's refill, and a
        page keeping its rate was refused (the load bench's "throttled", every one a seat's
        bucket); the bucket here refills exactly, and the others' spending is all it needs from
        Redis.  A client spread over the processes so gains at most a look's refill.
        """
        bucket = self._buckets.get(key)
        if bucket is None:
            return
        if bucket.seen is None:
            own = bucket.refill()
            bucket.level = min(bucket.burst, level + lag * bucket.rate) - bucket.spent
            bucket.at = at
            bucket.level = min(own, bucket.refill())
        else:
            others = total - mine - bucket.seen
            if others > 0:
                bucket.refill()
                bucket.level = max(-bucket.burst, bucket.level - others)
        bucket.seen = total

    def __len__(self) -> int:
        return len(self._buckets)


def peer_address(scope: Scope) -> str:
    """The client's address, as the limits count it (the ASGI scope of a request or a WebSocket).

    It is ``guard.client_address``'s: behind a reverse proxy named by ``--proxy``, the forwarded
    address of each client, and never a forwarded address from anyone else.
    """
    return client_address(scope) or "unknown"


@dataclass(frozen=True)
class Refusal:
    """A connection refused: ``message`` is said in an error frame if ``answered``, else it is closed unaccepted."""

    message: str
    answered: bool = True


class Elsewhere(Protocol):
    """The other server processes' connections (``shared_limits.RedisLimits``)."""

    async def elsewhere(self, kind: str, key: Hashable) -> int: ...


class Accounts:
    """The per-address and per-seat counts of one server (all on its event loop: no locks)."""

    def __init__(self, limits: Limits, rate: tuple[float, float]) -> None:
        """``rate``: one connection's messages per second and burst; a seat's windows share as much."""
        self.limits = limits
        self.open: dict[str, int] = {}  # address -> open WebSocket connections
        self.by_address = Buckets(limits.address_rate)
        self.by_seat = Buckets(rate)  # (table id, seat) -> one bucket for all of that seat's connections
        self.new_tables = Buckets(limits.new_tables)
        self.shared: Elsewhere | None = None  # the other processes' counts (``shared_limits``; None: alone)

    async def elsewhere(self, kind: str, key: Hashable) -> int:
        """The other processes' connections per ("address", address), ("seat", (table, seat)) or
        ("spectators", table): what the caps add to this process's own (0 for a process alone)."""
        return 0 if self.shared is None else await self.shared.elsewhere(kind, key)

    def connect(self, address: str, elsewhere: int = 0) -> Refusal | None:
        """Count a new connection from ``address``; why it is refused (then it is not counted), or None.

        ``elsewhere``: the address's connections to the other processes (``Accounts.elsewhere``).

        Why every attempt costs a token, refused or not: a client at its cap that reconnects in
        a loop soon has none, and is then refused before the WebSocket is accepted (an HTTP 403,
        far cheaper than accepting it to say why, then closing it).
        """
        if not take_all(self.by_address(address)):
            return Refusal("too many connections opened from your address: slow down", answered=False)
        if self.open.get(address, 0) + elsewhere >= self.limits.connections_per_address:
            return Refusal(f"too many connections from your address (at most {self.limits.connections_per_address})")
        self.open[address] = self.open.get(address, 0) + 1
        return None

    def disconnect(self, address: str) -> None:
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)

    def may_create(self, address: str) -> bool:
        """Whether ``address`` may create a table now (and it counts)."""
        return take_all(self.new_tables(address))

    def retry_after(self, address: str) -> int:
        """Whole seconds until ``address`` may create a table again (for ``Retry-After``)."""
        bucket = self.new_tables(address)
        return max(1, int((1 - bucket.refill()) / bucket.rate) + 1)
