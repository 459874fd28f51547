"""The Textual application: owns the store and the settings, and opens games from the menu.

The screens never call the app (they would have to import it, and it imports them): they
post ``messages.StartGame`` and ``messages.Ring``, handled here, and are given the store and
the settings when they are made.
"""

from __future__ import annotations

from textual.app import App
from textual.notifications import SeverityLevel

from ..registry import game_class
from ..store import Store
from .messages import Ring, StartGame
from .screens.menu import MenuScreen
from .screens.table import TableScreen
from .session import open_session
from .settings import Settings, game_preferences


class ParlourApp(App[int]):
    """``delay`` and ``summary_pause`` override the stored delay and the demo pause (tests use 0)."""

    TITLE = "Parlour"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, store: Store, *, delay: float | None = None, summary_pause: float = 3.0,
                 seed: int | None = None) -> None:
        super().__init__()
        self.store = store
        self.settings = Settings.load(store)
        if delay is not None:
            self.settings.delay = delay
        self.summary_pause = summary_pause
        self.seed = seed
        self.bells = 0

    def on_mount(self) -> None:
        self.push_screen(MenuScreen(self.store, self.settings))
        from ..search import warm  # the computer players' search compiles in the background, once

        warm.start(lambda line: self.notify(line, timeout=8))

    def ring(self) -> None:
        """The terminal bell, if sound is on (F1)."""
        if self.settings.sound:
            self.bells += 1
            self.bell()

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """At the table a notice goes to the status line, not to a toast.

        Why: a toast sits in the bottom right corner, over the hand (at 80×24 it hid GOPS's
        first cards); the table's status line is where it says everything else.  Toasts left
        over from the menu are hidden at the table too (``TableScreen``'s CSS).
        """
        screen = self.screen if self.screen_stack else None
        if isinstance(screen, TableScreen) and screen.is_mounted:
            screen.say(message, error=severity == "error")
            return
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def on_ring(self, message: Ring) -> None:
        message.stop()
        self.ring()

    def on_start_game(self, message: StartGame) -> None:
        message.stop()
        self.start_game(message.game, fresh=message.fresh)

    def start_game(self, name: str, *, fresh: bool) -> None:
        """Resume the saved game of ``name`` (unless ``fresh``) or start one, and sit down at it."""
        game = game_class(name)
        engine, table = game_preferences(self.store, game)
        try:
            session = open_session(self.store, name, level=self.settings.level, fresh=fresh, options=engine,
                                   open_hands=table["open_hands"], seed=self.seed)
        except ValueError as exc:
            self.notify(f"Cannot start {game.title}: {exc}", severity="error")
            return
        self.push_screen(TableScreen(session, self.store, self.settings, replay_prompt=table["replay_prompt"],
                                     summary_pause=self.summary_pause))
