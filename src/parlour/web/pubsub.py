"""Table events, published once and delivered to every connection watching that table.

Why an interface of its own: today one process serves every table and this is a set of
in-memory queues.  Several server processes on one database would put PostgreSQL's
LISTEN/NOTIFY or Redis pub/sub behind the same two calls; a message is a small JSON-ready
dict (the table's new action count and its public events), never a seat's private view,
so a subscriber reloads or re-reads the table and renders its own seat.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any, Protocol


class Subscription(Protocol):
    def __aiter__(self) -> AsyncIterator[dict[str, Any]]: ...

    def close(self) -> None: ...


class PubSub(Protocol):
    """What the server needs from a message bus (topic = table id)."""

    async def publish(self, topic: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, topic: str) -> Subscription: ...


class _LocalSubscription:
    def __init__(self, hub: LocalPubSub, topic: str, limit: int) -> None:
        self._hub = hub
        self._topic = topic
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()  # bounded by ``put``
        self._limit = limit
        self.overflowed = False

    def put(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() >= self._limit:
            # A subscriber that cannot keep up is dropped (its connection resynchronises from the
            # table on reconnect) rather than let one slow browser grow the server's memory.
            self.overflowed = True
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
        self._subs: dict[str, list[_LocalSubscription]] = defaultdict(list)
        self._limit = limit

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        for sub in list(self._subs.get(topic, ())):
            sub.put(message)

    def subscribe(self, topic: str) -> _LocalSubscription:
        sub = _LocalSubscription(self, topic, self._limit)
        self._subs[topic].append(sub)
        return sub

    def subscribers(self, topic: str) -> int:
        return len(self._subs.get(topic, ()))
