"""Small modal questions and notes: yes/no, the last trick, the key list."""

from __future__ import annotations

from typing import TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...engine import State
from ...text import format_key_table
from ...text import score_sheet as sheet

ResultT = TypeVar("ResultT")


def key_help(game: str) -> str:
    """The keys of ``game``'s table (its original's F-keys, its choices, the table's own)."""
    return format_key_table(game) + "\nMouse: click a card or a choice."


def score_sheet(state: State, human: int | None) -> str:
    """The current game's per-deal score sheet (the ``S`` key)."""
    return sheet(state.deals, state.game.num_players, human)


class Question(ModalScreen[bool]):
    """A yes/no question; y/Enter/↑ is yes, n/Escape/↓ is no (as in Le Truc's original)."""

    DEFAULT_CSS = """
    Question { align: center middle; }
    Question > Vertical { width: 64; max-width: 98%; height: auto; border: thick $accent; background: $surface;
                          padding: 1 2; }
    Question Horizontal { height: auto; align: center middle; margin-top: 1; }
    Question Button { margin: 0 2; }
    """
    BINDINGS = [Binding("y,enter,up", "answer(True)", "Yes"), Binding("n,escape,down", "answer(False)", "No")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.text), id="question")
            with Horizontal():
                yield Button("Yes (Y)", id="yes", variant="primary", compact=True)
                yield Button("No (N)", id="no", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


#: What every box to read says about scrolling it (its body scrolls when it is taller than the screen).
SCROLL_KEYS = "↑/↓ PgUp/PgDn scroll"


class Sheet(ModalScreen[ResultT]):
    """A box to read in the middle of the screen: a title on its border, a body, a muted line of keys.

    Why a base: a note (``Note``: the keys, the last trick, the score sheet), the deal summary
    (``summary.DealSummary``) and the statistics are the same box; each gives only its width
    (``<Class> > Vertical``) and what it shows (``compose_sheet``).  Why the body scrolls and is
    kept to 70% of the screen's height: a game's key list is longer than 24 lines, and the box
    with its border and keys line must fit an 80×24 terminal whole, on any terminal size.
    """

    DEFAULT_CSS = """
    Sheet { align: center middle; }
    Sheet > Vertical { height: auto; max-height: 100%; border: thick $accent; background: $surface;
                       padding: 1 2; }
    Sheet .sheet-body { height: auto; max-height: 70vh; scrollbar-size-vertical: 1; }
    Sheet .sheet-keys { color: $text-muted; margin-top: 1; }
    """
    #: The body has the keys: ↑/↓ and PgUp/PgDn scroll it (the box's own keys still close it).
    AUTO_FOCUS = ".sheet-body"

    def compose_sheet(self, title: str, body: Text, keys: str, name: str) -> ComposeResult:
        """The box: ``body`` as ``#<name>-body`` (in ``#<name>-scroll``), ``keys`` as ``#<name>-keys``."""
        with Vertical() as box:
            box.border_title = title
            with VerticalScroll(id=f"{name}-scroll", classes="sheet-body"):
                yield Static(body, id=f"{name}-body")
            yield Static(keys, id=f"{name}-keys", classes="sheet-keys")


class Note(Sheet[None]):
    """A few lines to read, closed by any of the usual keys."""

    DEFAULT_CSS = """
    Note > Vertical { width: 78; max-width: 98%; }
    """
    BINDINGS = [Binding("escape,enter,space,l,q,question_mark", "close", "Close")]

    def __init__(self, title: str, body: Text | str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        body = Text(self.body) if isinstance(self.body, str) else self.body
        yield from self.compose_sheet(self.title_text, body, f"{SCROLL_KEYS} · Enter or Esc: back", "note")

    def on_click(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
