"""Computer players: ``make(game_name, level)`` returns a ``Bot``.

A bot sees only ``state.view(seat)`` — the same dict an interface shows that seat — and
a ``random.Random`` for its own choices, so it can never peek at hidden cards and any
game it plays replays exactly from its seed.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol

from ..games import game_class

LEVELS = ("random", "easy")
PLANNED_LEVELS = ("strong",)


class Bot(Protocol):
    name: str

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        """Choose one of ``view["legal_actions"]``."""
        ...


class RandomBot:
    """Uniform over the legal actions: the baseline every other level must beat."""

    name = "random"

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        return rng.choice(view["legal_actions"])


def make(game: str, level: str = "easy") -> Bot:
    """A bot of ``level`` for ``game``; unknown game or level is a ValueError."""
    cls = game_class(game)  # validates the name
    if level == "random":
        return RandomBot()
    if level == "easy":
        module = importlib.import_module(f"parlour.bots.heuristic.{cls.name}")
        return module.EasyBot()
    if level in PLANNED_LEVELS:
        raise ValueError(f"level {level!r} is not built yet; the levels now are: {', '.join(LEVELS)}")
    raise ValueError(f"unknown level {level!r}; the levels are: {', '.join(LEVELS)}")
