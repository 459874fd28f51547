"""The terminal table's settings, and where they are kept.

Why the store: options survive between runs, the way the originals kept theirs.  Settings
that belong to the whole interface (sound, delay, four colours, hand sorting, opponent
level) are kept under the pseudo-game ``"tui"``; each game's engine options and its
table options (open hands, the replay question) under the game's own name, so the line
mode or a browser table can share them.  Anything unreadable in the store is ignored and
the default used: a bad stored value must never stop the program from starting.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from ..bots import LEVELS
from ..engine import Game
from ..store import Store

UI_NAMESPACE = "tui"
#: Seconds the computer waits before each of its moves; F8/F9 step through these.
DELAYS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
#: The table options every game has on top of its engine options.
TABLE_OPTIONS = {"open_hands": False, "replay_prompt": False}
#: The Textual themes F9 (background colour) cycles through, and the border styles of F10.
BACKGROUNDS = ("textual-dark", "nord", "gruvbox", "textual-light", "monokai")
BORDERS = ("round", "heavy", "double", "ascii", "solid")


@dataclass
class Settings:
    sound: bool = True
    delay: float = 0.5
    four_colour: bool = False
    sort_hand: bool = True
    jokes: bool = True
    level: str = "easy"
    background: int = 0  # F9 in the games whose original had it: an index into BACKGROUNDS
    border: int = 0  # F10: an index into BORDERS

    @classmethod
    def load(cls, store: Store) -> Settings:
        stored = store.get_options(UI_NAMESPACE)
        settings = cls()
        for f in fields(cls):
            value = stored.get(f.name)
            default = getattr(settings, f.name)
            if value is None or type(value) is not type(default):
                if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                    value = float(value)
                else:
                    continue
            setattr(settings, f.name, value)
        if settings.level not in LEVELS:
            settings.level = "easy"
        settings.delay = min(max(settings.delay, DELAYS[0]), DELAYS[-1])
        return settings

    def save(self, store: Store) -> None:
        store.set_options(UI_NAMESPACE, asdict(self))


def slower(delay: float) -> float:
    return next((d for d in DELAYS if d > delay + 1e-9), DELAYS[-1])


def faster(delay: float) -> float:
    return next((d for d in reversed(DELAYS) if d < delay - 1e-9), DELAYS[0])


def game_preferences(store: Store, game: type[Game]) -> tuple[dict[str, Any], dict[str, bool]]:
    """The stored engine options (each checked by its ``Option``) and table options of ``game``."""
    stored = store.get_options(game.name)
    engine: dict[str, Any] = {}
    for option in game.OPTIONS:
        if option.name in stored:
            try:
                engine[option.name] = option.check(stored[option.name])
            except ValueError:
                continue
    table = {name: bool(stored.get(name, default)) for name, default in TABLE_OPTIONS.items()}
    return engine, table


def save_game_preferences(store: Store, game: type[Game], engine: dict[str, Any], table: dict[str, bool]) -> None:
    values = {o.name: o.check(engine[o.name]) for o in game.OPTIONS if o.name in engine}
    values.update({name: bool(table.get(name, default)) for name, default in TABLE_OPTIONS.items()})
    store.set_options(game.name, values)
