"""GOPS playout speed before and after moving to the engine's template (issue 11, point 3).

    .venv/bin/python bench/gops_template_speed.py [--base ac9c97f] [--rounds 11]

"Before" is ``games/gops/rules.py`` as of git revision ``--base`` (which overrides the public
``apply``/``legal_actions``), loaded beside today's module so both run on the same engine.py
in the same process; "after" is today's.  One unit is a whole random game, as in
``bench/engine_speed.py``.  The machine is shared, so the slices alternate and CPU time
(``time.process_time``) is measured, not wall time; the median of the per-round ratios is
printed.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from parlour.games.gops.rules import Gops

ROOT = Path(__file__).resolve().parent.parent


def seed_game(rev: str) -> type:
    source = subprocess.run(["git", "show", f"{rev}:src/parlour/games/gops/rules.py"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "rules_seed.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("parlour.games.gops.rules_seed", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.Gops


def unit_for(game: object) -> Callable[[int, random.Random], None]:
    def unit(i: int, rng: random.Random) -> None:
        state = game.new_state(seed=i)  # type: ignore[attr-defined]
        deals = state.deals
        while not deals:
            state.apply(rng.choice(state.legal_actions()))

    return unit


def rate(unit: Callable[[int, random.Random], None], seconds: float) -> float:
    rng = random.Random(12345)
    for i in range(20):
        unit(i, rng)
    n = 0
    start = time.process_time()
    while True:
        for _ in range(50):
            unit(n, rng)
            n += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return n / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="ac9c97f")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--seconds", type=float, default=0.5)
    args = parser.parse_args()
    before, after = unit_for(seed_game(args.base)()), unit_for(Gops())
    old, new, ratios = [], [], []
    for _ in range(args.rounds):
        old.append(rate(before, args.seconds))
        new.append(rate(after, args.seconds))
        ratios.append(new[-1] / old[-1])
    print(f"before ({args.base}) {statistics.median(old):.0f} games/s CPU, after {statistics.median(new):.0f}"
          f" games/s CPU, after/before median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
