"""Saved games, finished-game records, statistics, options and browser tables: the store.

One interface (``Store``, in ``base``) and two backends: ``sqlite`` (the embedded default,
one file in the user's data folder) and ``postgresql`` (a database server that several
Parlour processes and hosts can share).  ``open_store(target)`` picks one from a path or a
URL (``opening``).  The rest, by job:

- ``schema``: the tables, written once for both backends, and the schema version;
- ``plumbing``: what a backend gives the queries (statements, transactions, its SQL dialect);
- ``queries``: saves, finished games, statistics, options;
- ``webtables``: the browser tables, whose every save is a compare-and-set on the action count;
- ``reviews``: the reviews of finished deals, kept, and the average loss over time;
- ``lock``: one saved game open in one process at a time;
- ``copying``: ``parlour db copy``, every row from one database into another;
- ``rows``: the dataclasses the queries return; ``errors``: one error type per cause.
"""

from .base import Store
from .copying import CopyReport, copy
from .errors import (
    CopyConflict,
    GameInUse,
    NewerDatabase,
    NotParlourDatabase,
    StoreBusy,
    StoreError,
    StoreReadOnly,
    StoreUnreachable,
)
from .lock import FileLock, GameLock
from .opening import default_path, is_url, open_store, shown
from .reviews import LossTrend
from .rows import BrokenSave, FinishedGame, GameStats, SavedGame, WebTable
from .schema import APPLICATION_ID, SCHEMA_VERSION
from .sqlite import SQLiteStore

__all__ = [
    "APPLICATION_ID", "SCHEMA_VERSION", "BrokenSave", "CopyConflict", "CopyReport", "FileLock", "FinishedGame",
    "GameInUse", "GameLock", "GameStats", "LossTrend", "NewerDatabase", "NotParlourDatabase", "SQLiteStore",
    "SavedGame", "Store", "StoreBusy", "StoreError", "StoreReadOnly", "StoreUnreachable", "WebTable", "copy",
    "default_path", "is_url", "open_store", "shown",
]
