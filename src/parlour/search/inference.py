"""Inference from the others' choices: how likely a sampled deal makes what they were seen to do.

Why one function: PIMC weighs each sampled deal by how well it explains the other seats'
public choices under a model of how they choose (policy-based inference, where the best Skat
programs gained most over plain PIMC).  Every trick game does it the same way: rebuild the
sampled deal in its engine, replay the public actions, and at each choice of a modelled seat
ask the model what it would have done *with the hand the sample gave it*.  A choice the model
would have made counts 1; any other counts ``factor(view)`` (< 1: soft, since a strong or human
player does not follow the model exactly).  A choice with one legal action says nothing, and a
factor of 1 means "not judged here" (a game that weighs the bids with a finer model of its own),
so the model is not asked.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Iterable
from typing import Any

from ..bots import Bot

#: How much a choice the model would not have made lowers a sample's weight, for a card played
#: when the seat had a choice: measured in Clobby against easy on 100 duplicate packs (+19.4 ± 7.0
#: points a deal with 0.4, +17.7 ± 7.1 with 0.15, +15.9 ± 7.3 with the cards not used), and taken
#: by Schafkopf (softer than its bidding model: play rules leave more to judgement).  Clobby and
#: Six-Bid have their own, sharper, measured since on 1,000 packs (``clobby.sampler.CARD_MISMATCH``,
#: ``sixbid.sampler.CARD_MISMATCH``).  Schafkopf's measured level at 0.2: +0.005 +- 0.059 points a deal
#: (95 %, paired against 0.4 on packs 1-250 against easy, cpu:2), so it keeps this one.
PLAY_MISMATCH = 0.4

View = dict[str, Any]


def replayed_likelihood(state: Any, actions: Iterable[str], seats: Container[int],
                        model: Callable[[View], str], factor: Callable[[View], float]) -> float:
    """The likelihood of ``actions``, applied in turn to ``state`` (the sampled deal, rebuilt in
    its engine; it is played forward), under ``model`` for the choices of ``seats``.

    ``model(view)``: the action the model takes from that seat's view in the sampled deal;
    ``factor(view)``: what a choice other than the model's multiplies the weight by (1: not judged).
    """
    weight = 1.0
    for action in actions:
        seat = state.current_player
        if seat in seats:
            view = state.view(seat)
            if len(view["legal_actions"]) > 1:
                f = factor(view)
                if f != 1.0 and model(view) != action:
                    weight *= f
        state.apply(action)
    return weight


def cards_likelihood(state: Any, actions: Iterable[str], seats: Container[int], bot: Bot,
                      mismatch: float = PLAY_MISMATCH) -> float:
    """:func:`replayed_likelihood` with ``bot``'s rule (played with a fixed seed) as the model of
    ``seats``' cards, a card off the rule judged by ``mismatch``; their other choices (bids,
    declarations) are not judged here: a game that weighs them does so with a finer model of its own."""
    return replayed_likelihood(state, actions, seats, lambda v: str(bot.act(v, random.Random(0))),
                               lambda v: mismatch if v["phase"] == "play" else 1.0)
