"""The hand in the order its cards arrived, for when hand sorting is switched off.

Why the pack is consulted: a view lists the hand already sorted, so the order the cards
were dealt in is not in it; but the pack the deal was dealt from is (``current_pack``),
and a card dealt earlier lies nearer its top.  Cards that join the hand later in the deal
(a second round of dealing, the skat, a card received in an exchange) go to the right
end, the way a player slips a new card into the hand he holds.
"""

from __future__ import annotations

from collections.abc import Sequence


class ArrivalOrder:
    """Remembers the unsorted order of one seat's hand from view to view."""

    def __init__(self) -> None:
        self._order: list[str] = []
        self._deal_key: object = None

    def arrange(self, hand: Sequence[str], pack: Sequence[str], deal_key: object) -> list[str]:
        """``hand`` (any order) in arrival order; ``deal_key`` changes when a new deal starts."""
        position = {card: i for i, card in enumerate(pack)}
        if deal_key != self._deal_key:
            self._deal_key = deal_key
            self._order = []
        present = set(hand)
        kept = [c for c in self._order if c in present]
        known = set(kept)
        new = [c for c in hand if c not in known]
        new.sort(key=lambda c: (position.get(c, len(position)), hand.index(c)))
        self._order = kept + new
        return list(self._order)
