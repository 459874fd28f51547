"""Table events, published once and delivered to every connection watching that table.

Why an interface of its own: one process serving every table needs only in-memory queues
(``LocalPubSub``, the default); several server processes on one database put Redis pub/sub
behind the same two calls (``bus.RedisPubSub``, ``serve --bus``).  A message is a small
JSON-ready dict (the table's new action count and its public events), never a seat's private
view, so a subscriber reloads or re-reads the table and renders its own seat.  Besides the two
calls, a bus has a lifespan (``start``, ``close``), answers ``ping`` (``/healthz``) and may tell
the tables of other processes' messages (``attach``: nothing to tell in process).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol


class Subscription(Protocol):
    def __aiter__(self) -> AsyncIterator[dict[str, Any]]: ...

    def close(self) -> None: ...


class PubSub(Protocol):
    """What the server needs from a message bus (topic = table id)."""

    async def publish(self, topic: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, topic: str) -> Subscription: ...

    async def deliver(self, topic: str, message: dict[str, Any]) -> None:
        """To this process's subscribers only (what a table here made of another process's message)."""

    def attach(self, remote: Callable[[str, dict[str, Any]], Awaitable[None]],
               state: Callable[[bool], Awaitable[None]]) -> None: ...

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> bool: ...


class LocalSubscription:
    """One subscriber's bounded queue of a topic's messages (``LocalPubSub.subscribe``)."""

    def __init__(self, hub: LocalPubSub, topic: str, limit: int) -> None:
        self._hub = hub
        self._topic = topic
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()  # bounded by ``put``
        self._limit = limit

    def put(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() >= self._limit:
            # A subscriber that cannot keep up is dropped (its connection resynchronises from the
            # table on reconnect) rather than let one slow browser grow the server's memory.
            self.close()
            return
        self.queue.put_nowait(message)

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            yield message

    def close(self) -> None:
        subs = self._hub._subs.get(self._topic)
        if subs is not None and self in subs:
            subs.remove(self)
            if not subs:
                del self._hub._subs[self._topic]
        self.queue.put_nowait(None)


class LocalPubSub:
    """In-process publish/subscribe: one bounded asyncio queue per subscriber."""

    def __init__(self, limit: int = 1000) -> None:
        self._subs: dict[str, list[LocalSubscription]] = defaultdict(list)
        self._limit = limit

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        for sub in list(self._subs.get(topic, ())):
            sub.put(message)

    def subscribe(self, topic: str) -> LocalSubscription:
        sub = LocalSubscription(self, topic, self._limit)
        self._subs[topic].append(sub)
        return sub

    def subscribers(self, topic: str) -> int:
        return len(self._subs.get(topic, ()))

    def topics(self) -> set[str]:
        """The topics with a subscriber now (``bus.RedisPubSub`` subscribes to their channels)."""
        return set(self._subs)

    async def deliver(self, topic: str, message: dict[str, Any]) -> None:
        await self.publish(topic, message)

    def attach(self, remote: Callable[[str, dict[str, Any]], Awaitable[None]],
               state: Callable[[bool], Awaitable[None]]) -> None:
        """No other process publishes here: nothing to hand on."""

    async def start(self) -> None:
        """Nothing to connect to."""

    async def close(self) -> None:
        """Nothing to let go of."""

    async def ping(self) -> bool:
        return True
