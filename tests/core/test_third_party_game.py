"""A game from another package: ``examples/parlour-highcard`` installed with pip is a sixth game.

What issue 11 asks of the registry, checked end to end: the example package is built and
installed by pip (its ``parlour.games`` entry point, its ``rules.md`` package data), and then a
fresh Python process (the registry caches what it found, so this one would not see it) lists it
after the five built-in games, plays it, passes the conformance kit, narrates a line-mode demo
and shows it in the line-mode menu.

Why ``pip install --target`` into a folder put on ``PYTHONPATH`` rather than into the test
environment itself: the running environment stays as ``make test`` made it (other tests check
that exactly the five built-in games are installed), yet the game is installed by pip exactly as
a user's ``pip install`` would, metadata and entry point included.  The build uses pip's
isolated build environment (setuptools from the package index or pip's cache, as Parlour's own
install does), from a copy, so the checkout is left without build leftovers.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT
from parlour.registry import BUILTIN

EXAMPLE = ROOT / "examples" / "parlour-highcard"


def _run(args: list[str], env: dict[str, str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, env=env, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("highcard")
    source = tmp / "parlour-highcard"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "*.pyc"))
    site = tmp / "site"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONNOUSERSITE="1")
    pip = _run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-compile", "--target", str(site),
                str(source)], env, tmp)
    assert pip.returncode == 0, pip.stderr[-3000:]
    assert (site / "parlour_highcard" / "rules.md").is_file(), "rules.md is package data"
    env.update(PYTHONPATH=str(site), XDG_DATA_HOME=str(tmp / "data"), HOME=str(tmp / "home"))
    return {"env": env, "cwd": tmp}


def _python(installed: dict, code: str) -> str:
    done = _run([sys.executable, "-c", code], installed["env"], installed["cwd"])
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_it_is_listed_after_the_five_built_in_games(installed):
    names = json.loads(_python(installed, "import json, parlour; print(json.dumps(parlour.names()))"))
    assert names[:5] == list(BUILTIN)
    assert "highcard" in names[5:]


def test_it_loads_plays_replays_and_has_its_parts(installed):
    out = _python(installed, """
import json, random
import parlour
from parlour.bots import levels, make
from parlour.registry import rules_text
game = parlour.load("highcard", target=7)
state = game.new_state(seed=5)
bot, rng = make("highcard", "easy"), random.Random(5)
while not state.is_over:
    state.apply(bot.act(state.view(state.current_player), rng))
again = parlour.from_json(state.to_json())
print(json.dumps({"title": game.title, "scores": state.scores, "winner": state.winner, "deals": len(state.deals),
                  "same": again.view(0) == state.view(0) and again.deals == state.deals,
                  "levels": levels("highcard"), "rules": rules_text("highcard")}))
""")
    result = json.loads(out)
    assert result["title"] == "High Card" and result["same"]
    assert max(result["scores"]) >= 7 and result["winner"] == result["scores"].index(max(result["scores"]))
    assert result["deals"] >= 2 and result["levels"] == ["random", "easy"]
    assert result["rules"].startswith("# High Card")


def test_it_passes_the_conformance_kit(installed):
    out = _python(installed, """
import dataclasses, json
from parlour.testing import check_game
print(json.dumps(dataclasses.asdict(check_game("highcard", games=3, deals=3))))
""")
    report = json.loads(out)
    assert report["game"] == "highcard" and report["games"] == 3 and report["deals"] >= 3
    assert report["records"] and report["clones"] and report["illegal"]
    assert report["hidden"]["scanned"] and report["hidden"]["redeal"]


def test_the_line_mode_demo_and_menu_show_it(installed):
    env, cwd = installed["env"], installed["cwd"]
    demo = _run([sys.executable, "-m", "parlour", "demo", "highcard", "--deals", "1", "--delay", "0"], env, cwd)
    assert demo.returncode == 0, demo.stderr[-3000:]
    assert "High Card demo" in demo.stdout and "Tricks taken:" in demo.stdout  # text.summarize's line
    assert "Traceback" not in demo.stderr
    menu = _run([sys.executable, "-m", "parlour"], env, cwd, stdin="q\n")
    assert menu.returncode == 0, menu.stderr[-3000:]
    assert "6) High Card" in menu.stdout
