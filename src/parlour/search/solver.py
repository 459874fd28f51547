"""One trick-game search problem: a contract's rules, what is counted, and for which side.

Why a class around the kernel: the transposition table and the work buffers are preallocated
once and kept across solves (a position's value depends only on its hands and leader, so an
entry found in one sampled deal is valid in every other), and the kernel's array arguments
are built once per contract.  The games' solvers (``games/<g>/solver.py``) ask it for three
things: the exact value (:meth:`exact`), a yes/no against a threshold (:meth:`at_least`), and
the exact value (or the yes/no) after each legal move (:meth:`move_values`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import NamedTuple, TypeVar

import numpy as np

from . import tricks, warm
from .trick_rules import Int64s, Objective, TrickRules

V = TypeVar("V")

#: transposition-table rows (a power of two): 2**18 rows of four words is 8 MiB
TT_BITS = 18


class Past(NamedTuple):
    """What a ``LOWEST`` deal's value depends on besides the cards (``Objective.lowest``): each
    seat's points so far, the seats that took a trick by their latest one (oldest first), the
    points that go to the last trick's winner (a skat) and the seat that scores when all are level."""

    points: tuple[int, int, int]
    latest: tuple[int, ...]
    extra: int
    dealer: int


class SearchCut(Exception):
    """A solve stopped at the node budget of :func:`budget`: it has no value, and none is guessed."""


class _Budget:
    """The nodes still allowed to this thread's solves (:func:`budget`), and the tables emptied for it."""

    def __init__(self, nodes: int, fresh: bool) -> None:
        self.nodes = nodes
        self.left = nodes
        self.fresh = fresh
        self.emptied: set[int] = set()


_local = threading.local()


@contextmanager
def budget(nodes: int, fresh: bool = True) -> Iterator[None]:
    """Every solve of this thread in the block shares ``nodes`` search nodes; past them it raises
    :class:`SearchCut`.  Each table is emptied at the first solve in the block that uses it (a shared
    one once), unless ``fresh`` is False.

    Why emptied: how many nodes a solve takes depends on what its table already holds (its values
    never do), so a budget met or missed is the same every time only from an empty table: the
    review of a deal must be the same, byte for byte, whatever the thread solved before it.  Why
    not always: a player that stops a solve at its think deadline repeats nothing byte for byte, and
    its table is what makes its solves cheap (a Ramsch's is 32 MiB, longer to empty than most solves).
    """
    outer: _Budget | None = getattr(_local, "budget", None)
    _local.budget = _Budget(nodes, fresh)
    try:
        yield
    finally:
        _local.budget = outer


