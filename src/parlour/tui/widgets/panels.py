"""The table's one-line and text panels: the title bar, the game panel and the prompt.

Why widgets of their own: the table screen decides *what* to say; each of these only knows
how its piece of the screen shows it, so the screen holds no drawing code.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..cardtext import pretty_line


class TitleBar(Static):
    """The game, the deal, who plays whom, and the table's flags (delay, sound, demo...)."""

    DEFAULT_CSS = "TitleBar { height: 1; background: $boost; padding: 0 1; }"

    def show(self, heading: str, flags: list[str]) -> None:
        text = Text(heading, style="bold")
        text.append("  ·  " + " · ".join(flags), style="italic")
        self.update(text)


class InfoPanel(Static):
    """The scores and the game's own lines about the position (the shared text layer's ``describe``)."""

    DEFAULT_CSS = "InfoPanel { width: 40%; min-width: 34; border: round $panel; padding: 0 1; overflow-y: auto; }"

    def on_mount(self) -> None:
        self.border_title = "Game"

    def show(self, lines: list[str], four_colour: bool) -> None:
        self.update(Text("\n").join(pretty_line(line, four_colour) for line in lines))


class PromptLine(Static):
    """What the player may do now, or the last message (an error in the error colour).

    Two lines at most: a long prompt wraps rather than being cut at 80 columns."""

    DEFAULT_CSS = """
    PromptLine { height: auto; max-height: 2; padding: 0 1; }
    PromptLine.-error { color: $error; }
    """

    def show(self, text: str, *, message: bool, error: bool, four_colour: bool) -> None:
        self.set_class(message and error, "-error")
        self.update(pretty_line(text, four_colour) if message else text)
