""""Could I have won?": the review of a finished deal, in every interface.

For every decision of the seat reviewed the review gives the choice made; what ``strong``
would have chosen with exactly the same information (from that seat's view only, with a fixed
number of samples and randomness derived from the record's seed, so the same record always
gives the same review, byte for byte); what the choice cost in the game's unit under that
information; and, where the deal's end showed every card in play, each option's value with the
cards as they lay.  Then a verdict: the points lost in all and per decision, the three costliest
decisions, and an accuracy figure defined once for all games (``verdict.py``).

- ``walk.py``    one deal of a record walked through the house's one replay (``engine.replay``)
- ``judge.py``   each decision judged through the game's own hooks (``games/<g>/review.py``,
                 described in ``moment.py``), and what its person may see (honesty: there)
- ``verdict.py`` cost, loss, accuracy
- ``report.py``  the review as data and its JSON (``parlour review --json``)
- ``say.py``     the review in words (the terminal, line mode and ``parlour review``)
- ``worker.py``  a review worked out on a worker thread as soon as its deal ends, and kept
"""

from __future__ import annotations

from .judge import NoReview, review_deal
from .report import Review, dumps, game_dict
from .walk import NotOver

__all__ = ["NoReview", "NotOver", "Review", "dumps", "game_dict", "review_deal"]
