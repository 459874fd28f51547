"""GOPS computer players: every one exposes its mixed strategy; ``strong`` is unexploitable
where it solves exactly; the best-response tool agrees with a walk of the full tree."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import parlour
from parlour.bots import RandomBot, levels, make
from parlour.games.gops.bots import EasyBot
from parlour.games.gops.exploit import best_response_value, exploitability
from parlour.games.gops.strong import StrongBot


def test_levels_include_strong():
    assert levels("gops") == ["random", "easy", "strong"]
    assert isinstance(make("gops", "strong"), StrongBot)


def _views(seed, **options):
    """Every view a seat to move sees in one random game."""
    rng = random.Random(seed)
    state = parlour.load("gops", **options).new_state(seed=seed)
    while not state.is_over:
        yield state.view(state.current_player)
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("bot", [RandomBot(), EasyBot(), StrongBot()], ids=["random", "easy", "strong"])
@pytest.mark.parametrize("options", [{"cards": 5}, {"cards": 13, "ties": "discard", "scoring": "win"}])
def test_policies_are_distributions_over_the_legal_cards(bot, options):
    for view in _views(3, **options):
        mix = bot.policy(view)
        assert set(mix) <= set(view["legal_actions"]) and mix
        assert sum(mix.values()) == pytest.approx(1) and min(mix.values()) >= 0
        assert bot.act(view, random.Random(1)) in mix


def test_easy_policy_is_what_act_samples():
    view = next(v for i, v in enumerate(_views(5)) if i == 6)  # seat 0, turn 4: 10 cards left
    mix = EasyBot().policy(view)
    rng = random.Random(9)
    draws = Counter(EasyBot().act(view, rng) for _ in range(4000))
    for c in set(mix) | set(draws):
        assert draws[c] / 4000 == pytest.approx(mix.get(c, 0.0), abs=0.03)


def test_strong_samples_its_mix_with_the_given_rng():
    view = next(_views(8, cards=5))
    bot = StrongBot()
    mix = bot.policy(view)
    rng = random.Random(2)
    draws = Counter(bot.act(view, rng) for _ in range(3000))
    for c, p in mix.items():
        assert draws[c] / 3000 == pytest.approx(p, abs=0.03)
    assert bot.act(view, random.Random(4)) == bot.act(view, random.Random(4))


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("ties", ["carry", "discard"])
def test_strong_is_unexploitable_in_small_games(n, ties):
    assert exploitability(StrongBot(), n, ties, "win") == pytest.approx(0, abs=1e-6)


def test_strong_is_unexploitable_on_points_too():
    assert exploitability(StrongBot(), 4, "carry", "points") == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("bot", [RandomBot(), EasyBot()], ids=["random", "easy"])
def test_weak_players_can_be_exploited(bot):
    assert exploitability(bot, 4, "carry", "win") > 0.3


@pytest.mark.parametrize("scoring", ["points", "win"])
@pytest.mark.parametrize("ties", ["carry", "discard"])
def test_merged_best_response_equals_the_full_tree(ties, scoring):
    for bot in (RandomBot(), EasyBot(), StrongBot()):
        for seat in (0, 1):
            merged = best_response_value(bot, 3, ties, scoring, seat)
            assert merged == pytest.approx(best_response_value(bot, 3, ties, scoring, seat, merge=False), abs=1e-9)


def test_best_response_beats_a_fixed_reply_to_random():
    # A lower bound worked out by enumeration: against a uniformly random seat 1, bidding the
    # card equal to the prize (N = 3, discard, points) wins ``matching`` on average; the best
    # response can only do as well or better.
    from itertools import permutations

    total = 0.0
    for order in permutations([1, 2, 3]):
        for theirs in permutations([1, 2, 3]):
            mine = order  # bid value equal to the prize
            total += sum((p if a > b else -p if b > a else 0) for p, a, b in zip(order, mine, theirs, strict=True))
    matching = total / 36
    assert best_response_value(RandomBot(), 3, "discard", "points", seat=1) >= matching - 1e-9


def test_strong_plays_a_whole_13_card_game():
    state = parlour.load("gops").new_state(seed=21)
    bots = [make("gops", "strong"), make("gops", "easy")]
    rng = random.Random(21)
    while not state.is_over:
        seat = state.current_player
        state.apply(bots[seat].act(state.view(seat), rng))
    assert state.is_over and sum(state.scores) <= 91
