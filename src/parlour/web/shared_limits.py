"""The per-address and per-seat limits (``limits.Accounts``) shared between server processes, in Redis.

Why: with several processes behind one proxy, a client's connections and messages are spread
over them by the kernel or the proxy, and limits kept by each process alone would let it take
as many times its share as there are processes.  Why not a Redis round trip for every message:
the message rate is checked on every message a browser sends, and a round trip there would
add latency and CPU to every move (the load target holds the bus's whole cost to half again
SQLite's).  So each process keeps its buckets and counts where they are, and every ``EVERY``
seconds (``RedisLimits.look``), in one script call:

- tells Redis what each of its buckets spent since the last look: Redis keeps the whole
  server's bucket of each key (``parlour:bucket:<kind>:<key>``: its level and when, refilled
  at the one rate by a script on Redis's clock, and the total ever spent), takes the spending
  from it and answers its level and total.  A process's new bucket takes that level where it
  is lower than its own by more than a look's refill; after that, the others' spending since
  the last look (from the totals) comes off the process's own bucket (``Buckets.shared``).
  Every process so sees everyone's spending, a look late, and the limit holds for the whole
  server;
- writes how many connections it has per address, per seat and per table's spectators
  (``parlour:n:<kind>:<key>``, a hash of process mark -> count and until when).  A connection
  being opened reads the others' count of its address, seat or table (``elsewhere``: one round
  trip, as a connection opens, never as a message comes), which the caps add to this
  process's own.  A process that dies stops writing: its counts lapse ``TTL`` seconds later.

So a client that spreads itself over the processes gains at most what it can take in one
look's time.  The keys are hashed (``_key``): no client address and no table id goes into
Redis, only what the processes must agree on.  While Redis is away each process goes on with
its own accounts alone (the limits then hold per process, as before the bus).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import time
from collections.abc import Callable, Hashable
from typing import Any

from .bus import RedisPubSub, ended, periodic
from .limits import Accounts, Buckets
from .tables import Tables

log = logging.getLogger("parlour.web")

#: One look, in one call: the whole server's bucket of each key, and its spending, refilled to now
#: on Redis's clock, the spending taken (never below one burst in debt) and added to the total, kept
#: until it would be full again; then this process's connection counts written.  KEYS: the
#: buckets, then the counts; ARGV: how many buckets, rate, burst and spent for each bucket in
#: turn, this process's mark, how long a count is kept (ms), and each count's "n:until".  Answers
#: each bucket's level and total.  Why one script: a command per bucket and two per count were
#: most of the bus's cost in the load bench (each command is packed and its answer parsed in
#: the server's event loop).
_LOOK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local nb = tonumber(ARGV[1])
local answers = {}
for i = 1, nb do
    local key = KEYS[i]
    local rate, burst, spent = tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i]), tonumber(ARGV[3 * i + 1])
    local held = redis.call('HMGET', key, 'level', 'at', 'total')
    local level, at, total = tonumber(held[1]) or burst, tonumber(held[2]) or now, tonumber(held[3]) or 0
    level = math.max(-burst, math.min(burst, level + (now - at) * rate) - spent)
    total = total + spent
    redis.call('HSET', key, 'level', tostring(level), 'at', tostring(now), 'total', tostring(total))
    redis.call('PEXPIRE', key, math.ceil((burst - level) / rate * 1000) + 1000)
    answers[2 * i - 1] = tostring(level)
    answers[2 * i] = tostring(total)
end
local at = 3 * nb + 2
local mark, kept = ARGV[at], ARGV[at + 1]
for i = nb + 1, #KEYS do
    redis.call('HSET', KEYS[i], mark, ARGV[at + 1 + i - nb])
    redis.call('PEXPIRE', KEYS[i], kept)
end
return answers
"""


@functools.lru_cache(maxsize=1 << 16)
def _key(key: Hashable) -> str:
    """A bucket's or a count's key as Redis holds it: a digest, so no address or table id is written there.

    Kept (the most recent keys): every look names every bucket and count of this process, and
    hashing them all anew was a fifth of the look's CPU at 200 tables."""
    return hashlib.sha256(repr(key).encode()).hexdigest()[:24]


