"""Schafkopf's trick rules as arrays, for the search kernel (``parlour.search.tricks``).

Why here: the follow rule (the suit led, trumps one suit of fourteen), the trick winner and
the card pips are the engine's own tables (``rules.py``: ``FOLLOW_MASK``, ``POWER``,
``SUIT_OF``, ``PIP``), put in the kernel's shape once.  Schafkopf has one trump order for
every contract (the queens, the jacks, then the diamonds), so there is one :class:`TrickRules`;
what differs is what is counted:

- :data:`PIPS`: the soloist's pips from the cards still to be played.  His discard counts for
  him too, but it is in no hand, so the solver adds it at the root (``solver.py``), with the
  pips of the tricks already taken;
- :data:`TRICKS`: tricks instead of pips, for "all tricks" (+6) and "no trick" (-6).

A Ramsch (each for himself) is not a two-sided count; its search stays in ``solver.py``.
"""

from __future__ import annotations

from ...search.trick_rules import Objective, TrickRules
from .rules import FOLLOW_MASK, PIP, POWER, SUIT_OF

NPLAYERS = 3
NCARDS = 32

#: the one trick rule: follow the suit led (no duty to head or to trump), the POWER table wins
RULES = TrickRules(
    nplayers=NPLAYERS, ncards=NCARDS,
    follow=FOLLOW_MASK,
    head=[0] * NCARDS,
    ruff=[0] * NCARDS,
    power=POWER,
    group=SUIT_OF,
    rank=[POWER[c][c] for c in range(NCARDS)],  # within a suit (trumps are one) a lower number is higher
    # leads (measured with the old solver: the fewest nodes): the soloist draws trumps, high
    # first, then cashes aces; the defenders lead their aces, then low plain cards, trumps last
    lead_order=(tuple(c if c < 14 else (14 if PIP[c] == 11 else 20 + (c - 14) % 6) for c in range(NCARDS)),
                tuple(40 + c if c < 14 else (0 if PIP[c] == 11 else 10 - (c - 14) % 6) for c in range(NCARDS))),
)

#: the soloist's pips
PIPS = Objective(PIP)
#: the soloist's tricks
TRICKS = Objective.tricks(NCARDS)
