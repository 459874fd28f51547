"""Exact GOPS: backward induction with a matrix game at every simultaneous bid.

The state between turns is (prizes still face down, both hands, the stake carried by ties,
the score difference); the next prize is chance (uniform over those face down), then both
bid at once: a zero-sum matrix game whose entries are the values of the states it leads to.
Values are from seat 0's side: with ``scoring="points"`` the expected points margin from
here on (the past margin does not matter, so it is dropped from the state), with
``scoring="win"`` the expected +1/-1/0 for a win/loss/draw of the whole game.

Why it stays small enough for N = 7 in Python:
- A bid only matters by how it compares with the other bid, so both hands are replaced
  by their ranks in the merged order (``{2,5} v {3,5}`` is ``{1,3} v {2,3}``).
- The game is symmetric: swapping the seats negates the value, so only one of a state and
  its mirror is solved; a state whose hands are equal (and, for ``win``, whose score is
  level) is worth exactly 0.
- With ``scoring="win"`` a lead larger than everything still to be won decides the game.
- With ``ties="discard"`` nothing is ever carried.
Matrix games go to ``parlour.search.matrix_game`` (closed forms, then HiGHS).

Cards are handled as bit masks (bit ``v - 1`` is the card of value ``v``).
"""

from __future__ import annotations

from ...search.matrix_game import solve as solve_matrix

Key = tuple[int, int, int, int, int]


def bits(mask: int) -> list[int]:
    """The values (1-based, ascending) of the cards in ``mask``."""
    out = []
    v = 1
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


def mask_of(values: list[int] | tuple[int, ...] | set[int]) -> int:
    m = 0
    for v in values:
        m |= 1 << (v - 1)
    return m


def full(n: int) -> int:
    return (1 << n) - 1


def ranked(h0: int, h1: int) -> tuple[int, int]:
    """Both hands renumbered 1..r by their place in the merged order of values."""
    both = h0 | h1
    r0 = r1 = 0
    rank = 0
    v = 0
    while both >> v:
        if (both >> v) & 1:
            bit = 1 << rank
            if (h0 >> v) & 1:
                r0 |= bit
            if (h1 >> v) & 1:
                r1 |= bit
            rank += 1
        v += 1
    return r0, r1


