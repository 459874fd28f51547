"""``parlour arena``: two levels of computer player measured on duplicate deals.

Why duplicate deals: the luck of the cards dwarfs the difference between two good players
over a few hundred deals.  Playing every pack once with each seating — A in every seat, B in
the others (for three players: one A against two B's, A in each seat in turn) — makes the
cards cancel, so the margin A − B per pack measures only play.  One *pack* is the first deal of
``new_state(seed=s)``: the same pack and dealer for every seating.

Decision times are measured in wall time, or — when ``PARLOUR_THINK_CLOCK`` in the environment
makes the think budgets count CPU time (``cpu`` or ``cpu:F``, see ``search.pimc.think_clock``)
— in each process's CPU time, so that the budgets and the timing columns do not depend on how
loaded the machine is (they are then what an unloaded machine would show).

Beside the margin, the bidding table (``bidding``): for each contract, how often A declared it
and how often it was made.  ``open_a`` puts a bench-only player handed the whole state (the
open-cards cheater of ``bench/bench_*_strong.py``) in A's seats, on the same packs and
seatings, so its margin and its bidding are measured exactly as a level's are.

The margin of a seating is A's deal score minus the mean of the B seats' deal scores; a pack's
margin is the mean over its seatings; the result is the mean over packs with a 95 %
confidence interval (normal approximation; packs are independent).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from . import bidding
from .bots import make
from .registry import load
from .search import warm
from .search.pimc import think_clock

#: A bench-only player for A's seats that is handed the whole state, not a view (a cheater; never a
#: level): ``(state, rng) -> action``.  ``OpenFactory`` makes one in each process (it must pickle).
OpenPlayer = Callable[[Any, random.Random], str]
OpenFactory = Callable[[], OpenPlayer]


@dataclass
class PackResult:
    margin: float
    decisions: list[int]  # per side [A, B]
    times: list[list[float]]  # per side: seconds of each decision
    declared: list[bidding.Declared] = field(default_factory=list)  # A's, per seating


@dataclass
class ArenaResult:
    game: str
    levels: tuple[str, str]
    margins: list[float] = field(default_factory=list)
    times: list[list[float]] = field(default_factory=lambda: [[], []])
    seconds: float = 0.0
    clock: str = "wall"
    declared: Counter[bidding.Declared] = field(default_factory=Counter)  # A's contracts, over every seating

    def take(self, pack: PackResult) -> None:
        """One pack's margin, decision times and A's declarations added."""
        self.margins.append(pack.margin)
        self.times[0].extend(pack.times[0])
        self.times[1].extend(pack.times[1])
        self.declared.update(pack.declared)

    def extend(self, later: ArenaResult) -> None:
        """``later``'s packs added after this result's: a run played in parts (its margins, decision
        times, A's declarations and the clock they were timed on; the seconds are the caller's to set).
        Why here: a bench that merged the parts field by field dropped the declarations and the clock."""
        self.margins += later.margins
        self.times[0] += later.times[0]
        self.times[1] += later.times[1]
        self.declared += later.declared
        self.clock = later.clock

    @property
    def mean(self) -> float:
        return statistics.fmean(self.margins) if self.margins else 0.0

    def interval(self, z: float = 1.96) -> float:
        """Half-width of the confidence interval of the mean margin (z = 1.96: 95 %)."""
        if len(self.margins) < 2:
            return math.inf
        return z * statistics.stdev(self.margins) / math.sqrt(len(self.margins))

    def share_of(self, yardstick: ArenaResult, z: float = 1.96) -> tuple[float, float]:
        """The fraction of ``yardstick``'s mean margin that this result reaches on the same packs, and
        the half-width of its confidence interval (z = 1.96: 95 %).

        Why paired, pack by pack: both margins move with the pack (a pack good for one is good for
        the other), so the ratio is far surer than the two means' own intervals suggest.  The
        interval is the ratio estimator's first-order one: the spread of ``a - r * y`` over the
        packs, divided by the yardstick's mean.  Infinite where it cannot be told (fewer than two
        packs, or a yardstick margin of 0)."""
        pairs = self._pairs(yardstick, "the yardstick's")
        if len(pairs) < 2 or yardstick.mean == 0:
            return math.nan, math.inf
        r = self.mean / yardstick.mean
        rest = [a - r * y for a, y in pairs]
        return r, z * statistics.stdev(rest) / math.sqrt(len(rest)) / abs(yardstick.mean)

    def share_text(self, yardstick: ArenaResult) -> str:
        """:meth:`share_of` as the benches print it: the share with its 95 % interval."""
        share, width = self.share_of(yardstick)
        return f"{share:.3f} ± {width:.3f} (95 %, paired over {len(self.margins)} packs)"

    def gain_over(self, other: ArenaResult) -> str:
        """The mean of this result's margin less ``other``'s, pack by pack, and its 95 % interval, as the
        benches print it.  Why paired: on the same packs the difference is far surer than the two
        margins' own intervals say (see :meth:`share_of`)."""
        d = ArenaResult(self.game, self.levels, margins=[a - b for a, b in self._pairs(other, "the other's")])
        return f"{d.mean:+6.2f} ± {d.interval():5.2f}"

    def _pairs(self, other: ArenaResult, whose: str) -> list[tuple[float, float]]:
        """This result's margin and ``other``'s, pack by pack; a ``ValueError`` naming ``whose`` count
        unless both were played on as many packs."""
        if len(self.margins) != len(other.margins):
            raise ValueError(f"{len(self.margins)} packs against {whose} {len(other.margins)}")
        return list(zip(self.margins, other.margins, strict=True))

    def table(self) -> str:
        a, b = self.levels
        lines = [f"{self.game}: {a} (A) vs {b} (B), {len(self.margins)} duplicate packs, {self.seconds:.1f} s, "
                 f"decision times on the {self.clock} clock",
                 f"  margin A - B per deal: {self.mean:+.3f} ± {self.interval():.3f} (95 %), "
                 f"± {self.interval(2.576):.3f} (99 %)",
                 f"  {'side':6} {'level':8} {'decisions':>10} {'per s':>9} {'median ms':>10} {'p99 ms':>8}"]
        for side, level in enumerate(self.levels):
            t = sorted(self.times[side])
            if t:
                median = 1000 * statistics.median(t)
                p99 = 1000 * percentile(t, 0.99)
                per_s = len(t) / sum(t) if sum(t) > 0 else math.inf
            else:
                median = p99 = per_s = 0.0
            lines.append(f"  {'AB'[side]:6} {level:8} {len(t):>10} {per_s:>9.0f} {median:>10.2f} {p99:>8.2f}")
        if self.game in bidding.DECLARED:
            lines += bidding.table(self.declared, sum(self.declared.values()), f"A ({a})")
        return "\n".join(lines)


