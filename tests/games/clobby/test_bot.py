"""Clobby: the easy bot (legal, plays whole games, follows the notes, beats random) and line mode."""

from __future__ import annotations

import json
import random

import pytest

import parlour
from helpers.clobby import DEAL_A, DEAL_B, DEAL_C, DIX_DECK, build, new, play
from parlour.bots import make
from parlour.games.clobby import text as lines
from parlour.games.clobby.bots import EasyBot, hand_count


def play_game(opts: dict, seed: int, bots: list, *, check: bool = True, deals: int | None = None,
              render: bool = False) -> parlour.State:
    state = parlour.load("clobby", **opts).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over and (deals is None or len(state.deals) < deals):
        p = state.current_player
        view = state.view(p)
        action = bots[p].act(view, rng)
        if check:
            assert action in view["legal_actions"], (action, view["legal_actions"])
        if render:
            for seat in (0, 1):
                out = lines.describe(state.view(seat))
                assert all(isinstance(x, str) for x in out)
        n = len(state.deals)
        state.apply(action)
        if render and len(state.deals) > n:
            assert all(isinstance(x, str) for x in lines.summarize(state.deals[-1]))
    return state


@pytest.mark.parametrize("opts", [{}, {"tout_atout": True}, {"clubs_preferred": True, "no_tie": True},
                                  {"tout_atout": True, "clubs_preferred": True, "game_point": 200}])
def test_easy_bot_always_legal_and_finishes_games(opts: dict) -> None:
    easy, rnd = make("clobby", "easy"), make("clobby", "random")
    assert easy.name == "easy"
    for seed in range(6):
        bots = [easy, easy] if seed % 3 == 0 else ([easy, rnd] if seed % 3 == 1 else [rnd, easy])
        state = play_game({"game_point": 300, **opts}, seed, bots, render=seed < 2)
        assert state.is_over


def test_easy_bot_beats_random_quickly() -> None:
    easy, rnd = EasyBot(), make("clobby", "random")
    wins = 0
    for seed in range(16):
        es = seed % 2
        bots = [easy, rnd] if es == 0 else [rnd, easy]
        state = play_game({"game_point": 200}, 1000 + seed, bots, check=False)
        wins += state.winner == es
    assert wins >= 14


@pytest.mark.slow
def test_easy_bot_strength_against_random() -> None:
    easy, rnd = EasyBot(), make("clobby", "random")
    wins = 0
    n = 200
    for seed in range(n):
        es = seed % 2
        bots = [easy, rnd] if es == 0 else [rnd, easy]
        state = play_game({}, 50_000 + seed, bots, check=False)
        wins += state.winner == es
    assert wins / n >= 0.9


# -- the notes, decision by decision -----------------------------------------------------------
def _act(state: parlour.State) -> str:
    return EasyBot().act(state.view(state.current_player), random.Random(0))


def test_counts_the_six_cards_like_the_notes() -> None:
    # menel 14 + two aces 22 + ace-ten with trumps led? no jass, 2 trumps: 16 instead of 11
    assert hand_count(["9H", "AS", "TS", "AC", "7H", "8D"], "H") == (14 + 16 + 11, False)
    # with the jass the hand can lead trumps: the ace-ten counts 21
    assert hand_count(["JH", "AS", "TS", "7C", "8D", "9D"], "H") == (20 + 21, True)
    # bella 20, a lone ten counts nothing, a run 20
    assert hand_count(["KH", "QH", "TD", "7C", "8C", "9C"], "H") == (20 + 20, False)


def test_elder_takes_with_the_jass() -> None:
    s = new(DEAL_A)  # elder holds JH and 9H with upcard 7H
    assert _act(s) == "take"


def test_elder_never_schmeisses_in_round1() -> None:
    for seed in range(200):
        s = parlour.load("clobby").new_state(seed=seed)
        assert _act(s) != "schmeiss"


def test_weak_elder_passes() -> None:
    deck = build("7S 8C 9D KD QS 7D", "JH 9H AH TS KS AS", "8H", "JC 9C AC", "TH QH KH")
    s = new(deck)
    assert _act(s) == "pass"


def test_round2_promotes_a_jack() -> None:
    # elder: JC 9C AC plus junk; the upcard suit (hearts) is weak for him
    deck = build("JC 9C AC 7S 8D 7D", "JH 9H AH TS KS AS", "8H", "KC 9S 8S", "TH QH KH")
    s = new(deck)
    play(s, "pass pass")
    assert _act(s) == "name C"


