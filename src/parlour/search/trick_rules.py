"""What a trick game tells the search kernel: its follow, trick-winner and counting rules as arrays.

Why arrays: the kernel (``search/tricks.py``) is one compiled code path for every trick game,
so a game's rules reach it as data — the games' ``tables.py`` build a :class:`TrickRules` per
contract or trump mode from the same tables their engines play by.  :class:`Objective` is what
is counted (card points, or tricks) and for which seats; one pair of them is one search problem.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from . import tricks

Int64s = NDArray[np.int64]


@dataclass(frozen=True)
class TrickRules:
    """How cards follow and win in one contract (card indices ``0 .. ncards - 1``, at most 40: the
    table keeps a position's cards above its hands' bits, ``tricks.SIG_SHIFT``).

    ``follow[c]``: the cards that follow suit to a lead of ``c``; ``head[c]``: of those, the ones
    a follower must play if he holds any (0: no such duty); ``ruff[c]``: when void, the cards he
    must play if he holds any (0: anything); ``power[led][c]``: the strength of ``c`` in a trick
    led by ``led``, 0 if it cannot take it (the led card's own power is above 0); ``group[c]``
    and ``rank[c]``: the card's suit for the equivalence test (trumps are one) and its place
    in it, higher is stronger.
    """

    nplayers: int
    ncards: int
    follow: Sequence[int]
    head: Sequence[int]
    ruff: Sequence[int]
    power: Sequence[Sequence[int]]
    group: Sequence[int]
    rank: Sequence[int]
    #: the game's order of leads, lowest first, for the side and for the others (None: the
    #: generic :meth:`lead_key` for both)
    lead_order: tuple[Sequence[int], Sequence[int]] | None = None
    #: a seat that maximises tries its weakest card that takes the trick first, not its fattest
    #: (``tricks._order``): where a suit's fat cards are its strongest (Six-Bid's ace and ten), taking
    #: with them spends the cards that hold the later tricks
    take_weakest: bool = False
    _arrays: dict[tuple[object, ...], tuple[Int64s, Int64s]] = field(
        default_factory=dict, compare=False, repr=False)
    _maps: dict[int, tuple[Callable[[int], int], list[int]]] = field(
        default_factory=dict, compare=False, repr=False)

    @property
    def order(self) -> list[int]:
        """The kernel's numbering: ``order[i]`` is the game's card that is bit ``i`` there
        (by group, then rank, high first)."""
        return sorted(range(self.ncards), key=lambda c: (self.group[c], -self.rank[c]))

    def arrays(self, objective: Objective) -> tuple[Int64s, Int64s, Int64s]:
        """The kernel's ``rules``, ``power`` and ``params`` arrays for ``objective`` (built once),
        in the kernel's numbering (:attr:`order`)."""
        if objective.mode == tricks.LOWEST and self.ncards > 32:
            raise ValueError("the LOWEST mode keys its history above 32 cards' bits")
        if self.ncards > tricks.SIG_SHIFT:
            raise ValueError(f"the table keeps a position's cards above {tricks.SIG_SHIFT} cards' bits")
        key = (tuple(objective.points), objective.trick_bonus, objective.last_bonus, objective.mode,
               *objective.scores)
        got = self._arrays.get(key)
        if got is None:
            n = self.ncards
            order = self.order
            to_kernel = self.to_kernel

            def row(values: Sequence[int]) -> list[int]:
                return [values[order[i]] for i in range(n)]

            rules = np.zeros((tricks.ROWS, tricks.WIDTH), np.int64)
            rules[tricks.SUIT, :n] = [to_kernel(m) for m in row(self.follow)]
            rules[tricks.BEAT, :n] = [to_kernel(m) for m in row(self.head)]
            rules[tricks.RUFF, :n] = [to_kernel(m) for m in row(self.ruff)]
            rules[tricks.PTS, :n] = row(objective.points)
            rules[tricks.GROUP, :n] = row(self.group)
            rules[tricks.CROSS, :n] = [to_kernel(self._cross(c)) for c in order]
            rules[tricks.BEATERS, :n] = [to_kernel(self._beaters(c)) for c in order]
            rules[tricks.ALWAYS, :n] = [to_kernel(self._always_beaters(c)) for c in order]
            beats = rules[tricks.ALWAYS]
            rules[tricks.ALWAYS_SKIP, :n] = [sum(1 << j for j in range(n) if j != i and beats[j] & beats[i] == beats[i])
                                             for i in range(n)]
            if self.lead_order is None:
                rules[tricks.LEAD_KEY, :n] = [self.lead_key(c, objective) for c in order]
                rules[tricks.LEAD_KEY_OTHERS, :n] = rules[tricks.LEAD_KEY, :n]
            else:
                rules[tricks.LEAD_KEY, :n] = row(self.lead_order[0])
                rules[tricks.LEAD_KEY_OTHERS, :n] = row(self.lead_order[1])
            for base, quasi in ((tricks.RUN, False), (tricks.QRUN, True)):
                for i, run in enumerate(self.runs(objective, quasi)):
                    rules[base + 1, i] = sum(1 << k for k in run)
                    rules[base + 2, i] = run[0]
                    rules[base, run] = i + 1
            for k in range((n + 7) // 8):
                for b in range(256):
                    rules[tricks.PTS8 + k, b] = sum(objective.points[order[8 * k + j]]
                                                    for j in range(8) if b >> j & 1 and 8 * k + j < n)
            power = np.array([self.power[a][c] for a in order for c in order], np.int64)
            got = self._arrays[key] = (rules, power)
        params = np.zeros(tricks.PARAMS, np.int64)
        params[:tricks.P_PAST] = [self.nplayers, self.ncards, objective.trick_bonus, objective.last_bonus,
                                  objective.mode, *objective.scores]
        params[tricks.P_PLAIN] = self._plain(got[0], got[1])
        params[tricks.P_TAKE_WEAKEST] = self.take_weakest and objective.mode == tricks.SUM
        return got[0], got[1], params

    def _plain(self, rules: Int64s, power: Int64s) -> bool:
        """Whether only the led suit takes a trick, a seat may play any card of it (or any card when
        void), and the cards of a suit are numbered strongest first: what the kernel's test of a seat
        that ducks every trick assumes (``tricks._ducks_every_trick``)."""
        n = self.ncards
        if rules[tricks.BEAT, :n].any() or rules[tricks.RUFF, :n].any():
            return False
        for a in range(n):
            suit = int(rules[tricks.SUIT, a])
            row = [int(power[a * n + c]) for c in range(n)]
            if any(row[c] for c in range(n) if not suit >> c & 1):
                return False
            mine = [row[c] for c in range(n) if suit >> c & 1]
            if any(x <= y for x, y in zip(mine, mine[1:], strict=False)):
                return False
        return True

    @property
    def to_kernel(self) -> Callable[[int], int]:
        """Turn a mask of the game's cards into the kernel's numbering."""
        return self._mappers()[0]

    @property
    def position(self) -> list[int]:
        """``position[c]``: the bit of the game's card ``c`` in the kernel's numbering."""
        return self._mappers()[1]

    def _mappers(self) -> tuple[Callable[[int], int], list[int]]:
        got = self._maps.get(0)
        if got is None:
            position = [0] * self.ncards
            for i, c in enumerate(self.order):
                position[c] = i
            got = self._maps[0] = (_byte_mapper(position, self.ncards), position)
        return got

    def runs(self, objective: Objective, quasi: bool = False) -> list[list[int]]:
        """The runs of interchangeable cards, in the kernel's numbering (each its cards, top first):
        two or more cards next to each other in :attr:`order`, of one group and worth the same,
        that every rule treats alike (:meth:`_alike`).  The kernel keys its table on which of a
        run's cards are left, not which are gone (``tricks._canonical``).

        ``quasi``: the same, but the cards may differ in points (a whole suit of Six-Bid's, of
        Schafkopf's trumps): positions that differ in which are left bound each other's values
        (``tricks._slack``).  None in ``LOWEST`` mode, whose value is no sum of points."""
        order = self.order
        out: list[list[int]] = []
        run = [0]
        for i in range(1, self.ncards):
            if self._alike([order[k] for k in run] + [order[i]], objective, quasi):
                run.append(i)
                continue
            if len(run) > 1:
                out.append(run)
            run = [i]
        if len(run) > 1:
            out.append(run)
        return out

    def _alike(self, cards: list[int], objective: Objective, quasi: bool = False) -> bool:
        """Whether ``cards`` (game cards, high first, next to each other in :attr:`order`) form a run:
        any position with some of them left plays as the one with the same number left, at the
        top, the same seats holding them.  So they must be one group, worth the same (not for a
        ``quasi`` run: then the points are all they differ in), lead alike
        (one power row, one follow, head and ruff duty), be followed alike (each follow, head and
        ruff set holds all or none of them), and in every trick either tie or rank in their order
        with no card of another run's power in their span (it would beat some and not others).
        Why so strict: the canonical keys merge positions on this alone; Clobby's trumps (heads
        depend on the led card) and its tout-atout suits (other cards between) fail it."""
        first = cards[0]
        if quasi and objective.mode != tricks.SUM:  # LOWEST's value is no sum of points: no slack bounds it
            return False
        if any(self.group[c] != self.group[first]
               or (not quasi and objective.points[c] != objective.points[first])
               or self.follow[c] != self.follow[first] or self.head[c] != self.head[first]
               or self.ruff[c] != self.ruff[first] or list(self.power[c]) != list(self.power[first])
               for c in cards):
            return False
        inside = set(cards)
        for row in (*self.follow, *self.head, *self.ruff):
            if len({row >> c & 1 for c in cards}) > 1:
                return False
        for led in range(self.ncards):
            powers = [self.power[led][c] for c in cards]
            if len(set(powers)) == 1:
                continue
            if any(a <= b for a, b in zip(powers, powers[1:], strict=False)):
                return False
            low, high = powers[-1], powers[0]
            if any(self.power[led][z] > 0 and low <= self.power[led][z] <= high
                   for z in range(self.ncards) if z not in inside):
                return False
        return True

    def _higher(self, card: int) -> int:
        return sum(1 << d for d in range(self.ncards)
                   if self.group[d] == self.group[card] and self.rank[d] > self.rank[card])

    def _beaters(self, card: int) -> int:
        """The cards that take a trick led by ``card`` from it."""
        row = self.power[card]
        return sum(1 << d for d in range(self.ncards) if row[d] > row[card])

    def _always_beaters(self, card: int) -> int:
        """The cards that take from ``card`` some trick it is in, whatever is led; every card when
        ``card`` cannot take some trick at all (then it is never sure)."""
        if any(self.power[led][card] == 0 for led in range(self.ncards)):
            return (1 << self.ncards) - 1
        return sum(1 << d for d in range(self.ncards)
                   if any(self.power[led][d] > self.power[led][card] for led in range(self.ncards)))

    def trumps(self, card: int) -> bool:
        """Whether ``card`` can take a trick led in another group (a trump)."""
        return any(self.power[led][card] > 0 for led in range(self.ncards) if self.group[led] != self.group[card])

    def lead_key(self, card: int, objective: Objective) -> int:
        """The search's order of leads, lowest first: plain suits before trumps, high cards first
        (measured on Clobby: the fewest nodes)."""
        return (50 if self.trumps(card) else 0) - 10 * self.rank[card] - objective.points[card]

    def _cross(self, card: int) -> int:
        """The cards of other groups whose power, in some trick, lies between ``card``'s and the next
        higher card of its group (ties included): they keep the two from being equivalent."""
        higher = self._higher(card)
        above = [d for d in range(self.ncards) if higher >> d & 1]
        if not above:
            return 0
        up = min(above, key=lambda d: self.rank[d])
        mask = 0
        for led in range(self.ncards):
            row = self.power[led]
            low, high = sorted((row[card], row[up]))
            for z in range(self.ncards):
                if self.group[z] != self.group[card] and row[z] > 0 and low <= row[z] <= high:
                    mask |= 1 << z
        return mask


def _byte_mapper(move: Sequence[int], ncards: int) -> Callable[[int], int]:
    """A mask's bits moved by ``move`` (bit ``c`` goes to ``move[c]``), a byte at a time."""
    tables = [[sum(1 << move[8 * k + j] for j in range(8) if b >> j & 1 and 8 * k + j < ncards)
               for b in range(256)] for k in range((ncards + 7) // 8)]

    def mapped(mask: int) -> int:
        out = 0
        for table in tables:
            out |= table[mask & 255]
            mask >>= 8
        return out
    return mapped


@dataclass(frozen=True)
class Objective:
    """What the side counts: ``points[c]`` per card taken, ``trick_bonus`` per trick, ``last_bonus``."""

    points: Sequence[int]
    trick_bonus: int = 0
    last_bonus: int = 0
    #: ``tricks.SUM`` (the side's points) or ``tricks.LOWEST`` (each for himself, see :meth:`lowest`)
    mode: int = tricks.SUM
    #: ``LOWEST``'s scores: one seat took every trick, a seat took none, the fewest points
    scores: tuple[int, int, int] = (0, 0, 0)

    @classmethod
    def tricks(cls, ncards: int) -> Objective:
        """Count tricks, not points: "can the soloist take none", "can he take them all"."""
        return cls([0] * ncards, trick_bonus=1)

    @classmethod
    def lowest(cls, points: Sequence[int], all_tricks: int, no_trick: int, fewest: int) -> Objective:
        """Each for himself: the seat that took every trick scores ``all_tricks``, else a seat that
        took none scores ``no_trick``, else the fewest ``points`` score ``fewest`` (the dealer when
        all are level; of two level on fewest, the one whose latest trick came first).  The value
        searched is twice the maximising seat's margin, offset to start at 0 (``search/tricks.py``).
        Why a scoring mode and not a sum: the score is a function of every seat's total and of the
        order of the tricks, which no count of one side's cards gives (Schafkopf's Ramsch)."""
        return cls(points, mode=tricks.LOWEST, scores=(all_tricks, no_trick, fewest))

    @property
    def span(self) -> int:
        """A ``LOWEST`` value's offset: twice the largest score (the kernel's ``_lowest_span``, from
        the same scores), so values run from 0 to twice this and ``value - span`` is the margin."""
        return 2 * max(abs(v) for v in self.scores)
