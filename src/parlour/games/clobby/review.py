"""Clobby's part in the review of a finished deal (``parlour.review``; hooks in ``review.moment``).

Information values are the ``strong`` player's own: PIMC over deals consistent with the view,
each solved exactly, as the seat's margin (its deal score minus the opponent's), with a fixed
number of samples.  With every card shown by the deal's end (a deal played to its ninth trick:
all eighteen cards), each card is also valued in the deal as it lay, by the same exact solver.
"""

from __future__ import annotations

from ...review.moment import Moment, kept
from ...search.pimc import ActionValues
from .solver import Position, Solver, action_values
from .strong import StrongBot

#: sampled deals per card decision (a bid takes ``BID_SAMPLES``: each is a whole deal's solve per option)
SAMPLES = 64
UNIT = "points"
BID_SAMPLES = 16
INFORMATION = "strong's search over {samples} deals consistent with what was seen (each solved exactly)"
PERFECT = "every hand open, best play by both after it"


def strong(samples: int) -> StrongBot:
    """The strong player the information values are asked of, with ``samples`` a card decision."""
    return StrongBot.counted(samples, max(1, samples * BID_SAMPLES // SAMPLES))


def perfect(moment: Moment) -> ActionValues | None:
    if moment.state.phase != "play":
        return None
    pos = Position.from_state(moment.state)  # type: ignore[arg-type]
    solvers: dict[int, Solver] = kept(("clobby", "solvers"), dict)
    solver = solvers.get(pos.mode) or solvers.setdefault(pos.mode, Solver(pos.mode))
    return action_values(pos, solver)
