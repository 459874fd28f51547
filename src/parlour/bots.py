"""Computer players: ``make(game_name, level)`` returns a ``Bot``.

A bot sees only ``state.view(seat)`` — the same dict an interface shows that seat — and
a ``random.Random`` for its own choices, so it can never peek at hidden cards and any
game it plays replays exactly from its seed.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from .registry import game_class, part

LEVELS = ("random", "easy", "strong")  # every level some game offers, weakest first


class Bot(Protocol):
    name: str

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        """Choose one of ``view["legal_actions"]``."""
        ...


class RandomBot:
    """Uniform over the legal actions: the baseline every other level must beat."""

    name = "random"

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        legal: list[str] = view["legal_actions"]
        return rng.choice(legal)

    def policy(self, view: dict[str, Any]) -> dict[str, float]:
        """The mixed strategy ``act`` samples: uniform over the legal actions (for exploitability tools)."""
        legal = view["legal_actions"]
        return {action: 1.0 / len(legal) for action in legal}


#: A phase's handler: ``handler(view, legal, rng)`` -> one of ``legal`` (see ``PhaseBot``).
Handler = Callable[[dict[str, Any], list[str], random.Random], str]


class PhaseBot:
    """A player that answers each phase of a game with a method of its own, named as data.

    Why one dispatcher: every game's easy player began ``act`` the same way (the only legal action
    is played at once, without thought and without drawing from ``rng``, then one test of the
    view's phase per method).  A subclass now declares ``PHASE_HANDLERS`` (phase -> the name of
    its method) and ``OTHER_PHASES`` (the method for every other phase; by default a uniform
    choice, ``_any``); each is called as ``handler(view, legal, rng)``.  Names rather than the
    functions, so that a subclass overriding a handler is dispatched to.
    """

    PHASE_HANDLERS: ClassVar[Mapping[str, str]] = {}
    OTHER_PHASES: ClassVar[str] = "_any"

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        legal: list[str] = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        handler: Handler = getattr(self, self.PHASE_HANDLERS.get(view["phase"], self.OTHER_PHASES))
        return handler(view, legal, rng)

    def _any(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return rng.choice(legal)


def levels(game: str) -> list[str]:
    """The levels ``game`` offers: ``random`` for every game, then those its ``bots`` declares."""
    module = part(game, "bots")
    declared = list(getattr(module, "LEVELS", {})) if module is not None else []
    return ["random"] + [lv for lv in declared if lv != "random"]


def make(game: str, level: str = "easy", **settings: Any) -> Bot:
    """A bot of ``level`` for ``game``; unknown game or level is a ValueError.

    ``settings`` go to the bot's constructor (e.g. ``think=`` seconds for a search bot).
    """
    game_class(game)  # validates the name
    if level == "random":
        return RandomBot()
    module = part(game, "bots")
    declared = getattr(module, "LEVELS", {}) if module is not None else {}
    if level not in declared:
        raise ValueError(f"unknown level {level!r} for {game}; the levels are: {', '.join(levels(game))}")
    factory = declared[level]
    if isinstance(factory, str):
        # A level named lazily, ".strong:StrongBot": module (relative to the game's package) and
        # class.  Why: the easy player then does not import the search code (and its solvers'
        # libraries), and a strong player may build on bots.py without an import cycle.
        module_name, _, attr = factory.partition(":")
        assert module is not None
        factory = getattr(importlib.import_module(module_name, module.__package__), attr)
    bot: Bot = factory(**settings)
    return bot
