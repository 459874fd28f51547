"""Statistics: games played, won, lost and drawn per game and opponent level, and recent games."""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...store import Store
from ...text import format_stats


def recent_lines(store: Store, limit: int = 12) -> list[str]:
    lines = []
    for r in store.finished_games(limit=limit):
        if r["human_seat"] is None:
            result = "demo"
        elif r["winner"] is None:
            result = "drawn"
        else:
            result = "won" if r["winner"] == r["human_seat"] else "lost"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r["finished"]))
        scores = " ".join(str(s) for s in r["scores"])
        lines.append(f"#{r['id']:<4} {when}  {r['game']:<10} vs {r['level']:<7} {result:<6} scores {scores}")
    return lines


class StatsScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    StatsScreen { align: center middle; }
    StatsScreen > Vertical { width: 90; max-width: 96%; height: auto; max-height: 92%;
                             border: thick $accent; background: $surface; padding: 1 2; }
    StatsScreen VerticalScroll { height: auto; max-height: 30; }
    StatsScreen .muted { color: $text-muted; margin-top: 1; }
    """
    BINDINGS = [Binding("escape,enter,q,s", "close", "Back")]

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        recent = recent_lines(self.store)
        with Vertical() as box:
            box.border_title = "Statistics"
            with VerticalScroll():
                yield Static(format_stats(self.store.stats()), id="stats-table")
                if recent:
                    yield Static("Recent games (parlour export N prints one):", classes="muted")
                    yield Static("\n".join(recent), id="stats-recent")
            yield Static("Enter or Esc: back", classes="muted")

    def action_close(self) -> None:
        self.dismiss(None)
