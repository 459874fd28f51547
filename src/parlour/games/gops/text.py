"""GOPS lines for the plain text interface."""

from __future__ import annotations

from typing import Any

from .rules import VALUE_OF

SEATS = ("North", "South")


def _value(cards: list[str]) -> int:
    return sum(VALUE_OF[c] for c in cards)


def describe(view: dict[str, Any]) -> list[str]:
    lines = []
    if view["stake"]:
        stake = view["stake"]
        carried = f" (with {len(stake) - 1} carried from ties)" if len(stake) > 1 else ""
        lines.append(f"Turn {view['turn']} of 13: at stake {' '.join(stake)} = {_value(stake)} points{carried}")
    lines.append(f"Diamonds still face down: {view['prizes_left']}")
    for seat in (0, 1):
        won = view["won"][seat]
        lines.append(f"{SEATS[seat]} has won: {' '.join(won) if won else 'nothing yet'} ({_value(won)})")
    lines.append(f"Opponent's cards left: {' '.join(view['opponent_hand'])}")
    if view.get("chosen"):
        lines.append(f"You have chosen {view['chosen']}")
    if view.get("opponent_chosen"):
        lines.append("Your opponent has chosen a card, face down.")
    return lines


def summarize(summary: dict[str, Any]) -> list[str]:
    p = summary["points"]
    result = "a draw" if p[0] == p[1] else f"{SEATS[0 if p[0] > p[1] else 1]} wins"
    return [f"Final points: {SEATS[0]} {p[0]}, {SEATS[1]} {p[1]} — {result}."]
