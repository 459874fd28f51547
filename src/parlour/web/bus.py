"""What server processes share through Redis (``--bus``): the event bus behind the ``PubSub`` interface
(``RedisPubSub``), who runs each table's computer players (``RedisLeases``) and who is connected
where (``RedisPresence``); their in-process stand-ins (``LocalLeases``, ``LocalPresence``) serve a
process alone.

Why Redis and this shape: several ``parlour serve`` processes (on one host or several) share
one database; a person's move saved by one must reach the browsers of every other process
watching that table.  Each process keeps one Redis connection subscribed to the channels of
the tables it has watchers for (``parlour:t:<table id>``), and delivers:

- its own messages at once, in process (``LocalPubSub``), so a table served by one process
  costs no Redis round trip before its browsers hear of it, and keeps working while Redis is away;
- another process's messages to ``remote`` (``Tables.remote``), which never trusts what they say
  of the game: it reads the table from the store and builds each seat's view itself.  A message
  is a table's public events and action count, never a seat's view, a token or a card hidden from
  anyone (a private move is ``action: None``), so nothing secret ever goes into Redis.

When the connection to Redis is lost, ``state(False)`` tells the tables (the pages say
"reconnecting"); the bus reconnects with a backoff, subscribes again, and ``state(True)``
has every watched table reloaded from the store, where whatever happened meanwhile is.  A
table newly subscribed is reloaded the same way once Redis confirms the subscription
(``remote(topic, SUBSCRIBED)``): what was published before it took effect is in the store too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Protocol

from .jsontext import decode, encode
from .pubsub import LocalPubSub, LocalSubscription

log = logging.getLogger("parlour.web")

PREFIX = "parlour:t:"
#: What ``remote`` gets for a table whose channel has just been subscribed (not a message of anyone's).
SUBSCRIBED: dict[str, Any] = {"subscribed": True}
#: What a process publishes on a table's channel once its subscription is confirmed (``_confirmed``),
#: and what the others answer it with: the bus's own, never handed to the tables as a move's message.
HELLO: dict[str, Any] = {"hello": True}
POKE: dict[str, Any] = {"poke": True}
POOL = 32  # Redis connections of a process's client, waited for when all are busy (the reader has its own)
OUTBOX = 10_000  # messages kept for Redis while it is away (then dropped: the others reload from the store)
POLL = 0.05  # seconds the reader waits for a message before it looks for new subscriptions
#: messages the reader takes in one go before it looks for new subscriptions again.  Why not one:
#: each look walks every table with a watcher here (``_follow``), and a reader that looked between
#: every two messages fell behind them under load (the load bench at 200 tables: 6,344 looks for
#: 5,507 messages in 15 s; 368 with this); a reader behind has a new table's subscription confirmed
#: late, and until then the table is not known to be alone (``_heard_by``): its messages go to
#: Redis and back, which puts the reader further behind
DRAIN = 32
BACKOFF = (0.2, 2.0)  # seconds before reconnecting to Redis: first, and at most

Remote = Callable[[str, dict[str, Any]], Awaitable[None]]
BusState = Callable[[bool], Awaitable[None]]


def redacted(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    head, sep, tail = url.rpartition("@")
    if not sep or "://" not in head:
        return url
    scheme, _, user = head.partition("://")
    return f"{scheme}://{user.split(':', 1)[0]}{':***' if ':' in user else ''}@{tail}"


class RedisPubSub:
    """``PubSub`` across processes through Redis (``redis://HOST:PORT/DB``); ``start`` once the loop runs."""

    def __init__(self, url: str, *, limit: int = 1000) -> None:
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("the bus is a redis:// (or rediss://, unix://) URL")
        self.url = url
        # this process's mark on its messages (its own come back to it) and its leases: its process id
        # (which one holds a table, for an operator), and random, as a process id is used again
        self.origin = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.local = LocalPubSub(limit)
        self.healthy = False
        self._remote: Remote | None = None
        self._state: BusState | None = None
        self._client: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._subscribed: set[str] = set()
        self._warned = False
        self._outbox: list[tuple[str, str]] = []  # (table, message) published here, not yet sent to Redis
        self._sender: asyncio.Task[None] | None = None
        self._listening: set[str] = set()  # the tables whose channel Redis confirmed we subscribe to
        self._alone: set[str] = set()  # ... and where our last message reached nobody else (``publish``)
        #: how many subscriptions each table's channel has seen made since we asked for it: ours confirmed
        #: (``_confirmed``, again after a reconnection) and others' (their hellos): ``_heard_by``
        self._joins: dict[str, int] = {}

    def attach(self, remote: Remote, state: BusState) -> None:
        """Who hears of other processes' messages (``remote``) and of Redis lost and back (``state``)."""
        self._remote, self._state = remote, state

    @property
    def client(self) -> Any:
        """The ``redis.asyncio.Redis`` client (the leases share it)."""
        if self._client is None:
            import redis.asyncio as aioredis
            from redis.asyncio.retry import Retry
            from redis.backoff import ExponentialBackoff

            # A connection that Redis closed (a restart) is found dead on its next use: tried again at once.
            # A pool that waits for a free connection rather than raising: under load hundreds of tables'
            # commands at once took all of redis-py's (``MaxConnectionsError``, the load bench).
            pool = aioredis.BlockingConnectionPool.from_url(
                self.url, max_connections=POOL, timeout=5, socket_connect_timeout=2, socket_timeout=5,
                health_check_interval=2, retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), 2))
            self._client = aioredis.Redis(connection_pool=pool)
        return self._client

    async def start(self) -> None:
        self._reader = asyncio.get_running_loop().create_task(self._read(), name="parlour-bus")

    async def close(self) -> None:
        if self._sender is not None:  # what was published goes out first (a draining process's last moves)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._sender), 2)
        await ended(self._reader)
        self._reader = None
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()
            self._client = None

    async def ping(self) -> bool:
        """Whether Redis answers now (``/healthz``)."""
        try:
            async with asyncio.timeout(2):
                return bool(await self.client.ping())
        except Exception as exc:  # noqa: BLE001 -- any failure is "unavailable"; the cause goes to the log
            log.warning("health check: the bus at %s is unavailable: %s", redacted(self.url), type(exc).__name__)
            return False

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        """To this process's watchers now, and to Redis by the sender (``_send``), in the order published.

        Why not a round trip per message: with hundreds of tables moving at once, the awaits
        overlapped until the client's pool of connections ran out (``MaxConnectionsError``: the
        load bench), and every table's next move waited on Redis.  The sender takes everything
        published meanwhile in one pipeline on one connection.
        """
        await self.local.publish(topic, message)
        if topic in self._alone:  # nobody else listens: see ``_heard_by``
            return
        self._post(topic, message)

    def _post(self, topic: str, message: dict[str, Any]) -> None:
        """``message`` to Redis, by the sender."""
        if len(self._outbox) >= OUTBOX:  # Redis away a long while: the others reload from the store when it is back
            self._outbox.clear()
        self._outbox.append((topic, encode({"o": self.origin, "m": message})))
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send(), name="parlour-bus-send")

    def _heard_by(self, topic: str, receivers: int, joins: int) -> None:
        """Redis says how many subscribers a message of ours reached: one, on a channel we subscribe
        to, is ourselves alone, and the table's next messages are not sent at all; none, on a channel
        we asked for and Redis has not confirmed yet, is nobody at all, likewise.

        Why: a table whose people are all connected here (a person against the computer, on any
        number of processes) had every message sent to Redis and read back here, for nobody (the
        load bench on one process: all of them).  Safe because a process that subscribes later
        says so (``HELLO``, once Redis confirmed its subscription, so after any message it could
        have missed); the process that stopped sending answers it (``POKE``) and sends again, and
        the newcomer, at the hello's answer as at its subscription, reads the table from the
        store, where every move that was not sent is.  ``joins``: the table's count of subscriptions
        made (``_joins``) when the message was sent; one made meanwhile keeps us sending.  Another's
        hello: its sender subscribed after our message reached Redis.  Our own confirmation: the
        message may have reached Redis before our subscription did, and the one it reached was
        another process (ours asked for late, or made again by redis-py after a dropped connection,
        ``PubSub.on_connect``, which tells us only by confirming it again).  Counted as alone, the
        table's next moves were not sent until the answer to our hello (which reaches both) was
        read, and a move made in between never reached the other process: likely why a game
        across two servers stalled once in CI (``tests/helpers/leaks.stalled``).

        Why none counts too: a new table's first messages reach Redis before our own subscription
        does, and until Redis's confirmation is read they went to Redis for nobody and, once we
        listened, back to us; under load the reader reads that confirmation late, behind the
        echoes, and every table's messages came back to it (the load bench's bad runs: 40 to 60
        % of them).  A process that subscribed after such a message says hello once confirmed;
        we may miss that hello, not being subscribed yet, so at our own confirmation we send
        again and poke the others (``_confirmed``).  Not after it: a confirmation already read
        has had its say, and a late answer of none then says nothing of who listens now.
        """
        if receivers == 1 and topic in self._listening and self._joins.get(topic, 0) == joins:
            self._alone.add(topic)
        elif receivers == 0 and topic in self._subscribed and topic not in self._listening:
            self._alone.add(topic)  # nobody, not even us yet: see ``_confirmed``
        elif receivers > 1:
            self._alone.discard(topic)

    async def _send(self) -> None:
        try:
            while self._outbox:
                batch, self._outbox = self._outbox, []
                joins = [self._joins.get(topic, 0) for topic, _ in batch]
                try:
                    async with self.client.pipeline(transaction=False) as pipe:
                        for topic, data in batch:
                            pipe.publish(PREFIX + topic, data)
                        reached = await pipe.execute()
                    for (topic, _), receivers, joined in zip(batch, reached, joins, strict=True):
                        self._heard_by(topic, int(receivers), joined)
                    self._warned = False
                except Exception as exc:  # noqa: BLE001 -- Redis away: the store has it; the others reload when it is back
                    if not self._warned:
                        log.warning("the bus at %s is unreachable (%s): other processes reload from the store "
                                    "when it is back", redacted(self.url), type(exc).__name__)
                        self._warned = True
        finally:
            self._sender = None

    async def deliver(self, topic: str, message: dict[str, Any]) -> None:
        await self.local.publish(topic, message)

    def subscribe(self, topic: str) -> LocalSubscription:
        return self.local.subscribe(topic)  # the reader subscribes its channel within ``POLL``

    def subscribers(self, topic: str) -> int:
        return self.local.subscribers(topic)

    async def _set_healthy(self, healthy: bool) -> None:
        if healthy == self.healthy:
            return
        self.healthy = healthy
        if self._state is not None:
            try:
                await self._state(healthy)
            except Exception:
                log.exception("the bus's change of state was not taken in")

    async def _read(self) -> None:
        backoff = BACKOFF[0]
        control = f"parlour:p:{self.origin}"  # a channel of this process's own: the connection is held with no table
        while True:
            pubsub = self.client.pubsub()
            try:
                await pubsub.subscribe(control)
                self._subscribed = set()
                self._listening, self._alone, self._joins = set(), set(), {}
                await self._set_healthy(True)
                backoff = BACKOFF[0]
                while True:
                    await self._follow(pubsub)
                    message = await pubsub.get_message(timeout=POLL)
                    for taken in range(1, DRAIN + 1):  # what is here already, then the next look at the subscriptions
                        if message is None:
                            break
                        if message.get("type") == "message":
                            await self._received(message)
                        elif message.get("type") == "subscribe":
                            await self._confirmed(message)
                        if taken < DRAIN:
                            message = await pubsub.get_message(timeout=0)
                    raise_if_cancelled()
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as exc:  # noqa: BLE001 -- Redis lost: tell the tables, try again
                log.warning("lost the bus at %s (%s); reconnecting", redacted(self.url), type(exc).__name__)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await self._set_healthy(False)
                raise_if_cancelled()
                await asyncio.sleep(backoff)
                backoff = min(BACKOFF[1], backoff * 2)

    async def _follow(self, pubsub: Any) -> None:
        """Subscribe the tables that have watchers here now, and unsubscribe the rest."""
        wanted = self.local.topics()
        new, gone = wanted - self._subscribed, self._subscribed - wanted
        if gone:
            await pubsub.unsubscribe(*[PREFIX + t for t in gone])
            self._listening -= gone
            self._alone -= gone
            for topic in gone:
                self._joins.pop(topic, None)
        if new:
            await pubsub.subscribe(*[PREFIX + t for t in new])
        self._subscribed = wanted

    async def _confirmed(self, message: dict[str, Any]) -> None:
        """Redis confirmed a table's subscription: from now on every message for it reaches us, and
        what was published before is in the store (``remote(topic, SUBSCRIBED)`` reads it).

        Why on the confirmation and not as the subscription is sent: Redis may take a message
        published meanwhile before our SUBSCRIBE, and a store read made before then could miss
        the write that message told of (a demo asked through another process: it was never played).
        """
        channel = message["channel"]
        name = channel.decode() if isinstance(channel, bytes) else str(channel)
        topic = name[len(PREFIX):]
        if name.startswith(PREFIX) and topic in self._subscribed:
            self._listening.add(topic)
            self._joins[topic] = self._joins.get(topic, 0) + 1  # an answer to a message sent before says nothing
            self._post(topic, HELLO)  # a process that stopped sending this table's messages sends again
            if topic in self._alone:  # alone before we listened (``_heard_by``): a hello of another's may
                self._alone.discard(topic)  # have gone by; it reads what we kept from it
                self._post(topic, POKE)
            await self._hand_on(topic, SUBSCRIBED)

    async def _received(self, message: dict[str, Any]) -> None:
        channel = message["channel"]
        topic = (channel.decode() if isinstance(channel, bytes) else str(channel))[len(PREFIX):]
        try:
            data = decode(message["data"])
        except ValueError:
            log.warning("a message on the bus that is not JSON was ignored")
            return
        if not isinstance(data, dict) or data.get("o") == self.origin or not isinstance(data.get("m"), dict):
            return
        if data["m"] == HELLO:  # another process listens now: it hears from us again (``_heard_by``)
            self._joins[topic] = self._joins.get(topic, 0) + 1
            if topic in self._alone:  # we may have kept moves from it since it subscribed: it reads them now
                self._alone.discard(topic)
                self._post(topic, POKE)
            return
        await self._hand_on(topic, data["m"])

    async def _hand_on(self, topic: str, message: dict[str, Any]) -> None:
        if self._remote is None:
            if message is not SUBSCRIBED:
                await self.local.publish(topic, message)
            return
        try:
            await self._remote(topic, message)
        except Exception:
            log.exception("table %s: another process's message was not taken in", topic)


