"""What the terminal-table tests share: waiting, under Textual's pilot, for something to happen,
and opening a game's table from the menu."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


async def until(pilot: Any, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Let the app run until ``predicate()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {predicate}")
        await pilot.pause(0.01)


async def open_game(app: Any, pilot: Any, name: str, *, my_turn: bool = True) -> Any:
    """Open ``name`` from the menu by its number key; the table screen, once it is the human's
    turn and nothing runs (``my_turn``), else as soon as it shows."""
    from parlour import registry
    from parlour.tui.screens.menu import MenuScreen
    from parlour.tui.screens.table import TableScreen

    await until(pilot, lambda: isinstance(app.screen, MenuScreen))
    await pilot.press(str(registry.names().index(name) + 1))
    await until(pilot, lambda: isinstance(app.screen, TableScreen))
    table = app.screen
    if my_turn:
        await until(pilot, lambda: table.my_turn() and not table.busy)
    return table
