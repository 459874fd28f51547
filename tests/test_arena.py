"""`parlour arena`: duplicate deals between two levels, and its statistics."""

from __future__ import annotations

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
