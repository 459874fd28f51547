"""The decision helpers every strong trick player shares (``search.pimc``)."""

from __future__ import annotations

from parlour.search.pimc import Decision, Trust


def _records(gains: list[float], weight: float = 1.0) -> list[tuple[float, dict[str, float]]]:
    """Samples where the option "b" gains ``gains[i]`` over the easy call "a", and "c" loses 1."""
    return [(weight, {"a": 0.0, "b": g, "c": -1.0}) for g in gains]


def test_a_forced_decision_has_nothing_sampled() -> None:
    d = Decision.forced("pass")
    assert (d.action, d.values, d.samples) == ("pass", {"pass": 0.0}, 0)
    assert d.reason() == "it is the only legal action"


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
