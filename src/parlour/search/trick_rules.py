"""What a trick game tells the search kernel: its follow, trick-winner and counting rules as arrays.

Why arrays: the kernel (``search/tricks.py``) is one compiled code path for every trick game,
so a game's rules reach it as data — the games' ``tables.py`` build a :class:`TrickRules` per
contract or trump mode from the same tables their engines play by.  :class:`Objective` is what
is counted (card points, or tricks) and for which seats; one pair of them is one search problem.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from . import tricks

Int64s = NDArray[np.int64]


@dataclass(frozen=True)
class TrickRules:
    """How cards follow and win in one contract (card indices ``0 .. ncards - 1``, at most 63).

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
    _arrays: dict[tuple[tuple[int, ...], int, int], tuple[Int64s, Int64s]] = field(
        default_factory=dict, compare=False, repr=False)

    def arrays(self, objective: Objective) -> tuple[Int64s, Int64s, Int64s]:
        """The kernel's ``rules``, ``power`` and ``params`` arrays for ``objective`` (built once)."""
        key = (tuple(objective.points), objective.trick_bonus, objective.last_bonus)
        got = self._arrays.get(key)
        if got is None:
            n = self.ncards
            rules = np.zeros((7, n), np.int64)
            rules[tricks.SUIT] = self.follow
            rules[tricks.BEAT] = self.head
            rules[tricks.RUFF] = self.ruff
            rules[tricks.PTS] = objective.points
            rules[tricks.SEQ] = sorted(range(n), key=lambda c: (self.group[c], -self.rank[c]))
            rules[tricks.GROUP] = self.group
            rules[tricks.CROSS] = [self._cross(c) for c in range(n)]
            power = np.array([self.power[a][c] for a in range(n) for c in range(n)], np.int64)
            got = self._arrays[key] = (rules, power)
        params = np.array([self.nplayers, self.ncards, objective.trick_bonus, objective.last_bonus], np.int64)
        return got[0], got[1], params


    def _cross(self, card: int) -> int:
        """The cards of other groups whose power, in some trick, lies between ``card``'s and the next
        higher card of its group (ties included): they keep the two from being equivalent."""
        above = [d for d in range(self.ncards) if self.group[d] == self.group[card] and self.rank[d] > self.rank[card]]
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


@dataclass(frozen=True)
class Objective:
    """What the side counts: ``points[c]`` per card taken, ``trick_bonus`` per trick, ``last_bonus``."""

    points: Sequence[int]
    trick_bonus: int = 0
    last_bonus: int = 0

    @classmethod
    def tricks(cls, ncards: int) -> Objective:
        """Count tricks, not points: "can the soloist take none", "can he take them all"."""
        return cls([0] * ncards, trick_bonus=1)
