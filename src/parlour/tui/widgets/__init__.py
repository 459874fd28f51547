"""The table's widgets: each draws one part of a seat's view and knows no game rules."""

from __future__ import annotations

from textual.message import Message


class Clicked(Message):
    """An item of a widget was clicked: the ``index`` of the item, in the order the widget was shown them.

    Why one class: the hand (a card) and the action bar (a choice) report a click the same way;
    each subclasses it under its own name, which names its handler (``on_hand_view_picked``).
    """

    def __init__(self, index: int) -> None:
        self.index = index
        super().__init__()
