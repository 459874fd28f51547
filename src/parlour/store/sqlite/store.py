"""``SQLiteStore``: the embedded backend, one file in the user data folder (or ``--database PATH``).

Why SQLite from the standard library: every action is saved as it is made (the original
Six-Bid kept its match on disk the same way), SQLite's transactions mean a process killed
mid-write leaves the previous save intact, and ``make play`` needs nothing installed.  What
the path holds is judged before anything is written (``files``); opening is ``connect``.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from ..base import Store
from ..errors import StoreError, StoreReadOnly
from ..lock import FileLock, GameLock
from ..plumbing import Args, Dialect, Result, Tx
from .connect import immediate, open_read_only, open_writable
from .files import Damaged, DatabaseFile

TIMEOUT = 5.0  # seconds to wait for another Parlour's write to finish

DIALECT = Dialect(
    "sqlite", "?", "instr",
    "(SELECT *, CASE WHEN instr(record, '\"ended\"') > 0 AND json_valid(record)"
    " THEN json_extract(record, '$.ended.how') END AS how,"
    " CASE WHEN instr(record, '\"ended\"') > 0 AND json_valid(record)"
    " THEN json_extract(record, '$.ended.seat') END AS quitter FROM finished_games) AS e")


class _Tx(Tx):
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, args: Args = ()) -> Result:
        return self.conn.execute(sql, args)

    def executemany(self, sql: str, rows: Iterable[Args]) -> None:
        self.conn.executemany(sql, rows)

    def insert(self, sql: str, args: Args) -> int:
        return int(self.conn.execute(sql, args).lastrowid or 0)


class SQLiteStore(Store):
    """The saved-games database at ``path`` (a file; made when missing, in a folder that exists).

    ``read_only_ok``: for commands that only read (statistics, history, export), a database
    that cannot be written is opened read-only instead of refused; ``read_only`` says so and
    every write raises ``StoreReadOnly``.  ``timeout`` is how long to wait for a lock
    (default ``TIMEOUT``).
    """

    dialect = DIALECT

    def __init__(self, path: str | Path, *, read_only_ok: bool = False, timeout: float | None = None) -> None:
        if str(path) == "":
            raise StoreError("the saved-games database needs a file name (an empty one was given)")
        self.path = Path(path)
        self.where = str(self.path)
        self.timeout = TIMEOUT if timeout is None else timeout
        self._file = DatabaseFile(self.path, self.timeout)
        kind = self._file.classify()
        if kind == "truncated":
            self.notice = self._file.replace_damaged("its SQLite header is cut off")
            kind = "new"
        try:
            self._conn, moved = open_writable(self._file, kind)
            self.notice = moved or self.notice
        except StoreReadOnly:
            if not read_only_ok or kind != "ours":
                raise
            self._conn = open_read_only(self._file)
            self.read_only = True
        #: held around every use of the one connection.  Why: SQLite reports a statement's
        #: changed rows per connection (``sqlite3_changes``), so two threads' statements
        #: interleaved on it could read each other's count, and a compare-and-set that won
        #: would read as refused (seen: four writers from one count, none won)
        self._using = threading.RLock()

    # -- plumbing for the queries ----------------------------------------------------------
    def _error(self, exc: sqlite3.Error) -> Exception:
        found = self._file.translate(exc)
        if isinstance(found, Damaged):  # found damaged while in use: it is moved aside only when opened
            return StoreError(f"the saved-games database {self.path} is damaged ({exc}); "
                              "it is moved aside when Parlour next opens it")
        return found

    def _refuse_if_read_only(self) -> None:
        if self.read_only:
            raise StoreReadOnly(f"the saved-games database {self.path} is open read-only")

    def _fetch(self, sql: str, args: Args = ()) -> list[tuple[Any, ...]]:
        try:
            with self._using:
                return self._conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def _run(self, sql: str, args: Args = ()) -> int:
        self._refuse_if_read_only()
        try:
            with self._using:
                return self._conn.execute(sql, args).rowcount
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    @contextmanager
    def _transaction(self) -> Iterator[Tx]:
        self._refuse_if_read_only()
        with self._using, immediate(self._conn, self._error):
            yield _Tx(self._conn)

    def close(self) -> None:
        self._conn.close()

    def checkpoint_in_background(self, every: float = 1.0) -> Callable[[], None]:
        """Leave this connection's write-ahead-log checkpoints to a thread of their own; returns its stop.

        Why: a checkpoint copies the log back into the database file and syncs it to disk,
        which takes tens of milliseconds on a busy disk.  SQLite makes one inside whichever
        save crosses its threshold, and on the browser server that save runs on the event
        loop: every table stalled with it (bench/bench_web_load.py: about 40 such saves a
        minute at 200 tables).  A passive checkpoint on another connection never waits for a
        writer, so saves go on meanwhile.  Stopping makes a last checkpoint and gives this
        connection its own checkpoints back.
        """
        if self.read_only:
            return lambda: None
        self._conn.execute("PRAGMA wal_autocheckpoint=0")
        stop = threading.Event()

        def run() -> None:
            try:
                conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            except sqlite3.Error:
                return
            try:
                while True:
                    stopping = stop.wait(every)
                    try:
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    except sqlite3.Error:
                        pass  # busy or gone: the next round (or SQLite's own, once stopped) does it
                    if stopping:
                        return
            finally:
                conn.close()

        worker = threading.Thread(target=run, name="parlour-checkpoints", daemon=True)
        worker.start()

        def halt() -> None:
            stop.set()
            worker.join(timeout=10)
            with suppress(sqlite3.Error):
                self._conn.execute("PRAGMA wal_autocheckpoint=1000")

        return halt

    def game_lock(self, game: str, title: str | None = None) -> GameLock:
        """A lock file beside the database, ``<database>.<game>.lock`` (``lock.FileLock``)."""
        self._refuse_if_read_only()
        safe = re.sub(r"[^A-Za-z0-9_-]", "_", game)
        return FileLock.acquire(self.path.with_name(f"{self.path.name}.{safe}.lock"), title or game)

    def backup_to(self, target: Path, pages_per_step: int = 256) -> None:
        """A consistent copy of this database at ``target`` (a new file), while others go on saving.

        Why SQLite's online backup: copying the file (and its write-ahead log) while a server
        saves into it can catch a half-written page; the backup API copies a snapshot, and
        restarts by itself when another connection writes in the middle of it.  The copy is
        written beside ``target`` and linked into place, so a failed backup leaves no file, and an
        existing ``target`` is never replaced.
        """
        partial = target.with_name(f".{target.name}.partial-{time.time_ns()}")
        try:
            dest = sqlite3.connect(partial)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write the backup {target}: {exc}") from None
        try:
            try:
                self._conn.backup(dest, pages=pages_per_step)
                dest.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
            finally:
                dest.close()
            os.link(partial, target)  # never over an existing file: a link fails where a rename would replace
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot write the backup {target}: {exc}") from None
        finally:
            partial.unlink(missing_ok=True)
