"""Dealing the cards a Schafkopf seat cannot see, consistently with its view, and weighting the deals.

Why here: what a seat may know is the rules' business (``rules.py`` ``view()``), so drawing the
hidden cards belongs next to them.  The sampler reads the view ONLY: its hand, the bids, who is
soloist, every played card (``tricks`` and ``trick``, with the seat that played it), the hand
sizes, and — for the soloist alone — the skat he picked up and his own discard.  A defender never
sees the discard, so it stays a hidden bucket of its own for him; in a Ramsch (or during the
bidding) the skat is hidden from everyone.

Consistency:
- *voids*: a seat that did not follow the suit led (trumps when a trump was led) holds no card
  of that suit now; its current hand is drawn without them.  The discard and the skat are not
  bound by voids (they left the hand before the play).
- the hidden cards are split exactly into the buckets' sizes (the two other hands as they are
  now, plus the skat or the soloist's discard).

The draw is *exactly uniform* over all consistent deals: a small dynamic programme over the four
suits (trumps, clubs, spades, hearts) counts the ways to split each suit between the buckets
under the void constraints, and a draw walks it back (``_Splitter``).  Where the soloist's
skat is unknown (a defender's view), his original ten cards are the twelve he held after the
pick-up less a uniformly chosen pair.

Weights (the inference model for the bidding, documented here because it is the model):
every seat other than the viewer that has bid is assumed to bid like the easy player's rule
(``EasyBot.wants_skat``) with some noise: P(pick-up | hand) = 0.85 when the rule picks up,
0.15 when it misses by little (five or more trumps with two of the top eight), 0.03 otherwise;
P(pass) = 1 - P(pick-up).  A deal's weight is the product over those bids, so hands that would
not have bid as the others did count for little.  The play counts beyond the hard constraints
(voids) too (``search.inference``): each card another seat played when it had a choice
multiplies the weight by 1 if the easy play rule would have played it with the hand the sample
gives that seat, by ``PLAY_MISMATCH`` if not.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb
from typing import Any

from ...cards import bit_indices
from ...registry import load
from ...search.inference import cards_likelihood
from .bots import EasyBot
from .rules import BIT, INDEX, ORDER, SUIT_MASKS, SUIT_OF, pips_of
from .solver import Position

TOP8 = 0xFF
_EASY = EasyBot()  # the model of the others' card play (stateless: it reads only the view)


def pick_up_probability(hand: int) -> float:
    """The inference model: how likely a seat is to pick up with these ten cards (a mask)."""
    if EasyBot.wants_skat(bit_indices(hand)):
        return 0.85
    trumps = (hand & SUIT_MASKS[0]).bit_count()
    if trumps >= 5 and (hand & TOP8).bit_count() >= 2:
        return 0.15
    return 0.03


def bid_likelihood(bid: str, hand: int) -> float:
    p = pick_up_probability(hand)
    return p if bid == "pick-up" else 1.0 - p


@dataclass
class World:
    """One consistent deal: every seat's ten dealt cards, the skat, the discard, and the position now."""

    hands: list[int]  # as dealt, by seat
    skat: int
    discard: list[int]  # the soloist's discard in order ([] if none yet)
    position: Position | None  # the play position now (None before the play)


