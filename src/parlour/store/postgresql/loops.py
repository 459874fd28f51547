"""Writes from an event loop to a ``PostgreSQLStore``: one connection per loop, saves grouped.

Why not the store's thread pool: a save handed to a thread comes back only when that thread
gets the interpreter from a busy loop (up to the switch interval, 5 ms), which made every save
slower (measured).  On the loop the wait costs nothing but the statement's own time.

Why grouped (a group commit): one connection answers one statement at a time, and on a busy
loop each answer is taken in a turn of the loop later, so statements sent one by one went
through at a few hundred a second and queued behind each other for up to a second (the load
bench at 200 tables).  Here the saves asked for while one group is on its way wait for it and
go next, together: one round trip, in one transaction (their compare-and-sets each as it is),
the rows in ``order`` so that two processes' groups lock them in the same order and never wait
for each other.  A group of one is a plain statement, its own transaction.

Why the group's transaction is its pipeline and not ``BEGIN`` ... ``COMMIT``: the server runs a
pipeline's statements up to its Sync (psycopg sends one as the block ends) as one implicit
transaction, committed at the Sync, or rolled back whole if one of them fails (PostgreSQL's
extended query protocol, on an autocommit connection as this one is).  The two statements more
cost psycopg more than the saves themselves: a group of two took 382 us of this process's CPU
a save with them, 125 us without (measured on an idle loop; one statement alone takes 111 us).

A connection that broke is dropped and the next group opens another; a loop that closed takes
its connection with it (``close``, or the next save on another loop).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import psycopg

from .connect import connection_settings, translate

#: a statement's answer: the rows it changed, and the first value it returned (None: none)
Answer = tuple[int, Any]


@dataclass
class _Loop:
    """One event loop's connection and the saves waiting for the next group."""

    conn: psycopg.AsyncConnection[Any] | None = None
    waiting: list[tuple[str, tuple[Any, ...], str, asyncio.Future[Answer]]] = field(default_factory=list)
    sender: asyncio.Task[None] | None = None


async def _first(cursor: psycopg.AsyncCursor[Any]) -> Any:
    """The first value of a statement's first row, if it returned rows (``RETURNING``), else None."""
    if cursor.description is None:
        return None
    row = await cursor.fetchone()
    return None if row is None else row[0]


class LoopConnections:
    """``url``'s connections, one for each running event loop (opened at its first use)."""

    def __init__(self, url: str, where: str, timeout: float) -> None:
        self.url = url
        self.where = where
        self.timeout = timeout
        self._loops: dict[asyncio.AbstractEventLoop, _Loop] = {}

    async def run(self, sql: str, args: tuple[Any, ...], order: str) -> Answer:
        """One write statement, with the group it joins: the rows it changed, and the first value it
        returned (``RETURNING``; None without) -- a ``StoreError`` if the group failed.  ``order``:
        what sorts the group's statements (the row's key)."""
        loop = asyncio.get_running_loop()
        here = self._loops.get(loop)
        if here is None:
            self._forget_closed_loops()
            here = self._loops[loop] = _Loop()
        done: asyncio.Future[Answer] = loop.create_future()
        here.waiting.append((sql, args, order, done))
        if here.sender is None:
            here.sender = loop.create_task(self._send(here), name="parlour-saves")
        return await done

    async def _send(self, here: _Loop) -> None:
        try:
            while here.waiting:
                group, here.waiting = sorted(here.waiting, key=lambda w: w[2]), []
                try:
                    counts = await self._execute(here, [(sql, args) for sql, args, _, _ in group])
                except psycopg.Error as exc:
                    failed = translate(exc, self.where)
                    for *_, done in group:
                        if not done.done():
                            done.set_exception(failed)
                    continue
                for (*_, done), n in zip(group, counts, strict=True):
                    if not done.done():
                        done.set_result(n)
        finally:
            here.sender = None

    async def _execute(self, here: _Loop, statements: list[tuple[str, tuple[Any, ...]]]) -> list[Answer]:
        conn = await self._connection(here)
        try:
            if len(statements) == 1:
                cursors = [await conn.execute(*statements[0])]
            else:
                async with conn.pipeline():  # (in autocommit: one implicit transaction, up to its Sync)
                    cursors = [await conn.execute(sql, args) for sql, args in statements]
            return [(cur.rowcount, await _first(cur)) for cur in cursors]
        except psycopg.Error:
            if conn.broken:
                conn.pgconn.finish()  # (the next group opens another)
            raise

    async def _connection(self, here: _Loop) -> psycopg.AsyncConnection[Any]:
        """The loop's connection, opened again if it broke (only its sender asks: one at a time)."""
        if here.conn is None or here.conn.closed:
            here.conn = await psycopg.AsyncConnection.connect(self.url, **connection_settings(self.timeout))
        return here.conn

    def _forget_closed_loops(self) -> None:
        for loop in [loop for loop in self._loops if loop.is_closed()]:
            conn = self._loops.pop(loop).conn
            if conn is not None:
                conn.pgconn.finish()

    def close(self) -> None:
        """Let every connection go, from any thread (libpq's ``finish``: nothing to await)."""
        for here in self._loops.values():
            if here.conn is not None:
                here.conn.pgconn.finish()
        self._loops.clear()
