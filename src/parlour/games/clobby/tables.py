"""Clobby's trick rules as arrays, for the search kernel (``parlour.search.tricks``).

Why here: the follow duties (head a led trump, trump a plain lead when void, nothing in
sans-tout), the trick winner (``rules.trick_power``) and the card points are the engine's own
rules (``rules.py``), put in the kernel's shape once per trump mode.
"""

from __future__ import annotations

from functools import cache

from ...search.trick_rules import Objective, TrickRules
from .rules import HIGHER_TRUMP, PLAIN_STRENGTH, POINTS, SANS, SUIT_MASK, TOUT, TRUMP_STRENGTH, trick_power

#: the last trick's bonus (RULES.md: "10 for the last trick")
LAST_TRICK = 10


def _is_trump(mode: int, suit: int) -> bool:
    return mode == TOUT or mode == suit


@cache
def trick_rules(mode: int) -> TrickRules:
    """The follow and trick rules of trump mode ``mode`` (a suit, ``SANS`` or ``TOUT``)."""
    trump = SUIT_MASK[mode] if 0 <= mode < 4 else 0
    return TrickRules(
        nplayers=2, ncards=32,
        follow=[SUIT_MASK[c >> 3] for c in range(32)],
        head=[HIGHER_TRUMP[c] if _is_trump(mode, c >> 3) else 0 for c in range(32)],
        ruff=[trump if mode != SANS and not _is_trump(mode, c >> 3) else 0 for c in range(32)],
        power=[[trick_power(mode, a, c) for c in range(32)] for a in range(32)],
        group=[c >> 3 for c in range(32)],
        rank=[(TRUMP_STRENGTH if _is_trump(mode, c >> 3) else PLAIN_STRENGTH)[c & 7] for c in range(32)],
    )


@cache
def objective(mode: int) -> Objective:
    """The maker's card points and the last trick's 10."""
    return Objective(POINTS[mode], last_bonus=LAST_TRICK)
