"""The `parlour` command end to end: piped play, resume after a kill, demo, replay, errors."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from parlour.cli import main

ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def parlour(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "parlour", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=ENV)


def test_a_whole_gops_game_with_piped_input(tmp_path):
    db = str(tmp_path / "p.db")
    # a hint then Enter, a wrong card, a number, then always the first choice
    moves = ".\n\nAS\n99\n" + "1\n" * 40
    result = parlour("--db", db, "play", "gops", "--seed", "3", stdin=moves)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Hint:" in out
    assert "you cannot play AS now" in out
    assert "there is no choice 99" in out
    assert "*** Game over" in out and "Traceback" not in out + result.stderr
    stats = parlour("--db", db, "stats")
    assert "gops" in stats.stdout and "     1" in stats.stdout
    hist = parlour("--db", db, "history")
    assert hist.stdout.startswith("#1")
    exported = parlour("--db", db, "export", "1")
    record = json.loads(exported.stdout)
    assert record["game"] == "gops" and record["seed"] == 3 and len(record["actions"]) == 26
    path = tmp_path / "game.json"
    path.write_text(exported.stdout)
    replay = parlour("replay", str(path))
    assert replay.returncode == 0 and "*** Game over" in replay.stdout


def test_resume_after_the_process_is_killed_mid_game(tmp_path):
    db = str(tmp_path / "p.db")
    proc = subprocess.Popen([sys.executable, "-m", "parlour", "--db", db, "play", "gops", "--seed", "8"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=ENV)
    assert proc.stdin is not None
    proc.stdin.write("1\n1\n1\n")  # three turns
    proc.stdin.flush()
    deadline = time.time() + 60
    from parlour.store import open_store

    while time.time() < deadline:
        saved = open_store(db).load_game("gops")
        if saved and len(json.loads(saved.record)["actions"]) >= 6:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    record = json.loads(open_store(db).load_game("gops").record)
    assert record["actions"][:6:2] == ["AC", "2C", "3C"]
    resumed = parlour("--db", db, "play", "gops", stdin="1\n" * 20)
    assert resumed.returncode == 0
    assert "Resuming your saved GOPS game" in resumed.stdout
    assert "Turn 4 of 13" in resumed.stdout
    assert "*** Game over" in resumed.stdout
    again = parlour("--db", db, "play", "gops", "--seed", "8", stdin="q\n")
    assert "Resuming" not in again.stdout  # the finished game was not kept as a save


def test_quit_and_end_of_input_keep_the_game_saved(tmp_path, capsys, monkeypatch):
    import io

    db = str(tmp_path / "p.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nq\n"))
    assert main(["--db", db, "play", "gops", "--seed", "1"]) == 0
    assert "your game is saved" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["--db", db, "play", "gops"]) == 0
    out = capsys.readouterr().out
    assert "Resuming" in out and "Input ended" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["--db", db, "new", "gops"]) == 0
    assert "Resuming" not in capsys.readouterr().out


def test_demo_prints_a_whole_game_and_can_write_its_record(tmp_path):
    path = tmp_path / "demo.json"
    result = parlour("demo", "gops", "--seed", "5", "--record", str(path))
    assert result.returncode == 0, result.stderr
    assert "North: AC 2C" in result.stdout and "*** Game over" in result.stdout
    assert json.loads(path.read_text())["seed"] == 5


@pytest.mark.parametrize("args,needle", [
    (["play", "poker"], "unknown game 'poker'"),
    (["play", "gops", "--speed", "3"], "unknown option --speed for gops"),
    (["play", "gops", "--level", "genius"], "unknown level 'genius'"),
    (["play", "gops", "--seed", "x"], "--seed must be a whole number from 0 to"),
    (["frobnicate"], "invalid choice"),
    (["replay", "/nonexistent/file.json"], "cannot read"),
])
def test_bad_arguments_give_one_line_and_status_2(args, needle, capsys, tmp_path):
    assert main(["--db", str(tmp_path / "p.db"), *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("content", ["{not json", '{"game": "gops", "seed": 1, "actions": ["QQ"]}', "[]"])
def test_malformed_record_files_are_refused(tmp_path, capsys, content):
    path = Path(tmp_path / "bad.json")
    path.write_text(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "is not a valid game record" in err and err.count("\n") == 1


def test_a_cut_off_database_is_moved_aside_and_play_goes_on(tmp_path, capsys, monkeypatch):
    import io

    db = tmp_path / "p.db"
    db.write_bytes(b"SQLite format 3\x00\x10\x00")  # a header cut off: a database we began and never finished
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["--db", str(db), "play", "gops"]) == 0
    captured = capsys.readouterr()
    assert "moved aside" in captured.err and captured.err.count("\n") == 1
    assert any(p.name.startswith("p.db.corrupt-") for p in tmp_path.iterdir())


def test_a_saved_game_that_no_longer_replays_is_set_aside(tmp_path, capsys, monkeypatch):
    import io

    from parlour.store import open_store

    db = str(tmp_path / "p.db")
    open_store(db).save_game("gops", '{"game": "gops", "seed": 1, "actions": ["XX"]}', {})
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["--db", db, "play", "gops"]) == 0
    assert "could not be restored" in capsys.readouterr().out


def test_the_line_menu_lists_the_games_and_quits(capsys, monkeypatch, tmp_path):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("s\n9\nq\n"))
    assert main(["--db", str(tmp_path / "p.db"), "menu"]) == 0
    out = capsys.readouterr().out
    assert "GOPS" in out and "No finished games yet." in out and "Choose a number" in out


def test_le_truc_jokes_only_when_asked(tmp_path, capsys, monkeypatch):
    import io

    from parlour.games.truc.text import JOKES

    def play(*extra: str) -> str:
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
        assert main(["--db", str(tmp_path / f"p{len(extra)}.db"), "new", "truc", "--seed", "2", *extra]) == 0
        return capsys.readouterr().out

    with_jokes = play("--jokes")
    assert 'Computer: "' in with_jokes and any(j in with_jokes for j in JOKES)
    assert 'Computer: "' not in play()


def test_options_of_a_game_are_passed_to_its_engine(tmp_path, capsys, monkeypatch):
    import io

    from parlour.store import open_store

    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    db = str(tmp_path / "p.db")
    assert main(["--db", db, "new", "clobby", "--game-point", "300", "--no-tie", "--tout-atout"]) == 0
    record = json.loads(open_store(db).load_game("clobby").record)
    assert record["options"] == {"game_point": 300, "no_tie": True, "clubs_preferred": False, "tout_atout": True}
    assert main(["--db", db, "new", "clobby", "--game-point", "50"]) == 2
    err = capsys.readouterr().err
    assert "--game-point must be from 100 to 9999" in err and err.count("\n") == 1


def test_demo_can_stop_after_some_deals(capsys):
    assert main(["demo", "schafkopf", "--level", "random", "--seed", "0", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("=== Deal") == 2 and "stopped after 2 deals" in out
    assert main(["demo", "gops", "--deals", "0"]) == 2


# -- every argument is checked before anything starts -------------------------------------------
def _one_line_refusal(capsys, argv: list[str], needle: str) -> str:
    """``main(argv)`` refuses with exit 2, one line on stderr holding ``needle``, and nothing on stdout."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert needle in captured.err, captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert captured.out == ""  # refused before anything started: no banner, no table
    return captured.err


