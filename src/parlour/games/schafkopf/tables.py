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

- :data:`RAMSCH`: each for himself, the kernel's ``LOWEST`` scoring (its value depends on every
  seat's pips and the order of the tricks, so it is a scoring mode, not a count).
"""

from __future__ import annotations

import dataclasses

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

#: a Ramsch's leads (nobody wants a trick): plain cards before trumps, the fewest pips and the
#: lowest first (measured on whole Ramsch deals: a fifth fewer nodes than the solo's order)
_RAMSCH_LEADS = tuple((100 if RULES.trumps(c) else 0) + 10 * PIP[c] - POWER[c][c] for c in range(NCARDS))
RAMSCH_RULES = dataclasses.replace(RULES, lead_order=(_RAMSCH_LEADS, _RAMSCH_LEADS))

#: the soloist's pips
PIPS = Objective(PIP)
#: the soloist's tricks
TRICKS = Objective.tricks(NCARDS)
#: a Ramsch (RULES.md): every trick -4, no trick +4, the fewest pips +2 (the skat to the last trick)
RAMSCH = Objective.lowest(PIP, all_tricks=-4, no_trick=4, fewest=2)
