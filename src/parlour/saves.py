"""Which game a player sits down to: the saved one, unless a new one is asked for.

Why a module of its own: the line mode and the terminal table must agree exactly on
resuming -- a save that no longer replays is set aside (never deleted) and a new game
starts; a saved game keeps the options it was started with; and a saved game is played in
one process at a time (two windows finishing the same game would count it twice), so the
game's lock is taken here and handed back in the ``Opening``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine import State
from .fairness import new_local_state
from .records import from_json
from .registry import game_class
from .store import GameLock, Store


@dataclass
class Opening:
    state: State
    settings: dict[str, Any]  # what was saved beside the record (level, open hands, human seat)
    resumed: bool
    notices: list[str] = field(default_factory=list)
    lock: GameLock | None = None  # held until ``release()`` or the end of the process

    def release(self) -> None:
        """Let another Parlour open this game (call when the player leaves it)."""
        if self.lock is not None:
            self.lock.release()


def open_game(store: Store, name: str, options: dict[str, Any], *, fresh: bool,
              seed: int | None = None) -> Opening:
    """Resume ``name``'s saved game (unless ``fresh``), else a new one with ``options``.

    Raises ``GameInUse`` (a ``StoreError``) when another process has the game open, and
    ``ValueError`` from the engine for a bad option or seed for a new game.
    """
    game = game_class(name)
    lock = store.game_lock(game.name, game.title)
    try:
        opening = _open(store, game, options, fresh=fresh, seed=seed)
    except BaseException:
        lock.release()
        raise
    opening.lock = lock
    return opening


def _open(store: Store, game: Any, options: dict[str, Any], *, fresh: bool, seed: int | None) -> Opening:
    notices: list[str] = []
    saved = None if fresh else store.load_game(game.name)
    if saved is not None:
        settings = saved.settings
        try:
            state = from_json(saved.record)
        except Exception as exc:  # noqa: BLE001 - whatever a saved record does wrong, it is set aside, not fatal
            why = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
            why = why if len(why) <= 200 else why[:200] + "..."
            store.set_aside_broken(game.name, why)
            notices.append(f"Your saved {game.title} game could not be restored ({why}); "
                           "it was set aside and a new game starts.")
        else:
            notices.append(f"Resuming your saved {game.title} game.")
            if any(state.game.options.get(k) != v for k, v in options.items()):
                notices.append("The saved game keeps the options it was started with.")
            return Opening(state, settings, True, notices)
    return Opening(new_local_state(game(**options), seed), {}, False, notices)
