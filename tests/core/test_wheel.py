"""The wheel carries the whole program: built from the checkout, installed into a fresh virtual
environment outside it, and run from a folder where the source tree cannot be imported.

Why: the editable install every other test uses reads the rules pages and the entry points
from the source tree, so a file missing from the wheel (as the rules pages once were) goes
unnoticed there.  The build uses pip's isolated build environment and takes the dependencies
from the package index (pip's cache keeps it to seconds after the first run); the install
then needs no index.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from helpers import ROOT
from parlour.registry import BUILTIN


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("wheel")
    # a copy of what a fresh clone holds for the build, so building leaves nothing in the checkout
    checkout = tmp / "checkout"
    checkout.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, checkout / name)
    shutil.copytree(ROOT / "src", checkout / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PYTHONNOUSERSITE="1", XDG_DATA_HOME=str(tmp / "data"))
    dist = tmp / "dist"
    # Parlour's wheel and its dependencies' wheels (from the package index, or pip's cache)
    build = _run([sys.executable, "-m", "pip", "wheel", "-q", "-w", str(dist), str(checkout)], tmp, env)
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = dist.glob("parlour-*.whl")
    venv = tmp / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp, env)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    # the checkout's pip installs into the new environment: no pip needs to be set up inside it
    # and with no index: everything the program needs must be in those wheels (no .pyc: quicker)
    install = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile",
                    "--no-index", "--find-links", str(dist), str(wheel)], tmp, env)
    assert install.returncode == 0, install.stderr[-2000:]
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    return {"wheel": wheel, "venv": venv, "python": python, "cwd": elsewhere, "env": env,  # type: ignore[dict-item]
            "src": checkout / "src"}


def test_the_wheel_holds_every_rules_page(built):
    with zipfile.ZipFile(built["wheel"]) as whl:
        names = set(whl.namelist())
        for game in BUILTIN:
            member = f"parlour/games/{game}/rules.md"
            assert member in names, f"{member} is missing from the wheel"
            assert whl.read(member) == (built["src"] / member).read_bytes()
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert "[parlour.games]" in whl.read(entry_points).decode()


def test_the_installed_program_is_the_wheels_not_the_checkouts(built):
    result = _run([str(built["python"]), "-c", "import parlour; print(parlour.__file__)"], built["cwd"], built["env"])
    assert result.returncode == 0, result.stderr
    location = Path(result.stdout.strip())
    assert location.is_relative_to(built["venv"]) and not location.is_relative_to(ROOT)


def test_parlour_rules_prints_every_games_rules_from_the_installed_wheel(built):
    parlour = str(built["venv"] / "bin" / "parlour")
    for game in BUILTIN:
        result = _run([parlour, "rules", game], built["cwd"], built["env"], timeout=60)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        page = (built["src"] / "parlour" / "games" / game / "rules.md").read_text(encoding="utf-8")
        assert result.stdout == page.rstrip("\n") + "\n"
    assert "Clobby" in _run([parlour, "rules", "clobby"], built["cwd"], built["env"]).stdout


def test_a_demo_runs_from_the_installed_wheel(built):
    result = _run([str(built["python"]), "-m", "parlour", "demo", "gops", "--deals", "1", "--delay", "0"],
                  built["cwd"], built["env"], timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and "GOPS demo" in result.stdout and "*** Game over" in result.stdout
