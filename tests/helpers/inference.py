"""What the Six-Bid and Schafkopf tests of inference from the others' cards share
(``Sampler.play_likelihood``, built on ``search.inference``)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from parlour.search.inference import PLAY_MISMATCH


def deals_in_play(game: Any, codes: list[str], easy: Any, rng: random.Random, deals: int = 40,
                  tricks: int = 3) -> Iterator[tuple[list[str], int, Any]]:
    """Shuffled packs (``deck``, dealer, state) played by the easy rule in every seat until ``tricks``
    tricks are done; the deals that ended first are passed over."""
    for k in range(deals):
        deck = list(codes)
        rng.shuffle(deck)
        state = game.new_state(seed=0, deck=deck, dealer=k % 3)
        while not state.deals and not (state.phase == "play" and len(state.view(0)["tricks"]) >= tricks):
            state.apply(easy.act(state.view(state.current_player), rng))
        if not state.deals:
            yield deck, k % 3, state


def worlds_off_the_rule(sampler: Any, truth: Any, rng: random.Random, draws: int = 10,
                        mismatch: float = PLAY_MISMATCH) -> int:
    """Checks that the deal as dealt explains every card (likelihood 1) and that each drawn deal's
    likelihood is a power of ``mismatch`` (the game's card factor); how many drawn deals fell below 1."""
    assert sampler.play_likelihood(truth) == 1.0
    below = 0
    for _ in range(draws):
        drawn = sampler.draw(rng)
        assert drawn is not None
        p = sampler.play_likelihood(drawn[0])
        assert p == pytest.approx(mismatch ** round(math.log(p, mismatch)))
        below += p < 1
    return below
