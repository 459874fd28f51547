"""The store never touches what is not a Parlour database (issue 10), with real files, folders and locks.

Every refusal is checked byte for byte: the contents, modification times and the folder
listing are the same before and after.  Locks are real: a second SQLite connection, other
processes opening a new file at once, and a game lock held by a process that is killed.
"""

from __future__ import annotations

import hashlib
import io
import multiprocessing
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from parlour.cli import main
from parlour.registry import game_class
from parlour.saves import open_game
from parlour.store import (
    APPLICATION_ID,
    GameInUse,
    NewerDatabase,
    NotParlourDatabase,
    SavedGame,
    SQLiteStore,
    StoreBusy,
    StoreError,
    StoreReadOnly,
    open_store,
)
from parlour.store import sqlite as sqlite_backend
from parlour.store.schema import create_statements
from parlour.tui.session import open_session

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


# -- helpers ---------------------------------------------------------------------------------------
def snapshot(folder: Path) -> dict[str, tuple[str, int, int]]:
    """Every entry under ``folder``: content hash (folders: '-'), size and modification time."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            p = Path(root) / name
            st = p.lstat()
            digest = hashlib.sha256(p.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) else "-"
            out[str(p.relative_to(folder))] = (digest, st.st_size, st.st_mtime_ns)
    st = folder.stat()
    out["."] = ("-", 0, st.st_mtime_ns)
    return out


def parlour_db(path: Path) -> Path:
    store = SQLiteStore(path)
    for i in range(60):  # enough rows for several pages, so one can be damaged on its own
        store.finish_game("gops", "x" * 400, "easy", 0, i % 2, [i, 1])
    store.save_game("gops", '{"game": "gops"}', {"level": "easy"})
    store.close()
    assert not Path(str(path) + "-wal").exists()
    return path


def legacy_parlour_db(path: Path) -> Path:
    """A database as Parlour made it before the application id: only meta's schema row says whose it is."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    for sql in create_statements("sqlite"):
        conn.execute(sql)
    conn.execute("INSERT INTO meta VALUES ('schema', '1')")
    conn.execute("INSERT INTO saved_games VALUES ('truc', 'old record', '{}', 0)")
    for _ in range(60):
        conn.execute("INSERT INTO finished_games (game, level, human_seat, winner, scores, record, finished)"
                     " VALUES ('gops', 'easy', 0, 0, '[1, 2]', ?, 0)", ("y" * 400,))
    conn.commit()
    conn.close()
    return path


def damage_page(path: Path, page: int) -> bytes:
    data = bytearray(path.read_bytes())
    assert len(data) > page * 4096
    data[(page - 1) * 4096: page * 4096] = b"\xa5" * 4096
    path.write_bytes(bytes(data))
    return bytes(data)


def foreign_db(path: Path, wal: bool = False) -> Path:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    conn.execute("CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, fk INTEGER)")
    conn.execute("INSERT INTO moz_places (url) VALUES ('https://example.org')")
    conn.commit()
    conn.close()
    return path


def refused(path: Path, folder: Path, exc_type: type[StoreError] = NotParlourDatabase) -> str:
    before = snapshot(folder)
    with pytest.raises(exc_type) as info:
        SQLiteStore(path, timeout=0.2)
    assert snapshot(folder) == before, "a refused path was changed"
    message = str(info.value)
    assert "\n" not in message and "nothing was changed" in message
    return message


# -- refusals: not ours, left byte for byte ----------------------------------------------------------
def test_a_folder_is_refused_and_left_with_its_files(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "sub").mkdir()
    (folder / "sub" / "more.bin").write_bytes(os.urandom(300))
    message = refused(folder, tmp_path)
    assert message == f"{folder} is a folder, not a Parlour saved-games database; nothing was changed"


