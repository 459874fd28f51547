"""The table runner: turn taking, events, hints, privacy of actions, open hands, saving."""

from __future__ import annotations

import pytest

import parlour
from parlour.bots import RandomBot, make
from parlour.table import NotYourTurn, Table

DECK = ["KD", "AD", "5D", "QD", "2D", "JD", "3D", "TD", "4D", "9D", "6D", "8D", "7D"]


def gops_table(**kw):
    state = parlour.load("gops").new_state(deck=DECK, dealer=0)
    return Table(state, [None, make("gops", "easy")], **kw)


def test_human_then_bot_and_events():
    saves = []
    table = gops_table(on_save=lambda t: saves.append(len(t.state.actions)))
    assert table.human_to_move and table.to_move == 0
    events = table.play("KC", 0)
    assert [e.kind for e in events] == ["action"]
    assert events[0].data == {"action": None, "private": True}  # a secret bid is not narrated
    events = table.run_bots()
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["action", "trick"]
    trick = events[1]
    assert trick.data["cards"][0] == [0, "KC"] and trick.data["prizes"] == ["KD"]
    assert saves == [1, 2]


def test_wrong_seat_and_illegal_actions_are_refused_without_change():
    table = gops_table()
    with pytest.raises(NotYourTurn):
        table.play("KS", 1)
    with pytest.raises(parlour.IllegalAction):
        table.play("KS")
    assert table.state.actions == []
    with pytest.raises(NotYourTurn):
        table.bot_choice()


def test_hint_is_a_legal_choice_for_the_human():
    table = gops_table()
    assert table.hint() in table.state.legal_actions()
    with pytest.raises(NotYourTurn):
        table.hint(1)


def test_open_hands_adds_every_hand_to_the_view():
    closed = gops_table().view(0)
    assert "open_hands" not in closed
    opened = gops_table(open_hands=True).view(0)
    assert opened["open_hands"]["1"] == [r + "S" for r in "A23456789TJQK"]


def test_bots_play_a_whole_game_and_the_last_events_score_it():
    state = parlour.load("gops").new_state(seed=4)
    table = Table(state, [RandomBot(), make("gops", "easy")])
    events = table.run_bots()
    assert table.is_over
    assert [e.kind for e in events][-2:] == ["deal_scored", "game_over"]
    assert events[-1].data["scores"] == state.scores
    assert sum(1 for e in events if e.kind == "trick") == 13


def test_player_count_is_checked():
    with pytest.raises(ValueError, match="needs 2 players"):
        Table(parlour.load("gops").new_state(seed=1), [None])
