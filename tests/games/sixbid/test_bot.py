"""Six-Bid Solo: the easy bot (legal, sensible, stronger than random) and the line-mode texts."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.bots import make
from parlour.games.sixbid import bots as bot
from parlour.games.sixbid import text as lines


def random_states(seed: int, count: int, chips: int = 1000):
    """States at random points of random play (a fresh match whenever one ends)."""
    game = parlour.load("sixbid", chips=chips)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    for _ in range(count):
        if state.is_over:
            state = game.new_state(seed=rng.randrange(2**31))
        yield state
        state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_easy_bot_always_returns_a_legal_action(seed):
    easy = make("sixbid", "easy")
    rng = random.Random(seed)
    for state in random_states(seed, 150):
        view = state.view(state.current_player)
        assert easy.act(view, rng) in view["legal_actions"]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), contract=st.sampled_from(["solo", "heart", "misere", "guarantee", "spread",
                                                                  "call"]),
       random_play=st.sampled_from([0.0, 0.3]))
def test_the_rule_from_an_open_position_plays_as_from_the_view(seed: int, contract: str, random_play: float) -> None:
    """``open_card`` (the strong player's play-outs) chooses as ``act`` does from the seat's view, for the
    soloist and each defender of every contract (elder bids it, the others pass), at every card of a deal
    (some cards random, for odd positions).  The seat's view holds what the open position must leave out:
    the widow's cards, which nobody has seen, and a spread's open hand."""
    rng = random.Random(seed)
    easy = bot.EasyBot()
    state = parlour.load("sixbid").new_state(seed=seed)
    state.apply(contract)
    compared = 0
    while not state.deals:
        view = state.view(state.current_player)
        legal = view["legal_actions"]
        if state.phase == "bid":
            action = "pass"
        elif state.phase == "play":
            action = easy.act(view, random.Random(0))
            if len(legal) > 1:
                assert easy.open_card(state.open_position(), legal, random.Random(0)) == action
                compared += 1
            if rng.random() < random_play:
                action = rng.choice(legal)
        else:
            action = easy.act(view, random.Random(0))
        state.apply(action)
    assert compared > 0 or contract in ("misere", "spread")  # a misère or spread may end at its first trick


def test_easy_bots_play_whole_matches():
    game = parlour.load("sixbid", chips=100)
    easy = make("sixbid", "easy")
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over and len(state.deals) < 60:
            seat = state.current_player
            state.apply(easy.act(state.view(seat), rng))
        assert len(state.deals) >= 1
        assert sum(state.scores) == 300


def test_easy_bot_uses_only_the_view_and_is_deterministic_given_rng():
    state = parlour.load("sixbid").new_state(seed=9)
    easy = make("sixbid", "easy")
    view = state.view(state.current_player)
    assert easy.act(view, random.Random(1)) == easy.act(view, random.Random(1))


def test_bidding_follows_the_notes():
    # 50+ pips in aces and tens with four spades holding two of A T K: a solo.
    assert "solo" in bot.playable(["AS", "TS", "9S", "8S", "AC", "TC", "AD", "7D", "6D", "7H", "6H"])
    # Aces and tens but no trump suit: no solo.
    assert "solo" not in bot.playable(["AS", "6S", "AC", "7C", "AD", "TD", "AH", "TH", "8H", "9S", "9C"])
    # Low cards in every suit: a misere.
    assert "misere" in bot.playable(["6S", "8S", "JS", "6H", "7H", "6C", "8C", "9C", "7D", "9D", "6D"])
    # A singleton king is dangerous: no misere.
    assert "misere" not in bot.playable(["KS", "6H", "7H", "8H", "6C", "8C", "9C", "7D", "9D", "6D", "8D"])
    # Four aces, four tens and three kings: the manual says call.
    hand = ["AS", "TS", "KS", "AH", "TH", "KH", "AC", "TC", "KC", "AD", "TD"]
    assert "call" in bot.playable(hand)
    # A middling hand bids nothing.
    assert bot.playable(["KS", "9S", "7S", "QH", "8H", "JC", "9C", "6C", "TD", "8D", "7D"]) == {}


def test_bot_passes_on_a_weak_hand_and_bids_the_cheapest_playable_contract():
    easy = bot.EasyBot()
    view = {"phase": "bid", "legal_actions": ["solo", "heart", "misere", "guarantee", "spread", "call", "pass"],
            "hand": ["KS", "9S", "7S", "QH", "8H", "JC", "9C", "6C", "TD", "8D", "7D"]}
    assert easy.act(view, random.Random(0)) == "pass"
    view["hand"] = ["AS", "TS", "9S", "8S", "AC", "TC", "AD", "7D", "6D", "7H", "6H"]
    assert easy.act(view, random.Random(0)) == "solo"
    view["legal_actions"] = ["misere", "guarantee", "spread", "call", "pass"]
    assert easy.act(view, random.Random(0)) == "pass"


def test_defender_smears_pips_on_partners_winning_trick():
    easy = bot.EasyBot()
    view = {
        "phase": "play", "seat": 2, "soloist": 1, "contract": "solo", "trump": "S",
        "hand": ["AD", "7D", "6C"], "legal_actions": ["AD", "7D", "6C"],
        "trick": [[0, "AH"], [1, "7H"]], "tricks": [], "spread_hand": None,
    }
    # West is void in hearts; North (partner) wins with the ace and the soloist has played.
    assert easy.act(view, random.Random(0)) == "AD"


def test_misere_soloist_ducks_under_the_winning_card():
    easy = bot.EasyBot()
    view = {
        "phase": "play", "seat": 0, "soloist": 0, "contract": "misere", "trump": None,
        "hand": ["KH", "9H", "6H", "6C"], "legal_actions": ["KH", "9H", "6H"],
        "trick": [[1, "TH"], [2, "8H"]], "tricks": [], "spread_hand": None,
    }
    assert easy.act(view, random.Random(0)) == "KH"  # highest card still under the ten


def test_linemode_describes_every_phase_without_secrets():
    for state in random_states(21, 600):
        for seat in range(3):
            view = state.view(seat)
            text = lines.describe(view)
            assert all(isinstance(line, str) for line in text)
            call = view["call"]
            if call and call["exchanged"] and seat not in (view["soloist"], call["holder"]):
                assert "unseen" in " ".join(text)
        for summary in state.deals[-1:]:
            out = lines.summarize(summary)
            assert out and all(isinstance(line, str) for line in out)


def test_linemode_summary_texts():
    thrown = {"scores": [0, 0, 0], "thrown_in": True, "widow": ["AS", "7C", "6D"], "widow_pips": 11}
    assert lines.summarize(thrown)[0].startswith("Everybody passed")
    solo = {"scores": [32, -16, -16], "thrown_in": False, "soloist": 0, "bid": "solo", "trump": "S",
            "pips": 68, "target": 60, "made": True, "widow": ["AS", "7C", "6D"], "widow_pips": 11,
            "tricks": [6, 3, 2], "trick_pips": [57, 40, 12], "call": None, "chips": [1032, 984, 984]}
    text = "\n".join(lines.summarize(solo))
    assert "North played solo, trump spades" in text and "68 pips" in text and "made" in text
    assert "North +32" in text


@pytest.mark.slow
def test_easy_beats_random_decisively():
    game = parlour.load("sixbid")
    easy, rnd = make("sixbid", "easy"), make("sixbid", "random")
    gains = []
    for i in range(900):
        state = game.new_state(seed=i)
        rng = random.Random(i)
        hero = i % 3
        while not state.deals:
            seat = state.current_player
            state.apply((easy if seat == hero else rnd).act(state.view(seat), rng))
        gains.append(state.deals[0]["scores"][hero])
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5
    assert mean - half > 20
