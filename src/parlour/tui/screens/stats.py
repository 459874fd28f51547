"""Statistics: games played, won, lost and drawn per game and opponent level, and recent games."""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding

from ...store import Store
from ...text import format_stats
from .dialogs import SCROLL_KEYS, Sheet


def recent_lines(store: Store, limit: int = 12) -> list[str]:
    lines = []
    for r in store.finished_games(limit=limit):
        if r.human_seat is None:
            result = "demo"
        elif r.winner is None:
            result = "drawn"
        else:
            result = "won" if r.winner == r.human_seat else "lost"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.finished))
        scores = " ".join(str(s) for s in r.scores)
        lines.append(f"#{r.id:<4} {when}  {r.game:<10} vs {r.level:<7} {result:<6} scores {scores}")
    return lines


class StatsScreen(Sheet[None]):
    """The statistics in the one box every dialog is (``Sheet``): it scrolls, and fits 80×24."""

    DEFAULT_CSS = """
    StatsScreen > Vertical { width: 90; max-width: 96%; }
    """
    BINDINGS = [Binding("escape,enter,q,s", "close", "Back")]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        recent = recent_lines(self.store)
        body = Text(format_stats(self.store.stats(), self.store.loss_trends()))
        if recent:
            body.append("\n\nRecent games (parlour export N prints one):\n", style="italic")
            body.append("\n".join(recent))
        yield from self.compose_sheet("Statistics", body, f"{SCROLL_KEYS} · Enter or Esc: back", "stats")

    def action_close(self) -> None:
        self.dismiss(None)
