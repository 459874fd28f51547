"""What a Clobby view holds beyond the common keys (``parlour.views.BaseView``)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from ...views import BaseView, TrickView

Phase = Literal["round 1", "round 2", "schmeiss", "name", "overcall", "dix", "play", "over"]


class Dix(TypedDict):
    """The answers at the dix (both players are asked) and who exchanged the 7 of trumps, if anyone."""

    answers: list[list[Any]]  # [seat, "exchange" | "keep"]
    exchanged_by: int | None


class Meld(TypedDict):
    cards: list[str]
    points: int


class ClobbyView(BaseView[Phase]):
    opponent_cards: int
    elder: int
    upcard: str | None  # None when clubs are preferred (no upcard)
    bid_suit: str
    bids: list[list[Any]]  # [seat, action]
    bidding_round: int
    trump: str | None  # a suit letter, "sans-tout" or "tout-atout"
    maker: int | None
    dix: Dix | None
    tricks: list[TrickView]
    meld_winner: int | None
    meld_tied: bool
    melds_compared: bool
    melds_shown: bool
    melds: list[list[Meld]]  # per seat
    bella: list[list[Any]]  # [seat, suit]
    points: list[int]
    game_point: int


__all__ = ["ClobbyView", "Dix", "Meld", "Phase"]
