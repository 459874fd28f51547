"""Schafkopf invariants under random legal play (Hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.games.schafkopf.rules import ORDER
from parlour.testing import HiddenCardWatch

SETTINGS = settings(max_examples=60, deadline=None)
ALL_ACTIONS = list(ORDER) + ["pick-up", "pass", "pickup", "10H", ""]


def _choose(state: parlour.State, rng: random.Random, pass_rate: float) -> str:
    legal = state.legal_actions()
    if state.phase == "bid":
        return "pass" if rng.random() < pass_rate else "pick-up"
    return rng.choice(legal)


def _check_deal(summary: dict) -> None:
    assert sum(summary["pips"]) == 120
    assert sum(summary["tricks"]) == 10
    scores = summary["scores"]
    changed = [s for s in range(3) if scores[s]]
    assert len(changed) == 1
    seat = changed[0]
    if summary["ramsch"]:
        assert summary["soloist"] is None and len(summary["skat"]) == 2
        tricks, pips = summary["tricks"], summary["pips"]
        if 10 in tricks:
            assert scores[tricks.index(10)] == -4
        elif 0 in tricks:
            assert scores[tricks.index(0)] == 4
        elif pips == [40, 40, 40]:
            assert seat == summary["dealer"] and scores[seat] == 2
        else:
            assert scores[seat] == 2 and pips[seat] == min(pips)
    else:
        s = summary["soloist"]
        assert seat == s
        p, t = summary["pips"][s], summary["tricks"][s]
        expected = 6 if t == 10 else -6 if t == 0 else 4 if p > 90 else 2 if p > 60 else -2 if p > 30 else -4
        assert scores[s] == expected
    json.dumps(summary)


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**32 - 1),
       target=st.integers(1, 8), pass_rate=st.floats(0.6, 0.95))
def test_random_play_keeps_the_invariants(seed: int, choices: int, target: int, pass_rate: float) -> None:
    rng = random.Random(choices)
    state = parlour.load("schafkopf", target=target).new_state(seed=seed)
    totals = [0, 0, 0]
    seen_deals = 0
    trick_seq = 0
    for _ in range(1500):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert legal and state.current_player is not None
        assert state.action_is_private == (state.phase == "discard")
        view = state.view(state.current_player)
        assert view["legal_actions"] == legal
        assert view["trick_seq"] >= trick_seq
        trick_seq = view["trick_seq"]
        sizes = view["hand_sizes"]
        if state.phase == "play":
            played = sum(len(t["cards"]) for t in view["tricks"]) + len(view["trick"])
            assert sum(sizes) == 30 - played
        state.apply(_choose(state, rng, pass_rate))
        while seen_deals < len(state.deals):
            summary = state.deals[seen_deals]
            _check_deal(summary)
            totals = [a + b for a, b in zip(totals, summary["scores"], strict=True)]
            assert summary["totals"] == totals
            seen_deals += 1
        assert state.scores == totals
    if state.is_over:
        assert max(state.scores) >= target
        assert state.legal_actions() == [] and state.current_player is None
        assert state.winner == state.scores.index(max(state.scores))
        assert all(max(d["totals"]) < target for d in state.deals[:-1])


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**32 - 1), steps=st.integers(0, 200))
def test_views_never_show_hidden_cards(seed: int, choices: int, steps: int) -> None:
    """The kit's one checker after every action: the other hands, the soloist's discard (his
    alone) and a Ramsch skat (nobody's until the deal ends) stay hidden."""
    rng = random.Random(choices)
    state = parlour.load("schafkopf", target=3).new_state(seed=seed)
    watch = HiddenCardWatch(rng=random.Random(seed), redeal_rate=0.1)
    watch.check(state)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(_choose(state, rng, 0.6))
        watch.check(state)


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**32 - 1), steps=st.integers(0, 200),
       bad=st.sampled_from(ALL_ACTIONS))
def test_illegal_actions_raise_and_change_nothing(seed: int, choices: int, steps: int, bad: str) -> None:
    rng = random.Random(choices)
    state = parlour.load("schafkopf", target=3).new_state(seed=seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(_choose(state, rng, 0.7))
    if bad in state.legal_actions():
        return
    record = state.to_json()
    views = [state.view(s) for s in range(3)]
    try:
        state.apply(bad)
    except parlour.IllegalAction as exc:
        assert exc.legal == state.legal_actions()
    else:  # pragma: no cover - would be a bug
        raise AssertionError(f"{bad!r} was accepted")
    assert state.to_json() == record
    assert [state.view(s) for s in range(3)] == views


def test_a_random_deal_is_120_pips_over_many_seeds() -> None:
    game = parlour.load("schafkopf")
    rng = random.Random(11)
    kinds = set()
    for seed in range(400):
        state = game.new_state(seed=seed)
        while not state.deals:
            state.apply(rng.choice(state.legal_actions()))
        _check_deal(state.deals[0])
        kinds.add(state.deals[0]["result"])
    assert {"won", "lost", "lost schneider", "fewest pips"} <= kinds


def test_whole_games_end_with_a_winner() -> None:
    game = parlour.load("schafkopf", target=6)
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.is_over:
            state.apply(_choose(state, rng, 0.85))
        assert len(state.deals) >= 2 or max(state.deals[0]["scores"]) >= 6
        assert state.winner is not None and state.scores[state.winner] >= 6
        for summary in state.deals:
            _check_deal(summary)
        assert [d["dealer"] for d in state.deals] == [(state.deals[0]["dealer"] + i) % 3
                                                      for i in range(len(state.deals))]
