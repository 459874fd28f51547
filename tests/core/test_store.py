"""The SQLite store: saves, finished games, statistics, options, and a damaged file (more in test_store_safety)."""

from __future__ import annotations

import sqlite3

import pytest

from parlour.store import Store, StoreError


def test_save_load_and_replace(tmp_path):
    store = Store(tmp_path / "p.db")
    assert store.load_game("gops") is None
    store.save_game("gops", '{"a": 1}', {"level": "easy"})
    store.save_game("gops", '{"a": 2}', {"level": "random"})
    assert store.load_game("gops") == ('{"a": 2}', {"level": "random"})
    store.delete_game("gops")
    assert store.load_game("gops") is None


def test_finishing_moves_the_game_to_the_records_and_counts_it(tmp_path):
    store = Store(tmp_path / "p.db")
    store.save_game("gops", "rec1", {})
    gid = store.finish_game("gops", "rec1", "easy", 0, 0, [50, 41])
    store.finish_game("gops", "rec2", "easy", 0, 1, [40, 51])
    store.finish_game("gops", "rec3", "easy", 0, None, [39, 39])
    store.finish_game("gops", "rec4", "random", 0, 0, [60, 31])
    store.finish_game("gops", "demo", "easy", None, 0, [60, 31])
    assert store.load_game("gops") is None
    assert store.finished_record(gid) == "rec1"
    assert store.stats() == [
        {"game": "gops", "level": "easy", "played": 3, "won": 1, "lost": 1, "drawn": 1, "won_with_undo": 0,
         "resigned": 0},
        {"game": "gops", "level": "random", "played": 1, "won": 1, "lost": 0, "drawn": 0, "won_with_undo": 0,
         "resigned": 0},
    ]
    assert [g["id"] for g in store.finished_games("gops")][:1] == [5]


def test_a_resigned_game_is_counted_as_its_record_says_and_never_as_drawn(tmp_path):
    store = Store(tmp_path / "p.db")
    ended = '{{"game": "sixbid", "actions": [], "ended": {{"how": "resignation", "seat": {}, "winner": null}}}}'
    store.finish_game("sixbid", ended.format(0), "people", 0, None, [0, 0, 0])  # the person counted resigned
    store.finish_game("sixbid", ended.format(2), "people", 0, None, [0, 0, 0])  # another resigned: no result
    store.finish_game("sixbid", "{not json, \"ended\"", "people", 0, None, [0, 0, 0])  # damaged: still counted
    assert store.stats() == [{"game": "sixbid", "level": "people", "played": 3, "won": 0, "lost": 1, "drawn": 1,
                              "won_with_undo": 0, "resigned": 2}]


def test_data_survives_reopening(tmp_path):
    Store(tmp_path / "p.db").save_game("truc", "rec", {"open": True})
    assert Store(tmp_path / "p.db").load_game("truc") == ("rec", {"open": True})


def test_options_persist(tmp_path):
    store = Store(tmp_path / "p.db")
    store.set_options("clobby", {"game_point": 300, "no_tie": True})
    assert Store(tmp_path / "p.db").get_options("clobby") == {"game_point": 300, "no_tie": True}


def test_a_damaged_parlour_database_is_moved_aside_not_overwritten(tmp_path):
    path = tmp_path / "p.db"
    store = Store(path)
    for i in range(40):
        store.finish_game("gops", "r" * 500, "easy", 0, 0, [i])
    store.close()
    data = bytearray(path.read_bytes())
    data[4096 * 5: 4096 * 6] = b"\xa5" * 4096  # one table page garbled; the header still says Parlour
    path.write_bytes(bytes(data))
    store = Store(path)
    assert store.notice and "moved aside" in store.notice
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("p.db.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == bytes(data)
    store.save_game("gops", "rec", {})
    assert store.load_game("gops") == ("rec", {})


def test_a_file_that_is_not_a_database_is_refused_and_kept(tmp_path):
    path = tmp_path / "p.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not an SQLite file"):
        Store(path)
    assert path.read_bytes() == b"this is not a database" * 100
    assert [p.name for p in tmp_path.iterdir()] == ["p.db"]


def test_a_database_of_a_newer_parlour_is_refused(tmp_path):
    path = tmp_path / "p.db"
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer Parlour"):
        Store(path)
    assert [p.name for p in tmp_path.iterdir()] == ["p.db"]


def test_broken_saves_are_kept_aside(tmp_path):
    store = Store(tmp_path / "p.db")
    store.save_game("gops", "garbage", {})
    store.set_aside_broken("gops", "bad record")
    assert store.load_game("gops") is None
    assert store._conn.execute("SELECT record, error FROM broken_saves").fetchall() == [("garbage", "bad record")]


def test_an_impossible_location_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot create"):
        Store(blocker / "sub" / "p.db")


def test_checkpoints_in_the_background_keep_the_log_short_and_leave_saves_alone(tmp_path):
    """The browser server's saves make no checkpoint of their own (it could sync the disk on the event
    loop); a thread's passive checkpoints still let the write-ahead log be rewound."""
    import time

    def wal_after_saves(background: bool) -> int:
        path = tmp_path / f"c{int(background)}.db"
        store = Store(path)
        store.create_web_table("t", "gops", "{}", [], {}, 0)
        stop = store.checkpoint_in_background(every=0.01) if background else None
        if not background:
            store._conn.execute("PRAGMA wal_autocheckpoint=0")  # what a server without the thread would do
        else:
            assert store._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        record = "x" * 8192
        for n in range(1500):
            assert store.save_web_table("t", record + str(n), [], expected=n, actions=n + 1) == 0
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
