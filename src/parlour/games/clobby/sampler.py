"""Deal the cards a Clobby seat cannot see, consistently with its view, and weigh each deal.

Why a whole pack: a sample is a pack in the deal's own order (RULES.md's deal positions), so
that the deal can be rebuilt with ``new_state(deck=pack, dealer=...)`` and its public actions
replayed — the bidding simulations of the strong player do exactly that, and the tests check
every sample that way (legal at every step, the seat's view unchanged).

What a seat knows, and how each fact becomes a constraint (everything comes from ``view``):

- its hand and every card played (by whom); the upcard, which lies under the stock unless
  someone exchanged it for the 7 of trumps (public), and then the exchanger held that 7 and
  holds the upcard until he plays it;
- voids: an opponent who did not follow suit holds none of the led suit, and one who neither
  followed nor trumped (trumps in a plain suit) holds no trump; one who followed a trump (or
  any suit at tout atout) without beating it holds no higher card of that suit;
- the meld comparison (who has the top meld, or a tie) and, after the first trick, the
  winner's melds as shown: the opponent's start-of-play hand must give the same comparison
  and show exactly the same runs;
- bella announcements need no constraint: they are replayed on the card that made them.

Cards never leave a hand except by being played, so constraints on the opponent's hand at
any earlier time are constraints on his current hand plus his played cards.

Weights (the inference model, deliberately simple): the opponent is modelled as the ``easy``
player's bidding rule (the manual's notes — also what a sensible human does).  Each of his
bids, and his dix answer when he held the 7, multiplies the weight by 1 if the easy rule
would have made that call with his sampled first six cards (nine at the dix), and by
``MISMATCH`` (0.03) if not — never 0, because a strong or human opponent does not follow the
notes exactly.  Each card he played (when he had a choice) multiplies it by 1 if the easy play
rule would have played it with his sampled hand, and by ``CARD_MISMATCH`` (0.2) if not: softer,
as the play rules leave more to judgement than the bidding notes.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from ...cards import bit_indices
from ...search.inference import replayed_likelihood
from .rules import (
    CODE,
    INDEX,
    R_SEVEN,
    SANS,
    SUIT_MASK,
    TOUT,
    TRUMP_STRENGTH,
    meld_key,
    runs,
    shown_cards,
)

#: what a bid or dix answer the easy rule would not have made multiplies a sample's weight by.  Measured
#: against easy (cpu:2, paired, the same code with 0.15): +0.5 +- 1.2 points a deal (95 %) on packs 1-500,
#: +0.5 +- 0.7 on packs 501-1,000, +0.49 +- 0.67 over the 1,000.  Small, but the same way twice: each
#: contradicted bid is 33 times less likely, not 7.  Against a player who strays from the notes more than
#: easy (a human), a sharper factor trusts his bids more than they deserve; 0.03 keeps every deal drawable.
#: Against such a player the sharpening (this and ``CARD_MISMATCH``) showed no cost: against the pre-core
#: strong (``bench_strong_vs_old.py``, packs 1-500, cpu:2, alone, two unpaired runs), the old pair 0.15 and
#: 0.4 made +0.65 +- 2.88 points a deal (95 %), these +0.94 +- 2.87
MISMATCH = 0.03
#: the same for a card played when he had a choice.  Sharper than the shared
#: ``search.inference.PLAY_MISMATCH`` (0.4), measured against easy with ``MISMATCH`` at 0.03 (cpu:2, paired
#: with 0.4 on packs 1-1,000): +0.29 +- 0.47 points a deal (95 %); 0.2 and 0.03 against the old 0.4 and 0.15:
#: +0.77 +- 0.78.  Sharper still, 0.1 with ``MISMATCH`` at 0.01, made -0.3 +- 0.9 against these (packs 1-500).
#: Six-Bid took 0.2 too, measured there (``sixbid.sampler.CARD_MISMATCH``); Schafkopf keeps 0.4 (0.2 measured
#: level there: ``search.inference.PLAY_MISMATCH``)
CARD_MISMATCH = 0.2
#: after this many draws of 200 tries each found no hand with the right meld comparison, the
#: meld constraint is dropped (voids and known cards still hold) so a decision never stalls;
#: it takes a meld beaten only by a rare long run, and never happened in the tests
RELAX_AFTER = 3
TRUMP_OF = {"C": 0, "D": 1, "H": 2, "S": 3, "sans-tout": SANS, "tout-atout": TOUT}


def _mask(codes: list[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << INDEX[c]
    return m


def positions(elder: bool, clubs: bool) -> tuple[list[int], list[int]]:
    """A seat's pack positions: its first six cards and its three of the second deal."""
    base = 12 if clubs else 13
    if elder:
        return [0, 1, 2, 6, 7, 8], [base, base + 2, base + 4]
    return [3, 4, 5, 9, 10, 11], [base + 1, base + 3, base + 5]


