"""Le Truc: random legal play keeps the invariants (Hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.cards import PACK_32
from parlour.games.truc.rules import DISPLAY, TARGET
from parlour.testing import HiddenCardWatch

WORDS = ("play", "call", "accept", "refuse", "double", "decline", "remainder", "pass", "take", "")
UNIVERSE = tuple(PACK_32) + WORDS


def chooser(rng: random.Random, eager: float):
    """Random legal actions, calling for (and accepting) new cards with probability ``eager``.

    Why the bias: uniform play rarely runs a pack out, and the pass of the deal with a fresh
    shuffle must be exercised too.
    """
    def choose(state: parlour.State) -> str:
        legal = state.legal_actions()
        if state.phase == "call" and state.view(0)["calls"] < 12 and rng.random() < eager:
            return "call"
        if state.phase == "call-answer" and rng.random() < eager:
            return "accept"
        return rng.choice(legal)
    return choose


def check_view(state: parlour.State, seat: int) -> None:
    """Truc's own view rules; that no view shows a hidden card is checked by the kit's HiddenCardWatch."""
    view = state.view(seat)
    assert json.loads(json.dumps(view)) == view
    other_hand = state.view(1 - seat)["hand"]
    assert view["hand"] == sorted(view["hand"], key=DISPLAY.__getitem__)
    assert view["opponent_cards"] == len(other_hand)
    last = view["last_trick"]
    if last is not None and last in view["tricks"]:
        assert not {c for _, c in last["cards"]} & set(other_hand)
    last_deal = view["last_deal"]
    if last_deal is not None and last_deal["hands"] is not None:
        played = {c for t in last_deal["tricks"] for _, c in t["cards"]}
        assert set(last_deal["hands"][0] + last_deal["hands"][1]) == played


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1), eager=st.sampled_from([0.5, 0.9, 1.0]))
def test_random_play_keeps_the_invariants(seed, choices, eager):
    rng = random.Random(choices)
    choose = chooser(rng, eager)
    state = parlour.load("truc").new_state(seed=seed)
    running = [0, 0]
    rounds = [0, 0]
    seen = 0
    prev_dealer = None
    watch = HiddenCardWatch(rng=random.Random(seed), redeal_rate=0.1)
    for _ in range(3000):
        if state.is_over:
            break
        watch.check(state)
        legal = state.legal_actions()
        assert legal and state.current_player in (0, 1)
        assert len(set(legal)) == len(legal)
        hands = state.view(0)["hand"], state.view(1)["hand"]
        assert not set(hands[0]) & set(hands[1]) and max(map(len, hands)) <= 3
        assert abs(len(hands[0]) - len(hands[1])) <= 1
        view = state.view(state.current_player)
        assert view["legal_actions"] == legal
        assert view["stake"] & (view["stake"] - 1) == 0  # a power of two
        assert max(state.scores) < TARGET
        if state.phase == "play":
            cards = [a for a in legal if a in PACK_32]
            assert cards == view["hand"]
            offers = [a for a in legal if a not in PACK_32]
            me = state.current_player
            if view["remainder"] or view["offered"]:
                assert offers == []
            elif state.scores[me] + 2 * view["stake"] > TARGET:
                assert offers == ["remainder"]
            else:
                assert offers == ["double"]
        for seat in (0, 1):
            check_view(state, seat)
        state.apply(choose(state))
        while seen < len(state.deals):
            summary = state.deals[seen]
            seen += 1
            json.dumps(summary)
            added, winner = summary["scores"], summary["winner"]
            assert sum(1 for x in added if x) <= 1
            assert (winner is None) == (added == [0, 0])
            if winner is None:
                assert summary["ended"] == "spoiled"
            else:
                assert added[winner] == summary["stake"] > 0
            # hands are shown only when the deal went to the third trick: every card was played
            assert (summary["hands"] is None) == (len(summary["tricks"]) < 3)
            if summary["hands"] is not None:
                for seat in (0, 1):
                    played = {c for t in summary["tricks"] for s, c in t["cards"] if s == seat}
                    assert played == set(summary["hands"][seat]) and len(played) == 3
            running = [running[0] + added[0], running[1] + added[1]]
            assert summary["round_scores"] == running
            if winner is not None and summary["remainder"] and summary["ended"] == "won":
                assert running[winner] == TARGET
            # a round ends exactly when a seat reaches 12
            assert (summary["round_winner"] is not None) == (max(running) >= TARGET)
            if summary["round_winner"] is not None:
                assert running[summary["round_winner"]] >= TARGET
                rounds[summary["round_winner"]] += 1
                running = [0, 0]
            assert summary["rounds_won"] == rounds
            # the dealer alternates after every deal and at every pass of the deal
            if prev_dealer is not None:
                assert summary["dealer"] == (prev_dealer + 1 + summary["passes"]) % 2
            prev_dealer = summary["dealer"]
    assert state.is_over
    assert state.rounds_won == rounds and max(rounds) == 2 and state.winner == rounds.index(2)
    assert state.current_player is None and state.legal_actions() == []
    assert state.scores == state.deals[-1]["round_scores"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), stop=st.integers(0, 120), eager=st.sampled_from([0.5, 1.0]))
def test_records_replay_and_clones_are_independent(seed, stop, eager):
    rng = random.Random(seed)
    choose = chooser(rng, eager)
    state = parlour.load("truc").new_state(seed=seed)
    for _ in range(stop):
        if state.is_over:
            break
        state.apply(choose(state))
    again = parlour.from_json(state.to_json())
    for seat in (0, 1):
        assert again.view(seat) == state.view(seat)
    assert again.deals == state.deals and again.legal_actions() == state.legal_actions()
    assert again.dealer == state.dealer and again.rounds_won == state.rounds_won
    if not state.is_over:
        before = state.to_json(), state.view(0), state.view(1), [dict(d) for d in state.deals]
        twin = state.clone()
        assert twin.view(0) == state.view(0) and twin.view(1) == state.view(1)
        while not twin.is_over and len(twin.deals) < len(state.deals) + 2:
            twin.apply(choose(twin))
        assert (state.to_json(), state.view(0), state.view(1), state.deals) == before
        # and the clone's own future matches the original's replayed the same way
        replay = parlour.from_json(twin.to_json())
        assert replay.view(0) == twin.view(0) and replay.deals == twin.deals


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), stop=st.integers(0, 60), pick=st.integers(0, len(UNIVERSE) - 1))
def test_an_illegal_action_raises_and_changes_nothing(seed, stop, pick):
    rng = random.Random(seed)
    state = parlour.load("truc").new_state(seed=seed)
    for _ in range(stop):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    action = UNIVERSE[pick]
    if action in legal:
        return
    before = state.to_json(), state.view(0), state.view(1), list(state.deals)
    try:
        state.apply(action)
    except parlour.IllegalAction as err:
        assert err.legal == legal and str(err)
    else:
        raise AssertionError(f"{action!r} was accepted though not legal")
    assert (state.to_json(), state.view(0), state.view(1), list(state.deals)) == before
    assert state.legal_actions() == legal
