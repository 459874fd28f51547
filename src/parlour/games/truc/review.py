"""Le Truc's part in the review of a finished deal (``parlour.review``; hooks in ``review.moment``).

Le Truc's ``strong`` player is a strategy table (CFR+, ``strong.py``): it has a mix for every
decision but no values.  A decision's values are worked out from it, from the deciding seat's
view only.  Suits never matter, so the other seat's unseen cards are taken by their ranks: every
rank multiset it may hold is weighed by how many hands give it (the cards the seat has not seen)
and by how likely the other's choices in this hand were with it under the same strategy (never
below ``FLOOR`` a choice: the other may be a person who plays otherwise).  That posterior is
exact; at most ``samples`` hands are then drawn from it (all of them when there are no more), the
rest of the pack dealt afresh for each, and each legal action is followed by both seats playing
the strategy to the deal's end, every branch of its mixes weighed exactly.  A value is the
seat's points from the deal minus the other's.

Nothing is valued with the cards as they lay (no ``perfect`` values): the unplayed cards of a
deal that ends before its third trick are never shown, and a number worked out from them would
tell whether a call was a bluff.  A deal whose pack ran out and was shuffled afresh is not
reviewed (its earlier packs' cards cannot be dealt again consistently with the view).
"""

from __future__ import annotations

import math
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
    worlds = _drawn(_posterior(moment, rng, bot), samples, rng)
    weight_sum = sum(w for _, w in worlds)
    if weight_sum <= 0:
        return None
    for world, weight in worlds:
        deals = len(world.deals)
        for action in legal:
            after = world.clone()
            after.apply(action)
            totals[action] += weight * _expected(after, moment.seat, bot, deals)
    mix = bot.policy(view)
    return Decision(likeliest(mix), {a: v / weight_sum for a, v in totals.items()}, len(worlds), weight_sum, 0.0,
                    {"mix": mix})


def perfect(moment: Moment) -> ActionValues | None:
    return None


def _posterior(moment: Moment, rng: random.Random, bot: StrongBot) -> list[tuple[State, float]]:
    """Every rank multiset the other seat may still hold, as a world of this deal up to the decision
    (its cards of those ranks, the rest of the pack dealt afresh), with its posterior weight."""
    view, seat = moment.view, moment.seat
    other = 1 - seat
    played = {s: [c for t in view["tricks"] for p, c in t["cards"] if p == s] + [c for p, c in view["trick"] if p == s]
              for s in (0, 1)}
    mine = list(view["hand"]) + played[seat]
    seen = set(mine) | set(played[other])
    unseen = [c for c in PACK_32 if c not in seen]
    by_rank: dict[str, list[str]] = {}
    for c in unseen:
        by_rank.setdefault(c[0], []).append(c)
    out = []
    for counts in _multisets([len(by_rank[r]) for r in by_rank], HAND - len(played[other])):
        held = [c for r, k in zip(by_rank, counts, strict=True) for c in by_rank[r][:k]]
        ways = math.prod(math.comb(len(by_rank[r]), k) for r, k in zip(by_rank, counts, strict=True))
        rest = [c for c in unseen if c not in held]
        rng.shuffle(rest)
        world = _world(moment, mine, played[other] + held, rest)
        out.append((world, ways * _replayed(world, moment.before, other, view["calls"], bot)))
    return out


def _multisets(available: list[int], size: int) -> list[list[int]]:
    """Every way to take ``size`` cards by rank, at most ``available[i]`` of rank ``i``: counts per rank."""
    if not available:
        return [[]] if size == 0 else []
    return [[k, *rest] for k in range(min(size, available[0]) + 1) for rest in _multisets(available[1:], size - k)]


def _drawn(worlds: list[tuple[State, float]], samples: int, rng: random.Random) -> list[tuple[State, float]]:
    """Every world when there are at most ``samples`` of weight; else ``samples`` drawn in proportion to
    their weights (systematic: evenly spaced from one random start), each then of equal weight."""
    worlds = [(w, p) for w, p in worlds if p > 0]
    if len(worlds) <= samples:
        return worlds
    total = sum(p for _, p in worlds)
    step = total / samples
    at = rng.random() * step
    drawn: list[tuple[State, float]] = []
    acc = 0.0
    for world, p in worlds:
        acc += p
        while at < acc and len(drawn) < samples:
            drawn.append((world, 1.0))
            at += step
    return drawn


def _world(moment: Moment, mine: list[str], theirs: list[str], rest: list[str]) -> State:
    """The deal dealt again with the seat's own cards, ``theirs`` for the other and ``rest`` for the
    hands set aside by calls and the pack still to come (this pack's position of the current hand)."""
    view = moment.view
    set_aside, rest = rest[:2 * HAND * view["calls"]], rest[2 * HAND * view["calls"]:]
    first, second = (mine, theirs) if moment.seat == view["non_dealer"] else (theirs, mine)
    pack = set_aside + [c for pair in zip(first, second, strict=True) for c in pair] + rest
    world = moment.start.clone()
    world.redeal(pack)
    world.seed = 0  # a pack shuffled later in the world is no pack of the game (its seed is not the game's)
    return world


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