class Leases(Protocol):
    """Which tables' computer players this process runs (``Tables``)."""

    def attach(self, acquired: Callable[[str], Awaitable[None]], wanted: Callable[[], set[str]]) -> None: ...

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def acquire(self, table_id: str) -> bool: ...

    def holds(self, table_id: str) -> bool: ...


class LocalLeases:
    """One process serves every table: it always owns their computer players."""

    def attach(self, acquired: Callable[[str], Awaitable[None]], wanted: Callable[[], set[str]]) -> None:
        """Nothing is ever taken from this process, nor handed to it."""

    async def start(self) -> None:
        """Nothing to renew."""

    async def close(self) -> None:
        """Nothing to hand on."""

    async def acquire(self, table_id: str) -> bool:
        return True

    def holds(self, table_id: str) -> bool:
        return True


#: Take each lease of KEYS that nobody holds (``SET NX PX``), and renew those that are ours; answers
#: 1 for each one ours now, else 0.  Why one call for all: a process renews every table's lease each
#: ``RENEW`` seconds, and a command per table was packed and parsed in the event loop.
_TAKE = """
local answers = {}
for i, key in ipairs(KEYS) do
    local held = redis.call('get', key)
    if held == ARGV[1] then
        answers[i] = redis.call('pexpire', key, ARGV[2])
    elseif held then
        answers[i] = 0
    else
        redis.call('set', key, ARGV[1], 'PX', ARGV[2])
        answers[i] = 1
    end
end
return answers
"""
#: Hand on each lease of KEYS that is ours.
_GIVE_UP = """
for i, key in ipairs(KEYS) do
    if redis.call('get', key) == ARGV[1] then redis.call('del', key) end
end
return 0
"""


