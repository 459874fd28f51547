"""What an error message may echo of a bad input: a short, safe prefix.

Why its own module: the engine, the cards helpers, the records and the registry all refuse
bad input with a message, and none of them may repeat a 10 MB action or fail on ``repr`` of a
deeply nested value; they share this without importing each other.
"""

from __future__ import annotations

import reprlib

#: How much of a bad input an error message echoes.
SHOWN_CHARS = 40

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = _REPR.maxother = SHOWN_CHARS + 2


def shorten(value: object, limit: int = SHOWN_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters and "…": what an error message may echo.

    Why: a message that repeats its input in full can be megabytes long, and ``repr`` of a
    deeply nested value or a huge int fails outright; ``reprlib`` bounds depth and width.
    """
    try:
        text = repr(value[: limit + 1]) if type(value) is str else _REPR.repr(value)
    except Exception:  # a repr that fails (huge int, broken __repr__) must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "\u2026"
