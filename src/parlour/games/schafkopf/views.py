"""What a Schafkopf view holds beyond the common keys (``parlour.views.BaseView``)."""

from __future__ import annotations

from typing import Any, Literal

from ...views import BaseView, TrickView

Phase = Literal["bid", "discard", "play", "over"]


class SchafkopfView(BaseView[Phase]):
    elder: int
    bids: list[list[Any]]  # [seat, "pass" | "pick-up"]
    soloist: int | None
    ramsch: bool
    skat_on_table: bool
    discard: list[str] | None  # the soloist's own discard, shown to him only
    skat: list[str] | None  # the skat he picked up, shown to him only
    tricks: list[TrickView]
    tricks_won: list[int]
    pips_won: list[int]
    target: int


__all__ = ["Phase", "SchafkopfView"]