def test_a_text_file_and_a_binary_file_are_refused(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# My project\n\nDo not rename me.\n")
    assert "it is not an SQLite file" in refused(readme, tmp_path)
    blob = tmp_path / "data.bin"
    blob.write_bytes(bytes(range(256)) * 40)
    assert "it is not an SQLite file" in refused(blob, tmp_path)


def test_a_device_is_refused(tmp_path):
    devnull = Path(os.devnull)
    if not devnull.exists() or not stat.S_ISCHR(devnull.stat().st_mode):
        pytest.skip("no character device /dev/null here")
    listing = sorted(os.listdir(devnull.parent))
    with pytest.raises(NotParlourDatabase, match="is not a regular file"):
        SQLiteStore(devnull)
    assert stat.S_ISCHR(devnull.stat().st_mode) and sorted(os.listdir(devnull.parent)) == listing


@pytest.mark.parametrize("wal", [False, True], ids=["rollback-journal", "wal"])
def test_another_programs_sqlite_database_is_refused(tmp_path, wal):
    db = foreign_db(tmp_path / "places.sqlite", wal=wal)
    assert refused(db, tmp_path) == f"{db} is another program's SQLite database, not Parlour's; nothing was changed"
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT url FROM moz_places").fetchall() == [("https://example.org",)]
    conn.close()


def test_an_sqlite_file_with_another_application_id_is_refused(tmp_path):
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA application_id=1234")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.commit()
    conn.close()
    assert "another program's SQLite database" in refused(db, tmp_path)


def test_a_foreign_database_with_a_meta_table_is_not_mistaken_for_parlour(tmp_path):
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute("INSERT INTO meta VALUES ('schema', '1')")
    conn.commit()
    conn.close()
    assert "another program's SQLite database" in refused(db, tmp_path)


def test_a_database_from_a_newer_parlour_is_refused(tmp_path):
    db = parlour_db(tmp_path / "p.db")
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value='99' WHERE key='schema'")
    conn.commit()
    conn.close()
    message = refused(db, tmp_path, NewerDatabase)
    assert message == (f"{db} was made by a newer Parlour (database schema 99; this Parlour reads up to 1); "
                       "nothing was changed")


def test_a_damaged_sqlite_file_that_is_not_identifiably_ours_is_refused(tmp_path):
    db = foreign_db(tmp_path / "x.db")
    data = bytearray(db.read_bytes())  # keep the 100-byte header, damage the schema behind it
    data[100:4096] = b"\xa5" * (4096 - 100)
    db.write_bytes(bytes(data))
    assert "damaged SQLite database that cannot be identified as Parlour's" in refused(db, tmp_path)


# -- what is ours: kept, or moved aside only when damaged ------------------------------------------
def test_a_damaged_parlour_database_is_moved_aside_and_kept(tmp_path):
    db = parlour_db(tmp_path / "p.db")
    damaged = damage_page(db, 8)
    store = SQLiteStore(db)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("p.db.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged
    assert store.notice == (f"The saved-games database {db} was damaged (database disk image is malformed); "
                            f"it was moved aside to {aside[0].name} and a new one was started.")
    assert store.load_game("gops") is None
    store.save_game("gops", "rec", {})
    assert store.load_game("gops") == SavedGame("rec", {})


def test_a_damaged_database_of_an_older_parlour_is_identified_by_its_meta_table(tmp_path):
    db = legacy_parlour_db(tmp_path / "old.db")
    damaged = damage_page(db, 9)
    store = SQLiteStore(db)
    assert store.notice and "moved aside to old.db.corrupt-" in store.notice
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("old.db.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged


def test_an_older_parlour_database_is_kept_and_marked_as_ours(tmp_path):
    db = legacy_parlour_db(tmp_path / "old.db")
    store = SQLiteStore(db)
    assert store.notice is None and store.load_game("truc") == SavedGame("old record", {})
    assert len(store.finished_games(limit=100)) == 60
    store.close()
    assert int.from_bytes(db.read_bytes()[68:72], "big") == APPLICATION_ID


def test_an_empty_file_becomes_the_database(tmp_path):
    db = tmp_path / "p.db"
    db.touch()
    store = SQLiteStore(db)
    assert store.notice is None
    store.save_game("gops", "rec", {})
    assert SQLiteStore(db).load_game("gops") == SavedGame("rec", {})
    assert sorted(p.name for p in tmp_path.iterdir() if "corrupt" in p.name) == []


def test_an_sqlite_file_without_tables_becomes_the_database(tmp_path):
    db = tmp_path / "p.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("DROP TABLE t")
    conn.commit()
    conn.close()
    assert db.stat().st_size > 0
    store = SQLiteStore(db)
    assert store.notice is None and store.stats() == []


def test_a_cut_off_sqlite_header_is_moved_aside(tmp_path):
    db = tmp_path / "p.db"
    cut = b"SQLite format 3\x00\x10\x00\x02\x02"
    db.write_bytes(cut)
    store = SQLiteStore(db)
    assert store.notice and "its SQLite header is cut off" in store.notice
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("p.db.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == cut
    store.save_game("gops", "rec", {})


def test_the_cli_refuses_with_one_line_and_status_2(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("hello\n")
    before = snapshot(tmp_path)
    assert main(["--db", str(readme), "stats"]) == 2
    err = capsys.readouterr().err
    assert err == (f"parlour: {readme} is not a Parlour saved-games database (it is not an SQLite file); "
                   "nothing was changed\n")
    assert snapshot(tmp_path) == before


def test_the_cli_names_the_moved_aside_copy_and_goes_on(tmp_path, capsys):
    db = parlour_db(tmp_path / "p.db")
    damage_page(db, 8)
    assert main(["--db", str(db), "stats"]) == 0
    err = capsys.readouterr().err
    aside = next(p for p in tmp_path.iterdir() if p.name.startswith("p.db.corrupt-"))
    assert err.count("\n") == 1 and f"moved aside to {aside.name}" in err


# -- locks ------------------------------------------------------------------------------------------
def test_a_locked_database_is_busy_not_damaged(tmp_path):
    db = parlour_db(tmp_path / "p.db")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        before = {p.name for p in tmp_path.iterdir()}
        with pytest.raises(StoreBusy) as info:
            SQLiteStore(db, timeout=0.2)
        assert str(info.value) == (f"the saved-games database is in use by another Parlour ({db}); "
                                   "try again when it has finished")
        assert not [p for p in tmp_path.iterdir() if "corrupt" in p.name]
        assert {p.name for p in tmp_path.iterdir()} <= before | {"p.db-wal", "p.db-shm"}
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert SQLiteStore(db).load_game("gops") is not None


def test_a_locked_rollback_journal_database_of_an_older_parlour_is_busy(tmp_path):
    db = tmp_path / "old.db"
    legacy_parlour_db(db)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE meta SET value='1'")
    try:
        with pytest.raises(StoreBusy):
            SQLiteStore(db, timeout=0.2)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not [p for p in tmp_path.iterdir() if "corrupt" in p.name]


def test_the_cli_says_busy_with_status_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sqlite_backend.store, "TIMEOUT", 0.2)
    db = parlour_db(tmp_path / "p.db")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert main(["--db", str(db), "history"]) == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    err = capsys.readouterr().err
    assert err.startswith("parlour: the saved-games database is in use by another Parlour") and err.count("\n") == 1


def _open_at_once(target: str, barrier, results) -> None:  # a multiprocessing target: module level
    try:
        barrier.wait(timeout=30)
        store = open_store(target)
        store.save_game(f"g{os.getpid()}", "rec", {})
        results.put(("ok", store.notice, f"g{os.getpid()}"))
        store.close()
    except BaseException as exc:  # report everything: the test fails on any of it
        results.put(("error", f"{type(exc).__name__}: {exc}", ""))


@pytest.mark.parametrize("backend,rounds", [("sqlite", 12), ("postgresql", 4)])
def test_simultaneous_first_opens_of_a_new_database_all_succeed(make_database, backend, rounds, tmp_path):
    """SQLite decides under its write lock, PostgreSQL under an advisory lock: the first makes the tables."""
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    processes = 6
    for n in range(rounds):
        target = make_database(backend, f"new{n}")
        barrier, results = ctx.Barrier(processes), ctx.Queue()
        workers = [ctx.Process(target=_open_at_once, args=(target, barrier, results)) for _ in range(processes)]
        for w in workers:
            w.start()
        outcomes = [results.get(timeout=60) for _ in workers]
        for w in workers:
            w.join(timeout=60)
        assert [o[:2] for o in outcomes] == [("ok", None)] * processes, outcomes
        check = open_store(target)
        assert all(check.load_game(name) is not None for _, _, name in outcomes)
        check.close()
    assert not [p for p in tmp_path.iterdir() if "corrupt" in p.name]


# -- folders and permissions ------------------------------------------------------------------------
def test_a_path_under_a_missing_folder_is_refused_without_making_it(tmp_path):
    db = tmp_path / "missing" / "p.db"
    with pytest.raises(StoreReadOnly) as info:
        SQLiteStore(db)
    assert str(info.value) == f"cannot create the saved-games database {db}: the folder {db.parent} does not exist"
    assert not db.parent.exists()


def test_a_path_under_a_file_is_refused(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreReadOnly, match=f"{blocker} is not a folder"):
        SQLiteStore(blocker / "p.db")
    with pytest.raises(StoreReadOnly, match="does not exist"):
        SQLiteStore(blocker / "sub" / "p.db")
    assert blocker.read_text() == "x"


def test_an_empty_path_is_refused():
    with pytest.raises(StoreError, match="needs a file name"):
        SQLiteStore("")


def _immutable(path: Path, on: bool) -> bool:
    """chattr +i: even root cannot write such a file or folder (os.access says so too)."""
    chattr = shutil.which("chattr")
    if chattr is None:
        return False
    done = subprocess.run([chattr, "+i" if on else "-i", str(path)], capture_output=True)
    return done.returncode == 0


def _read_only(path: Path):
    """Make ``path`` unwritable for this process: chmod when not root, chattr +i as root."""
    if not IS_ROOT:
        mode = path.stat().st_mode
        path.chmod(mode & ~0o222)
        return lambda: path.chmod(mode)
    if not _immutable(path, True):
        pytest.skip("running as root, where chmod does not stop writes, and chattr +i is not available here")
    return lambda: _immutable(path, False)


def test_a_read_only_database_file_is_refused_for_play_but_read_for_stats(tmp_path, capsys):
    db = parlour_db(tmp_path / "p.db")
    restore = _read_only(db)
    try:
        digest = hashlib.sha256(db.read_bytes()).hexdigest()
        with pytest.raises(StoreReadOnly) as info:
            SQLiteStore(db)
        assert str(info.value) == f"cannot write the saved-games database {db}: the file is read-only"
        store = SQLiteStore(db, read_only_ok=True)
        assert store.read_only and store.stats()[0].played == 60 and len(store.finished_games()) == 50
        with pytest.raises(StoreReadOnly, match="is open read-only"):
            store.save_game("gops", "x", {})
        with pytest.raises(StoreReadOnly):
            store.game_lock("gops")
        store.close()
        assert main(["--db", str(db), "stats"]) == 0
        assert "gops" in capsys.readouterr().out
        assert main(["--db", str(db), "play", "gops"]) == 2
        err = capsys.readouterr().err
        assert err == f"parlour: cannot write the saved-games database {db}: the file is read-only\n"
        assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    finally:
        restore()


def test_an_unwritable_folder_is_one_clear_line(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    parlour_db(folder / "p.db")
    restore = _read_only(folder)
    try:
        with pytest.raises(StoreReadOnly) as info:
            SQLiteStore(folder / "new.db")
        assert str(info.value) == (f"cannot create the saved-games database {folder / 'new.db'}: "
                                   f"the folder {folder} is not writable")
        with pytest.raises(StoreReadOnly, match="the folder .* is not writable"):
            SQLiteStore(folder / "p.db")
        store = SQLiteStore(folder / "p.db", read_only_ok=True)
        assert store.read_only and store.stats()[0].played == 60
        store.close()
        assert sorted(os.listdir(folder)) == ["p.db"]
    finally:
        restore()


# -- one saved game, one process ---------------------------------------------------------------------
HOLDER = textwrap.dedent("""
    import sys, time
    from parlour.store import open_store
    from parlour.saves import open_game
    store = open_store(sys.argv[1])
    opening = open_game(store, "truc", {}, fresh=False, seed=1)
    store.save_game("truc", opening.state.to_json(), {})
    print("holding", flush=True)
    time.sleep(120)
""")


def test_a_saved_game_is_open_in_one_process_at_a_time_and_a_killed_holder_frees_it(database, capsys, monkeypatch):
    """On SQLite the lock is a file's (flock), on PostgreSQL an advisory lock: both die with their holder."""
    open_store(database).close()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, database], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        title = game_class("truc").title
        store = open_store(database)
        with pytest.raises(GameInUse) as info:
            open_game(store, "truc", {}, fresh=False)
        assert str(info.value) == f"your {title} game is open in another Parlour window"
        with pytest.raises(GameInUse):
            open_game(store, "truc", {}, fresh=True)  # `parlour new` would overwrite the other window's game
        other = open_game(store, "gops", {}, fresh=False)  # another game is not held
        other.release()
        with pytest.raises(ValueError, match=f"your {title} game is open in another Parlour window"):
            open_session(store, "truc", level="easy", fresh=False, options={}, open_hands=False)  # TUI notice
        monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
        assert main(["--database", database, "play", "truc"]) == 2
        assert capsys.readouterr().err == f"parlour: your {title} game is open in another Parlour window\n"
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
        holder.stdout.close()
    assert holder.returncode == -signal.SIGKILL
    opening = _open_when_freed(store, "truc")  # the lock died with its process
    assert opening.resumed and opening.lock is not None
    again = open_game(store, "truc", {}, fresh=False)  # the same process may reopen its own game
    again.release()
    opening.release()
    opening.release()  # twice is harmless
    if isinstance(store, SQLiteStore):
        assert Path(database + ".truc.lock").exists()  # kept: deleting a lock file would race
    store.close()


def _open_when_freed(store, game: str, seconds: float = 10.0):
    """The game, once its killed holder's lock is gone: at once for a file lock; a database server
    notices a dropped connection within moments, not always before the kill returns."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        try:
            return open_game(store, game, {}, fresh=False)
        except GameInUse:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_a_game_lock_is_released_when_the_game_is_left(database):
    store = open_store(database)
    open_game(store, "gops", {}, fresh=False).release()
    probe = subprocess.run([sys.executable, "-c", HOLDER.replace('"truc"', '"gops"').replace("time.sleep(120)", ""),
                            database], capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0 and probe.stdout.strip() == "holding", probe.stderr
    store.close()


# -- rows and saves that cannot be read --------------------------------------------------------------
def test_one_bad_history_row_does_not_hide_the_rest(tmp_path, capsys):
    db = tmp_path / "p.db"
    store = SQLiteStore(db)
    store.finish_game("gops", "r1", "easy", 0, 0, [50, 41])
    store._conn.execute("INSERT INTO finished_games (game, level, human_seat, winner, scores, record, finished)"
                        " VALUES ('gops', 'easy', 'x', 0, '{not json', 'r2', 'yesterday')")
    store.finish_game("gops", "r3", "easy", 0, 1, [40, 51])
    rows = store.finished_games()
    assert [r.id for r in rows] == [3, 2, 1]
    assert rows[1].scores == [] and rows[1].human_seat is None
    assert rows[1].damaged == ["scores", "human_seat", "finished"]
    assert rows[0].scores == [40, 51] and rows[0].damaged == []
    store.close()
    assert main(["--db", str(db), "history"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["#3", "#2", "#1"]


def test_a_save_that_no_longer_loads_is_set_aside_whatever_the_error(tmp_path):
    store = SQLiteStore(tmp_path / "p.db")
    deep = '{"game": "gops", "actions": ' + "[" * 100_000 + "]" * 100_000 + "}"
    store.save_game("gops", deep, {})
    opening = open_game(store, "gops", {}, fresh=False)
    assert not opening.resumed and "could not be restored" in opening.notices[0]
    assert store._conn.execute("SELECT game, length(record) FROM broken_saves").fetchall() == [("gops", len(deep))]
    assert store.load_game("gops") is None
    opening.release()
