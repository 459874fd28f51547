"""Schafkopf lines for the plain text interface."""

from __future__ import annotations

from typing import Any

from ...cards import PIPS
from .rules import RamschResult, SoloResult
from .views import SchafkopfView

SEATS = ("North", "East", "West")

#: The fixed key of every kind of choice (``parlour.text.choice_keys``): pass is P in every deal.
CHOICE_KEYS: dict[str, str] = {"pick-up": "k", "pass": "p"}
#: The original program's function keys, exactly as its manual lists them.
FKEYS: dict[str, str] = {
    "f1": "sound", "f2": "demo", "f3": "options", "f5": "rules", "f7": "quit", "f9": "background", "f10": "border",
}


def prompt(view: SchafkopfView) -> str | None:
    """The discard is asked as what it is, card by card."""
    if view.get("phase") == "discard" and view.get("current_player") == view["seat"]:
        done = len(view.get("discard") or [])
        return f"Discard 2 cards to the skat ({done + 1} of 2)"
    return None


def speak_hidden(phase: str | None, next_phase: str | None, own: str | None) -> str | None:
    """The two-card discard is one announcement, made when it is complete (``parlour.text.speak_hidden``).

    To the soloist himself each card is said as it goes (it is his own, and ``1 of 2`` tells
    him one more is wanted); to everyone else once, after the second card.
    """
    if phase != "discard":
        return f"chooses {own}, face down." if own is not None else "has chosen, face down."
    done = next_phase != "discard"
    if own is not None:
        return f"puts {own} in the skat, face down ({2 if done else 1} of 2)."
    return "discards two cards to the skat, face down." if done else None


#: A soloist's result in words (the rules name it: ``SoloResult``).
SOLO_WORDS: dict[str, str] = {
    SoloResult.SCHWARZ: "took every trick: schwarz",
    SoloResult.SCHNEIDER: "made schneider (91 or more)",
    SoloResult.WON: "won (61 to 90)",
    SoloResult.LOST: "lost (31 to 60)",
    SoloResult.LOST_SCHNEIDER: "lost schneider (30 or less)",
    SoloResult.LOST_SCHWARZ: "took no trick: schwarz against him",
}
#: Why a Ramsch's scorer scores, in words (``RamschResult``).
RAMSCH_WORDS: dict[str, str] = {
    RamschResult.ALL_TRICKS: "took every trick",
    RamschResult.NO_TRICK: "took no trick",
    RamschResult.ALL_FORTY: "dealt, and all three have 40",
    RamschResult.FEWEST_PIPS: "has the fewest pips",
    RamschResult.FEWEST_PIPS_TIE: "ties for fewest pips and did not take the later trick",
}


def _pips(cards: list[str]) -> int:
    return sum(PIPS.get(c[0], 0) for c in cards)


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def _others(seat: int) -> str:
    return " and ".join(SEATS[s] for s in range(3) if s != seat)


def describe(view: SchafkopfView) -> list[str]:
    lines = []
    seat = view["seat"]
    said = ", ".join(f"{SEATS[s]} {bid}" for s, bid in view["bids"])
    lines.append(f"Bidding: {said}" if said else f"Bidding: {SEATS[view['elder']]} (elder) speaks first")
    soloist = view["soloist"]
    if soloist is not None:
        if soloist == seat:
            lines.append(f"You play alone against {_others(seat)}: you need 61 pips (your discard counts).")
        else:
            lines.append(f"Soloist: {SEATS[soloist]}, alone against {_others(soloist)} (needs 61 pips).")
    elif view["ramsch"]:
        lines.append("Ramsch: everyone passed, each plays for himself; fewest pips scores +2, no trick +4.")
        lines.append("The winner of the last trick also takes the skat.")
    skat, discard = view["skat"], view["discard"]
    if skat:
        lines.append(f"You picked up the skat: {' '.join(skat)}")
    if discard:
        lines.append(f"Your discard: {' '.join(discard)} ({_pips(discard)} pips)")
    if view["phase"] in ("play", "over") and any(view["tricks_won"]):
        taken = ", ".join(f"{SEATS[s]} {view['tricks_won'][s]} ({view['pips_won'][s]} pips)" for s in range(3))
        lines.append(f"Tricks taken: {taken}")
    lines.append(f"Game to {view['target']}.")
    return lines


def felt(view: SchafkopfView) -> list[tuple[str, list[str]]]:
    """The skat the soloist picked up, while they choose their discard, and the discard itself (face
    down to the others; its pips count for them): the cards ``describe`` names, drawn."""
    groups: list[tuple[str, list[str]]] = []
    skat, discard, phase = view.get("skat"), view.get("discard"), view.get("phase")  # (a spectator has neither)
    if skat and phase == "discard":
        groups.append(("The skat you picked up", list(skat)))
    if discard and phase != "over":
        groups.append(("Your discard, face down", list(discard)))
    return groups


def summary_felt(summary: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The skat, face up once the deal is over (``summarize`` names it)."""
    skat = list(summary.get("skat") or [])
    return [(f"The skat ({_pips(skat)} pips)", skat)] if skat else []


def summarize(summary: dict[str, Any]) -> list[str]:
    pips = summary["pips"]
    tricks = summary["tricks"]
    if not summary["ramsch"]:
        s = summary["soloist"]
        result = SOLO_WORDS.get(summary.get("result", ""), summary.get("result", ""))
        return [
            f"{SEATS[s]} played alone: {pips[s]} pips (discard {summary.get('discard_pips', 0)}) "
            f"in {_tricks(tricks[s])}; the others {120 - pips[s]}.",
            f"{SEATS[s]} {result}: {summary['scores'][s]:+d}.",
        ]
    each = ", ".join(f"{SEATS[i]} {pips[i]} pips in {_tricks(tricks[i])}" for i in range(3))
    lines = [f"Ramsch: {each}."]
    skat = summary.get("skat") or []
    if skat:
        last = summary.get("last_trick_winner")
        who = f" went to {SEATS[last]} with the last trick" if last is not None else ""
        lines.append(f"The skat {' '.join(skat)} ({_pips(skat)} pips){who}.")
    scorer = summary.get("scorer")
    if scorer is not None:
        why = RAMSCH_WORDS.get(summary.get("result", ""), "")
        lines.append(f"{SEATS[scorer]} {why}: {summary['scores'][scorer]:+d}.")
    return lines
