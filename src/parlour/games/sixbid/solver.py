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

Misère and spread are "take no trick": the core counts the opponents' tricks, which the
soloist maximises (he is safe when they take every trick left), so "can he take no trick" is
one null-window search at "all of them" (:func:`_no_trick_solver`).

Cards are indices 0..35 (``rules.CODES``: suit * 9 + strength) and hands are 36-bit masks, the
same encoding as the engine and the core, so positions move between them without conversion.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from ...search import tricks
from ...search.pimc import ActionValues
from ...search.solver import TT_BITS, TrickSolver
from .rules import (
    CALL,
    CODES,
    GUARANTEE,
    HEART,
    MISERE,
    NO_TRUMP,
    PIP,
    SOLO,
    SPREAD,
    SUIT_MASK,
    TERMS,
    OpenPosition,
    no_trick_contract,
)
from .tables import NO_TRICK, PIPS, misere_rules, trick_rules

#: the pips of each 9-bit strength pattern of one suit
PATTERN_PIPS = tuple(sum(PIP[r] for r in range(9) if pat >> r & 1) for pat in range(512))
#: the rows of the one transposition table that a thread's pip solvers share, one solver for each
#: (trump, soloist) pair, each with its tag (``TrickSolver``'s ``table``): an entry is exact for any
#: deal with that trump and soloist, so the sampled deals of one decision (and the decisions of one
#: deal) share it.  Why one table and not one a pair: a bid or the trump's choice solves for every
#: trump and soloist it prices, and when each pair had a table of its own (the last two kept) a
#: decision made 100 to 200 of them, 8 MiB and about a millisecond each, 0.1 to 0.2 s of its 0.29 s
#: (five deals of ``parlour.load("sixbid")``, strong in every seat).  Why the core's default size
#: and not a larger table: the table's probes are the kernel's cache misses, and 8 MiB stays in
#: this machine's 32 MiB cache.  60 deals a pip contract from the first card (``bench_solver_sixbid.py
#: speed``, the table kept): 2**20 rows 6.4-7.5 M nodes/s, solo 26.5-28.5 / 522-574 ms median / p99;
#: 2**18 rows 8.2-8.6 M, 20.3-20.6 / 482-491 ms; 2**17 as fast and 2**16 no faster, both with more
#: nodes on the hardest deals
PIP_TT_BITS = TT_BITS
#: rows of a misère solver's table (its searches stop at the soloist's first trick)
NO_TRICK_TT_BITS = 16
_local = threading.local()


def mask_pips(mask: int) -> int:
    """The pips of the cards in ``mask``."""
    return (PATTERN_PIPS[mask & 511] + PATTERN_PIPS[(mask >> 9) & 511] + PATTERN_PIPS[(mask >> 18) & 511]
            + PATTERN_PIPS[(mask >> 27) & 511])


def threshold_contract(contract: int) -> bool:
    """Guarantee and call: paid on whether the soloist reaches a target, not per pip nor on "no trick"."""
    return contract in (GUARANTEE, CALL)


def _pip_solver(trump: int, soloist: int) -> TrickSolver:
    """This thread's kernel solver for the soloist's pips with ``trump``, on the thread's one table
    (``PIP_TT_BITS``), tagged by the pair."""
    kept: dict[tuple[int, int], TrickSolver] | None = getattr(_local, "solvers", None)
    if kept is None:
        kept = _local.solvers = {}
        _local.pip_table = tricks.new_table(1 << PIP_TT_BITS)
    got = kept.get((trump, soloist))
    if got is None:
        got = kept[trump, soloist] = TrickSolver(trick_rules(trump), PIPS, [soloist], table=_local.pip_table,
                                                 tag=1 + 3 * trump + soloist)
    return got


def _no_trick_solver(soloist: int) -> TrickSolver:
    """This thread's kernel solver for "can ``soloist`` take no trick" (the misères): his opponents'
    tricks counted, he maximising them.  Kept per soloist; small questions, a small table."""
    kept: dict[int, TrickSolver] | None = getattr(_local, "no_trick", None)
    if kept is None:
        kept = _local.no_trick = {}
    got = kept.get(soloist)
    if got is None:
        opponents = [s for s in range(3) if s != soloist]
        got = kept[soloist] = TrickSolver(misere_rules(), NO_TRICK, [soloist], tt_bits=NO_TRICK_TT_BITS,
                                          counted=opponents)
    return got


