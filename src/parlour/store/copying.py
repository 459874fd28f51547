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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import CopyConflict
from .plumbing import Plumbing, Tx
from .schema import BY_NAME, TABLES, Table, fits

#: What is copied, in this order (a browser table names its finished game: records first), and how it is said.
COPIED = (("saved_games", "saved games"), ("finished_games", "finished games (records)"),
          ("web_tables", "browser tables"), ("broken_saves", "broken saves"), ("options", "options"),
          ("reviews", "reviews of deals"))
BATCH = 400  # rows a query reads (their keys as parameters: at most 800, under SQLite's old limit of 999)
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
    """The two halves of a copy: a table's rows out in batches, rows in (one transaction, all or nothing).

    Why batches: a server's database can hold more records than fit in memory at once; a copy
    holds one batch of the source's rows and the target's rows under the same keys.
    """

    def table_rows(self, name: str, batch: int | None = None) -> Iterator[list[tuple[Any, ...]]]:
        """Every row of table ``name``, in key order, ``batch`` rows (``BATCH``) at a time: each query
        starts after the last one's key."""
        batch = batch or BATCH
        table = BY_NAME[name]
        columns, key = ", ".join(table.names), ", ".join(table.key)
        at = [table.names.index(k) for k in table.key]
        after: tuple[Any, ...] | None = None
        while True:
            where = "" if after is None else f" WHERE ({key}) > ({', '.join('?' * len(after))})"
            found = self._fetch(f"SELECT {columns} FROM {name}{where} ORDER BY {key} LIMIT ?", (*(after or ()), batch))
            if found:
                yield found
            if len(found) < batch:
                return
            after = _key(found[-1], at)

    def add_rows(self, batches: Iterable[tuple[str, list[tuple[Any, ...]]]]) -> dict[str, Counted]:
        """Insert the rows missing here; ``CopyConflict`` (nothing written) when a key holds a different row."""
        out = {name: Counted() for name, _ in COPIED}
        with self._transaction() as tx:
            for name, found in batches:
                self._add_batch(tx, BY_NAME[name], found, out[name])
        return out

    def _add_batch(self, tx: Tx, table: Table, found: list[tuple[Any, ...]], counted: Counted) -> None:
        at = [table.names.index(k) for k in table.key]
        sound = [row for row in found if all(fits(c, v) for c, v in zip(table.columns, row, strict=True))]
        counted.damaged += len(found) - len(sound)
        one = f"({', '.join('?' * len(at))})"
        here = {_key(row, at): row for row in tx.rows(
            f"SELECT {', '.join(table.names)} FROM {table.name} WHERE ({', '.join(table.key)}) IN "
            f"({', '.join([one] * len(sound))})", [v for row in sound for v in _key(row, at)])} if sound else {}
        new = []
        for row in sound:
            old = here.get(_key(row, at))
            if old is None:
                new.append(row)
            elif old == row:
                counted.present += 1
            else:
                raise CopyConflict(f"{self.where} already holds a different row of {table.name} under "
                                   f"{', '.join(table.key)} {_key(row, at)!r}; nothing was copied")
        if new:
            tx.executemany(f"INSERT INTO {table.name} ({', '.join(table.names)}) VALUES "
                           f"({', '.join('?' * len(table.names))})", new)
            self._after_copy(tx, table)
        counted.copied += len(new)
        if table.name == "web_tables":
            counted.unfinished += sum(1 for row in new if row[table.names.index("finished")] is None)

    def _after_copy(self, tx: Tx, table: Table) -> None:
        """Rows were inserted with their own numbers: a backend whose counter does not follow moves it on."""


def _key(row: tuple[Any, ...], at: list[int]) -> tuple[Any, ...]:
    return tuple(row[i] for i in at)


def copy(source: Copying, target: Copying) -> CopyReport:
    """Everything of ``source`` that ``target`` lacks, in one transaction of ``target``'s."""
    report = CopyReport(source.where, target.where)
    seat = BY_NAME["finished_games"].names.index("human_seat")

    def batches() -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
        for name, _ in COPIED:
            for found in source.table_rows(name):
                if name == "finished_games":
                    report.counted_games += sum(1 for row in found if row[seat] is not None)
                yield name, found

    report.tables = target.add_rows(batches())
    return report
