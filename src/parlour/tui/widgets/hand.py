"""The human's hand along the bottom: card chips under their keys, a cursor, clicks.

The keys are given by the table (``parlour.text.CardKeys``): bound to the cards, so a key
stays over its card for the whole deal however the hand is ordered.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widget import Widget

from ..cardtext import CHIP_WIDTH, card_chip
from . import Clicked

SLOT = CHIP_WIDTH + 1


class HandView(Widget):
    """Draws the cards in the order given; which may be played is the table's business."""

    DEFAULT_CSS = """
    HandView { height: 2; width: 1fr; padding: 0 1; }
    """

    class Picked(Clicked):
        """A card was clicked."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[str] = []
        self.playable: set[str] | None = None
        self.cursor: int | None = None
        self.four_colour = False
        self.caption = ""
        self.keys: list[str] = []

    def show(self, cards: list[str], playable: set[str] | None, cursor: int | None, four_colour: bool,
             caption: str = "", keys: list[str] | None = None) -> None:
        self.cards = list(cards)
        self.keys = list(keys) if keys is not None else [""] * len(cards)
        self.playable = playable
        self.cursor = cursor
        self.four_colour = four_colour
        self.caption = caption
        self.refresh()

    def render(self) -> Text:
        if not self.cards:
            return Text(self.caption or "(no cards in hand)", style="dim")
        keys = Text()
        chips = Text()
        for i, card in enumerate(self.cards):
            key = self.keys[i].upper() if i < len(self.keys) else ""
            selected = self.cursor == i
            dim = self.playable is not None and card not in self.playable
            keys.append(key.center(CHIP_WIDTH) + " ", style="reverse bold" if selected else "dim")
            chips.append_text(card_chip(card, self.four_colour, selected=selected, dim=dim))
            chips.append(" ")
        if self.caption:
            keys.append("  " + self.caption, style="italic")
        return Text("\n").join([keys, chips])

    def index_at(self, x: int) -> int | None:
        index = x // SLOT
        if 0 <= index < len(self.cards) and x % SLOT < CHIP_WIDTH:
            return index
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.index_at(offset.x)
        if index is not None:
            event.stop()
            self.post_message(self.Picked(index))
