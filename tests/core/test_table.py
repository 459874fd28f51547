"""The table runner: turn taking, events, hints, privacy of actions, open hands, saving."""

from __future__ import annotations

import random
from typing import Any

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
    # a secret bid is not narrated; only the (public) phases it was made in and led to are told
    assert events[0].data == {"action": None, "private": True, "phase": "bid", "next_phase": "bid"}
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


# -- actions the table answers by itself (a game's AUTO_ACTIONS) ----------------------------------
def dix_table(deck, players, before=()):
    """A Clobby table at the dix (spades taken on the upcard TS; seat 1 deals, seat 0 is elder)."""
    from helpers.clobby import new, play

    state = new(deck)
    play(state, "take " + " ".join(before))
    return Table(state, players)


def test_a_humans_only_automatic_action_is_made_without_asking_and_recorded():
    from helpers.clobby import DIX_NOBODY

    assert parlour.load("clobby").AUTO_ACTIONS == {"keep"} and parlour.load("gops").AUTO_ACTIONS == frozenset()
    table = dix_table(DIX_NOBODY, [make("clobby", "easy"), None])  # the human deals; nobody holds 7S
    assert table.to_move == 0 and not table.human_to_move
    events = table.run_bots()  # elder (bot) keeps, the human's keep is answered, elder leads, the human follows
    assert [(e.kind, e.seat, e.data["action"]) for e in events[:2]] == [("action", 0, "keep"), ("action", 1, "keep")]
    assert table.state.actions[:3] == ["take", "keep", "keep"] and table.state.phase == "play"
    assert table.to_move == 1 and table.human_to_move and table.auto_action() is None


def test_a_human_with_a_real_choice_is_asked():
    from helpers.clobby import DIX_ELDER

    table = dix_table(DIX_ELDER, [None, make("clobby", "easy")])  # the human is elder and holds 7S
    assert table.human_to_move and table.auto_action() is None
    assert table.state.legal_actions() == ["exchange", "keep"]
    assert table.run_bots() == []
    table.play("keep", 0)
    assert table.state.current_player == 1  # the dealer (a bot) answers keep itself


def test_step_bot_makes_the_automatic_action_and_a_bot_seat_is_not_answered_for():
    from helpers.clobby import DIX_NOBODY

    table = dix_table(DIX_NOBODY, [None, None])
    assert table.auto_action() == "keep"
    events = table.step_bot()
    assert events[0].kind == "action" and events[0].seat == 0 and events[0].data["action"] == "keep"
    assert table.auto_action() == "keep" and table.state.current_player == 1
    bots = dix_table(DIX_NOBODY, [make("clobby", "easy"), make("clobby", "easy")])
    assert bots.auto_action() is None  # only humans are answered for: a bot chooses for itself


def test_line_mode_narrates_the_automatic_keep_and_never_prompts_for_it():
    from helpers.clobby import DIX_NOBODY
    from parlour.linemode.play import play_human

    table = dix_table(DIX_NOBODY, [None, make("clobby", "easy")])  # the human is elder, without 7S
    out: list[str] = []
    prompts: list[str] = []

    def inp(prompt: str) -> str:
        prompts.append(out[-1] if out else "")
        return "q"

    assert play_human(table, 0, inp=inp, out=out.append) == "quit"
    assert table.state.actions[:3] == ["take", "keep", "keep"]
    assert any("keep" in line and "(you)" in line for line in out), out  # narrated as the human's action
    assert table.state.phase == "play" and len(prompts) == 1
    assert not any("1) keep" in line for line in out)  # no screen ever offered keep as a choice


@pytest.mark.parametrize("game", ["clobby", "sixbid", "schafkopf", "truc", "gops"])
def test_the_view_kept_from_the_last_action_changes_no_event(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play`` reuses the view it took after an action as the next actor's view before its own:
    the events (with undos and a replay between) are those of a table that takes every view anew."""
    from parlour.registry import load

    def run(fresh_views: bool) -> list[Any]:
        if fresh_views:
            monkeypatch.setattr(Table, "_view_before", lambda self, actor: self.state.view(actor))
        state = load(game).new_state(seed=21)
        table = Table(state, [None] * state.game.num_players)
        bot, rng = make(game, "easy"), random.Random(5)
        told: list[Any] = []
        for step in range(600):
            if table.state.is_over:
                break
            if step % 7 == 3 and table.state.deal_actions > 0:  # back over tricks and phases
                table.state.undo(1 + rng.randrange(min(6, table.state.deal_actions)))
            if step == 120 and table.state.deals and table.state.deal_actions:
                told += table.replay_deal()
            seat = table.to_move
            assert seat is not None
            told += table.play(bot.act(table.state.view(seat), rng))
        monkeypatch.undo()
        return [(e.kind, e.seat, e.data) for e in told]

    assert run(False) == run(True)


@pytest.mark.parametrize("game", ["gops", "truc"])
def test_a_mixing_players_hint_gives_its_mix_as_the_reason(game):
    """Issue 25, point 12: GOPS and Le Truc hints say why too: the probabilities they draw from."""
    from parlour.bots import make

    state = parlour.load(game).new_state(seed=2)
    table = Table(state, [None, make(game, "strong")], hint_level="strong")
    action, reason = table.suggest(state.current_player)
    assert action in state.legal_actions()
    assert reason is not None and reason.startswith("drawn from the player's mix: ") and " %" in reason
