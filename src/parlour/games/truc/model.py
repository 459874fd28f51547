"""One deal of Le Truc as a small imperfect-information game: what ``strong`` was solved on.

The real deal is too big to solve exactly on this machine and ship in a few megabytes (with
the card play left free, a single score situation has ~800,000 public betting points and
millions of information sets).  So the model keeps what decides the *betting* exactly and
abstracts the rest.  Every abstraction, and what it loses:

1. **Ranks only** (exact): suits never matter.  Hands are rank multisets (120 per player);
   the two hands are dealt from one 32-card pack, so their joint weights keep the card
   removal between them exactly (holding three sevens leaves the opponent one at most).
2. **Card play follows one fixed rule** (``card_rule``) for both players: the card with the
   best chance of winning minus losing the deal if played out face up against every
   hand the unseen cards allow (easy's hand-strength measure), ties to the lowest card.
   It is a function of the player's own cards and the public cards only, so it is a
   legitimate policy, and ``strong`` plays its cards by it in the real game.  *Lost*: card
   play is not solved, so leading to deceive (sandbagging a seven, a weak lead to bait an
   offer) is neither used by ``strong`` nor exploited by the model's best responder.
3. **What a player remembers**: everything public in the deal since the last redeal — his
   dealt hand, every card played in order, every accepted offer, a refused call (the
   information key, ``info_key``).  This is perfect recall *within the model*, so CFR+'s
   guarantee holds.  *Lost*: in the real game the opponent may play a card the rule would
   not; such a position is not in the model, and ``strong`` answers it from the nearest
   position the model has (``strong.py`` explains the translation), which no
   exploitability figure covers.  (Forgetting the earlier cards instead — keying decisions
   by the remaining hand and trick state only — made the strategy far too exploitable,
   0.2-0.4 points per deal, so the table is keyed by the full public history.)
4. **Calls for cards** are stationary: an accepted call is a fresh deal of the same model
   (worth its current value to the non-dealer, found as a fixed point); the new hands are
   drawn from a full pack, the same player stays non-dealer and the number of calls is not
   remembered.  *Lost*: the set-aside cards (known to their owner, absent from the pack),
   the pass of the deal when the pack runs out (which swaps the roles), and any use of
   how many calls were made.
5. **The score** enters only through four classes per player, by the stakes from which he
   may still double (``score_class``): A 0-4 points (doubles at 1, 2, 4), B 5-8 (at 1, 2),
   C 9-10 (at 1), D 11 (the remainder at once).  The legality of every offer (double or
   remainder) is exact within a class.  16 situations (non-dealer's class, dealer's class)
   are solved separately.  *Lost*: an accepted remainder pays the winner his *need*; the
   model pays a class's representative need (A 10, B 5.5, C 2.5, D 1 — the mean over the
   class, exact for D), so remainder decisions at the edges of a class are a little off.
6. **Payoff** is stake points, zero-sum: the deal's points to the non-dealer minus the
   dealer's (the same measure as the benches' points per deal).  *Lost*: the aim is to
   win the round, not points, so close to 12 a points-maximiser takes risks a
   round-maximiser would not (and vice versa).

The shipped table leaves out decisions that ``strong``'s own play reaches with probability
at most 1/1000 (they read as "no"); the exploitability is measured on the table as shipped.

Nothing in this module depends on numpy: the engine-agreement tests and the ``strong``
player use it at run time; ``train`` builds the solver's arrays from it.
"""

from __future__ import annotations

import math
from functools import lru_cache

from .bots import trick_odds

RANKS = "78AKQJT9"
#: rank character -> power, 7 for a seven down to 0 for a nine
POW = {r: len(RANKS) - 1 - i for i, r in enumerate(RANKS)}
RANK_OF = {p: r for r, p in POW.items()}
TARGET = 12
N, D = 0, 1  # the non-dealer and the dealer, the model's two players

#: score class -> the largest stake from which that player may still double (0: never)
DOUBLE_CAP = (4, 2, 1, 0)
#: score class -> the need (points to 12) an accepted remainder pays him in the model
REP_NEED = (10.0, 5.5, 2.5, 1.0)
CLASS_NAMES = ("A 0-4", "B 5-8", "C 9-10", "D 11")

# decision kinds in an information key
CALL, CALL_ANSWER, OFFER, OFFER_ANSWER = 0, 1, 2, 3


def score_class(points: int) -> int:
    """The class of a player's round points: which stakes he may still double from."""
    if points <= 4:
        return 0
    if points <= 8:
        return 1
    if points <= 10:
        return 2
    return 3


def situation(points_nd: int, points_d: int) -> int:
    """Situation index 0..15 from the non-dealer's and the dealer's round points."""
    return 4 * score_class(points_nd) + score_class(points_d)


def offer_kind(points_class: int, stake: int) -> str:
    """``double`` if doubling keeps the offerer at or under 12 in his class, else ``remainder``."""
    return "double" if stake <= DOUBLE_CAP[points_class] else "remainder"