def test_refuses_a_schmeiss_holding_the_jass() -> None:
    s = new(DEAL_A)
    play(s, "pass schmeiss")  # the dealer schmeisses hearts; elder holds JH and 9H
    assert _act(s) == "refuse"


def test_dix_is_exchanged_for_a_ten() -> None:
    s = new(DIX_DECK)
    s.apply("take")
    assert _act(s) == "keep"  # elder is asked first and has no 7 of trumps: keep is all he may say
    s.apply("keep")
    assert _act(s) == "exchange"  # the dealer holds 7S: the upcard TS is worth 10 more


def test_leads_the_jass_first() -> None:
    s = new(DEAL_A)
    s.apply("take")
    assert _act(s) == "JH"


def test_takes_the_trick_with_the_card_that_wins_most() -> None:
    s = new(DEAL_B)
    play(s, "pass pass name S JS AS 9S 7C KC")
    assert _act(s) == "AC"  # the ace takes the king: 15 points


def test_throws_the_cheapest_card_when_it_cannot_win() -> None:
    s = new(DEAL_A)
    play(s, "take JH")
    assert _act(s) == "QH"  # three points rather than the ten or the king


def test_announces_bella_when_not_maker() -> None:
    s = new(DEAL_A)
    play(s, "take JH QH 9H")
    assert EasyBot().act(s.view(1), random.Random(0)) in ("KH+bella", "TH")
    view = s.view(1)
    view["legal_actions"] = ["KH", "KH+bella"]
    assert EasyBot().act(view, random.Random(0)) == "KH+bella"


def test_maker_withholds_bella_when_bete_looks_certain() -> None:
    s = new(DEAL_A)
    play(s, "pass take JH QH 9H")  # the dealer is maker and far behind
    view = s.view(1)
    view["legal_actions"] = ["KH", "KH+bella"]
    view["points"] = [140, 0]
    assert EasyBot().act(view, random.Random(0)) == "KH"
    view["points"] = [10, 0]
    assert EasyBot().act(view, random.Random(0)) == "KH+bella"


def test_bot_uses_only_the_view() -> None:
    s = new(DEAL_C, tout_atout=True)
    play(s, "pass pass")
    view = json.loads(json.dumps(s.view(0)))  # a plain dict, as a remote client would send
    assert EasyBot().act(view, random.Random(0)) in view["legal_actions"]


# -- line mode ------------------------------------------------------------------------------
def test_describe_shows_bidding_trump_melds_and_bella() -> None:
    s = new(DEAL_A)
    text = "\n".join(lines.describe(s.view(0)))
    assert "Upcard: 7H" in text and "Round 1" in text
    play(s, "take")
    text = "\n".join(lines.describe(s.view(1)))
    assert "Bidding: North take" in text and "Trump: hearts, maker: North" in text
    assert "Top meld: North" in text
    play(s, "JH QH 9H KH+bella")
    text = "\n".join(lines.describe(s.view(1)))
    assert "North shows 9C 8C 7C = 20" in text and "Bella: South (hearts), 20" in text


def test_summarize_made_bete_and_thrown_in() -> None:
    s = new(DEAL_A)
    play(s, "take JH QH 9H KH+bella AH TH AS 8S TS 9S KS JS 7C QS 8C TD 9C AD")
    text = "\n".join(lines.summarize(s.deals[-1]))
    assert "North made it" in text and "Totals: North 143, South 20" in text
    s = new(DEAL_B)
    play(s, "pass pass name S JS AS 9S 7C KC AC TH 7H QH 8H JH 7S QC 9C TS 9H 8S JC")
    text = "\n".join(lines.summarize(s.deals[-1]))
    assert "North is bete" in text and "150" in text and "South 50" in text
    s = new(DEAL_A)
    play(s, "schmeiss accept")
    assert lines.summarize(s.deals[-1]) == ["Thrown in (schmeiss accepted): no score."]


def test_describe_clubs_preferred_and_tout_atout() -> None:
    s = new(DEAL_C, tout_atout=True)
    play(s, "pass pass name sans-tout tout-atout")
    assert any("tout atout" in x for x in lines.describe(s.view(0)))
    deck = build("7C 8C 9C AD TD KD", "JH 9H AH TS KS QS", None, "JC 7H 8H", "AS 9S 7D")
    s = new(deck, clubs_preferred=True)
    assert any("Clubs preferred" in x for x in lines.describe(s.view(1)))
