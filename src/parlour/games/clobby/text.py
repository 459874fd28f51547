"""Clobby lines for the plain text interface: the bidding, trumps, dix, melds, bella and tally."""

from __future__ import annotations

from typing import Any

from ...actions import Play
from ...cards import SUIT_NAMES
from .actions import parse_action
from .views import ClobbyView, Meld

SEATS = ("North", "South")

#: The fixed key of every kind of choice (``parlour.text.choice_keys``): the same in every deal.
#: Suits are named by their letters, so schmeiss takes M; Y/N also answer accept/refuse.
CHOICE_KEYS: dict[str, str] = {
    "take": "t", "pass": "p", "schmeiss": "m", "accept": "a", "refuse": "r",
    "name C": "c", "name D": "d", "name H": "h", "name S": "s",
    "name sans-tout": "z", "name tout-atout": "x", "tout-atout": "o",
    "exchange": "e", "keep": "k", "+bella": "b",
}
YES_NO = {"accept": "yes", "refuse": "no"}
#: The original program's function keys, exactly as its manual lists them.
FKEYS: dict[str, str] = {
    "f1": "sound", "f2": "demo", "f3": "sort", "f5": "rules", "f6": "replay", "f7": "quit",
    "f8": "slower", "f9": "faster", "f10": "border",
}


def speak_action(action: str) -> str:
    """How a Clobby action is said after the seat's name: a card played with ``+bella`` announces it."""
    try:
        parsed = parse_action(action)
    except ValueError:  # not one of Clobby's actions: said as it is, never a crash in the narration
        return f"says {action}"
    if not isinstance(parsed, Play):
        return f"says {action}"
    return f"plays {parsed.card} and announces {parsed.announcement}!" if parsed.announcement else f"plays {action}"


