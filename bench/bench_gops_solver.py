"""The exact GOPS solver: time and size per N, and a cross-check against OpenSpiel.

    .venv/bin/python bench/bench_gops_solver.py [--sizes 2 3 4 5 6] [--openspiel 3 4]

For each N, tie rule and scoring: seconds (CPU) to solve every position of the N-card game,
the matrix games solved and the positions valued, and the game's value (0 by symmetry;
computed from the first turn's matrix games, not assumed).  N = 7 takes 3-10 minutes per
rule set (``bench/build_gops_tables.py`` does it and prints the same columns).

The OpenSpiel cross-check (``ties=discard``, needs the ``peers`` extra): CFR on OpenSpiel's
goofspiel (``imp_info=False``: past bids revealed, as in Parlour) for ``--iterations``,
its average policy's value and exploitability, beside the exact solver's value; then the
exploitability of Parlour's three players by OpenSpiel's best response and by ours.
"""

from __future__ import annotations

import argparse
import time

from parlour.games.gops.solver import Solver


def solver_table(sizes: list[int]) -> None:
    print(f"{'N':>2} {'ties':<8} {'scoring':<7} {'value':>10} {'seconds':>8} {'games':>8} {'values':>8}")
    for n in sizes:
        for ties in ("carry", "discard"):
            for scoring in ("points", "win"):
                solver = Solver(ties, scoring)
                start = time.process_time()
                value = solver.solve_all(n)
                print(f"{n:>2} {ties:<8} {scoring:<7} {value:>10.2e} {time.process_time() - start:>8.2f}"
                      f" {solver.matrix_games:>8} {len(solver._values):>8}", flush=True)


def openspiel_check(sizes: list[int], iterations: int) -> None:
    try:
        from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
    except ImportError:
        print("OpenSpiel not installed (pip install -e .[peers]): cross-check skipped")
        return
    from parlour.bots import RandomBot
    from parlour.games.gops.bots import EasyBot
    from parlour.games.gops.exploit import exploitability as ours
    from parlour.games.gops.openspiel_check import openspiel_exploitability, openspiel_game
    from parlour.games.gops.strong import StrongBot

    for n in sizes:
        game = openspiel_game(n, "win")
        start = time.process_time()
        solver = cfr.CFRSolver(game)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        value = expected_game_score.policy_value(game.new_initial_state(), [average, average])[0]
        gap = exploitability.exploitability(game, average)
        exact = Solver("discard", "win").solve_all(n)
        print(f"N={n} discard win: OpenSpiel CFR x{iterations}: value {value:+.4f}, exploitability {gap:.4f}"
              f" ({time.process_time() - start:.0f} s); exact solver value {exact:+.2e}")
        for bot in (RandomBot(), EasyBot(), StrongBot()):
            print(f"    {bot.name:<7} exploitability: OpenSpiel {openspiel_exploitability(bot, n, 'win'):.6f},"
                  f" parlour.games.gops.exploit {ours(bot, n, 'discard', 'win'):.6f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    parser.add_argument("--openspiel", type=int, nargs="*", default=[3, 4])
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    solver_table(args.sizes)
    openspiel_check(args.openspiel, args.iterations)


if __name__ == "__main__":
    main()
