"""``Store``: the one interface of the saved-games database, whichever backend holds it.

Every caller (the line mode, the terminal table, the browser server, the commands) holds a
``Store`` and never asks which backend it is; ``opening.open_store`` picks one from what the
user gave (a path: SQLite; a ``postgresql://`` URL: PostgreSQL).  The queries are shared
(``queries``, ``webtables``, ``copy``); what a backend adds is its plumbing, its game lock
and its way of closing.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import Any, TypeVar

from .copying import Copying
from .lock import GameLock
from .queries import GameQueries
from .reviews import ReviewQueries
from .webtables import WebTableQueries

T = TypeVar("T")


class Store(GameQueries, WebTableQueries, ReviewQueries, Copying):
    """Saved games, finished-game records, statistics, options and browser tables.

    Rows come back as the dataclasses of ``rows``.  Errors are ``StoreError``s (``errors``),
    each one line for the user.
    """

    def ping(self) -> None:
        """A ``StoreError`` unless the database answers now (``/healthz``)."""
        self._fetch("SELECT 1")

    @abstractmethod
    def game_lock(self, game: str, title: str | None = None) -> GameLock:
        """Hold ``game`` for this process (``lock``); ``GameInUse`` if another process holds it."""

    @abstractmethod
    def close(self) -> None:
        """Let go of the database (its connections); the store is not used again."""

    async def from_loop(self, query: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``query(*args, **kwargs)``, one of this store's calls, for a server's event loop.

        Here the plain call: SQLite's work is in this process, not a wait, and a thread would
        only add its hand-off.  ``PostgreSQLStore`` makes it on a worker thread, so that its
        round trips hold no other table meanwhile.
        """
        return query(*args, **kwargs)

    def checkpoint_in_background(self, every: float = 1.0) -> Callable[[], None]:
        """Move the backend's housekeeping off the caller's thread while a server runs; returns its stop.

        Nothing to do by default: only SQLite writes its log back into the file in the middle
        of a save (``SQLiteStore.checkpoint_in_background``).
        """
        return lambda: None
