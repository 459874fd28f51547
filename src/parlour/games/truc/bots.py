"""Le Truc's easy player: the manual's "never do anything predictable", as a mixed strategy.

The manual's only strategy note is to bluff, double bluff and triple bluff, and its worked
example wins a deal with the weaker hand by calling for cards with a good one.  So every
choice here is a probability, not a rule, but the probabilities lean on real judgement:

- **Hand strength** is the chance of winning, losing or spoiling the deal if it is played
  out from here: the unseen cards are spread over the opponent's possible hands (by rank,
  weighted by how many ways each can be dealt), and each hand is played out by both sides
  as if the cards were face up.  That is pessimistic against a careless opponent, which is
  the right side to err on for an easy player.
- **Scores**: outcomes are valued by the chance of winning the round, estimated as the
  opponent's need over both needs (``(12 - b) / ((12 - a) + (12 - b))``).  So a decline that
  hands the opponent the round is never chosen while accepting still has a chance, and a
  player close to 12 stops gambling big stakes for points he does not need.
- **Offers** ("2 if I play?"): worth making with a strong hand (value), usually — but now
  and then it slow-plays; with a weak hand it sometimes bluffs, more often when the bluff is
  cheap (the decline rate needed to break even is low).
- **Answers** accept when accepting is worth more than declining, with a little noise when
  the two are close.  **Calls for cards** come mostly from weak hands and the dealer
  accepts them mostly with weak hands, with some calls and refusals out of character.
"""

from __future__ import annotations

import math
import random
from functools import cache, lru_cache
from typing import Any

from ...bots import PhaseBot

RANK_ORDER = "78AKQJT9"
#: rank character -> power, 7 for a seven down to 0 for a nine
POW = {r: len(RANK_ORDER) - 1 - i for i, r in enumerate(RANK_ORDER)}
TARGET = 12
_FLIP = (0, 2, 1)  # "first trick winner" seen from the other side: none, mover, other

#: tuning of the mixed strategy
SLOW_PLAY = 0.2       # chance of not offering with a value hand (when more cards follow)
SLOW_PLAY_LAST = 0.05  # ... before one's last card
BLUFF_MAX = 0.3       # chance of a bluff offer when the bluff is free
BLUFF_CAP = 0.6       # no bluffing when the opponent must decline more often than this to pay for it
ANSWER_NOISE = 0.03   # width (in stakes) of the band where close answers are mixed


# -- the perfect-information play-out of one deal ------------------------------------------
@cache
def _card_values(a: tuple[int, ...], b: tuple[int, ...], led: int, first: int, ta: int, tb: int,
                 sp: int) -> tuple[tuple[int, int], ...]:
    """(card power, value) for each distinct card the mover may play: +1 win, 0 nobody, -1 loss.

    The mover holds ``a`` and the other ``b`` (powers, ascending); ``led`` is the other's card
    already in the trick or -1 when the mover leads.  ``first`` is the first trick's winner
    (0 nobody yet, 1 the mover, 2 the other), ``ta``/``tb`` the tricks won, ``sp`` the spoiled
    tricks waiting for a winner.
    """
    out = []
    prev = -1
    for i, c in enumerate(a):
        if c == prev:
            continue
        prev = c
        rest = a[:i] + a[i + 1:]
        if led < 0:
            v = -_solve(b, rest, c, _FLIP[first], tb, ta, sp)
        else:
            if c > led:
                w = 1
            elif c < led:
                w = 2
            else:
                w = first
            if w == 1:
                nt = ta + 1 + sp
                v = 1 if nt >= 2 else _solve(rest, b, -1, first or 1, nt, tb, 0)
            elif w == 2:
                nt = tb + 1 + sp
                v = -1 if nt >= 2 else -_solve(b, rest, -1, _FLIP[first or 2], nt, ta, 0)
            else:  # spoiled: the other led and leads again
                v = 0 if not rest else -_solve(b, rest, -1, 0, tb, ta, sp + 1)
        out.append((c, v))
    return tuple(out)


@cache
def _solve(a: tuple[int, ...], b: tuple[int, ...], led: int, first: int, ta: int, tb: int, sp: int) -> int:
    return max(v for _, v in _card_values(a, b, led, first, ta, tb, sp))


