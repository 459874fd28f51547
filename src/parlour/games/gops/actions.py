"""GOPS's actions as values (``parlour.actions``): a bid is a card of one's own suit played.

Why here: this is the one place that says which strings are GOPS's actions.  It takes every
rank of the longest game (``cards`` 13), since the parser knows no options; the rules say
which of them a shorter game deals.
"""

from __future__ import annotations

from ...actions import Action, words_parser
from .rules import SEAT_SUITS, VALUES

__all__ = ["Action", "parse_action"]

parse_action = words_parser(frozenset(r + s for s in SEAT_SUITS for r in VALUES), frozenset())
