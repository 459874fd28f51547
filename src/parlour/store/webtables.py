"""The browser tables' queries (``parlour.web``), with the compare-and-set every action's save is.

Why a compare-and-set on the action count, on both backends: several server processes may
share one database (PostgreSQL), and a writer that did not see the latest action must be
refused and reload, never overwrite it.  Both backends run the same ``UPDATE ... WHERE id = ?
AND actions = ?``: SQLite holds its write lock for it, and PostgreSQL's row lock makes a
second writer re-read the row after the first commits, so at most one of two writers that
started from the same count succeeds.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from typing import Any

from .plumbing import Plumbing
from .queries import INSERT_FINISHED
from .rows import WebTable, decode_web_table

_CHUNK = 500  # ids per DELETE: under SQLite's old limit of 999 parameters
#: a move's save: the compare-and-set on the action count (``save_args`` gives its arguments)
SAVE_WEB_TABLE = ("UPDATE web_tables SET record = ?, actions = ?, updated = ?"
                  " WHERE id = ? AND actions = ? AND finished IS NULL")


def save_args(table_id: str, record: str, *, expected: int, actions: int) -> tuple[str, int, float, str, int]:
    """The arguments of ``SAVE_WEB_TABLE``."""
    return (record, actions, time.time(), table_id, expected)


class WebTableQueries(Plumbing):
    def create_web_table(self, table_id: str, game: str, record: str, seats: list[dict[str, Any]],
                         settings: dict[str, Any], actions: int) -> None:
        now = time.time()
        self._run("INSERT INTO web_tables (id, game, record, seats, settings, actions, finished, created, updated)"
                  " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                  (table_id, game, record, json.dumps(seats), json.dumps(settings), actions, now, now))

    def save_web_table(self, table_id: str, record: str, *, expected: int,
                       actions: int, finished: dict[str, Any] | None = None) -> int | None:
        """Save a table if it still has ``expected`` actions; None when a stale writer is refused.

        ``finished`` (level, human_seat, winner, scores) also records the game in the finished
        games, in the same transaction; the return value is then its number, else 0.

        Why not the seats too: they have their own writes (``save_web_seats``, a compare-and-set
        on them), and the process saving a move may not have read the seats another process
        changed a moment ago (a demo asked, a seat left there): writing its copy undid that change.
        """
        args = save_args(table_id, record, expected=expected, actions=actions)
        if finished is None:
            # One statement is its own transaction, compare-and-set included: a third of the work
            # of BEGIN, UPDATE, COMMIT on the browser table's every action.
            return 0 if self._run(SAVE_WEB_TABLE, args) == 1 else None
        with self._transaction() as tx:
            if tx.execute(SAVE_WEB_TABLE, args).rowcount != 1:
                return None
            game = tx.execute("SELECT game FROM web_tables WHERE id = ?", (table_id,)).fetchone()[0]
            game_id = tx.insert(INSERT_FINISHED, (game, finished["level"], finished["human_seat"],
                                                   finished["winner"], json.dumps(finished["scores"]), record,
                                                   time.time()))
            tx.execute("UPDATE web_tables SET finished = ? WHERE id = ?", (game_id, table_id))
            return game_id

    async def save_web_table_on_loop(self, table_id: str, record: str, *, expected: int,
                                     actions: int, finished: dict[str, Any] | None = None) -> int | None:
        """``save_web_table`` for a server's event loop: the same write, with the same answer.

        Why a second door: a save on a database server is a round trip, and the loop that waits
        for it serves no other table meanwhile (waiting on PostgreSQL's saves was 16 % of the
        browser server's loop at 200 busy tables, py-spy).  Here, by default, the
        plain call: SQLite's save is work in this process, not a wait, and an ``await`` would
        only add a turn of the loop.  ``PostgreSQLStore`` sends it on a connection of the loop's own.
        """
        return self.save_web_table(table_id, record, expected=expected, actions=actions, finished=finished)

    def save_web_seats(self, table_id: str, seats: list[dict[str, Any]],
                       expected: list[dict[str, Any]] | None = None) -> bool:
        """The seats alone (a name given, a seat taken): they never change the game record.

        ``expected``: the seats as this writer read them, for a compare-and-set (False: another
        writer changed them first -- two people taking their seats at once through two server
        processes -- and the caller reads them again), as the actions' count is for the record.
        """
        if expected is None:
            return self._run("UPDATE web_tables SET seats = ?, updated = ? WHERE id = ?",
                             (json.dumps(seats), time.time(), table_id)) == 1
        return self._run("UPDATE web_tables SET seats = ?, updated = ? WHERE id = ? AND seats = ?",
                         (json.dumps(seats), time.time(), table_id, json.dumps(expected))) == 1

    def save_web_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        """A table's settings alone (the computer's speed): they never change the game record."""
        self._run("UPDATE web_tables SET settings = ?, updated = ? WHERE id = ?", (json.dumps(settings), time.time(),
                                                                                  table_id))

    def load_web_table(self, table_id: str) -> WebTable | None:
        row = self._fetch_one("SELECT game, record, seats, settings, actions, finished FROM web_tables WHERE id = ?",
                              (table_id,))
        return None if row is None else decode_web_table(table_id, row)

    def open_web_tables(self) -> int:
        """How many browser tables are unfinished (the server caps them)."""
        row = self._fetch_one("SELECT COUNT(*) FROM web_tables WHERE finished IS NULL")
        return int(row[0]) if row else 0

    def expire_web_tables(self, before: float, keep: Collection[str] = ()) -> list[str]:
        """Delete the unfinished browser tables untouched since ``before`` that no person ever joined.

        Why: a table costs nothing to create, and one nobody came to sit at would stay forever.
        "Joined": as ``_untouched`` says, so no game in progress is lost.  A
        write (an action, a seat taken) refreshes ``updated``, and the delete checks it again,
        so a table joined meanwhile stays.  ``keep``: tables in use now (in memory, watched).
        Returns the ids deleted.
        """
        gone = [table_id for table_id, joined in self._untouched(before, keep) if not joined]
        if gone:
            with self._transaction() as tx:
                for start in range(0, len(gone), _CHUNK):
                    chunk = gone[start:start + _CHUNK]
                    tx.execute(f"DELETE FROM web_tables WHERE finished IS NULL AND updated < ? AND id IN "
                               f"({', '.join('?' * len(chunk))})", (before, *chunk))
        return gone

    def stale_web_tables(self, before: float, keep: Collection[str] = ()) -> list[str]:
        """The unfinished browser tables untouched since ``before`` that a person joined: a game
        begun and left (``Tables.close_stale`` closes them); ``keep``: tables in use now."""
        return [table_id for table_id, joined in self._untouched(before, keep) if joined]

    def delete_web_table(self, table_id: str, before: float) -> bool:
        """Delete one unfinished table if still untouched since ``before`` (a write meanwhile keeps it)."""
        return self._run("DELETE FROM web_tables WHERE id = ? AND finished IS NULL AND updated < ?",
                         (table_id, before)) == 1

    def _untouched(self, before: float, keep: Collection[str]) -> list[tuple[str, bool]]:
        """The unfinished tables untouched since ``before`` and not in ``keep``, each with whether a
        person joined it (its seat opened by its link; a table saved before that mark existed
        counts its claimed seats as joined, so no game in progress is taken for one nobody began)."""
        found = self._fetch("SELECT id, seats FROM web_tables WHERE finished IS NULL AND updated < ?", (before,))
        return [(str(table_id), any(s.get("joined", s.get("claimed")) for s in json.loads(seats)))
                for table_id, seats in found if table_id not in keep]
