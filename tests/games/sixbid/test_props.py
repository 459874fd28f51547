"""Six-Bid Solo: Hypothesis properties of random legal play over whole matches.

Chips always sum to three stakes, each deal's chips sum to 0 and its trick pips plus the
widow make 120; no view shows a card its seat may not know; an illegal action changes nothing;
a clone and its original deal the same packs.  (Records replaying exactly and clones being
independent are the conformance kit's: tests/core/test_conformance.py, with these options too.)
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.cards import PACK_36
from parlour.testing import HiddenCardWatch

BIDS = ["solo", "heart", "misere", "guarantee", "spread", "call", "pass"]
UNIVERSE = (BIDS + [f"trump {s}" for s in "CDHS"] + [f"call {c}" for c in PACK_36] + list(PACK_36)
            + ["", "th", "10H", "trump", "call", "AD ", "pass pass", "XX"])
SETTINGS = settings(max_examples=60, deadline=None)


def random_match(seed: int, choice_seed: int, chips: int = 60, max_actions: int = 2000):
    """Play a match with random legal actions, yielding the state before every action."""
    state = parlour.load("sixbid", chips=chips).new_state(seed=seed)
    rng = random.Random(choice_seed)
    for _ in range(max_actions):
        if state.is_over:
            break
        yield state
        state.apply(rng.choice(state.legal_actions()))
    yield state


def state_after(seed: int, choice_seed: int, stop: int, chips: int = 60) -> parlour.State:
    """The state after ``stop`` random actions (or at the end of the match, if sooner)."""
    state = None
    for i, state in enumerate(random_match(seed, choice_seed, chips=chips)):  # noqa: B007 - kept after the loop
        if i == stop:
            break
    assert state is not None
    return state


def check_invariants(state: parlour.State, chips: int) -> None:
    assert sum(state.scores) == 3 * chips
    views = [state.view(s) for s in range(3)]
    for view in views:
        json.dumps(view)
    if state.is_over:
        assert state.current_player is None and state.legal_actions() == []
        assert min(state.scores) <= 0
    else:
        assert state.current_player in (0, 1, 2)
        assert state.legal_actions()
        assert min(state.scores) > 0
        assert views[state.current_player]["legal_actions"] == state.legal_actions()
        assert all("legal_actions" not in v for s, v in enumerate(views) if s != state.current_player)
        # Every card is in exactly one place: a hand, the widow, the trick or a finished trick.
        cards = [c for v in views for c in v["hand"]] + state.current_pack()[21:24]
        cards += [c for _, c in views[0]["trick"]] + [c for t in views[0]["tricks"] for _, c in t["cards"]]
        assert sorted(cards) == sorted(PACK_36)
        sizes = [len(v["hand"]) for v in views]
        assert max(sizes) - min(sizes) <= 1
    for summary in state.deals:
        assert sum(summary["scores"]) == 0
        json.dumps(summary)
        if summary["thrown_in"]:
            assert summary["scores"] == [0, 0, 0]
            continue
        assert sum(summary["trick_pips"]) + summary["widow_pips"] == 120
        assert sum(summary["tricks"]) == 11
        sol = summary["soloist"]
        assert summary["scores"][sol] == -2 * summary["scores"][(sol + 1) % 3]
        assert summary["scores"][(sol + 1) % 3] == summary["scores"][(sol + 2) % 3]
        if summary["bid"] in ("misere", "spread"):
            assert summary["made"] == (summary["tricks"][sol] == 0)
        else:
            assert summary["pips"] == summary["trick_pips"][sol] + summary["widow_pips"]
            assert summary["made"] == (summary["pips"] >= summary["target"])


@SETTINGS
@given(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1))
def test_random_matches_keep_the_invariants(seed, choice_seed):
    deals = 0
    for state in random_match(seed, choice_seed, chips=300, max_actions=600):
        check_invariants(state, 300)
        deals = len(state.deals)
    assert state.is_over or deals >= 1
    if state.is_over:
        best = max(state.scores)
        assert state.winner == (state.scores.index(best) if state.scores.count(best) == 1 else None)


@SETTINGS
@given(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1))
def test_no_view_shows_a_hidden_card(seed, choice_seed):
    """The kit's one checker, after every action: the widow, the other hands, and the card
    given back in a call (seen by the soloist and the holder only) stay hidden."""
    watch = HiddenCardWatch(rng=random.Random(seed), redeal_rate=0.1)
    for state in random_match(seed, choice_seed, chips=300, max_actions=300):
        watch.check(state)
    assert watch.counts["scanned"] > 0


@SETTINGS
@given(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1), st.integers(0, 200), st.data())
def test_illegal_actions_raise_and_change_nothing(seed, choice_seed, stop, data):
    state = state_after(seed, choice_seed, stop)
    legal = state.legal_actions()
    illegal = [a for a in UNIVERSE if a not in legal]
    action = data.draw(st.sampled_from(illegal))
    before = (state.to_json(), [state.view(s) for s in range(3)], state.legal_actions())
    with pytest.raises(parlour.IllegalAction) as info:
        state.apply(action)
    assert isinstance(info.value, ValueError)
    assert (state.to_json(), [state.view(s) for s in range(3)], state.legal_actions()) == before
    for a in legal:  # every listed action is accepted
        twin = state.clone()
        twin.apply(a)


@SETTINGS
@given(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1))
def test_legal_actions_follow_the_rules(seed, choice_seed):
    for state in random_match(seed, choice_seed, chips=60, max_actions=400):
        if state.is_over:
            break
        view = state.view(state.current_player)
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal)
        phase = state.phase
        if phase == "play":
            hand = view["hand"]
            assert set(legal) <= set(hand)
            if view["trick"]:
                led = view["trick"][0][1][1]
                same = [c for c in hand if c[1] == led]
                assert sorted(legal) == sorted(same or hand)
            else:
                assert sorted(legal) == sorted(hand)
        elif phase == "bid":
            assert legal[-1] == "pass"
            standing = view["bid"]
            higher = BIDS[BIDS.index(standing) + 1:-1] if standing else BIDS[:-1]
            assert legal[:-1] == higher
        elif phase == "declare":
            assert legal == (["trump C", "trump D", "trump S"] if view["contract"] == "solo"
                             else ["trump C", "trump D", "trump H", "trump S"])
        elif phase == "call":
            assert sorted(a[5:] for a in legal) == sorted(set(PACK_36) - set(view["hand"]))
        elif phase == "give":
            assert sorted(legal) == sorted(view["hand"]) and state.action_is_private
        assert state.action_is_private == (phase == "give")


def test_view_never_shows_the_widow_before_the_deal_ends_and_always_after():
    state = parlour.load("sixbid").new_state(seed=3)
    rng = random.Random(3)
    pack = state.current_pack()
    watch = HiddenCardWatch(rng=random.Random(3), redeal_rate=1.0)
    while not state.deals:
        watch.check(state)  # the widow is nobody's until the deal ends (a called card in it aside)
        state.apply(rng.choice(state.legal_actions()))
    assert watch.counts["redeal_nobody"] > 0
    assert state.deals[0]["widow"] == pack[21:24]
    assert state.view(0)["last_deal"]["widow"] == pack[21:24]


def test_resume_after_every_action_of_a_match_loses_nothing():
    """What the store does: save the record after each action; a restart rebuilds from it."""
    game = parlour.load("sixbid", chips=40)
    state = game.new_state(seed=11)
    rng = random.Random(11)
    saved = state.to_json()
    while not state.is_over:
        restarted = parlour.from_json(saved)  # the process was killed after the last save
        assert restarted.to_json() == saved
        assert [restarted.view(s) for s in range(3)] == [state.view(s) for s in range(3)]
        action = rng.choice(restarted.legal_actions())
        state.apply(action)
        saved = state.to_json()
    final = parlour.from_json(saved)
    assert final.is_over and final.scores == state.scores and final.winner == state.winner
    assert final.deals == state.deals and len(final.deals) >= 1


def test_replaying_a_deal_deals_the_same_hands_again():
    state = parlour.load("sixbid").new_state(seed=5)
    first = [state.view(s)["hand"] for s in range(3)]
    dealer = state.dealer
    rng = random.Random(5)
    while not state.deals:
        state.apply(rng.choice(state.legal_actions()))
    assert state.can_replay_deal
    state.replay_deal()
    assert state.dealer == dealer and state.phase == "bid"
    assert [state.view(s)["hand"] for s in range(3)] == first
    copy = parlour.from_json(state.to_json())
    assert [copy.view(s) for s in range(3)] == [state.view(s) for s in range(3)]


def test_fast_shuffle_is_random_shuffle_draw_for_draw():
    """Contract 1: every pack is ``rng.shuffle(list(PACK))`` from the state's own RNG (contract 2: test_seeding)."""
    game = parlour.load("sixbid")
    for seed in range(300):
        state = game.new_state(seed=seed, seeding=1)
        rng = random.Random(seed)
        dealer = rng.randrange(3)
        pack = list(PACK_36)
        rng.shuffle(pack)
        assert state.dealer == dealer and state.current_pack() == pack
        assert state.rng.getstate() == rng.getstate()
        play = random.Random(seed)
        while not state.deals:
            state.apply(play.choice(state.legal_actions()))
        rng.shuffle(second := list(PACK_36))
        assert state.current_pack() == second


@SETTINGS
@given(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1), st.integers(0, 120), st.booleans())
def test_clone_and_original_deal_the_same_packs_whichever_deals_first(seed, choice_seed, stop, original_first):
    state = state_after(seed, choice_seed, stop, chips=1000)
    twin = state.clone()
    grandchild = twin.clone()
    order = [state, twin, grandchild] if original_first else [grandchild, twin, state]
    for s in order:
        rng = random.Random(choice_seed)
        for _ in range(150):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
    assert state.to_json() == twin.to_json() == grandchild.to_json()
    assert state.deals == twin.deals == grandchild.deals
    assert [state.current_pack()] == [twin.current_pack()] == [grandchild.current_pack()]
