"""Clobby ``strong``: the sampler agrees with the view, the solver agrees with the engine, the bot plays."""

from __future__ import annotations

import random

import pytest

import parlour
from helpers.minimax import engine_minimax
from parlour.bots import make
from parlour.games.clobby.bots import EasyBot
from parlour.games.clobby.sampler import CARD_MISMATCH, MISMATCH, Sampler, public_actions
from parlour.games.clobby.solver import Position, Solver, action_values, deal_value
from parlour.games.clobby.strong import StrongBot, position_from_view

EASY = EasyBot()


def _options(seed: int) -> dict[str, bool]:
    return {"tout_atout": seed % 2 == 1, "clubs_preferred": seed % 5 == 0, "no_tie": seed % 3 == 0}


def _random_position(seed: int, rng: random.Random) -> parlour.State | None:
    """A first-deal position reached by easy or random play (None if the deal ended first)."""
    state = parlour.load("clobby", **_options(seed)).new_state(seed=seed)
    easy = rng.random() < 0.5
    for _ in range(rng.randrange(0, 30)):
        if state.deals:
            return None
        view = state.view(state.current_player)
        state.apply(EASY.act(view, rng) if easy else rng.choice(view["legal_actions"]))
    return None if state.deals else state


def _check_sample(state: parlour.State, seat: int, rng: random.Random, samples: int = 3) -> int:
    view = state.view(seat)
    sampler = Sampler(view)
    checked = 0
    for _ in range(samples):
        drawn = sampler.draw(rng)
        assert drawn is not None, "no consistent deal found"
        world, weight = drawn
        pack = world.pack
        assert 0 < weight <= 1 and weight == sampler.weight(pack)
        rebuilt = state.game.new_state(deck=pack, dealer=view["dealer"])
        for action in public_actions(view):
            rebuilt.apply(action)  # raises IllegalAction if the sample contradicts the play
        assert rebuilt.view(seat) == view
        checked += 1
    assert sampler.failures == 0  # the meld constraint was never relaxed
    return checked


def test_every_sample_agrees_with_the_view() -> None:
    rng = random.Random(11)
    checked = 0
    for seed in range(160):
        state = _random_position(seed, rng)
        if state is not None:
            for seat in (0, 1):
                checked += _check_sample(state, seat, rng)
    assert checked > 400


def test_samples_keep_voids_and_shown_melds() -> None:
    """Positions where the opponent showed a void or a meld: the sampler still always agrees."""
    rng = random.Random(5)
    hard = 0
    for seed in range(400):
        state = _random_position(seed, rng)
        if state is None:
            continue
        for seat in (0, 1):
            view = state.view(seat)
            sampler = Sampler(view)
            if sampler.forbidden or view["melds"][1 - seat] or view["meld_winner"] == 1 - seat:
                hard += 1
                _check_sample(state, seat, rng, samples=2)
        if hard >= 60:
            break
    assert hard >= 60


def test_weight_penalises_bids_the_easy_rule_would_not_make() -> None:
    rng = random.Random(3)
    seen_low = False
    for seed in range(60):
        state = parlour.load("clobby").new_state(seed=seed)
        state.apply("take" if seed % 2 else "pass")  # elder's bid, whatever his cards
        view = state.view(state.dealer)
        sampler = Sampler(view)
        weights = {drawn[1] for drawn in (sampler.draw(rng) for _ in range(20)) if drawn is not None}
        assert weights <= {1.0, MISMATCH}
        seen_low |= MISMATCH in weights
    assert seen_low


def test_weight_counts_the_opponents_cards_apart_from_his_bids() -> None:
    """Positions in play: each drawn deal's weight is a product of the bid factor and the card factor,
    and some deals are marked down by cards the easy play rule would not have played."""
    rng = random.Random(7)
    factors = {(bids, cards): MISMATCH ** bids * CARD_MISMATCH ** cards for bids in range(6) for cards in range(12)}
    off_the_card_rule = 0
    for seed in range(200):
        state = _random_position(seed, rng)
        if state is None or state.phase != "play":
            continue
        view = state.view(state.current_player)
        if not view["tricks"]:
            continue
        sampler = Sampler(view)
        for _ in range(5):
            drawn = sampler.draw(rng)
            assert drawn is not None
            weight = drawn[1]
            cards = [c for (_, c), product in factors.items() if weight == pytest.approx(product, rel=1e-9)]
            assert cards, f"weight {weight} is no product of the two factors"
            off_the_card_rule += max(cards) > 0
    assert off_the_card_rule > 0


def _engine_minimax(state: parlour.State, seat: int) -> float:
    """``seat``'s margin in the deal (its score minus the other's) with best play by both, through the engine."""
    def margin(end: parlour.State) -> int:
        scores = end.deals[-1]["scores"]
        return scores[seat] - scores[1 - seat]
    return engine_minimax(state, seat, margin)


def _endgames(count: int, cards_played: range, seed: int) -> int:
    """Solver values of every legal action == plain minimax through the engine, on ``count`` endgames."""
    rng = random.Random(seed)
    done = 0
    s = seed * 10_000
    while done < count:
        s += 1
        state = parlour.load("clobby", tout_atout=s % 3 == 0).new_state(seed=s)
        while not state.deals and state.phase != "play":
            state.apply(rng.choice(state.legal_actions()))
        if state.deals:
            continue
        for _ in range(rng.choice(cards_played)):
            state.apply(rng.choice(state.legal_actions()))
        seat = state.current_player
        expected = {}
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            expected[action] = _engine_minimax(child, seat)
        assert action_values(Position.from_state(state)) == expected, f"seed {s}"
        done += 1
    return done


