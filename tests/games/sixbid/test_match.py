"""Six-Bid Solo: the match survives restarts (saved after every action, resumed after a kill)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import parlour
from parlour.store import open_store

ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def run(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "parlour", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=ENV)


def test_a_killed_match_resumes_where_it_stood(tmp_path):
    db = str(tmp_path / "p.db")
    proc = subprocess.Popen([sys.executable, "-m", "parlour", "--db", db, "play", "sixbid", "--seed", "5",
                             "--chips", "10"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=ENV)
    assert proc.stdin is not None
    proc.stdin.write("1\n" * 6)
    proc.stdin.flush()
    deadline = time.time() + 60
    saved = None
    while time.time() < deadline:
        saved = open_store(db).load_game("sixbid")
        if saved and len(json.loads(saved.record)["actions"]) >= 8:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    saved = open_store(db).load_game("sixbid")
    assert saved is not None, "the match was not saved while it was played"
    record = json.loads(saved.record)
    assert record["game"] == "sixbid" and record["options"] == {"chips": 10} and record["seed"] == 5
    state = parlour.from_json(saved.record)  # the save is a valid record: chips, deals and all
    assert sum(state.scores) == 30 and len(state.actions) == len(record["actions"])

    resumed = run("--db", db, "play", "sixbid", stdin="1\n" * 3000)
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming your saved" in resumed.stdout
    assert "*** Game over" in resumed.stdout and "Traceback" not in resumed.stdout + resumed.stderr
    final = json.loads(run("--db", db, "export", "1").stdout)
    assert final["actions"][:len(record["actions"])] == record["actions"]  # it went on from the save
    finished = parlour.from_json(final)
    assert finished.is_over and min(finished.scores) <= 0 and sum(finished.scores) == 30
