"""How High Card is said to people: the lines line mode and the terminal table add for it."""

from __future__ import annotations

from typing import Any


def describe(view: dict[str, Any]) -> list[str]:
    """The game's own lines about a position (scores, trick and hand are shown by Parlour)."""
    won = view["tricks_won"]
    me = view["seat"]
    return [
        f"Playing to {view['target']} points.",
        f"Tricks this deal: you {won[me]}, your opponent {won[1 - me]}.",
        f"Your opponent holds {view['hand_sizes'][1 - me]} cards.",
    ]


def summarize(summary: dict[str, Any]) -> list[str]:
    """The game's own lines about a scored deal."""
    tricks = summary["scores"]
    return [f"Tricks taken: {tricks[0]} and {tricks[1]}; running totals {summary['totals'][0]} "
            f"and {summary['totals'][1]}."]
