"""Perfect-information Monte Carlo (PIMC): the decision loop of the trick-game ``strong`` players.

Why this shape: the best card-game programs (Skat's Kermit, bridge's double-dummy players,
SchafkopfRL's PIMC players) decide by dealing the cards a seat cannot see in ways consistent
with everything it has seen, solving each deal with all hands open, and choosing the action
that is best on average.  What is game-specific — drawing a consistent deal (with its weight:
how likely the others' bidding and play were under it) and solving it — comes from the game's
package; the loop, the time budget and the bookkeeping are the same for every game and live here.

A *world* is whatever the game's sampler returns and its evaluator understands (typically the
hidden hands as bitmasks plus the position).  Every game's sampler has one verb for it,
:class:`Sampler`'s ``draw``: a world consistent with the view, and its weight.
``evaluate(world)`` returns the value of each legal action for the deciding seat in that world
(higher is better), or ``None`` when it ran past ``Pimc.deadline`` before valuing every action:
that sample is dropped and the loop ends.
Why: one sample of a bid costs a whole-deal solve per option, so checking the clock only
between samples let a bid overrun its budget by a whole sample; an evaluator that checks
``deadline`` between options keeps every decision within the budget plus one solve, and one
whose solves run under :meth:`Pimc.bounded` (``stop_solves=True``) within the budget and a few
milliseconds.

Strategy fusion and information leakage — PIMC's known weaknesses — are the games' to
mitigate (e.g. by evaluating only the seat's own next decision and letting later decisions be
re-sampled, and by weighting samples with an inference model); see each game's ``bots.py``.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from . import warm
from .solver import SearchCut, budget

World = TypeVar("World")
V = TypeVar("V")
World_co = TypeVar("World_co", covariant=True)
#: The one solver result type: each legal action (its code) and what it is worth to the seat
#: that decides, in that game's units (points, chips or a margin), under perfect play with every
#: hand open.  Every trick game's ``solver.action_values`` answers in it, and PIMC averages it.
ActionValues = dict[str, float]


@runtime_checkable
class Sampler(Protocol[World_co]):
    """What a trick game's sampler offers PIMC (``games/<g>/sampler.py``, built from one view).

    Why one verb: the samplers had ``draw``, ``sample`` and ``deal`` for different things in
    different games; ``draw`` now means this everywhere, and a game's helpers that deal an
    unweighted world are named otherwise.
    """

    def draw(self, rng: random.Random) -> tuple[World_co, float] | None:
        """A world consistent with the view and its weight (how likely the others' public
        choices were in it), or None when no consistent world turned up this time."""
        ...


@dataclass
class Decision:
    """What PIMC chose and why: the mean value of every action over the samples it could afford."""

    action: str
    values: dict[str, float]
    samples: int
    weight: float
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def forced(cls, action: str) -> Decision:
        """The decision when ``action`` is the only legal one: nothing sampled, nothing to weigh."""
        return cls(action, {action: 0.0}, 0, 0.0, 0.0)

    def prefer(self, action: str) -> Decision:
        """This decision with ``action`` as its choice if ``action`` ties for the best mean.

        Why: PIMC breaks ties by chance, and where no solve tells two actions apart (a contract
        paid on a threshold, won or lost in every sample) a rule's choice is the better guess."""
        if action in self.values and self.values[action] >= max(self.values.values()) - 1e-9:
            self.action = action
        return self

    @property
    def margin(self) -> float:
        """How much better the chosen action is than the next best, on average (0 if alone)."""
        ranked = sorted(self.values.values(), reverse=True)
        return ranked[0] - ranked[1] if len(ranked) > 1 else 0.0

    @property
    def over(self) -> str:
        """How a hint names what the values rest on."""
        return f"over {self.samples} deals consistent with what you have seen"

    def no_better(self) -> str:
        """The hint for a choice tied for the best, or better than the next by less than the figure a
        hint would print.  Why: "0 points better" reads as a gain that is not there."""
        return f"no other choice does better on average ({self.over})"

    def reason(self, unit: str = "points") -> str:
        """One sentence for the hint: why this action."""
        if len(self.values) < 2:
            return "it is the only legal action"
        if self.margin < 0.05:  # less than the tenth it prints
            return f"{self.no_better()}{warm.note()}"
        return f"{self.over}, it scores {self.margin:.1f} {unit} more on average than the next best choice{warm.note()}"