class Solver:
    """Values and equilibrium strategies of GOPS positions under one set of rules.

    Results are cached for the life of the object, so one solver serves a whole match.
    """

    def __init__(self, ties: str = "carry", scoring: str = "points") -> None:
        if ties not in ("carry", "discard") or scoring not in ("points", "win"):
            raise ValueError(f"unknown rules ties={ties!r} scoring={scoring!r}")
        self.carry = ties == "carry"
        self.win = scoring == "win"
        self._values: dict[Key, float] = {}
        self._games: dict[Key, tuple[float, list[float], list[float]]] = {}
        self.matrix_games = 0

    # -- between turns -------------------------------------------------------------------

    @property
    def values(self) -> dict[Key, float]:
        """The cache of solved positions (``gops.tables`` loads a shipped table into it and saves one)."""
        return self._values
    def value(self, prizes: int, h0: int, h1: int, stake: int = 0, diff: int = 0) -> float:
        """Seat 0's equilibrium value before the next prize of ``prizes`` is turned."""
        if not prizes:
            return float((diff > 0) - (diff < 0)) if self.win else 0.0
        values = bits(prizes)
        if self.win:
            left = sum(values) + stake
            if abs(diff) > left:
                return float((diff > 0) - (diff < 0))
        else:
            diff = 0
        r0, r1 = ranked(h0, h1)
        if r0 == r1 and diff == 0:
            return 0.0
        sign = 1.0
        if (r1, -diff) < (r0, diff):
            r0, r1, diff, sign = r1, r0, -diff, -1.0
        key = (prizes, r0, r1, stake, diff)
        cached = self._values.get(key)
        if cached is None:
            if len(values) == 1:
                cached = self._last(values[0] + stake, r0, r1, diff)
            else:
                total = 0.0
                for p in values:
                    total += self._game(prizes & ~(1 << (p - 1)), r0, r1, stake + p, diff)[0]
                cached = total / len(values)
            self._values[key] = cached
        return sign * cached

    def _last(self, stake: int, h0: int, h1: int, diff: int) -> float:
        """The last turn: one card each, no choice."""
        gain = stake if h0 > h1 else -stake if h1 > h0 else 0
        if self.win:
            diff += gain
            return float((diff > 0) - (diff < 0))
        return float(gain)

    # -- one turn's bid ------------------------------------------------------------------
    def decision(self, prizes: int, h0: int, h1: int, stake: int,
                 diff: int = 0) -> tuple[float, dict[int, float], dict[int, float]]:
        """The bid after the prize is turned: (value, seat 0's mix, seat 1's mix) by card value.

        ``prizes`` are those still face down (the turned one excluded), ``stake`` counts the
        turned prize and anything carried, ``diff`` is seat 0's points minus seat 1's.
        """
        if not self.win:
            diff = 0
        r0, r1 = ranked(h0, h1)
        flip = (r1, -diff) < (r0, diff)
        if flip:
            value, y, x = self._game(prizes, r1, r0, stake, -diff)
            value = -value
        else:
            value, x, y = self._game(prizes, r0, r1, stake, diff)
        return value, dict(zip(bits(h0), x, strict=True)), dict(zip(bits(h1), y, strict=True))

    def _game(self, prizes: int, r0: int, r1: int, stake: int, diff: int) -> tuple[float, list[float], list[float]]:
        key = (prizes, r0, r1, stake, diff)
        cached = self._games.get(key)
        if cached is not None:
            return cached
        self.matrix_games += 1
        cached = self._games[key] = solve_matrix(self._matrix(prizes, r0, r1, stake, diff))
        return cached

    def _matrix(self, prizes: int, r0: int, r1: int, stake: int, diff: int) -> list[list[float]]:
        """The bid's payoff matrix: rows seat 0's cards, columns seat 1's, low to high."""
        c0, c1 = bits(r0), bits(r1)
        win = self.win
        rows = []
        for a in c0:
            rest0 = r0 & ~(1 << (a - 1))
            row = []
            for b in c1:
                rest1 = r1 & ~(1 << (b - 1))
                if a > b:
                    if win:
                        row.append(self.value(prizes, rest0, rest1, 0, diff + stake))
                    else:
                        row.append(stake + self.value(prizes, rest0, rest1))
                elif b > a:
                    if win:
                        row.append(self.value(prizes, rest0, rest1, 0, diff - stake))
                    else:
                        row.append(-stake + self.value(prizes, rest0, rest1))
                else:
                    carried = stake if self.carry and prizes else 0
                    row.append(self.value(prizes, rest0, rest1, carried, diff))
            rows.append(row)
        return rows

    def worst_gap(self) -> float:
        """The largest equilibrium gap of any bid solved so far: what the best reply to either
        side's mix gains over the node's value (0 for exact solutions).

        Why: it certifies exploitability without a best-response walk.  A player that mixes
        by these solutions loses at most this gap per turn to any opponent (one-shot
        deviations, then induction over the turns), so at most ``turns * worst_gap()``.
        """
        worst = 0.0
        for key, (value, x, y) in self._games.items():
            matrix = self._matrix(*key)
            columns = range(len(matrix[0]))
            row_guarantee = min(sum(x[i] * row[j] for i, row in enumerate(matrix)) for j in columns)
            col_guarantee = max(sum(y[j] * row[j] for j in columns) for row in matrix)
            worst = max(worst, value - row_guarantee, col_guarantee - value)
        return worst

    def solve_every_bid(self) -> int:
        """Solve the bid after every possible prize of every position whose value is cached
        (with a shipped table loaded: every bid ``strong`` can meet); returns how many."""
        for prizes, r0, r1, stake, diff in list(self._values):
            for p in bits(prizes):
                self._game(prizes & ~(1 << (p - 1)), r0, r1, stake + p, diff)
        return len(self._games)

    def game_value(self, n: int) -> float:
        """The value of the whole ``n``-card game for seat 0 (0 by symmetry; computed anyway)."""
        return self.value(full(n), full(n), full(n))

    def solve_all(self, n: int) -> float:
        """Solve every position of the ``n``-card game (both hands full, from seat 0's side).

        The whole game's value is 0 by symmetry, which ``value`` knows without solving,
        so this averages the first turn's matrix games explicitly.
        """
        prizes = full(n)
        total = 0.0
        for p in bits(prizes):
            total += self._game(prizes & ~(1 << (p - 1)), prizes, prizes, p, 0)[0]
        return total / n
