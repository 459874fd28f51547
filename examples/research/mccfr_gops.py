"""OpenSpiel's external-sampling MCCFR on Parlour's GOPS with few cards.

Prints the exploitability (NashConv / 2) of MCCFR's average policy as it learns, and the
game value from Parlour's own exact solver for the same N, which the average policy's value
approaches.  Run: ``python examples/research/mccfr_gops.py --cards 3 --iterations 2000``.
"""

from __future__ import annotations

import argparse

import pyspiel
from open_spiel.python.algorithms import expected_game_score, exploitability, external_sampling_mccfr

import parlour.adapters.openspiel  # noqa: F401 - registers python_parlour_<name>
from parlour.games.gops.solver import Solver


def main(argv: list[str] | None = None) -> list[tuple[int, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=3)
    parser.add_argument("--ties", choices=("carry", "discard"), default="discard")
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--report", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    params = {"cards": args.cards, "ties": args.ties, "scoring": "points", "returns": "margin"}
    game = pyspiel.convert_to_turn_based(pyspiel.load_game("python_parlour_gops", params))
    solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    value = Solver(ties=args.ties, scoring="points").game_value(args.cards)
    print(f"GOPS, {args.cards} cards, ties {args.ties}: exact game value for North {value:+.4f} points")
    print(f"{'iterations':>10}  {'exploitability':>14}  {'value of avg policy':>19}")
    curve = []
    import numpy as np

    np.random.seed(args.seed)
    for it in range(1, args.iterations + 1):
        solver.iteration()
        if it % args.report == 0 or it == args.iterations:
            policy = solver.average_policy()
            expl = exploitability.exploitability(game, policy)
            played = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0]
            curve.append((it, expl))
            print(f"{it:>10}  {expl:>14.4f}  {played / 2:>+19.4f}")
    return curve


if __name__ == "__main__":
    main()