def test_solver_equals_engine_minimax_on_small_endgames() -> None:
    # 3 or 4 tricks left (11 to 13 cards of 18 played), leads and follows, bella and last trick included
    assert _endgames(1000, range(11, 14), seed=1) == 1000


@pytest.mark.slow
def test_solver_equals_engine_minimax_on_endgames_up_to_five_tricks() -> None:
    assert _endgames(3000, range(8, 14), seed=2) == 3000


def test_deal_value_is_the_value_of_the_best_first_card() -> None:
    rng = random.Random(8)
    for seed in range(12):
        state = parlour.load("clobby").new_state(seed=seed)
        while not state.deals and state.phase != "play":
            state.apply(EASY.act(state.view(state.current_player), rng))
        if state.deals:
            continue
        pos = Position.from_state(state)
        solver = Solver(pos.mode)
        values = action_values(pos, solver)
        best = max(values.values())
        assert deal_value(pos, solver) == (best if pos.turn == pos.maker else -best)


def test_position_from_view_with_the_true_hand_is_the_open_position() -> None:
    rng = random.Random(4)
    for seed in range(40):
        state = _random_position(seed, rng)
        if state is None or state.phase != "play":
            continue
        seat = state.current_player
        truth = Position.from_state(state)
        assert position_from_view(state.view(seat), truth.hands[1 - seat]) == truth


def test_strong_plays_whole_deals_legally_and_explains() -> None:
    bot = make("clobby", "strong", think=0.0)
    assert isinstance(bot, StrongBot)
    bot.budget.min_samples = bot.bid_budget.min_samples = 1
    rng = random.Random(2)
    for seed in range(2):
        state = parlour.load("clobby", tout_atout=seed == 1).new_state(seed=seed)
        while not state.deals:
            view = state.view(state.current_player)
            action, reason = bot.explain(view, rng)
            assert action in view["legal_actions"]
            assert reason
            state.apply(action)


def test_of_cards_tied_for_the_best_mean_the_easy_rules_is_played() -> None:
    """Where the samples cannot tell cards apart (a deal whose payment every sample settles alike,
    bete or made by the same points) the easy rule's card is played, not one drawn by chance; where
    they differ, their verdict stands."""
    bot = StrongBot.counted(samples=6, bid_samples=2)
    rng = random.Random(3)
    ties = 0
    for seed in range(6):
        state = parlour.load("clobby").new_state(seed=20_000 + seed)
        while not state.deals:
            view = state.view(state.current_player)
            if state.current_player != 0 or view["phase"] != "play" or len(view["legal_actions"]) < 2:
                state.apply(EASY.act(view, rng))
                continue
            decision = bot.decide(view, random.Random(seed))
            best = max(decision.values.values())
            tied = [a for a, v in decision.values.items() if v >= best - 1e-9]
            easy = EASY.act(view, rng)
            if easy in tied:
                assert decision.action == easy
                ties += len(tied) > 1
                if len(tied) > 1:  # the hint does not call a tied card "0 points better"
                    action, reason = bot.explain(view, random.Random(seed))
                    assert (action, reason.split(" (")[0]) == (easy, "no other choice does better on average")
            else:
                assert decision.action in tied
            state.apply(decision.action)
    assert ties >= 5


def test_bid_values_value_every_option() -> None:
    bot = StrongBot(think=0.01)
    state = parlour.load("clobby", tout_atout=True).new_state(seed=7)
    state.apply("pass")
    state.apply("pass")
    view = state.view(state.current_player)
    world = Sampler(view).deal(random.Random(1))
    assert world is not None
    pack = world.pack
    values = bot.bid_values(view, pack)
    assert set(values) == set(view["legal_actions"])
    assert all(isinstance(v, float) for v in values.values())


def test_bids_stop_at_the_deadline_and_fall_back_on_the_easy_rule() -> None:
    """With the budget spent no bid sample is finished, and every bidding decision is the easy rule's call."""
    bot = StrongBot(think=0.0)
    assert bot.bid_budget.min_samples == 0
    rng = random.Random(5)
    phases = set()
    for seed in range(24):
        state = parlour.load("clobby", **_options(seed)).new_state(seed=seed)
        for _ in range(rng.randrange(0, 4)):
            if state.deals or state.phase == "play":
                break
            state.apply(rng.choice(state.view(state.current_player)["legal_actions"]))
        if state.deals or state.phase == "play":
            continue
        view = state.view(state.current_player)
        if len(view["legal_actions"]) < 2:
            continue
        phases.add(view["phase"])
        world = Sampler(view).deal(random.Random(seed))
        assert world is not None
        pack = world.pack
        assert bot.bid_values(view, pack, lambda: True) is None
        assert bot.act(view, random.Random(seed)) == EasyBot().act(view, random.Random(seed))
        assert "manual's call" in bot.explain(view, random.Random(seed))[1]
    assert len(phases) >= 2


def test_the_default_think_is_the_documented_one() -> None:
    from parlour.games.clobby.strong import DEFAULT_THINK

    bot = make("clobby", "strong")
    assert bot.budget.seconds == DEFAULT_THINK == 0.25
    assert bot.bid_budget.seconds == DEFAULT_THINK * 2.5


@pytest.mark.slow
def test_strong_beats_easy() -> None:
    from parlour import arena

    result = arena.run("clobby", "strong", "easy", 100, jobs=2, think=0.1)
    assert result.mean > 0
