"""What screens ask of the application, as Textual messages.

Why messages: a screen that called the app's methods would have to import the app, which
imports the screens: a cycle.  A screen posts one of these instead; it bubbles up to
``ParlourApp``, which acts on it.  Everything else a screen needs (the store, the settings)
is handed to it when it is made.
"""

from __future__ import annotations

from textual.message import Message


class StartGame(Message):
    """Sit down at ``game``: resume its saved game, or start a new one if ``fresh``."""

    def __init__(self, game: str, *, fresh: bool) -> None:
        super().__init__()
        self.game = game
        self.fresh = fresh


class Ring(Message):
    """Ring the terminal bell for an event (the app rings only if sound is on)."""
