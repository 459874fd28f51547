"""The frozen pure-Python solvers, and how the benches check a new value with one of them."""

from __future__ import annotations

from collections.abc import Callable


def proved_value(at_least: Callable[[int], bool], v: int) -> int:
    """What an old solver's two null-window searches at ``v`` prove (``equal --by-proof``): ``v`` when it
    reaches ``v`` and not ``v + 1``, else ``v - 1`` (its value is at most that) or ``v + 1`` (at least that).

    Why two searches and not its full-window solve: the values are whole numbers, so the two settle
    the value as strictly, and a whole deal takes the old search seconds to minutes, not many minutes."""
    if not at_least(v):
        return v - 1
    return v + 1 if at_least(v + 1) else v


def proof_words(want: int, got: int) -> str:
    """How a mismatch names the old value ``want`` that :func:`proved_value` returned against the new
    ``got``: only a bound is proved ("at most v - 1", "at least v + 1")."""
    return f"{'at most' if want < got else 'at least'} {want}"
