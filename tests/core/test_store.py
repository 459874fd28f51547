"""The store on both backends: saves, finished games, statistics, options, browser tables, the
compare-and-set, a newer schema, another program's database (SQLite's files: test_store_safety)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading

import pytest

from parlour.store import (
    FinishedGame,
    GameInUse,
    GameStats,
    NewerDatabase,
    NotParlourDatabase,
    SavedGame,
    SQLiteStore,
    StoreError,
    StoreReadOnly,
    StoreUnreachable,
    WebTable,
    open_store,
    shown,
)


def raw(database: str, sql: str, args: tuple = ()) -> None:
    """A statement on the database behind the store's back (another program, or a newer Parlour)."""
    if database.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s"), args)
    else:
        with sqlite3.connect(database) as conn:
            conn.execute(sql, args)
        conn.close()


def test_save_load_and_replace(database):
    store = open_store(database)
    assert store.load_game("gops") is None
    store.save_game("gops", '{"a": 1}', {"level": "easy"})
    store.save_game("gops", '{"a": 2}', {"level": "random"})
    assert store.load_game("gops") == SavedGame('{"a": 2}', {"level": "random"})
    store.delete_game("gops")
    assert store.load_game("gops") is None
    store.close()


def test_finishing_moves_the_game_to_the_records_and_counts_it(database):
    store = open_store(database)
    store.save_game("gops", "rec1", {})
    gid = store.finish_game("gops", "rec1", "easy", 0, 0, [50, 41])
    store.finish_game("gops", "rec2", "easy", 0, 1, [40, 51])
    store.finish_game("gops", "rec3", "easy", 0, None, [39, 39])
    store.finish_game("gops", "rec4", "random", 0, 0, [60, 31])
    store.finish_game("gops", "demo", "easy", None, 0, [60, 31])
    store.finish_game("truc", '{"#undo 3": 1}', "easy", 0, 0, [2, 0])  # "#undo 3": won after taking back
    assert store.load_game("gops") is None
    assert store.finished_record(gid) == "rec1"
    assert store.stats() == [GameStats("gops", "easy", 3, 1, 1, 1, 0, 0), GameStats("gops", "random", 1, 1, 0, 0, 0, 0),
                             GameStats("truc", "easy", 1, 1, 0, 0, 1, 0)]
    latest = store.finished_games("gops")
    assert [g.id for g in latest] == [5, 4, 3, 2, 1]
    assert latest[0] == FinishedGame(5, "gops", "easy", None, 0, [60, 31], latest[0].finished, None, [])
    assert store.finished_game(2) == latest[3] and store.finished_game(99) is None
    assert [g.id for g in store.finished_games(limit=2)] == [6, 5]
    store.close()


def test_a_resigned_game_is_counted_as_its_record_says_and_never_as_drawn(database):
    store = open_store(database)
    ended = '{{"game": "sixbid", "actions": [], "ended": {{"how": "resignation", "seat": {}, "winner": null}}}}'
    store.finish_game("sixbid", ended.format(0), "people", 0, None, [0, 0, 0])  # the person counted resigned
    store.finish_game("sixbid", ended.format(2), "people", 0, None, [0, 0, 0])  # another resigned: no result
    store.finish_game("sixbid", "{not json, \"ended\"", "people", 0, None, [0, 0, 0])  # damaged: still counted
    assert store.stats() == [GameStats("sixbid", "people", 3, 0, 1, 1, 0, 2)]
    # each row says how its game ended (newest first; a damaged record says nothing)
    assert [g.ended for g in store.finished_games()] == [None, {"how": "resignation", "seat": 2},
                                                         {"how": "resignation", "seat": 0}]
    assert store.finished_game(1).ended == {"how": "resignation", "seat": 0}
    store.close()


def test_data_survives_reopening(database):
    open_store(database).save_game("truc", "rec", {"open": True})
    assert open_store(database).load_game("truc") == SavedGame("rec", {"open": True})


def test_options_persist(database):
    store = open_store(database)
    store.set_options("clobby", {"game_point": 300, "no_tie": True})
    store.set_options("clobby", {"no_tie": False})
    assert open_store(database).get_options("clobby") == {"game_point": 300, "no_tie": False}
    assert store.get_options("gops") == {}


def test_broken_saves_are_kept_aside(database):
    store = open_store(database)
    store.save_game("gops", "garbage", {})
    store.set_aside_broken("gops", "bad record")
    store.set_aside_broken("truc", "no such save: nothing happens")
    assert store.load_game("gops") is None
    assert [(b.game, b.record, b.error) for b in store.broken_saves()] == [("gops", "garbage", "bad record")]
    store.close()


