"""Which backend a database argument names (``--database URL_OR_PATH``), and opening it.

Why one function: every command takes the same argument, and each must read it the same
way.  No argument is today's SQLite file in the user's data folder (platformdirs); a
``postgresql://`` (or ``postgres://``) URL is a PostgreSQL database; anything else with
``://`` is refused rather than taken for a file name; everything else is an SQLite path.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .base import Store
from .errors import StoreError

POSTGRESQL_SCHEMES = ("postgresql", "postgres")


def default_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("parlour", appauthor=False) / "parlour.db"


def is_url(target: str | Path | None) -> bool:
    """Whether ``target`` is a URL (``scheme://...``), not a file name."""
    return isinstance(target, str) and re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", target) is not None


def shown(target: str | Path) -> str:
    """The database as a message may name it: a URL's password (in its address or its parameters) is hidden."""
    if not is_url(target):
        return str(target)
    parts = urlsplit(str(target))
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        name, colon, _password = user.partition(":")
        netloc = f"{name}:***@{host}" if colon else netloc
    query = urlencode([(k, "***" if k.lower() == "password" else v) for k, v in parse_qsl(parts.query)], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def open_store(target: str | Path | None = None, *, read_only_ok: bool = False,
               timeout: float | None = None) -> Store:
    """The store ``target`` names (None: the SQLite file in the user's data folder).

    ``read_only_ok``: for commands that only read (statistics, history, export), a database
    that cannot be written is opened read-only instead of refused.  ``timeout``: seconds to
    wait for another process's lock, or for the database server.
    """
    if is_url(target):
        url = str(target)
        scheme = url.split("://", 1)[0].lower()
        if scheme not in POSTGRESQL_SCHEMES:
            raise StoreError(f"unknown kind of database {scheme}:// (give a file name, or a postgresql:// URL)")
        from .postgresql import PostgreSQLStore

        return PostgreSQLStore(url, where=shown(url), read_only_ok=read_only_ok, timeout=timeout)
    from .sqlite import SQLiteStore

    if target is None:
        path = default_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the saved-games database {path}: "
                             f"{exc.strerror}") from None
        target = path
    return SQLiteStore(target, read_only_ok=read_only_ok, timeout=timeout)
