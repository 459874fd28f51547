"""``parlour db copy``: every row of one database into another, SQLite or PostgreSQL, either way.

Why rows are matched by their keys and compared whole: running the copy again must copy
nothing new, and a target that already holds a *different* row under a key (another server's
finished game #12) must not be overwritten or merged -- the whole copy is refused then, in
one transaction, and nothing is written.  Numbers are kept (a finished game stays
``parlour export 12`` after the move, and a browser table still points at its record), so a
database server's own row counters are moved past the copied numbers (``_after_copy``).

A row that SQLite kept damaged (text where a seat number belongs: SQLite stores anything)
cannot go into PostgreSQL's typed columns: it is left out and counted as damaged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import CopyConflict
from .plumbing import Plumbing, Tx
from .schema import BY_NAME, TABLES, Table, fits

#: What is copied, in this order (a browser table names its finished game: records first), and how it is said.
COPIED = (("saved_games", "saved games"), ("finished_games", "finished games (records)"),
          ("web_tables", "browser tables"), ("broken_saves", "broken saves"), ("options", "options"))
assert {name for name, _ in COPIED} == {t.name for t in TABLES} - {"meta"}, "db copy must copy every table"


@dataclass
class Counted:
    copied: int = 0
    present: int = 0  # already in the target, the same
    damaged: int = 0  # not copied: a value that is not of its column's kind
    unfinished: int = 0  # browser tables: of those copied, still being played


@dataclass
class CopyReport:
    source: str
    target: str
    tables: dict[str, Counted] = field(default_factory=dict)
    counted_games: int = 0  # finished games a person played: what the statistics count

    def lines(self) -> Iterator[str]:
        yield f"Copied {self.source} to {self.target}:"
        for name, said in COPIED:
            n = self.tables[name]
            extra = f" ({n.unfinished} of them unfinished)" if name == "web_tables" and n.copied else ""
            damaged = f", {n.damaged} damaged and left out" if n.damaged else ""
            yield f"  {said}: {n.copied} copied{extra}, {n.present} already there{damaged}"
        yield (f"  statistics: counted from the finished games, as `parlour stats` shows them "
               f"({self.counted_games} played by a person in the source)")
        if not any(n.copied for n in self.tables.values()):
            yield "Nothing new to copy: the target already holds all of it."


class Copying(Plumbing):
    """The two halves of a copy: every row of a table out, rows in (one transaction, all or nothing)."""

    def table_rows(self, name: str) -> list[tuple[Any, ...]]:
        table = BY_NAME[name]
        return self._fetch(f"SELECT {', '.join(table.names)} FROM {name} ORDER BY {', '.join(table.key)}")

    def add_rows(self, batches: dict[str, list[tuple[Any, ...]]]) -> dict[str, Counted]:
        """Insert the rows missing here; ``CopyConflict`` (nothing written) when a key holds a different row."""
        out: dict[str, Counted] = {}
        with self._transaction() as tx:
            for name, found in batches.items():
                table = BY_NAME[name]
                counted = out[name] = Counted()
                keys = [table.names.index(k) for k in table.key]
                here = {_key(row, keys): row for row in tx.rows(f"SELECT {', '.join(table.names)} FROM {name}")}
                new = []
                for row in found:
                    if not all(fits(c, v) for c, v in zip(table.columns, row, strict=True)):
                        counted.damaged += 1
                    elif (old := here.get(_key(row, keys))) is None:
                        new.append(row)
                    elif old == row:
                        counted.present += 1
                    else:
                        raise CopyConflict(f"{self.where} already holds a different row of {name} under "
                                           f"{', '.join(table.key)} {_key(row, keys)!r}; nothing was copied")
                if new:
                    tx.executemany(f"INSERT INTO {name} ({', '.join(table.names)}) VALUES "
                                   f"({', '.join('?' * len(table.names))})", new)
                    self._after_copy(tx, table)
                counted.copied = len(new)
                if name == "web_tables":
                    counted.unfinished = sum(1 for row in new if row[table.names.index("finished")] is None)
        return out

    def _after_copy(self, tx: Tx, table: Table) -> None:
        """Rows were inserted with their own numbers: a backend whose counter does not follow moves it on."""


def _key(row: tuple[Any, ...], keys: list[int]) -> tuple[Any, ...]:
    return tuple(row[i] for i in keys)


def copy(source: Copying, target: Copying) -> CopyReport:
    """Everything of ``source`` that ``target`` lacks, in one transaction of ``target``'s."""
    batches = {name: source.table_rows(name) for name, _ in COPIED}
    seat = BY_NAME["finished_games"].names.index("human_seat")
    report = CopyReport(source.where, target.where,
                        counted_games=sum(1 for row in batches["finished_games"] if row[seat] is not None))
    report.tables = target.add_rows(batches)
    return report
