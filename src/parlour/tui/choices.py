"""What the player may pick at the table now: which cards, which buttons, their keys and cursors.

Why apart from the screen: it is a pure function of the hand on screen, the legal actions, the
keys bound to the cards and the previous cursors, so it is tested without a terminal
(tests/interfaces/tui/test_units.py), and the screen only draws it.  A legal action that is a card in the
hand is played from the hand; every other one (a bid, ``pass``, a card played with an
announcement) is a button.  The keys themselves are the game's, declared once in its text
module and read through ``parlour.text`` (the browser table uses the same).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..text import choice_sequence


@dataclass
class Choices:
    hand: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)  # the legal actions that are cards in the hand
    buttons: list[str] = field(default_factory=list)  # every other legal action
    button_keys: list[str] = field(default_factory=list)  # all the keys of each: ``p``, ``xas`` for call AS, ``b5``
    cursor: int | None = None  # index into ``hand``
    button_cursor: int | None = None  # index into ``buttons``
    hand_keys: list[str] = field(default_factory=list)  # the key bound to each card of ``hand``


def arrange(game: str, hand: list[str], legal: list[str], cursor: int | None, button_cursor: int | None,
            card_keys: dict[str, str] | None = None) -> Choices:
    """The choices for ``hand`` and ``legal``, keeping the cursors where they still make sense.

    The card cursor stays on a playable card (the first one if it was elsewhere); the button
    cursor is used only when no card may be played (the arrow keys then move between buttons).
    """
    in_hand = set(hand)
    cards = [a for a in legal if a in in_hand]
    buttons = [a for a in legal if a not in in_hand]
    if cards:
        if cursor is None or not 0 <= cursor < len(hand) or hand[cursor] not in cards:
            cursor = hand.index(cards[0])
    elif cursor is not None and cursor >= len(hand):
        cursor = None
    if buttons and not cards:
        if button_cursor is None or button_cursor >= len(buttons):
            button_cursor = 0
    else:
        button_cursor = None
    hand_keys = [(card_keys or {}).get(card, "") for card in hand]
    sequences = [choice_sequence(game, b, card_keys) for b in buttons]  # ``b5``: the card under 5, announced
    return Choices(list(hand), cards, buttons, sequences, cursor, button_cursor, hand_keys)