def percentile(values: Iterable[float], q: float) -> float:
    """The ``q`` quantile of ``values`` by nearest rank, as the arena's table and every bench quote it: of
    the ``n`` values sorted, the one at ``int(q * n)`` (the largest, past the end); NaN for no values.
    Why nearest rank and not interpolated: a quoted p99 is then a time one decision or solve really took."""
    t = sorted(values)
    return t[min(len(t) - 1, int(q * len(t)))] if t else math.nan


def _decision_clock() -> Callable[[], float]:
    """CPU time when the think budgets count CPU time, else wall time."""
    return time.perf_counter if think_clock() is time.perf_counter else time.process_time


def decision_clock_name() -> str:
    """The clock decision times are taken on (``_decision_clock``), as ``ArenaResult.clock`` names it."""
    return "cpu" if _decision_clock() is time.process_time else "wall"


def _bot(game: str, level: str, think: float | None) -> Any:
    settings = {"think": think} if think is not None and level == "strong" else {}
    return make(game, level, **settings)


def play_pack(game: str, options: dict[str, Any], levels: tuple[str, str], seed: int,
              think: float | None = None, open_a: OpenFactory | None = None) -> PackResult:
    """Play pack ``seed`` once per seating of A; its mean margin, every decision's time and A's declarations.

    ``open_a``: A is this bench-only player, handed the state (``levels[0]`` only names it).
    """
    g = load(game, **options)
    n = g.num_players
    bots = {level: _bot(game, level, think) for level in levels[open_a is not None:]}
    cheat = open_a() if open_a is not None else None
    margins: list[float] = []
    times: list[list[float]] = [[], []]
    declared: list[bidding.Declared] = []
    clock = _decision_clock()
    for a_seat in range(n):
        state = g.new_state(seed=seed)
        rng = random.Random(seed * 7919 + a_seat)
        while not state.deals and not state.is_over:
            seat = state.current_player
            assert seat is not None
            side = 0 if seat == a_seat else 1
            start = clock()
            if side == 0 and cheat is not None:
                action = cheat(state, rng)
            else:
                action = bots[levels[side]].act(state.view(seat), rng)
            times[side].append(clock() - start)
            state.apply(action)
        scores = state.deals[0]["scores"] if state.deals else [0] * n
        others = [scores[s] for s in range(n) if s != a_seat]
        margins.append(scores[a_seat] - sum(others) / len(others))
        declared.append(bidding.declared(game, state.deals[0], a_seat) if state.deals else None)
    return PackResult(statistics.fmean(margins), [len(times[0]), len(times[1])], times, declared)


def _play_chunk(args: tuple[str, dict[str, Any], tuple[str, str], list[int], float | None, OpenFactory | None]
                ) -> list[PackResult]:
    game, options, levels, seeds, think, open_a = args
    warm.now()  # a worker loads the kernels that run() compiled
    return [play_pack(game, options, levels, s, think, open_a) for s in seeds]


def run(game: str, a: str, b: str, deals: int, *, jobs: int = 1, think: float | None = None,
        seed: int = 1, options: dict[str, Any] | None = None,
        progress: Callable[[int, int], None] | None = None, open_a: OpenFactory | None = None) -> ArenaResult:
    """Play ``deals`` duplicate packs (seeds ``seed`` … ``seed + deals - 1``).

    ``open_a``: A's seats are this bench-only player's (``a`` names it in the table; see ``OpenPlayer``).

    The search kernels are compiled (or loaded) first, in the foreground: a strength measurement
    of the Python path would be a measurement of the wrong player.
    """
    warm.now()
    options = dict(options or {})
    load(game, **options)  # a bad game or option fails here, before any process starts
    for level in (a, b)[open_a is not None:]:
        _bot(game, level, think)
    think_clock()  # a malformed PARLOUR_THINK_CLOCK fails here, before any process starts
    result = ArenaResult(game, (a, b), clock=decision_clock_name())
    seeds = list(range(seed, seed + deals))
    start = time.perf_counter()
    done = 0

    def take(packs: Iterable[PackResult]) -> None:
        nonlocal done
        for pack in packs:
            result.take(pack)
            done += 1
        if progress is not None:
            progress(done, deals)

    if jobs <= 1:
        for s in seeds:
            take([play_pack(game, options, (a, b), s, think, open_a)])
    else:
        size = max(1, min(20, deals // (jobs * 4) or 1))
        chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for packs in pool.map(_play_chunk, [(game, options, (a, b), c, think, open_a) for c in chunks]):
                take(packs)
    result.seconds = time.perf_counter() - start
    return result
