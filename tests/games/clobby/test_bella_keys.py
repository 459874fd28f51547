"""Clobby's bella: ``b`` then the card's own key, never one key cycling between choices.

Why: every ``<card>+bella`` choice used to share the key ``b``, and pressing it moved between
them, so the same keys made a different choice depending on what else was on offer.  Now a
bella is ``b`` followed by the key the card has in the hand (``CardKeys``: it changes only
when cards join the hand; line mode: ``b QH``); a card that may not be played with bella now
is refused in one line with the engine's reason, and Esc cancels a started sequence.
(The terminal table: tests/interfaces/tui/test_bella.py; line mode: tests/interfaces/line/test_bella.py.)
"""

from __future__ import annotations

import random

import pytest

import parlour
from helpers.clobby import BELLA_DECK, build, new, play
from parlour.text import (
    CardKeys,
    action_kind,
    announced_choice,
    choice_key,
    choice_sequence,
    format_key_table,
    refuse_key,
    typed_announced_choice,
)
from parlour.tui.choices import arrange


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


def test_b_when_no_card_may_be_played_is_refused_in_one_line() -> None:
    state = new(BELLA_DECK)  # the bidding: no card is played now
    assert "b" not in "".join(choice_key("clobby", a) for a in state.legal_actions())
    assert refuse_key("clobby", "b") == "B (a card with bella) is not possible now."
    row = "b+card   bella: b, then the key of the card (b 5 plays the card under 5 with bella)"
    assert row in format_key_table("clobby").splitlines()


# -- the same keys in every deal ------------------------------------------------------------------------
def test_each_bella_has_the_same_keys_all_deal_in_every_deal() -> None:
    """Over many random deals (tout atout too, where bella may be open in two suits at once), every
    ``+bella`` choice is ``b`` then the key its card has had since cards last joined the hand, those keys
    make exactly that choice, and no other choice or card has them."""
    seen = 0
    for seed in range(160):
        game = parlour.load("clobby", tout_atout=seed % 2 == 1)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        keys = {seat: CardKeys() for seat in (0, 1)}
        first: dict[tuple[int, int, str], str] = {}  # (deal, seat, card) -> the key it got first
        while not state.is_over and len(state.deals) < 3:
            seat = state.current_player
            deal = len(state.deals)
            for s in (0, 1):  # every hand on screen, as the table shows it after each action
                hand = list(state.view(s)["hand"])
                now = keys[s].assign(hand, (deal, s))
                if keys[s].rebound:  # cards joined: the whole hand is keyed again, left to right
                    first = {k: v for k, v in first.items() if k[:2] != (deal, s)}
                for card, key in now.items():
                    assert first.setdefault((deal, s, card), key) == key, f"{card} changed key"
            legal = state.legal_actions()
            hand = list(state.view(seat)["hand"])
            bound = keys[seat].assign(hand, (deal, seat))
            got = arrange("clobby", hand, legal, None, None, bound)
            bellas = [a for a in legal if a.endswith("+bella")]
            sequences = dict(zip(got.buttons, got.button_keys, strict=True))
            for action in bellas:
                card = action.removesuffix("+bella")
                assert action_kind("clobby", action) == "+bella"
                expected = "b" + first[(deal, seat, card)]
                assert sequences[action] == expected == choice_sequence("clobby", action, bound)
                assert announced_choice("clobby", expected, bound, legal) == ("done", action)
                assert typed_announced_choice("clobby", f"b {card}") == action
                # b is nobody else's key, and b + a card key is no other choice's keys
                assert "b" not in bound.values()
                assert [a for a in got.buttons if sequences[a] == expected] == [action]
            seen += len(bellas)
            # tout atout whenever it may be named: bella is then open in every suit
            state.apply("name tout-atout" if "name tout-atout" in legal else rng.choice(legal))
    assert seen >= 40, seen  # the checks above did run (two at once: the tout-atout test below)


def test_two_bellas_at_once_each_have_their_own_keys() -> None:
    """Tout atout: North has played KH and KS, so QH+bella and QS+bella are both open; each is b
    then its own queen's key, and neither key ever picks the other."""
    deck = build("KH QH KS QS 7C 8C", "7H 8H 7S 8S 9D 8D", "7D", "9C TC AC", "JD TD AD")
    state = new(deck, tout_atout=True)
    play(state, "pass pass name tout-atout KH 7H KS 7S")
    legal = state.legal_actions()
    assert {"QH+bella", "QS+bella"} <= set(legal)
    hand = list(state.view(0)["hand"])
    bound = CardKeys().assign(hand, (1, 0))
    got = arrange("clobby", hand, legal, None, None, bound)
    assert got.buttons == ["QH+bella", "QS+bella"]
    assert got.button_keys == ["b" + bound["QH"], "b" + bound["QS"]] and bound["QH"] != bound["QS"]
    for queen in ("QH", "QS"):
        assert announced_choice("clobby", "b" + bound[queen], bound, legal) == ("done", queen + "+bella")
    status, said = announced_choice("clobby", "b", bound, legal)
    assert status == "more" and f"{bound['QH'].upper()} QH, {bound['QS'].upper()} QS" in said
    assert announced_choice("clobby", "b" + bound["7C"], bound, legal) == ("done", "7C+bella")  # the engine refuses it
    assert announced_choice("clobby", "bz", bound, legal)[0] == "refused"
