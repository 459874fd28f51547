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
  zero-sum again, so alpha-beta applies.  Its value is no count of one side's cards (it depends
  on every seat's pips and on the order of the tricks: "no trick", "all tricks" and the tie
  rule), so the kernel searches it in its ``LOWEST`` scoring mode (``tables.RAMSCH``): the
  history it needs (each seat's pips so far and their places by latest trick, packed in 27
  bits) travels with the search and is part of each table entry's key, with the skat's pips
  and the dealer; the leaf scores the deal by RULES.md's order of rules.  The root seat is
  turned to the kernel's seat 0, so one table serves every root.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType

from ...search.pimc import ActionValues
from ...search.solver import Past, TrickSolver
from . import tables
from .rules import (
    FOLLOW_MASK,
    ORDER,
    PIP,
    SEAT,
    WIN,
    OpenPosition,
    SchafkopfState,
    pips_of,
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

    def clear(self) -> None:
        """Empty the tables, so that the next solve starts from nothing (a bench that times whole deals
        one by one); they are the thread's, shared with its other ``SoloSolver``s."""
        for searcher in _searchers():
            searcher.clear()

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
    def at_least(self, pos: Position, level: int) -> bool:
        """Whether the soloist's score under perfect play is at least ``level`` (one of ``SOLO_LEVELS``):
        one null-window search, or none where the tricks already taken settle it."""
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
            if self.at_least(pos, SOLO_LEVELS[mid]):
                lo = mid
            else:
                hi = mid - 1
            probe = (lo + hi + 1) // 2
        return SOLO_LEVELS[lo]


# -- Ramsch: paranoid, on the compiled kernel's LOWEST mode ------------------------------------

#: rows of the Ramsch searcher's table
RAMSCH_TT_BITS = 20
#: the kernel's Ramsch values run from 0 to twice this (``Objective.lowest``): twice the largest score
RAMSCH_SPAN = tables.RAMSCH.span
#: where a Ramsch's value searches start (``TrickSolver.exact``'s guess): the top, "can the root take no
#: trick?".  Why: the tricks alone decide that question, so it is cheap when the answer is no (a sure card
#: of his settles it), and when it is yes it is the whole proof; a first search at the middle ("a margin
#: of 0 or more?") asks the hard question of the Ramsch, "can the root end with the fewest points?", which
#: a deal whose root takes no trick never needs.  300 Ramsch deals from the first card (the bench's, each
#: from an empty table): 41.6 M nodes against 46.7 M, the 99th percentile 1.44 M against 3.68 M (seed 637,
#: whose root takes no trick, 0.9 M against 4.6 M); 300 more (the bench's ``deals`` from seed 5,000) 54.9 M
#: against 56.7 M, the 99th percentile as many (3.28 M); with 8 tricks left 2.24 M against 2.33 M; the
#: same values
RAMSCH_GUESS = 2 * RAMSCH_SPAN


def ramsch_searcher(kernels: ModuleType | None = None) -> TrickSolver:
    """A new Ramsch searcher: the root seat (seat 0) maximises, the other two minimise (``kernels``:
    ``TrickSolver``'s, for a bench that pairs two versions of the kernel)."""
    return TrickSolver(tables.RAMSCH_RULES, tables.RAMSCH, (0,), tt_bits=RAMSCH_TT_BITS, counted=(1, 2),
                       kernels=kernels)


def _ramsch_searcher() -> TrickSolver:
    """This thread's Ramsch searcher (:func:`ramsch_searcher`), whose table every Ramsch shares."""
    got: TrickSolver | None = getattr(_local, "ramsch", None)
    if got is None:
        got = _local.ramsch = ramsch_searcher()
    return got


class RamschSolver:
    """Paranoid perfect play for one root seat in a Ramsch (see the module docstring).

    The positions are turned so that the root is the kernel's seat 0, as a solo's soloist is, so
    one searcher's table serves every root; its entries key on the history (``solver.Past``)."""

    def __init__(self, root: int, dealer: int, skat: int, searcher: TrickSolver | None = None) -> None:
        """``searcher``: a searcher of its own (:func:`ramsch_searcher`; a bench's); None: this thread's."""
        self.root = root
        self.dealer = dealer
        self.skat_pips = pips_of(skat)
        self.nodes = 0
        self.searcher = searcher

    def clear(self) -> None:
        """Empty the table, so that the next solve starts from nothing (a bench that times whole deals
        one by one); without a searcher of its own, the thread's, which its other Ramsches share."""
        (self.searcher or _ramsch_searcher()).clear()

    def value(self, pos: Position) -> int:
        """Twice the root seat's margin under paranoid perfect play."""
        hands, leader, past = self._turned(pos)
        searcher = self.searcher or _ramsch_searcher()
        before = searcher.nodes
        value = searcher.exact(hands, leader, pos.trick, guess=RAMSCH_GUESS, past=past) - RAMSCH_SPAN
        self.nodes += searcher.nodes - before
        return value

    def at_least(self, pos: Position, level: int) -> bool:
        """Whether :meth:`value` is at least ``level``: one null-window search (the bench's proofs)."""
        hands, leader, past = self._turned(pos)
        searcher = self.searcher or _ramsch_searcher()
        before = searcher.nodes
        got = searcher.at_least(hands, leader, level + RAMSCH_SPAN, pos.trick, past=past)
        self.nodes += searcher.nodes - before
        return got

    def _turned(self, pos: Position) -> tuple[list[int], int, Past]:
        """The hands, leader and history of ``pos`` turned so that the root is the kernel's seat 0."""
        r = self.root
        turned = [(r + k) % 3 for k in range(3)]  # the kernel's seat k is the game's seat r + k
        past = Past(points=(pos.pips[turned[0]], pos.pips[turned[1]], pos.pips[turned[2]]),
                    latest=tuple((s - r) % 3 for s in pos.order), extra=self.skat_pips, dealer=(self.dealer - r) % 3)
        return [pos.hands[s] for s in turned], (pos.leader - r) % 3, past


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
    """The mover's margin after each of its legal cards (by code), under perfect play (each class
    of equivalent cards is solved once, by the kernel's own test: ``TrickSolver.representatives``)."""
    seat = pos.to_move
    legal = pos.legal()
    others = (pos.hands[0] | pos.hands[1] | pos.hands[2]) & ~pos.hands[seat]
    for c in pos.trick:
        others |= 1 << c
    core = _ramsch_searcher() if pos.soloist is None else _searchers()[0]
    values: dict[int, float] = {}
    if pos.soloist is None:
        solver = RamschSolver(seat, pos.dealer, pos.skat)
        for c in core.representatives(legal, others):
            values[c] = solver.value(after(pos, c)) / 2
    else:
        solo = SoloSolver(pos.soloist)
        guess = 2
        for c in core.representatives(legal, others):
            score = solo.score(after(pos, c), guess)
            guess = score
            values[c] = solo_margin(score, pos.soloist, seat)
    return {ORDER[c]: v for c, v in core.spread(values, legal).items()}