class _Splitter:
    """Uniform draws of the hidden cards into buckets of fixed sizes with per-suit bans."""

    def __init__(self, cards: int, sizes: list[int], banned: list[int]) -> None:
        # banned[b]: a mask of suits (bit g) bucket b may not receive
        self.groups = [bit_indices(cards & SUIT_MASKS[g]) for g in range(4)]
        self.sizes = sizes
        self.banned = banned
        nb = len(sizes)
        # table[g]: {(k0, k1, ...) filled after groups < g: ways}
        table: list[dict[tuple[int, ...], int]] = [{(0,) * nb: 1}]
        for g, group in enumerate(self.groups):
            nxt: dict[tuple[int, ...], int] = {}
            for filled, ways in table[-1].items():
                for split, w in self._splits(g, len(group), filled):
                    key = tuple(f + x for f, x in zip(filled, split, strict=True))
                    nxt[key] = nxt.get(key, 0) + ways * w
            table.append(nxt)
        self.table = table
        self.total = table[-1].get(tuple(sizes), 0)

    def _splits(self, g: int, n: int, filled: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Every way to give ``n`` cards of suit ``g`` to the buckets, with its count of card choices."""
        result: list[tuple[tuple[int, ...], int]] = []

        def rec(b: int, left: int, acc: tuple[int, ...], ways: int) -> None:
            if b == len(self.sizes) - 1:
                if left and self.banned[b] >> g & 1:
                    return
                if filled[b] + left <= self.sizes[b]:
                    result.append((acc + (left,), ways))
                return
            top = 0 if self.banned[b] >> g & 1 else min(left, self.sizes[b] - filled[b])
            for x in range(top + 1):
                rec(b + 1, left - x, acc + (x,), ways * comb(left, x))

        rec(0, n, (), 1)
        return result

    def draw(self, rng: random.Random) -> list[int] | None:
        if not self.total:
            return None
        target = tuple(self.sizes)
        buckets = [0] * len(self.sizes)
        for g in range(3, -1, -1):
            group = self.groups[g]
            options = []
            for split, w in self._splits(g, len(group), (0,) * len(self.sizes)):
                before = tuple(t - x for t, x in zip(target, split, strict=True))
                ways = self.table[g].get(before, 0) * w
                if ways:
                    options.append((split, before, ways))
            pick = rng.randrange(sum(o[2] for o in options))
            for option in options:
                if pick < option[2]:
                    break
                pick -= option[2]
            split, before, _ = option
            cards = list(group)
            rng.shuffle(cards)
            i = 0
            for b, x in enumerate(split):
                for c in cards[i:i + x]:
                    buckets[b] |= 1 << c
                i += x
            target = before
        return buckets


class Sampler:
    """Consistent, weighted deals for one view (built once per decision, drawn from many times)."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.seat = seat = view["seat"]
        self.dealer = view["dealer"]
        self.elder = view["elder"]
        self.soloist: int | None = view["soloist"]
        self.bids = [(s, b) for s, b in view["bids"]]
        self.hand = sum(BIT[c] for c in view["hand"])
        played = [0, 0, 0]
        voids = [0, 0, 0]  # suit bits each seat has shown it lacks
        winners: list[int] = []
        pips = [0, 0, 0]
        tricks = [0, 0, 0]
        for t in view["tricks"]:
            self._trick(t["cards"], played, voids)
            w = t["winner"]
            winners.append(w)
            tricks[w] += 1
            pips[w] += pips_of(sum(BIT[c] for _, c in t["cards"]))
        current = view["trick"]
        self._trick(current, played, voids)
        self.played = played
        self.voids = voids
        self.trick = [INDEX[c] for _, c in current]
        if current:
            self.leader = current[0][0]
        else:
            self.leader = winners[-1] if winners else self.elder
        self.pips = pips
        self.tricks = tricks
        order: tuple[int, ...] = ()
        for w in winners:
            order = tuple(s for s in order if s != w) + (w,)
        self.order = order
        self.own_discard = [INDEX[c] for c in view["discard"] or []] if seat == self.soloist else []
        self.own_skat = sum(BIT[c] for c in view["skat"] or []) if seat == self.soloist else 0
        known = self.hand | sum(played) | sum(1 << c for c in self.own_discard)
        self.hidden = ((1 << 32) - 1) & ~known
        sizes = view["hand_sizes"]
        self.others = [(seat + 1) % 3, (seat + 2) % 3]
        self.discards = 0
        if self.soloist is not None and self.soloist != seat:
            self.discards = 12 - sizes[self.soloist] - played[self.soloist].bit_count()
            extra = self.discards
        elif self.soloist is None:
            extra = 2  # the skat
        else:
            extra = 0
        bucket_sizes = [sizes[o] for o in self.others] + [extra]
        self.splitter = _Splitter(self.hidden, bucket_sizes, [voids[o] for o in self.others] + [0])

    @staticmethod
    def _trick(cards: list[list[Any]], played: list[int], voids: list[int]) -> None:
        if not cards:
            return
        led = SUIT_OF[INDEX[cards[0][1]]]
        for s, c in cards:
            i = INDEX[c]
            played[s] |= 1 << i
            if SUIT_OF[i] != led:
                voids[s] |= 1 << led

    def draw(self, rng: random.Random) -> tuple[World, float] | None:
        """A consistent deal and its weight (the likelihood of the others' bids), or None."""
        buckets = self.splitter.draw(rng)
        if buckets is None:
            return None
        seat, soloist = self.seat, self.soloist
        now = [0, 0, 0]
        now[seat] = self.hand
        now[self.others[0]], now[self.others[1]] = buckets[0], buckets[1]
        extra = buckets[2]
        dealt = [now[s] | self.played[s] for s in range(3)]
        discard: list[int] = []
        if soloist is None:
            skat = extra
        elif soloist == seat:
            skat = self.own_skat
            discard = list(self.own_discard)
            dealt[seat] = (dealt[seat] | sum(1 << c for c in discard)) & ~skat
        else:
            discard = bit_indices(extra)
            rng.shuffle(discard)
            twelve = dealt[soloist] | extra
            skat = sum(1 << c for c in rng.sample(bit_indices(twelve), 2))
            dealt[soloist] = twelve & ~skat
        weight = 1.0
        for s, bid in self.bids:
            if s != seat:
                weight *= bid_likelihood(bid, dealt[s])
        position = None
        if self.view["phase"] == "play":
            pips = list(self.pips)
            if soloist is not None:
                pips[soloist] += pips_of(sum(1 << c for c in discard))
            position = Position(now, self.leader, list(self.trick), soloist, self.dealer, pips, list(self.tricks),
                                self.order, skat if soloist is None else 0)
        world = World(dealt, skat, discard, position)
        if self.view["tricks"] or self.view["trick"]:
            weight *= self.play_likelihood(world)
        return world, weight

    def play_likelihood(self, world: World) -> float:
        """How likely the others' cards were under the easy play rule with the hands ``world`` gave them
        (``search.inference``; their bids are weighed by ``bid_likelihood``, and the soloist's discard,
        which a defender never sees, is not judged)."""
        state = load("schafkopf", **self.view.get("options", {})).new_state(
            seed=0, deck=self.deck(world), dealer=self.dealer)
        return cards_likelihood(state, self.actions(world), self.others, _EASY)

    # -- rebuilding a full engine state from a world (tests, and the playouts of strong.py) ----
    def deck(self, world: World) -> list[str]:
        """The pack in deal order that deals ``world`` (RULES.md "Deal": batches 3, skat 2, 4, 3)."""
        from .rules import SLOT
        by_slot = {0: bit_indices(world.hands[self.elder]), 1: bit_indices(world.hands[(self.dealer + 2) % 3]),
                   2: bit_indices(world.hands[self.dealer]), 3: bit_indices(world.skat)}
        return [ORDER[by_slot[s].pop()] for s in SLOT]

    def actions(self, world: World) -> list[str]:
        """The deal's actions so far, in order, as ``world`` makes them."""
        acts = [b for _, b in self.bids]
        acts += [ORDER[c] for c in world.discard]
        for t in self.view["tricks"]:
            acts += [c for _, c in t["cards"]]
        acts += [c for _, c in self.view["trick"]]
        return acts
