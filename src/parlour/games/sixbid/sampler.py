"""Dealing the cards a Six-Bid seat cannot see, consistently with its view, and weighting the deals.

Why from the view alone: the strong player must never know more than its seat.  What a seat
knows, read from ``rules.view``: its hand, every card played (``tricks`` and ``trick``, with
who played it: a seat that did not follow the led suit is void in it from then on — Six-Bid
has no duty to trump, so no other void is shown), the cards left in each hand, the spread
hand (face up from the first card of play), and in a call the called card's holder (public:
the card then sits with the soloist) or ``in_widow`` (it lies in the widow), plus the card
given back when the seat is the soloist or the holder.  Nobody sees the widow before the
deal ends.  Everything else is dealt at random: each unknown card goes to a hand that may
hold it (not void in its suit, room left) or to the widow, the most constrained cards first,
with probability proportional to the room left; a dead end (rare) starts the deal again.

For the third seat of a call the card given back is unknown: it is drawn uniformly from the
holder's cards since the exchange (held or played) — any card the soloist held may have been.

**Inference (the weight).** A sample's weight is the likelihood of the others' public choices
under a simple model of how they bid: each of their auction words and the soloist's trump
are what the easy policy (``bots.playable``, the manual's hand evaluation) would have said
with that hand with probability ``1 - NOISE``, any other legal word sharing ``NOISE``.  So a
seat that bid solo is dealt, in the weight, hands with a trump suit and aces and tens; one
that passed, hands without.  Their card play counts too (``search.inference``): each card
another seat played when it had a choice multiplies the weight by 1 if the easy play rule
would have played it with the hand the sample gives that seat, by ``CARD_MISMATCH`` if not.

A sample also carries the whole deal as a pack in dealing order (``deck``), the hands as they
were dealt, so the deal can be rebuilt with ``new_state(deck=..., dealer=...)`` and the
public actions replayed; ``tests/games/sixbid/test_strong.py`` checks that for random positions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ...registry import load
from ...search.inference import cards_likelihood
from .bots import EasyBot, playable
from .rules import BID_INDEX, BID_LEGAL, CODES, INDEX, NEXT, SUIT_MASK

#: how often the bidding model lets a seat say something else than the easy rule (and name another trump).
#: A sharper model (0.05 and 0.1) measured -1.0 +- 1.3 chips a deal against easy (95 %, paired, packs 1-500,
#: cpu:2), though it helped in Clobby (``clobby.sampler.MISMATCH``); here 0.2 already divides a contradicting
#: deal's weight by 4 to 24 (0.8 against 0.2 shared by the one to six other legal words)
NOISE = 0.2
DECLARE_NOISE = 0.3
#: what a card the easy play rule would not have played (from a choice) multiplies a deal's weight by: sharper
#: than the shared ``search.inference.PLAY_MISMATCH`` (0.4), as in Clobby (``clobby.sampler.CARD_MISMATCH``).
#: Measured against easy (cpu:2, paired against 0.4 on the same packs, 95 %): +0.5 +- 1.4 chips a deal on packs
#: 1-500, +1.6 +- 1.4 on packs 501-1,000, +1.1 +- 1.0 on both (+26.3 against +25.3; the cheater makes +52.1)
CARD_MISMATCH = 0.2
_EASY = EasyBot()  # the model of the others' card play (stateless: it reads only the view)


@dataclass
class World:
    """One consistent deal: current hands (masks), the widow (mask), the pack as dealt, the give-back."""

    hands: list[int]
    widow: int
    deck: list[str]
    given: int | None


def _mask(codes: list[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << INDEX[c]
    return m


def _codes(mask: int) -> list[str]:
    return [CODES[i] for i in range(36) if mask >> i & 1]


class Sampler:
    """What one view says about the hidden cards, worked out once per decision."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        me = self.me = view["seat"]
        self.dealer = view["dealer"]
        self.elder = view["elder"]
        self.soloist = view["soloist"]
        hand = _mask(view["hand"])
        played = [0, 0, 0]
        voids = [0, 0, 0]
        tricks = [t["cards"] for t in view.get("tricks") or []]
        if view.get("trick"):
            tricks.append(view["trick"])
        for cards in tricks:
            led = SUIT_MASK[INDEX[cards[0][1]] // 9]
            for seat, code in cards:
                bit = 1 << INDEX[code]
                played[seat] |= bit
                if not bit & led:
                    voids[seat] |= led
        self.played = played
        self.voids = voids
        counts = list(view["cards_left"])
        known = [0, 0, 0]  # cards known to be in each current hand
        known[me] = hand
        widow_known = 0
        self.called: int | None = None
        self.holder: int | None = None
        self.exchanged = False
        given: int | None = None
        call = view.get("call")
        if call is not None:
            c = self.called = INDEX[call["card"]]
            cbit = 1 << c
            self.holder = call["holder"]
            self.exchanged = bool(call["exchanged"])
            given = INDEX[call["given"]] if call.get("given") else None
            if call["in_widow"]:
                widow_known |= cbit
            elif self.exchanged:
                if not cbit & played[self.soloist]:
                    known[self.soloist] |= cbit
                if given is not None and not (1 << given) & played[self.holder]:
                    known[self.holder] |= 1 << given
            elif self.holder is not None:  # the give-back is still to come
                known[self.holder] |= cbit
        spread = view.get("spread_hand")
        if spread and self.soloist != me:
            known[self.soloist] = _mask(spread)
        self.given = given
        self.known = known
        self.widow_known = widow_known
        seen = hand | widow_known | played[0] | played[1] | played[2] | known[0] | known[1] | known[2]
        self.unknown = [i for i in range(36) if not seen >> i & 1]
        self.room = [counts[s] - known[s].bit_count() if s != me else 0 for s in range(3)]
        self.widow_room = 3 - widow_known.bit_count()
        # each unknown card: the places it may go (0, 1, 2 the seats; 3 the widow)
        self.places = []
        for i in self.unknown:
            bit = 1 << i
            self.places.append(tuple(s for s in range(3) if s != me and self.room[s] > 0 and not voids[s] & bit)
                               + (3,))

    # -- drawing ---------------------------------------------------------------------------
    def deal(self, rng: random.Random, tries: int = 50) -> World | None:
        """One random deal agreeing with the view (None if it found none in ``tries``)."""
        order = list(range(len(self.unknown)))
        for _ in range(tries):
            rng.shuffle(order)
            order.sort(key=lambda k: len(self.places[k]))
            room = [*self.room, self.widow_room]
            got = [*self.known, self.widow_known]
            ok = True
            for k in order:
                options = [p for p in self.places[k] if room[p] > 0]
                if not options:
                    ok = False
                    break
                total = sum(room[p] for p in options)
                x = rng.randrange(total)
                for p in options:
                    x -= room[p]
                    if x < 0:
                        break
                room[p] -= 1
                got[p] |= 1 << self.unknown[k]
            if ok and not any(room):
                return self._world(got[:3], got[3], rng)
        return None

    def _world(self, hands: list[int], widow: int, rng: random.Random) -> World:
        given = self.given
        if self.exchanged and given is None:
            holder = self.holder
            assert holder is not None
            pool = hands[holder] | self.played[holder]
            given = rng.choice([i for i in range(36) if pool >> i & 1])
        dealt = [hands[s] | self.played[s] for s in range(3)]
        if self.exchanged:
            assert self.called is not None and given is not None and self.holder is not None
            sol = self.soloist
            dealt[sol] = (dealt[sol] ^ (1 << self.called)) | (1 << given)
            dealt[self.holder] = (dealt[self.holder] ^ (1 << given)) | (1 << self.called)
        return World(hands, widow, deck_of(dealt, widow, self.dealer), given)

    # -- inference -------------------------------------------------------------------------
    def weight(self, world: World) -> float:
        """The likelihood of the others' auction words and trump under the bidding model."""
        view = self.view
        dealt = _dealt_hands(world.deck, self.dealer)
        codes = [_codes(dealt[s]) for s in range(3)]
        can = [playable(codes[s]) if s != self.me else {} for s in range(3)]
        w = 1.0
        level = -1
        for seat, word in view.get("auction") or []:
            legal = BID_LEGAL[level + 1]
            if seat != self.me:
                model = next((b for b in legal if b != "pass" and b in can[seat]), "pass")
                w *= (1 - NOISE) if word == model else NOISE / max(1, len(legal) - 1)
            if word != "pass":
                level = BID_INDEX[word]
        sol = self.soloist
        trump = view.get("trump")
        if sol is not None and sol != self.me and trump is not None and view.get("contract") in (
                "solo", "guarantee", "call"):
            wanted = can[sol].get(view["contract"])
            if wanted:
                w *= (1 - DECLARE_NOISE) if wanted == trump else DECLARE_NOISE / 3
        if view.get("tricks") or view.get("trick"):
            w *= self.play_likelihood(world)
        return w

    def play_likelihood(self, world: World) -> float:
        """How likely the others' cards were under the easy play rule with the hands ``world`` gave them
        (``search.inference``; their bids and trump are weighed above, by the finer bidding model)."""
        view = self.view
        state = load("sixbid", **view.get("options", {})).new_state(seed=0, deck=world.deck, dealer=self.dealer)
        actions = public_actions(view, CODES[world.given] if world.given is not None else None)
        others = [s for s in range(3) if s != self.me]
        return cards_likelihood(state, actions, others, _EASY, CARD_MISMATCH)

    def draw(self, rng: random.Random) -> tuple[World, float] | None:
        """A deal and its weight (the sampler Pimc wants)."""
        world = self.deal(rng)
        if world is None:
            return None
        return world, self.weight(world)


def deck_of(dealt: list[int], widow: int, dealer: int) -> list[str]:
    """The pack in dealing order that gives ``dealt`` (hands as dealt) and ``widow`` (rules._begin_deal)."""
    e = NEXT[dealer]
    n = NEXT[e]
    he, hn, hd, w = _codes(dealt[e]), _codes(dealt[n]), _codes(dealt[dealer]), _codes(widow)
    return (he[0:4] + hn[0:4] + hd[0:4] + he[4:7] + hn[4:7] + hd[4:7] + w
            + he[7:11] + hn[7:11] + hd[7:11])


def _dealt_hands(deck: list[str], dealer: int) -> list[int]:
    e = NEXT[dealer]
    n = NEXT[e]
    out = [0, 0, 0]
    out[e] = _mask(deck[0:4] + deck[12:15] + deck[24:28])
    out[n] = _mask(deck[4:8] + deck[15:18] + deck[28:32])
    out[dealer] = _mask(deck[8:12] + deck[18:21] + deck[32:36])
    return out


def public_actions(view: dict[str, Any], given: str | None) -> list[str]:
    """The deal's actions in order, from the view (``given``: the give-back, if any)."""
    out = [word for _, word in view.get("auction") or []]
    contract = view.get("contract")
    if contract in ("solo", "guarantee", "call") and view.get("declared") and view.get("trump"):
        out.append("trump " + view["trump"])
    call = view.get("call")
    if call is not None:
        out.append("call " + call["card"])
        if call["exchanged"]:
            assert given is not None
            out.append(given)
    for t in view.get("tricks") or []:
        out.extend(code for _, code in t["cards"])
    out.extend(code for _, code in view.get("trick") or [])
    return out
