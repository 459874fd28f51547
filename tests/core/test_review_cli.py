"""``parlour review`` end to end: a record file or a finished game of the store, its text and its JSON.

The JSON must be the same bytes for the same record, whatever the process (two runs with
different hash seeds), since tools compare reviews.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import parlour
from parlour.bots import make
from parlour.cli import main
from parlour.engine import bot_rng
from parlour.store import open_store


def record_file(tmp_path: Path, game: str = "schafkopf", deals: int = 2, seed: int = 4) -> Path:
    state = parlour.load(game).new_state(seed=seed)
    easy = make(game, "easy")
    while len(state.deals) < deals:
        seat = state.current_player
        state.apply(easy.act(state.view(seat), bot_rng(state.seed, len(state.actions))))
    path = tmp_path / "game.json"
    path.write_text(state.to_json())
    return path


def test_the_same_record_gives_byte_identical_json_in_any_process(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-m", "parlour", "review", str(path), "--deal", "2", "--samples", "4",
                               "--json"], capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    data = json.loads(outputs[0])
    assert data["format"] == "parlour-review" and data["version"] == 1 and data["deal"] == 2
    assert {"loss", "decisions", "per_decision", "accuracy", "costliest", "steps", "kinds", "unit"} <= set(data)
    decision = next(p["decision"] for s in data["steps"] for p in s["plays"] if p["decision"])
    assert {"chosen", "strong", "values", "cost", "best", "perfect", "perfect_cost", "legal"} <= set(decision)


def test_a_whole_game_of_the_store_deal_by_deal_and_the_statistics_say_the_trend(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "r.db")
    record = json.loads(record_file(tmp_path, "gops", 1, 3).read_text())
    store = open_store(db)
    number = store.finish_game("gops", json.dumps(record), "easy", 0, None, [0, 0])
    store.close()
    assert main(["--db", db, "review", str(number)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Review of deal 1 of GOPS, for North (you)")
    assert "--- Turn 1 ---" in out and "Verdict of the game (1 deal):" in out
    assert main(["--db", db, "stats"]) == 0
    assert "Your average loss per GOPS deal:" in capsys.readouterr().out  # the review was kept, counted
    assert main(["--db", db, "review", str(number), "--deal", "2"]) == 2
    assert "deal 2 has not ended: a review exists only once its deal is over" in capsys.readouterr().err
    assert main(["--db", db, "review", "99"]) == 2
    assert "no such game" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
