"""Card codes, packs and the trick mechanics every game shares.

A card is its two-character code, rank then suit (``"TH"``, ``"7C"``).  Codes are the
public currency of the engine API, so the helpers here work on codes; games that need
speed map codes to small integers once (``index_of``) and keep their hot loops on ints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .echo import shorten

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_NAMES = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
    "A": "ace",
}

#: Six-Bid Solo and Schafkopf pips (Clobby has its own trump/plain tables).
PIPS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def bit_indices(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first: the cards of a bitmask hand.

    Why here: every bitmask engine, sampler and solver walks a hand this way.
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
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


def parse_card(text: str) -> str:
    """Normalise user text to a card code (``"th"`` -> ``"TH"``, ``"10h"`` -> ``"TH"``)."""
    code = text.strip().upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    if not is_card(code):
        raise ValueError(f"{text!r} is not a card code (rank then suit, e.g. TH, 7C, AS)")
    return code


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


def sort_cards(cards: Iterable[str], key: Callable[[str], Any]) -> list[str]:
    return sorted(cards, key=key)


def display_key(suit_order: str, rank_order: str) -> Callable[[str], tuple[int, int]]:
    """Sort key grouping by suit (in ``suit_order``) and then high rank first (``rank_order`` high->low)."""
    s_index = {s: i for i, s in enumerate(suit_order)}
    r_index = {r: i for i, r in enumerate(rank_order)}
    return lambda c: (s_index[c[1]], r_index[c[0]])


def follow_suit(hand: Sequence[str], led_suit: str, suit_of: Callable[[str], str] = suit) -> list[str]:
    """Cards of ``hand`` that may be played when a player must follow ``led_suit`` if able.

    ``suit_of`` lets a game fold cards into another suit (Schafkopf's trumps are one suit).
    """
    same = [c for c in hand if suit_of(c) == led_suit]
    return same if same else list(hand)


def trick_winner(cards: Sequence[str], power: Callable[[str, str], int], suit_of: Callable[[str], str] = suit) -> int:
    """Index into ``cards`` (in play order) of the card that wins the trick.

    ``power(card, led_suit)`` ranks a card in the context of the led suit; a card that can
    never win (a discard of another plain suit) should get a power below every follower's.
    Ties go to the earlier card, which is what every game here wants.
    """
    led = suit_of(cards[0])
    best = 0
    best_power = power(cards[0], led)
    for i in range(1, len(cards)):
        p = power(cards[i], led)
        if p > best_power:
            best, best_power = i, p
    return best


def trump_power(trump: str | None, trump_order: str, plain_order: str,
                suit_of: Callable[[str], str] = suit) -> Callable[[str, str], int]:
    """The usual power function: trumps beat the led suit, which beats everything else.

    ``trump_order``/``plain_order`` list ranks high to low.
    """
    n = len(trump_order) + len(plain_order) + 2
    t_rank = {r: n * 2 - i for i, r in enumerate(trump_order)}
    p_rank = {r: n - i for i, r in enumerate(plain_order)}

    def power(card: str, led: str) -> int:
        s = suit_of(card)
        if trump is not None and s == trump:
            return t_rank[card[0]]
        if s == led:
            return p_rank[card[0]]
        return 0

    return power


def pretty(card: str, symbols: bool = True) -> str:
    """``"TH"`` -> ``"T♥"``; used by text interfaces only."""
    return card[0] + (SUIT_SYMBOLS[card[1]] if symbols else card[1])
