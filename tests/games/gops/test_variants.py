"""GOPS options: ``cards``, ``ties`` and ``scoring`` (defaults are the seed's game)."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.games.gops import text
from parlour.games.gops.rules import card


def new(deck, **options):
    return parlour.load("gops", **options).new_state(deck=[card(v, "D") for v in deck], dealer=0)


def play(state, *pairs):
    for a, b in pairs:
        state.apply(card(a, "C"))
        state.apply(card(b, "S"))


def test_defaults_are_the_seed_game():
    game = parlour.load("gops")
    assert game.options == {"cards": 13, "ties": "carry", "scoring": "points"}
    assert game.PACK == tuple(card(v, "D") for v in range(1, 14))


def test_cards_option_shrinks_the_pack_and_the_hands():
    state = new([3, 1, 4, 5, 2], cards=5)
    assert state.legal_actions() == ["AC", "2C", "3C", "4C", "5C"]
    view = state.view(0)
    assert view["prizes_left"] == 4 and view["turns"] == 5 and view["stake"] == ["3D"]
    with pytest.raises(parlour.IllegalAction, match="A to 5 only"):
        state.apply("6C")
    play(state, (1, 2), (2, 1), (3, 3), (4, 5), (5, 4))
    assert state.is_over and len(state.deals) == 1
    # 3D to seat 1, AD to seat 0, 4D tied and carried to the 5D: seat 1 wins 9, seat 0 the 2D
    assert state.scores == [3, 12]
    shuffled = parlour.load("gops", cards=4).new_state(seed=7)
    assert sorted(shuffled.current_pack()) == ["2D", "3D", "4D", "AD"]


def test_a_deck_must_match_the_smaller_pack():
    with pytest.raises(ValueError):
        parlour.load("gops", cards=4).new_state(deck=["AD", "2D", "3D", "4D", "5D"])


@pytest.mark.parametrize("bad", [{"cards": 2}, {"cards": 14}, {"ties": "split"}, {"scoring": "margin"}])
def test_options_are_checked(bad):
    with pytest.raises(ValueError):
        parlour.load("gops", **bad)


def test_discard_loses_a_tied_stake():
    state = new([3, 1, 2], cards=3, ties="discard")
    play(state, (2, 2))
    assert state.view(0)["stake"] == ["AD"]  # the 3D went to nobody
    assert state.view(0)["history"][0]["carried"] is False
    play(state, (3, 1), (1, 3))
    assert state.scores == [1, 2] and state.winner == 1


def test_carry_keeps_a_tied_stake_and_a_last_tie_wins_nothing():
    state = new([3, 1, 2], cards=3)
    play(state, (2, 2))
    assert state.view(0)["stake"] == ["3D", "AD"]
    play(state, (1, 1), (3, 3))
    assert state.scores == [0, 0] and state.is_over and state.winner is None


@pytest.mark.parametrize("scoring, payoffs", [("points", [2, -2]), ("win", [1, -1])])
def test_scoring_sets_the_payoffs_and_scores_stay_points(scoring, payoffs):
    state = new([3, 1, 2], cards=3, scoring=scoring)
    assert state.payoffs == [0, 0]
    play(state, (3, 1), (1, 3), (2, 2))
    assert state.scores == [3, 1] and state.winner == 0
    assert state.payoffs == payoffs and state.deals[-1]["payoffs"] == payoffs


def test_win_scoring_draw_pays_nothing():
    state = new([1, 2, 3], cards=3, scoring="win")
    play(state, (1, 2), (2, 3), (3, 1))
    assert state.scores == [3, 3] and state.winner is None and state.payoffs == [0, 0]


def test_text_says_the_number_of_turns_and_the_variant():
    state = new([2, 1, 3, 4], cards=4, ties="discard", scoring="win")
    lines = text.describe(state.view(0))
    assert lines[0].startswith("Turn 1 of 4: at stake 2D")
    assert "Variant: a tied diamond is discarded, only the win counts." in lines
    assert not any("of 13" in line for line in lines)


@pytest.mark.parametrize("options", [{"cards": 3}, {"cards": 6, "ties": "discard"}, {"scoring": "win"}])
def test_records_with_options_replay_exactly(options):
    rng = random.Random(3)
    state = parlour.load("gops", **options).new_state(seed=11)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    again = parlour.from_json(state.to_json())
    assert again.game.options == state.game.options
    assert again.deals == state.deals and again.view(1) == state.view(1)
