"""GOPS easy player: bid in proportion to what is at stake.

The seed's advice is "cheat or bluff like gangbusters", which a fair computer cannot do,
so it plays the classic matching policy instead: rank the stake (the turned diamond plus
any carried ones) against the diamonds still face down, and bid the card that sits at the
same place among its own remaining cards.  A little noise on that place keeps it from
being read exactly, and it avoids two known wastes: it never overbids the opponent's best
remaining card by more than needed, and it dumps its lowest card on a stake it cannot win.
"""

from __future__ import annotations

import random
from typing import Any

from .rules import PRIZE_PACK, VALUE_OF


class EasyBot:
    name = "easy"

    def __init__(self, noise: float = 1.0) -> None:
        self.noise = noise

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        hand = sorted(view["legal_actions"], key=VALUE_OF.__getitem__)
        if len(hand) == 1:
            return hand[0]
        stake = sum(VALUE_OF[c] for c in view["stake"])
        seen = set(view["stake"]).union(*view["won"])
        for turn in view["history"]:
            seen.update(turn["prizes"])
        unseen = [VALUE_OF[c] for c in PRIZE_PACK if c not in seen]
        # Where this stake ranks among the stakes still to come (0 = the least, 1 = the best).
        below = sum(1 for v in unseen if v < stake) + 0.5 * sum(1 for v in unseen if v == stake)
        place = below / len(unseen) if unseen else 1.0
        index = round(place * (len(hand) - 1) + rng.gauss(0.0, self.noise))
        index = min(max(index, 0), len(hand) - 1)
        choice = hand[index]

        opponent = [VALUE_OF[c] for c in view["opponent_hand"]]
        if opponent:
            best_opp = max(opponent)
            mine = VALUE_OF[choice]
            if mine > best_opp:
                # Already a sure winner: win with the cheapest card that still beats everything.
                choice = next(c for c in hand if VALUE_OF[c] > best_opp)
            elif all(VALUE_OF[c] < min(opponent) for c in hand):
                # Nothing can win this stake: spend the least useful card.
                choice = hand[0]
        return choice


#: The levels this game offers beyond ``random`` (see ``parlour.bots.make``).
LEVELS = {"easy": EasyBot}