def public_actions(view: dict[str, Any]) -> list[str]:
    """The deal's actions so far, rebuilt from the view: bids, dix answers, cards (with +bella)."""
    actions = [a for _, a in view["bids"]]
    if view.get("dix"):
        actions += [a for _, a in view["dix"]["answers"]]
    cards: list[tuple[int, str]] = []
    for t in view["tricks"]:
        cards += [(s, c) for s, c in t["cards"]]
    cards += [(s, c) for s, c in view["trick"]]
    pending = {(s, suit) for s, suit in view["bella"]}
    seen_kq: dict[tuple[int, str], int] = {}
    for s, c in cards:
        a = c
        if c[0] in "KQ" and (s, c[1]) in pending:
            k = seen_kq.get((s, c[1]), 0) + 1
            seen_kq[(s, c[1])] = k
            if k == 2:
                a = c + "+bella"
        actions.append(a)
    return actions


class World(NamedTuple):
    """One consistent deal: the whole pack in deal order, and the opponent's current hand (a mask)."""

    pack: list[str]
    opponent: int


class Sampler:
    """Everything one view says about the hidden cards, and a method that deals them.

    ``easy``: the model of the opponent's bidding that weighs a deal (the easy player by default)."""

    def __init__(self, view: dict[str, Any], easy: Any = None) -> None:
        self.view = view
        self.easy = easy
        seat = self.seat = view["seat"]
        opp = self.opp = 1 - seat
        self.elder = view["elder"]
        opts = view["options"]
        self.clubs = bool(opts.get("clubs_preferred"))
        self.up = INDEX[view["upcard"]] if view.get("upcard") else -1
        trump = view.get("trump")
        self.mode = TRUMP_OF[trump] if trump is not None else -1
        self.fixed = trump is not None
        hand = _mask(view["hand"])
        played = [0, 0]
        cards: list[tuple[int, str]] = []
        for t in view["tricks"]:
            cards += [(s, c) for s, c in t["cards"]]
        cards += [(s, c) for s, c in view["trick"]]
        for s, c in cards:
            played[s] |= 1 << INDEX[c]
        self.hand, self.played = hand, played
        self.opp_size = view["hand_sizes"][opp]
        dix = view.get("dix") or {}
        ex = dix.get("exchanged_by") if dix else None
        seven = (self.up & ~7) | R_SEVEN if self.up >= 0 else -1
        self.seven = seven
        self.exchanged_by = ex
        known_opp = 0  # cards certainly in the opponent's current hand
        out = 0  # cards in no hand: the upcard under the stock, an exchanged 7
        if self.up >= 0:
            if ex is None:
                out |= 1 << self.up
            else:
                out |= 1 << seven
                if ex == opp and not played[opp] >> self.up & 1:
                    known_opp |= 1 << self.up
        # the meld winner's shown runs
        self.meld_winner = view.get("meld_winner")
        self.meld_tied = view.get("meld_tied", False)
        self.compared = view.get("melds_compared", False)
        self.shown = view.get("melds_shown", False)
        self.opp_melds = view["melds"][opp] if self.shown else []
        for meld in self.opp_melds:
            for c in meld["cards"]:
                if not played[opp] >> INDEX[c] & 1:
                    known_opp |= 1 << INDEX[c]
        self.known_opp = known_opp
        self.forbidden = self._voids(cards) & ~known_opp
        self.pool = ((1 << 32) - 1) & ~hand & ~played[0] & ~played[1] & ~out & ~known_opp
        self.failures = 0

    def _voids(self, cards: list[tuple[int, str]]) -> int:
        """Cards the opponent cannot hold now, from how he followed."""
        mode, opp = self.mode, self.opp
        forbid = 0
        for i in range(0, len(cards) - 1, 2):
            (_, lead), (fs, fol) = cards[i], cards[i + 1]
            if fs != opp:
                continue
            a, b = INDEX[lead], INDEX[fol]
            sa, sb = a >> 3, b >> 3
            if sb != sa:
                forbid |= SUIT_MASK[sa]
                if 0 <= mode < 4 and sa != mode and sb != mode:
                    forbid |= SUIT_MASK[mode]
            elif mode == TOUT or sa == mode:
                if TRUMP_STRENGTH[b & 7] < TRUMP_STRENGTH[a & 7]:
                    forbid |= sum(1 << ((a & ~7) | r) for r in range(8) if TRUMP_STRENGTH[r] > TRUMP_STRENGTH[a & 7])
        return forbid

    # -- dealing --------------------------------------------------------------------------
    def opponent_hand(self, rng: random.Random, tries: int = 200) -> int | None:
        """The opponent's current hand, consistent with the voids and melds (None if none found)."""
        need = self.opp_size - bin(self.known_opp).count("1")
        allowed = bit_indices(self.pool & ~self.forbidden)
        if need > len(allowed):
            return None
        relaxed = self.failures >= RELAX_AFTER
        for _ in range(tries):
            h = self.known_opp
            for c in rng.sample(allowed, need):
                h |= 1 << c
            if relaxed or self._melds_agree(h):
                return h
        self.failures += 1
        return None

    def _melds_agree(self, opp_now: int) -> bool:
        if not self.compared:
            return True
        opp, seat = self.opp, self.seat
        start = [0, 0]
        start[seat] = self.hand | self.played[seat]
        start[opp] = opp_now | self.played[opp]
        mode = self.mode
        rs = [runs(start[0]), runs(start[1])]
        best = [max((meld_key(r, mode) for r in x), default=None) for x in rs]
        if best[0] is None and best[1] is None:
            winner, tied = None, False
        elif best[1] is None or (best[0] is not None and best[0] > best[1]):
            winner, tied = 0, False
        elif best[0] is None or best[1] > best[0]:
            winner, tied = 1, False
        else:
            tied = True
            winner = self.elder if self.view["options"].get("no_tie") else None
        if winner != self.meld_winner or tied != self.meld_tied:
            return False
        if self.shown and winner == opp:
            return [shown_cards(r) for r in rs[opp]] == [m["cards"] for m in self.opp_melds]
        return True

    def draw(self, rng: random.Random) -> tuple[World, float] | None:
        """A consistent world and its weight (``weight``: the opponent's bids under the easy rule)."""
        world = self.deal(rng)
        if world is None:
            return None
        return world, self.weight(world.pack, self.easy)

    def deal(self, rng: random.Random) -> World | None:
        """A full pack in deal order consistent with the view, and the opponent's current hand in
        it; None if the tries ran out."""
        opp, seat = self.opp, self.seat
        if not self.fixed:
            h = 0
            for c in rng.sample(bit_indices(self.pool), self.opp_size):
                h |= 1 << c
            opp_dealt = opp_now = h
            my_dealt = self.hand
        else:
            got = self.opponent_hand(rng)
            if got is None:
                return None
            opp_now = got
            opp_dealt = got | self.played[opp]
            my_dealt = self.hand | self.played[seat]
            if self.exchanged_by is not None:
                swap = (1 << self.up) | (1 << self.seven)
                if self.exchanged_by == opp:
                    opp_dealt ^= swap
                else:
                    my_dealt ^= swap
        pack: list[int] = [-1] * 32
        for who, dealt in ((seat, my_dealt), (opp, opp_dealt)):
            first, second = positions(who == self.elder, self.clubs)
            cards = bit_indices(dealt)
            rng.shuffle(cards)
            for pos, c in zip(first + (second if self.fixed else []), cards, strict=True):
                pack[pos] = c
        if self.up >= 0:
            pack[12] = self.up
        rest = bit_indices(((1 << 32) - 1) & ~opp_dealt & ~my_dealt & ~((1 << self.up) if self.up >= 0 else 0))
        rng.shuffle(rest)
        it = iter(rest)
        for i in range(32):
            if pack[i] < 0:
                pack[i] = next(it)
        return World([CODE[c] for c in pack], opp_now)

    # -- inference ------------------------------------------------------------------------
    def weight(self, pack: list[str], easy: Any = None) -> float:
        """How likely the opponent's bids, dix answer and cards were under the easy rules with this pack."""
        from .bots import EasyBot
        from .rules import Clobby

        easy = easy or EasyBot()
        view = self.view
        state = Clobby(**view["options"]).new_state(deck=pack, dealer=view["dealer"])
        scores = list(view["scores"])  # the match's, not the rebuilt deal's (the notes weigh them)

        def model(v: dict[str, Any]) -> str:
            return str(easy.act({**v, "scores": scores}, random.Random(0)))

        def factor(v: dict[str, Any]) -> float:
            return CARD_MISMATCH if v["phase"] == "play" else MISMATCH

        return replayed_likelihood(state, public_actions(view), (self.opp,), model, factor)
