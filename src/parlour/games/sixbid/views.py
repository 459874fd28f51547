"""What a Six-Bid Solo view holds beyond the common keys (``parlour.views.BaseView``)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from ...views import BaseView, TrickView

Phase = Literal["bid", "declare", "call", "give", "play", "over"]


class Call(TypedDict):
    """The card the soloist called: who held it, and what was given back (seen only by the two)."""

    card: str
    holder: int | None
    in_widow: bool
    exchanged: bool
    given: str | None


class SixBidView(BaseView[Phase]):
    elder: int
    auction: list[list[Any]]  # [seat, word]
    bid: str | None
    high_bidder: int | None
    passed: list[int]
    soloist: int | None
    contract: str | None
    trump: str | None
    declared: bool
    target: int | None
    call: Call | None
    spread_hand: list[str] | None
    leader: int | None
    tricks: list[TrickView]
    tricks_won: list[int]
    pips_taken: list[int]
    cards_left: list[int]  # the same as hand_sizes, under this game's older name
    chips: list[int]


__all__ = ["Call", "Phase", "SixBidView"]
