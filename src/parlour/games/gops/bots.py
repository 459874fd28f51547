"""GOPS computer players: ``easy`` (a matching heuristic) and ``strong`` (equilibrium play).

``easy``: the seed's advice is "cheat or bluff like gangbusters", which a fair computer cannot
do, so it plays the classic matching policy instead: rank the stake (the turned diamond plus
any carried ones) against the diamonds still face down, and bid the card that sits at the
same place among its own remaining cards.  A little noise on that place keeps it from
being read exactly, and it avoids two known wastes: it never overbids the opponent's best
remaining card by more than needed, and it dumps its lowest card on a stake it cannot win.

Every GOPS player exposes ``policy(view) -> {card: probability}``, the mixed strategy its
``act`` samples, so ``gops.exploit`` can measure exactly how much a perfect opponent wins
against it.
"""

from __future__ import annotations

import math
import random
from typing import Any

from .rules import PRIZE_PACK, VALUE_OF


class EasyBot:
    name = "easy"

    def __init__(self, noise: float = 1.0) -> None:
        self.noise = noise

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        hand, centre, finish = self._plan(view)
        if len(hand) == 1:
            return hand[0]
        index = round(centre + rng.gauss(0.0, self.noise))
        return finish(hand[min(max(index, 0), len(hand) - 1)])

    def policy(self, view: dict[str, Any]) -> dict[str, float]:
        """The exact distribution of ``act``: the rounded normal noise, then the two corrections."""
        hand, centre, finish = self._plan(view)
        out: dict[str, float] = {}
        if len(hand) == 1:
            return {hand[0]: 1.0}
        last = len(hand) - 1
        for i, c in enumerate(hand):
            lo = -math.inf if i == 0 else (i - 0.5 - centre) / self.noise
            hi = math.inf if i == last else (i + 0.5 - centre) / self.noise
            p = _phi(hi) - _phi(lo)
            if p > 0.0:
                choice = finish(c)
                out[choice] = out.get(choice, 0.0) + p
        return out

    def _plan(self, view: dict[str, Any]) -> tuple[list[str], float, Any]:
        """The hand (low to high), the noise-free place to bid, and the corrections."""
        hand = sorted(view["legal_actions"], key=VALUE_OF.__getitem__)
        cards = view.get("turns", 13)
        stake = sum(VALUE_OF[c] for c in view["stake"])
        seen = set(view["stake"]).union(*view["won"])
        for turn in view["history"]:
            seen.update(turn["prizes"])
        unseen = [VALUE_OF[c] for c in PRIZE_PACK[:cards] if c not in seen]
        # Where this stake ranks among the stakes still to come (0 = the least, 1 = the best).
        below = sum(1 for v in unseen if v < stake) + 0.5 * sum(1 for v in unseen if v == stake)
        place = below / len(unseen) if unseen else 1.0
        opponent = [VALUE_OF[c] for c in view["opponent_hand"]]

        def finish(choice: str) -> str:
            if opponent:
                best_opp = max(opponent)
                if VALUE_OF[choice] > best_opp:
                    # Already a sure winner: win with the cheapest card that still beats everything.
                    return next(c for c in hand if VALUE_OF[c] > best_opp)
                if all(VALUE_OF[c] < min(opponent) for c in hand):
                    # Nothing can win this stake: spend the least useful card.
                    return hand[0]
            return choice

        return hand, place * (len(hand) - 1), finish


def _phi(z: float) -> float:
    """The standard normal distribution function."""
    if z == math.inf:
        return 1.0
    if z == -math.inf:
        return 0.0
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


#: The levels this game offers beyond ``random`` (see ``parlour.bots.make``); the strong player is
#: named, not imported, so that this module (and line mode) does not load the LP solver.
LEVELS: dict[str, Any] = {"easy": EasyBot, "strong": ".strong:StrongBot"}
