"""Hand-built Clobby packs shared by the Clobby test files.

Seat 1 deals in every pack here, so seat 0 is elder: it bids first and leads the first trick.
``build`` lays out the pack exactly as RULES.md deals it.
"""

from __future__ import annotations

import parlour
from parlour.games.clobby.rules import PACK


def build(e6: str, d6: str, up: str | None, e3: str, d3: str) -> list[str]:
    """Elder's first six, dealer's first six, the upcard (None: clubs preferred), then the
    three cards each of the second deal; the rest of the pack follows in pack order."""
    e, d, e2, d2 = e6.split(), d6.split(), e3.split(), d3.split()
    deck = e[:3] + d[:3] + e[3:] + d[3:] + ([up] if up else [])
    deck += [e2[0], d2[0], e2[1], d2[1], e2[2], d2[2]]
    return deck + [c for c in PACK if c not in deck]


def new(deck: list[str], **options: object) -> parlour.State:
    return parlour.load("clobby", **options).new_state(deck=deck, dealer=1)


def play(state: parlour.State, actions: str) -> None:
    """Apply space-separated actions; ``name X`` is one action."""
    words = actions.split()
    while words:
        a = words.pop(0)
        if a == "name":
            a += " " + words.pop(0)
        state.apply(a)


# Deal A: elder takes hearts and wins almost everything (hand-computed below).
DEAL_A = build("JH 9H AS TS 7C 8C", "KH QH AD TD 9S 8S", "7H", "AH KS 9C", "TH QS JS")
# Deal B: both pass, elder names spades in round 2 and is bete.
DEAL_B = build("7S 8S 9S KC QC 8H", "JC 9C AC TH 9H AS", "8D", "TS JS 7H", "JH QH 7C")
# Deal C: tout atout, overcalled over sans tout.
DEAL_C = build("JC 9C AH TH KH QH", "JD 9D AD TD KS QS", "7C", "8D 7D 7S", "JH 9H 8C")
# The dix (spades taken in round 1 on the upcard TS): who holds the 7 of trumps, 7S.
DIX_DECK = build("JS 9S AS 7C 8C 9C", "7S KH QH AD TD 8D", "TS", "AH KS JC", "TH QS JD")  # the dealer
DIX_ELDER = build("JS 9S AS 7C 8C 9C", "8S KH QH AD TD 8D", "TS", "7S KS JC", "TH QS JD")  # elder (2nd deal)
DIX_NOBODY = build("JS 9S AS 7C 8C 9C", "8S KH QH AD TD 8D", "TS", "AH KS JC", "TH QS JD")  # undealt


#: North (seat 0, elder, the human) holds K and Q of hearts; the upcard 7H is taken, so no dix.
#: South's only trump is 8H, which cannot beat KH: North wins the first trick and leads again.
BELLA_DECK = build("KH QH 7C 8C 9C AS", "8H AD TD 9S 8S JD", "7H", "TS KS 7S", "QD KD 7D")


def at_the_bella() -> parlour.State:
    """North to lead trick 2 having played KH in trick 1: both QH and QH+bella are legal."""
    state = new(BELLA_DECK)
    play(state, "take KH 8H")
    assert state.current_player == 0 and {"QH", "QH+bella"} <= set(state.legal_actions())
    return state
