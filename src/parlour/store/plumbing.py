"""What a backend gives the queries: statements run, transactions, and its dialect of SQL.

Why the queries are written once over this: both backends hold the same tables
(``schema``), and SQLite (3.24 and later) and PostgreSQL share the SQL the store needs --
``ON CONFLICT`` upserts, a compare-and-set ``UPDATE ... WHERE actions = ?`` -- except for
the few expressions a ``Dialect`` names.  Queries are written with ``?`` placeholders; a
backend whose driver wants ``%s`` translates them (no query holds a literal ``?`` or ``%``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

Args = Sequence[Any]


@dataclass(frozen=True)
class Dialect:
    """What differs between the backends' SQL."""

    name: str  # "sqlite" or "postgresql" (``schema.create_statements``)
    placeholder: str  # "?" or "%s"
    find: str  # the function giving a substring's position (1-based; 0 when absent)
    #: The finished games with, for a record that says how it ended (a resignation: ``"ended"``),
    #: ``how`` and ``quitter`` (the seat that resigned), NULL otherwise or when the record is damaged.
    ended_rows: str

    def sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)


class Result(Protocol):
    """A statement's outcome, as both drivers' cursors give it."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Tx(ABC):
    """A transaction in progress (``Plumbing._transaction``): statements with ``?`` placeholders."""

    @abstractmethod
    def execute(self, sql: str, args: Args = ()) -> Result: ...

    @abstractmethod
    def executemany(self, sql: str, rows: Iterable[Args]) -> None: ...

    @abstractmethod
    def insert(self, sql: str, args: Args) -> int:
        """Run an ``INSERT`` of one row into a table with an ``id`` column; the new row's id."""

    def rows(self, sql: str, args: Args = ()) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.execute(sql, args).fetchall()]


class Plumbing(ABC):
    """The part of a store each backend writes; the queries (``queries``, ``webtables``) are built on it.

    ``where``: the database as messages name it (a path, or a URL without its password);
    ``notice``: one line to show the user once (a damaged database moved aside), else None;
    ``read_only``: every write raises ``StoreReadOnly``.
    """

    dialect: Dialect
    where: str
    notice: str | None = None
    read_only: bool = False

    @abstractmethod
    def _fetch(self, sql: str, args: Args = ()) -> list[tuple[Any, ...]]:
        """The rows of one read."""

    @abstractmethod
    def _run(self, sql: str, args: Args = ()) -> int:
        """One write statement, a transaction of its own; the number of rows it changed."""

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[Tx]:
        """Statements that are committed together or not at all (an error rolls them back)."""

    def _fetch_one(self, sql: str, args: Args = ()) -> tuple[Any, ...] | None:
        rows = self._fetch(sql, args)
        return rows[0] if rows else None
