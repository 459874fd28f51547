"""The SQLite backend: ``files`` judges what a path holds, ``connect`` opens it, ``store`` is the store."""

from .store import TIMEOUT, SQLiteStore

__all__ = ["TIMEOUT", "SQLiteStore"]
