"""An opponent's place at the table: name, dealer and turn marks, card backs or faces."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from ...cards import face
from ...views import View
from ..cardtext import BACK, FACE_BG, backs_row, cards_row, suit_colour


class SeatPanel(Static):
    DEFAULT_CSS = """
    SeatPanel { height: 3; width: 1fr; padding: 0 1; border: round $panel; }
    SeatPanel.-to-move { border: round $accent; }
    """

    def show(self, name: str, tags: list[str], count: int, faces: list[str] | None, to_move: bool,
             four_colour: bool) -> None:
        """Every card of the hand, whatever the width: chips when they fit, else a compact form
        (faces side by side, or ``▒×11`` for backs), so no card is ever cut off at 80×24."""
        self._last = (name, tags, count, faces, to_move, four_colour)
        self.body = Text()
        self.set_class(to_move, "-to-move")
        self.border_title = name
        self.border_subtitle = "  ".join(tags)
        width = self.content_size.width or (self.size.width - 4 if self.size.width else 0)
        if faces is not None:
            body = cards_row(faces, four_colour)
            if width and body.cell_len > width:
                body = compact_faces(faces, four_colour)
        elif count:
            body = backs_row(count)
            if width and body.cell_len > width:
                body = Text(f"{BACK}×{count}", style="bold")
        else:
            body = Text("no cards", style="dim")
        self.body = body
        self.update(body)

    def on_resize(self) -> None:
        last = getattr(self, "_last", None)
        if last is not None:
            self.show(*last)


def compact_faces(cards: list[str], four_colour: bool) -> Text:
    """Faces with no chips or gaps (``A♠K♠10♥``): eleven cards in under 30 cells."""
    out = Text()
    for card in cards:
        out.append(face(card), style=f"bold {suit_colour(card[1], four_colour)} on {FACE_BG}")
    return out


class SeatsRow(Horizontal):
    """The other seats, in playing order from the human's left: one ``SeatPanel`` each."""

    DEFAULT_CSS = "SeatsRow { height: 3; }"

    def __init__(self, num_players: int, human: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.num_players = num_players
        self.human = human

    def others(self) -> list[int]:
        return [(self.human + rel) % self.num_players for rel in range(1, self.num_players)]

    def compose(self) -> ComposeResult:
        for seat in self.others():
            yield SeatPanel(id=f"seat-{seat}")

    def show(self, view: View, names: list[str], *, busy: bool, shows_dealer: bool, four_colour: bool) -> None:
        """Each seat's name, dealer and turn marks, and as many cards as the view's ``hand_sizes`` says."""
        open_hands = view.get("open_hands") or {}
        for seat in self.others():
            tags = []
            if shows_dealer and view["dealer"] == seat:
                tags.append("dealer")
            to_move = view["current_player"] == seat
            if to_move:
                tags.append("thinking…" if busy else "to play")
            faces = open_hands.get(str(seat))
            self.query_one(f"#seat-{seat}", SeatPanel).show(
                names[seat], tags, view["hand_sizes"][seat], list(faces) if faces is not None else None, to_move,
                four_colour)
