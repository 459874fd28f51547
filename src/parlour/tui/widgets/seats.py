"""An opponent's place at the table: name, dealer and turn marks, card backs or faces."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..cardtext import backs_row, cards_row


class SeatPanel(Static):
    DEFAULT_CSS = """
    SeatPanel { height: 3; width: 1fr; padding: 0 1; border: round $panel; }
    SeatPanel.-to-move { border: round $accent; }
    """

    def show(self, name: str, tags: list[str], count: int, faces: list[str] | None, to_move: bool,
             four_colour: bool) -> None:
        self.set_class(to_move, "-to-move")
        self.border_title = name
        self.border_subtitle = "  ".join(tags)
        if faces is not None:
            body = cards_row(faces, four_colour)
        elif count:
            body = backs_row(count)
        else:
            body = Text("no cards", style="dim")
        self.update(body)