@lru_cache(maxsize=4096)
def _opponent_hands(pool: tuple[int, ...], k: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every rank multiset of ``k`` cards from the unseen ``pool`` (count per power) and its weight."""
    out: list[tuple[tuple[int, ...], int]] = []

    def walk(r: int, left: int, cur: tuple[int, ...], weight: int) -> None:
        if left == 0:
            out.append((tuple(sorted(cur)), weight))
            return
        if r < 0:
            return
        for take in range(min(left, pool[r]) + 1):
            walk(r - 1, left - take, cur + (r,) * take, weight * math.comb(pool[r], take))

    walk(len(pool) - 1, k, (), 1)
    return tuple(out)


@lru_cache(maxsize=200_000)
def trick_odds(mine: tuple[int, ...], pool: tuple[int, ...], k: int, led: int, first: int, tm: int, to: int,
          sp: int, my_card: bool) -> tuple[tuple[int, float, float, float], ...]:
    """Chances (win, loss, nobody) for me, per card I may play (``my_card``), else one row (-1, ...)."""
    hands = _opponent_hands(pool, k)
    total = sum(w for _, w in hands)
    if my_card:
        acc: dict[int, list[float]] = {}
        for opp, w in hands:
            for c, v in _card_values(mine, opp, led, first, tm, to, sp):
                row = acc.setdefault(c, [0.0, 0.0, 0.0])
                row[0 if v > 0 else 1 if v < 0 else 2] += w
        return tuple((c, r[0] / total, r[1] / total, r[2] / total) for c, r in acc.items())
    row = [0.0, 0.0, 0.0]
    for opp, w in hands:
        v = -_solve(opp, mine, led, _FLIP[first], to, tm, sp)
        row[0 if v > 0 else 1 if v < 0 else 2] += w
    return ((-1, row[0] / total, row[1] / total, row[2] / total),)


def round_chance(a: int, b: int) -> float:
    """Rough chance of winning the round with ``a`` points against ``b``."""
    if a >= TARGET:
        return 1.0
    if b >= TARGET:
        return 0.0
    na, nb = TARGET - a, TARGET - b
    return nb / (na + nb)


class _Situation:
    """What the view says about the deal, from this seat's side."""

    def __init__(self, view: dict[str, Any]) -> None:
        me = self.me = view["seat"]
        hand = view["hand"]
        self.hand = hand
        self.mine = tuple(sorted(POW[c[0]] for c in hand))
        pool = [4] * len(RANK_ORDER)
        for c in hand:
            pool[POW[c[0]]] -= 1
        for t in view["tricks"]:
            for _, c in t["cards"]:
                pool[POW[c[0]]] -= 1
        trick = view["trick"]
        for _, c in trick:
            pool[POW[c[0]]] -= 1
        self.pool = tuple(pool)
        self.k = view["opponent_cards"]
        self.led = POW[trick[0][1][0]] if trick else -1
        ftw = view["first_trick_winner"]
        self.first = 0 if ftw is None else 1 if ftw == me else 2
        won = view["tricks_won"]
        self.tm, self.to = won[me], won[1 - me]
        self.sp = len(view["spoiled"]) // 2
        self.a, self.b = view["scores"][me], view["scores"][1 - me]
        self.stake = view["stake"]
        self.remainder = view["remainder"]

    def odds(self, my_card: bool) -> tuple[tuple[int, float, float, float], ...]:
        return trick_odds(self.mine, self.pool, self.k, self.led, self.first, self.tm, self.to, self.sp, my_card)

    def value(self, pw: float, pl: float, ps: float, stake: int | None) -> float:
        """Expected round-winning chance if the deal is played out for ``stake`` (None: remainder)."""
        a, b = self.a, self.b
        here = round_chance(a, b)
        if stake is None:
            return pw + ps * here
        return pw * round_chance(a + stake, b) + pl * round_chance(a, b + stake) + ps * here

    def current_stake(self) -> int | None:
        return None if self.remainder else self.stake


class EasyBot(PhaseBot):
    name = "easy"
    PHASE_HANDLERS = {"call": "_call", "call-answer": "_answer_call", "offer-answer": "_answer_offer"}
    OTHER_PHASES = "_play"

    def _play(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        sit = _Situation(view)
        offers = [a for a in legal if a in ("double", "remainder")]
        rows = sit.odds(my_card=True)
        stake = sit.current_stake()
        scored = [(sit.value(pw, pl, ps, stake), c, pw, pl, ps) for c, pw, pl, ps in rows]
        best = max(s[0] for s in scored)
        if offers and self._offer(sit, max(scored), len(view["hand"]) == 1, rng):
            return offers[0]
        power = rng.choice([c for v, c, *_ in scored if v >= best - 1e-9])
        return rng.choice([card for card in legal if card in view["hand"] and POW[card[0]] == power])

    # -- calls for cards --------------------------------------------------------------
    @staticmethod
    def _strength(sit: _Situation, my_card: bool) -> float:
        rows = sit.odds(my_card)
        return max(pw - pl for _, pw, pl, _ in rows)

    def _call(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        sit = _Situation(view)
        # Played face up, an average hand is worth about -0.13 to the leader (the follower
        # sees the led card); weak hands call, strong ones mostly play, and one call in ten
        # or so comes from a good hand (the manual's bluff).
        e = self._strength(sit, my_card=True)
        p_call = min(0.85, max(0.1, 0.45 - 1.5 * (e + 0.13)))
        return "call" if rng.random() < p_call else "play"

    def _answer_call(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        sit = _Situation(view)
        e = self._strength(sit, my_card=False)  # about +0.11 on average for the dealer
        p_accept = min(0.9, max(0.05, 0.45 - 1.5 * (e - 0.11)))
        return "accept" if rng.random() < p_accept else "refuse"

    # -- offers -----------------------------------------------------------------------
    def _offer(self, sit: _Situation, best: tuple[float, int, float, float, float], last_card: bool,
               rng: random.Random) -> bool:
        v_no, _, pw, pl, ps = best
        s = sit.stake
        remainder = sit.a + 2 * s > TARGET
        v_acc = sit.value(pw, pl, ps, None if remainder else 2 * s)
        v_dec = round_chance(sit.a + s, sit.b)
        if v_acc > v_no + 1e-9:
            slow = SLOW_PLAY_LAST if last_card else SLOW_PLAY
            return rng.random() >= slow
        if v_dec <= v_acc:
            return False
        need = (v_no - v_acc) / (v_dec - v_acc)  # decline rate at which the bluff breaks even
        return rng.random() < BLUFF_MAX * max(0.0, 1.0 - need / BLUFF_CAP)

    def _answer_offer(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        sit = _Situation(view)
        offer = view["offer"]
        s = sit.stake
        ((_, pw, pl, ps),) = sit.odds(my_card=False)
        v_acc = sit.value(pw, pl, ps, None if offer["kind"] == "remainder" else 2 * s)
        v_dec = round_chance(sit.a, sit.b + s)
        if v_dec <= 0.0:
            return "accept"  # declining hands over the round: playing on can only be better
        # measured in stakes: what one deal at the current stake swings
        z = (v_acc - v_dec) / max(1e-9, round_chance(sit.a + s, sit.b) - v_dec)
        if abs(z) >= 4 * ANSWER_NOISE:
            return "accept" if z > 0 else "decline"
        p_accept = 1.0 / (1.0 + math.exp(-z / ANSWER_NOISE))
        return "accept" if rng.random() < p_accept else "decline"


#: The levels this game offers beyond ``random`` (see ``parlour.bots.make``); the strong player is
#: named, not imported, so that this module stays cheap and ``strong.py`` may build on it.
LEVELS: dict[str, Any] = {"easy": EasyBot, "strong": ".strong:StrongBot"}


def warm_up(games: int = 100) -> None:
    """Fill the play-out caches the easy player's odds come from, by playing seeded games.

    Why: a long-running process (``parlour serve``) makes easy moves on its event loop, and
    until these caches hold the deal's whole play-out table (about 56,000 positions, all of
    them after some 100 games) a move could take 40 ms, a stall for every table at once.
    About 1.5 s of CPU, once per process.
    """
    from . import GAME

    game, bot = GAME(), EasyBot()
    for seed in range(games):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(bot.act(state.view(seat), rng))
