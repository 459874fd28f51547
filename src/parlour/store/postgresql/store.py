"""``PostgreSQLStore``: the database-server backend (``--database postgresql://USER@HOST/DB``).

Why PostgreSQL beside SQLite: several server processes, on one host or several, can share
its tables; SQLite's file is one host's.  The store keeps a small pool of connections
(psycopg_pool) in autocommit, so a save that is one statement is one round trip, and a
transaction is a ``BEGIN``/``COMMIT`` around its statements.  The queries are SQLite's
(``plumbing``), with ``%s`` for ``?``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg_pool

from ..base import Store, T
from ..lock import AdvisoryLock, GameLock
from ..plumbing import Args, Dialect, Result, Tx
from ..schema import Table
from ..webtables import SAVE_WEB_TABLE, save_args
from .connect import connect, connection_settings, prepare, translate
from .loops import LoopConnections

TIMEOUT = 5.0  # seconds to wait for a connection (the server's, or one of the pool's)
POOL_SIZE = 4  # connections at most: the server's event loop uses one at a time, the threads the rest

DIALECT = Dialect(
    "postgresql", "%s", "strpos",
    "(SELECT f.*, j #>> '{ended,how}' AS how,"
    " CASE WHEN jsonb_typeof(j #> '{ended,seat}') = 'number' THEN (j #>> '{ended,seat}')::numeric END AS quitter"
    " FROM finished_games AS f, LATERAL (SELECT CASE WHEN strpos(f.record, '\"ended\"') > 0"
    " THEN parlour_json(f.record) END AS j) AS doc) AS e")


#: ``save_web_table`` with ``finished``, in one statement: the compare-and-set locks the table's row
#: (``FOR UPDATE``: a writer that got there first has changed its count, and nothing is inserted),
#: the finished game is inserted from it, and the row takes the record, the count and the game's
#: number.  Arguments: ``_finish_args``.
_FINISH = (
    "WITH moved AS (SELECT game FROM web_tables WHERE id = ? AND actions = ? AND finished IS NULL FOR UPDATE),"
    " kept AS (INSERT INTO finished_games (game, level, human_seat, winner, scores, record, finished)"
    " SELECT game, ?::text, ?::bigint, ?::bigint, ?::text, ?::text, ?::double precision FROM moved"
    " RETURNING id)"
    " UPDATE web_tables SET record = ?, actions = ?, updated = ?, finished = kept.id FROM kept"
    " WHERE web_tables.id = ? RETURNING kept.id")


def _finish_args(table_id: str, record: str, expected: int, actions: int,
                 finished: dict[str, Any]) -> tuple[Any, ...]:
    now = time.time()
    return (table_id, expected, finished["level"], finished["human_seat"], finished["winner"],
            json.dumps(finished["scores"]), record, now, record, actions, now, table_id)


class _Tx(Tx):
    def __init__(self, conn: psycopg.Connection[tuple[Any, ...]]) -> None:
        self.conn = conn

    def execute(self, sql: str, args: Args = ()) -> Result:
        return self.conn.execute(DIALECT.sql(sql), args)

    def executemany(self, sql: str, rows: Iterable[Args]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(DIALECT.sql(sql), rows)

    def insert(self, sql: str, args: Args) -> int:
        row = self.conn.execute(DIALECT.sql(sql) + " RETURNING id", args).fetchone()
        assert row is not None
        return int(row[0])


class PostgreSQLStore(Store):
    """The saved-games database at ``url`` (``postgresql://`` or ``postgres://``, libpq's form).

    ``where``: the URL as messages show it, without its password (``opening.shown``).
    ``read_only_ok`` is accepted for the reading commands and changes nothing: a role that
    may only read gets ``StoreReadOnly`` at its first write.
    """

    dialect = DIALECT

    def __init__(self, url: str, *, where: str, read_only_ok: bool = False, timeout: float | None = None) -> None:
        self.url = url
        self.where = where
        self.timeout = TIMEOUT if timeout is None else timeout
        first = connect(url, where, self.timeout)  # a clear error now, not in the pool's threads
        try:
            prepare(first, where)
        finally:
            first.close()
        self._pool: psycopg_pool.ConnectionPool[psycopg.Connection[tuple[Any, ...]]] = psycopg_pool.ConnectionPool(
            url, kwargs=connection_settings(self.timeout), min_size=1, max_size=POOL_SIZE, open=False,
            timeout=self.timeout, num_workers=1, name="parlour")
        try:
            self._pool.open(wait=True, timeout=self.timeout)
        except psycopg_pool.PoolTimeout as exc:
            self._pool.close()
            raise translate(exc, where) from None
        self._loops = LoopConnections(url, where, self.timeout)

    def _fetch(self, sql: str, args: Args = ()) -> list[tuple[Any, ...]]:
        try:
            with self._pool.connection() as conn:
                return conn.execute(DIALECT.sql(sql), args).fetchall()
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise translate(exc, self.where) from None

    def _run(self, sql: str, args: Args = ()) -> int:
        try:
            with self._pool.connection() as conn:
                return conn.execute(DIALECT.sql(sql), args).rowcount
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise translate(exc, self.where) from None

    @contextmanager
    def _transaction(self) -> Iterator[Tx]:
        try:
            with self._pool.connection() as conn, conn.transaction():
                yield _Tx(conn)
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise translate(exc, self.where) from None

    def save_web_table(self, table_id: str, record: str, *, expected: int,
                       actions: int, finished: dict[str, Any] | None = None) -> int | None:
        """``WebTableQueries.save_web_table``, a game's last in one statement (``_FINISH``): one round
        trip, where the transaction of four statements took six (``BEGIN`` to ``COMMIT``)."""
        if finished is None:
            return super().save_web_table(table_id, record, expected=expected, actions=actions)
        found = self._fetch(_FINISH, _finish_args(table_id, record, expected, actions, finished))
        return int(found[0][0]) if found else None

    async def save_web_table_on_loop(self, table_id: str, record: str, *, expected: int,
                                     actions: int, finished: dict[str, Any] | None = None) -> int | None:
        """A move's save without holding up the loop (``LoopConnections``), a game's last too.

        Why a game's last here too, not ``save_web_table`` on a worker thread: there it held the
        interpreter from the loop (3 % of it at 200 busy tables, py-spy), and at 200 tables ten
        games end every second.
        """
        if finished is None:
            sql, args = SAVE_WEB_TABLE, save_args(table_id, record, expected=expected, actions=actions)
        else:
            sql, args = _FINISH, _finish_args(table_id, record, expected, actions, finished)
        rows, game_id = await self._loops.run(DIALECT.sql(sql), args, order=table_id)
        if rows != 1:
            return None
        return 0 if finished is None else int(game_id)

    async def from_loop(self, query: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """On a worker thread (``asyncio.to_thread``): each query is a round trip or more, and on the
        loop it held every table meanwhile.  What the load bench showed: the slow latencies bunched
        into the second or two when the tables' first games ended together and each new table made
        its queries on the loop (made, loaded, its seat taken, dealt: these come here now; read
        again once subscribed, ``Tables.refresh``, still on the loop); at 200 tables those calls
        held the loop 1.2 s in 22, 0.4 to 0.7 ms each, up to 20 ms.  The hand-off costs up to a
        switch interval (5 ms) of a busy loop: fine for what happens once a game, not for a move's
        save (``save_web_table_on_loop``)."""
        return await asyncio.to_thread(query, *args, **kwargs)

    def _after_copy(self, tx: Tx, table: Table) -> None:
        """Rows copied with their own numbers: the identity column's next number comes after them."""
        if any(c.kind == "serial" for c in table.columns):
            tx.execute(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), max(id)) FROM {table.name}")

    def game_lock(self, game: str, title: str | None = None) -> GameLock:
        """A session advisory lock on a connection of its own (``lock.AdvisoryLock``)."""
        try:
            return AdvisoryLock.acquire(self.url, game, title or game,
                                        lambda: connect(self.url, self.where, self.timeout))
        except psycopg.Error as exc:
            raise translate(exc, self.where) from None

    def close(self) -> None:
        self._loops.close()
        self._pool.close()
