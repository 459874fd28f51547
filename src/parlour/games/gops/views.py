"""What a GOPS view holds beyond the common keys (``parlour.views.BaseView``)."""

from __future__ import annotations

from typing import Literal

from ...views import BaseView, TrickView

Phase = Literal["bid", "over"]


class Turn(TrickView):
    """One turn played: the prizes at stake, both bids, the winner (None on a tie), whether it carried."""

    prizes: list[str]
    carried: bool


class GopsView(BaseView[Phase]):
    opponent_hand: list[str]
    stake: list[str]
    prizes_left: int
    turn: int
    turns: int
    chosen: str | None
    opponent_chosen: bool
    won: list[list[str]]
    history: list[Turn]


__all__ = ["GopsView", "Phase", "Turn"]
