"""Perfect-information Monte Carlo (PIMC): the decision loop of the trick-game ``strong`` players.

Why this shape: the best card-game programs (Skat's Kermit, bridge's double-dummy players,
SchafkopfRL's PIMC players) decide by dealing the cards a seat cannot see in ways consistent
with everything it has seen, solving each deal with all hands open, and choosing the action
that is best on average.  What is game-specific — drawing a consistent deal (with its weight:
how likely the others' bidding and play were under it) and solving it — comes from the game's
package; the loop, the time budget and the bookkeeping are the same for every game and live here.

A *world* is whatever the game's sampler returns and its evaluator understands (typically the
hidden hands as bitmasks plus the position).  ``evaluate(world)`` returns the value of each
legal action for the deciding seat in that world (higher is better).

Strategy fusion and information leakage — PIMC's known weaknesses — are the games' to
mitigate (e.g. by evaluating only the seat's own next decision and letting later decisions be
re-sampled, and by weighting samples with an inference model); see each game's ``bots.py``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

World = TypeVar("World")


@dataclass
class Decision:
    """What PIMC chose and why: the mean value of every action over the samples it could afford."""

    action: str
    values: dict[str, float]
    samples: int
    weight: float
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def margin(self) -> float:
        """How much better the chosen action is than the next best, on average (0 if alone)."""
        ranked = sorted(self.values.values(), reverse=True)
        return ranked[0] - ranked[1] if len(ranked) > 1 else 0.0

    def reason(self, unit: str = "points") -> str:
        """One sentence for the hint: why this action."""
        if len(self.values) < 2:
            return "it is the only legal action"
        return (f"over {self.samples} deals consistent with what you have seen, it scores "
                f"{self.margin:.1f} {unit} more on average than the next best choice")


@dataclass
class Budget:
    """How much thinking one decision may do: seconds, and bounds on the number of samples."""

    seconds: float = 0.4
    min_samples: int = 8
    max_samples: int = 400

    def __post_init__(self) -> None:
        if not (isinstance(self.seconds, (int, float)) and math.isfinite(self.seconds) and 0 <= self.seconds <= 60):
            raise ValueError("think must be a number of seconds from 0 to 60")


class Pimc(Generic[World]):
    """Average an evaluator over sampled worlds, within a budget."""

    def __init__(self, sample: Callable[[random.Random], tuple[World, float] | None],
                 evaluate: Callable[[World], dict[str, float]], budget: Budget,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.sample = sample
        self.evaluate = evaluate
        self.budget = budget
        self.clock = clock

    def decide(self, legal: Sequence[str], rng: random.Random) -> Decision:
        start = self.clock()
        if len(legal) == 1:
            return Decision(legal[0], {legal[0]: 0.0}, 0, 0.0, 0.0)
        totals = dict.fromkeys(legal, 0.0)
        weight_sum, samples, misses = 0.0, 0, 0
        budget = self.budget
        while samples < budget.max_samples:
            if samples >= budget.min_samples and self.clock() - start >= budget.seconds:
                break
            drawn = self.sample(rng)
            if drawn is None:  # the sampler found no consistent world this time
                misses += 1
                if misses > 20 * budget.max_samples:
                    break
                continue
            world, weight = drawn
            if weight <= 0:
                continue
            values = self.evaluate(world)
            for action in legal:
                totals[action] += weight * values[action]
            weight_sum += weight
            samples += 1
        if weight_sum == 0:
            return Decision(rng.choice(list(legal)), dict.fromkeys(legal, 0.0), 0, 0.0, self.clock() - start)
        means = {a: v / weight_sum for a, v in totals.items()}
        best = max(means.values())
        # Ties are broken at random (by the caller's rng) so the player stays unpredictable.
        choice = rng.choice([a for a in legal if means[a] >= best - 1e-9])
        return Decision(choice, means, samples, weight_sum, self.clock() - start)
