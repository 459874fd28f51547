"""A choice made with several keys, decoded key by key: ``x a s`` calls A♠, ``b 5`` plays the
card under 5 with bella.

Why apart from any screen: what a key means in the middle of such a choice is a pure function
of the keys typed so far, the hand's card keys, the legal actions and the pack, so it is tested
without a terminal (tests/interfaces/tui/test_units.py), and the terminal table (``KeySequence``,
which keeps the keys typed) and the browser server (``step``, sent the keys typed by the page)
decode them alike; each only says what it answers and makes the action.  The words and the two
shapes of such choices are the shared text layer's (``parlour.text.announced_choice`` and
``card_choice``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, cast

from .text import action_kind, actions_for_key, announced_choice, announces, card_choice, key_kind, names_a_card

#: ``more``: ask for the next key; ``refused``: the last key is no answer (the keys before it stand);
#: ``done``: the action is complete (whether it is legal now is the engine's to say);
#: ``cancelled``: Esc gave the choice up.
Status = Literal["more", "refused", "done", "cancelled"]
CANCELLED = "Cancelled: choose again."


def starts(game: str, char: str, legal: Sequence[str], cards_playable: bool) -> bool:
    """Whether ``char`` begins such a choice now: an announcing key while cards may be played
    (``b``), or the key of choices that name a card (``x``) while some may be made."""
    kind = key_kind(game, char)
    if announces(kind):
        return cards_playable
    actions = actions_for_key(game, char, legal)
    return bool(actions) and names_a_card(action_kind(game, actions[0]))


def step(game: str, typed: str, card_keys: Mapping[str, str], legal: Sequence[str],
         pack: Sequence[str]) -> tuple[Status, str]:
    """What the keys ``typed`` of such a choice mean, the last one just pressed (``""``: Esc) ->
    (status, what to say or the action)."""
    if not typed:
        return "cancelled", CANCELLED
    typed = typed.lower()
    if announces(key_kind(game, typed[:1])):
        status, said = announced_choice(game, typed, card_keys, legal)
    else:
        status, said = card_choice(game, typed, pack)
    return cast("Status", status), said


def kept(status: Status, typed: str) -> str:
    """The keys that stand after ``typed`` was answered with ``status``: all of them while more are
    asked, all but the refused last one, none once the choice is made or given up."""
    return typed.lower() if status == "more" else typed.lower()[:-1] if status == "refused" else ""


class KeySequence:
    """The keys typed so far of one choice made with several keys (none: no such choice begun)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.typed = ""

    def starts(self, char: str, legal: Sequence[str], cards_playable: bool) -> bool:
        """``starts`` for this game."""
        return starts(self.game, char, legal, cards_playable)

    def feed(self, char: str, card_keys: Mapping[str, str], legal: Sequence[str],
             pack: Sequence[str]) -> tuple[Status, str]:
        """One more key (``""`` is Esc) -> what it means: (status, what to say or the action)."""
        typed = self.typed + char if char else ""
        status, said = step(self.game, typed, card_keys, legal, pack)
        self.typed = kept(status, typed)
        return status, said

    def clear(self) -> None:
        """Leave the choice half-typed (another key, an arrow or Enter, was pressed)."""
        self.typed = ""
