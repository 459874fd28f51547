"""F5: the rules of a game, from the project's own ``docs/rules/<game>.md``."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import MarkdownViewer, Static

import parlour


def rules_dir() -> Path:
    """Why relative to the package: the repository is installed in editable mode, so the docs
    folder sits two levels above ``src/parlour``."""
    return Path(parlour.__file__).resolve().parents[2] / "docs" / "rules"


def rules_text(game: str, title: str = "") -> tuple[str, bool]:
    """The Markdown of ``game``'s rules and whether it was found (else a short explanation)."""
    path = rules_dir() / f"{game}.md"
    try:
        return path.read_text(encoding="utf-8"), True
    except OSError:
        name = title or game
        return (f"# {name}\n\nThe rules of {name} are not installed here (looked for `{path}`).\n\n"
                "They are part of the Parlour source: `docs/rules/` in the repository."), False


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
