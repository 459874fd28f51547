"""The shared text layer (``parlour.text``): what it asks of each game, and what it says itself."""

from __future__ import annotations

import random
import re

import pytest

import parlour
from parlour import text
from parlour.linemode.render import render
from parlour.registry import game_class, names
from parlour.table import Event, Table


def test_an_action_is_spoken_by_its_game():
    assert text.narrate(Event("action", 0, {"action": "QH+bella"}), "clobby", 2) == [
        "North plays QH and announces bella!"]
    assert text.narrate(Event("action", 1, {"action": "QH"}), "clobby", 2, human=1) == ["South (you) plays QH"]
    assert text.narrate(Event("action", 2, {"action": "pass"}), "schafkopf", 3) == ["West says pass"]
    assert text.narrate(Event("action", 0, {"action": None, "private": True}), "gops", 2) == [
        "North has chosen, face down."]


def test_the_default_speech_without_a_hook():
    assert text.speak_action("truc", "7H") == "plays 7H"
    assert text.speak_action("truc", "double") == "says double"


@pytest.mark.parametrize("game", names())
def test_the_dealer_is_shown_exactly_when_the_game_has_one(game):
    state = parlour.load(game).new_state(seed=3)
    shown = "Dealer:" in render(state.view(0), 0)
    assert shown == game_class(game).HAS_DEALER == text.has_dealer(game)
    assert game_class(game).HAS_DEALER == (game != "gops")


def test_a_trick_with_prizes_says_them():
    line = text.trick_line({"cards": [[0, "7C"], [1, "KS"]], "prizes": ["2D"]}, 1, ["North", "South"])
    assert line == "Trick: North 7C, South KS — won by South for 2D."
    assert text.last_trick_line(None, 2) == "No trick yet."


def test_narration_never_reveals_a_private_action():
    state = parlour.load("gops").new_state(seed=5)
    table = Table(state, [None, None])
    rng = random.Random(1)
    for _ in range(10):
        seat = table.to_move
        action = rng.choice(state.legal_actions())
        private = state.action_is_private
        events = table.play(action)
        said = text.narrate(events[0], "gops", 2, human=1 - seat if seat is not None else None)
        if private:
            assert action not in " ".join(said)


def test_stats_table():
    assert text.format_stats([]) == "No finished games yet."
    from parlour.store import GameStats

    out = text.format_stats([GameStats("gops", "easy", played=4, won=3, lost=1, drawn=0, won_with_undo=0, resigned=0)])
    assert out.splitlines()[2].split() == ["gops", "easy", "4", "3", "0", "1", "0", "75.0%"]
    # a win after an undo is counted apart from the clean wins
    out = text.format_stats([GameStats("gops", "easy", played=4, won=3, lost=1, drawn=0, won_with_undo=1, resigned=0)])
    assert out.splitlines()[2].split() == ["gops", "easy", "4", "2", "1", "1", "0", "50.0%"]


def test_a_games_result_says_who_resigned_and_never_calls_a_resigned_game_drawn():
    resigned = {"how": "resignation", "seat": 0}
    assert text.game_result(3, 0, None) == "drawn"
    assert text.game_result(3, 0, None, resigned) == "lost (you resigned)"
    assert text.game_result(3, 1, None, resigned) == "North resigned (no winner)"
    assert text.game_result(2, 1, 1, resigned) == "won (North resigned)"
    assert text.game_result(2, 0, 1, {"how": "resignation", "seat": 0}) == "lost (you resigned)"
    assert text.game_result(2, None, 1, resigned) == "demo"
    assert text.game_result(2, 1, 0, left=True) == "you left your seat (a computer played on)"
    from dataclasses import replace

    from parlour.store import FinishedGame

    row = FinishedGame(1, "schafkopf", "easy", 0, None, [0, 0, 0], 0.0, {"how": "resignation", "seat": 2}, [])
    assert text.history_result(row) == "West resigned (no winner)"
    assert text.history_result(replace(row, game="not-installed")) == "Seat 2 resigned (no winner)"


