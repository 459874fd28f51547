"""`parlour arena`: duplicate deals between two levels, and its statistics."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from parlour import arena
from parlour.cli import main


def test_every_pack_gives_one_margin_and_an_interval():
    result = arena.run("gops", "random", "random", 30)
    assert len(result.margins) == 30
    assert result.interval() > 0


def test_easy_beats_random_at_gops_with_an_interval_excluding_zero():
    result = arena.run("gops", "easy", "random", 40, jobs=2)
    assert result.mean - result.interval() > 0
    assert len(result.times[0]) == len(result.times[1]) == 40 * 2 * 13


def test_three_player_packs_seat_a_in_every_seat():
    pack = arena.play_pack("schafkopf", {}, ("easy", "random"), 3)
    assert pack.decisions[0] > 0 and pack.decisions[1] > pack.decisions[0]


def test_the_cli_prints_the_table(capsys):
    assert main(["arena", "truc", "--a", "easy", "--b", "random", "--deals", "5"]) == 0
    out = capsys.readouterr().out
    assert "margin A - B per deal" in out and "median ms" in out


@pytest.mark.parametrize("argv, message", [
    (["arena", "nope"], "unknown game"),
    (["arena", "gops", "--a", "genius"], "unknown level"),
    (["arena", "gops", "--think", "inf"], "--think"),
    (["arena", "gops", "--deals", "0"], "--deals"),
])
def test_bad_arena_arguments_get_one_line_and_status_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("game", ["clobby", "sixbid", "schafkopf", "truc", "gops"])
def test_every_game_has_a_strong_level_that_takes_a_think_budget(game):
    from parlour.bots import levels, make

    assert levels(game)[-1] == "strong"
    make(game, "strong", think=0.05)  # accepted by every strong player


def test_demo_with_the_strong_level_and_a_think_budget(capsys):
    assert main(["demo", "truc", "--level", "strong", "--think", "0.05", "--deals", "1", "--delay", "0"]) == 0
    assert "stopped after 1 deal" in capsys.readouterr().out


# -- the think budget of the searching players (search.pimc) -----------------------------------

class _FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_pimc_drops_a_sample_cut_short_by_the_deadline() -> None:
    import random

    from parlour.search.pimc import Budget, Pimc

    clock = _FakeClock()
    calls: list[int] = []

    def evaluate(world: int) -> dict[str, float] | None:
        calls.append(world)
        clock.now += 0.4  # each sample costs 0.4 "seconds"; the budget is 1
        if pimc.expired():
            return None  # what a game's evaluator does between options once the deadline passed
        return {"a": 1.0, "b": 0.0} if world % 2 else {"a": 0.0, "b": 3.0}

    pimc: Pimc[int] = Pimc(lambda r: (len(calls), 1.0), evaluate, Budget(1.0, min_samples=0), clock)
    decision = pimc.decide(["a", "b"], random.Random(1))
    assert len(calls) == 3 and decision.samples == 2  # the third sample ran past the deadline: dropped
    assert decision.values == {"a": 0.5, "b": 1.5} and decision.action == "b"
    # the minimum of samples is taken whatever the clock says
    clock.now, calls[:] = 0.0, []
    pimc = Pimc(lambda r: (len(calls), 1.0), evaluate, Budget(0.0, min_samples=3), clock)
    assert pimc.decide(["a", "b"], random.Random(1)).samples == 3


def test_the_think_clock_is_wall_cpu_or_cpu_capped_by_wall(monkeypatch) -> None:
    import time

    from parlour.search.pimc import CappedCpuClock, think_clock

    monkeypatch.delenv("PARLOUR_THINK_CLOCK", raising=False)
    assert think_clock() is time.perf_counter
    monkeypatch.setenv("PARLOUR_THINK_CLOCK", "cpu")
    assert think_clock() is time.process_time
    monkeypatch.setenv("PARLOUR_THINK_CLOCK", "cpu:2")
    clock = think_clock()
    assert isinstance(clock, CappedCpuClock) and clock.factor == 2
    readings = [clock() for _ in range(100)]
    assert readings == sorted(readings)
    time.sleep(0.02)  # sleeping uses no CPU, yet the capped clock advances with half the wall time
    assert clock() >= 0.01
    for default in ("wall", ""):
        monkeypatch.setenv("PARLOUR_THINK_CLOCK", default)
        assert think_clock() is time.perf_counter
    for bad in ("cpu:0.5", "cpu:x", "cpu:inf", "bogus", "cpux"):
        monkeypatch.setenv("PARLOUR_THINK_CLOCK", bad)
        with pytest.raises(ValueError):
            think_clock()


def test_the_arena_times_decisions_in_cpu_time_when_budgets_count_it(monkeypatch) -> None:
    monkeypatch.setenv("PARLOUR_THINK_CLOCK", "cpu:2")
    result = arena.run("gops", "easy", "random", 2)
    assert result.clock == "cpu" and "cpu clock" in result.table()
    monkeypatch.delenv("PARLOUR_THINK_CLOCK")
    assert arena.run("gops", "easy", "random", 2).clock == "wall"


def test_the_think_help_states_each_games_default(capsys) -> None:
    from parlour.bots import make

    assert main(["demo", "clobby", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for game, name in (("clobby", "Clobby"), ("schafkopf", "Schafkopf"), ("sixbid", "Six-Bid")):
        assert f"{name} {make(game, 'strong').budget.seconds:g}" in text


def test_the_share_of_a_yardstick_is_the_ratio_of_means_with_a_paired_interval() -> None:
    yardstick = arena.ArenaResult("gops", ("cheater", "easy"), margins=[10.0, 30.0, 20.0, 40.0])
    half = arena.ArenaResult("gops", ("strong", "easy"), margins=[5.0, 15.0, 10.0, 20.0])
    share, width = half.share_of(yardstick)
    assert share == 0.5 and width == 0.0  # every pack exactly half: nothing left to doubt
    noisy = arena.ArenaResult("gops", ("strong", "easy"), margins=[7.0, 13.0, 12.0, 18.0])
    share, width = noisy.share_of(yardstick)
    assert share == 0.5 and 0 < width < noisy.interval() / yardstick.mean
    with pytest.raises(ValueError, match="3 packs against the yardstick's 4"):
        arena.ArenaResult("gops", ("strong", "easy"), margins=[1.0, 2.0, 3.0]).share_of(yardstick)


def test_the_gain_over_another_result_is_paired_pack_by_pack() -> None:
    base = arena.ArenaResult("gops", ("strong", "easy"), margins=[10.0, 30.0, 20.0, 40.0])
    shifted = arena.ArenaResult("gops", ("hybrid", "easy"), margins=[12.0, 32.0, 22.0, 42.0])
    assert shifted.gain_over(base) == " +2.00 ±  0.00"  # the same 2 on every pack: no doubt left, however wide each
    noisy = arena.ArenaResult("gops", ("hybrid", "easy"), margins=[13.0, 31.0, 21.0, 43.0])
    assert noisy.gain_over(base) == " +2.00 ±  1.13"  # 1.96 * stdev(3, 1, 1, 3) / 2
    with pytest.raises(ValueError, match="3 packs against the other's 4"):
        arena.ArenaResult("gops", ("strong", "easy"), margins=[1.0, 2.0, 3.0]).gain_over(base)


def test_a_run_played_in_parts_extends_into_one_result() -> None:
    first = arena.ArenaResult("sixbid", ("strong", "easy"), margins=[1.0], times=[[0.1], [0.2]],
                              declared=Counter({("solo", True): 1}))
    later = arena.ArenaResult("sixbid", ("strong", "easy"), margins=[3.0], times=[[0.3], []], clock="cpu",
                              declared=Counter({("solo", True): 1, None: 2}))
    first.extend(later)
    assert first.margins == [1.0, 3.0] and first.times == [[0.1, 0.3], [0.2]]
    assert first.declared == Counter({("solo", True): 2, None: 2}) and first.clock == "cpu"


def test_a_result_names_the_clock_its_decisions_were_timed_on(monkeypatch) -> None:
    """``arena.run`` and a bench that plays packs itself name one clock: CPU wherever the budgets count CPU."""
    monkeypatch.delenv("PARLOUR_THINK_CLOCK", raising=False)
    assert arena.decision_clock_name() == "wall"
    for cpu in ("cpu", "cpu:2"):
        monkeypatch.setenv("PARLOUR_THINK_CLOCK", cpu)
        assert arena.decision_clock_name() == "cpu"


def test_a_percentile_is_a_value_taken_by_nearest_rank() -> None:
    """The p99 the arena's table and the benches quote is one of the values, not an interpolation."""
    assert arena.percentile([5.0, 1.0, 3.0, 2.0], 0.5) == 3.0
    assert arena.percentile(range(100), 0.99) == 99 and arena.percentile(range(200), 0.99) == 198
    assert arena.percentile([7.0], 0.99) == 7.0
    assert math.isnan(arena.percentile([], 0.99))
