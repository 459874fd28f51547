"""Random legal GOPS play keeps the invariants (Hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.games.gops.rules import VALUE_OF
from parlour.testing import HiddenCardWatch


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1))
def test_random_play_keeps_the_invariants(seed, choices):
    rng = random.Random(choices)
    state = parlour.load("gops").new_state(seed=seed)
    played = [[], []]
    watch = HiddenCardWatch(rng=random.Random(seed), redeal_rate=0.2)
    while not state.is_over:
        seat = state.current_player
        legal = state.legal_actions()
        assert legal, "a seat to move always has a card"
        other = 1 - seat
        # seat 0's pending card never shows to seat 1 (the kit tries his other choices)
        watch.check(state)
        assert state.view(1)["chosen"] is None
        card = rng.choice(legal)
        played[seat].append(card)
        state.apply(card)
        view = state.view(seat)
        # cards are conserved: hand + played = the 13 cards of the suit
        assert len(view["hand"]) + len(played[seat]) == 13
        assert sum(state.scores) <= 91
        assert not set(view["hand"]) & set(played[other])
    won = state.view(0)["won"]
    assert sum(VALUE_OF[c] for c in won[0]) == state.scores[0]
    assert sum(VALUE_OF[c] for c in won[1]) == state.scores[1]
    assert len(won[0]) + len(won[1]) + len(state.view(0)["stake"]) <= 13
    assert state.deals[-1]["scores"] == state.scores
    assert (state.winner is None) == (state.scores[0] == state.scores[1])


