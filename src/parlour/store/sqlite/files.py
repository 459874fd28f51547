"""What a path holds, decided without changing it; and moving a damaged Parlour database aside.

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

import os
import sqlite3
import stat
import time
from pathlib import Path

from ..errors import NotParlourDatabase, StoreBusy, StoreError, StoreReadOnly
from ..schema import APPLICATION_ID, LEGACY_MARK, check_version

SQLITE_MAGIC = b"SQLite format 3\x00"

# SQLite primary result codes (the low byte of sqlite_errorcode).
BUSY, LOCKED, READONLY, CORRUPT, CANTOPEN, PERM, NOTADB = 5, 6, 8, 11, 14, 3, 26


class Damaged(Exception):
    """Internal: SQLite says the file is corrupt (only acted on once the file is known to be ours)."""


def code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


class DatabaseFile:
    """The file at ``path`` and what may be done to it; ``timeout``: seconds to wait for another's lock."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.timeout = timeout

    def busy(self) -> StoreBusy:
        return StoreBusy(f"the saved-games database is in use by another Parlour ({self.path}); "
                         "try again when it has finished")

    def foreign(self) -> NotParlourDatabase:
        return NotParlourDatabase(f"{self.path} is another program's SQLite database, not Parlour's; "
                                  "nothing was changed")

    def ro_uri(self, immutable: bool) -> str:
        return self.path.absolute().as_uri() + ("?mode=ro&immutable=1" if immutable else "?mode=ro")

    # -- deciding what the path holds, without changing it ---------------------------------
    def classify(self) -> str:
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
            raise self.foreign()
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

    def check_writable(self) -> None:
        if not os.access(self.path, os.W_OK):
            raise StoreReadOnly(f"cannot write the saved-games database {self.path}: the file is read-only")
        if not os.access(self.path.parent, os.W_OK | os.X_OK):
            raise StoreReadOnly(f"cannot write the saved-games database {self.path}: "
                                f"the folder {self.path.parent} is not writable")

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
            conn = sqlite3.connect(self.ro_uri(immutable), uri=True, timeout=self.timeout)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the saved-games database {self.path}: {exc}") from None
        try:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if ours:
                if "meta" in tables:
                    self.check_schema(conn)
                return "ours"
            if not tables:
                return "empty"
            if LEGACY_MARK <= tables and conn.execute("SELECT 1 FROM meta WHERE key='schema'").fetchone():
                self.check_schema(conn)
                return "ours"
            raise self.foreign()
        except sqlite3.Error as exc:
            if code(exc) in (BUSY, LOCKED):
                raise self.busy() from None
            if ours:
                return "ours"  # damaged: the write path checks it under the lock and moves it aside
            raise NotParlourDatabase(f"{self.path} is a damaged SQLite database that cannot be identified as "
                                     "Parlour's; nothing was changed") from None
        finally:
            conn.close()

    def check_schema(self, conn: sqlite3.Connection) -> None:
        """``NewerDatabase`` for a schema this Parlour does not read (``schema.check_version``)."""
        try:
            row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.OperationalError:  # our id but no meta table: a later schema, or half made
            row = None
        if row is not None:
            check_version(row[0], str(self.path))

    def translate(self, exc: sqlite3.Error) -> Exception:
        """An SQLite error as what it means here: busy, read-only, damaged, or another one-line error."""
        found = code(exc)
        if found in (BUSY, LOCKED):
            return self.busy()
        if found in (READONLY, CANTOPEN, PERM):
            folder = self.path.parent
            if self.path.exists() and not os.access(folder, os.W_OK | os.X_OK):
                why = f"the folder {folder} is not writable"
            elif self.path.exists():
                why = f"the file is read-only or cannot be opened ({exc})"
            else:
                why = f"the folder {folder} is not writable ({exc})"
            verb = "write" if self.path.exists() else "create"
            return StoreReadOnly(f"cannot {verb} the saved-games database {self.path}: {why}")
        if found in (CORRUPT, NOTADB):
            return Damaged(str(exc))
        return StoreError(f"cannot use the saved-games database {self.path}: {exc}")

    # -- the one change made to a damaged database of ours ------------------------------------
    def replace_damaged(self, why: str) -> str:
        """Move the damaged file aside (kept, with its log); the notice that says so."""
        aside = self._move_aside()
        return (f"The saved-games database {self.path} was damaged ({why}); "
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
