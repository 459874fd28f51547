"""Which game a player sits down to: the saved one, unless a new one is asked for.

Why a module of its own: the line mode and the terminal table must agree exactly on
resuming — a save that no longer replays is set aside (never deleted) and a new game
starts; a saved game keeps the options it was started with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine import State
from .records import from_json
from .registry import game_class
from .store import Store


@dataclass
class Opening:
    state: State
    settings: dict[str, Any]  # what was saved beside the record (level, open hands, human seat)
    resumed: bool
    notices: list[str] = field(default_factory=list)


def open_game(store: Store, name: str, options: dict[str, Any], *, fresh: bool,
              seed: int | None = None) -> Opening:
    """Resume ``name``'s saved game (unless ``fresh``), else a new one with ``options``.

    A bad option or seed for a new game raises ``ValueError`` from the engine.
    """
    game = game_class(name)
    notices: list[str] = []
    saved = None if fresh else store.load_game(game.name)
    if saved is not None:
        record, settings = saved
        try:
            state = from_json(record)
        except ValueError as exc:
            store.set_aside_broken(game.name, str(exc))
            notices.append(f"Your saved {game.title} game could not be restored ({exc}); "
                           "it was set aside and a new game starts.")
        else:
            notices.append(f"Resuming your saved {game.title} game.")
            if any(state.game.options.get(k) != v for k, v in options.items()):
                notices.append("The saved game keeps the options it was started with.")
            return Opening(state, settings, True, notices)
    return Opening(game(**options).new_state(seed=seed), {}, False, notices)
