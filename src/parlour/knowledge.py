"""What each seat may know of the pack on the table, read from the views alone.

Why a module of its own: two things must agree on it exactly.  The conformance kit's hidden-card
watch (``parlour.testing.HiddenCardWatch``) checks that no view shows a card its seat may not
know, and the review of a finished deal (``parlour.review``) shows a person only the cards the
deal's end made known to them, and computes no value from any other.  If the two read "known"
differently, a review could show what the watch would call a leak.

A card a seat **may know** in the current pack is one that was in its own hand at some point of
it, that an action of its own or a public action named (a card played, ``call AD``), or that was
**shown publicly**: at the same place, with the same value, in every seat's view (an upcard, a
trick, a spread hand, a winning meld).  Common knowledge is what the table shows everybody
alike, whereas a card leaked to one seat shows at that seat's own place, so no game has to
declare anything.  A deal summary (``last_deal``) is public too, but it belongs to the deal it
closes: :meth:`Knowledge.summary` takes it in once that deal is over.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .views import alike

#: Top-level view keys a scan of what a view shows skips: ``last_deal`` is a finished deal of
#: another pack (its cards are history), ``legal_actions`` names what the seat may do (``call AD``).
UNSCANNED = ("last_deal", "legal_actions")


class CardFinder:
    """Finds a pack's card codes inside strings (``"KC"``, ``"call KC"``, ``"KC+bella"``)."""

    def __init__(self, pack: Sequence[str]) -> None:
        self.pack = frozenset(pack)
        codes = sorted(self.pack, key=len, reverse=True)
        #: False for a pack with two equal cards: a code then does not say which card it is
        self.usable = bool(codes) and len(self.pack) == len(pack)
        alternatives = "|".join(re.escape(c) for c in codes) or "(?!x)x"
        self.regex = re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")
        self._found: dict[str, tuple[str, ...]] = {}

    def found(self, text: str) -> tuple[str, ...]:
        """The codes in ``text``, in order (remembered: the same strings come back often)."""
        cards = self._found.get(text)
        if cards is None:
            cards = tuple(self.regex.findall(text)) if self.usable else ()
            if len(self._found) < 100_000:
                self._found[text] = cards
        return cards

    def in_text(self, text: str) -> set[str]:
        return set(self.regex.findall(text)) if self.usable else set()

    def in_value(self, value: Any) -> set[str]:
        """The codes anywhere in a JSON-like value (its keys and strings)."""
        return self.in_text(json.dumps(value, ensure_ascii=False))

    def rename(self, action: str, mapping: dict[str, str]) -> str:
        return self.regex.sub(lambda m: mapping.get(m.group(0), m.group(0)), action)


def scanned(view: Mapping[str, Any]) -> dict[str, Any]:
    """A view without the keys a scan of what it shows skips (``UNSCANNED``)."""
    return {k: v for k, v in view.items() if k not in UNSCANNED}


class Knowledge:
    """The cards each seat may know of one pack so far (the module docstring), as it is followed.

    Feed it every position of the pack (:meth:`look`, with every seat's view) and every action
    (:meth:`act`); ``known[seat]`` is then what that seat may know.
    """

    def __init__(self, cards: CardFinder, num_players: int) -> None:
        self.cards = cards
        self.known: list[set[str]] = [set() for _ in range(num_players)]

    def look(self, views: Sequence[Mapping[str, Any]]) -> tuple[list[set[str]], list[set[str]]]:
        """Take in one position: what each view shows (``seen``) and each seat's hand, both as sets.

        Every seat comes to know its hand and what all views show alike; ``seen`` may hold more
        (a card shown at one seat's own place), which a checker compares with ``known``.
        """
        own: list[list[Any]] = [[] for _ in views]
        common = alike([scanned(v) for v in views], own, keep_shape=True)
        shown = self.cards.in_value(common)
        seen = [self.cards.in_value(mine) | shown for mine in own]
        hands = [set(v["hand"]) & self.cards.pack for v in views]
        for seat, known in enumerate(self.known):
            known |= hands[seat] | shown
        return seen, hands

    def act(self, actor: int | None, action: str, private: bool) -> None:
        """Take in an action: the cards it names become known to its actor, or to all if it is public."""
        named = set(self.cards.found(action))
        if private:
            if actor is not None:
                self.known[actor] |= named
        else:
            for known in self.known:
                known |= named

    def summary(self, summary: Mapping[str, Any]) -> None:
        """Take in the summary that closes the pack: every card it names is known to every seat."""
        named = self.cards.in_value(summary)
        for known in self.known:
            known |= named
