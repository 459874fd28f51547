"""Minimax through the engine: the reference the trick games' solvers are checked against.

Why one: the Clobby, Six-Bid and Schafkopf solver tests each walked the engine's legal actions
to the deal's end in a copy of their own; what differed was only who maximises and what the end
is worth, which are the arguments here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any


def engine_minimax(state: Any, maximiser: int, value: Callable[[Any], float],
                   alpha: float = -math.inf, beta: float = math.inf) -> float:
    """``value(state)`` at the end of the first deal under best play, by alpha-beta over the
    engine's own legal actions (each on a clone): ``maximiser`` maximises it, every other seat
    minimises it (a soloist's two opponents, or a Ramsch's paranoid root against the other two)."""
    if state.deals:
        return value(state)
    maxing = state.current_player == maximiser
    best = -math.inf if maxing else math.inf
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        v = engine_minimax(child, maximiser, value, alpha, beta)
        if maxing:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best
