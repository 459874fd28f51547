"""Saved games, finished-game records, statistics and options, in one SQLite file.

Why SQLite from the standard library: every action is saved as it is made (the original
Six-Bid kept its match on disk the same way), and SQLite's transactions mean a process
killed mid-write leaves the previous save intact.  The file lives in the user data
directory (platformdirs) unless a path is given (``--db``).

A file that is not a readable Parlour database is never overwritten: it is renamed aside
(``parlour.db.corrupt-YYYYmmdd-HHMMSS``), a fresh database is made in its place, and
``Store.notice`` says so in one sentence for the interface to show.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS saved_games (
    game TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    settings TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS finished_games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    level TEXT NOT NULL,
    human_seat INTEGER,
    winner INTEGER,
    scores TEXT NOT NULL,
    record TEXT NOT NULL,
    finished REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS broken_saves (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    record TEXT NOT NULL,
    error TEXT NOT NULL,
    found REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS options (
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game, name)
);
"""


def default_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("parlour", appauthor=False) / "parlour.db"


class StoreError(Exception):
    """The database cannot be used at all (e.g. its folder cannot be created)."""


class Store:
    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.notice: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the database {self.path}: {exc.strerror}") from None
        try:
            self._conn = self._open()
        except sqlite3.DatabaseError as exc:
            aside = self._move_aside()
            self.notice = (f"The saved-games database {self.path} could not be read ({exc}); "
                           f"it was moved aside to {aside.name} and a new one was started.")
            try:
                self._conn = self._open()
            except sqlite3.DatabaseError as exc2:
                raise StoreError(f"cannot create a database at {self.path}: {exc2}") from None

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=5.0, isolation_level=None, check_same_thread=False)
        try:
            ok = conn.execute("PRAGMA quick_check").fetchone()
            if not ok or ok[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {ok[0] if ok else 'no answer'}")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
            row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"made by a newer Parlour (schema {row[0]})")
        except (sqlite3.DatabaseError, ValueError) as exc:
            conn.close()
            raise sqlite3.DatabaseError(str(exc)) from None
        return conn

    def _move_aside(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        self.path.rename(aside)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(aside.with_name(aside.name + suffix))
        return aside

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        else:
            self._conn.execute("COMMIT")

    def close(self) -> None:
        self._conn.close()

    # -- games in progress ------------------------------------------------------------
    def save_game(self, game: str, record: str, settings: dict[str, Any]) -> None:
        with self._transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO saved_games VALUES (?, ?, ?, ?)",
                         (game, record, json.dumps(settings), time.time()))

    def load_game(self, game: str) -> tuple[str, dict[str, Any]] | None:
        row = self._conn.execute("SELECT record, settings FROM saved_games WHERE game=?", (game,)).fetchone()
        if row is None:
            return None
        try:
            settings = json.loads(row[1])
        except json.JSONDecodeError:
            settings = {}
        return row[0], settings if isinstance(settings, dict) else {}

    def delete_game(self, game: str) -> None:
        with self._transaction() as conn:
            conn.execute("DELETE FROM saved_games WHERE game=?", (game,))

    def set_aside_broken(self, game: str, error: str) -> None:
        """Keep a save that no longer replays, out of the way, instead of deleting it."""
        with self._transaction() as conn:
            row = conn.execute("SELECT record FROM saved_games WHERE game=?", (game,)).fetchone()
            if row is not None:
                conn.execute("INSERT INTO broken_saves (game, record, error, found) VALUES (?, ?, ?, ?)",
                             (game, row[0], error, time.time()))
                conn.execute("DELETE FROM saved_games WHERE game=?", (game,))

    # -- finished games and statistics ------------------------------------------------
    def finish_game(self, game: str, record: str, level: str, human_seat: int | None,
                    winner: int | None, scores: list[int]) -> int:
        """Move a game from 'in progress' to the finished records, atomically."""
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO finished_games (game, level, human_seat, winner, scores, record, finished)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game, level, human_seat, winner, json.dumps(scores), record, time.time()))
            conn.execute("DELETE FROM saved_games WHERE game=?", (game,))
            return int(cur.lastrowid or 0)

    def finished_games(self, game: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        sql = "SELECT id, game, level, human_seat, winner, scores, finished FROM finished_games"
        args: tuple[Any, ...] = ()
        if game:
            sql += " WHERE game=?"
            args = (game,)
        sql += " ORDER BY id DESC LIMIT ?"
        rows = self._conn.execute(sql, (*args, limit)).fetchall()
        keys = ("id", "game", "level", "human_seat", "winner", "scores", "finished")
        out = []
        for row in rows:
            item = dict(zip(keys, row, strict=True))
            item["scores"] = json.loads(item["scores"])
            out.append(item)
        return out

    def finished_record(self, game_id: int) -> str | None:
        row = self._conn.execute("SELECT record FROM finished_games WHERE id=?", (game_id,)).fetchone()
        return row[0] if row else None

    def stats(self) -> list[dict[str, Any]]:
        """Played/won/lost/drawn per game and opponent level, from the human's seat."""
        rows = self._conn.execute(
            "SELECT game, level,"
            " COUNT(*),"
            " SUM(CASE WHEN winner IS NOT NULL AND winner = human_seat THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN winner IS NOT NULL AND winner != human_seat THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END)"
            " FROM finished_games WHERE human_seat IS NOT NULL GROUP BY game, level ORDER BY game, level"
        ).fetchall()
        keys = ("game", "level", "played", "won", "lost", "drawn")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    # -- interface options --------------------------------------------------------------
    def get_options(self, game: str) -> dict[str, Any]:
        rows = self._conn.execute("SELECT name, value FROM options WHERE game=?", (game,)).fetchall()
        out: dict[str, Any] = {}
        for name, value in rows:
            try:
                out[name] = json.loads(value)
            except json.JSONDecodeError:
                continue
        return out

    def set_options(self, game: str, values: dict[str, Any]) -> None:
        with self._transaction() as conn:
            for name, value in values.items():
                conn.execute("INSERT OR REPLACE INTO options VALUES (?, ?, ?)", (game, name, json.dumps(value)))