@dataclass(frozen=True)
class Trust:
    """How clearly a sampled option must beat the easy rule's call before a strong player leaves it.

    Why: a bid or another once-a-deal choice is judged on few samples (each costs whole-deal
    play-outs per option), and one deal's payment varies widely, so the plain mean of a handful
    of samples picks bad options by chance.  The gain over the easy call is paired per sample
    and weighted as PIMC's means are; an option replaces the call only with ``min_samples``
    samples or more, a mean gain of at least ``min_gain`` and of more than ``z`` standard errors
    (the spread taken as at least ``sd_floor``: two or three samples can agree by chance).  The
    standard error counts the samples by their effective number (Kish's, ``n`` when the weights
    are equal): a few heavy samples are as much evidence as a few, not as all of them.
    """

    z: float = 2.0
    sd_floor: float = 0.0
    min_samples: int = 2
    min_gain: float = 0.0

    def choose(self, prior: str, records: Sequence[tuple[float, dict[str, float]]]) -> str:
        """The option to play: the one whose weighted mean gain over ``prior`` is largest among
        those that clear the test, else ``prior``.  ``records``: each sample's weight and values."""
        n = len(records)
        if n < max(self.min_samples, 2):
            return prior
        total = sum(w for w, _ in records)
        if total <= 0:
            return prior
        # Kish's effective sample size: about one when one sample outweighs all the rest, and then
        # there is no verdict, as with one sample (1.5: halfway, so that two equal weights pass)
        n_eff = total * total / sum(w * w for w, _ in records)
        if n_eff < 1.5:
            return prior
        best, best_gain = prior, 0.0
        for option in records[0][1]:
            if option == prior:
                continue
            diffs = [(w, v[option] - v[prior]) for w, v in records]
            mean = sum(w * d for w, d in diffs) / total
            var = sum(w * (d - mean) ** 2 for w, d in diffs) / total
            se = max((var * n_eff / (n_eff - 1)) ** 0.5, self.sd_floor) / n_eff ** 0.5
            if mean >= self.min_gain and mean > self.z * se and mean > best_gain:
                best, best_gain = option, mean
        return best

    def settle(self, decision: Decision, prior: str, records: Sequence[tuple[float, dict[str, float]]]) -> Decision:
        """``decision`` with ``choose``'s verdict on ``records`` as its action and ``prior`` kept in
        ``extra["prior"]`` (so a hint can say the easy call stood); as it was if ``prior`` was not valued."""
        if prior in decision.values:
            decision.extra["prior"] = prior
            decision.action = self.choose(prior, records)
        return decision


def think_clock() -> Callable[[], float]:
    """The clock a think budget is counted on (``PARLOUR_THINK_CLOCK``): wall time by default.

    Why a choice: on a quiet machine wall and CPU time agree; on a shared, overloaded one a
    wall-clock budget buys fewer samples, so the player's strength would depend on the other
    load.  A benchmark (``parlour arena``) may set ``PARLOUR_THINK_CLOCK=cpu`` so that every
    budget counts this process's CPU seconds (strength as on an unloaded machine, but a run's
    length grows with the load), or ``cpu:F`` for CPU seconds but never more than ``F`` times
    the budget in wall time (a bounded run: under heavy load the player gets up to ``F`` times
    the samples a wall-clock budget would buy, no more).
    """
    setting = os.environ.get("PARLOUR_THINK_CLOCK") or "wall"  # set but empty: the default
    if setting == "cpu":
        return time.process_time
    if setting.startswith("cpu:"):
        try:
            factor = float(setting[4:])
        except ValueError:
            factor = 0.0
        if not (math.isfinite(factor) and factor >= 1):
            raise ValueError("PARLOUR_THINK_CLOCK=cpu:F needs a factor F of at least 1")
        return CappedCpuClock(factor)
    if setting != "wall":  # a typo must not quietly measure on the wrong clock
        raise ValueError(f"PARLOUR_THINK_CLOCK must be wall, cpu or cpu:F, not {setting[:40]!r}")
    return time.perf_counter


class CappedCpuClock:
    """CPU seconds since creation, but running at least ``1 / factor`` as fast as the wall clock.

    Monotonic (the larger of two monotonic readings), so a budget of ``B`` seconds on it is spent
    after ``B`` CPU seconds or ``factor * B`` wall seconds, whichever comes first.
    """

    def __init__(self, factor: float) -> None:
        self.factor = factor
        self.cpu0 = time.process_time()
        self.wall0 = time.perf_counter()

    def __call__(self) -> float:
        return max(time.process_time() - self.cpu0, (time.perf_counter() - self.wall0) / self.factor)


@dataclass
class Budget:
    """How much thinking one decision may do: seconds, and bounds on the number of samples."""

    seconds: float = 0.4
    min_samples: int = 8
    max_samples: int = 400

    def __post_init__(self) -> None:
        if not (isinstance(self.seconds, (int, float)) and math.isfinite(self.seconds) and 0 <= self.seconds <= 60):
            raise ValueError("think must be a number of seconds from 0 to 60")


