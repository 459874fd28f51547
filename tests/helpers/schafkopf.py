"""Schafkopf solver test helpers: deals played to a point, and the old pure-Python solver.

Why the old solver here: the compiled core replaced the package's own search loops, and the
old ones (``bench/old_solvers/schafkopf.py``) are the reference for whole deals, where a search
through the engine itself is far out of reach.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import parlour
from parlour.games.schafkopf.bots import EasyBot

GAME = parlour.load("schafkopf")
OLD_SOLVER = Path(__file__).resolve().parents[2] / "bench" / "old_solvers" / "schafkopf.py"


def old_solver() -> ModuleType:
    """``bench/old_solvers/schafkopf.py``, loaded by path (bench/ is not a package)."""
    name = "old_solvers_schafkopf"
    got = sys.modules.get(name)
    if got is None:
        spec = importlib.util.spec_from_file_location(name, OLD_SOLVER)
        assert spec is not None and spec.loader is not None
        got = importlib.util.module_from_spec(spec)
        sys.modules[name] = got
        spec.loader.exec_module(got)
    return got


def first_card(seed: int, rng: random.Random) -> Any:
    """The deal of ``seed`` bid and discarded by the easy player, before elder's first card."""
    easy = EasyBot()
    state = GAME.new_state(seed=seed)
    while state.phase != "play":
        state.apply(easy.act(state.view(state.current_player), rng))
    return state


def solo_deals(count: int, seed: int = 0) -> list[tuple[int, Any]]:
    """The first ``count`` solo deals from seed ``seed + 1`` on, at the first card (Ramsch skipped)."""
    rng = random.Random(seed)
    out = []
    s = seed
    while len(out) < count:
        s += 1
        state = first_card(s, rng)
        if state.open_position().soloist is not None:
            out.append((s, state))
    return out
