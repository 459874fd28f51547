"""Undo, the hint and replaying a deal at any point (issue 12): the table and the record (the terminal
table: tests/interfaces/tui/test_undo.py; line mode: tests/interfaces/line/test_undo.py)."""

from __future__ import annotations

import random

import pytest

from parlour import registry
from parlour.bots import make
from parlour.engine import REPLAY_DEAL, effective_actions
from parlour.records import from_json
from parlour.table import CannotUndo, Table

GAMES = ["clobby", "sixbid", "schafkopf", "truc", "gops"]


def table_for(game: str, seed: int = 3) -> Table:
    state = registry.load(game).new_state(seed=seed)
    bots = [None] + [make(game, "easy") for _ in range(state.game.num_players - 1)]
    return Table(state, bots, hint_level="easy")


@pytest.mark.parametrize("game", GAMES)
def test_undo_takes_back_the_last_decision_and_the_replies_and_the_record_replays_it(game: str) -> None:
    table = table_for(game)
    rng = random.Random(0)
    table.run_bots()
    with pytest.raises(CannotUndo):
        table.undo(0)  # nothing of ours yet
    for _ in range(20):  # a move after which the deal goes on (a thrown-in deal leaves nothing to take back)
        before = table.state.view(0)
        standing = list(effective_actions(table.state.actions))
        deals = len(table.state.deals)
        table.play(rng.choice(table.state.legal_actions()))
        table.run_bots()
        if len(table.state.deals) == deals:
            break
        with pytest.raises(CannotUndo):
            table.undo(0)  # a finished deal's scores stand
    events = table.undo(0)
    assert events[0].kind == "undo" and events[0].data["count"] >= 1
    assert table.state.view(0) == before and effective_actions(table.state.actions) == standing
    assert table.state.actions[-1].startswith("#undo ")
    assert table.undos == 1
    # repeatable to the start of the deal, then refused with a reason
    for _ in range(3):
        if table.is_over:
            break
        table.play(rng.choice(table.state.legal_actions()))
        table.run_bots()
    while True:
        try:
            table.undo(0)
        except CannotUndo as exc:
            assert "no move" in str(exc) or "over" in str(exc)
            break
    rebuilt = from_json(table.state.to_json())
    assert rebuilt.actions == table.state.actions and rebuilt.view(0) == table.state.view(0)


@pytest.mark.parametrize("game", ["sixbid", "schafkopf", "clobby"])
def test_replay_works_after_the_computer_acted(game: str) -> None:
    table = table_for(game, seed=5)
    rng = random.Random(1)
    while not table.state.deals:
        table.run_bots()
        if table.human_to_move:
            table.play(rng.choice(table.state.legal_actions()))
    pack = table.state._packs[-2][0]  # the finished deal's pack
    table.run_bots()
    assert not table.state.deal_is_fresh or table.human_to_move
    events = table.replay_deal()
    assert events[-1].kind == "replay"
    assert table.state.current_pack() == pack and table.state.actions[-1] == REPLAY_DEAL
    rebuilt = from_json(table.state.to_json())
    assert rebuilt.current_pack() == pack and rebuilt.view(0) == table.state.view(0)


def test_the_hint_says_why_where_the_player_can() -> None:
    class Explaining:
        def act(self, view, rng):
            return view["legal_actions"][0]

        def explain(self, view, rng):
            return view["legal_actions"][-1], "because"

    table = table_for("gops")
    table._hinter = Explaining()
    legal = table.state.legal_actions()
    assert table.suggest() == (legal[-1], "because")
    table._hinter = make("gops", "easy")  # an equilibrium player's mix is its reason (issue 25, point 12)
    action, reason = table.suggest()
    assert action in legal and reason is not None and reason.startswith("drawn from the player's mix: ")

    class Silent:
        def act(self, view, rng):
            return view["legal_actions"][0]

    table._hinter = Silent()  # a player that can say nothing: no reason
    action, reason = table.suggest()
    assert action in legal and reason is None
