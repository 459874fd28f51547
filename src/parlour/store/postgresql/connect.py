"""Reaching a PostgreSQL database, and making it Parlour's (or refusing it), before a store uses it.

Why the same care as for an SQLite file: a URL may name any database.  Parlour's tables are
created only in a database (its current schema) that holds no tables, or Parlour's own; a
``meta`` table without Parlour's ``application`` row, or other tables without one, is another
program's and is refused, unchanged.  A newer Parlour's schema is refused in SQLite's words
(``schema.check_version``).  Simultaneous first opens (several server processes starting at
once) take turns on an advisory lock inside the creating transaction; a database already
complete is read and never altered, so a role that may only read and write rows can use it.
"""

from __future__ import annotations

import math
from typing import Any

import psycopg
import psycopg.errors
import psycopg_pool

from ..errors import NotParlourDatabase, StoreBusy, StoreError, StoreReadOnly, StoreUnreachable
from ..schema import APPLICATION_ID, SCHEMA_VERSION, TABLES, check_version, create_statements

#: ``parlour_json(text)``: the record as jsonb, or NULL when it is not JSON (``stats`` reads how a
#: game ended from its record; a damaged record must count as it can, not fail the query).
JSON_FUNCTION = """CREATE OR REPLACE FUNCTION parlour_json(doc text) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE STRICT AS $$
    BEGIN RETURN doc::jsonb; EXCEPTION WHEN others THEN RETURN NULL; END $$"""


def one_line(exc: BaseException, limit: int = 300) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def translate(exc: Exception, where: str) -> StoreError:
    """A driver's or pool's error as what it means here (``errors``), in one line."""
    if isinstance(exc, psycopg.errors.InsufficientPrivilege | psycopg.errors.ReadOnlySqlTransaction):
        return StoreReadOnly(f"cannot write the PostgreSQL database {where}: {one_line(exc)}")
    if isinstance(exc, psycopg.errors.LockNotAvailable | psycopg.errors.QueryCanceled):
        return StoreBusy(f"the saved-games database is in use by another Parlour ({where}); "
                         "try again when it has finished")
    if isinstance(exc, psycopg_pool.PoolTimeout):
        return StoreUnreachable(f"cannot reach the PostgreSQL database {where}: no connection came in time")
    if isinstance(exc, psycopg.OperationalError):
        return StoreUnreachable(f"cannot reach the PostgreSQL database {where}: {one_line(exc)}")
    return StoreError(f"the PostgreSQL database {where} failed: {one_line(exc)}")


def connection_settings(timeout: float) -> dict[str, Any]:
    """What every connection of a store is opened with (a URL's own parameters stay as given)."""
    return {"autocommit": True, "connect_timeout": max(2, math.ceil(timeout))}


def connect(url: str, where: str, timeout: float) -> psycopg.Connection[tuple[Any, ...]]:
    try:
        return psycopg.connect(url, **connection_settings(timeout))
    except psycopg.Error as exc:
        raise translate(exc, where) from None


def prepare(conn: psycopg.Connection[tuple[Any, ...]], where: str) -> None:
    """Check what the database holds; complete Parlour's schema in it when anything is missing."""
    try:
        if _complete(conn, where):
            return
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (APPLICATION_ID,))
            if _complete(conn, where):  # another process made it meanwhile
                return
            for sql in create_statements("postgresql"):
                conn.execute(sql)
            conn.execute(JSON_FUNCTION)
            conn.execute("INSERT INTO meta (key, value) VALUES ('schema', %s), ('application', 'parlour')"
                         " ON CONFLICT (key) DO NOTHING", (str(SCHEMA_VERSION),))
    except psycopg.Error as exc:
        raise translate(exc, where) from None


def _complete(conn: psycopg.Connection[tuple[Any, ...]], where: str) -> bool:
    """True when every table is there; refuses another program's database or a newer Parlour's."""
    present = {row[0] for row in conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
    if not present:
        return False
    foreign = NotParlourDatabase(f"{where} holds another program's tables, not Parlour's; nothing was changed "
                                 "(give Parlour a database of its own)")
    if "meta" not in present:
        raise foreign
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('schema', 'application')").fetchall())
    except psycopg.errors.UndefinedColumn:
        raise foreign from None
    if meta.get("application") != "parlour":
        raise foreign
    if "schema" in meta:
        check_version(meta["schema"], where)
    function = conn.execute("SELECT to_regprocedure('parlour_json(text)') IS NOT NULL").fetchone()
    return {t.name for t in TABLES} <= present and "schema" in meta and bool(function and function[0])
