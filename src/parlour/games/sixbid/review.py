"""Six-Bid Solo's part in the review of a finished deal (``parlour.review``; hooks in ``review.moment``).

Information values are the ``strong`` player's own PIMC over deals consistent with the view,
weighted by the bidding, with a fixed number of samples, as the seat's chips from the deal.
With ``REVIEW_EXACT`` tricks left or fewer each sampled deal is solved exactly; before that,
and for every other decision (bids, trump, call, give-back), each option is played out by the
manual's rules to the last ``SOLVE_TRICKS`` tricks, which are solved (the player's own
``early_search`` evaluator, so the opening tricks get values too: in play ``strong`` plays them
by the manual's rules, which would give them none).  Why fewer exact tricks than in play: an
exact solve of nine tricks per sample costs up to a third of a second, and a deal's review
must take at most a few seconds (``bench/bench_review.py``).

Every deal is played to its eleventh trick and the widow is shown with its summary, so each
card is also valued in the deal as it lay (the exact solver, chips from the deal), from the
first trick on, within the review's node budget a decision (``review.judge.PERFECT_NODES``).
The opening lead is where it runs out, on the deals whose whole solve is hardest.
"""

from __future__ import annotations

from ...review.moment import Moment
from ...search.pimc import ActionValues
from .solver import action_values
from .strong import StrongBot

SAMPLES = 32
UNIT = "chips"
REVIEW_EXACT = 7
INFORMATION = "strong's search over {samples} deals consistent with what was seen and bid"
PERFECT = "every hand and the widow open, best play by all after it"


def strong(samples: int) -> StrongBot:
    """The strong player the information values are asked of: exactly ``samples`` a decision (its
    60 s budget is never what stops it), the opening tricks by play-outs (``early_search``)."""
    return StrongBot(think=60.0, min_samples=samples, max_samples=samples, exact_tricks=REVIEW_EXACT,
                     early_search=True)


def perfect(moment: Moment) -> ActionValues | None:
    pos = moment.state.open_position()  # type: ignore[attr-defined]
    if pos is None:
        return None
    return action_values(pos, moment.seat)
