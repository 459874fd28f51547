"""Saved games, finished-game records, statistics and options, in one SQLite file.

Why SQLite from the standard library: every action is saved as it is made (the original
Six-Bid kept its match on disk the same way), and SQLite's transactions mean a process
killed mid-write leaves the previous save intact.  The file lives in the user data
directory (platformdirs) unless a path is given (``--db``).

Why the store is so careful about what it opens: the path may be anything a user typed.
Only a file that is provably a damaged Parlour database is ever moved aside (renamed to
``parlour.db.corrupt-YYYYmmdd-HHMMSS``, kept, and named in ``Store.notice``).  Proof is
Parlour's ``application_id`` in the SQLite header, or (databases made before that id) a
``meta`` table with a schema row beside Parlour's own tables; an empty file or a cut-off
SQLite header holds nothing and is replaced the same way.  Everything else -- a folder, a
device, a text file, another program's database, a database from a newer Parlour -- is
refused with a ``StoreError`` whose text is one line, and is not written, locked or renamed.
A database that another process holds locked is not damaged either: after the busy timeout
the store raises ``StoreBusy``.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
APPLICATION_ID = 0x50524C52  # "PRLR" in the SQLite header: says "Parlour" without reading any table
SQLITE_MAGIC = b"SQLite format 3\x00"
TIMEOUT = 5.0  # seconds to wait for another Parlour's write to finish

_TABLES = {
    "meta": "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "saved_games": """CREATE TABLE IF NOT EXISTS saved_games (
        game TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        settings TEXT NOT NULL,
        updated REAL NOT NULL)""",
    "finished_games": """CREATE TABLE IF NOT EXISTS finished_games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        level TEXT NOT NULL,
        human_seat INTEGER,
        winner INTEGER,
        scores TEXT NOT NULL,
        record TEXT NOT NULL,
        finished REAL NOT NULL)""",
    "broken_saves": """CREATE TABLE IF NOT EXISTS broken_saves (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        record TEXT NOT NULL,
        error TEXT NOT NULL,
        found REAL NOT NULL)""",
    "options": """CREATE TABLE IF NOT EXISTS options (
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (game, name))""",
    # The browser tables (parlour.web): a game record, its seats (names, kinds, hashed tokens)
    # and its action count, which every save must match (optimistic concurrency).
    "web_tables": """CREATE TABLE IF NOT EXISTS web_tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        record TEXT NOT NULL,
        seats TEXT NOT NULL,
        settings TEXT NOT NULL,
        actions INTEGER NOT NULL,
        finished INTEGER,
        created REAL NOT NULL,
        updated REAL NOT NULL)""",
}
#: How a finished game ended short of its end, read from its record (a browser table's ``"ended"``,
#: ``{"how": "resignation", "seat": ...}``): NULL for a game played to its end.  Why from the record
#: and not a column of its own: the record is where the ending is kept, in every row ever written
#: (a column would need filling in for the older rows, and a schema an older Parlour refuses);
#: ``instr`` first, so a record without one is not parsed.
_ENDED = ("CASE WHEN instr(record, '\"ended\"') > 0 AND json_valid(record)"
          " THEN json_extract(record, '$.ended.{}') END")
_ENDED_HOW, _ENDED_SEAT = _ENDED.format("how"), _ENDED.format("seat")
#: The columns of a finished game's row, as ``_finished_row`` reads them.
_FINISHED_COLUMNS = f"id, game, level, human_seat, winner, scores, finished, {_ENDED_HOW}, {_ENDED_SEAT}"
# Tables every Parlour database has had since schema 1: with a meta schema row, they identify
# a database made before the application_id was written.
_LEGACY_MARK = {"meta", "saved_games", "finished_games"}

# SQLite primary result codes (the low byte of sqlite_errorcode).
_BUSY, _LOCKED, _READONLY, _CORRUPT, _CANTOPEN, _PERM, _NOTADB = 5, 6, 8, 11, 14, 3, 26


def default_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("parlour", appauthor=False) / "parlour.db"


class StoreError(Exception):
    """The database cannot be used; ``str()`` is one line for the user (the CLI exits with status 2)."""


class NotParlourDatabase(StoreError):
    """The path holds something that is not a Parlour database; it was left exactly as it was."""


class NewerDatabase(NotParlourDatabase):
    """A Parlour database with a newer schema than this program reads; left as it was."""


class StoreBusy(StoreError):
    """Another process kept the database locked for longer than the busy timeout."""


class StoreReadOnly(StoreError):
    """The database (or its folder) cannot be written."""


class GameInUse(StoreError):
    """The saved game is open in another Parlour process."""


def _code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


def _busy(path: Path) -> StoreBusy:
    return StoreBusy(f"the saved-games database is in use by another Parlour ({path}); "
                     "try again when it has finished")


class Store:
    """The saved-games database at ``path`` (default: the user data folder).

    ``read_only_ok``: for commands that only read (statistics, history, export), a database
    that cannot be written is opened read-only instead of refused; ``read_only`` says so and
    every write raises ``StoreReadOnly``.  ``timeout`` is how long to wait for a lock
    (default ``TIMEOUT``).
    """

    def __init__(self, path: str | Path | None = None, *, read_only_ok: bool = False,
                 timeout: float | None = None) -> None:
        if path is not None and str(path) == "":
            raise StoreError("the saved-games database needs a file name (an empty one was given)")
        self.path = Path(path) if path is not None else default_path()
        self.notice: str | None = None
        self.read_only = False
        self.timeout = TIMEOUT if timeout is None else timeout
        if path is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder for the saved-games database {self.path}: "
                                 f"{exc.strerror}") from None
        kind = self._classify()
        if kind == "truncated":
            self._replace_damaged("its SQLite header is cut off")
            kind = "new"
        try:
            self._conn = self._open_writable(kind)
        except StoreReadOnly:
            if not read_only_ok or kind != "ours":
                raise
            self._conn = self._open_read_only()
            self.read_only = True

    # -- deciding what the path holds, without changing it ---------------------------------
    def _classify(self) -> str:
        """'new' (nothing there), 'empty', 'truncated' or 'ours'; anything else is refused here."""
        path = self.path
        try:
            st = os.stat(path)
        except FileNotFoundError:
            if path.is_symlink():
                raise NotParlourDatabase(f"{path} is a broken symbolic link; nothing was changed") from None
            return self._check_creatable()
        except NotADirectoryError:
            return self._check_creatable()
        except OSError as exc:
            raise StoreError(f"cannot use the saved-games database {path}: {exc.strerror}") from None
        if stat.S_ISDIR(st.st_mode):
            raise NotParlourDatabase(f"{path} is a folder, not a Parlour saved-games database; nothing was changed")
        if not stat.S_ISREG(st.st_mode):
            raise NotParlourDatabase(f"{path} is not a regular file (a device, pipe or socket), so it is not "
                                     "a Parlour saved-games database; nothing was changed")
        try:
            with open(path, "rb") as fh:
                header = fh.read(100)
        except OSError as exc:
            raise StoreError(f"cannot read the saved-games database {path}: {exc.strerror}") from None
        if not header:
            return "empty"
        if not header.startswith(SQLITE_MAGIC[:len(header)]):
            raise NotParlourDatabase(f"{path} is not a Parlour saved-games database (it is not an SQLite "
                                     "file); nothing was changed")
        if len(header) < 100:
            return "truncated"
        app_id = int.from_bytes(header[68:72], "big")
        if app_id not in (0, APPLICATION_ID):
            raise self._foreign()
        return self._identify(wal_mode=2 in header[18:20], ours=app_id == APPLICATION_ID)

    def _check_creatable(self) -> str:
        parent = self.path.parent
        why = ""
        if not parent.exists():
            why = f"the folder {parent} does not exist"
        elif not parent.is_dir():
            why = f"{parent} is not a folder"
        elif not os.access(parent, os.W_OK | os.X_OK):
            why = f"the folder {parent} is not writable"
        if why:
            raise StoreReadOnly(f"cannot create the saved-games database {self.path}: {why}")
        return "new"

    def _foreign(self) -> NotParlourDatabase:
        return NotParlourDatabase(f"{self.path} is another program's SQLite database, not Parlour's; "
                                  "nothing was changed")

    def _ro_uri(self, immutable: bool) -> str:
        return self.path.absolute().as_uri() + ("?mode=ro&immutable=1" if immutable else "?mode=ro")

    def _identify(self, wal_mode: bool, ours: bool) -> str:
        """Look inside an SQLite file, read-only: empty, Parlour's (and not newer), or someone else's.

        ``ours``: the header carries Parlour's id, so only a newer schema is refused here (damage
        is judged later, under the write lock).  A WAL-mode file with no write-ahead log is read
        "immutable" (no locks, no files), because a plain read-only connection would leave
        ``-wal``/``-shm`` files beside another program's database; otherwise SQLite's shared
        lock gives a consistent read.
        """
        wal = self.path.with_name(self.path.name + "-wal")
        immutable = wal_mode and not (wal.exists() and wal.stat().st_size > 0)
        try:
            conn = sqlite3.connect(self._ro_uri(immutable), uri=True, timeout=self.timeout)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the saved-games database {self.path}: {exc}") from None
        try:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if ours:
                if "meta" in tables:
                    self._check_schema(conn)
                return "ours"
            if not tables:
                return "empty"
            if _LEGACY_MARK <= tables and conn.execute("SELECT 1 FROM meta WHERE key='schema'").fetchone():
                self._check_schema(conn)
                return "ours"
            raise self._foreign()
        except sqlite3.Error as exc:
            if _code(exc) in (_BUSY, _LOCKED):
                raise _busy(self.path) from None
            if ours:
                return "ours"  # damaged: the write path checks it under the lock and moves it aside
            raise NotParlourDatabase(f"{self.path} is a damaged SQLite database that cannot be identified as "
                                     "Parlour's; nothing was changed") from None
        finally:
            conn.close()

    # -- opening -------------------------------------------------------------------------
    def _open_writable(self, kind: str) -> sqlite3.Connection:
        """Open (and for a new or empty file, create) the database; moves it aside only when ours and damaged."""
        if kind == "ours":
            self._check_writable()
        try:
            return self._connect_and_prepare()
        except _Damaged as exc:
            if kind != "ours":  # it changed under us into something damaged: not provably ours
                raise StoreError(f"cannot use the saved-games database {self.path}: {exc}") from None
            self._replace_damaged(str(exc))
            try:
                return self._connect_and_prepare()
            except _Damaged as exc2:
                raise StoreError(f"cannot create a database at {self.path}: {exc2}") from None

    def _check_writable(self) -> None:
        if not os.access(self.path, os.W_OK):
            raise StoreReadOnly(f"cannot write the saved-games database {self.path}: the file is read-only")
        if not os.access(self.path.parent, os.W_OK | os.X_OK):
            raise StoreReadOnly(f"cannot write the saved-games database {self.path}: "
                                f"the folder {self.path.parent} is not writable")

    def _connect_and_prepare(self) -> sqlite3.Connection:
        """One write transaction decides again, under SQLite's lock, what the file is, and completes it.

        Deciding inside ``BEGIN IMMEDIATE`` is what makes simultaneous first opens safe: the
        first process creates the tables and meta rows, the others find them there.
        """
        try:
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise self._translate(exc) from None
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                self._prepare(conn)
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            self._use_wal(conn)
            conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error as exc:
            conn.close()
            raise self._translate(exc) from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _use_wal(self, conn: sqlite3.Connection) -> None:
        """Switch a new database to write-ahead logging (readers then never wait for a save).

        Why a loop: the switch needs the file to itself, and SQLite reports "busy" at once,
        without waiting, while other processes are opening the same new file.  If it never
        gets its turn, the database simply stays in its rollback-journal mode until a later
        open switches it; both modes are safe.
        """
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                if str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]).lower() == "wal":
                    return
            except sqlite3.OperationalError as exc:
                if _code(exc) not in (_BUSY, _LOCKED):
                    raise
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)

    def _prepare(self, conn: sqlite3.Connection) -> None:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if tables:
            if app_id != APPLICATION_ID:
                legacy = _LEGACY_MARK <= tables and conn.execute(
                    "SELECT 1 FROM meta WHERE key='schema'").fetchone() is not None
                if not legacy:
                    raise self._foreign()
            check = conn.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise _Damaged(f"integrity check failed: {check[0] if check else 'no answer'}")
            self._check_schema(conn)
        if app_id != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        for sql in _TABLES.values():
            conn.execute(sql)
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('application', 'parlour')")

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        try:
            row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.OperationalError:  # our id but no meta table: a later schema, or half made
            row = None
        if row is None:
            return
        try:
            version = int(row[0])
        except (TypeError, ValueError):
            raise NewerDatabase(f"{self.path} has an unknown Parlour database schema ({str(row[0])[:20]!r}); "
                                "nothing was changed") from None
        if version > SCHEMA_VERSION:
            raise NewerDatabase(f"{self.path} was made by a newer Parlour (database schema {version}; this "
                                f"Parlour reads up to {SCHEMA_VERSION}); nothing was changed")

    def _translate(self, exc: sqlite3.Error) -> Exception:
        """An SQLite error as what it means here: busy, read-only, damaged, or another one-line error."""
        code = _code(exc)
        if code in (_BUSY, _LOCKED):
            return _busy(self.path)
        if code in (_READONLY, _CANTOPEN, _PERM):
            folder = self.path.parent
            if self.path.exists() and not os.access(folder, os.W_OK | os.X_OK):
                why = f"the folder {folder} is not writable"
            elif self.path.exists():
                why = f"the file is read-only or cannot be opened ({exc})"
            else:
                why = f"the folder {folder} is not writable ({exc})"
            verb = "write" if self.path.exists() else "create"
            return StoreReadOnly(f"cannot {verb} the saved-games database {self.path}: {why}")
        if code in (_CORRUPT, _NOTADB):
            return _Damaged(str(exc))
        return StoreError(f"cannot use the saved-games database {self.path}: {exc}")

    def _open_read_only(self) -> sqlite3.Connection:
        """For reading commands on a database that cannot be written (a read-only file or folder)."""
        last: sqlite3.Error | None = None
        for immutable in (False, True):  # immutable: WAL without a -shm file that could be created
            try:
                conn = sqlite3.connect(self._ro_uri(immutable), uri=True, timeout=self.timeout,
                                       check_same_thread=False)
                self._check_schema(conn)
                conn.execute("SELECT COUNT(*) FROM finished_games").fetchone()
                return conn
            except sqlite3.Error as exc:
                last = exc
                if _code(exc) in (_BUSY, _LOCKED):
                    raise _busy(self.path) from None
        raise StoreError(f"cannot read the saved-games database {self.path}: {last}")

    def _replace_damaged(self, why: str) -> None:
        aside = self._move_aside()
        self.notice = (f"The saved-games database {self.path} was damaged ({why}); "
                       f"it was moved aside to {aside.name} and a new one was started.")

    def _move_aside(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        try:
            self.path.rename(aside)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    side.rename(aside.with_name(aside.name + suffix))
        except OSError as exc:
            raise StoreError(f"the saved-games database {self.path} is damaged and cannot be moved aside: "
                             f"{exc.strerror}") from None
        return aside

    # -- plumbing for the queries ----------------------------------------------------------
    def _refuse_if_read_only(self) -> None:
        if self.read_only:
            raise StoreReadOnly(f"the saved-games database {self.path} is open read-only")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._refuse_if_read_only()
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._translate(exc) from None
        try:
            yield self._conn
        except sqlite3.Error as exc:
            self._rollback()
            raise self._translate(exc) from None
        except BaseException:
            self._rollback()
            raise
        else:
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                raise self._translate(exc) from None

    def _rollback(self) -> None:
        if self._conn.in_transaction:
            self._conn.execute("ROLLBACK")

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
        """Hold ``game`` for this process (see ``GameLock``); ``GameInUse`` if another process holds it."""
        self._refuse_if_read_only()
        safe = re.sub(r"[^A-Za-z0-9_-]", "_", game)
        return GameLock.acquire(self.path.with_name(f"{self.path.name}.{safe}.lock"), title or game)

    # -- games in progress ------------------------------------------------------------
    def save_game(self, game: str, record: str, settings: dict[str, Any]) -> None:
        with self._transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO saved_games VALUES (?, ?, ?, ?)",
                         (game, record, json.dumps(settings), time.time()))

    def load_game(self, game: str) -> tuple[str, dict[str, Any]] | None:
        row = self._conn.execute("SELECT record, settings FROM saved_games WHERE game=?", (game,)).fetchone()
        if row is None:
            return None
        try:
            settings = json.loads(row[1])
        except (TypeError, ValueError, RecursionError):
            settings = {}
        return row[0], settings if isinstance(settings, dict) else {}

    def delete_game(self, game: str) -> None:
        with self._transaction() as conn:
            conn.execute("DELETE FROM saved_games WHERE game=?", (game,))

    def set_aside_broken(self, game: str, error: str) -> None:
        """Keep a save that no longer replays, out of the way, instead of deleting it."""
        with self._transaction() as conn:
            row = conn.execute("SELECT record FROM saved_games WHERE game=?", (game,)).fetchone()
            if row is not None:
                conn.execute("INSERT INTO broken_saves (game, record, error, found) VALUES (?, ?, ?, ?)",
                             (game, row[0], error, time.time()))
                conn.execute("DELETE FROM saved_games WHERE game=?", (game,))

    # -- finished games and statistics ------------------------------------------------
    def finish_game(self, game: str, record: str, level: str, human_seat: int | None,
                    winner: int | None, scores: list[int]) -> int:
        """Move a game from 'in progress' to the finished records, atomically."""
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO finished_games (game, level, human_seat, winner, scores, record, finished)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game, level, human_seat, winner, json.dumps(scores), record, time.time()))
            conn.execute("DELETE FROM saved_games WHERE game=?", (game,))
            return int(cur.lastrowid or 0)

    def finished_games(self, game: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """The latest finished games, newest first.

        A row damaged by hand or by another program is still listed, with what can be read
        (unreadable scores become ``[]``, an unreadable seat ``None``, and ``damaged`` says
        so), so that one bad row never hides the others.
        """
        sql = f"SELECT {_FINISHED_COLUMNS} FROM finished_games"
        args: tuple[Any, ...] = ()
        if game:
            sql += " WHERE game=?"
            args = (game,)
        sql += " ORDER BY id DESC LIMIT ?"
        rows = self._conn.execute(sql, (*args, limit)).fetchall()
        return [_finished_row(row) for row in rows]

    def finished_game(self, game_id: int) -> dict[str, Any] | None:
        """One finished game's row, as ``finished_games`` lists it (None: no such game)."""
        row = self._conn.execute(f"SELECT {_FINISHED_COLUMNS} FROM finished_games WHERE id=?", (game_id,)).fetchone()
        return None if row is None else _finished_row(row)

    def finished_record(self, game_id: int) -> str | None:
        row = self._conn.execute("SELECT record FROM finished_games WHERE id=?", (game_id,)).fetchone()
        return row[0] if row else None

    def stats(self) -> list[dict[str, Any]]:
        """Played/won/lost/drawn per game and opponent level, from the human's seat.

        A game ended by a resignation (a browser table's record says ``"ended"``) is counted in
        ``resigned`` too; with no winner (a three-player game) it is lost by the seat that
        resigned and not drawn by anyone.  Why read from the record: that is where the ending
        is kept (as ``"#undo"``), and a row whose record is damaged still counts as it can.
        """
        rows = self._conn.execute(
            "SELECT game, level,"
            " COUNT(*),"
            " SUM(CASE WHEN winner IS NOT NULL AND winner = human_seat THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN winner IS NOT NULL AND winner != human_seat OR winner IS NULL AND quitter = human_seat"
            " THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN winner IS NULL AND how IS NULL THEN 1 ELSE 0 END),"
            # a win after taking moves back (a "#undo N" marker in the record) is counted apart
            " SUM(CASE WHEN winner IS NOT NULL AND winner = human_seat AND undone THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN how = 'resignation' THEN 1 ELSE 0 END)"
            " FROM (SELECT game, level, winner, human_seat, instr(record, '\"#undo ') > 0 AS undone,"
            f"  {_ENDED_HOW} AS how, {_ENDED_SEAT} AS quitter"
            "  FROM finished_games WHERE human_seat IS NOT NULL)"
            " GROUP BY game, level ORDER BY game, level"
        ).fetchall()
        keys = ("game", "level", "played", "won", "lost", "drawn", "won_with_undo", "resigned")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    # -- browser tables (parlour.web) ------------------------------------------------------
    def create_web_table(self, table_id: str, game: str, record: str, seats: list[dict[str, Any]],
                         settings: dict[str, Any], actions: int) -> None:
        with self._transaction() as conn:
            now = time.time()
            conn.execute("INSERT INTO web_tables VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                         (table_id, game, record, json.dumps(seats), json.dumps(settings), actions, now, now))

    def save_web_table(self, table_id: str, record: str, seats: list[dict[str, Any]], *, expected: int,
                       actions: int, finished: dict[str, Any] | None = None) -> int | None:
        """Save a table if it still has ``expected`` actions; None when a stale writer is refused.

        Why a compare-and-set on the count: several server processes may one day share this
        database; a writer that did not see the latest action must reload, never overwrite it.
        ``finished`` (level, human_seat, winner, scores) also records the game in the finished
        games, in the same transaction; the return value is then its number, else 0.
        """
        update = ("UPDATE web_tables SET record=?, seats=?, actions=?, updated=? WHERE id=? AND actions=?"
                  " AND finished IS NULL", (record, json.dumps(seats), actions, time.time(), table_id, expected))
        if finished is None:
            # One statement is its own transaction, compare-and-set included: a third of the work
            # of BEGIN, UPDATE, COMMIT on the browser table's every action.
            self._refuse_if_read_only()
            try:
                cur = self._conn.execute(*update)
            except sqlite3.Error as exc:
                raise self._translate(exc) from None
            return 0 if cur.rowcount == 1 else None
        with self._transaction() as conn:
            cur = conn.execute(*update)
            if cur.rowcount != 1:
                return None
            cur = conn.execute(
                "INSERT INTO finished_games (game, level, human_seat, winner, scores, record, finished)"
                " VALUES ((SELECT game FROM web_tables WHERE id=?), ?, ?, ?, ?, ?, ?)",
                (table_id, finished["level"], finished["human_seat"], finished["winner"],
                 json.dumps(finished["scores"]), record, time.time()))
            game_id = int(cur.lastrowid or 0)
            conn.execute("UPDATE web_tables SET finished=? WHERE id=?", (game_id, table_id))
            return game_id

    def save_web_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        """The seats alone (a name given, a seat taken): they never change the game record."""
        with self._transaction() as conn:
            conn.execute("UPDATE web_tables SET seats=?, updated=? WHERE id=?", (json.dumps(seats), time.time(),
                                                                                 table_id))

    def save_web_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        """A table's settings alone (the computer's speed): they never change the game record."""
        with self._transaction() as conn:
            conn.execute("UPDATE web_tables SET settings=?, updated=? WHERE id=?", (json.dumps(settings), time.time(),
                                                                                    table_id))

    def load_web_table(self, table_id: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT game, record, seats, settings, actions, finished FROM web_tables"
                                 " WHERE id=?", (table_id,)).fetchone()
        if row is None:
            return None
        return {"id": table_id, "game": row[0], "record": row[1], "seats": json.loads(row[2]),
                "settings": json.loads(row[3]), "actions": row[4], "finished": row[5]}

    def open_web_tables(self) -> int:
        """How many browser tables are unfinished (the server caps them)."""
        return int(self._conn.execute("SELECT COUNT(*) FROM web_tables WHERE finished IS NULL").fetchone()[0])

    def expire_web_tables(self, before: float, keep: Collection[str] = ()) -> list[str]:
        """Delete the unfinished browser tables untouched since ``before`` that no person ever joined.

        Why: a table costs nothing to create, and one nobody came to sit at would stay forever.
        "Joined": a person's seat was opened by its link (``joined``; a table saved before that
        mark existed counts its claimed seats as joined, so no game in progress is lost).  A
        write (an action, a seat taken) refreshes ``updated``.  ``keep``: tables in use now (in
        memory, watched).  Returns the ids deleted.
        """
        rows = self._conn.execute("SELECT id, seats FROM web_tables WHERE finished IS NULL AND updated < ?",
                                  (before,)).fetchall()
        gone = [table_id for table_id, seats in rows
                if table_id not in keep and not any(s.get("joined", s.get("claimed")) for s in json.loads(seats))]
        if gone:
            with self._transaction() as conn:
                for start in range(0, len(gone), 500):
                    chunk = gone[start:start + 500]
                    conn.execute(f"DELETE FROM web_tables WHERE finished IS NULL AND updated < ? AND id IN "
                                 f"({','.join('?' * len(chunk))})", (before, *chunk))
        return gone

    # -- interface options --------------------------------------------------------------
    def get_options(self, game: str) -> dict[str, Any]:
        rows = self._conn.execute("SELECT name, value FROM options WHERE game=?", (game,)).fetchall()
        out: dict[str, Any] = {}
        for name, value in rows:
            try:
                out[name] = json.loads(value)
            except (TypeError, ValueError, RecursionError):
                continue
        return out

    def set_options(self, game: str, values: dict[str, Any]) -> None:
        with self._transaction() as conn:
            for name, value in values.items():
                conn.execute("INSERT OR REPLACE INTO options VALUES (?, ?, ?)", (game, name, json.dumps(value)))


class _Damaged(Exception):
    """Internal: SQLite says the file is corrupt (only acted on once the file is known to be ours)."""


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _finished_row(row: tuple[Any, ...]) -> dict[str, Any]:
    """A finished game's row as a dict; ``ended``: how it ended short of its end (``{"how", "seat"}``,
    from its record), None for a game played to its end."""
    gid, game, level, human_seat, winner, scores, finished, how, quitter = row
    damaged: list[str] = []
    try:
        decoded = json.loads(scores)
    except (TypeError, ValueError, RecursionError):
        decoded = None
    if not (isinstance(decoded, list) and all(isinstance(s, int | float) for s in decoded)):
        damaged.append("scores")
        decoded = []
    seat, win = _int_or_none(human_seat), _int_or_none(winner)
    if seat is None and human_seat is not None:
        damaged.append("human_seat")
    if win is None and winner is not None:
        damaged.append("winner")
    if not isinstance(finished, int | float):
        damaged.append("finished")
        finished = 0.0
    ended = {"how": str(how), "seat": _int_or_none(quitter)} if how is not None else None
    return {"id": gid, "game": str(game), "level": str(level), "human_seat": seat, "winner": win,
            "scores": decoded, "finished": finished, "ended": ended, "damaged": damaged}


class GameLock:
    """One saved game held by one process: an advisory lock on ``<database>.<game>.lock``.

    Why ``flock`` on a file: the kernel drops it when the process ends, however it ends
    (kill -9 included), so a stale lock never blocks the next run.  The lock file is kept,
    never deleted: deleting it would let two processes lock two different files of the same
    name.  Within one process the lock is shared (counted), so a window that reopens its own
    game is not told the game is open elsewhere.
    """

    _held: dict[str, list[Any]] = {}  # path -> [fd, count], this process's locks

    def __init__(self, path: Path) -> None:
        self.path = path
        self._released = False

    @classmethod
    def acquire(cls, path: Path, title: str) -> GameLock:
        key = str(path.absolute())
        held = cls._held.get(key)
        if held is not None:
            held[1] += 1
            return cls(path)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as exc:
            raise StoreReadOnly(f"cannot create the lock file {path}: {exc.strerror}") from None
        if not _try_lock(fd):
            os.close(fd)
            raise GameInUse(f"your {title} game is open in another Parlour window")
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())  # for a curious human; the lock is what counts
        except OSError:
            pass
        cls._held[key] = [fd, 1]
        return cls(path)

    def release(self) -> None:
        """Let another process open the game (safe to call twice)."""
        if self._released:
            return
        self._released = True
        key = str(self.path.absolute())
        held = self._held.get(key)
        if held is None:
            return
        held[1] -= 1
        if held[1] <= 0:
            del self._held[key]
            os.close(held[0])  # closing the descriptor drops the lock

    def __enter__(self) -> GameLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - no Windows runner
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
