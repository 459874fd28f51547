"""Which key picks which card or choice at the table: the OLD positional keys.

Superseded for the terminal table by ``parlour.text`` (``choice_key``/``CHOICE_KEYS``: one fixed
key per kind of choice, declared by each game; ``CardKeys``: keys bound to cards for the deal).
Kept only because ``parlour.web`` still imports it; it should move to ``parlour.text`` too.

Why these keys: the originals numbered the cards 1-9 and then A, B, C (Schafkopf's
soloist holds twelve; GOPS's thirteenth card simply gets D), and answered questions with
a letter.  Choices get the first letter of what they say (``t`` take, ``p`` pass, ``h``
for ``name H``), falling back to other letters of the word and then to digits, so a key
is stable for a given set of choices and never clashes with a card key while a card may
be played, nor with the table's own letter (``l``, the last trick).
"""

from __future__ import annotations

import string

from ..cards import is_card

CARD_KEYS = "123456789abcdefghijk"
#: Letters the table keeps for itself whatever the choices are.
TABLE_KEYS = frozenset({"l"})


def card_key(index: int) -> str:
    """The key of the ``index``-th card in the hand (0-based): 1..9, then a, b, c..."""
    return CARD_KEYS[index] if index < len(CARD_KEYS) else ""


def card_index(char: str, hand_size: int) -> int | None:
    """The hand position a typed character picks, or None."""
    char = char.lower()
    if not char or char not in CARD_KEYS:
        return None
    index = CARD_KEYS.index(char)
    return index if index < hand_size else None


def _words(action: str) -> list[str]:
    return action.replace("+", " ").split()


def assign_keys(actions: list[str], reserved: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """One distinct lowercase key per action, in order; '' if the alphabet runs out.

    A choice whose argument is a card (``call AS``) is numbered instead: a letter taken
    from a card code would be a poor mnemonic and there may be dozens of them.
    """
    taken = set(reserved) | TABLE_KEYS
    fallback = list("123456789" + string.ascii_lowercase)
    candidates: list[list[str]] = []
    numbered: list[bool] = []
    for action in actions:
        words = _words(action.lower()) or [action.lower()]
        numbered.append(is_card(words[-1].upper()) and len(words) > 1)
        if numbered[-1]:
            candidates.append(list(fallback))
        else:
            first = [words[-1][0], words[0][0]] if len(words) > 1 else [words[0][0]]
            candidates.append(first + [c for w in words for c in w if c.isalnum()] + fallback)
    keys = [""] * len(actions)
    # First every choice that can have its own initial gets it, so that one choice's fallback
    # (spread -> r) never steals a later choice's initial (pass -> p).
    for i, cands in enumerate(candidates):
        if not numbered[i] and cands[0] not in taken:
            keys[i] = cands[0]
            taken.add(cands[0])
    for i, cands in enumerate(candidates):
        if keys[i]:
            continue
        key = next((c for c in cands if c not in taken), "")
        if key:
            taken.add(key)
        keys[i] = key
    return keys