class TrickSolver:
    """Exact values for the seats in ``side``: they maximise what ``counted`` take of ``objective``
    (by default what they take themselves; a misère counts the opponents' tricks)."""

    def __init__(self, rules: TrickRules, objective: Objective, side: Sequence[int], tt_bits: int = TT_BITS,
                 counted: Sequence[int] | None = None, kernels: ModuleType | None = None,
                 table: Int64s | None = None, tag: int = 0) -> None:
        """``kernels``: the kernel module to run, for a bench that pairs two versions of ``tricks``
        (``bench/pair_kernels.py``; its arrays are that module's, its ``rules`` arrays this one's);
        None: :func:`warm.kernels`, compiled once it is ready.

        ``table``: a transposition table (``tricks.new_table``) to share with other solvers, in place
        of one of ``tt_bits`` of its own, and ``tag``: this solver's among them (1 and up, one each).
        Why: a table is the costly part of a solver (2**18 rows are 8 MiB, about a millisecond to
        make), and a game whose players solve for many trumps and soloists in one decision (Six-Bid's
        bids) would otherwise make one for each; the tag keeps their entries apart (``tricks._keys``)."""
        self.rules = rules
        self.objective = objective
        self._kernels = kernels
        self._rules, self._power, self._params = rules.arrays(objective)
        self._to_kernel = rules.to_kernel
        self._position = rules.position
        self._side = np.zeros(3, np.int64)
        for seat in side:
            self._side[seat] |= tricks.MAX
        for seat in side if counted is None else counted:
            self._side[seat] |= tricks.COUNTED
        own = kernels or tricks
        if table is None:
            self._tt = own.new_table(1 << tt_bits)
        elif 0 < tag < 1 << tricks.TAG_BITS:
            self._tt = table
            self._params[tricks.P_TAG] = tag
        else:
            raise ValueError(f"a shared table's solver needs a tag from 1 to {(1 << tricks.TAG_BITS) - 1}, not {tag}")
        self._buf, self._frames, self._stats = own.work_arrays()
        self._trick = own.trick_array()
        self._hands = np.zeros(3, np.int64)
        #: every kernel call's trailing arguments, in the kernel's order
        self._tail = (self._rules, self._power, self._side, self._params, self._tt, self._buf, self._frames,
                      self._stats)

    @property
    def nodes(self) -> int:
        """Search nodes visited so far, over every solve (for the benches)."""
        return int(self._stats[0])

    def clear(self) -> None:
        """Empty the table, so that the next solve starts from nothing (a bench that times one deal's
        solve alone, or a budget's first solve: :func:`budget`); a shared table is emptied for every
        solver that shares it."""
        (self._kernels or tricks).empty_table(self._tt)

    def _kernel_module(self) -> ModuleType:
        """The kernels to call: the ones given, else :func:`warm.kernels` (compiled once they are ready)."""
        return self._kernels or warm.kernels()

    def _load(self, hands: Sequence[int], trick: Sequence[int], past: Past | None = None) -> None:
        """Put a position in the kernel's arrays, in its card numbering (``TrickRules.order``)."""
        if past is not None:
            self._params[tricks.P_PAST] = tricks.pack_past(past.points, past.latest)
            self._params[tricks.P_EXTRA] = past.extra
            self._params[tricks.P_DEALER] = past.dealer
        to_kernel = self._to_kernel
        for s in range(3):
            self._hands[s] = to_kernel(hands[s]) if s < len(hands) else 0
        position = self._position
        for i, c in enumerate(trick):
            self._trick[i] = position[c]

    def _within_budget(self, solve: Callable[[], V]) -> V:
        """``solve()`` (one kernel call), within this thread's :func:`budget` if one is open."""
        limit: _Budget | None = getattr(_local, "budget", None)
        if limit is None:
            return solve()
        if limit.fresh and id(self._tt) not in limit.emptied:  # a shared table once, not once a solver
            limit.emptied.add(id(self._tt))
            self.clear()
        stats = self._stats
        before = int(stats[tricks.S_NODES])
        stats[tricks.S_LIMIT] = before + max(limit.left, 1)
        try:
            got = solve()
        finally:
            limit.left -= int(stats[tricks.S_NODES]) - before
            stats[tricks.S_LIMIT] = 0
        if stats[tricks.S_CUT]:
            stats[tricks.S_CUT] = 0
            raise SearchCut(f"past its budget of {limit.nodes:,} nodes")
        return got

    def exact(self, hands: Sequence[int], leader: int, trick: Sequence[int] = (), guess: int = 0,
              past: Past | None = None) -> int:
        """The side's points from here, the cards of ``trick`` (led by ``leader``) included (a
        ``LOWEST`` objective's: its offset value at the deal's end, from ``past``)."""
        self._load(hands, trick, past)
        k = self._kernel_module()
        return self._within_budget(lambda: int(k.exact(self._hands, self._trick, 0, len(trick), leader, guess,
                                                       *self._tail)))

    def at_least(self, hands: Sequence[int], leader: int, target: int, trick: Sequence[int] = (),
                 past: Past | None = None) -> bool:
        """Whether the side takes at least ``target`` from here (a ``LOWEST`` objective's: whether its
        offset value at the deal's end, from ``past``, is at least ``target``)."""
        self._load(hands, trick, past)
        k = self._kernel_module()
        return self._within_budget(lambda: bool(k.at_least(self._hands, self._trick, 0, len(trick), leader, target,
                                                           *self._tail)))

    def move_values(self, hands: Sequence[int], leader: int, moves: Sequence[int],
                    trick: Sequence[int] = (), past: Past | None = None, need: int | None = None) -> list[int]:
        """The side's exact points from here after each of ``moves`` by the seat to play.

        With ``need`` (0 or more), one null-window search a move instead: each value is then only
        a bound, at least ``need`` exactly when the side reaches ``need`` after that move."""
        self._load(hands, trick, past)
        cards: Int64s = np.array([self._position[c] for c in moves], np.int64)
        out = np.zeros(len(moves), np.int64)
        k = self._kernel_module()
        threshold = tricks.EXACT if need is None else max(need, 0)
        self._within_budget(lambda: k.move_values(self._hands, self._trick, len(trick), leader, cards, len(moves),
                                                  threshold, out, *self._tail))
        return [int(v) for v in out]

    def representatives(self, movable: int, others: int) -> list[int]:
        """The cards of ``movable`` that the search plays, one per class of equivalent cards (the
        highest of each), given ``others``: the cards in the other hands and on the table.

        Why here: the equivalence is the kernel's (``tricks.legal_moves``), in its numbering;
        a game's root reads it in its own."""
        to_kernel, order = self._to_kernel, self.rules.order
        buf = np.zeros(16, np.int64)
        n = self._kernel_module().legal_moves(to_kernel(movable), to_kernel(others), self._rules, self.rules.ncards,
                                              buf)
        return [order[int(c)] for c in buf[:n]]

    def spread(self, values: dict[int, V], movable: int) -> dict[int, V]:
        """Every card of ``movable`` with the value of its class, from ``values``: the value of
        each representative (:meth:`representatives`, the same ``movable``).

        Why in the kernel's order: there a class is its highest card and the cards of the mover's
        that follow it, up to the next representative (or the next group's first card)."""
        out: dict[int, V] = {}
        last: V | None = None
        for c in self.rules.order:
            if movable >> c & 1:
                last = values.get(c, last)
                assert last is not None, "a group's first movable card is always a representative"
                out[c] = last
        return out