def test_a_win_with_an_undo_is_counted_apart(tmp_path):
    from parlour.store import open_store

    store = open_store(tmp_path / "u.db")
    store.finish_game("gops", '{"actions": ["AC", "#undo 1", "2C"]}', "easy", 0, 0, [5, 1])
    store.finish_game("gops", '{"actions": ["AC"]}', "easy", 0, 0, [5, 1])
    assert store.stats()[0].won == 2 and store.stats()[0].won_with_undo == 1
    store.close()


def test_prompts_say_what_is_asked():
    import random as _random

    from parlour import registry as _registry
    from parlour.text import format_key_table, prompt

    found = {}
    for game in ("schafkopf", "sixbid"):
        for seed in range(40):
            state = _registry.load(game).new_state(seed=seed)
            rng = _random.Random(seed)
            while not state.is_over and len(state.deals) < 1:
                seat = state.current_player
                view = state.view(seat)
                if view["phase"] in ("discard", "give"):
                    found.setdefault((game, view["phase"], len(view.get("discard") or [])),
                                     prompt(view, view["legal_actions"], view["hand"]))
                state.apply(rng.choice(state.legal_actions()))
    assert found[("schafkopf", "discard", 0)] == "Discard 2 cards to the skat (1 of 2)"
    assert found[("schafkopf", "discard", 1)] == "Discard 2 cards to the skat (2 of 2)"
    give = found[("sixbid", "give", 0)]
    assert give.startswith("Give ") and " one of your cards for " in give
    view = _registry.load("gops").new_state(seed=1).view(0)
    assert prompt(view, view["legal_actions"], view["hand"]) == "Play a card"
    # the ? list and the README: the original's F-keys of each game
    assert "F4       replay option" in format_key_table("sixbid") and "F6" not in format_key_table("sixbid")
    assert "F3       jokes on/off" in format_key_table("truc")
    assert "F3       sort your hand" in format_key_table("clobby")


def test_the_felt_holds_what_a_game_says_lies_face_up_and_a_round_of_play_has_its_games_word():
    """``felt`` and ``trick_word``: GOPS's diamond at stake with the carried ones beside it; nothing elsewhere."""
    state = parlour.load("gops").new_state(seed=5)
    [(caption, cards)] = text.felt(state.view(0))
    assert cards == state.view(0)["stake"] and re.fullmatch(r"At stake: \d+ points?", caption)
    state.apply("AC")
    state.apply("AS")  # a tie: the diamond is carried
    stake = state.view(1)["stake"]
    (first, turned), (second, carried) = text.felt(state.view(1))
    assert turned == stake[-1:] and carried == stake[:-1] and second == "Carried from ties"
    assert first.startswith("At stake: ") and first.endswith(" in all")
    state.apply(state.legal_actions()[0])  # North bids: his own bid lies face down before him
    assert text.felt(state.view(0))[-1] == ("Your bid, face down", [state.view(0)["chosen"]])
    assert all(caption != "Your bid, face down" for caption, _ in text.felt(state.view(1)))
    assert text.trick_word("gops") == "turn"
    clobby = parlour.load("clobby").new_state(seed=1)
    assert text.felt(clobby.view(0)) == [("Upcard", [clobby.view(0)["upcard"]])]  # face up from the deal on
    clobby.apply("take")  # the upcard's suit is the trump: drawn beside it, as a suit by itself
    upcard = clobby.view(1)["upcard"]
    assert text.felt(clobby.view(1)) == [("Upcard", [upcard]), ("Trump", [upcard[1]])]
    for game in ("sixbid", "schafkopf", "truc"):
        assert text.felt(parlour.load(game).new_state(seed=1).view(0)) == []
        assert text.trick_word(game) == "trick"
    sixbid = parlour.load("sixbid").new_state(seed=1)
    while "trump C" not in sixbid.legal_actions():  # a solo bid, the others pass: the soloist names clubs
        sixbid.apply(next(a for a in ("solo", "pass") if a in sixbid.legal_actions()))
        assert text.felt(sixbid.view(0)) == []
    sixbid.apply("trump C")
    assert all(text.felt(sixbid.view(seat)) == [("Trump", ["C"])] for seat in range(3))
