"""``--database`` on the commands that read the store, ``parlour db copy`` between SQLite and PostgreSQL
(complete, byte for byte, idempotent, all or nothing) and ``parlour db backup`` of a live SQLite file."""

from __future__ import annotations

import io
import json
import random
import sqlite3
import sys
import threading
from pathlib import Path

import pytest

import parlour
from parlour.bots import make
from parlour.cli import main
from parlour.store import CopyConflict, SQLiteStore, copy, open_store
from parlour.store.copying import COPIED
from parlour.store.schema import BY_NAME


def played(name: str, seed: int, actions: int | None = None) -> parlour.engine.State:
    """A game of ``name`` played by easy computer players: to its end, or for ``actions`` actions."""
    game = parlour.load(name)
    state = game.new_state(seed=seed)
    bots, rng = [make(name, "easy") for _ in range(game.num_players)], random.Random(seed)
    while not state.is_over and (actions is None or len(state.actions) < actions):
        seat = state.current_player
        state.apply(bots[seat].act(state.view(seat), rng))
    return state


def fill(target: str) -> None:
    """Every kind of row, for every game: finished and unfinished games of the terminal and of the browser,
    a broken save, options, reviews of deals (one with no accuracy)."""
    store = open_store(target)
    store.save_game("gops", "not a record any more", {"level": "easy"})
    store.set_aside_broken("gops", "it no longer replays")
    for n, name in enumerate(parlour.names(), 1):
        done, half = played(name, n), played(name, n, actions=7)
        store.finish_game(name, done.to_json(), "easy", 0, done.winner, done.scores)
        store.finish_game(name, done.to_json(), "strong", None, done.winner, done.scores)  # a demo
        store.save_game(name, half.to_json(), {"level": "easy", "open": n % 2 == 0, "human_seat": 0})
        seats = [{"kind": "human", "name": "Ann", "token": "ab" * 32, "claimed": True, "joined": True,
                  "client_seed": "", "level": None}] + \
                [{"kind": "bot", "level": "easy", "name": f"Bot {s}"} for s in range(1, done.game.num_players)]
        for table_id, state in ((f"{name}-live", half), (f"{name}-over", done)):
            store.create_web_table(table_id, name, half.to_json(), seats, {"open": False, "delay": 0.5}, 0)
            finished = {"level": "people", "human_seat": 0, "winner": state.winner, "scores": state.scores} \
                if state.is_over else None
            assert store.save_web_table(table_id, state.to_json(), expected=0, actions=len(state.actions),
                                        finished=finished) is not None
        verdict = {"game": name, "unit": "points", "loss": 1.5 * n, "decisions": 9,
                   "accuracy": None if n == 1 else 80.5}
        store.save_review(f"key-{name}", 1, 0, 32, verdict, json.dumps({"deal": 1}), counted=n % 2 == 1)
    store.set_options("tui", {"four_colour": True, "sound": False, "delay": 0.25})
    store.set_options("clobby", {"game_point": 300, "no_tie": True})
    store.close()


def everything(target: str) -> dict[str, list[tuple]]:
    store = open_store(target)
    try:
        return {name: [row for batch in store.table_rows(name) for row in batch] for name, _ in COPIED}
    finally:
        store.close()