class RedisLeases:
    """Which process runs a table's computer players: a lease per table in Redis, with an expiry.

    Why a Redis lock and not a PostgreSQL advisory lock: an advisory lock belongs to a database
    session, so a process would hold one connection out of its pool for every table it owns
    (hundreds), and it would not exist at all on SQLite; a lease in Redis is one key per table
    (``parlour:lease:<id>``, holding the owner's random mark, nothing secret), renewed for all of
    a process's tables in one round trip, on any store.  Why an expiry: a process killed (``kill
    -9``, a lost host) cannot hand its leases on; they lapse after ``TTL`` seconds and a process
    that watches the table takes it over on its next look (every ``RENEW`` seconds), so within
    ``TTL + RENEW``.  A process that cannot renew (Redis away) stops moving for a table ``MARGIN``
    before its lease may lapse.  What makes this safe even if two processes both believe they
    own a table for a moment (Redis restarted empty): every move is saved with the store's
    compare-and-set on the action count, so of two moves made from the same position one is
    refused and its maker reloads -- no move is made twice, and none that was acknowledged is lost.
    """

    TTL = 3.0
    RENEW = 1.0
    MARGIN = 0.5

    def __init__(self, bus: RedisPubSub) -> None:
        self.bus = bus
        self.mark = bus.origin
        self._held: dict[str, float] = {}  # table id -> until when (monotonic) it is surely ours
        self._acquired: Callable[[str], Awaitable[None]] | None = None
        self._wanted: Callable[[], set[str]] = set
        self._task: asyncio.Task[None] | None = None
        self._take: Any = None
        self._give_up: Any = None

    def attach(self, acquired: Callable[[str], Awaitable[None]], wanted: Callable[[], set[str]]) -> None:
        """``acquired(id)``: a lease taken on a later look; ``wanted()``: the tables this process would run."""
        self._acquired, self._wanted = acquired, wanted

    def _scripts(self) -> None:
        if self._take is None:
            self._take = self.bus.client.register_script(_TAKE)
            self._give_up = self.bus.client.register_script(_GIVE_UP)

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._renew_loop(), name="parlour-leases")

    async def close(self) -> None:
        """Stop renewing, and hand every lease on at once (a graceful stop: another process takes over now)."""
        await ended(self._task)
        self._task = None
        held, self._held = list(self._held), {}
        if held:
            with contextlib.suppress(Exception):
                self._scripts()
                await self._give_up(keys=[_lease_key(table_id) for table_id in held], args=[self.mark])

    def holds(self, table_id: str) -> bool:
        return self._held.get(table_id, 0.0) > time.monotonic()

    async def acquire(self, table_id: str) -> bool:
        """Whether this process owns the table's computer players now (taking the lease if it is free)."""
        if self.holds(table_id):
            return True
        return table_id in await self._look([table_id])

    async def _look(self, table_ids: list[str]) -> set[str]:
        """Take or renew the leases of ``table_ids``; the ones now ours."""
        self._scripts()
        asked = time.monotonic()
        try:
            answers = await self._take(keys=[_lease_key(t) for t in table_ids], args=[self.mark, int(self.TTL * 1000)])
        except Exception as exc:  # noqa: BLE001 -- Redis away: what is held lapses by itself
            log.debug("leases not renewed: %s", type(exc).__name__)
            return {t for t in table_ids if self.holds(t)}
        ours: set[str] = set()
        for table_id, answer in zip(table_ids, answers, strict=True):
            if answer:
                self._held[table_id] = asked + self.TTL - self.MARGIN
                ours.add(table_id)
            else:
                self._held.pop(table_id, None)
        return ours

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.RENEW)
            try:
                wanted = self._wanted()
                gone = [t for t in self._held if t not in wanted]  # no longer here: handed on
                for table_id in gone:
                    del self._held[table_id]
                if gone:
                    with contextlib.suppress(Exception):
                        self._scripts()
                        await self._give_up(keys=[_lease_key(t) for t in gone], args=[self.mark])
                before = {t for t in wanted if self.holds(t)}
                ours = await self._look(sorted(wanted)) if wanted else set()
                for table_id in ours - before:
                    if self._acquired is not None:
                        await self._acquired(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the leases' renewal failed; trying again")
            raise_if_cancelled()


def raise_if_cancelled() -> None:
    """Raise ``CancelledError`` if this task has been asked to stop.

    Why: redis-py sometimes swallows a cancellation that lands while it reads an answer (its
    issues 2028 and 2551): the call returns, or fails, as if nothing had happened, and only
    ``Task.cancelling()`` still holds the request, so a loop that goes on to its next ``await``
    never stops.  With redis-py 8.1, 27 of 150 cancellations of a script call were lost that way,
    and a server process then never finished its graceful stop (its lifespan waited on the loop
    of ``RedisLimits.look`` forever).  Each background loop of the bus calls this after every
    round of Redis calls, and ``ended`` asks again.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


#: how many times ``ended`` asks a task to stop, and the seconds it waits after each
END_TRIES = 5
END_WAIT = 1.0


async def ended(task: asyncio.Task[None] | None) -> None:
    """Cancel a background task of the bus and wait for it to end.

    Asked again after each ``END_WAIT`` (a cancellation may be lost: ``raise_if_cancelled``), and
    given up after ``END_TRIES`` with a warning, so a graceful stop never waits on it for ever.
    """
    if task is None:
        return
    for _ in range(END_TRIES):
        task.cancel()
        await asyncio.wait({task}, timeout=END_WAIT)
        if task.done():
            if not task.cancelled():
                task.exception()  # (retrieved: a failure at its end is no news at a stop)
            return
    log.warning("the background task %s did not stop; going on without it", task.get_name())


def periodic(every: float, work: Callable[[], Awaitable[None]], name: str, what: str) -> asyncio.Task[None]:
    """``work`` every ``every`` seconds in a task of its own (``ended`` stops it).  A failure (Redis
    away) is logged at debug level as "``what`` not shared" and the next round tries again."""
    async def loop() -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 -- Redis away: what is known stands meanwhile
                log.debug("%s not shared: %s", what, type(exc).__name__)
            raise_if_cancelled()
    return asyncio.get_running_loop().create_task(loop(), name=name)


def _lease_key(table_id: str) -> str:
    return f"parlour:lease:{table_id}"


class Presence(Protocol):
    """Which seats have a connection in another process (``Tables.seen_elsewhere``)."""

    def attach(self, here: Callable[[Collection[str] | None], dict[str, set[int]]],
               elsewhere: Callable[[str, set[int], dict[int, float]], Awaitable[None]]) -> None: ...

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def look(self, only: Collection[str] | None = None) -> None: ...


class LocalPresence:
    """One process: every connection is here."""

    def attach(self, here: Callable[[Collection[str] | None], dict[str, set[int]]],
               elsewhere: Callable[[str, set[int], dict[int, float]], Awaitable[None]]) -> None:
        """Nobody is anywhere else."""

    async def start(self) -> None:
        """Nothing to tell."""

    async def close(self) -> None:
        """Nothing to take back."""

    async def look(self, only: Collection[str] | None = None) -> None:
        """Nothing to look at."""


#: One presence look in one call: for each table's hash of KEYS, this process's connected seats
#: written (ARGV: how long a hash is kept, in ms, then for each table in turn how many fields, and
#: each field and value), the hash read (its fields and values, flat) and kept ``KEPT`` on.  Why
#: one call: three commands a table, every second, were packed and parsed in the event loop.
_PRESENCE = """
local kept = ARGV[1]
local at = 2
local answers = {}
for i, key in ipairs(KEYS) do
    local n = tonumber(ARGV[at])
    for j = 1, n do
        redis.call('HSET', key, ARGV[at + 2 * j - 1], ARGV[at + 2 * j])
    end
    at = at + 2 * n + 1
    answers[i] = redis.call('HGETALL', key)
    redis.call('PEXPIRE', key, kept)
end
return answers
"""


class RedisPresence:
    """The seats connected in each process, shared in Redis: who is at a table, whichever process serves them.

    Why: a page shows who is connected, and a table made with a takeover lets a computer play a
    person's seat once it has had no connection for its grace period; with the people of one table
    on several processes, each process saw only its own connections (and the owner of the table's
    computer players would take over the seat of a person connected to another process).  Every
    ``EVERY`` seconds a process writes, for each table it has in memory, the seats connected to it
    (``parlour:seen:<table>``, a hash of ``<seat>:<process mark>`` -> until when, ``TTL`` seconds
    on), and reads the others'.  A process that dies stops writing: its people count as gone
    ``TTL`` seconds later.  Nothing in it but seat numbers and process marks.  The hash is kept
    ``KEPT`` seconds, so a process that takes a table over (its owner died) knows since when
    each absent person has been away, and a takeover's grace period does not start again.
    """

    EVERY = 1.0
    TTL = 3.0
    KEPT = 3600.0  # seconds a table's hash stays after its last write: when each seat was last seen, for a grace period

    def __init__(self, bus: RedisPubSub) -> None:
        self.bus = bus
        self.mark = bus.origin
        self._here: Callable[[Collection[str] | None], dict[str, set[int]]] = lambda only: {}
        self._elsewhere: Callable[[str, set[int], dict[int, float]], Awaitable[None]] | None = None
        self._seen: dict[str, set[int]] = {}
        self._task: asyncio.Task[None] | None = None
        self._every_table = False  # a look at every table asked for and not yet begun
        self._tables: set[str] = set()  # the tables asked for and not yet looked at
        self._looking: asyncio.Task[None] | None = None
        self._script: Any = None  # _PRESENCE, registered on first use

    def attach(self, here: Callable[[Collection[str] | None], dict[str, set[int]]],
               elsewhere: Callable[[str, set[int], dict[int, float]], Awaitable[None]]) -> None:
        self._here, self._elsewhere = here, elsewhere

    async def start(self) -> None:
        self._task = periodic(self.EVERY, self.look, "parlour-presence", "presence")

    async def close(self) -> None:
        await ended(self._task)
        self._task = None

    async def look(self, only: Collection[str] | None = None) -> None:
        """Write this process's connected seats, read the others' (once a second, and in tests); ``only``:
        just these tables' (one loaded, a connection opened or closed at it).

        Why coalesced: a table loaded and every connection opened or closed asks for a look, and
        under load they came faster than the looks took, each holding a Redis connection of the
        pool until it ran out (bench/bench_web_load.py: ``MaxConnectionsError``).  A look asked
        for while one runs is added to what the running one does next, and waits for it.
        """
        if only is None:
            self._every_table = True
        else:
            self._tables.update(only)
        if self._looking is None:
            self._looking = asyncio.get_running_loop().create_task(self._looks(), name="parlour-presence-look")
        await asyncio.shield(self._looking)

    async def _looks(self) -> None:
        try:
            while self._every_table or self._tables:
                every, tables = self._every_table, self._tables
                self._every_table, self._tables = False, set()
                await self._look(None if every else tables)
        except Exception as exc:  # noqa: BLE001 -- Redis away: the last known presence stands meanwhile
            log.debug("presence not shared: %s", type(exc).__name__)
        finally:
            self._looking = None

    async def _look(self, only: set[str] | None) -> None:
        here = self._here(only)
        if not here:
            return
        now = int(time.time() * 1000)
        until = now + int(self.TTL * 1000)
        tables = sorted(here)
        if self._script is None:
            self._script = self.bus.client.register_script(_PRESENCE)
        args: list[Any] = [int(self.KEPT * 1000)]
        for table_id in tables:
            seats = sorted(here[table_id])
            args.append(len(seats))
            args += [x for seat in seats for x in (f"{seat}:{self.mark}", until)]
        answers = await self._script(keys=[f"parlour:seen:{t}" for t in tables], args=args)
        for table_id, flat in zip(tables, answers, strict=True):
            found: dict[bytes, bytes] = dict(zip(flat[::2], flat[1::2], strict=True))
            elsewhere = set()
            last_seen: dict[int, float] = {}  # seat -> when a process last had it connected (epoch seconds)
            for name, value in found.items():
                seat, _, mark = name.decode().partition(":")
                if not seat.isdigit():
                    continue
                if mark != self.mark and int(value) > now:
                    elsewhere.add(int(seat))
                seen = (int(value) - self.TTL * 1000) / 1000
                last_seen[int(seat)] = max(last_seen.get(int(seat), seen), seen)
            if table_id not in self._seen or elsewhere != self._seen[table_id]:  # (a table new here: its clock)
                self._seen[table_id] = elsewhere
                if self._elsewhere is not None:
                    await self._elsewhere(table_id, elsewhere, last_seen)
        if only is None:
            for table_id in [t for t in self._seen if t not in here]:
                del self._seen[table_id]
