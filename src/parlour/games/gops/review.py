"""GOPS's part in the review of a finished deal (``parlour.review``; hooks in ``review.moment``).

GOPS is a game of mixed strategies: ``strong`` plays an equilibrium (exact once few cards are
left, depth-limited before), so what it "would have chosen" is its mix, and a card's value is
its best-response value against the other seat's equilibrium mix of the same matrix game
(``StrongBot.bid_values``): every card of the equilibrium mix is worth the game's value, and a
card outside it loses what the review calls its cost.  Nothing is sampled.

Both cards of a turn are shown when the turn ends, so each card is also valued against the card
the other seat actually played, the rest of the game by the same values (``PERFECT``).
"""

from __future__ import annotations

import random
from typing import Any

from ...review.moment import Moment, kept, likeliest
from ...search.pimc import ActionValues, Decision
from .strong import StrongBot

SAMPLES = 0  # nothing is sampled: the matrix game of each turn is solved
INFORMATION = "strong's equilibrium: each card against the other seat's equilibrium mix"
PERFECT = "against the card the other seat actually played (the rest of the game at its equilibrium value)"


def unit(options: dict[str, Any]) -> str:
    return "points" if options.get("scoring", "points") == "points" else "result (+1 a win, -1 a loss)"


def information(moment: Moment, rng: random.Random, samples: int = SAMPLES) -> Decision:
    bot = kept(("gops", "strong"), StrongBot)
    mix = bot.policy(moment.view)
    values = bot.bid_values(moment.view)
    return Decision(likeliest(mix), values, 0, 0.0, 0.0, {"mix": mix})


def perfect(moment: Moment) -> ActionValues | None:
    """Each card against the other seat's bid of the same turn (seat 0 bids first, seat 1 second)."""
    if moment.seat == 0:
        theirs = moment.after[1] if len(moment.after) > 1 else None
    else:
        theirs = moment.before[-1] if moment.before else None
    mine, others, rows = kept(("gops", "strong"), StrongBot).bid_matrix(moment.view)
    if theirs not in others:
        return None
    column = others.index(theirs)
    return {c: row[column] for c, row in zip(mine, rows, strict=True)}
