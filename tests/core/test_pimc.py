"""The decision helpers every strong trick player shares (``search.pimc``)."""

from __future__ import annotations

import random

import pytest

from parlour.search.pimc import Budget, Decision, Pimc, Trust
from parlour.search.solver import SearchCut


def _records(gains: list[float], weight: float = 1.0) -> list[tuple[float, dict[str, float]]]:
    """Samples where the option "b" gains ``gains[i]`` over the easy call "a", and "c" loses 1."""
    return [(weight, {"a": 0.0, "b": g, "c": -1.0}) for g in gains]


def test_a_forced_decision_has_nothing_sampled() -> None:
    d = Decision.forced("pass")
    assert (d.action, d.values, d.samples) == ("pass", {"pass": 0.0}, 0)
    assert d.reason() == "it is the only legal action"


def test_the_reason_names_the_margin_and_a_tie_as_a_tie() -> None:
    d = Decision("b", {"a": 1.0, "b": 3.3, "c": 0.0}, 40, 40.0, 0.1)
    assert d.reason("points").startswith("over 40 deals consistent with what you have seen, it scores 2.3 points more")
    tie = Decision("a", {"a": 1.0, "b": 1.0}, 40, 40.0, 0.1)
    assert tie.reason("points").startswith("no other choice does better on average (over 40 deals")


def test_the_easy_call_stands_until_the_samples_clearly_beat_it() -> None:
    trust = Trust(z=2.0)
    assert trust.choose("a", _records([5.0])) == "a"  # one sample: no verdict
    assert trust.choose("a", _records([5.0, -4.0, 6.0, -3.0])) == "a"  # a mean inside the noise
    assert trust.choose("a", _records([5.0, 6.0, 5.5, 6.5])) == "b"  # clearly better
    assert trust.choose("b", _records([5.0, 6.0, 5.5, 6.5])) == "b"  # the call itself is best


def test_the_floor_on_the_spread_the_sample_count_and_the_least_gain() -> None:
    clear = _records([5.0, 6.0, 5.5, 6.5])
    assert Trust(z=2.0, sd_floor=50.0).choose("a", clear) == "a"  # four samples cannot beat a spread of 50
    assert Trust(z=2.0, min_samples=8).choose("a", clear) == "a"
    assert Trust(z=2.0, min_gain=10.0).choose("a", clear) == "a"
    assert Trust(z=2.0, sd_floor=1.0, min_samples=4, min_gain=5.0).choose("a", clear) == "b"


def test_unequal_weights_count_as_fewer_samples() -> None:
    """Kish's effective sample size: eight samples of which one carries almost all the weight are
    about one sample's evidence, however clearly that one favours the option."""
    even = _records([5.0, 6.0, 5.5, 6.5, 5.0, 6.0, 5.5, 6.5])
    assert Trust(z=2.0, min_samples=8).choose("a", even) == "b"
    lopsided = [(1000.0 if i == 0 else 1.0, values) for i, (_, values) in enumerate(even)]
    assert Trust(z=2.0, min_samples=8).choose("a", lopsided) == "a"
    # the same evidence, weighed by a constant, decides the same way
    assert Trust(z=2.0, min_samples=8).choose("a", [(0.01, v) for _, v in even]) == "b"
    noisy = _records([9.0, -4.0, 8.0, -3.0, 9.0, -4.0, 8.0, -3.0])  # mean 2.5, about 1.1 standard errors
    assert Trust(z=1.0).choose("a", noisy) == "b"
    halved = [(4.0 if i < 2 else 0.25, values) for i, (_, values) in enumerate(noisy)]  # about 2.8 samples
    assert Trust(z=1.0).choose("a", halved) == "a"


def test_settle_gives_the_verdict_and_keeps_the_easy_call() -> None:
    clear = _records([5.0, 6.0, 5.5, 6.5])
    decision = Trust(z=2.0).settle(Decision("c", {"a": 0.0, "b": 5.75, "c": -1.0}, 4, 4.0, 0.0), "a", clear)
    assert (decision.action, decision.extra["prior"]) == ("b", "a")
    unvalued = Trust(z=2.0).settle(Decision("b", {"b": 1.0}, 4, 4.0, 0.0), "a", clear)
    assert unvalued.action == "b" and "prior" not in unvalued.extra


def test_a_preferred_action_is_played_only_where_it_ties_for_the_best() -> None:
    assert Decision("b", {"a": 40.0, "b": 40.0, "c": -40.0}, 9, 9.0, 0.0).prefer("a").action == "a"
    assert Decision("b", {"a": 39.9, "b": 40.0, "c": -40.0}, 9, 9.0, 0.0).prefer("a").action == "b"
    assert Decision("b", {"b": 40.0}, 9, 9.0, 0.0).prefer("a").action == "b"  # not valued: not played


def test_the_records_hold_each_solved_sample_with_its_weight() -> None:
    """What a ``Trust`` test reads: a sample the evaluator gave up on, or the sampler weighed at 0,
    is not among them; the others are, in order, with the sampler's weight."""
    draws = iter([(1, 0.5), (2, 0.0), (3, 2.0), (4, 1.0)])
    pimc: Pimc[int] = Pimc(lambda r: next(draws), lambda w: None if w == 4 else {"a": float(w), "b": 0.0},
                           Budget(60.0, min_samples=0, max_samples=10))
    decision = pimc.decide(["a", "b"], random.Random(1))
    assert pimc.records == [(0.5, {"a": 1.0, "b": 0.0}), (2.0, {"a": 3.0, "b": 0.0})]
    assert decision.samples == 2 and decision.values["a"] == (0.5 * 1 + 2 * 3) / 2.5


def test_with_stop_solves_a_solve_cut_at_the_deadline_gives_its_sample_up() -> None:
    """``stop_solves=True`` runs each evaluation under ``Pimc.bounded``: a solve stopped by its node budget
    (``SearchCut``) once the minimum of samples is in drops that sample and ends the decision on the rest.
    Without it the evaluator is called bare, and a cut it did not ask for is an error, not a verdict."""

    def evaluate(world: int) -> dict[str, float]:
        if world == 3:
            raise SearchCut
        return {"a": float(world), "b": 0.0}

    def decide(stop_solves: bool) -> Decision:
        draws = iter([(1, 1.0), (2, 1.0), (3, 1.0), (4, 1.0)])
        pimc: Pimc[int] = Pimc(lambda r: next(draws), evaluate, Budget(1.0, min_samples=2, max_samples=10),
                               clock=lambda: 0.0, stop_solves=stop_solves)
        return pimc.decide(["a", "b"], random.Random(1))

    decision = decide(True)
    assert decision.samples == 2 and decision.values["a"] == 1.5
    with pytest.raises(SearchCut):
        decide(False)