class RedisLimits:
    """``accounts``'s spending and counts shared with the other processes on ``bus`` (see the module)."""

    EVERY = 0.5
    TTL = 3.0  # seconds a process's counts stand after its last look (it may have died)

    def __init__(self, bus: RedisPubSub, accounts: Accounts,
                 counts: Callable[[], dict[tuple[str, Hashable], int]]) -> None:
        """``counts``: this process's connections now, per ``(kind, key)`` (``connections``)."""
        self.bus, self.accounts, self.counts = bus, accounts, counts
        self.mark = bus.origin
        accounts.shared = self
        self._script: Any = None  # _LOOK, registered on first use
        self._written: set[tuple[str, Hashable]] = set()  # counts this process has written (a zero is written once)
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        # (Redis away: each process keeps its own limits meanwhile)
        self._task = periodic(self.EVERY, self.look, "parlour-limits", "limits")

    async def close(self) -> None:
        await ended(self._task)
        self._task = None

    def _buckets(self) -> dict[str, Buckets]:
        return {"address": self.accounts.by_address, "seat": self.accounts.by_seat,
                "tables": self.accounts.new_tables}

    async def look(self) -> None:
        """Spending told and levels taken, counts written (every ``EVERY`` s, and in tests)."""
        buckets = self._buckets()
        # every bucket this process keeps (its zeros too: each learns what the others spent), in one call
        spent = [(kind, key, amount) for kind, of_kind in buckets.items()
                 for key, amount in of_kind.take_spent().items()]
        until = int(time.time() * 1000) + int(self.TTL * 1000)
        here = {k: n for k, n in self.counts().items() if n > 0}
        counts = sorted(set(here) | self._written, key=repr)
        if not spent and not counts:
            return
        if self._script is None:
            self._script = self.bus.client.register_script(_LOOK)
        keys = [f"parlour:bucket:{kind}:{_key(key)}" for kind, key, _ in spent]
        keys += [_count_key(kind, key) for kind, key in counts]
        args: list[Any] = [len(spent)]
        args += [x for kind, _, amount in spent for x in (buckets[kind].rate, buckets[kind].burst, amount)]
        args += [self.mark, int(self.TTL * 4000)]
        args += [f"{here.get((kind, key), 0)}:{until}" for kind, key in counts]
        asked = time.monotonic()
        levels = await self._script(keys=keys, args=args)
        for n, (kind, key, amount) in enumerate(spent):
            buckets[kind].shared(key, float(levels[2 * n]), float(levels[2 * n + 1]), amount, asked, self.EVERY)
        self._written = set(here)  # a count gone to zero was written as zero once: the others see it gone

    async def elsewhere(self, kind: str, key: Hashable) -> int:
        """The other processes' connections of ``kind`` and ``key`` (0 while Redis is away: this one's alone count)."""
        if not self.bus.healthy:
            return 0
        try:
            found: dict[bytes, bytes] = await self.bus.client.hgetall(_count_key(kind, key))
        except Exception as exc:  # noqa: BLE001 -- Redis away: the caps hold per process meanwhile
            log.debug("limits not shared: %s", type(exc).__name__)
            return 0
        now = int(time.time() * 1000)
        return sum(_count(value, now) for mark, value in found.items() if mark.decode() != self.mark)


def _count_key(kind: str, key: Hashable) -> str:
    return f"parlour:n:{kind}:{_key(key)}"


def connections(accounts: Accounts, tables: Tables) -> dict[tuple[str, Hashable], int]:
    """This process's connections per address, per seat and per table's spectators (``RedisLimits.counts``)."""
    out: dict[tuple[str, Hashable], int] = {("address", a): n for a, n in accounts.open.items()}
    for live in tables.live.values():
        for seat, n in live.connected.items():
            out[("seat", (live.id, seat))] = n
        if live.spectators > 0:
            out[("spectators", live.id)] = live.spectators
    return out


def _count(value: Any, now: int) -> int:
    """A process's count from its ``"n:until"`` text; 0 once lapsed or unreadable."""
    try:
        n, until = (int(part) for part in value.decode().split(":"))
    except (AttributeError, ValueError):
        return 0
    return n if until > now else 0
