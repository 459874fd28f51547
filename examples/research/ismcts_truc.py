"""OpenSpiel's ISMCTS plays Le Truc against Parlour's ``easy`` through the OpenSpiel adapter.

Each deal is played twice with the seats swapped (the same chance outcomes), so the luck of
the cards cancels; prints ISMCTS's margin per deal with a 95 % interval.
Run: ``python examples/research/ismcts_truc.py --deals 200 --simulations 300``.
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import parlour.adapters.openspiel  # noqa: F401 - registers python_parlour_<name>
from parlour.bots import make


def play(game, seat_of_ismcts: int, chance_seed: int, sims: int, seed: int) -> float:
    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                           max_simulations=sims, random_state=rs)
    easy, rng, chance = make("truc", "easy"), random.Random(seed), random.Random(chance_seed)
    state = game.new_initial_state()
    space = state.get_game().spec.actions
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance.choice([o for o, _ in state.chance_outcomes()]))
        elif state.current_player() == seat_of_ismcts:
            state.apply_action(bot.step(state))
        else:
            view = state.view(state.current_player())
            state.apply_action(space.index(easy.act(view, rng)))
    return state.returns()[seat_of_ismcts] / 2  # margin returns count the difference twice


def main(argv: list[str] | None = None) -> tuple[float, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game("python_parlour_truc")
    margins = []
    for deal in range(args.deals):
        pair = [play(game, seat, args.seed * 100_003 + deal, args.simulations, deal) for seat in (0, 1)]
        margins.append(sum(pair) / 2)
    mean = sum(margins) / len(margins)
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / max(1, len(margins) - 1))
    half = 1.96 * sd / math.sqrt(len(margins))
    print(f"ISMCTS ({args.simulations} simulations) vs easy, {args.deals} duplicate deals: "
          f"{mean:+.3f} ± {half:.3f} points per deal")
    return mean, half


if __name__ == "__main__":
    main()
