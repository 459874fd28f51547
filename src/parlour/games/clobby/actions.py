"""Clobby's actions as values (``parlour.actions``): a card played, maybe with bella, a suit
named, or a word of the bidding (``take``, ``pass``, ``name sans-tout``, ``exchange``...).

Why here: this is the one place that says which strings are Clobby's actions and what each
is; narration, line mode and the browser ask it instead of splitting strings themselves.
"""

from __future__ import annotations

from ...actions import Action, words_parser
from .rules import PACK, SUITS

__all__ = ["Action", "parse_action"]

#: Bella goes with a king or a queen (the rules say which of them may announce it now).
parse_action = words_parser(
    frozenset(PACK),
    frozenset({"take", "pass", "schmeiss", "accept", "refuse", "name sans-tout", "name tout-atout",
               "tout-atout", "exchange", "keep"}),
    announcements={"bella": frozenset(c for c in PACK if c[0] in "KQ")},
    suit_words={"name": SUITS},
)
