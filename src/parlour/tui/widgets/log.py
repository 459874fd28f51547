"""The announcements log, whose lines wrap again when the terminal is resized.

Why a widget of its own: Textual's ``RichLog`` wraps a line once, at the width it has when the
line is written, and keeps the wrapped pieces; after a resize a narrower log clipped its
sentences and a wider one kept them broken.  This log keeps every line as written (a ``Text``)
and writes them all again at the new width whenever the width changes.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import RichLog


class AnnouncementLog(RichLog):
    def __init__(self, *, id: str | None = None, max_lines: int = 1000) -> None:
        super().__init__(id=id, wrap=True, markup=False, max_lines=max_lines, auto_scroll=True, min_width=20)
        self.source: list[Text] = []
        self._wrapped_at = 0

    def say(self, line: Text) -> None:
        """Add one announcement (kept, to be wrapped again at another width)."""
        self.source.append(line)
        del self.source[: -(self.max_lines or len(self.source))]
        self.write(line)

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if self._wrapped_at and width != self._wrapped_at and self.source:
            self.clear()
            for line in self.source:
                self.write(line)
        self._wrapped_at = width