@pytest.mark.parametrize("command", [["demo", "gops"], ["play", "gops"], ["new", "gops"], ["replay", "x.json"]])
@pytest.mark.parametrize("delay", [["--delay", "inf"], ["--delay", "1e400"], ["--delay", "nan"], ["--delay", "-1"],
                                   ["--delay=-inf"], ["--delay", "10.5"], ["--delay", "soon"], ["--delay", ""]])
def test_a_bad_delay_is_refused_at_once(command, delay, capsys, tmp_path):
    _one_line_refusal(capsys, ["--db", str(tmp_path / "p.db"), *command, *delay],
                      "--delay must be a number of seconds from 0 to 10")
    assert not (tmp_path / "p.db").exists()  # not even the database was opened


@pytest.mark.parametrize("args,needle", [
    (["demo", "gops", "--deals", "0"], "--deals must be from 1 to 10000"),
    (["demo", "gops", "--deals", "-3"], "--deals must be from 1 to 10000"),
    (["demo", "gops", "--deals", "1e3"], "--deals must be a whole number from 1 to 10000"),
    (["demo", "gops", "--deals", "9" * 5000], "--deals must be a whole number"),
    (["demo", "gops", "--seed", "-1"], "--seed must be from 0 to"),
    (["play", "gops", "--seed", "99999999999999999999"], "--seed must be from 0 to"),
    (["new", "gops", "--seed", "1.5"], "--seed must be a whole number"),
    (["demo", "clobby", "--game-point", "50"], "--game-point must be from 100 to 9999"),
    (["new", "clobby", "--game-point", "x"], "--game-point must be a whole number from 100 to 9999"),
    (["demo", "gops", "--level", "genius"], "unknown level 'genius'"),
    (["demo", "gops", "--record", ""], "--record must name a file"),
    (["demo", "gops", "--record", "/nonexistent-folder/x.json"], "its folder does not exist"),
    (["demo", "gops", "--record", "/proc/parlour-cannot-be-here.json"], "cannot write"),  # even for root
    (["play"], "play needs a game"),
    (["play", "poker", "gops"], "unknown game 'poker'"),
    (["new", "gops", "clobby"], "unknown argument clobby for gops"),
])
def test_bad_numbers_and_values_give_one_line_before_anything_starts(args, needle, capsys, tmp_path):
    err = _one_line_refusal(capsys, ["--db", str(tmp_path / "p.db"), *args], needle)
    assert len(err) < 300  # a huge argument is not echoed in full


