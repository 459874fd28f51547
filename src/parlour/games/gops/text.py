"""GOPS lines for the plain text interface (and the terminal table's side panel)."""

from __future__ import annotations

from typing import Any

from .rules import VALUE_OF
from .views import GopsView

SEATS = ("North", "South")

#: GOPS has no choice but a card: every key is a card's (``parlour.text.CardKeys``).
CHOICE_KEYS: dict[str, str] = {}
#: A hand is one suit, so a card is keyed by its rank (A 2-9 T J Q K), never by its place.
RANK_KEYS = True
#: The original program's function keys (Le Truc and GOPS were one program), as its manual lists them.
FKEYS: dict[str, str] = {
    "f1": "sound", "f2": "demo", "f3": "jokes", "f5": "rules", "f6": "replay", "f7": "quit",
    "f8": "slower", "f9": "faster", "f10": "border",
}


#: One round of GOPS is a turn: a diamond turned and bid for, not a trick (``parlour.text.trick_word``).
TRICK_WORD = "turn"


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _value(cards: list[str]) -> int:
    return sum(VALUE_OF[c] for c in cards)


def describe(view: GopsView) -> list[str]:
    lines = []
    options = view.get("options", {})
    turns = view.get("turns", options.get("cards", 13))
    if view["stake"]:
        stake = view["stake"]
        carried = f" (with {len(stake) - 1} carried from ties)" if len(stake) > 1 else ""
        lines.append(f"Turn {view['turn']} of {turns}: at stake {' '.join(stake)} = {_points(_value(stake))}{carried}")
    lines.append(f"Diamonds still face down: {view['prizes_left']}")
    for seat in (0, 1):
        won = view["won"][seat]
        lines.append(f"{SEATS[seat]} has won: {' '.join(won) if won else 'nothing yet'} ({_value(won)})")
    lines.append(f"Opponent's cards left: {' '.join(view['opponent_hand'])}")
    if view.get("chosen"):
        lines.append(f"You have chosen {view['chosen']}")
    if view.get("opponent_chosen"):
        lines.append("Your opponent has chosen a card, face down.")
    rules = []
    if options.get("ties") == "discard":
        rules.append("a tied diamond is discarded")
    if options.get("scoring") == "win":
        rules.append("only the win counts")
    if rules and view.get("turn") == 1:
        lines.append(f"Variant: {', '.join(rules)}.")
    return lines


def felt(view: GopsView) -> list[tuple[str, list[str]]]:
    """The diamond turned up for this turn, beside it the diamonds carried to it from ties, and the
    seat's own bid once chosen (face down to the other, who is still choosing)."""
    stake = view.get("stake") or []
    groups: list[tuple[str, list[str]]] = []
    if len(stake) == 1:
        groups.append((f"At stake: {_points(_value(stake))}", stake))
    elif stake:
        groups += [(f"At stake: {_points(_value(stake))} in all", stake[-1:]), ("Carried from ties", stake[:-1])]
    if view.get("chosen"):
        groups.append(("Your bid, face down", [str(view["chosen"])]))
    return groups


def summarize(summary: dict[str, Any]) -> list[str]:
    p = summary["points"]
    result = "a draw" if p[0] == p[1] else f"{SEATS[0 if p[0] > p[1] else 1]} wins"
    return [f"Final points: {SEATS[0]} {p[0]}, {SEATS[1]} {p[1]} — {result}."]
