"""Six-Bid Solo lines for the plain text interface: the auction, the contract, the call, the spread.

The generic renderer already prints the hand, the trick, the last trick, the chips (scores),
the dealer, whose turn it is and the legal actions; these are the lines only this game has.
"""

from __future__ import annotations

from typing import Any

from .rules import no_trick_contract
from .views import SixBidView

SEATS = ("North", "East", "West")

#: The fixed key of every kind of choice (``parlour.text.choice_keys``): each bid has its own letter
#: for good, the trump suits their letters; ``call *`` (calling a card) is X followed by the card's rank and
#: suit keys (``x a s`` calls AS, ``x t d`` calls TD): keys bound to the card, never to its place in a list.
CHOICE_KEYS: dict[str, str] = {
    "solo": "o", "heart": "e", "misere": "m", "guarantee": "g", "spread": "r", "call": "k", "pass": "p",
    "trump C": "c", "trump D": "d", "trump H": "h", "trump S": "s", "call *": "x",
}
#: The original program's function keys, exactly as its manual lists them.
FKEYS: dict[str, str] = {
    "f1": "sound", "f2": "demo", "f3": "options", "f4": "replay_mode", "f5": "rules", "f7": "quit",
    "f9": "background", "f10": "border",
}


def prompt(view: SixBidView) -> str | None:
    """What is asked when a card from the hand is not a card played: the give-back."""
    call = view.get("call")
    if view.get("phase") == "give" and view.get("current_player") == view["seat"] and call:
        return f"Give {_seat(call['holder'])} one of your cards for {call['card']}"
    if view.get("phase") == "call" and view.get("current_player") == view["seat"]:
        return "Call a card you do not hold: X, then its rank and suit (X A S calls AS)"
    return None
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
CONTRACT_TEXT = {
    "solo": "at least 60 pips, the widow counting",
    "heart": "at least 60 pips, the widow counting",
    "misere": "no trick at all",
    "guarantee": "at least {target} pips, the widow counting",
    "spread": "no trick at all, {their} hand face up",
    "call": "all 120 pips, the widow counting",
}


def _seat(seat: int | None) -> str:
    return SEATS[seat] if seat is not None else "nobody"


def _chips(n: int) -> str:
    return f"{n:+d}"


def auction_text(auction: list[list[Any]]) -> str:
    if not auction:
        return "no bids yet"
    return ", ".join(f"{SEATS[seat]} {word}" for seat, word in auction)


def describe(view: SixBidView) -> list[str]:
    """The game-specific lines shown above the prompt for ``view["seat"]``."""
    lines = [f"Elder: {_seat(view.get('elder'))}; widow: 3 cards face down"]
    lines.append("Auction: " + auction_text(view.get("auction") or []))
    contract = view.get("contract")
    soloist = view.get("soloist")
    seat = view["seat"]
    if contract is None:
        if view.get("bid"):
            lines.append(f"Standing bid: {view['bid']} by {_seat(view.get('high_bidder'))}")
    else:
        trump = view.get("trump")
        if no_trick_contract(contract):
            trump_text = "no trump"
        elif trump is None:
            trump_text = "trump not yet named"
        else:
            trump_text = f"trump {SUIT_NAMES[trump]}"
        aim = CONTRACT_TEXT[contract].format(target=view.get("target"), their="your" if soloist == seat else "his")
        who = f"you ({_seat(soloist)})" if soloist == seat else _seat(soloist)
        lines.append(f"Contract: {who} {contract}, {trump_text}; needs {aim}")
    call = view.get("call")
    if call:
        if call["in_widow"]:
            lines.append(f"Called {call['card']}: it lies in the widow, nothing changes hands")
        else:
            text = f"Called {call['card']}: {_seat(call['holder'])} held it"
            if call["exchanged"]:
                given = call.get("given")
                if given and seat == soloist:
                    text += f" and got {given} back from you"
                elif given and seat == call["holder"]:
                    text += f"; you got {given} in exchange"
                else:
                    text += " and got a card back (unseen by you)"
            lines.append(text)
    if view.get("phase") == "give" and view.get("current_player") == seat and call:
        lines.append(f"Give {_seat(call['holder'])} one of your cards for {call['card']} (only you two see it)")
    spread = view.get("spread_hand")
    if spread is not None and soloist != seat:
        lines.append(f"{_seat(soloist)}'s hand, face up: " + (" ".join(spread) if spread else "(empty)"))
    if view.get("phase") == "play" or any(view.get("tricks_won") or []):
        won = view.get("tricks_won") or [0, 0, 0]
        taken = view.get("pips_taken") or [0, 0, 0]
        lines.append("Tricks: " + ", ".join(f"{SEATS[s]} {won[s]} ({taken[s]} pips)" for s in range(3)))
    return lines


def felt(view: SixBidView) -> list[tuple[str, list[str]]]:
    """The trump suit, once the contract has one (``describe`` names it): drawn on the table."""
    trump = view.get("trump")
    if trump not in SUIT_NAMES or view.get("contract") is None or no_trick_contract(view.get("contract")):
        return []
    return [("Trump", [str(trump)])]


def summary_felt(summary: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The widow, face up once the deal is over (``summarize`` names it)."""
    widow = list(summary.get("widow") or [])
    return [(f"The widow ({summary.get('widow_pips', 0)} pips)", widow)] if widow else []


def summarize(summary: dict[str, Any]) -> list[str]:
    """The deal-over lines for one deal summary (``state.deals[-1]``)."""
    widow = summary.get("widow") or []
    widow_text = f"Widow: {' '.join(widow)} ({summary.get('widow_pips', 0)} pips)"
    if summary.get("thrown_in"):
        return ["Everybody passed: the deal is thrown in, no chips change hands.", widow_text]
    soloist = summary["soloist"]
    bid = summary["bid"]
    trump = summary.get("trump")
    lines = []
    head = f"{_seat(soloist)} played {bid}" + (f", trump {SUIT_NAMES[trump]}" if trump else "")
    call = summary.get("call")
    if call and call.get("card"):
        where = "the widow" if call.get("holder") is None else _seat(call["holder"])
        head += f", called {call['card']} (from {where})"
    lines.append(head)
    tricks = summary.get("tricks") or [0, 0, 0]
    if no_trick_contract(bid):
        taken = tricks[soloist]
        result = "took no trick" if taken == 0 else f"took {taken} trick{'s' if taken != 1 else ''}"
        lines.append(f"{_seat(soloist)} {result}: {'made' if summary['made'] else 'lost'}.")
    else:
        lines.append(f"{_seat(soloist)} counted {summary['pips']} pips with the widow (needed {summary['target']}): "
                     f"{'made' if summary['made'] else 'lost'}.")
    lines.append(widow_text)
    trick_pips = summary.get("trick_pips") or [0, 0, 0]
    lines.append("Tricks: " + ", ".join(f"{SEATS[s]} {tricks[s]} ({trick_pips[s]} pips)" for s in range(3)))
    scores = summary.get("scores") or [0, 0, 0]
    lines.append("Chips: " + ", ".join(f"{SEATS[s]} {_chips(scores[s])}" for s in range(3)))
    chips = summary.get("chips")
    if chips:
        lines.append("Pots now: " + ", ".join(f"{SEATS[s]} {chips[s]}" for s in range(3)))
    return lines
