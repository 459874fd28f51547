"""The trick games' samplers keep one protocol (``search.pimc.Sampler``): ``draw`` is a world
consistent with the view and its weight, in every game.

Why a test: the samplers had ``draw``, ``sample`` and ``deal`` for different things in different
games; this pins the one meaning, for the three games whose strong players sample.
"""

from __future__ import annotations

import importlib
import random

import pytest

import parlour
from parlour.bots import make
from parlour.search.pimc import Sampler


@pytest.mark.parametrize("game", ["clobby", "schafkopf", "sixbid"])
def test_each_trick_game_draws_a_world_and_its_weight(game: str) -> None:
    sampler_class = importlib.import_module(f"parlour.games.{game}.sampler").Sampler
    easy = make(game, "easy")
    rng = random.Random(1)
    drawn_in_play = 0
    for seed in range(40):
        state = parlour.load(game).new_state(seed=seed)
        while not state.is_over and state.phase != "play":
            state.apply(easy.act(state.view(state.current_player), rng))
        if state.is_over or state.deals:
            continue
        for _ in range(rng.randrange(6)):  # a few cards into the play
            state.apply(easy.act(state.view(state.current_player), rng))
        if state.deals:
            continue
        sampler = sampler_class(state.view(state.current_player))
        assert isinstance(sampler, Sampler)
        drawn = sampler.draw(rng)
        assert drawn is not None
        _, weight = drawn
        assert isinstance(weight, float | int) and 0 <= weight <= 1
        drawn_in_play += 1
    assert drawn_in_play >= 10
