"""Le Truc lines for the plain text interface, and the computer's jokes (``--jokes``)."""

from __future__ import annotations

import random
from typing import Any

from .views import TrucView

SEATS = ("North", "South")

#: The fixed key of every kind of choice (``parlour.text.choice_keys``); Y/N (and ↑/↓) answer too.
CHOICE_KEYS: dict[str, str] = {
    "play": "p", "call": "c", "accept": "a", "refuse": "r", "decline": "e", "double": "d", "remainder": "m",
}
YES_NO = {"accept": "yes", "refuse": "no", "decline": "no"}
#: The original program's function keys (Le Truc and GOPS were one program), as its manual lists them.
FKEYS: dict[str, str] = {
    "f1": "sound", "f2": "demo", "f3": "jokes", "f5": "rules", "f6": "replay", "f7": "quit",
    "f8": "slower", "f9": "faster", "f10": "border",
}

#: The project's own one-liners, told by the computer between deals when jokes are on.
JOKES: tuple[str, ...] = (
    "I never bluff. Except on days ending in Y. Ha ha!",
    "My hand was so good I called for new cards, just to be fair to you.",
    "They call the eight a six. Nobody knows why, not even the eight.",
    "I'd double again, but my fingers only count to twelve. Ha ha!",
    "The snail butter is on you tonight!",
    "A nine walks into a trick... and walks straight back out.",
    "Spoiled again? Even my tricks need a fridge. Ha ha!",
    "Remainder? I remember her! She always played for what she needed.",
    "My poker face is just my normal face, very well shuffled.",
    "The luck of the draw is almost a non-factor. Almost. Ha ha!",
    "Seven beats eight, eight beats ace, and I beat everybody at modesty.",
    "Am I bluffing? Am I double-bluffing? I forgot, and that is my secret!",
    "Thirty-two cards and not one of them will tell me what you hold. Rude.",
)


def joke(rng: random.Random) -> str:
    """One of the jokes, chosen with the caller's generator (so a seeded table repeats them)."""
    return rng.choice(JOKES)


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def _tricks(n: int) -> str:
    return f"{n} trick{'s' if n != 1 else ''}"


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def describe(view: TrucView) -> list[str]:
    rounds = view["rounds_won"]
    lines = [f"Round {view['round']} (first to {view['target']} points; two rounds win the game). "
             f"Rounds won: {SEATS[0]} {rounds[0]}, {SEATS[1]} {rounds[1]}."]
    if view["is_over"]:
        return lines
    needs = view["needs"]
    if view["remainder"]:
        lines.append(f"Stake: the remainder — {SEATS[0]} plays for {needs[0]}, {SEATS[1]} for {needs[1]}; "
                     f"whoever wins this deal wins the round. No more offers.")
    else:
        lines.append(f"Stake: {_points(view['stake'])}.")
    offer = view["offer"]
    if offer is not None:
        by, other = SEATS[offer["by"]], SEATS[1 - offer["by"]]
        if offer["kind"] == "double":
            lines.append(f'{by}: "{offer["stake"]} if I play?" — {other} may accept (the stake doubles) '
                         f"or decline ({by} scores {view['stake']}).")
        else:
            lines.append(f'{by} offers the remainder: "{needs[offer["by"]]} if I play?" — if {other} accepts, '
                         f"each plays for what he needs ({SEATS[0]} {needs[0]}, {SEATS[1]} {needs[1]}); "
                         f"if he declines, {by} scores {view['stake']}.")
    phase = view["phase"]
    nd = view["non_dealer"]
    if phase == "call":
        lines.append(f"{SEATS[nd]} (non-dealer) may play, or call for new cards.")
    elif phase == "call-answer":
        lines.append(f"{SEATS[nd]} calls for new cards: {SEATS[1 - nd]} may accept (both hands are set aside "
                     f"and three new cards dealt) or refuse (play starts).")
    if view["calls"] or view["passes"]:
        passes = view["passes"]
        passed = f"; the deal has passed {_times(passes)} for lack of cards" if passes else ""
        lines.append(f"New cards dealt this deal: {_times(view['calls'])}; {view['cards_left']} cards left in the "
                     f"pack{passed}.")
    for i, t in enumerate(view["tricks"], 1):
        cards = ", ".join(f"{SEATS[s]} {c}" for s, c in t["cards"])
        winner = t["winner"]
        result = "spoiled" if t["spoiled"] or winner is None else f"won by {SEATS[winner]}"
        lines.append(f"Trick {i}: {cards} — {result}.")
    if view["tricks"]:
        won = view["tricks_won"]
        line = f"Tricks: {SEATS[0]} {won[0]}, {SEATS[1]} {won[1]} (two win the deal)"
        if view["first_trick_winner"] is not None:
            line += f"; {SEATS[view['first_trick_winner']]} won the first trick and takes equal cards"
        lines.append(line + ".")
    if view["spoiled"]:
        lines.append(f"Spoiled, set aside for the next trick's winner: {' '.join(view['spoiled'])}.")
    return lines


def standing(summary: dict[str, Any]) -> bool:
    """Whether "Scores now" follows this deal's summary (``parlour.text.standing_line``).

    Not at the end of a round: the scores are back to 0-0 for the next round, and the summary
    has just said the round's points, who won it and that the next one starts from 0-0.
    """
    return summary.get("round_winner") is None


def summarize(summary: dict[str, Any]) -> list[str]:
    w = summary["winner"]
    stake = summary["stake"]
    lines = []
    if summary["ended"] == "declined":
        what = "offer to double" if summary["declined"] == "double" else "remainder"
        lines.append(f"{SEATS[1 - w]} declined {SEATS[w]}'s {what}: {SEATS[w]} scores {_points(stake)}.")
    elif summary["ended"] == "spoiled":
        lines.append("Three spoiled tricks: nobody wins the deal and nobody scores.")
    else:
        how = " (remainder: he needed exactly that)" if summary["remainder"] else ""
        lines.append(f"{SEATS[w]} wins the deal with {_tricks(summary['tricks_won'][w])} and scores "
                     f"{_points(stake)}{how}.")
    hands = summary.get("hands")
    if hands:
        lines.append(f"Hands: {SEATS[0]} {' '.join(hands[0])}; {SEATS[1]} {' '.join(hands[1])}.")
    rs = summary["round_scores"]
    lines.append(f"Round {summary['round']} points: {SEATS[0]} {rs[0]}, {SEATS[1]} {rs[1]}.")
    rw = summary["round_winner"]
    if rw is not None:
        rounds = summary["rounds_won"]
        lines.append(f"{SEATS[rw]} wins round {summary['round']}! Rounds won: {SEATS[0]} {rounds[0]}, "
                     f"{SEATS[1]} {rounds[1]}.")
        if summary["game_over"]:
            lines.append(f"{SEATS[rw]} wins the game.")
        else:
            lines.append("The next round starts from 0–0.")
    return lines
