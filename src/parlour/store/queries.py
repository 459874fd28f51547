"""The queries of the terminal and line-mode games: saves, finished games, statistics, options.

Why these live apart from the backends: they are the same SQL on SQLite and PostgreSQL
(``plumbing``), so a behaviour -- a finished game moved to the records in one transaction, a
broken save kept aside, a damaged row still listed -- is written, and tested, once.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .plumbing import Plumbing
from .rows import (
    BrokenSave,
    FinishedGame,
    GameStats,
    SavedGame,
    decode_finished,
    decode_options,
    decode_saved,
)

#: A finished game's row, with how it ended short of its end (``Dialect.ended_rows``): why from the
#: record and not a column of its own: the record is where the ending is kept, in every row ever
#: written (a column would need filling in for the older rows, and a schema an older Parlour refuses).
_FINISHED_COLUMNS = "SELECT id, game, level, human_seat, winner, scores, finished, how, quitter FROM {}"
INSERT_FINISHED = ("INSERT INTO finished_games (game, level, human_seat, winner, scores, record, finished)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)")


class GameQueries(Plumbing):
    # -- games in progress ------------------------------------------------------------
    def save_game(self, game: str, record: str, settings: dict[str, Any]) -> None:
        self._run("INSERT INTO saved_games (game, record, settings, updated) VALUES (?, ?, ?, ?)"
                  " ON CONFLICT (game) DO UPDATE SET record = excluded.record, settings = excluded.settings,"
                  " updated = excluded.updated", (game, record, json.dumps(settings), time.time()))

    def load_game(self, game: str) -> SavedGame | None:
        row = self._fetch_one("SELECT record, settings FROM saved_games WHERE game = ?", (game,))
        return None if row is None else decode_saved(row[0], row[1])

    def delete_game(self, game: str) -> None:
        self._run("DELETE FROM saved_games WHERE game = ?", (game,))

    def set_aside_broken(self, game: str, error: str) -> None:
        """Keep a save that no longer replays, out of the way, instead of deleting it."""
        with self._transaction() as tx:
            tx.execute("INSERT INTO broken_saves (game, record, error, found)"
                       " SELECT game, record, ?, ? FROM saved_games WHERE game = ?", (error, time.time(), game))
            tx.execute("DELETE FROM saved_games WHERE game = ?", (game,))

    def broken_saves(self) -> list[BrokenSave]:
        """The saves set aside, oldest first."""
        return [BrokenSave(int(i), str(g), str(r), str(e), float(f)) for i, g, r, e, f in
                self._fetch("SELECT id, game, record, error, found FROM broken_saves ORDER BY id")]

    # -- finished games and statistics ------------------------------------------------
    def finish_game(self, game: str, record: str, level: str, human_seat: int | None,
                    winner: int | None, scores: list[int]) -> int:
        """Move a game from 'in progress' to the finished records, atomically; its number in the history."""
        with self._transaction() as tx:
            game_id = tx.insert(INSERT_FINISHED, (game, level, human_seat, winner, json.dumps(scores), record,
                                                   time.time()))
            tx.execute("DELETE FROM saved_games WHERE game = ?", (game,))
            return game_id

    def finished_games(self, game: str | None = None, limit: int = 50) -> list[FinishedGame]:
        """The latest finished games, newest first.

        A row damaged by hand or by another program is still listed, with what can be read
        (``rows.decode_finished``), so that one bad row never hides the others.
        """
        where, args = (" WHERE game = ?", (game,)) if game else ("", ())
        found = self._fetch(f"{_FINISHED_COLUMNS.format(self.dialect.ended_rows)}{where} ORDER BY id DESC LIMIT ?",
                            (*args, limit))
        return [decode_finished(row) for row in found]

    def finished_game(self, game_id: int) -> FinishedGame | None:
        """One finished game's row, as ``finished_games`` lists it (None: no such game)."""
        row = self._fetch_one(f"{_FINISHED_COLUMNS.format(self.dialect.ended_rows)} WHERE id = ?", (game_id,))
        return None if row is None else decode_finished(row)

    def finished_record(self, game_id: int) -> str | None:
        row = self._fetch_one("SELECT record FROM finished_games WHERE id = ?", (game_id,))
        return None if row is None else str(row[0])

    def stats(self) -> list[GameStats]:
        """Played/won/lost/drawn per game and opponent level, from the human's seat.

        A game ended by a resignation (a browser table's record says ``"ended"``) is counted in
        ``resigned`` too; with no winner (a three-player game) it is lost by the seat that
        resigned and not drawn by anyone.  A table closed unplayed (``Tables.close_stale``) is
        no game anyone played out: it is not counted.  Why read from the record: that is where the ending
        is kept (as ``"#undo"``), and a row whose record is damaged still counts as it can.
        """
        found = self._fetch(
            "SELECT game, level,"
            " COUNT(*),"
            " SUM(CASE WHEN winner IS NOT NULL AND winner = human_seat THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN winner IS NOT NULL AND winner != human_seat OR winner IS NULL AND quitter = human_seat"
            " THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN winner IS NULL AND how IS NULL THEN 1 ELSE 0 END),"
            # a win after taking moves back (a "#undo N" marker in the record) is counted apart
            " SUM(CASE WHEN winner IS NOT NULL AND winner = human_seat AND undone THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN how = 'resignation' THEN 1 ELSE 0 END)"
            f" FROM (SELECT game, level, winner, human_seat, {self.dialect.find}(record, '\"#undo ') > 0 AS undone,"
            f"  how, quitter FROM {self.dialect.ended_rows} WHERE human_seat IS NOT NULL"
            " AND (how IS NULL OR how <> 'closed')) AS f"
            " GROUP BY game, level")
        # sorted here, not by the database: PostgreSQL's order of text follows its locale
        return sorted((GameStats(str(g), str(lv), *(int(n) for n in counts)) for g, lv, *counts in found),
                      key=lambda r: (r.game, r.level))

    # -- interface options --------------------------------------------------------------
    def get_options(self, game: str) -> dict[str, Any]:
        return decode_options(self._fetch("SELECT name, value FROM options WHERE game = ?", (game,)))

    def set_options(self, game: str, values: dict[str, Any]) -> None:
        with self._transaction() as tx:
            tx.executemany("INSERT INTO options (game, name, value) VALUES (?, ?, ?)"
                           " ON CONFLICT (game, name) DO UPDATE SET value = excluded.value",
                           [(game, name, json.dumps(value)) for name, value in values.items()])
