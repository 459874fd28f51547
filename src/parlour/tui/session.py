"""One game at the terminal table: starting or resuming it, saving it, recording its end.

This mirrors ``parlour play`` (cli.py) so the two interfaces share saved games: the same
store row per game, the same settings (``level``, ``open``, ``human_seat``), a save after
every action, and the finished game moved to the records in one transaction.  Choices of
this interface: a saved game keeps the options it was started with (the options screen
changes only new games), while the table options (open hands, the replay question) apply
at once; a game that ends while demo mode is on was played by the computer, so it is
recorded without a human seat and does not count in the statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..bots import levels, make
from ..engine import Game, State
from ..registry import game_class
from ..review.worker import Reviews
from ..saves import open_game
from ..store import GameLock, Store, StoreError
from ..table import Table

HUMAN_SEAT = 0


def availability(name: str) -> str | None:
    """None if ``name`` can be played here, else why not (its engine or computer player is missing)."""
    try:
        game_class(name)
        if "easy" not in levels(name):
            return "not available yet (it has no computer player)"
    except ImportError as exc:
        return f"not available yet ({exc.name or exc} is missing)"
    except Exception as exc:  # a half-written module must not take the menu down
        return f"not available ({type(exc).__name__}: {exc})"
    return None


def saved_game(store: Store, name: str) -> dict[str, Any] | None:
    """The settings of ``name``'s saved game, or None when there is none."""
    saved = store.load_game(name)
    return None if saved is None else saved.settings


@dataclass
class Session:
    store: Store
    game: type[Game]
    table: Table
    meta: dict[str, Any]
    notices: list[str] = field(default_factory=list)
    finished_id: int | None = None
    lock: GameLock | None = None  # this game is open here only (saves.open_game); see close()
    reviews: Reviews | None = None  # each deal's review, worked out as soon as it ends (``V``)

    def __post_init__(self) -> None:
        if self.reviews is None:
            self.reviews = Reviews(self.store, self.human)

    @property
    def state(self) -> State:
        return self.table.state

    @property
    def human(self) -> int:
        return int(self.meta.get("human_seat", HUMAN_SEAT))

    @property
    def level(self) -> str:
        return str(self.meta.get("level", "easy"))

    def save(self, table: Table | None = None) -> None:
        self.store.save_game(self.game.name, self.state.to_json(), self.meta)

    def set_open_hands(self, value: bool) -> None:
        self.table.open_hands = value
        self.meta["open"] = value
        if not self.state.is_over:
            self.save()

    def finish(self, demo: bool = False) -> int:
        """Record the finished game (once); returns its number in the history."""
        if self.finished_id is None:
            state = self.state
            human = None if demo else self.human
            self.finished_id = self.store.finish_game(self.game.name, state.to_json(), self.level, human,
                                                      state.winner, state.scores)
            self.close()  # a finished game is no longer saved: another window may start a new one
        return self.finished_id

    def close(self) -> None:
        """Let another Parlour window open this game (safe to call twice)."""
        if self.lock is not None:
            self.lock.release()


def open_session(store: Store, name: str, *, level: str, fresh: bool, options: dict[str, Any],
                 open_hands: bool, seed: int | None = None) -> Session:
    """Resume ``name``'s saved game (unless ``fresh``) or start a new one with ``options``.

    A store problem (the game open in another window, the database busy) is a ``ValueError``
    here, which the menu shows as a notice instead of starting the game.
    """
    game = game_class(name)
    try:
        opening = open_game(store, name, options, fresh=fresh, seed=seed)
    except StoreError as exc:
        raise ValueError(str(exc)) from None
    state, settings, notices = opening.state, opening.settings, opening.notices
    level = str(settings.get("level", level))
    try:
        make(game.name, level)
    except ValueError:
        level = "easy"
    human = int(settings.get("human_seat", HUMAN_SEAT))
    if not 0 <= human < game.num_players:
        human = HUMAN_SEAT
    meta = {"level": level, "open": bool(settings.get("open", open_hands)), "human_seat": human}
    players = [None if seat == human else make(game.name, level) for seat in range(game.num_players)]
    table = Table(state, players, open_hands=bool(meta["open"]))
    session = Session(store, game, table, meta, notices, lock=opening.lock)
    table.on_save = session.save
    try:
        session.save()
    except StoreError as exc:
        session.close()
        raise ValueError(str(exc)) from None
    return session
