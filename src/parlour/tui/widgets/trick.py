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
        self.prizes: list[str] = []  # what the trick shown was played for (a last trick's ``prizes``)

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
        self.prizes = []
        if trick or not last:
            self.show(trick, names, human, "Trick", four_colour)
            return
        winner = last.get("winner")
        won = f"won by {names[winner]}" if winner is not None else "nobody won it"
        prizes = last.get("prizes")
        self.prizes = [c for c in prizes if isinstance(c, str) and is_card(c)] if isinstance(prizes, list) else []
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
        if self.dim and self.stake:  # the trick just won on the left, what is at stake now apart on the right
            played = Text("for ", style="dim") + self.chips(self.prizes) if self.prizes else Text()
            played.stylize("dim")
            labels = [played, *by_rel.values()]
            if n > 2:
                labels.append(Text(" ").join(by_rel.get(rel, Text()) for rel in (1, 2)))
            left = min(max(len(label) for label in labels) + 2, width // 2)
            now = [Text(), Text("At stake now: ", style="bold") + self.chips(self.stake), Text()]
            lines = []
            for line, spot in zip(self.seat_lines(left, by_rel, n, played), now, strict=True):
                line.truncate(left, pad=True)
                lines.append(line + Text("│ ", style="dim") + spot)
            return Text("\n").join(lines)
        middle = Text("At stake: ", style="bold") + self.chips(self.stake) if self.stake else Text()
        return Text("\n").join(self.seat_lines(width, by_rel, n, middle))

    def chips(self, cards: list[str]) -> Text:
        """Cards side by side as chips (the stake, a trick's prizes)."""
        out = Text()
        for card in cards:
            out.append_text(card_chip(card, self.four_colour))
            out.append(" ")
        return out

    @staticmethod
    def seat_lines(width: int, by_rel: dict[int, Text], n: int, middle: Text) -> list[Text]:
        """Three lines: the seats across from the human on top, ``middle``, the human's card below."""
        centre = place(width, centre=middle) if middle else Text()
        if n == 2:
            return [place(width, centre=by_rel.get(1)), centre, place(width, centre=by_rel.get(0))]
        return [place(width, left=by_rel.get(1), right=by_rel.get(2)), centre, place(width, centre=by_rel.get(0))]
