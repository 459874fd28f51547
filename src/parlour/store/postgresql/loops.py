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
pipeline's statements up to its Sync (``pipeline_sync``, after the last) as one implicit
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
import psycopg.errors
from psycopg import pq

from .connect import connection_settings, translate

#: a statement's answer: the rows it changed, and the first value it returned (None: none)
Answer = tuple[int, Any]


@dataclass
class _Loop:
    """One event loop's connection and the saves waiting for the next group."""

    conn: psycopg.AsyncConnection[Any] | None = None
    waiting: list[tuple[str, tuple[Any, ...], str, asyncio.Future[Answer]]] = field(default_factory=list)
    sender: asyncio.Task[None] | None = None
    prepared: dict[str, bytes] = field(default_factory=dict)  # statement -> its name on ``conn``


def _numbered(sql: str) -> bytes:
    """A statement with psycopg's ``%s`` placeholders in libpq's form (``$1``, ``$2``, ...)."""
    assert "%%" not in sql, "a literal % in a save's statement"
    parts = sql.split("%s")
    return "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, 1)).encode()


def _text(value: Any) -> bytes | None:
    """An argument in PostgreSQL's text form (its type is the column's or the cast's: the server infers it)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, int | float):
        return repr(value).encode()
    # (psycopg's own error for it, which the sender hands to the savers as a ``StoreError``)
    raise psycopg.ProgrammingError(f"a save's argument of type {type(value).__name__}")


async def _ready(loop: asyncio.AbstractEventLoop, fd: int, write: bool) -> None:
    """Wait until the connection's socket can be written (or read)."""
    done: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not done.done():
            done.set_result(None)

    (loop.add_writer if write else loop.add_reader)(fd, wake)
    try:
        await done
    finally:
        (loop.remove_writer if write else loop.remove_reader)(fd)


async def _sent(pg: pq.abc.PGconn) -> None:
    """Everything queued on the connection written out (a non-blocking libpq connection queues)."""
    loop = asyncio.get_running_loop()
    while pg.flush():
        await _ready(loop, pg.socket, write=True)


async def _results(pg: pq.abc.PGconn, ends: int) -> list[pq.abc.PGresult]:
    """The results of what was sent, up to the ``ends``-th end of a statement's results (libpq's None;
    in pipeline mode, give the Sync's result as the last end)."""
    loop = asyncio.get_running_loop()
    got: list[pq.abc.PGresult] = []
    while ends:
        while pg.is_busy():
            await _ready(loop, pg.socket, write=False)
            pg.consume_input()
        result = pg.get_result()
        if result is None or result.status == pq.ExecStatus.PIPELINE_SYNC:
            ends -= 1
        if result is not None:
            got.append(result)
    return got


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
        """The statements in one round trip, in libpq's pipeline mode when there are several.

        Why libpq's own calls (``psycopg.pq``) and not a cursor's ``execute``: psycopg's cursor
        adapts every argument, checks whether to prepare and parses each answer in Python, which
        made its part of a save 166 us of the loop's CPU against 90 us this way (measured on an
        idle loop, one statement).  The statements are prepared once per connection."""
        conn = await self._connection(here)
        pg = conn.pgconn
        try:
            names = [await self._prepare(here, conn, sql) for sql, _ in statements]
            if len(statements) == 1:
                pg.send_query_prepared(names[0], [_text(a) for a in statements[0][1]])
                await _sent(pg)
                results = await _results(pg, 1)
            else:
                pg.enter_pipeline_mode()
                for name, (_, args) in zip(names, statements, strict=True):
                    pg.send_query_prepared(name, [_text(a) for a in args])
                pg.pipeline_sync()
                await _sent(pg)
                results = await _results(pg, len(statements) + 1)
                pg.exit_pipeline_mode()
        except BaseException:  # (a cancelled loop, a lost connection: its state is unknown, so it goes)
            pg.finish()
            raise
        answers: list[Answer] = []
        for result in results:  # (a statement after a failed one is PIPELINE_ABORTED; the Sync has its own)
            if result.status == pq.ExecStatus.FATAL_ERROR:
                raise psycopg.errors.error_from_result(result, encoding=conn.info.encoding)
            if result.status in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
                first = result.get_value(0, 0) if result.ntuples else None
                answers.append((result.command_tuples or 0, None if first is None else bytes(first).decode()))
        if len(answers) != len(statements):
            raise psycopg.OperationalError(f"{len(answers)} answers to {len(statements)} statements")
        return answers

    @staticmethod
    async def _prepare(here: _Loop, conn: psycopg.AsyncConnection[Any], sql: str) -> bytes:
        """The name of ``sql`` prepared on the loop's connection (prepared now, the first time)."""
        name = here.prepared.get(sql)
        if name is None:
            pg = conn.pgconn
            name = f"parlour_{len(here.prepared)}".encode()
            pg.send_prepare(name, _numbered(sql))
            await _sent(pg)
            for result in await _results(pg, 1):
                if result.status != pq.ExecStatus.COMMAND_OK:
                    raise psycopg.errors.error_from_result(result, encoding=conn.info.encoding)
            here.prepared[sql] = name
        return name

    async def _connection(self, here: _Loop) -> psycopg.AsyncConnection[Any]:
        """The loop's connection, opened again if it broke (only its sender asks: one at a time)."""
        if here.conn is None or here.conn.closed:
            here.conn = await psycopg.AsyncConnection.connect(self.url, **connection_settings(self.timeout))
            here.conn.pgconn.nonblocking = 1
            here.prepared = {}
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
