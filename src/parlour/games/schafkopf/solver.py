"""Perfect-information (double-dummy) solver for the rest of a Schafkopf deal, exact for its scoring.

Why a module of its own: the strong player (``strong.py``) solves many sampled deals per
decision, so this is the inner loop of the whole player.  It keeps only what is Schafkopf's:
the scoring, turned into the search questions, and the positions (from the sampler's sampled
hands, or from a live state's :meth:`~.rules.SchafkopfState.open_position`).

What is solved, and how:

- **Solo** (a soloist against two defenders, a two-sided zero-sum game).  The soloist's score
  (RULES.md: 61-90 pips +2, 91+ +4, all tricks +6, 31-60 -2, 0-30 -4, no trick -6; his discard
  counts for him) is a step function of his final pips and trick count.  So the score is found
  by a few yes/no questions, binary-searched over the six levels: "can he take every remaining
  trick?", "can he take at least one trick?" (tricks counted) and "can he reach 31 / 61 / 91
  pips?" (pips counted), each one null-window search of the compiled kernel
  (``parlour.search.solver.TrickSolver`` over ``tables.py``'s arrays).  The pips he has (his
  tricks so far and his discard) are subtracted from the threshold here, at the root, since
  the kernel counts only the cards still to be played.  The kernel's transposition table holds
  values that depend on the hands and the leader alone, so it is kept across solves, deals and
  soloists: the positions are turned so that the soloist is always seat 0, and each thread has
  its own two searchers (one per count) so that two players thinking at once share nothing.
- **Ramsch** (each for himself).  Not zero-sum between two sides, so "perfect play" needs a
  definition: the *paranoid* one (Sturtevant): the seat we solve for maximises its margin (its
  deal score minus the mean of the other two), and the other two minimise it together.  That is
  zero-sum again, so alpha-beta applies; the state at a trick boundary carries what the Ramsch
  score depends on beyond the cards (each seat's pips so far and the order of the seats' latest
  tricks: it decides "no trick", "all tricks" and the tie rule), and the skat goes to the last
  trick's winner.  The engine's ``ramsch_result`` scores the leaves, so the rule's tie order is
  shared, not copied.  That value is not the additive two-side count the kernel searches (it
  depends on each seat's pips and on the order of the tricks), so the Ramsch search is still
  the pure-Python alpha-beta below: fail-soft per card, a transposition table at trick starts
  keyed on the hands, the leader and that history, moves ordered (the cheap cards first), and
  *equivalent cards* (two cards of one hand adjacent in rank within their suit, trumps being a
  suit, with no card between them still out and with the same pips, are one move).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...cards import bit_indices
from ...search.pimc import ActionValues
from ...search.solver import TrickSolver
from . import tables
from .rules import (
    FOLLOW_MASK,
    ORDER,
    PIP,
    SEAT,
    SUIT_OF,
    WIN,
    OpenPosition,
    SchafkopfState,
    beats,
    pips_of,
    ramsch_result,
)

#: the levels of the soloist's score, lowest first
SOLO_LEVELS = (-6, -4, -2, 2, 4, 6)
#: the pips the soloist needs for the levels -2, 2 and 4
_PIP_NEED = {-2: 31, 2: 61, 4: 91}
_INF = 1 << 20


@dataclass
class Position:
    """A deal in progress with every hand open: what the solver reads.

    ``pips``/``tricks`` count completed tricks (the soloist's discard is in his ``pips``);
    ``order`` lists the seats that took a trick, by the index of their latest trick, oldest
    first (the Ramsch tie rule); ``skat`` is the Ramsch skat (the last trick takes it).
    """

    hands: list[int]
    leader: int
    trick: list[int]
    soloist: int | None
    dealer: int
    pips: list[int] = field(default_factory=lambda: [0, 0, 0])
    tricks: list[int] = field(default_factory=lambda: [0, 0, 0])
    order: tuple[int, ...] = ()
    skat: int = 0

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    def legal(self) -> int:
        """The mover's legal cards as a mask."""
        hand = self.hands[self.to_move]
        if self.trick:
            return hand & FOLLOW_MASK[self.trick[0]] or hand
        return hand


def _moves(legal: int, out: int) -> list[int]:
    """The legal cards, one per class of equivalent cards (see the module docstring)."""
    moves: list[int] = []
    prev = -1
    while legal:
        low = legal & -legal
        c = low.bit_length() - 1
        legal ^= low
        if (prev >= 0 and SUIT_OF[c] == SUIT_OF[prev] and PIP[c] == PIP[prev]
                and not out & (low - (2 << prev))):
            prev = c
            continue
        moves.append(c)
        prev = c
    return moves


def _ordered(moves: list[int], trick: list[int]) -> list[int]:
    """A Ramsch follower's cards, the ones that lose the trick first and the cheapest first
    (each for himself, nobody wants a trick's pips)."""
    if not trick or len(moves) < 2:
        return moves
    best = trick[0]
    for c in trick[1:]:
        if beats(c, best):
            best = c
    return sorted(moves, key=lambda c: (beats(c, best), PIP[c]))


# -- solo: the compiled kernel --------------------------------------------------------------

_local = threading.local()
#: rows of the trick-count searcher's table (its questions are small: all tricks, one trick)
TRICKS_TT_BITS = 16


def _searchers() -> tuple[TrickSolver, TrickSolver]:
    """This thread's two searchers, the soloist in seat 0: (pips, tricks).  Made once per thread."""
    got: tuple[TrickSolver, TrickSolver] | None = getattr(_local, "searchers", None)
    if got is None:
        got = (TrickSolver(tables.RULES, tables.PIPS, (0,)),
               TrickSolver(tables.RULES, tables.TRICKS, (0,), tt_bits=TRICKS_TT_BITS))
        _local.searchers = got
    return got


class SoloSolver:
    """Solves solo positions for one soloist.

    The searchers and their tables are shared by every ``SoloSolver`` of the thread (see the
    module docstring); ``nodes`` counts the kernel's nodes for this solver's questions only.
    """

    def __init__(self, soloist: int) -> None:
        self.sol = soloist
        self.nodes = 0

    def _turn(self, hands: Sequence[int], leader: int) -> tuple[list[int], int]:
        """The hands and leader with the soloist in seat 0 (the kernel's side), seat order kept."""
        s = self.sol
        return [hands[s], hands[(s + 1) % 3], hands[(s + 2) % 3]], (leader - s) % 3

    def pips(self, hands: list[int], leader: int, trick: list[int], alpha: int = -_INF, beta: int = _INF) -> int:
        """The soloist's pips from here on (the current trick included).

        Exact whatever the window: the old fail-soft signature is kept, and the exact value
        meets any fail-soft contract.
        """
        searcher = _searchers()[0]
        h, lead = self._turn(hands, leader)
        before = searcher.nodes
        rem = pips_of(hands[0] | hands[1] | hands[2]) + sum(PIP[c] for c in trick)
        value = searcher.exact(h, lead, trick, guess=rem // 2)
        self.nodes += searcher.nodes - before
        return value

    def reaches(self, hands: list[int], leader: int, trick: list[int], need: int) -> bool:
        """Whether the soloist can take at least ``need`` more pips (the current trick included)."""
        if need <= 0:
            return True
        searcher = _searchers()[0]
        h, lead = self._turn(hands, leader)
        before = searcher.nodes
        got = searcher.at_least(h, lead, need, trick)
        self.nodes += searcher.nodes - before
        return got

    def all_tricks(self, hands: list[int], leader: int, trick: list[int], one: bool = False) -> bool:
        """Whether the soloist takes every remaining trick (``one``: at least one of them)."""
        left = ((hands[0] | hands[1] | hands[2]).bit_count() + len(trick)) // 3
        if left == 0:
            return not one
        searcher = _searchers()[1]
        h, lead = self._turn(hands, leader)
        before = searcher.nodes
        got = searcher.at_least(h, lead, 1 if one else left, trick)
        self.nodes += searcher.nodes - before
        return got

    # -- the score ---------------------------------------------------------------------
    def _at_least(self, pos: Position, level: int) -> bool:
        hands, trick = pos.hands, pos.trick
        sol = self.sol
        if level <= -6:
            return True
        if level == 6:
            if pos.tricks[sol] != sum(pos.tricks):
                return False
            return self.all_tricks(hands, pos.leader, trick)
        if level == -4:
            return pos.tricks[sol] > 0 or self.all_tricks(hands, pos.leader, trick, one=True)
        need = _PIP_NEED[level] - pos.pips[sol]
        return self.reaches(hands, pos.leader, trick, need)

    def score(self, pos: Position, guess: int = 2) -> int:
        """The soloist's exact score under perfect play by both sides."""
        lo, hi = 0, len(SOLO_LEVELS) - 1  # the answer's index lies in [lo, hi]
        probe = SOLO_LEVELS.index(guess) if guess in SOLO_LEVELS else 3
        while lo < hi:
            mid = min(max(probe, lo + 1), hi)
            if self._at_least(pos, SOLO_LEVELS[mid]):
                lo = mid
            else:
                hi = mid - 1
            probe = (lo + hi + 1) // 2
        return SOLO_LEVELS[lo]


# -- Ramsch: paranoid alpha-beta in Python ---------------------------------------------------

def _ramsch_leaf(pips: tuple[int, int, int], order: tuple[int, ...], skat_pips: int, dealer: int,
                 root: int) -> int:
    """Twice the root seat's margin when the deal ends (integers keep the search exact)."""
    final = list(pips)
    final[order[-1]] += skat_pips
    tricks = [0, 0, 0]
    for s in order:
        tricks[s] = 1  # only "none", "some" and "all" matter
    if len(order) == 1:
        tricks[order[0]] = 10
    winners = list(order)  # later tricks later: the tie rule compares latest tricks only
    add, scorer, _ = ramsch_result(final, tricks, winners, dealer)
    v = add[scorer]
    return 2 * v if scorer == root else -v


class RamschSolver:
    """Paranoid alpha-beta for one root seat in a Ramsch (see the module docstring)."""

    def __init__(self, root: int, dealer: int, skat: int) -> None:
        self.root = root
        self.dealer = dealer
        self.skat_pips = pips_of(skat)
        self.tt: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes = 0

    def search(self, hands: list[int], leader: int, trick: list[int], pips: tuple[int, int, int],
               order: tuple[int, ...], alpha: int, beta: int) -> int:
        n = len(trick)
        tt = None
        if n == 0:
            if not (hands[0] | hands[1] | hands[2]):
                return _ramsch_leaf(pips, order, self.skat_pips, self.dealer, self.root)
            key = (hands[0], hands[1], hands[2], leader, pips, order)
            tt = self.tt.get(key)
            if tt is not None:
                lo, hi = tt
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            a0, b0 = alpha, beta
        self.nodes += 1
        root = self.root
        mover = (leader + n) % 3
        hand = hands[mover]
        legal = hand & FOLLOW_MASK[trick[0]] or hand if n else hand
        out = hands[0] | hands[1] | hands[2]
        for c in trick:
            out |= 1 << c
        moves = _moves(legal, out)
        maxing = mover == root
        if n:
            moves = _ordered(moves, trick)
        best = -_INF if maxing else _INF
        for c in moves:
            hands[mover] = hand ^ (1 << c)
            if n == 2:
                t0, t1 = trick
                w = SEAT[leader * 3 + WIN[t0 << 10 | t1 << 5 | c]]
                p = PIP[t0] + PIP[t1] + PIP[c]
                new = list(pips)
                new[w] += p
                v = self.search(hands, w, [], (new[0], new[1], new[2]),
                                tuple(s for s in order if s != w) + (w,), alpha, beta)
            else:
                trick.append(c)
                v = self.search(hands, leader, trick, pips, order, alpha, beta)
                trick.pop()
            hands[mover] = hand
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
        if n == 0:
            lo, hi = tt if tt is not None else (-_INF, _INF)
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi)
        return best

    def value(self, pos: Position) -> int:
        """Twice the root seat's margin under paranoid perfect play."""
        p0, p1, p2 = pos.pips
        return self.search(list(pos.hands), pos.leader, list(pos.trick), (p0, p1, p2), pos.order, -9, 9)


# -- the public entry points: values in *margin* units (a seat's deal score minus the mean of the others) --

def solo_margin(score: int, soloist: int, seat: int) -> float:
    return float(score) if seat == soloist else -score / 2


def position_value(pos: Position, seat: int) -> float:
    """The margin of ``seat`` under perfect play from ``pos``."""
    if pos.soloist is None:
        return RamschSolver(seat, pos.dealer, pos.skat).value(pos) / 2
    return solo_margin(SoloSolver(pos.soloist).score(pos), pos.soloist, seat)


def after(pos: Position, card: int) -> Position:
    """The position after the mover plays ``card`` (a completed trick is scored and cleared)."""
    mover = pos.to_move
    hands = list(pos.hands)
    hands[mover] ^= 1 << card
    trick = pos.trick + [card]
    if len(trick) < 3:
        return Position(hands, pos.leader, trick, pos.soloist, pos.dealer, list(pos.pips), list(pos.tricks),
                        pos.order, pos.skat)
    t0, t1, t2 = trick
    w = SEAT[pos.leader * 3 + WIN[t0 << 10 | t1 << 5 | t2]]
    pips = list(pos.pips)
    pips[w] += PIP[t0] + PIP[t1] + PIP[t2]
    tricks = list(pos.tricks)
    tricks[w] += 1
    order = tuple(s for s in pos.order if s != w) + (w,)
    return Position(hands, w, [], pos.soloist, pos.dealer, pips, tricks, order, pos.skat)


def position_from_state(state: SchafkopfState) -> Position:
    """The open position of a live engine state (``open_position``) — for tests and benches only.

    A player never has the whole deal: the strong player builds its positions from sampled
    hands instead (``sampler.py``).
    """
    return position_from_open(state.open_position())


def position_from_open(deal: OpenPosition) -> Position:
    """The solver's :class:`Position` of an engine's :class:`~.rules.OpenPosition`.

    The soloist's discard is counted in his pips here (it is his from the start); a Ramsch
    keeps the skat for the last trick.
    """
    pips = list(deal.pips)
    order: tuple[int, ...] = ()
    for w in deal.winners:
        order = tuple(s for s in order if s != w) + (w,)
    soloist = deal.soloist
    if soloist is not None:
        pips[soloist] += sum(PIP[c] for c in deal.discard)
    return Position(list(deal.hands), deal.leader, list(deal.trick), soloist, deal.dealer, pips, list(deal.tricks),
                    order, 0 if soloist is not None else deal.skat)


def action_values(pos: Position) -> ActionValues:
    """The mover's margin after each of its legal cards (by code), under perfect play (equivalent
    cards share one)."""
    seat = pos.to_move
    legal = pos.legal()
    still = pos.hands[0] | pos.hands[1] | pos.hands[2]
    for c in pos.trick:
        still |= 1 << c
    reps = _moves(legal, still)
    values: dict[int, float] = {}
    if pos.soloist is None:
        solver = RamschSolver(seat, pos.dealer, pos.skat)
        for c in reps:
            values[c] = solver.value(after(pos, c)) / 2
    else:
        solo = SoloSolver(pos.soloist)
        guess = 2
        for c in reps:
            score = solo.score(after(pos, c), guess)
            guess = score
            values[c] = solo_margin(score, pos.soloist, seat)
    # the equivalent cards skipped above take the value of the card they follow
    out: ActionValues = {}
    last = 0.0
    for c in bit_indices(legal):
        last = values.get(c, last)
        out[ORDER[c]] = last
    return out
