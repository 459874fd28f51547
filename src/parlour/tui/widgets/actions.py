"""The choices that are not a card of the hand (bids, yes/no answers, announcements).

Why one drawn widget rather than a row of Button widgets: the set of choices changes at
almost every move and may hold thirty entries (calling a card in Six-Bid Solo), so the
bar wraps them itself and maps a click back to its choice, with no widgets to mount.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.widget import Widget

from ...actions import CardChoice, parse
from ...cards import pretty_action
from . import Clicked

GAP = 2


class ActionBar(Widget):
    DEFAULT_CSS = """
    ActionBar { height: auto; max-height: 6; width: 1fr; padding: 0 1; }
    ActionBar.-empty { display: none; }
    """

    class Chosen(Clicked):
        """A choice was clicked."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game = ""
        self.actions: list[str] = []
        self.keys: list[str] = []
        self.cursor: int | None = None
        self._spots: list[tuple[int, int, int, int]] = []  # line, x0, x1, index
        self.add_class("-empty")

    def show(self, actions: list[str], keys: list[str], cursor: int | None, game: str = "") -> None:
        """Show ``actions`` with their ``keys``; ``game`` (its name) says what each action is."""
        self.game = game
        self.actions = list(actions)
        self.keys = list(keys)
        self.cursor = cursor
        self.set_class(not self.actions, "-empty")
        self.refresh(layout=True)

    def labels(self) -> list[str]:
        """``[P] pass``; a choice made with several keys (``x a s`` calls A♠) shows them and its card only,
        so the twenty-odd cards one may call fit at 80 columns."""
        out = []
        for action, key in zip(self.actions, self.keys, strict=True):
            if len(key) > 1:
                parsed = parse(self.game, action)  # a card called shows its card only
                named = parsed.named if isinstance(parsed, CardChoice) else action
                out.append(f"[{key.upper()}] {pretty_action(named)}")
            else:
                out.append(f"[{key.upper()}] {pretty_action(action)}" if key else pretty_action(action))
        return out

    def _layout(self, width: int) -> list[list[tuple[int, str]]]:
        lines: list[list[tuple[int, str]]] = [[]]
        x = 0
        self._spots = []
        for index, label in enumerate(self.labels()):
            cell = f" {label} "
            if x and x + len(cell) > width:
                lines.append([])
                x = 0
            self._spots.append((len(lines) - 1, x, x + len(cell), index))
            lines[-1].append((index, cell))
            x += len(cell) + GAP
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._layout(max(width, 10))) if self.actions else 0

    def render(self) -> Text:
        out = []
        for line in self._layout(max(self.content_size.width, 10)):
            text = Text()
            for n, (index, cell) in enumerate(line):
                if n:
                    text.append(" " * GAP)
                style = "bold black on gold1" if index == self.cursor else "bold white on dark_green"
                text.append(cell, style=style)
            out.append(text)
        return Text("\n").join(out)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for line, x0, x1, index in self._spots:
            if line == offset.y and x0 <= offset.x < x1:
                event.stop()
                self.post_message(self.Chosen(index))
                return
