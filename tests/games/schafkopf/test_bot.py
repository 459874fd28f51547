"""The Schafkopf easy player: legal everywhere, follows the manual's notes, beats random."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.bots import RandomBot, make
from parlour.games.schafkopf.bots import EasyBot
from parlour.games.schafkopf.rules import INDEX


def deck_of(elder: str, nxt: str, dealer: str, skat: str) -> list[str]:
    e, n, d, s = elder.split(), nxt.split(), dealer.split(), skat.split()
    return e[0:3] + n[0:3] + d[0:3] + s + e[3:7] + n[3:7] + d[3:7] + e[7:10] + n[7:10] + d[7:10]


L2 = deck_of("QC QS QH QD JC JS JH JD 7H 8H", "AD TD KD AH TH KH 9H AC KC 9C",
             "9D 8D 7D 8C 7C AS KS 9S 8S 7S", "TC TS")
L4 = deck_of("QC QS QH QD AS 7H 8H 9H 7S 8S", "JC JS JH AD TD AH TH KH TS KS",
             "JD KD 9D 8D 7D KC 9C 8C 7C 9S", "AC TC")
L5 = deck_of("QC QS QH QD JC JS 7H 8H 9H 7S", "JH JD AD TD AH TH KH AC TC KC",
             "KD 9D 8D 7D AS TS KS 9S 8S 9C", "8C 7C")


def _act(state: parlour.State) -> str:
    return EasyBot().act(state.view(state.current_player), random.Random(0))


# 400 deals: a soloist's discard decides his card rarely (in 1 deal of a few hundred), and ``known`` must hold it
@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), pass_rate=st.sampled_from([0.5, 0.8, 1.0]),
       random_play=st.sampled_from([0.0, 0.3]))
def test_the_rule_from_an_open_position_plays_as_from_the_view(seed: int, pass_rate: float, random_play: float) -> None:
    """``open_card`` (the strong player's play-outs) chooses as ``act`` does from the seat's view, for every
    seat, soloist, defender or in a Ramsch, at every card of a deal (some cards random, for odd positions)."""
    rng = random.Random(seed)
    bot = EasyBot()
    state = parlour.load("schafkopf").new_state(seed=seed)
    compared = 0
    while not state.deals:
        legal = state.legal_actions()
        if state.phase == "bid":
            action = "pass" if rng.random() < pass_rate else "pick-up"
        elif state.phase == "play":
            action = bot.act(state.view(state.current_player), random.Random(0))
            assert bot.open_card(state.open_position(), legal) == action
            compared += 1
            if rng.random() < random_play:
                action = rng.choice(legal)
        else:
            action = _act(state)
        state.apply(action)
    assert compared == 30


def test_registry_gives_the_easy_bot() -> None:
    assert isinstance(make("schafkopf", "easy"), EasyBot)
    assert EasyBot.name == "easy"


@pytest.mark.parametrize(("hand", "picks"), [
    ("QC QS QH JC JS AD TD 7D 7H 8S", True),  # seven trumps, four of the top eight
    ("QC QS JC JS AD KD 9D AH 8S 7S", True),  # six trumps, four top
    ("QC JC JS AD KD 9D AH 8H 8S 7S", True),  # six trumps, three top and a side ace
    ("QC QS JC AD KD AC AH 8H 8S 7S", True),  # five trumps, three top, two side aces
    ("QC QS JC AD KD TC KH 8H 8S 7S", False),  # five trumps, no side ace
    ("QD JD AD TD KD 9D TC KH 8H 8S", False),  # six trumps, two top, no ace
    ("JD AD 9D 7D AC TC KH 8H 8S 7S", False),  # four trumps
])
def test_pick_up_follows_the_manual(hand: str, picks: bool) -> None:
    assert EasyBot.wants_skat([INDEX[c] for c in hand.split()]) is picks


def test_bidding_from_a_view() -> None:
    s = parlour.load("schafkopf").new_state(deck=L2, dealer=2)
    assert _act(s) == "pick-up"  # eight queens and jacks
    weak = deck_of("JH JD AD TD AH TH KH AC TC KC", "QC QS QH QD JC JS 7H 8H 9H 7S",
                   "KD 9D 8D 7D AS TS KS 9S 8S 9C", "8C 7C")
    s = parlour.load("schafkopf").new_state(deck=weak, dealer=2)  # four trumps, two of them top
    assert _act(s) == "pass"
    s.apply("pass")
    assert _act(s) == "pick-up"  # East: the four queens and two jacks


def test_discard_makes_voids_and_banks_tens() -> None:
    s = parlour.load("schafkopf").new_state(deck=L2, dealer=2)
    s.apply("pick-up")  # North: eight trumps, 7H 8H, and the skat TC TS
    first = _act(s)
    s.apply(first)
    second = _act(s)
    assert {first, second} == {"TC", "TS"}


def test_defender_smears_on_the_partners_sure_trick() -> None:
    s = parlour.load("schafkopf").new_state(deck=L4, dealer=2)
    for action in ["pick-up", "AC", "TC", "QC", "JS", "9D", "QS", "JH", "8D", "QH", "AD", "7D",
                   "QD", "TD", "JD", "7H", "AH"]:
        s.apply(action)
    # The soloist led 7H, East took it with AH; West, last, throws his fattest plain card.
    assert s.current_player == 2
    assert _act(s) == "KC"


def test_ramsch_ducks_and_sheds_high_cards() -> None:
    s = parlour.load("schafkopf").new_state(deck=L5, dealer=2)
    for _ in range(3):
        s.apply("pass")
    s.apply("7H")
    # East must follow with a heart and every heart wins: not last, he wins as low as he can.
    assert _act(s) == "KH"
    s.apply("KH")
    # West cannot follow: he sheds his ace of spades onto East's trick.
    assert _act(s) == "AS"


def test_easy_bot_always_chooses_a_legal_action() -> None:
    game = parlour.load("schafkopf", target=4)
    bot, rnd = EasyBot(), RandomBot()
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        steps = 0
        while not state.is_over and steps < 400:
            seat = state.current_player
            view = state.view(seat)
            choice = bot.act(view, rng)
            assert choice in view["legal_actions"]
            # Mix in random moves so that the bot meets odd positions too.
            state.apply(choice if rng.random() < 0.5 else rnd.act(view, rng))
            steps += 1


def test_three_easy_bots_finish_a_game() -> None:
    game = parlour.load("schafkopf")
    bot = EasyBot()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.is_over:
            state.apply(bot.act(state.view(state.current_player), rng))
        assert state.winner is not None and max(state.scores) >= 10


def _margin(deals: int, seed0: int) -> tuple[float, float]:
    """Mean points per deal of one easy seat minus the mean of the random seats, and its s.e."""
    game = parlour.load("schafkopf")
    easy, rnd = EasyBot(), RandomBot()
    rng = random.Random(seed0)
    diffs = []
    for i in range(deals):
        seat = i % 3
        bots = [easy if s == seat else rnd for s in range(3)]
        state = game.new_state(seed=seed0 + i)
        while not state.deals:
            p = state.current_player
            state.apply(bots[p].act(state.view(p), rng))
        scores = state.deals[0]["scores"]
        diffs.append(scores[seat] - sum(scores[s] for s in range(3) if s != seat) / 2)
    mean = sum(diffs) / deals
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (deals - 1))
    return mean, sd / math.sqrt(deals)


def test_easy_beats_random_per_deal() -> None:
    mean, se = _margin(240, 1000)
    assert mean > 0.5 and mean > 3 * se


@pytest.mark.slow
def test_easy_beats_random_decisively() -> None:
    mean, se = _margin(9000, 50_000)
    assert mean > 1.0 and mean > 8 * se
