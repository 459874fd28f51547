"""Card codes and packs: what a card is, the packs the games deal, and checking a given deck.

A card is its two-character code, rank then suit (``"TH"``, ``"7C"``).  Codes are the
public currency of the engine API, so the helpers here work on codes.  Trick mechanics
(who may follow, who wins) are not here: every game's rules differ, so each game keeps
its own tables and its hot loops on small integers or bitmasks (``bit_indices``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .echo import shorten

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
#: A rank as a screen reader says it (``card_name``).
RANK_NAMES = {"2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight",
              "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}

#: A card code standing as a word in a sentence (``you do not hold AH``).
CARD_WORD = re.compile(r"\b([2-9TJQKA][CDHS])\b")
#: A suit named by its letter after a word that names suits (``trump C``, ``name H``, ``a card of S``);
#: not the first of a list of letters to type (``one of C D H S``)
_SUIT_WORD = re.compile(r"\b(trump|name|of|suit)( )([CDHS])\b(?! [CDHS]\b)")


def face(card: str) -> str:
    """``"TH"`` -> ``"10♥"``: ten is written out because that is how a card reads."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS[card[1]]


def card_name(card: str) -> str:
    """``"AS"`` -> ``"Ace of spades"``: a card as it is read out (the browser's labels for screen readers)."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def suit_symbols(text: str) -> str:
    """``trump C`` -> ``trump ♣``: a lone suit letter after a word that names a suit."""
    return _SUIT_WORD.sub(lambda m: m.group(1) + m.group(2) + SUIT_SYMBOLS[m.group(3)], text)


def pretty_action(action: str) -> str:
    """An action string or a sentence with its card codes shown as a person reads them
    (``call AS`` -> ``call A♠``, ``you do not hold TH`` -> ``you do not hold 10♥``).

    Why here, in plain text: the terminal table, line mode and the browser all show the engine's
    words to a person, and the codes are for typing only."""
    return suit_symbols(CARD_WORD.sub(lambda m: face(m.group(1)), action))


def card_words() -> dict[str, object]:
    """What a page needs to write cards and suits exactly as ``face``, ``suit_symbols`` and
    ``card_name`` do: the symbols, the names, each rank as a face shows it, and the two patterns
    (a card code standing as a word; a suit letter after a word that names suits).

    Why handed out rather than copied: the browser's script had its own copy of these rules, and
    a copy goes out of step (a list of letters to type became ``one of ♣ D H S`` there first).
    The patterns are written so that JavaScript reads them the same.
    """
    return {"suit_symbols": SUIT_SYMBOLS, "suit_names": SUIT_NAMES, "rank_names": RANK_NAMES,
            "rank_faces": {r: face(r + "C")[:-1] for r in RANKS},
            "card_word": CARD_WORD.pattern, "suit_word": _SUIT_WORD.pattern}


#: Six-Bid Solo and Schafkopf pips (Clobby has its own trump/plain tables).
PIPS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


#: ``_BYTE_BITS[k][b]``: the positions of the set bits of byte ``b`` when it is byte ``k`` of a mask
_BYTE_BITS = tuple(tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(8))


def bit_indices(mask: int) -> list[int]:
    """The positions of the set bits of ``mask`` (not negative), lowest first: the cards of a bitmask hand.

    Why here: every bitmask engine, sampler and solver walks a hand this way.  Why a byte at a
    time from tables: the strong players' play-outs walk tens of thousands of masks a decision,
    and this is twice as fast as a bit at a time on hands of a dozen cards or more.
    """
    out: list[int] = []
    k = 0
    while mask:
        byte = mask & 255
        if byte:
            out += _BYTE_BITS[k][byte] if k < 8 else [8 * k + i for i in _BYTE_BITS[0][byte]]
        mask >>= 8
        k += 1
    return out


def make_pack(ranks: str, suits: str = SUITS) -> list[str]:
    """A new pack in a fixed order (suit by suit, ranks as given): the unshuffled deck."""
    return [r + s for s in suits for r in ranks]


PACK_32 = tuple(make_pack("789TJQKA"))
PACK_36 = tuple(make_pack("6789TJQKA"))


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def is_card(code: str) -> bool:
    return len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def validate_deck(deck: object, pack: Sequence[str]) -> list[str]:
    """``deck`` as a list of codes if it is exactly ``pack`` in some order; a ``ValueError`` if not.

    Why so careful: a bad ``deck=`` must fail loudly, and a deck may come from a saved file, so
    anything at all can arrive here.  The length is checked first and the rest is linear, so a
    huge deck is refused at once; the message names at most a few short cards.
    """
    size = len(pack)
    if isinstance(deck, (str, bytes, bytearray)) or not isinstance(deck, Sequence):
        raise ValueError(f"deck must be a list of the {size} card codes, not {shorten(deck)}")
    if len(deck) != size:
        raise ValueError(f"deck must hold the {size}-card pack once each, not {len(deck)} cards")
    codes = []
    for card in deck:
        if not isinstance(card, str):
            raise ValueError(f"deck must be a list of card codes, not one holding {shorten(card)}")
        codes.append(card.upper() if len(card) == 2 else card)
    expected = set(pack)
    seen = set(codes)
    if seen == expected and len(seen) == size:
        return codes
    counts: dict[str, int] = {}
    for card in codes:
        counts[card] = counts.get(card, 0) + 1
    missing = [c for c in pack if c not in seen]
    extra = [shorten(c, 8) for c in counts if c not in expected]
    dupes = [c for c, n in counts.items() if n > 1 and c in expected]
    parts = []
    for label, cards in (("missing", missing), ("not in this pack", extra), ("repeated", dupes)):
        if cards:
            more = f" and {len(cards) - 8} more" if len(cards) > 8 else ""
            parts.append(f"{label} {' '.join(sorted(cards)[:8])}{more}")
    raise ValueError(f"deck must hold the {size}-card pack once each: " + "; ".join(parts))