def _tricks_left(hands: Sequence[int], trick: Sequence[int]) -> int:
    return ((hands[0] | hands[1] | hands[2]).bit_count() + len(trick)) // 3


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


class Solver:
    """Solves one deal's play for a fixed trump, soloist and kind of contract.

    ``misere`` False: values are the soloist's trick pips still to come, the cards on the table
    included (he maximizes, the opponents minimize).  ``misere`` True: values are 0 (he takes no
    further trick) or -1.  Positions are ``hands`` (masks by seat), ``leader`` and ``trick`` (the
    card indices on the table); the arguments are not changed.  The transposition table outlives
    the solver (see ``PIP_TT_BITS``), so solving the children of one position or many sampled deals
    shares it.
    """

    def __init__(self, trump: int, soloist: int, misere: bool) -> None:
        self.trump = trump
        self.soloist = soloist
        self.misere = misere
        self._core = _no_trick_solver(soloist) if misere else _pip_solver(trump, soloist)
        self._nodes0 = self._core.nodes

    @property
    def nodes(self) -> int:
        """Search nodes this solver has visited (for the benches)."""
        return self._core.nodes - self._nodes0

    def clear(self) -> None:
        """Empty the table, so that the next solve starts from nothing (a bench that times whole deals
        one by one); a pip solver's table is the thread's, shared with its other pip solvers."""
        self._core.clear()

    def _safe(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> bool:
        """A misère: whether the soloist can take no trick from here (his opponents take them all)."""
        left = _tricks_left(hands, trick)
        return left == 0 or self._core.at_least(hands, leader, left, trick)

    def value(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> int:
        """The exact value of the position (see the class docstring)."""
        if self.misere:
            return 0 if self._safe(hands, leader, trick) else -1
        return self._core.exact(hands, leader, trick)

    def at_least(self, hands: Sequence[int], leader: int, trick: Sequence[int], need: int) -> bool:
        """Whether the value is at least ``need`` (one null-window search)."""
        if self.misere:
            return need <= -1 or (need == 0 and self._safe(hands, leader, trick))
        if need <= 0:
            return True
        return self._core.at_least(hands, leader, need, trick)

    def move_values(self, hands: Sequence[int], leader: int, trick: Sequence[int],
                    cards: Sequence[int], need: int | None = None) -> list[int]:
        """The value after each of ``cards`` played by the seat to move.

        ``need`` (pip contracts): one null-window search a card instead, and each value only a
        bound, at least ``need`` exactly when the soloist's pips from here reach ``need``.  A misère
        is always asked so: safe after a card when the opponents can still take every trick left."""
        if self.misere:
            left = _tricks_left(hands, trick)
            return [0 if v >= left else -1 for v in self._core.move_values(hands, leader, cards, trick, need=left)]
        return self._core.move_values(hands, leader, cards, trick, need=need)

    def representatives(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> list[int]:
        """One legal card per class of equivalent ones (the core's own test), the highest of each."""
        _, movable, others = _movable(hands, leader, trick)
        return self._core.representatives(movable, others)

    def spread(self, values: dict[int, int], movable: int) -> dict[int, int]:
        """Every card of ``movable`` with its class's value, from the representatives' (the core's)."""
        return self._core.spread(values, movable)


def root_values(solver: Solver, hands: Sequence[int], leader: int, trick: Sequence[int],
                need: int | None = None) -> dict[int, int]:
    """The value (as ``Solver.value``) after each legal card of the seat to move, or with ``need``
    a bound on it (as ``Solver.move_values``).

    Each class of equivalent cards is solved once (its highest card) and its value given to
    every card of the class; the children share the solver's transposition table.
    """
    _, movable, _ = _movable(hands, leader, trick)
    reps = solver.representatives(hands, leader, trick)
    values = dict(zip(reps, solver.move_values(hands, leader, trick, reps, need), strict=True))
    return solver.spread(values, movable)


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


def seat_score(won: float, seat: int, soloist: int) -> float:
    """A seat's chips from the deal when the soloist wins ``won`` from each opponent."""
    return 2 * won if seat == soloist else -won


#: pips either side of a threshold contract's target where ``action_values`` also asks each card,
#: for its ``tie`` term.  Against the exact pips it replaces, on 300 forced guarantees whose value lies
#: within 10 pips of the target (a ``/tmp`` script, strong in one seat against easy, cpu:2, paired, 95 %):
#: the soloist -1.1 +- 7.4 chips a deal, a defender -1.1 +- 2.1; with no term at all (the first 100 deals)
#: the soloist -6.4 +- 13.3
MARGIN = 10


def threshold_need(pos: OpenPosition) -> int | None:
    """The soloist's pips still needed from ``pos`` on in a contract paid on a threshold (guarantee,
    call), at least 0; None for a contract paid per pip or on "no trick".

    Why it matters: the threshold is all such a contract's payment reads, and one null-window
    search settles it, where the pips to the last one cost 30 to 400 times as much."""
    target = TERMS[pos.contract][pos.trump][0]
    if target is None or not threshold_contract(pos.contract):
        return None
    return max(target - pos.trick_pips[pos.soloist] - pos.widow_pips, 0)


def margin_needs(need: int) -> tuple[int, int]:
    """The two more needs ``action_values`` asks each card for its ``tie`` term: ``MARGIN`` pips
    below and above ``need`` (never below 0)."""
    return max(need - MARGIN, 0), need + MARGIN


def deal_chips(pos: OpenPosition, solver: Solver | None = None) -> int:
    """What the soloist wins from each opponent with best play by all from ``pos`` on (every hand
    open): the solver's value (in guarantee and call, its threshold test), with the pips and
    tricks already taken and the widow's pips."""
    sol, contract, trump = pos.soloist, pos.contract, pos.trump
    misere = no_trick_contract(contract)
    if solver is None:
        solver = Solver(trump, sol, misere)
    need = threshold_need(pos)
    if need is not None:  # a bound on the right side of the target pays as the value would
        value = need if solver.at_least(pos.hands, pos.leader, pos.trick, need) else need - 1
    else:
        value = solver.value(pos.hands, pos.leader, pos.trick)
    if misere:
        return chips_won(contract, trump, 0, pos.tricks[sol] > 0 or value < 0)
    return chips_won(contract, trump, pos.trick_pips[sol] + pos.widow_pips + value, False)


def action_values(pos: OpenPosition, seat: int, tie: float = 0.0) -> ActionValues:
    """``seat``'s chips from the deal after each legal card of the seat to move (by code), best play
    by all after it (every hand open).

    In guarantee and call each card is asked only whether the soloist still reaches his target
    (:func:`threshold_need`): one null-window search a card.  ``tie``: chips per pip added for the
    soloist's side in those contracts, so that a cause won or lost in every sample is still fought
    for; the pips are read off two more thresholds, ``MARGIN`` pips either side of the target, not
    solved to the last one."""
    sol, contract, trump = pos.soloist, pos.contract, pos.trump
    misere = no_trick_contract(contract)
    solver = Solver(trump, sol, misere)
    need = threshold_need(pos)
    values = root_values(solver, pos.hands, pos.leader, pos.trick, need)
    have = pos.trick_pips[sol] + pos.widow_pips
    taken = pos.tricks[sol] > 0
    out: ActionValues = {}
    for c, v in values.items():
        if misere:
            out[CODES[c]] = seat_score(chips_won(contract, trump, 0, taken or v < 0), seat, sol)
        else:  # with a threshold, v is a bound on the right side of the target: the same chips
            out[CODES[c]] = seat_score(chips_won(contract, trump, have + v, False), seat, sol)
    if need is not None and tie:
        sign = 1 if seat == sol else -1
        for margin in margin_needs(need):
            for c, v in root_values(solver, pos.hands, pos.leader, pos.trick, margin).items():
                if v >= margin:
                    out[CODES[c]] += sign * tie * MARGIN
    return out


__all__ = ["CALL", "GUARANTEE", "HEART", "MISERE", "NO_TRUMP", "SOLO", "SPREAD", "Solver", "action_values", "chips_won",
           "deal_chips", "margin_needs", "mask_pips", "no_trick_contract", "root_values", "seat_score",
           "threshold_contract", "threshold_need"]
