"""The hand as the table shows it: in the order its cards arrived (or sorted), and its keys.

Why the pack is consulted: a view lists the hand already sorted, so the order the cards
were dealt in is not in it; but the pack the deal was dealt from is (``current_pack``),
and a card dealt earlier lies nearer its top.  Cards that join the hand later in the deal
(a second round of dealing, the skat, a card received in an exchange) go to the right
end, the way a player slips a new card into the hand he holds.

Why ``ShownHand.from_record``: the keys (``parlour.text.CardKeys``) depend on every hand the
deal has shown so far, and a resumed game or an undo has only the record to go on; so the
record's current deal is walked again, hand by hand, rather than trusting what one session
remembered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import State, effective_actions, replay
from ..text import CardKeys


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


class ShownHand:
    """One seat's hand from view to view: the order shown (sorted or as dealt) and its card keys."""

    def __init__(self, game: str) -> None:
        self.arrival = ArrivalOrder()
        self.keys = CardKeys(game)

    def show(self, view: dict[str, Any], pack: Sequence[str], sort: bool) -> tuple[list[str], dict[str, str]]:
        """The hand of ``view`` in the order shown, and card -> key (bound again if cards joined)."""
        hand = list(view.get("hand") or [])
        deal = (view.get("deal_number"), tuple(pack))
        arranged = self.arrival.arrange(hand, pack, deal)
        shown = hand if sort else arranged
        return shown, self.keys.assign(shown, deal)

    @property
    def rebound(self) -> bool:
        """Whether the last ``show`` bound the hand's keys again (cards joined it)."""
        return self.keys.rebound

    @classmethod
    def from_record(cls, state: State, seat: int, sort: bool) -> ShownHand:
        """The hand of ``seat`` followed through the current deal of ``state``'s record.

        Only the standing actions count (an undone move never showed its hand for good), and
        the hand is ordered as ``sort`` says now: a hand sorted differently since the last card
        joined is the one case a resume cannot know, and it then keys the hand as shown now.
        """
        shown = cls(state.game.name)
        walk = state.fresh_copy()
        deals, pack = len(state.deals), state.current_pack()

        def look() -> None:
            if len(walk.deals) == deals and walk.current_pack() == pack:
                shown.show(dict(walk.view(seat)), pack, sort)

        look()
        for _ in replay(walk, effective_actions(state.actions)):
            look()
        return shown
