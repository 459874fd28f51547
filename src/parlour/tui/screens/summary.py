"""The deal summary, shown after every deal from the engine's own summary.

Why only the engine's words: the lines come from the shared narration (``parlour.text``) of the
``deal_scored`` event (the game's ``summarize`` plus the points per seat) and of
``game_over``, so the terminal and the line mode can never disagree about a deal.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding

from ..cardtext import pretty_line
from .dialogs import SCROLL_KEYS, Sheet

CONTINUE, REPLAY, QUIT = "continue", "replay", "quit"


class DealSummary(Sheet[str]):
    DEFAULT_CSS = """
    DealSummary > Vertical { width: 76; max-width: 96%; }
    """
    BINDINGS = [
        Binding("enter,space,escape", "close('continue')", "Continue"),
        Binding("f6", "close('replay')", "Replay this deal"),
        Binding("f7", "close('quit')", "Quit to menu"),
        Binding("v", "review", "Review this deal"),
    ]

    def __init__(self, title: str, lines: list[str], *, game_over: bool, four_colour: bool,
                 auto_close: float | None = None, review: Callable[[], None] | None = None) -> None:
        """``review`` opens this deal's review (``V``), on top of the summary."""
        super().__init__()
        self.review = review
        self.title_text = title
        self.lines = list(lines)
        self.game_over = game_over
        self.four_colour = four_colour
        self.auto_close = auto_close

    def compose(self) -> ComposeResult:
        body = Text("\n").join(pretty_line(line, self.four_colour) for line in self.lines)
        if self.game_over:
            keys = "Enter: back to the menu"
        else:
            keys = "Enter: next deal · F6: replay this deal with the same cards · F7: quit (the game stays saved)"
        if self.review is not None:
            keys = f"V: review this deal · {keys}"
        if self.auto_close is not None:
            keys += f" · demo: continuing in {self.auto_close:g} s"
        keys = f"{SCROLL_KEYS} · {keys}"
        yield from self.compose_sheet(self.title_text, body, keys, "summary")

    def on_mount(self) -> None:
        if self.auto_close is not None:
            self.set_timer(self.auto_close, lambda: self.action_close(CONTINUE))

    def on_click(self) -> None:
        self.action_close(CONTINUE)

    def action_review(self) -> None:
        if self.review is not None and self.is_active:
            self.review()

    def action_close(self, result: str) -> None:
        if self.is_active:
            if self.game_over and result == REPLAY:
                result = CONTINUE
            self.dismiss(result)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)