def test_a_database_goes_to_postgresql_and_back_byte_for_byte(tmp_path, make_database, capsys):
    source, server, back = str(tmp_path / "source.db"), make_database("postgresql"), str(tmp_path / "back.db")
    fill(source)
    original = everything(source)
    assert main(["db", "copy", "--from", source, "--to", server]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == f"Copied {source} to {server}:"
    assert said[1:8] == [
        "  saved games: 5 copied, 0 already there",
        "  finished games (records): 15 copied, 0 already there",
        "  browser tables: 10 copied (5 of them unfinished), 0 already there",
        "  broken saves: 1 copied, 0 already there",
        "  options: 5 copied, 0 already there",
        "  reviews of deals: 5 copied, 0 already there",
        "  statistics: counted from the finished games, as `parlour stats` shows them (10 played by a person "
        "in the source)",
    ]
    assert main(["--database", server, "db", "copy", "--to", back]) == 0  # --from: the --database
    capsys.readouterr()
    for copied in (everything(server), everything(back)):
        assert copied == original
        for name in ("saved_games", "finished_games", "web_tables", "broken_saves"):  # the records, byte for byte
            column = BY_NAME[name].names.index("record")
            assert [r[column].encode() for r in copied[name]] == [r[column].encode() for r in original[name]]
    for target in (source, server, back):
        assert main(["--database", target, "export", "3"]) == 0
    exported = capsys.readouterr().out.splitlines()
    assert exported[0] == exported[1] == exported[2] == original["finished_games"][2][6]
    shown = []
    for target in (source, server, back):
        assert main(["--database", target, "stats"]) == 0
        shown.append(capsys.readouterr().out)
    assert shown[0] == shown[1] == shown[2] and "schafkopf" in shown[0]


def test_copying_again_copies_nothing_new(tmp_path, make_database, capsys):
    source, server = str(tmp_path / "source.db"), make_database("postgresql")
    fill(source)
    assert main(["db", "copy", "--from", source, "--to", server]) == 0
    capsys.readouterr()
    assert main(["db", "copy", "--from", source, "--to", server]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[1] == "  saved games: 0 copied, 5 already there"
    assert said[2] == "  finished games (records): 0 copied, 15 already there"
    assert said[-1] == "Nothing new to copy: the target already holds all of it."
    # a later copy adds only what is new, and the server's own numbering goes on after the copied games
    more = open_store(source)
    assert more.finish_game("truc", "{}", "easy", 0, 1, [0, 2]) == 16
    more.close()
    assert main(["db", "copy", "--from", source, "--to", server]) == 0
    assert "  finished games (records): 1 copied, 15 already there" in capsys.readouterr().out.splitlines()
    store = open_store(server)
    assert store.finish_game("gops", "{}", "easy", 0, 0, [1, 0]) == 17
    store.close()


def test_a_different_row_under_the_same_number_stops_the_copy_before_anything_is_written(tmp_path, make_database):
    source, server = str(tmp_path / "source.db"), make_database("postgresql")
    fill(source)
    store = open_store(server)
    store.finish_game("gops", "another server's game", "easy", 0, 0, [1, 0])
    store.close()
    before = everything(server)
    src, dst = open_store(source), open_store(server)
    with pytest.raises(CopyConflict) as info:
        copy(src, dst)
    assert str(info.value) == (f"{server} already holds a different row of finished_games under id (1,); "
                               "nothing was copied")
    src.close()
    dst.close()
    assert everything(server) == before


def test_a_row_sqlite_kept_damaged_is_left_out_and_counted(tmp_path, make_database, capsys):
    source, server = tmp_path / "source.db", make_database("postgresql")
    store = SQLiteStore(source)
    store.finish_game("gops", "r1", "easy", 0, 0, [50, 41])
    store._conn.execute("INSERT INTO finished_games (game, level, human_seat, winner, scores, record, finished)"
                        " VALUES ('gops', 'easy', 'x', 0, '[1]', 'r2', 'yesterday')")
    store.close()
    assert main(["db", "copy", "--from", str(source), "--to", server]) == 0
    assert "  finished games (records): 1 copied, 0 already there, 1 damaged and left out" in \
        capsys.readouterr().out.splitlines()
    assert [row[0] for row in everything(server)["finished_games"]] == [1]


def test_rows_are_read_in_batches_in_key_order_and_copied_whole(database, make_database):
    """A database larger than a batch: read a few rows at a time, each batch after the last one's key."""
    fill(database)
    store = open_store(database)
    whole = everything(database)
    for name, _ in COPIED:
        batches = list(store.table_rows(name, batch=3))
        assert [row for batch in batches for row in batch] == whole[name]
        assert all(len(batch) == 3 for batch in batches[:-1]) and (len(batches) > 1 or name == "broken_saves")
    other = make_database("sqlite", "other")
    target = open_store(other)
    import parlour.store.copying as copying

    copying.BATCH, before = 4, copying.BATCH
    try:
        report = copy(store, target)
    finally:
        copying.BATCH = before
    assert report.tables["finished_games"].copied == 15 and everything(other) == whole
    store.close()
    target.close()


def test_copy_refuses_one_database_to_itself_and_needs_a_target(tmp_path, capsys):
    db = str(tmp_path / "p.db")
    assert main(["--database", db, "db", "copy", "--to", db]) == 2
    assert "name the same database" in capsys.readouterr().err
    assert main(["db", "copy"]) == 2
    assert "--to" in capsys.readouterr().err


# -- backup ------------------------------------------------------------------------------------------
def test_a_backup_of_a_live_database_is_a_consistent_copy(tmp_path, capsys):
    db = tmp_path / "p.db"
    fill(str(db))
    store = SQLiteStore(db)
    stop, saves = threading.Event(), [0]

    def keep_saving() -> None:  # another process's server, saving while the backup runs
        writer = SQLiteStore(db)
        writer.create_web_table("busy", "gops", "{}", [], {}, 0)
        while not stop.is_set():
            writer.save_web_table("busy", "x" * 5000 + str(saves[0]), expected=saves[0], actions=saves[0] + 1)
            saves[0] += 1
        writer.close()

    thread = threading.Thread(target=keep_saving)
    thread.start()
    try:
        target = tmp_path / "copy.db"
        assert main(["--database", str(db), "db", "backup", "--to", str(target)]) == 0
    finally:
        stop.set()
        thread.join()
    assert capsys.readouterr().out.startswith(f"Backed up {db} to {target}: a consistent copy")
    assert saves[0] > 0
    check = sqlite3.connect(target)
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert check.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    busy = check.execute("SELECT actions, record FROM web_tables WHERE id = 'busy'").fetchone()
    check.close()
    # the table as made (before its first save) or as some save left it: a snapshot, never half a save
    assert busy is None or busy == (0, "{}") or busy[1].endswith(str(busy[0] - 1)), busy
    copied = everything(str(target))
    assert {k: v for k, v in copied.items() if k != "web_tables"} == \
        {k: v for k, v in everything(str(db)).items() if k != "web_tables"}
    assert not [p for p in tmp_path.iterdir() if ".partial" in p.name]
    store.close()


def test_a_backup_never_replaces_a_file_and_names_itself_beside_the_database(tmp_path, capsys):
    db = tmp_path / "p.db"
    fill(str(db))
    mine = tmp_path / "notes.txt"
    mine.write_text("keep me")
    assert main(["--database", str(db), "db", "backup", "--to", str(mine)]) == 2
    assert "already exists; nothing was changed" in capsys.readouterr().err and mine.read_text() == "keep me"
    assert main(["--database", str(db), "db", "backup"]) == 0
    made = [p for p in tmp_path.iterdir() if p.name.startswith("p.db.backup-")]
    assert len(made) == 1 and str(made[0]) in capsys.readouterr().out
    assert everything(str(made[0]))["finished_games"] == everything(str(db))["finished_games"]


def test_a_backup_of_postgresql_points_to_pg_dump(capsys):
    assert main(["--database", "postgresql://ann@db.example/parlour", "db", "backup"]) == 2
    assert "pg_dump" in capsys.readouterr().err


# -- --database on the commands ---------------------------------------------------------------------------
@pytest.mark.parametrize("args,needle", [(["history"], "#1 "), (["history", "gops"], "#1 "), (["stats"], "gops"),
                                         (["export", "1"], '"game": "gops"')])
def test_the_reading_commands_take_database_before_or_after_them(database, args, needle, capsys):
    state = played("gops", 4)
    store = open_store(database)
    store.finish_game("gops", state.to_json(), "easy", 0, state.winner, state.scores)
    store.close()
    for argv in (["--database", database, *args], [*args, "--database", database]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert needle in out


def test_a_game_is_saved_and_resumed_on_either_backend(database, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nq\n"))
    assert main(["--database", database, "play", "gops", "--seed", "5"]) == 0
    assert "your game is saved" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 20))
    assert main(["play", "gops", "--database", database]) == 0
    out = capsys.readouterr().out
    assert "Resuming your saved GOPS game" in out and "*** Game over" in out
    store = open_store(database)
    assert store.load_game("gops") is None and len(store.finished_games()) == 1
    assert json.loads(store.finished_record(1) or "{}")["actions"][:4:2] == ["AC", "2C"]
    store.close()


def test_serve_takes_database(monkeypatch):
    from parlour.web import server

    seen = []
    monkeypatch.setattr(server, "serve", lambda host, port, db, **kw: seen.append(db) or 0)
    assert main(["serve", "--database", "postgresql://ann@db.example/parlour"]) == 0
    assert main(["serve"]) == 0
    assert seen == ["postgresql://ann@db.example/parlour", None]


def test_without_database_the_commands_use_the_file_in_the_data_folder(tmp_path, capsys):
    assert main(["stats"]) == 0
    assert capsys.readouterr().out.strip() == "No finished games yet."
    assert (tmp_path / "xdg-data" / "parlour" / "parlour.db").exists()
    assert Path(tmp_path / "xdg-data" / "parlour" / "parlour.db").read_bytes()[:16] == b"SQLite format 3\x00"
