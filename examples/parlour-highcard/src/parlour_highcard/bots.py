"""High Card's computer players.  A bot sees only its seat's view, never the other hand."""

from __future__ import annotations

import random
from typing import Any

from .rules import STRENGTH


class EasyBot:
    """Lead the highest card; when following, win as cheaply as possible, or throw the lowest."""

    name = "easy"

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        legal: list[str] = sorted(view["legal_actions"], key=STRENGTH.__getitem__)
        trick = view["trick"]
        if not trick:
            return legal[-1]
        led: str = trick[0][1]
        winners = [c for c in legal if c[1] == led[1] and STRENGTH[c] > STRENGTH[led]]
        return winners[0] if winners else legal[0]


#: The levels this game offers beyond ``random`` (see ``parlour.bots.make``).
LEVELS = {"easy": EasyBot}