# -- hands and their weights ----------------------------------------------------------------
def all_hands() -> list[tuple[int, ...]]:
    """Every three-card rank multiset, as powers ascending (120 of them)."""
    out: list[tuple[int, ...]] = []
    for a in range(8):
        for b in range(a, 8):
            for c in range(b, 8):
                out.append((a, b, c))
    return out


HANDS = all_hands()
HAND_INDEX = {h: i for i, h in enumerate(HANDS)}


def counts(hand: tuple[int, ...]) -> list[int]:
    c = [0] * 8
    for p in hand:
        c[p] += 1
    return c


def pair_weight(h1: tuple[int, ...], h2: tuple[int, ...]) -> float:
    """Chance that one player is dealt ranks ``h1`` and the other ``h2`` from a full pack."""
    c1, c2 = counts(h1), counts(h2)
    ways = 1
    for r in range(8):
        if c1[r] + c2[r] > 4:
            return 0.0
        ways *= math.comb(4, c1[r]) * math.comb(4 - c1[r], c2[r])
    return ways / (math.comb(32, 3) * math.comb(29, 3))


# -- the trick rules ------------------------------------------------------------------------
class Tricks:
    """The play of one deal as RULES.md settles it, players N (0) and D (1), N leading first."""

    def __init__(self, hands: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        self.hands = [list(hands[0]), list(hands[1])]
        self.played: list[tuple[int, int]] = []  # (player, power) in order
        self.trick: list[tuple[int, int]] = []
        self.won = [0, 0]
        self.first: int | None = None
        self.spoiled = 0
        self.to_move = N
        self.result: int | None = None  # +1 N won, -1 D won, 0 nobody
        self.over = False

    def play(self, power: int) -> None:
        seat = self.to_move
        self.hands[seat].remove(power)
        self.played.append((seat, power))
        self.trick.append((seat, power))
        if len(self.trick) == 1:
            self.to_move = 1 - seat
            return
        (lead, a), (_, b) = self.trick
        self.trick = []
        if a != b:
            winner: int | None = lead if a > b else seat
        else:
            winner = self.first
        if winner is None:
            self.spoiled += 1
            if not self.hands[0]:
                self.over, self.result = True, 0
            self.to_move = lead
            return
        self.won[winner] += 1 + self.spoiled
        self.spoiled = 0
        if self.first is None:
            self.first = winner
        if self.won[winner] >= 2:
            self.over, self.result = True, (1 if winner == N else -1)
            return
        self.to_move = winner

    def pool(self, seat: int) -> tuple[int, ...]:
        """Unseen cards per power from ``seat``'s side (his hand and every played card removed)."""
        pool = [4] * 8
        for p in self.hands[seat]:
            pool[p] -= 1
        for _, p in self.played:
            pool[p] -= 1
        return tuple(pool)

    def state_of(self, seat: int) -> tuple[int, int, int, int, int]:
        """(led power or -1, first winner 0 none/1 me/2 other, my tricks, other's tricks, spoiled)."""
        led = self.trick[0][1] if self.trick else -1
        first = 0 if self.first is None else 1 if self.first == seat else 2
        return led, first, self.won[seat], self.won[1 - seat], self.spoiled


@lru_cache(maxsize=500_000)
def card_rule(mine: tuple[int, ...], pool: tuple[int, ...], k: int, led: int, first: int, tm: int, to: int,
              sp: int) -> int:
    """The model's card: best chance of winning minus losing the deal face up, ties to the lowest.

    ``mine`` are the mover's powers ascending, ``pool`` the unseen cards per power, ``k`` the
    other's cards in hand; the rest as ``Tricks.state_of``.
    """
    if len(set(mine)) == 1:
        return mine[0]
    rows = trick_odds(mine, pool, k, led, first, tm, to, sp, True)
    best = max(rows, key=lambda r: (round(r[1] - r[2], 9), -r[0]))
    return best[0]


def rule_card(t: Tricks) -> int:
    seat = t.to_move
    led, first, tm, to, sp = t.state_of(seat)
    return card_rule(tuple(sorted(t.hands[seat])), t.pool(seat), len(t.hands[1 - seat]), led, first, tm, to, sp)


# -- information keys -----------------------------------------------------------------------
def info_key(sit: int, kind: int, refused: int, role: int, hand: int, prefix: int, hist: int) -> int:
    """One decision's information as an integer (perfect recall within the deal, abstraction 3).

    ``role`` 0 for the non-dealer, 1 for the dealer; ``hand`` the index in ``HANDS`` of the
    cards he was dealt; ``prefix`` the public cards of the deal so far (``prefix_code``);
    ``hist`` the accepted offers so far (``hist_code``).
    """
    k = sit
    for v, b in ((kind, 4), (refused, 2), (role, 2), (hand, 120), (prefix, 9**5), (hist, 3**6)):
        k = k * b + v
    return k


def prefix_code(powers: list[int]) -> int:
    """The cards played so far in the deal, in order, as a number (one base-9 digit per card)."""
    code = 0
    for p in powers:
        code = code * 9 + p + 1
    return code


def hist_code(accepted: list[tuple[int, int]]) -> int:
    """Accepted offers as (card number 0-5 it came before, offerer 0 N / 1 D)."""
    return sum((by + 1) * 3**k for k, by in accepted)