#: the most search nodes a second the compiled kernel runs on this machine (5-9 M): what :meth:`Pimc.bounded`
#: reckons a second of think buys a solve, at most
SOLVE_NODES_PER_SECOND = 10_000_000
#: the same for the kernels' Python copy, which the players use until the compiled ones are ready (``warm``):
#: 13 k a second here (five forced Six-Bid hearts from the first card, 261 k nodes in 20 s of CPU)
PYTHON_SOLVE_NODES_PER_SECOND = 20_000


class Pimc(Generic[World]):
    """Average an evaluator over sampled worlds, within a budget."""

    def __init__(self, draw: Callable[[random.Random], tuple[World, float] | None],
                 evaluate: Callable[[World], dict[str, float] | None], budget: Budget,
                 clock: Callable[[], float] | None = None, stop_solves: bool = False) -> None:
        self.draw = draw  # a Sampler's draw, or a function of the same kind
        self.evaluate = evaluate
        #: each sample's evaluation runs under :meth:`bounded`: for evaluators whose solves could overrun
        #: the deadline (whole-deal solves); the others check :meth:`expired` between options, or are cheap
        self.stop_solves = stop_solves
        self.budget = budget
        self.clock = clock or think_clock()
        #: the clock reading at which the budget is spent (set by ``decide``); evaluators may
        #: check it between actions and give up a sample (return ``None``) once it has passed
        self.deadline = math.inf
        self.samples = 0
        #: every sample of the last ``decide``: its weight and its values (for a :class:`Trust` test)
        self.records: list[tuple[float, dict[str, float]]] = []

    def bounded(self, solve: Callable[[], V]) -> V | None:
        """``solve()``, a sample's solves, stopped at this decision's deadline once its minimum of samples is
        in: then None (the sample is given up, as an evaluator's None says).  Before the minimum, or with no
        deadline, never stopped.

        Why: a sample's solve cannot look at the clock, and one slow solve begun just before the deadline
        kept a decision past its budget by as long as it took (a whole Ramsch at a Schafkopf bid: over a
        second).  Stopped by nodes (``search.solver.budget``; the tables kept, ``fresh=False``): what is
        left of the budget at ``SOLVE_NODES_PER_SECOND`` (``PYTHON_SOLVE_NODES_PER_SECOND`` on the Python path)."""
        if self.samples < self.budget.min_samples or not math.isfinite(self.deadline):
            return solve()
        rate = SOLVE_NODES_PER_SECOND if warm.compiled() else PYTHON_SOLVE_NODES_PER_SECOND
        nodes = max(1, int((self.deadline - self.clock()) * rate))
        try:
            with budget(nodes, fresh=False):
                return solve()
        except SearchCut:
            return None

    def expired(self) -> bool:
        """True once the budget's time is spent and the minimum number of samples is in."""
        return self.samples >= self.budget.min_samples and self.clock() >= self.deadline

    def decide(self, legal: Sequence[str], rng: random.Random) -> Decision:
        start = self.clock()
        self.deadline = start + self.budget.seconds
        self.samples = 0
        self.records = []
        if len(legal) == 1:
            return Decision.forced(legal[0])
        totals = dict.fromkeys(legal, 0.0)
        weight_sum, samples, misses = 0.0, 0, 0
        budget = self.budget
        while samples < budget.max_samples:
            if samples >= budget.min_samples and self.clock() >= self.deadline:
                break
            drawn = self.draw(rng)
            if drawn is None:  # the sampler found no consistent world this time
                misses += 1
                if misses > 20 * budget.max_samples:
                    break
                continue
            world, weight = drawn
            if weight <= 0:  # impossible under the inference model: as good as no world
                misses += 1
                if misses > 20 * budget.max_samples or self.clock() >= self.deadline:
                    break
                continue
            values = self.bounded(partial(self.evaluate, world)) if self.stop_solves else self.evaluate(world)
            if values is None:  # out of time part-way through this sample
                break
            for action in legal:
                totals[action] += weight * values[action]
            self.records.append((weight, values))
            weight_sum += weight
            samples += 1
            self.samples = samples
        if weight_sum == 0:
            return Decision(rng.choice(list(legal)), dict.fromkeys(legal, 0.0), 0, 0.0, self.clock() - start)
        means = {a: v / weight_sum for a, v in totals.items()}
        best = max(means.values())
        # Ties are broken at random (by the caller's rng) so the player stays unpredictable.
        choice = rng.choice([a for a in legal if means[a] >= best - 1e-9])
        return Decision(choice, means, samples, weight_sum, self.clock() - start)
