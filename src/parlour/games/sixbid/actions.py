"""Six-Bid's actions as values (``parlour.actions``): a card played, a bid (``pass``, ``solo``,
``call``...), a trump named (``trump C``) or a card called (``call AD``).

Why here: this is the one place that says which strings are Six-Bid's actions and what each
is; narration, line mode and the browser ask it instead of splitting strings themselves.
"""

from __future__ import annotations

from ...actions import Action, words_parser
from ...cards import PACK_36
from .rules import SUITS

__all__ = ["Action", "parse_action"]

parse_action = words_parser(
    frozenset(PACK_36),
    frozenset({"pass", "solo", "heart", "misere", "guarantee", "spread", "call"}),
    card_words=frozenset({"call"}),
    suit_words={"trump": SUITS},
)