def _count(n: int, word: str) -> str:
    """``1 trick``, ``2 tricks``: never ``1 tricks``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def trump_words(trump: str | None) -> str:
    if trump == "sans-tout":
        return "sans tout (no trumps)"
    if trump == "tout-atout":
        return "tout atout (every suit is trump)"
    return SUIT_NAMES.get(trump or "", "not fixed yet")


def _melds(melds: list[Meld]) -> str:
    return ", ".join(f"{' '.join(m['cards'])} = {m['points']}" for m in melds)


def describe(view: ClobbyView) -> list[str]:
    lines: list[str] = []
    seat = view["seat"]
    gp = view.get("game_point")
    if gp:
        lines.append(f"Game to {gp}. Elder (leads first): {SEATS[view['elder']]}.")
    if view["upcard"]:
        lines.append(f"Upcard: {view['upcard']}")
    else:
        lines.append("Clubs preferred: no upcard; round 1 is about clubs.")
    if view["bids"]:
        lines.append("Bidding: " + ", ".join(f"{SEATS[s]} {a}" for s, a in view["bids"]))
    if view["trump"] is None and view["phase"] not in ("over",):
        round_no = view.get("bidding_round", 1)
        if round_no == 1:
            lines.append(f"Round 1: take {SUIT_NAMES[view['bid_suit']]} as trumps, pass or schmeiss.")
        else:
            lines.append(f"Round 2: name a suit other than {SUIT_NAMES[view['bid_suit']]}, pass or schmeiss.")
    if view["trump"] is not None:
        maker = view["maker"]
        lines.append(f"Trump: {trump_words(view['trump'])}, maker: {SEATS[maker] if maker is not None else '?'}")
    dix = view.get("dix")
    if dix is not None and dix["answers"]:
        # Both players answer, holder of the 7 or not: a "keep" says nothing about where the 7 is.
        lines.append("Dix: " + ", ".join(f"{SEATS[s]} {a}" for s, a in dix["answers"]) + ".")
    if dix is not None and dix["exchanged_by"] is not None:
        lines.append(f"{SEATS[dix['exchanged_by']]} exchanged the 7 of trumps (the dix) for the upcard.")
    if view["phase"] == "dix" and view["current_player"] == seat:
        if "exchange" in view.get("legal_actions", ()):
            lines.append("You hold the dix (the 7 of trumps): exchange it for the upcard, or keep it.")
        else:
            lines.append("The dix: you do not hold the 7 of trumps, so you keep (both players are always asked).")
    if view["melds_compared"] and view["phase"] == "play":
        if view["meld_winner"] is None:
            lines.append("Melds: tied, nobody scores melds." if view["meld_tied"] else "Melds: nobody has a run.")
        else:
            who = SEATS[view["meld_winner"]]
            shown = view["melds"][view["meld_winner"]]
            if view["melds_shown"]:
                lines.append(f"Melds: {who} shows {_melds(shown)}")
            else:
                tie = " (a tie, won by elder)" if view["meld_tied"] else ""
                lines.append(f"Top meld: {who}{tie}; shown and scored after the first trick.")
    for s, suit in view["bella"]:
        lines.append(f"Bella: {SEATS[s]} ({SUIT_NAMES[suit]}), 20")
    if view["phase"] == "play":
        won = [sum(1 for t in view["tricks"] if t["winner"] == s) for s in (0, 1)]
        pts = view["points"]
        lines.append(f"This deal so far: {SEATS[0]} {pts[0]} ({_count(won[0], 'trick')}), "
                     f"{SEATS[1]} {pts[1]} ({_count(won[1], 'trick')}); "
                     f"opponent holds {_count(view['opponent_cards'], 'card')}")
    return lines


def felt(view: ClobbyView) -> list[tuple[str, list[str]]]:
    """The upcard, face up on the table all deal (``describe`` names it), and beside it the trump
    suit once fixed (it need not be the upcard's, after the second round): both drawn where the
    eye is, not only said.  Sans tout and tout atout have no suit to draw: the upcard's caption says them."""
    upcard = view.get("upcard")
    if not upcard:
        return []
    trump = view.get("trump")
    if trump in SUIT_NAMES:
        return [("Upcard", [upcard]), ("Trump", [str(trump)])]
    return [("Upcard" if trump is None else f"Upcard · {trump.replace('-', ' ')}", [upcard])]


def summarize(summary: dict[str, Any]) -> list[str]:
    if summary["thrown_in"]:
        return [f"Thrown in ({summary.get('reason') or 'no trumps'}): no score."]
    m = summary["maker"]
    o = 1 - m
    lines = [f"Maker: {SEATS[m]}, trump {trump_words(summary['trump'])}."]
    cards = summary["card_points"]
    last = summary.get("last_trick")
    last_text = f" (last trick 10 to {SEATS[last]})" if last is not None else ""
    lines.append(f"Cards: {SEATS[0]} {cards[0]}, {SEATS[1]} {cards[1]}{last_text}")
    w = summary["meld_winner"]
    if w is not None:
        lines.append(f"Melds: {SEATS[w]} {summary['meld_points'][w]} ({_melds(summary['melds'][w])})")
    elif summary.get("meld_tied"):
        lines.append("Melds: tied, nobody scores them.")
    for s in (0, 1):
        if summary["bella"][s]:
            lines.append(f"Bella: {SEATS[s]} 20")
    p = summary["points"]
    lines.append(f"Totals: {SEATS[0]} {p[0]}, {SEATS[1]} {p[1]}.")
    if summary["bete"]:
        lines.append(f"{SEATS[m]} is bete! {SEATS[o]} scores both totals, {p[0] + p[1]}.")
    elif p[m] == p[o]:
        lines.append(f"Equal totals: the maker scores nothing, {SEATS[o]} scores {p[o]}.")
    else:
        lines.append(f"{SEATS[m]} made it: both score their totals.")
    if summary.get("game_over") and summary.get("winner") is not None:
        lines.append(f"{SEATS[summary['winner']]} reaches game and wins.")
    return lines
