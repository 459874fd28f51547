"""Le Truc: the easy player (legal, view-only, mixed) and the line-mode texts."""

from __future__ import annotations

import copy
import importlib.util
import json
import random

import pytest

import parlour
from helpers import ROOT
from parlour.bots import make
from parlour.cards import PACK_32
from parlour.games.truc import text as lines
from parlour.games.truc.bots import EasyBot, round_chance

N, S = 0, 1


def new(nd: list[str], d: list[str], seed: int = 0) -> parlour.State:
    top = [c for pair in zip(nd, d, strict=True) for c in pair]
    return parlour.load("truc").new_state(seed=seed, deck=top + [c for c in PACK_32 if c not in top], dealer=N)


def random_states(n: int, seed: int):
    """States reached by random play (with plenty of calls for cards), one per step."""
    rng = random.Random(seed)
    game = parlour.load("truc")
    made = 0
    g = 0
    while made < n:
        state = game.new_state(seed=seed * 1000 + g)
        g += 1
        while not state.is_over and made < n:
            yield state
            made += 1
            legal = state.legal_actions()
            state.apply("call" if "call" in legal and rng.random() < 0.4 else rng.choice(legal))


def test_easy_bot_is_registered_and_always_legal_from_the_view_alone():
    bot = make("truc", "easy")
    assert isinstance(bot, EasyBot) and bot.name == "easy"
    rng = random.Random(3)
    for state in random_states(1500, seed=1):
        seat = state.current_player
        view = state.view(seat)
        frozen = copy.deepcopy(view)
        action = bot.act(view, rng)
        assert action in view["legal_actions"]
        assert view == frozen  # the bot does not scribble on the view


def test_easy_bot_plays_whole_games_against_random_and_itself():
    game = parlour.load("truc")
    rng = random.Random(8)
    for g in range(12):
        bots = [make("truc", "easy"), make("truc", "random" if g % 3 else "easy")]
        if g % 2:
            bots.reverse()
        state = game.new_state(seed=g)
        steps = 0
        while not state.is_over:
            seat = state.current_player
            state.apply(bots[seat].act(state.view(seat), rng))
            steps += 1
            assert steps < 20_000
        assert state.winner in (0, 1)


def _choices(view: dict, n: int = 400) -> dict[str, int]:
    bot = EasyBot()
    counts: dict[str, int] = {}
    for i in range(n):
        a = bot.act(view, random.Random(i))
        counts[a] = counts.get(a, 0) + 1
    return counts


def test_it_bluffs_with_weak_cards_and_slow_plays_strong_ones():
    weak = new(["9H", "9C", "TH"], ["7S", "8S", "AS"])
    weak.apply("play")
    counts = _choices(weak.view(S))
    assert 0 < counts.get("double", 0) < 200  # a bluff now and then, not always
    strong = new(["7H", "7C", "7D"], ["9S", "TS", "JS"])
    strong.apply("play")
    counts = _choices(strong.view(S))
    assert 200 < counts.get("double", 0) < 400  # mostly value doubles, sometimes a slow play


def test_calls_for_cards_mostly_with_weak_hands_but_not_only():
    weak = _choices(new(["9H", "9C", "TH"], ["7S", "8S", "AS"]).view(S))
    strong = _choices(new(["7H", "7C", "8D"], ["9S", "TS", "JS"]).view(S))
    assert weak.get("call", 0) > strong.get("call", 0) > 0
    assert strong.get("play", 0) > 0


def test_declines_a_hopeless_double_and_never_gives_the_round_away():
    # trick 3 after one trick each; North won the first, so even a tie is his: South's nine is lost
    state = new(["KH", "7H", "9H"], ["AS", "QS", "TS"])
    for a in ("play", "KH", "AS", "TS", "7H", "9H", "double"):
        state.apply(a)
    assert _choices(state.view(S), 100) == {"decline": 100}
    # North at 11 offers the remainder: declining hands him the round, so South always accepts
    state = new(["9H", "9C", "TH"], ["7S", "8S", "AS"])
    state._scores = [11, 0]  # set-up shortcut: North 11 points
    state.apply("play")
    state.apply("TH")
    state.apply("remainder")
    assert _choices(state.view(S), 100) == {"accept": 100}


def test_round_chance_is_sensible():
    assert round_chance(12, 3) == 1.0 and round_chance(3, 13) == 0.0
    assert round_chance(0, 0) == 0.5 and round_chance(6, 0) > 0.5 > round_chance(0, 6)


# -- line mode ---------------------------------------------------------------------------
def test_describe_and_summarize_cover_every_phase():
    for state in random_states(800, seed=5):
        for seat in (0, 1):
            view = state.view(seat)
            out = lines.describe(view)
            assert out and all(isinstance(x, str) for x in out)
            hidden = state.view(1 - seat)["hand"]
            if not view["last_deal"]:
                assert not any(c in " ".join(out) for c in hidden)
            if view["last_deal"]:
                assert all(isinstance(x, str) for x in lines.summarize(view["last_deal"]))


def test_offers_are_shown_plainly():
    state = new(["7H", "KH", "9H"], ["8S", "QS", "TS"])
    assert any("may play, or call" in x for x in lines.describe(state.view(N)))
    state.apply("play")
    state.apply("double")
    text = "\n".join(lines.describe(state.view(N)))
    assert '"2 if I play?"' in text and "Stake: 1 point." in text
    state.apply("decline")
    summary = "\n".join(lines.summarize(state.deals[-1]))
    assert "North declined South's offer to double: South scores 1 point." in summary


def test_remainder_and_round_lines():
    state = new(["7H", "8H", "9H"], ["7C", "8C", "AC"])
    for a in ("call", "refuse", "8H", "double", "accept", "7C", "double", "accept", "8C", "double", "accept",
              "7H", "remainder"):
        state.apply(a)
    text = "\n".join(lines.describe(state.view(N)))
    assert "South offers the remainder" in text and "Stake: 8 points." in text
    state.apply("accept")
    assert any("whoever wins this deal wins the round" in x for x in lines.describe(state.view(N)))
    state.apply("9H")
    state.apply("AC")
    summary = "\n".join(lines.summarize(state.deals[-1]))
    assert "North wins the deal with 2 tricks and scores 12 points" in summary
    assert "North wins round 1!" in summary and "Hands: North 7C 8C AC; South 7H 8H 9H." in summary


def test_jokes():
    assert len(lines.JOKES) >= 12 and len(set(lines.JOKES)) == len(lines.JOKES)
    assert all(isinstance(j, str) and "\n" not in j for j in lines.JOKES)
    rng = random.Random(1)
    assert {lines.joke(rng) for _ in range(300)} == set(lines.JOKES)
    assert lines.joke(random.Random(4)) == lines.joke(random.Random(4))


def test_views_and_summaries_are_json():
    for state in random_states(300, seed=9):
        for seat in (0, 1):
            view = state.view(seat)
            assert json.loads(json.dumps(view)) == view


# -- strength (slow: `make bench` runs it) -------------------------------------------------------
def _bench_module():
    path = ROOT / "bench" / "bench_truc.py"
    spec = importlib.util.spec_from_file_location("bench_truc", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("opponent", ["RandomPlayer", "AlwaysDecline", "AlwaysAccept", "AlwaysDouble"])
def test_easy_beats_the_simple_policies(opponent):
    bench = _bench_module()
    result = bench.match(getattr(bench, opponent)(), deals=3000, seed=99)
    assert result["mean"] - result["ci"] > 0
    assert result["win_ci"][0] > 0.5
