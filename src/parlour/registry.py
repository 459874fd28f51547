"""The game registry: ``load(name, **options)``, ``names()`` and each game's parts.

Why entry points: a game is one package (``rules``, ``bots``, ``text``, ``rules.md``), and a
third-party package adds one by declaring it in the ``parlour.games`` entry-point group —
the built-in five are declared the same way in Parlour's own ``pyproject.toml``.  Nothing
is imported until a game is used, so starting the command line does not pay for games it
does not play.

The entry point names a module (normally the game's package) that exposes ``GAME``, the
``Game`` subclass.  Its optional submodules ``bots`` (``LEVELS``: level name -> bot class)
, ``text`` (how the game is said to people) and ``actions`` (``parse_action``: what its
action strings are, see ``parlour.actions``) and its package data ``rules.md`` are found
next to it.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.resources
from types import ModuleType
from typing import Any

from .echo import shorten
from .engine import Game

GROUP = "parlour.games"
#: The built-in games, in menu order; used as well when Parlour runs from a source tree
#: without installed metadata (then no third-party game can be found anyway).
BUILTIN = {
    "clobby": "parlour.games.clobby",
    "sixbid": "parlour.games.sixbid",
    "schafkopf": "parlour.games.schafkopf",
    "truc": "parlour.games.truc",
    "gops": "parlour.games.gops",
}


@functools.cache
def _modules() -> dict[str, str]:
    """Game name -> module path: the built-in five first, then installed games by name."""
    found: dict[str, str] = {}
    try:
        for ep in importlib.metadata.entry_points(group=GROUP):
            found.setdefault(ep.name.lower(), ep.value)
    except Exception:  # broken metadata of some other distribution must not stop Parlour
        found = {}
    ordered = {name: found.pop(name, module) for name, module in BUILTIN.items()}
    ordered.update(sorted(found.items()))
    return ordered


def names() -> list[str]:
    return list(_modules())


def _check_name(name: object) -> str:
    if not isinstance(name, str) or name.lower() not in _modules():
        shown = shorten(name)
        raise ValueError(f"unknown game {shown}; the games are: {', '.join(_modules())}")
    return name.lower()


def game_module(name: str) -> ModuleType:
    """The game's package (or module) as its entry point names it."""
    found = _LOADED.get(name)
    if found is not None:
        return found
    module_path = _modules()[_check_name(name)]
    module_name = module_path.split(":", 1)[0]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"game {name!r} is installed but cannot be imported: {exc}") from None
    _LOADED[name] = module
    return module


#: Game name (as asked) -> its imported module, and (name, part) -> the part or None.  Why: a
#: browser table asks for a game's text and rules tens of times per action, and the import
#: machinery's lookup cost more than the answer; an import that failed is not remembered.
_LOADED: dict[str, ModuleType] = {}
_PARTS: dict[tuple[str, str], ModuleType | None] = {}


def game_class(name: str) -> type[Game]:
    """The Game subclass for ``name`` (each game's package exposes it as ``GAME``)."""
    module = game_module(name)
    cls = getattr(module, "GAME", None)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise ValueError(f"game {name!r} does not define GAME as a parlour Game class")
    return cls


def part(name: str, which: str) -> ModuleType | None:
    """The game's optional submodule ``which`` (``"bots"``, ``"text"`` or ``"actions"``), or None."""
    key = (name, which)
    if key in _PARTS:
        return _PARTS[key]
    module = game_module(name)
    if not hasattr(module, "__path__"):
        _PARTS[key] = None
        return None
    full = f"{module.__name__}.{which}"
    try:
        found: ModuleType | None = importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name != full:
            raise
        found = None
    _PARTS[key] = found
    return found


def rules_text(name: str) -> str | None:
    """The game's rules page (its package's ``rules.md``), or None if it ships none."""
    module = game_module(name)
    if not hasattr(module, "__path__"):
        return None
    try:
        return importlib.resources.files(module).joinpath("rules.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None


def load(name: str, **options: Any) -> Game:
    """A game with the given options; an unknown game, option or bad value is a ValueError."""
    return game_class(name)(**options)
