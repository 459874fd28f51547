"""The game registry: ``load(name, **options)`` and ``names()``.

Modules are imported on first use so that starting the command line does not pay for
games it does not play.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..engine import Game

_MODULES = {
    "clobby": "parlour.games.clobby",
    "sixbid": "parlour.games.sixbid",
    "schafkopf": "parlour.games.schafkopf",
    "truc": "parlour.games.truc",
    "gops": "parlour.games.gops",
}


def names() -> list[str]:
    return list(_MODULES)


def game_class(name: str) -> type[Game]:
    """The Game subclass for ``name`` (each module exposes it as ``GAME``)."""
    if not isinstance(name, str) or name.lower() not in _MODULES:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(_MODULES)}")
    module = importlib.import_module(_MODULES[name.lower()])
    return module.GAME


def load(name: str, **options: Any) -> Game:
    """A game with the given options; an unknown game, option or bad value is a ValueError."""
    return game_class(name)(**options)
