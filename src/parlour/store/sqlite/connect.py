"""Opening an SQLite database that ``files.DatabaseFile.classify`` found usable: writable, or read-only.

Why the file is judged again here, under SQLite's write lock: between the look and the open
another process may have created, finished or damaged it.  Only a file known to be ours
before the look is moved aside when SQLite then calls it corrupt.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..errors import StoreError
from ..schema import APPLICATION_ID, LEGACY_MARK, SCHEMA_VERSION, create_statements
from .files import BUSY, LOCKED, Damaged, DatabaseFile, code


def open_writable(file: DatabaseFile, kind: str) -> tuple[sqlite3.Connection, str | None]:
    """Open (and for a new or empty file, create) the database; moves it aside only when ours and damaged.

    Returns the connection and the notice of a file moved aside (or None).
    """
    if kind == "ours":
        file.check_writable()
    try:
        return _connect_and_prepare(file), None
    except Damaged as exc:
        if kind != "ours":  # it changed under us into something damaged: not provably ours
            raise StoreError(f"cannot use the saved-games database {file.path}: {exc}") from None
        notice = file.replace_damaged(str(exc))
        try:
            return _connect_and_prepare(file), notice
        except Damaged as exc2:
            raise StoreError(f"cannot create a database at {file.path}: {exc2}") from None


def _connect_and_prepare(file: DatabaseFile) -> sqlite3.Connection:
    """One write transaction decides again, under SQLite's lock, what the file is, and completes it.

    Deciding inside ``BEGIN IMMEDIATE`` is what makes simultaneous first opens safe: the
    first process creates the tables and meta rows, the others find them there.
    """
    try:
        conn = sqlite3.connect(file.path, timeout=file.timeout, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise file.translate(exc) from None
    try:
        with immediate(conn, file.translate):
            _prepare(file, conn)
        _use_wal(file, conn)
        conn.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.Error as exc:
        conn.close()
        raise file.translate(exc) from None
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def immediate(conn: sqlite3.Connection, error: Callable[[sqlite3.Error], Exception]) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``: rolled back on any error, SQLite's own given as ``error`` makes them.

    Why immediate: the write lock is taken at the start, so two writers never both read and
    then find they cannot write (SQLite would fail one of them at once, without waiting).
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise error(exc) from None
    try:
        yield
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise error(exc) from None
        raise
    try:
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        raise error(exc) from None


def _use_wal(file: DatabaseFile, conn: sqlite3.Connection) -> None:
    """Switch a new database to write-ahead logging (readers then never wait for a save).

    Why a loop: the switch needs the file to itself, and SQLite reports "busy" at once,
    without waiting, while other processes are opening the same new file.  If it never
    gets its turn, the database simply stays in its rollback-journal mode until a later
    open switches it; both modes are safe.
    """
    deadline = time.monotonic() + file.timeout
    while True:
        try:
            if str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]).lower() == "wal":
                return
        except sqlite3.OperationalError as exc:
            if code(exc) not in (BUSY, LOCKED):
                raise
        if time.monotonic() > deadline:
            return
        time.sleep(0.01)


def _prepare(file: DatabaseFile, conn: sqlite3.Connection) -> None:
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if tables:
        if app_id != APPLICATION_ID:
            legacy = LEGACY_MARK <= tables and conn.execute(
                "SELECT 1 FROM meta WHERE key='schema'").fetchone() is not None
            if not legacy:
                raise file.foreign()
        check = conn.execute("PRAGMA quick_check").fetchone()
        if not check or check[0] != "ok":
            raise Damaged(f"integrity check failed: {check[0] if check else 'no answer'}")
        file.check_schema(conn)
    if app_id != APPLICATION_ID:
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    for sql in create_statements("sqlite"):
        conn.execute(sql)
    conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    conn.execute("INSERT OR IGNORE INTO meta VALUES ('application', 'parlour')")


def open_read_only(file: DatabaseFile) -> sqlite3.Connection:
    """For reading commands on a database that cannot be written (a read-only file or folder)."""
    last: sqlite3.Error | None = None
    for immutable in (False, True):  # immutable: WAL without a -shm file that could be created
        try:
            conn = sqlite3.connect(file.ro_uri(immutable), uri=True, timeout=file.timeout, check_same_thread=False)
            file.check_schema(conn)
            conn.execute("SELECT COUNT(*) FROM finished_games").fetchone()
            return conn
        except sqlite3.Error as exc:
            last = exc
            if code(exc) in (BUSY, LOCKED):
                raise file.busy() from None
    raise StoreError(f"cannot read the saved-games database {file.path}: {last}")

