"""F5: the rules of a game, from its package's ``rules.md`` (package data, so a wheel has them)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import MarkdownViewer, Static

from ... import registry


def rules_text(game: str, title: str = "") -> tuple[str, bool]:
    """The Markdown of ``game``'s rules and whether it was found (else a short explanation)."""
    text = registry.rules_text(game)
    if text is not None:
        return text, True
    name = title or game
    return f"# {name}\n\nThis game ships no rules page (its package has no `rules.md`).", False


class RulesScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > Vertical { width: 96%; height: 94%; border: thick $accent; background: $surface; }
    RulesScreen MarkdownViewer { height: 1fr; }
    RulesScreen #rules-keys { height: 1; dock: bottom; color: $text-muted; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,f5,q,enter", "close", "Close")]

    def __init__(self, game: str, title: str = "") -> None:
        super().__init__()
        self.game = game
        self.text, self.found = rules_text(game, title)
        self.title_text = title or game

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Rules of {self.title_text}"
            yield MarkdownViewer(self.text, show_table_of_contents=False, id="rules")
            yield Static("↑/↓ PgUp/PgDn scroll · Esc, F5 or q: back", id="rules-keys")

    def on_mount(self) -> None:
        self.query_one(MarkdownViewer).focus()

    def action_close(self) -> None:
        self.dismiss(None)
