"""The `parlour` command end to end: piped play, resume after a kill, demo, replay, errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
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
    from parlour.store import Store

    while time.time() < deadline:
        saved = Store(db).load_game("gops")
        if saved and len(json.loads(saved[0])["actions"]) >= 6:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    record = json.loads(Store(db).load_game("gops")[0])
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
    (["play", "gops", "--seed", "x"], "invalid int value"),
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


def test_a_corrupt_database_is_reported_and_play_goes_on(tmp_path, capsys, monkeypatch):
    import io

    db = tmp_path / "p.db"
    db.write_bytes(b"\x00garbage" * 50)
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["--db", str(db), "play", "gops"]) == 0
    captured = capsys.readouterr()
    assert "moved aside" in captured.err
    assert any(p.name.startswith("p.db.corrupt-") for p in tmp_path.iterdir())


def test_a_saved_game_that_no_longer_replays_is_set_aside(tmp_path, capsys, monkeypatch):
    import io

    from parlour.store import Store

    db = str(tmp_path / "p.db")
    Store(db).save_game("gops", '{"game": "gops", "seed": 1, "actions": ["XX"]}', {})
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

    from parlour.store import Store

    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    db = str(tmp_path / "p.db")
    assert main(["--db", db, "new", "clobby", "--game-point", "300", "--no-tie", "--tout-atout"]) == 0
    record = json.loads(Store(db).load_game("clobby")[0])
    assert record["options"] == {"game_point": 300, "no_tie": True, "clubs_preferred": False, "tout_atout": True}
    assert main(["--db", db, "new", "clobby", "--game-point", "50"]) == 2
    assert "game_point must be from 100 to 9999" in capsys.readouterr().err


def test_demo_can_stop_after_some_deals(capsys):
    assert main(["demo", "schafkopf", "--level", "random", "--seed", "0", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("=== Deal") == 2 and "stopped after 2 deals" in out
    assert main(["demo", "gops", "--deals", "0"]) == 2
