"""Le Truc's actions as values (``parlour.actions``): a card played, or a word of the betting
(``play``, ``call``, ``accept``, ``refuse``, ``double``, ``decline``, ``remainder``).

Why here: this is the one place that says which strings are Le Truc's actions and what each
is; narration, line mode and the browser ask it instead of splitting strings themselves.
"""

from __future__ import annotations

from ...actions import Action, words_parser
from ...cards import PACK_32

__all__ = ["Action", "parse_action"]

parse_action = words_parser(
    frozenset(PACK_32),
    frozenset({"play", "call", "accept", "refuse", "double", "decline", "remainder"}),
)
