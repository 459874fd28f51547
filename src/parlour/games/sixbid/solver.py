"""Six-Bid Solo double-dummy solver: the rest of a deal with every hand open, exact for its scoring.

Why one search serves every trump contract (solo, heart, guarantee, call): the soloist's score
depends only on the pips he ends with (the widow counts for him), and the trick pips are
zero-sum between him and the two opponents, so the minimax value of "the soloist's remaining
trick pips" decides them all exactly — solo and heart pay linearly in it, guarantee and call
pay on a threshold that the exact value settles (and a null-window search, ``at_least``,
settles more cheaply).  That search is the compiled core (``parlour.search``): this module
hands it the game's arrays (``tables.py``: follow, trick winner, pips) with the soloist as the
side that counts and maximises, and keeps only the scoring (:func:`chips_won`,
:func:`seat_score`, :func:`deal_chips`: the widow is added here, at the root) and the position
(``rules.SixBidState.open_position``).

Misère and spread are "take no trick", and there the core cannot help yet: it counts the tricks
of the seats that maximise, and a misère needs the soloist's tricks counted while his
opponents maximise them (no choice of side expresses that: with the soloist as the side he
would try to *take* tricks).  So :class:`_NoTrick` is a small boolean search kept here until the
core can count the other side's tricks; it stops at the first trick the soloist takes, which
makes it cheap (milliseconds from the first card, ``bench/bench_solver_sixbid.py``).

Cards are indices 0..35 (``rules.CODES``: suit * 9 + strength) and hands are 36-bit masks, the
same encoding as the engine and the core, so positions move between them without conversion.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from ...search import warm
from ...search.solver import TrickSolver
from .rules import CALL, GUARANTEE, HEART, MISERE, NO_TRUMP, PIP, POWER, SOLO, SPREAD, SUIT_MASK, TERMS, OpenPosition
from .tables import NCARDS, PIPS, trick_rules

#: the pips of each 9-bit strength pattern of one suit
PATTERN_PIPS = tuple(sum(PIP[r] for r in range(9) if pat >> r & 1) for pat in range(512))
#: the kernel's solvers kept per thread (each holds a 12 MiB transposition table), the last few
#: (trump, soloist) pairs: an entry is exact for any deal with that trump and soloist, so the
#: sampled deals of one decision (and the decisions of one deal) share one table
_KEEP = 2
_local = threading.local()


def mask_pips(mask: int) -> int:
    """The pips of the cards in ``mask``."""
    return (PATTERN_PIPS[mask & 511] + PATTERN_PIPS[(mask >> 9) & 511] + PATTERN_PIPS[(mask >> 18) & 511]
            + PATTERN_PIPS[(mask >> 27) & 511])


def no_trick_contract(contract: int) -> bool:
    return contract in (MISERE, SPREAD)


def trick_winner(trump: int, leader: int, c0: int, c1: int, c2: int) -> int:
    """The seat that takes the trick ``c0 c1 c2`` led by ``leader`` (``rules.POWER``)."""
    power = POWER[trump][c0 // 9]
    q0, q1, q2 = power[c0], power[c1], power[c2]
    if q0 > q1:
        w = 0 if q0 > q2 else 2
    else:
        w = 1 if q1 > q2 else 2
    return (leader + w) % 3


def _pip_solver(trump: int, soloist: int) -> TrickSolver:
    """This thread's kernel solver for the soloist's pips with ``trump`` (kept: see ``_KEEP``)."""
    kept: dict[tuple[int, int], TrickSolver] | None = getattr(_local, "solvers", None)
    if kept is None:
        kept = _local.solvers = {}
    key = (trump, soloist)
    got = kept.pop(key, None)
    if got is None:
        got = TrickSolver(trick_rules(trump), PIPS, [soloist])
        while len(kept) >= _KEEP:
            del kept[next(iter(kept))]
    kept[key] = got  # the most recent last
    return got


def _movable(hands: Sequence[int], leader: int, trick: Sequence[int]) -> tuple[int, int, int]:
    """The seat to play, the cards it may play, and the cards held by the others or on the table."""
    n = len(trick)
    p = (leader + n) % 3
    h = hands[p]
    movable = (h & SUIT_MASK[trick[0] // 9]) or h if n else h
    others = (hands[0] | hands[1] | hands[2]) & ~h
    for c in trick:
        others |= 1 << c
    return p, movable, others


class _NoTrick:
    """"Can the soloist take no trick from here?" (misère, spread), by a boolean search.

    A transposition table at trick starts (hands and leader: the answer does not depend on the
    path); a cut-off when every card of his is below all the others' of its suit (``_under``);
    equivalent cards (one hand's run in a suit, no card still out between them) are one move;
    leads low first (an opponent's into the suits the soloist holds), the soloist ducking with
    his highest card under the trick, an opponent staying under the soloist's card when he
    holds the trick and playing low otherwise.  See the module docstring for why this is not the
    core.
    """

    def __init__(self, trump: int, soloist: int) -> None:
        self.trump = trump
        self.soloist = soloist
        self.tt: dict[int, bool] = {}
        self.nodes = 0

    def safe(self, hands: list[int], leader: int, trick: list[int]) -> bool:
        """Whether the soloist can take no trick from here (``hands``, ``trick`` restored on return)."""
        self.nodes += 1
        n = len(trick)
        key = 0
        if n == 0:
            h0, h1, h2 = hands
            if not h0 | h1 | h2:
                return True
            key = h0 | h1 << 36 | h2 << 72 | leader << 108
            got = self.tt.get(key)
            if got is not None:
                return got
            if leader != self.soloist and self.trump == NO_TRUMP and self._under(hands):
                return True
        p, movable, others = _movable(hands, leader, trick)
        h = hands[p]
        soloist_moves = p == self.soloist
        result = not soloist_moves  # the soloist needs one safe card; an opponent, one that is not
        for c in self.moves(p, movable, others, trick, hands[self.soloist]):
            hands[p] = h ^ (1 << c)
            trick.append(c)
            if n == 2:
                winner = trick_winner(self.trump, leader, trick[0], trick[1], trick[2])
                ok = winner != self.soloist and self.safe(hands, winner, [])
            else:
                ok = self.safe(hands, leader, trick)
            trick.pop()
            hands[p] = h
            if ok == soloist_moves:
                result = ok
                break
        if n == 0:
            self.tt[key] = result
        return result

    def _under(self, hands: list[int]) -> bool:
        """Whether each of the soloist's cards is below every card of its suit the others hold.

        Then, at a trick start that he does not lead in no trump, he takes no trick: a lead in a
        suit he holds finds him under it, any other he can throw on, and never taking a trick he
        never leads.  (A cut-off of the search: these positions are its deepest proofs.)"""
        mine = hands[self.soloist]
        theirs = (hands[0] | hands[1] | hands[2]) & ~mine
        for s in range(4):
            m = (mine >> (9 * s)) & 511
            t = (theirs >> (9 * s)) & 511
            if m and t and m.bit_length() > (t & -t).bit_length():
                return False
        return True

    def moves(self, p: int, movable: int, others: int, trick: Sequence[int], soloist_hand: int = 0) -> list[int]:
        """One card per run of equivalent cards, in the search's order."""
        out: list[int] = []
        for s in range(4):
            own = (movable >> (9 * s)) & 511
            if own:
                out += [9 * s + r for r in _runs(own, (others >> (9 * s)) & 511)]
        if len(out) > 1:
            if not trick:  # low leads first: the soloist's safest, and his opponents' way to put him in
                if p != self.soloist and soloist_hand:  # and into the suits he still holds
                    out.sort(key=lambda c: (not soloist_hand & SUIT_MASK[c // 9], c % 9))
                else:
                    out.sort(key=lambda c: c % 9 + (10 if c // 9 == self.trump else 0))
                return out
            power = POWER[self.trump][trick[0] // 9]
            top = max(power[c] for c in trick)
            leader = (p - len(trick)) % 3
            holder = (leader + [power[c] for c in trick].index(top)) % 3
            if p == self.soloist or holder == self.soloist:
                # the soloist ducks, and an opponent leaves him the trick he holds: under the
                # trick's best card, the highest first; else the lowest over it
                out.sort(key=lambda c: power[c] if power[c] < top else -power[c], reverse=True)
            else:  # an opponent on an opponent's trick: low, leaving the soloist room to take it
                out.sort(key=lambda c: power[c])
        return out


_RUNS: dict[int, tuple[int, ...]] = {}


def _runs(own: int, others: int) -> tuple[int, ...]:
    """The highest strength of each run of ``own`` (a suit's pattern) with no strength of
    ``others`` (the suit's cards still in another hand or on the table) inside it, high first."""
    key = own << 9 | others
    got = _RUNS.get(key)
    if got is None:
        out: list[int] = []
        prev = -1
        for r in range(8, -1, -1):
            if own >> r & 1:
                if prev < 0 or others & ((1 << prev) - 1) & ~((1 << (r + 1)) - 1):
                    out.append(r)
                prev = r
        got = _RUNS[key] = tuple(out)
    return got


class Solver:
    """Solves one deal's play for a fixed trump, soloist and kind of contract.

    ``misere`` False: values are the soloist's trick pips still to come, the cards on the table
    included (he maximizes, the opponents minimize).  ``misere`` True: values are 0 (he takes no
    further trick) or -1.  Positions are ``hands`` (masks by seat), ``leader`` and ``trick`` (the
    card indices on the table); the arguments are not changed.  The transposition table outlives
    the solver (see ``_KEEP``), so solving the children of one position or many sampled deals
    shares it.
    """

    def __init__(self, trump: int, soloist: int, misere: bool) -> None:
        self.trump = trump
        self.soloist = soloist
        self.misere = misere
        self._no_trick = _NoTrick(trump, soloist) if misere else None
        self._core = None if misere else _pip_solver(trump, soloist)
        self._nodes0 = self._core.nodes if self._core is not None else 0

    @property
    def nodes(self) -> int:
        """Search nodes this solver has visited (for the benches)."""
        if self._no_trick is not None:
            return self._no_trick.nodes
        assert self._core is not None
        return self._core.nodes - self._nodes0

    def value(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> int:
        """The exact value of the position (see the class docstring)."""
        if self._no_trick is not None:
            return 0 if self._no_trick.safe(list(hands), leader, list(trick)) else -1
        assert self._core is not None
        return self._core.exact(hands, leader, trick)

    def at_least(self, hands: Sequence[int], leader: int, trick: Sequence[int], need: int) -> bool:
        """Whether the value is at least ``need`` (for the pips: one null-window search)."""
        if self._no_trick is not None:
            return need <= -1 or (need == 0 and self._no_trick.safe(list(hands), leader, list(trick)))
        if need <= 0:
            return True
        assert self._core is not None
        return self._core.at_least(hands, leader, need, trick)

    def move_values(self, hands: Sequence[int], leader: int, trick: Sequence[int],
                    cards: Sequence[int]) -> list[int]:
        """The value after each of ``cards`` played by the seat to move."""
        if self._core is not None:
            return self._core.move_values(hands, leader, cards, trick)
        assert self._no_trick is not None
        p = (leader + len(trick)) % 3
        out = []
        for c in cards:
            h = list(hands)
            h[p] ^= 1 << c
            t = [*trick, c]
            if len(t) == 3:
                winner = trick_winner(self.trump, leader, t[0], t[1], t[2])
                ok = winner != self.soloist and self._no_trick.safe(h, winner, [])
            else:
                ok = self._no_trick.safe(h, leader, t)
            out.append(0 if ok else -1)
        return out

    def representatives(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> list[int]:
        """One legal card per class of equivalent ones (the core's own test; a misère's any run)."""
        p, movable, others = _movable(hands, leader, trick)
        if self._no_trick is not None:
            return self._no_trick.moves(p, movable, others, trick)
        assert self._core is not None
        rules, _, _ = self._core.rules.arrays(PIPS)
        buf = np.zeros(16, np.int64)
        n = warm.kernels().legal_moves(movable, others, rules, NCARDS, buf)
        return [int(c) for c in buf[:n]]


def root_values(solver: Solver, hands: Sequence[int], leader: int, trick: Sequence[int]) -> dict[int, int]:
    """The value (as ``Solver.value``) after each legal card of the seat to move.

    Each class of equivalent cards is solved once (its highest card) and its value given to
    every card of the class; the children share the solver's transposition table.
    """
    _, movable, _ = _movable(hands, leader, trick)
    reps = solver.representatives(hands, leader, trick)
    values = dict(zip(reps, solver.move_values(hands, leader, trick, reps), strict=True))
    out: dict[int, int] = {}
    v = 0
    for s in range(4):  # each suit high to low: a card takes the value of the nearest class head above it
        for r in range(8, -1, -1):
            c = 9 * s + r
            if movable >> c & 1:
                v = values.get(c, v)
                out[c] = v
    return out


def chips_won(contract: int, trump: int, soloist_pips: int, tricks_taken: bool) -> int:
    """What the soloist wins from each opponent (negative: pays), as ``rules._score`` reckons it.

    ``soloist_pips``: trick pips plus the widow (the trump contracts); ``tricks_taken``: whether
    he took any trick (the misères).
    """
    target, unit = TERMS[contract][trump]
    if target is None:
        return -unit if tricks_taken else unit
    if contract <= HEART:
        return unit * (soloist_pips - 60)
    return unit if soloist_pips >= target else -unit


def seat_score(won: int, seat: int, soloist: int) -> int:
    """A seat's chips from the deal when the soloist wins ``won`` from each opponent."""
    return 2 * won if seat == soloist else -won


def deal_chips(pos: OpenPosition, solver: Solver | None = None) -> int:
    """What the soloist wins from each opponent with best play by all from ``pos`` on (every hand
    open): the solver's value, with the pips and tricks already taken and the widow's pips."""
    sol, contract, trump = pos.soloist, pos.contract, pos.trump
    misere = no_trick_contract(contract)
    if solver is None:
        solver = Solver(trump, sol, misere)
    value = solver.value(pos.hands, pos.leader, pos.trick)
    if misere:
        return chips_won(contract, trump, 0, pos.tricks[sol] > 0 or value < 0)
    return chips_won(contract, trump, pos.trick_pips[sol] + pos.widow_pips + value, False)


__all__ = ["CALL", "GUARANTEE", "HEART", "MISERE", "NO_TRUMP", "SOLO", "SPREAD", "Solver", "chips_won",
           "deal_chips", "mask_pips", "no_trick_contract", "root_values", "seat_score", "trick_winner"]
