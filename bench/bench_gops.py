"""GOPS: the easy player's margin over the random player.

    .venv/bin/python bench/bench_gops.py [--games 1000]

Seats alternate so neither side has seat 0 more often; a 95% interval is given for the
win rate (normal approximation) and for the mean points margin per game.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

import parlour
from parlour.bots import make


def play(game: parlour.Game, bots: list, seed: int, rng: random.Random) -> parlour.State:
    state = game.new_state(seed=seed)
    while not state.is_over:
        seat = state.current_player
        state.apply(bots[seat].act(state.view(seat), rng))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    game = parlour.load("gops")
    rng = random.Random(2026)
    wins = losses = draws = 0
    margins = []
    for i in range(args.games):
        easy_seat = i % 2
        bots = [make("gops", "easy"), make("gops", "random")]
        if easy_seat == 1:
            bots.reverse()
        state = play(game, bots, seed=i, rng=rng)
        margin = state.scores[easy_seat] - state.scores[1 - easy_seat]
        margins.append(margin)
        if state.winner is None:
            draws += 1
        elif state.winner == easy_seat:
            wins += 1
        else:
            losses += 1
    n = args.games
    p = wins / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    mean = statistics.fmean(margins)
    ci = 1.96 * statistics.stdev(margins) / math.sqrt(n)
    print(f"{'match':<16} {'games':>6} {'won':>5} {'lost':>5} {'drawn':>5} {'win rate':>16} {'points margin/game':>22}")
    print(f"{'easy vs random':<16} {n:>6} {wins:>5} {losses:>5} {draws:>5} {p:>8.1%} ± {half:<5.1%}"
          f" {mean:>+12.1f} ± {ci:.1f}")


if __name__ == "__main__":
    main()
