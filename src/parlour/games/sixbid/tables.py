"""Six-Bid Solo's trick rules as arrays, for the search kernel (``parlour.search.tricks``).

Why here: the follow rule (follow the suit led if able, else any card: no duty to trump or to
head), the trick winner (the highest trump, else the highest card of the led suit) and the
pips are the engine's own tables (``rules.SUIT_MASK``, ``rules.POWER``, ``rules.PIP``), put in
the kernel's shape once per trump (a suit, or ``NO_TRUMP`` for the misères).  Cards are the
engine's indices (suit * 9 + strength, strength 0 = six .. 8 = ace), so hands go from the
engine to the kernel as they are.

What is counted: :data:`PIPS` is the soloist's trick pips, for the trump contracts; the widow's
pips count for him too (RULES.md), but they are not in any trick, so the solver adds them at
the root (``solver.py``), where the scoring is.  :data:`NO_TRICK` counts tricks, for "take no
trick" (misère, spread): there the soloist maximises the tricks his *opponents* take (he is
safe when they take them all), so the solver counts their tricks with him as the side that
maximises (``TrickSolver``'s ``counted``), with :func:`misere_rules`.
"""

from __future__ import annotations

from functools import cache

from ...search.trick_rules import Objective, TrickRules
from .rules import NO_TRUMP, PIP, POWER, SUIT_MASK

NPLAYERS = 3
NCARDS = 36
#: the trump contracts' count: the pips of the cards in the tricks the side takes
PIPS = Objective(PIP)
#: the misères' count: tricks
NO_TRICK = Objective.tricks(NCARDS)


@cache
def trick_rules(trump: int, low_leads: bool = False) -> TrickRules:
    """The follow and trick rules with trump suit ``trump`` (0-3, or ``rules.NO_TRUMP``).

    ``low_leads``: the search tries low leads first (a misère's order, :func:`misere_rules`);
    else its generic order, high cards first."""
    low = [c % 9 for c in range(NCARDS)]
    return TrickRules(
        nplayers=NPLAYERS, ncards=NCARDS,
        follow=[SUIT_MASK[c // 9] for c in range(NCARDS)],
        head=[0] * NCARDS,
        ruff=[0] * NCARDS,
        power=[[POWER[trump][led // 9][c] for c in range(NCARDS)] for led in range(NCARDS)],
        group=[c // 9 for c in range(NCARDS)],
        rank=low,
        lead_order=(low, low) if low_leads else None,
        take_weakest=True,  # an ace or a ten heads its suit: the soloist takes with his cheapest taker first
    )


def misere_rules() -> TrickRules:
    """The misères' rules: no trump, the search's leads low first (each seat wants to lose the trick)."""
    return trick_rules(NO_TRUMP, low_leads=True)