def test_a_database_of_a_newer_parlour_is_refused_in_the_same_words(database):
    open_store(database).close()
    raw(database, "UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(NewerDatabase) as info:
        open_store(database)
    assert str(info.value) == (f"{database} was made by a newer Parlour (database schema 99; this Parlour reads "
                               "up to 1); nothing was changed")


def test_another_programs_database_is_refused_and_left_alone(database):
    raw(database, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT)")
    raw(database, "INSERT INTO accounts VALUES (1, 'someone')")
    with pytest.raises(NotParlourDatabase, match="another program's"):
        open_store(database)
    raw(database, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")  # a meta table is not enough
    with pytest.raises(NotParlourDatabase, match="another program's"):
        open_store(database)


def test_a_browser_table_is_saved_by_compare_and_set(database):
    """A save that did not see the latest action is refused, not merged; the last one records the game."""
    store = open_store(database)
    seats = [{"kind": "human", "name": "Ann"}]
    store.create_web_table("t1", "gops", "r0", seats, {"open": False}, 0)
    assert store.save_web_table("t1", "r1", expected=0, actions=1) == 0
    assert store.save_web_table("t1", "stale", expected=0, actions=1) is None
    done = {"level": "easy", "human_seat": 0, "winner": 0, "scores": [3, 1]}
    assert store.save_web_table("t1", "stale", expected=0, actions=2, finished=done) is None
    assert store.finished_games() == [], "a stale writer's finished game is not kept either"
    game_id = store.save_web_table("t1", "r2", expected=1, actions=2, finished=done)
    assert game_id and store.finished_record(game_id) == "r2"
    assert store.load_web_table("t1") == WebTable("t1", "gops", "r2", seats, {"open": False}, 2, game_id)
    assert store.save_web_table("t1", "after", expected=2, actions=3) is None, "a finished table is final"
    store.save_web_seats("t1", [{"kind": "human", "name": "Bo"}])
    store.save_web_settings("t1", {"delay": 1.0})
    row = store.load_web_table("t1")
    assert row is not None and row.seats[0]["name"] == "Bo" and row.settings == {"delay": 1.0}
    assert store.load_web_table("nothing") is None
    # the seats by compare-and-set: two people taking their seats through two processes at once
    bo = [{"kind": "human", "name": "Bo"}]
    assert store.save_web_seats("t1", [{"kind": "human", "name": "Cy"}], expected=bo)
    assert not store.save_web_seats("t1", [{"kind": "human", "name": "Di"}], expected=bo), "a stale writer"
    row = store.load_web_table("t1")
    assert row is not None and row.seats[0]["name"] == "Cy"
    store.close()


def test_saves_from_an_event_loop_are_each_their_own_compare_and_set(database):
    """Saves asked for at once from a server's loop (on PostgreSQL: one group, one round trip) answer as
    ``save_web_table`` would, each alone: the stale one refused, the others saved, a finished game recorded."""
    store = open_store(database)
    for table_id in ("b", "a", "c", "d"):
        store.create_web_table(table_id, "gops", "r0", [], {}, 0)
    done = {"level": "easy", "human_seat": 0, "winner": 0, "scores": [3, 1]}

    async def saves() -> list[int | None]:
        return list(await asyncio.gather(
            store.save_web_table_on_loop("b", "b1", expected=0, actions=1),
            store.save_web_table_on_loop("a", "a1", expected=0, actions=1),
            store.save_web_table_on_loop("c", "stale", expected=4, actions=5),
            store.save_web_table_on_loop("d", "d1", expected=0, actions=1, finished=done)))

    first = asyncio.run(saves())
    assert first[:3] == [0, 0, None] and first[3], first
    assert [store.load_web_table(t).record for t in "abcd"] == ["a1", "b1", "r0", "d1"]  # type: ignore[union-attr]
    assert store.finished_record(first[3]) == "d1"
    kept = store.finished_game(first[3])
    assert kept is not None and (kept.game, kept.level, kept.human_seat, kept.winner, kept.scores) == \
        ("gops", "easy", 0, 0, [3, 1])
    assert asyncio.run(saves())[:3] == [None, None, None], "every one of them stale now"
    store.close()


def test_a_group_of_saves_with_one_failing_saves_none_of_them_and_the_next_group_goes_on(make_database):
    """On PostgreSQL a group of saves is one transaction (``LoopConnections``): one statement the server
    refuses (a count past bigint) rolls back the group's others, each asker hears of it, and the
    loop's connection serves the next group."""
    store = open_store(make_database("postgresql"))
    for table_id in "abc":
        store.create_web_table(table_id, "gops", "r0", [], {}, 0)

    async def saves(too_many: int) -> list[object]:
        return list(await asyncio.gather(
            store.save_web_table_on_loop("a", "a1", expected=0, actions=1),
            store.save_web_table_on_loop("b", "b1", expected=0, actions=too_many),
            store.save_web_table_on_loop("c", "c1", expected=0, actions=1), return_exceptions=True))

    failed = asyncio.run(saves(2**70))
    assert all(isinstance(answer, StoreError) for answer in failed), failed
    assert [store.load_web_table(t).record for t in "abc"] == ["r0"] * 3  # type: ignore[union-attr]
    assert asyncio.run(saves(1)) == [0, 0, 0]
    assert [store.load_web_table(t).record for t in "abc"] == ["a1", "b1", "c1"]  # type: ignore[union-attr]
    store.close()


def test_of_two_writers_from_the_same_count_one_wins(database):
    """Several threads (on PostgreSQL: several connections) save from the same count: exactly one succeeds."""
    store = open_store(database)
    store.create_web_table("t", "gops", "r0", [], {}, 0)
    start, results = threading.Barrier(4), []

    def write(n: int) -> None:
        start.wait()
        results.append(store.save_web_table("t", f"r{n}", expected=0, actions=1))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results, key=str) == [0, None, None, None]
    assert store.load_web_table("t").actions == 1
    store.close()


def test_unjoined_tables_expire_and_the_open_ones_are_counted(database):
    store = open_store(database)
    store.create_web_table("lonely", "gops", "r", [{"kind": "human", "joined": False}], {}, 0)
    store.create_web_table("joined", "gops", "r", [{"kind": "human", "joined": True}], {}, 0)
    store.create_web_table("kept", "gops", "r", [{"kind": "human", "joined": False}], {}, 0)
    store.create_web_table("old", "gops", "r", [{"kind": "human", "claimed": False}], {}, 0)
    assert store.open_web_tables() == 4
    import time

    assert sorted(store.expire_web_tables(time.time() + 1, keep={"kept"})) == ["lonely", "old"]
    assert store.open_web_tables() == 2 and store.load_web_table("lonely") is None
    store.close()


def test_joined_tables_left_untouched_are_found_stale_and_one_is_deleted_only_if_still_untouched(database):
    import time

    store = open_store(database)
    store.create_web_table("begun", "gops", "r", [{"kind": "human", "joined": True}], {}, 0)
    store.create_web_table("in use", "gops", "r", [{"kind": "human", "joined": True}], {}, 0)
    store.create_web_table("nobody", "gops", "r", [{"kind": "human", "joined": False}], {}, 0)
    assert store.stale_web_tables(time.time() - 60) == [], "nothing is that old"
    assert store.stale_web_tables(time.time() + 1, keep={"in use"}) == ["begun"]
    assert not store.delete_web_table("begun", time.time() - 60), "touched since: kept"
    assert store.delete_web_table("begun", time.time() + 1) and store.load_web_table("begun") is None
    store.close()


def test_a_game_is_held_by_one_store_at_a_time_and_released(database):
    """Within one process the lock is shared (a window reopening its own game); see test_store_safety for
    another process."""
    store = open_store(database)
    lock = store.game_lock("gops", "GOPS")
    again = store.game_lock("gops", "GOPS")
    again.release()
    again.release()
    lock.release()
    with store.game_lock("truc"):
        pass
    store.close()


def test_the_advisory_lock_is_refused_to_another_session(make_database):
    import psycopg

    from parlour.store.lock import AdvisoryLock

    database = make_database("postgresql")
    store = open_store(database)
    held = AdvisoryLock.acquire("elsewhere", "gops", "GOPS", lambda: psycopg.connect(database, autocommit=True))
    with pytest.raises(GameInUse, match="your GOPS game is open in another Parlour window"):
        store.game_lock("gops", "GOPS")
    held.release()
    store.game_lock("gops", "GOPS").release()
    store.close()


def test_a_role_that_may_only_read_and_write_rows_uses_a_database_its_owner_made(make_database):
    """docs/deploy.md: once the tables exist, a role without the right to create tables can use them."""
    made, empty = make_database("postgresql"), make_database("postgresql")
    open_store(made).close()  # the owner makes the tables
    raw(made, "DO $$ BEGIN CREATE ROLE player LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
    raw(made, "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO player")
    raw(made, "GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO player")
    store = open_store(made.replace("parlour@", "player@"))
    assert store.finish_game("gops", "{}", "easy", 0, 0, [1, 0]) == 1 and store.stats()[0].won == 1
    with store.game_lock("gops"):
        store.save_game("gops", "rec", {})
    store.close()
    with pytest.raises(StoreReadOnly) as info:  # but it cannot make them in a database of its own
        open_store(empty.replace("parlour@", "player@"))
    assert "\n" not in str(info.value) and str(info.value).startswith("cannot write the PostgreSQL database")


def test_urls_are_shown_without_their_password():
    assert shown("postgresql://ann:s3cret@db.example:5432/parlour") == "postgresql://ann:***@db.example:5432/parlour"
    assert shown("postgresql://ann@db/parlour?password=s3cret&sslmode=require") == \
        "postgresql://ann@db/parlour?password=***&sslmode=require"
    assert shown("/home/ann/parlour.db") == "/home/ann/parlour.db"


def test_an_unreachable_server_and_an_unknown_scheme_are_one_line(make_database):
    with pytest.raises(StoreError, match="unknown kind of database mysql://"):
        open_store("mysql://ann@db/parlour")
    url = make_database("postgresql")
    missing = url.rsplit("/", 1)[0] + "/no_such_database"
    with pytest.raises(StoreUnreachable) as info:
        open_store(missing.replace("parlour@", "parlour:s3cret@"), timeout=2)
    assert "\n" not in str(info.value) and "s3cret" not in str(info.value) and "no_such_database" in str(info.value)


def test_the_default_is_the_sqlite_file_in_the_data_folder(tmp_path):
    store = open_store()
    assert isinstance(store, SQLiteStore) and store.path == tmp_path / "xdg-data" / "parlour" / "parlour.db"
    store.close()


def test_a_damaged_parlour_database_is_moved_aside_not_overwritten(tmp_path):
    path = tmp_path / "p.db"
    store = SQLiteStore(path)
    for i in range(40):
        store.finish_game("gops", "r" * 500, "easy", 0, 0, [i])
    store.close()
    data = bytearray(path.read_bytes())
    data[4096 * 5: 4096 * 6] = b"\xa5" * 4096  # one table page garbled; the header still says Parlour
    path.write_bytes(bytes(data))
    store = SQLiteStore(path)
    assert store.notice and "moved aside" in store.notice
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("p.db.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == bytes(data)
    store.save_game("gops", "rec", {})
    assert store.load_game("gops") == SavedGame("rec", {})


def test_a_file_that_is_not_a_database_is_refused_and_kept(tmp_path):
    path = tmp_path / "p.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not an SQLite file"):
        SQLiteStore(path)
    assert path.read_bytes() == b"this is not a database" * 100
    assert [p.name for p in tmp_path.iterdir()] == ["p.db"]


def test_an_impossible_location_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot create"):
        SQLiteStore(blocker / "sub" / "p.db")


def test_checkpoints_in_the_background_keep_the_log_short_and_leave_saves_alone(tmp_path):
    """The browser server's saves make no checkpoint of their own (it could sync the disk on the event
    loop); a thread's passive checkpoints still let the write-ahead log be rewound."""
    import time

    def wal_after_saves(background: bool) -> int:
        path = tmp_path / f"c{int(background)}.db"
        store = SQLiteStore(path)
        store.create_web_table("t", "gops", "{}", [], {}, 0)
        stop = store.checkpoint_in_background(every=0.01) if background else None
        if not background:
            store._conn.execute("PRAGMA wal_autocheckpoint=0")  # what a server without the thread would do
        else:
            assert store._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        record = "x" * 8192
        for n in range(1500):
            assert store.save_web_table("t", record + str(n), expected=n, actions=n + 1) == 0
            if n % 100 == 0:
                time.sleep(0.02)  # the thread's turn
        size = path.with_name(path.name + "-wal").stat().st_size
        if stop is not None:
            stop()
            assert store._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
        store.close()
        return size

    without, with_thread = wal_after_saves(background=False), wal_after_saves(background=True)
    assert without > 5_000_000  # 1,500 saves of 8 KB, never written back
    assert with_thread < without / 4


def test_the_finished_games_are_json_for_the_browser(database):
    store = open_store(database)
    store.finish_game("gops", "r", "easy", 0, 1, [1, 2])
    assert json.loads(json.dumps([g.as_json() for g in store.finished_games()]))[0]["scores"] == [1, 2]
    store.close()
