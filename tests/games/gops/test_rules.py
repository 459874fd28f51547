"""GOPS rules (RULES.md "GOPS"), each with an exact prize order from ``deck=``."""

from __future__ import annotations

import json

import pytest

import parlour
from parlour.games.gops.rules import PRIZE_PACK, VALUE_OF

ORDER = ["KD", "AD", "5D", "QD", "2D", "JD", "3D", "TD", "4D", "9D", "6D", "8D", "7D"]


def new(deck=ORDER):
    return parlour.load("gops").new_state(deck=deck, dealer=0)


def play_turn(state, c0, c1):
    state.apply(c0)
    state.apply(c1)


def test_hands_and_first_stake():
    s = new()
    assert s.current_player == 0
    assert s.legal_actions() == [r + "C" for r in "A23456789TJQK"]
    v0 = s.view(0)
    assert v0["stake"] == ["KD"] and v0["prizes_left"] == 12
    s.apply("2C")
    assert s.current_player == 1
    assert s.legal_actions() == [r + "S" for r in "A23456789TJQK"]


def test_higher_card_wins_the_stake_and_diamonds_are_valued_a1_to_k13():
    s = new()
    play_turn(s, "AC", "2S")  # KD to seat 1
    play_turn(s, "KC", "QS")  # AD to seat 0
    assert s.scores == [1, 13]
    assert s.view(0)["won"] == [["AD"], ["KD"]]


def test_tie_carries_the_stake_to_the_next_turn():
    s = new()
    play_turn(s, "7C", "7S")  # KD carried
    assert s.scores == [0, 0]
    assert s.view(1)["stake"] == ["KD", "AD"]
    play_turn(s, "8C", "8S")  # KD AD carried
    play_turn(s, "9C", "2S")  # KD AD 5D = 19 to seat 0
    assert s.scores == [19, 0]
    assert s.view(0)["stake"] == ["QD"]


def test_tie_on_the_last_turn_wins_nothing():
    s = new()
    ranks = "A23456789TJQK"
    for r in ranks[:12]:
        play_turn(s, r + "C", r + "S")
    assert s.scores == [0, 0]
    assert len(s.view(0)["stake"]) == 13
    play_turn(s, "KC", "KS")
    assert s.is_over and s.scores == [0, 0] and s.winner is None
    assert s.current_player is None and s.legal_actions() == []


def test_all_91_points_are_won_without_a_final_tie_and_the_higher_total_wins():
    s = new()
    for i, r in enumerate("A23456789TJQK"):
        other = "A23456789TJQK"[(i + 1) % 13]
        play_turn(s, r + "C", other + "S")
    assert sum(s.scores) == 91
    assert s.is_over
    # seat 0 won only the turn where it played K against A: the 13th prize, 7D
    assert s.scores == [7, 84]
    assert s.winner == 1
    assert s.deals[-1]["scores"] == [7, 84]
    assert s.deals[-1]["points"] == [7, 84]


def test_equal_totals_are_a_draw():
    # Seat 1 wins the odd turns (AD 2D 3D TD JD QD = 39), seat 0 the even ones
    # (4D 5D 6D 7D 8D 9D = 39); the KD is lost to a tie on the last turn.
    s = new(deck=["AD", "4D", "2D", "5D", "3D", "6D", "TD", "7D", "JD", "8D", "QD", "9D", "KD"])
    seat1 = "2A436587T9QJK"
    for i, r in enumerate("A23456789TJQK"):
        play_turn(s, r + "C", seat1[i] + "S")
    assert s.scores == [39, 39]
    assert s.is_over and s.winner is None


def test_cards_cannot_be_reused_or_taken_from_the_other_suit():
    s = new()
    s.apply("5C")
    with pytest.raises(parlour.IllegalAction) as err:
        s.apply("5C")
    assert "5S" in str(err.value)
    s.apply("5S")
    before = s.to_json()
    for bad in ("5C", "AS", "AD", "xx", "ac"):
        with pytest.raises(parlour.IllegalAction):
            s.apply(bad)
    assert s.to_json() == before


def test_seat_one_cannot_tell_which_card_seat_zero_chose():
    views = set()
    for card in new().legal_actions():
        s = new()
        s.apply(card)
        views.add(json.dumps(s.view(1), sort_keys=True))
        assert card in s.view(1)["opponent_hand"]
        assert s.view(0)["chosen"] == card and card not in s.view(0)["hand"]
    assert len(views) == 1


def test_the_face_down_prizes_are_never_shown():
    s = new()
    text = json.dumps(s.view(0)) + json.dumps(s.view(1))
    for prize in ORDER[1:]:
        assert prize not in text


def test_seeded_states_shuffle_the_prizes_and_replay():
    a = parlour.load("gops").new_state(seed=11)
    b = parlour.load("gops").new_state(seed=11)
    assert a.view(0) == b.view(0)
    assert sorted(a.current_pack()) == sorted(PRIZE_PACK)
    assert sum(VALUE_OF[c] for c in PRIZE_PACK) == 91


def test_gops_has_no_options_and_one_deal():
    with pytest.raises(ValueError, match="unknown option"):
        parlour.load("gops", game_point=5)
    s = new()
    assert not s.can_replay_deal
