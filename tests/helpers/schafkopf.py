"""Schafkopf solver test helpers: deals played to a point (the old pure-Python solver they are
compared with is ``helpers.old_solvers``)."""

from __future__ import annotations

import random
from typing import Any

import parlour
from parlour.games.schafkopf.bots import EasyBot

GAME = parlour.load("schafkopf")


def first_card(seed: int, rng: random.Random) -> Any:
    """The deal of ``seed`` bid and discarded by the easy player, before elder's first card."""
    easy = EasyBot()
    state = GAME.new_state(seed=seed)
    while state.phase != "play":
        state.apply(easy.act(state.view(state.current_player), rng))
    return state


def solo_deals(count: int, seed: int = 0) -> list[tuple[int, Any]]:
    """The first ``count`` solo deals from seed ``seed + 1`` on, at the first card (Ramsch skipped)."""
    rng = random.Random(seed)
    out = []
    s = seed
    while len(out) < count:
        s += 1
        state = first_card(s, rng)
        if state.open_position().soloist is not None:
            out.append((s, state))
    return out
