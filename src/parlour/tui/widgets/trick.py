"""The middle of the table: the trick being played, or the one just won."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widget import Widget

from ...cards import is_card
from ...views import View
from ..cardtext import card_chip


def place(width: int, left: Text | None = None, centre: Text | None = None, right: Text | None = None) -> Text:
    """One line with up to three pieces of text at the left, centre and right."""
    spots = []
    if left is not None:
        spots.append((1, left))
    if centre is not None:
        spots.append((max((width - len(centre)) // 2, 0), centre))
    if right is not None:
        spots.append((max(width - len(right) - 1, 0), right))
    out = Text()
    x = 0
    for start, text in sorted(spots, key=lambda s: s[0]):
        start = max(start, x + (1 if x else 0))
        out.append(" " * (start - x))
        out.append_text(text)
        x = start + len(text)
    return out


class TrickView(Widget):
    """Places each seat's card where that seat sits: the human at the bottom."""

    DEFAULT_CSS = """
    TrickView { height: 5; width: 1fr; border: round $panel; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[list[Any]] = []
        self.names: list[str] = []
        self.human = 0
        self.four_colour = False
        self.dim = False
        self.stake: list[str] = []  # prize cards at stake on the table (a view's ``stake`` of cards)

    def show(self, cards: list[list[Any]], names: list[str], human: int, title: str, four_colour: bool,
             dim: bool = False) -> None:
        self.cards, self.names, self.human = [list(c) for c in cards], list(names), human
        self.four_colour, self.dim = four_colour, dim
        self.border_title = title
        self.refresh()

    def show_table(self, view: View, names: list[str], human: int, four_colour: bool) -> None:
        """The trick being played, or (dimmed, until the next card) the one just won and by whom;
        in the middle, the cards at stake when the view has some (prizes are shown on the table)."""
        stake = view.get("stake")
        self.stake = [c for c in stake if isinstance(c, str) and is_card(c)] if isinstance(stake, list) else []
        trick = view["trick"]
        last = view["last_trick"]
        if trick or not last:
            self.show(trick, names, human, "Trick", four_colour)
            return
        winner = last.get("winner")
        won = f"won by {names[winner]}" if winner is not None else "nobody won it"
        self.show(last.get("cards") or [], names, human, f"Last trick — {won}", four_colour, dim=True)

    def render(self) -> Text:
        n = len(self.names)
        if not n:
            return Text()
        width = max(self.content_size.width, 20)
        by_rel: dict[int, Text] = {}
        for seat, card in self.cards:
            label = Text(f"{self.names[seat]} ", style="bold")
            label.append_text(card_chip(card, self.four_colour))
            if self.dim:
                label.stylize("dim")
            by_rel[(seat - self.human) % n] = label
        middle = Text()
        if self.stake:
            middle = Text("At stake: ", style="bold")
            for card in self.stake:
                middle.append_text(card_chip(card, self.four_colour))
                middle.append(" ")
            middle = place(width, centre=middle)
        if n == 2:
            lines = [place(width, centre=by_rel.get(1)), middle, place(width, centre=by_rel.get(0))]
        else:
            lines = [place(width, left=by_rel.get(1), right=by_rel.get(2)), middle,
                     place(width, centre=by_rel.get(0))]
        return Text("\n").join(lines)
