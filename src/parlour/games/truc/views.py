"""What a Le Truc view holds beyond the common keys (``parlour.views.BaseView``)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from ...views import BaseView, TrickView

Phase = Literal["call", "call-answer", "play", "offer-answer", "over"]


class TrucTrick(TrickView):
    """A trick of Le Truc: a spoiled (tied) trick has no winner."""

    spoiled: bool


class Offer(TypedDict):
    """An open offer: to double the stake ("double") or to play for the remainder ("remainder")."""

    by: int
    kind: Literal["double", "remainder"]
    stake: int | None
    needs: list[int] | None


class TrucView(BaseView[Phase]):
    opponent_cards: int
    tricks: list[TrucTrick]
    tricks_won: list[int]
    spoiled: list[str]
    first_trick_winner: int | None
    leader: int
    non_dealer: int
    stake: int
    offer: Offer | None
    offered: bool
    remainder: bool
    needs: list[int]
    target: int
    calls: int
    passes: int
    cards_left: int  # cards left in the pack (not in hands: see hand_sizes)
    round: int
    rounds_won: list[int]
    log: list[list[Any]]


__all__ = ["Offer", "Phase", "TrucTrick", "TrucView"]
