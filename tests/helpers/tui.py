"""What the terminal-table tests share: waiting, under Textual's pilot, for something to happen."""

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
