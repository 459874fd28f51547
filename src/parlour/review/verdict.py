"""A decision's cost and a deal's verdict: defined once, for every game.

- A decision's **cost** is what its choice lost to the best choice, by the information values
  (what could be known when it was made): ``max(values) - values[chosen]``, never below 0.
- A deal's **loss** is the sum of its decisions' costs, in the game's unit; per decision, that
  sum over the decisions that had a choice.
- A deal's **accuracy** is the share of what its decisions could win or lose that the choices
  kept: ``100 * sum(chosen - worst) / sum(best - worst)`` over the decisions whose options were
  not all worth the same.  100 % is the best choice every time, 0 % the worst every time;
  unit-free, so it reads the same in every game (None when no choice mattered).

Why on the information values and not the cards as they lay: a player can be asked to play
well with what they could know, not to guess the hidden cards; the values with every hand open
are shown beside them, as what the cards would have allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: values closer than this are equal (float sums of samples)
EPS = 1e-9
#: a cost below this is no mistake worth listing among the costliest (it shows as 0.0)
NEGLIGIBLE = 0.05


def best_of(values: Mapping[str, float]) -> str:
    """The best action (the first of equals, in the values' order)."""
    top = max(values.values())
    return next(a for a, v in values.items() if v >= top - EPS)


def cost(values: Mapping[str, float] | None, chosen: str) -> float | None:
    """What ``chosen`` lost to the best of ``values`` (None: it was not valued)."""
    if not values or chosen not in values:
        return None
    return max(0.0, max(values.values()) - values[chosen])


@dataclass(frozen=True)
class Verdict:
    """The sums a deal's (or a game's) verdict is read from."""

    loss: float
    decisions: int
    kept: float
    at_stake: float

    @property
    def per_decision(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def accuracy(self) -> float | None:
        return 100.0 * self.kept / self.at_stake if self.at_stake > EPS else None

    def __add__(self, other: Verdict) -> Verdict:
        return Verdict(self.loss + other.loss, self.decisions + other.decisions, self.kept + other.kept,
                       self.at_stake + other.at_stake)


NONE = Verdict(0.0, 0, 0.0, 0.0)


def verdict(judged: Iterable[tuple[Mapping[str, float], str]]) -> Verdict:
    """The verdict of decisions given as (values, chosen), each valued and with a choice."""
    total = NONE
    for values, chosen in judged:
        c = cost(values, chosen)
        if c is None or len(values) < 2:
            continue
        worst, top = min(values.values()), max(values.values())
        total = total + Verdict(c, 1, values[chosen] - worst, top - worst)
    return total


def costliest(costs: Sequence[tuple[float, int]], k: int = 3) -> list[int]:
    """The places of the ``k`` costliest of (cost, place), costliest first (earlier first on a tie);
    a decision that cost next to nothing (``NEGLIGIBLE``) is not among them."""
    ranked = sorted((c for c in costs if c[0] >= NEGLIGIBLE), key=lambda c: (-c[0], c[1]))
    return [place for _, place in ranked[:k]]