def test_option_errors_and_help_use_the_command_line_spelling_of_every_game_option(capsys):
    from parlour.registry import game_class, names

    for name in names():
        game = game_class(name)
        for command in ("play", "new", "demo"):
            assert main([command, name, "--help"]) == 0
            out = capsys.readouterr().out
            assert f"usage: parlour {command} {name}" in out and f"{game.title} options" in out
            for option in game.OPTIONS:
                flag = "--" + option.name.replace("_", "-")
                assert flag in out
                if option.kind is int:
                    assert f"from {option.low} to {option.high}" in out and f"(default {option.default})" in out
                    _one_line_refusal(capsys, [command, name, flag, str(option.high + 1)],
                                      f"{flag} must be from {option.low} to {option.high}")
                elif option.kind is bool:
                    assert f"(default: {'on' if option.default else 'off'})" in out
                elif option.choices:
                    assert f"one of {', '.join(option.choices)}" in out
                    _one_line_refusal(capsys, [command, name, flag, "no-such-choice"],
                                      f"{flag} must be one of {', '.join(option.choices)}")


def test_clobby_help_lists_its_options_with_ranges_and_defaults(capsys):
    assert main(["play", "clobby", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--game-point N points that win the game: from 100 to 9999 (default 500)" in out
    assert "--no-tie" in out and "--clubs-preferred" in out and "--tout-atout" in out
    assert main(["play", "--help"]) == 0  # without a game: the common options and how to see a game's
    out = " ".join(capsys.readouterr().out.split())
    assert "parlour play GAME --help" in out and "Clobby options" not in out


def test_game_options_may_come_before_the_game_name(tmp_path, capsys, monkeypatch):
    import io

    from parlour.store import open_store

    db = str(tmp_path / "p.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["--db", db, "new", "--level", "random", "--game-point", "300", "clobby", "--seed", "4"]) == 0
    saved = open_store(db).load_game("clobby")
    assert json.loads(saved.record)["options"]["game_point"] == 300 and saved.settings["level"] == "random"


def test_export_of_a_number_that_is_no_game(capsys, tmp_path):
    db = str(tmp_path / "p.db")
    for number in ("23058430092136939520", "0", "-4", "7"):
        _one_line_refusal(capsys, ["--db", db, "export", number], "no such game")
    _one_line_refusal(capsys, ["--db", db, "export", "seven"], "export needs a game's number")


@pytest.mark.parametrize("content,needle", [
    (b"[" * 100_000, "nested too deeply"),
    (b'{"game": "gops", "actions": ' + b"[" * 5000 + b"]" * 5000 + b"}", "is not a valid game record"),
    (b"\xff\xfe\x00", "not UTF-8 text"),
    (b'{"game": "gops", "actions": [], "deck": 5}', "is not a valid game record"),
    (b'{"game": "gops", "actions": [], "options": {"1": 2}}', "is not a valid game record"),
])
def test_replay_refuses_deep_or_odd_json_in_one_line(tmp_path, capsys, content, needle):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    _one_line_refusal(capsys, ["replay", str(path)], needle)


def test_replay_reads_no_more_than_its_bound(tmp_path, capsys, monkeypatch):
    from parlour import cli

    monkeypatch.setattr(cli, "MAX_RECORD_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_text('{"game": "gops", "actions": [' + '"AC", ' * 400 + '"AC"]}')
    _one_line_refusal(capsys, ["replay", str(path)], "is larger than")
    _one_line_refusal(capsys, ["replay", str(tmp_path)], "cannot read")


@pytest.mark.parametrize("record", [
    "[" * 100_000,
    '{"game": "gops", "actions": [], "deck": 5}',
    '{"game": "gops", "actions": [["AC"]], "seed": 1}',
    '{"game": "gops", "seed": 1, "actions": ["AC"], "options": {"cards": 99}}',
    "\x00 not json",
])
def test_a_saved_record_that_cannot_be_loaded_is_set_aside_once(tmp_path, record, capsys, monkeypatch):
    import io
    import sqlite3

    from parlour.store import open_store

    db = str(tmp_path / "p.db")
    open_store(db).save_game("gops", record, {"level": "easy"})
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["--db", db, "play", "gops"]) == 0
    first = capsys.readouterr()
    assert "could not be restored" in first.out and first.err == ""
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["--db", db, "play", "gops"]) == 0  # the new game, not the broken one
    assert "Resuming your saved GOPS game" in capsys.readouterr().out
    broken = sqlite3.connect(db).execute("SELECT game, record FROM broken_saves").fetchall()
    assert broken == [("gops", record)]


# -- --db everywhere ------------------------------------------------------------------------------
def _finished_gops_db(tmp_path) -> str:
    from parlour.store import open_store

    db = str(tmp_path / "p.db")
    state = __import__("parlour").load("gops").new_state(seed=2)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    open_store(db).finish_game("gops", state.to_json(), "easy", 0, state.winner, state.scores)
    (tmp_path / "game.json").write_text(state.to_json())
    return db


@pytest.mark.parametrize("args,needle", [
    (["stats"], "gops"), (["history"], "#1"), (["history", "gops"], "#1"), (["export", "1"], '"game": "gops"'),
    (["menu"], "Parlour: choose a game"), (["play", "gops"], "GOPS: you are North"),
    (["new", "gops"], "GOPS: you are North"), (["demo", "gops", "--deals", "1"], "GOPS demo"),
    (["replay", "GAME"], "Replaying a GOPS game"), (["rules", "gops"], "# GOPS"),
])
def test_every_subcommand_takes_db_before_or_after_it(args, needle, tmp_path, capsys, monkeypatch):
    import io

    db = _finished_gops_db(tmp_path)
    args = [str(tmp_path / "game.json") if a == "GAME" else a for a in args]
    for argv in ([*args, "--db", db], ["--db", db, *args]):
        monkeypatch.setattr(sys, "stdin", io.StringIO("s\nq\n"))
        assert main(argv) == 0, capsys.readouterr().err
        captured = capsys.readouterr()
        assert needle in captured.out and captured.err == ""
    # the file named was the one used: nothing was made in the default place's stead
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".db"] == ["p.db"]


@pytest.mark.parametrize("args", [["stats"], ["history"], ["export", "1"], ["menu"], ["play", "gops"],
                                  ["new", "gops"], ["demo", "gops"], ["replay", "x.json"], ["rules", "gops"]])
def test_an_empty_db_name_is_refused_readably(args, capsys):
    for argv in ([*args, "--db", ""], ["--db", "", *args]):
        _one_line_refusal(capsys, argv, "--db must name the saved-games database (a file, or a postgresql:// URL)")
    _one_line_refusal(capsys, [*args, "--database", ""], "--database must name the saved-games database")


@pytest.mark.parametrize("args", [["stats"], ["history"], ["export", "1"], ["menu"], ["play", "gops"],
                                  ["new", "gops"]])
def test_a_database_that_is_not_parlours_is_one_line_and_left_alone(args, tmp_path, capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nq\n"))
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n" * 20)
    _one_line_refusal(capsys, ["--db", str(notes), *args], "not a Parlour saved-games database")
    assert notes.read_text() == "my notes\n" * 20
    _one_line_refusal(capsys, ["--db", str(tmp_path), *args], "is a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("args", [["stats"], ["history"], ["export", "1"], ["menu"], ["play", "gops"]])
def test_any_store_error_is_one_line_and_status_2(args, tmp_path, capsys, monkeypatch):
    from parlour import cli
    from parlour.store import StoreError

    class Busy(StoreError):
        pass

    def busy(*_args, **_kwargs):
        raise Busy("the saved-games database is in use by another Parlour")

    monkeypatch.setattr(cli, "open_store", busy)
    _one_line_refusal(capsys, ["--db", str(tmp_path / "p.db"), *args], "in use by another Parlour")


def test_a_game_open_elsewhere_is_one_line_and_the_menu_goes_on(tmp_path, capsys, monkeypatch):
    import io

    from parlour import cli
    from parlour.store import StoreError

    def in_use(*_args, **_kwargs):
        raise StoreError("your GOPS game is open in another Parlour")

    monkeypatch.setattr(cli, "open_game", in_use)
    db = str(tmp_path / "p.db")
    _one_line_refusal(capsys, ["--db", db, "play", "gops"], "open in another Parlour")
    monkeypatch.setattr(sys, "stdin", io.StringIO("5\nq\n"))
    assert main(["--db", db, "menu"]) == 0
    captured = capsys.readouterr()
    assert "open in another Parlour" in captured.err and captured.out.count("Parlour: choose a game") == 2


# -- history and rules ------------------------------------------------------------------------
def test_history_of_an_unknown_game_is_refused(capsys, tmp_path):
    _one_line_refusal(capsys, ["--db", str(tmp_path / "p.db"), "history", "poker"], "unknown game 'poker'")
    assert not (tmp_path / "p.db").exists()


def test_one_damaged_history_row_does_not_hide_the_others(tmp_path, capsys):
    import sqlite3

    db = _finished_gops_db(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO finished_games (game, level, human_seat, winner, scores, record, finished)"
                     " VALUES ('gops', 'easy', 'x', 3, 'not json', '{}', 'yesterday')")
    assert main(["--db", db, "history"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("#2") and "\n#1 " in out


def test_rules_prints_each_games_rules_page(capsys):
    from parlour.registry import game_class, names, rules_text

    for name in names():
        assert main(["rules", name]) == 0
        out = capsys.readouterr().out
        text = rules_text(name)
        assert text and out == text.rstrip("\n") + "\n"
        assert game_class(name).title.split()[0] in out  # the page is about that game
    _one_line_refusal(capsys, ["rules", "poker"], "unknown game 'poker'")


def test_a_demo_refused_for_its_deals_prints_no_banner():
    result = parlour("demo", "gops", "--deals", "0")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("parlour: --deals must be from 1") and result.stderr.count("\n") == 1


def test_a_saved_level_that_no_longer_exists_falls_back_to_easy(tmp_path, capsys, monkeypatch):
    import io

    import parlour
    from parlour.store import open_store

    db = str(tmp_path / "p.db")
    open_store(db).save_game("gops", parlour.load("gops").new_state(seed=1).to_json(), {"level": "genius"})
    for _ in range(2):  # and it keeps working on the next run
        monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
        assert main(["--db", db, "play", "gops"]) == 0
        out = capsys.readouterr().out
        assert "Resuming your saved GOPS game" in out and "against the easy computer" in out


@contextlib.contextmanager
def serving(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int, list[str]]]:
    """``parlour serve`` in a session of its own, as a terminal runs it: (the process, its port, the two
    lines it printed before serving).  Killed, with everything it started, if a test leaves it running.

    The first-run notice (``warm.FIRST_RUN``) is left out: on a fresh clone the suite's own compilation
    of the search kernels may still be under way when a test starts a server.
    """
    from parlour.search.warm import FIRST_RUN
    from parlour.web.run import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "parlour", "serve", "--port", str(port), "--db",
                             str(tmp_path / "serve.db")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=ENV, start_new_session=True)
    try:
        lines: list[str] = []
        while proc.stdout is not None and len(lines) < 2:
            line = proc.stdout.readline()
            if not line:
                break
            if not line.startswith(FIRST_RUN):
                lines.append(line)
        yield proc, port, lines
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()


def answering(proc: subprocess.Popen[str], port: int) -> list[dict[str, object]]:
    """The game catalogue, once the server answers (within 30 s)."""
    import httpx

    deadline = time.monotonic() + 30
    while True:
        try:
            return list(httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).json())
        except httpx.HTTPError:
            assert time.monotonic() < deadline and proc.poll() is None, "the server did not answer"
            time.sleep(0.2)


def stopped(proc: subprocess.Popen[str], how: Callable[[], None]) -> str:
    """Stop the server ``how``; everything it (and whatever it started) printed."""
    how()
    return proc.communicate(timeout=60)[0]


def test_parlour_serve_starts_answers_and_stops(tmp_path: Path) -> None:
    """What ``make serve`` runs: it readies the computer players, says where to go, serves, and stops
    quietly on Ctrl+C (no traceback: not the server's, not a worker's)."""
    with serving(tmp_path) as (proc, port, lines):
        assert lines[0].startswith("Getting the computer players ready"), lines
        assert lines[1].startswith(f"Parlour is serving at http://127.0.0.1:{port}/"), lines
        games = answering(proc, port)
        assert {g["name"] for g in games} == {"clobby", "sixbid", "schafkopf", "truc", "gops"}
        rest = stopped(proc, lambda: proc.send_signal(signal.SIGINT))
    assert proc.returncode == 0, rest
    assert "Parlour has stopped serving." in rest and "Traceback" not in rest, rest


async def play_against_the_worker_pool(port: int, moves: int = 3) -> int:
    """Moves at a GOPS table against the strong player, whose moves the server's worker processes make;
    returns how many of its moves came back."""
    import httpx
    import websockets

    from parlour.web.computers import INLINE_LEVELS

    assert "strong" not in INLINE_LEVELS, "the strong player thinks in the worker pool"
    url = f"http://127.0.0.1:{port}"
    made = httpx.post(f"{url}/api/tables", json={"game": "gops", "seats": [{"kind": "me"}, {"kind": "bot",
                      "level": "strong"}], "delay": 0, "name": "Ann"}).json()
    link = next(link for link in made["links"] if link["kind"] == "me")
    seat_and_key = dict(part.split("=", 1) for part in link["url"].split("#", 1)[1].split("&"))
    replies = 0
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{made['id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "seat": int(seat_and_key["seat"]), "token": seat_and_key["k"],
                                  "name": "Ann", "client_seed": "0" * 32}))
        while replies < moves:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if frame["type"] != "state":
                continue
            replies += sum(1 for line in frame["log"] if line.startswith("South "))  # the computer's seat
            if frame["view"].get("legal_actions"):
                await ws.send(json.dumps({"type": "act", "action": frame["view"]["legal_actions"][0]}))
    return replies


@pytest.mark.parametrize("how", ["Ctrl+C", "kill"])
def test_parlour_serve_stops_cleanly_after_its_worker_processes_played(tmp_path: Path, how: str) -> None:
    """Issue 25, point 13: once the worker pool has made moves, a stop (Ctrl+C: SIGINT to the whole
    process group, as a terminal sends it; ``kill``: SIGTERM to the server) ends with status 0 and says
    nothing about "leaked semaphore objects" (which SIGTERM made multiprocessing's resource tracker say,
    the process killed before the pool was shut down)."""
    with serving(tmp_path) as (proc, port, _):
        answering(proc, port)
        assert asyncio.run(play_against_the_worker_pool(port)) >= 3
        sig = signal.SIGINT if how == "Ctrl+C" else signal.SIGTERM
        rest = stopped(proc, (lambda: os.killpg(proc.pid, sig)) if how == "Ctrl+C" else lambda: proc.send_signal(sig))
    assert proc.returncode == 0, rest
    assert "leaked semaphore" not in rest and "Traceback" not in rest, rest
    assert "Parlour has stopped serving." in rest, rest
