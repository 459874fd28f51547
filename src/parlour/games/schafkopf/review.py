"""Schafkopf's part in the review of a finished deal (``parlour.review``; hooks in ``review.moment``).

Information values are the ``strong`` player's own: PIMC over deals consistent with the view,
weighted by the bidding, with a fixed number of samples, as the seat's margin (its deal score
minus the mean of the other two's: a defender's is minus half the soloist's).  A bid or a
discard takes ``SLOW_SAMPLES`` (each sample values every option as ``strong`` does: the whole
deal solved, on the compiled core; a Ramsch whose solve passes ``strong.REVIEW_RAMSCH_NODES`` is
played out instead, so that a review never waits on a Ramsch's slow tail).

Every card of a deal is played but the soloist's discard, which stays face down for the
defenders (RULES.md); its pips are announced with the summary, and the solver needs only them
(the hands in play are all shown by the last trick), so each card is also valued in the deal as
it lay, from the first card, within the review's node budget a decision
(``review.judge.PERFECT_NODES``): a Ramsch's opening lead is where it can run out.
"""

from __future__ import annotations

from ...review.moment import Moment
from ...search.pimc import ActionValues
from .solver import action_values, position_from_state
from .strong import StrongBot

SAMPLES = 32
UNIT = "points"
SLOW_SAMPLES = 16
INFORMATION = "strong's search over {samples} deals consistent with what was seen and bid"
PERFECT = "every hand open (the discard's pips counted), best play by all after it"


def strong(samples: int) -> StrongBot:
    """The strong player the information values are asked of, with ``samples`` a card decision."""
    return StrongBot.counted(samples, max(1, samples * SLOW_SAMPLES // SAMPLES))


def perfect(moment: Moment) -> ActionValues | None:
    if moment.state.phase != "play":
        return None
    return action_values(position_from_state(moment.state))  # type: ignore[arg-type]
