"""Le Truc's part in the review of a finished deal (``parlour.review``; hooks in ``review.moment``).

Le Truc's ``strong`` player is a strategy table (CFR+, ``strong.py``): it has a mix for every
decision but no values.  A decision's values are worked out from it, from the deciding seat's
view only: ``samples`` times, the cards the seat has not seen are dealt afresh (the other's hand,
the hands set aside by calls, the rest of the pack), weighted by how likely the other's choices
in this hand were under the same strategy (never below ``FLOOR``: the other may be a person
who plays otherwise), and each legal action is followed by both seats playing the strategy to
the deal's end, every branch of its mixes weighed exactly.  A value is the seat's points from
the deal minus the other's.

Nothing is valued with the cards as they lay (no ``perfect`` values): the unplayed cards of a
deal that ends before its third trick are never shown, and a number worked out from them would
tell whether a call was a bluff.  A deal whose pack ran out and was shuffled afresh is not
reviewed (its earlier packs' cards cannot be dealt again consistently with the view).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...cards import PACK_32
from ...engine import State
from ...review.moment import Moment, kept, likeliest
from ...search.pimc import ActionValues, Decision
from .strong import StrongBot

SAMPLES = 24
UNIT = "points"
#: the least weight one choice of the other seat gives a world (the strategy may never make it)
FLOOR = 0.02
#: a branch of a mix less likely than this is left out (and the others' weights renormalised)
PRUNE = 0.01
HAND = 3
INFORMATION = ("strong's strategy played on by both over {samples} hands consistent with what was seen, "
               "weighted by how likely the other's choices were under it")
PERFECT = ""



def information(moment: Moment, rng: random.Random, samples: int = SAMPLES) -> Decision | None:
    view = moment.view
    if view["passes"]:
        return None
    bot = kept(("truc", "strong"), StrongBot)
    legal = moment.legal
    totals = dict.fromkeys(legal, 0.0)
    weight_sum = 0.0
    for _ in range(samples):
        world, weight = _world(moment, rng, bot)
        weight_sum += weight
        deals = len(world.deals)
        for action in legal:
            after = world.clone()
            after.apply(action)
            totals[action] += weight * _expected(after, moment.seat, bot, deals)
    if weight_sum <= 0:
        return None
    mix = bot.policy(view)
    return Decision(likeliest(mix), {a: v / weight_sum for a, v in totals.items()}, samples, weight_sum, 0.0,
                    {"mix": mix})


def perfect(moment: Moment) -> ActionValues | None:
    return None


def _world(moment: Moment, rng: random.Random, bot: StrongBot) -> tuple[State, float]:
    """The deal rebuilt with every card the seat has not seen dealt afresh, up to this decision,
    and how likely the other seat's choices in this hand were in it."""
    view, seat = moment.view, moment.seat
    played = {s: [c for t in view["tricks"] for p, c in t["cards"] if p == s] + [c for p, c in view["trick"] if p == s]
              for s in (0, 1)}
    mine = list(view["hand"]) + played[seat]
    seen = set(mine) | set(played[1 - seat])
    unseen = [c for c in PACK_32 if c not in seen]
    rng.shuffle(unseen)
    theirs = played[1 - seat] + unseen[:HAND - len(played[1 - seat])]
    rest = unseen[HAND - len(played[1 - seat]):]
    set_aside, rest = rest[:2 * HAND * view["calls"]], rest[2 * HAND * view["calls"]:]
    non_dealer = view["non_dealer"]
    first, second = (mine, theirs) if seat == non_dealer else (theirs, mine)
    pack = set_aside + [c for pair in zip(first, second, strict=True) for c in pair] + rest
    world = moment.start.clone()
    world.redeal(pack)
    world.seed = rng.getrandbits(128)  # a pack shuffled later in the world is no pack of the game
    return world, _replayed(world, moment.before, 1 - seat, view["calls"], bot)


def _replayed(world: State, actions: Sequence[str], other: int, calls: int, bot: StrongBot) -> float:
    """Make ``actions`` on ``world``; the likelihood of ``other``'s among them in the current hand."""
    weight = 1.0
    for action in actions:
        if world.current_player == other:
            theirs = world.view(other)
            if theirs["calls"] == calls and len(theirs["legal_actions"]) > 1:
                weight *= max(FLOOR, bot.policy(theirs).get(action, 0.0))
        world.apply(action)
    return weight


def _expected(state: State, seat: int, bot: StrongBot, deals: int) -> float:
    """``seat``'s points minus the other's from the deal, both playing ``bot``'s strategy from ``state``."""
    if len(state.deals) > deals:
        scores = state.deals[deals]["scores"]
        return float(scores[seat] - scores[1 - seat])
    mover = state.current_player
    assert mover is not None
    mix = {a: p for a, p in bot.policy(state.view(mover)).items() if p >= PRUNE}
    total = sum(mix.values())
    value = 0.0
    for action, p in mix.items():
        after = state.clone()
        after.apply(action)
        value += p * _expected(after, seat, bot, deals)
    return value / total
