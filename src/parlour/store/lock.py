"""One saved game open in one process at a time (two windows finishing it would count it twice).

Why locks that die with their holder: a process killed mid-game (kill -9 included) must never
leave its game locked for the next run.  SQLite's is ``flock`` on a file beside the database,
which the kernel drops when the process ends; PostgreSQL's is a session advisory lock, which
the server drops when the holder's connection ends.  Within one process a lock is shared
(counted), so a window that reopens its own game is not told the game is open elsewhere.
"""

from __future__ import annotations

import os
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Protocol

from .errors import GameInUse, StoreReadOnly
from .schema import APPLICATION_ID


class GameLock:
    """A held game; ``release()`` (or leaving the ``with`` block) lets another process open it."""

    #: this process's locks: key -> [what drops the lock, how many holders share it]
    _held: ClassVar[dict[str, list[Any]]] = {}

    def __init__(self, key: str) -> None:
        self.key = key
        self._released = False

    @classmethod
    def _share(cls, key: str) -> bool:
        """Count one more holder of a lock this process already has; False when it has none."""
        held = cls._held.get(key)
        if held is None:
            return False
        held[1] += 1
        return True

    @classmethod
    def _hold(cls, key: str, drop: Callable[[], None]) -> None:
        cls._held[key] = [drop, 1]

    def release(self) -> None:
        """Let another process open the game (safe to call twice)."""
        if self._released:
            return
        self._released = True
        held = self._held.get(self.key)
        if held is None:
            return
        held[1] -= 1
        if held[1] <= 0:
            del self._held[self.key]
            held[0]()

    def __enter__(self) -> GameLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class FileLock(GameLock):
    """SQLite's: an advisory lock on ``<database>.<game>.lock``.

    The lock file is kept, never deleted: deleting it would let two processes lock two
    different files of the same name.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(str(path.absolute()))
        self.path = path

    @classmethod
    def acquire(cls, path: Path, title: str) -> FileLock:
        lock = cls(path)
        if cls._share(lock.key):
            return lock
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
        cls._hold(lock.key, lambda: os.close(fd))  # closing the descriptor drops the lock
        return lock


class _Session(Protocol):
    """A database connection of its own, held as long as the lock (a psycopg connection)."""

    def execute(self, query: Any, params: Any = ...) -> Any: ...

    def close(self) -> None: ...


class AdvisoryLock(GameLock):
    """PostgreSQL's: ``pg_try_advisory_lock`` on a connection of its own, held until released.

    The keys: Parlour's application id and the game name's CRC-32, within one database.  If
    the connection is lost (the server restarted), so is the lock: the game may then be
    opened elsewhere, as after a crash.
    """

    @classmethod
    def acquire(cls, database: str, game: str, title: str, connect: Callable[[], _Session]) -> AdvisoryLock:
        lock = cls(f"{database}#{game}")
        if cls._share(lock.key):
            return lock
        session = connect()
        crc = zlib.crc32(game.encode())
        keys = (APPLICATION_ID + 1, crc - 2**32 if crc >= 2**31 else crc)
        try:
            taken = session.execute("SELECT pg_try_advisory_lock(%s, %s)", keys).fetchone()[0]
        except BaseException:
            session.close()
            raise
        if not taken:
            session.close()
            raise GameInUse(f"your {title} game is open in another Parlour window")

        def drop() -> None:
            """Unlock, then close.  Why not close alone: the server drops a closed session's locks
            when its backend process ends, after ``close()`` has returned, so the same game opened
            again at once could still be refused (a fresh-clone CI run met it)."""
            try:
                session.execute("SELECT pg_advisory_unlock(%s, %s)", keys)
            except Exception:  # the connection is gone already, and the lock with it
                pass
            finally:
                session.close()

        cls._hold(lock.key, drop)
        return lock


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
