"""What the words say (parlour.text and the games' text): Six-Bid's call keys, one announcement for the
Schafkopf discard, no "1 tricks", a spread soloist's own hand, suit symbols in the key table."""

from __future__ import annotations

import random
import re

import pytest

import parlour
from helpers.sixbid import sixbid_at_the_call
from parlour.registry import game_class
from parlour.table import Table
from parlour.text import (
    card_choice,
    choice_sequence,
    format_key_table,
    narrate,
    typed_card_choice,
)

PACK36 = game_class("sixbid").PACK


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


# -- 1. Six-Bid's call: keys bound to the card, the same in every deal ------------------------------
def test_each_call_has_its_own_keys_in_every_deal() -> None:
    for seed in range(6):
        state = sixbid_at_the_call(seed)
        for action in state.legal_actions():
            code = action.split()[1]
            assert choice_sequence("sixbid", action) == "x" + code.lower()  # never its place in a list
            assert card_choice("sixbid", "x" + code.lower(), PACK36) == ("done", action)
            assert typed_card_choice("sixbid", f"x {code}", PACK36) == action
    assert card_choice("sixbid", "x", PACK36)[0] == "more" and card_choice("sixbid", "xq", PACK36)[0] == "more"
    assert card_choice("sixbid", "xz", PACK36)[0] == "refused"  # not a rank: refused, never remapped
    assert card_choice("sixbid", "xaz", PACK36)[0] == "refused"
    assert card_choice("sixbid", "x0d", PACK36) == ("done", "call TD")
    assert typed_card_choice("sixbid", "x 10d", PACK36) == "call TD"
    assert typed_card_choice("sixbid", "pass", PACK36) is None
    assert "x+card" in format_key_table("sixbid")


# -- 4. the Schafkopf discard is announced once ----------------------------------------------------------
def schafkopf_discard(seed: int = 1) -> tuple[Table, int]:
    state = parlour.load("schafkopf").new_state(seed=seed)
    table = Table(state, [None] * 3)
    while state.view(state.current_player)["phase"] != "discard":
        table.play("pick-up" if "pick-up" in state.legal_actions() else "pass")
    return table, state.current_player


def test_the_discard_is_one_announcement() -> None:
    table, soloist = schafkopf_discard()
    other = (soloist + 1) % 3
    lines: list[str] = []
    own: list[str] = []
    for _ in range(2):
        card = table.state.legal_actions()[0]
        events = table.play(card)
        lines += narrate(events[0], "schafkopf", 3, human=other)
        own += narrate(events[0], "schafkopf", 3, human=soloist, own=card)
    assert lines == [f"{table.names[soloist]} discards two cards to the skat, face down."]
    assert [line.rpartition("(")[2] for line in own] == ["1 of 2).", "2 of 2)."] and "puts" in own[0]
    # other hidden choices are said once each, as before
    gops = parlour.load("gops").new_state(seed=1)
    said = narrate(Table(gops, [None, None]).play("AC")[0], "gops", 2, human=1)
    assert said == ["North has chosen, face down."]


# -- 7. the smaller things seen --------------------------------------------------------------------------------
def test_counts_are_never_said_as_1_tricks() -> None:
    from parlour.games.clobby.text import describe as clobby_describe
    from parlour.games.gops.text import describe as gops_describe
    from parlour.games.truc.text import summarize as truc_summarize

    summary = {"winner": 0, "stake": 1, "ended": "tricks", "tricks_won": [1, 0], "remainder": False,
               "round_scores": [1, 0], "round": 1, "round_winner": None, "hands": None}
    assert "with 1 trick and scores 1 point." in truc_summarize(summary)[0]
    seen = set()
    for seed in range(6):
        state = parlour.load("clobby").new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over and len(state.deals) < 1:
            for line in clobby_describe(state.view(0)):
                assert not re.search(r"\b1 (tricks|cards)\b", line), line
                seen.update(re.findall(r"\(1 trick\)|holds 1 card\b", line))
            state.apply(rng.choice(state.legal_actions()))
    assert seen == {"(1 trick)", "holds 1 card"}
    view = parlour.load("gops").new_state(deck=["AD", *[f"{r}D" for r in "23456789TJQK"]]).view(0)
    assert "= 1 point" in gops_describe(view)[0] and "points" not in gops_describe(view)[0]


def test_a_spread_soloist_is_told_about_his_own_hand() -> None:
    from parlour.games.sixbid.text import describe

    for seed in range(30):
        state = parlour.load("sixbid").new_state(seed=seed)
        while state.view(0)["phase"] == "bid" and not state.is_over:
            legal = state.legal_actions()
            state.apply("spread" if state.current_player == 0 and "spread" in legal else "pass")
        if state.view(0).get("soloist") == 0:
            break
    mine, theirs = " ".join(describe(state.view(0))), " ".join(describe(state.view(1)))
    assert "your hand face up" in mine and "his hand" not in mine
    assert "his hand face up" in theirs


def test_suits_keys_and_choices_use_symbols() -> None:
    # (tests/interfaces/tui/test_screen.py checks the log and the buttons: ``trump ♣``, ``a card of ♠``)
    assert "trump ♣" in format_key_table("sixbid") and "name ♥" in format_key_table("clobby")
    assert "trump C" not in format_key_table("sixbid")


def test_card_codes_read_as_cards_and_letters_to_type_stay_letters() -> None:
    from parlour.cards import pretty_action

    assert pretty_action("call AS") == "call A♠"
    assert pretty_action("you do not hold TH") == "you do not hold 10♥"
    assert pretty_action("trump C") == "trump ♣"
    assert pretty_action("name one of C D H S") == "name one of C D H S"  # letters to type, not suits
