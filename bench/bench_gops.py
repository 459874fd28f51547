"""GOPS matches: ``strong`` and ``easy`` against weaker players, and strong's decision time.

    .venv/bin/python bench/bench_gops.py [--games 2000] [--matches strong:easy strong:random easy:random]
                                         [--cards 13] [--ties carry] [--scoring points]

Seats alternate so neither side has seat 0 more often; a 95% interval is given for the
win rate (normal approximation; draws count as not won) and for the mean points margin per
game.  For each match with ``strong`` the median, 90th percentile and maximum time of its
decisions are printed, with the run's wall time and what the requested game count costs.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import parlour
from parlour.bots import make


def play(game: parlour.Game, bots: list, seed: int, rng: random.Random, clock: list[list[float]]) -> parlour.State:
    state = game.new_state(seed=seed)
    while not state.is_over:
        seat = state.current_player
        view = state.view(seat)
        start = time.perf_counter()
        action = bots[seat].act(view, rng)
        clock[seat].append(time.perf_counter() - start)
        state.apply(action)
    return state


def match(game: parlour.Game, first: str, second: str, games: int, every: int = 0) -> None:
    """Play ``games`` games; with ``every``, also print the running result every that many."""
    rng = random.Random(2026)
    wins = losses = draws = 0
    margins = []
    times: list[float] = []
    bots = {first: make("gops", first), second: make("gops", second)}  # one bot each: caches persist
    start = time.perf_counter()
    for i in range(games):
        seat = i % 2
        seats = [bots[first], bots[second]] if seat == 0 else [bots[second], bots[first]]
        clock: list[list[float]] = [[], []]
        state = play(game, seats, seed=i, rng=rng, clock=clock)
        times += clock[seat]
        margin = state.scores[seat] - state.scores[1 - seat]
        margins.append(margin)
        if state.winner is None:
            draws += 1
        elif state.winner == seat:
            wins += 1
        else:
            losses += 1
        if every and (i + 1) % every == 0 and i + 1 < games:
            _report(first, second, i + 1, wins, losses, draws, margins, times, time.perf_counter() - start)
    _report(first, second, games, wins, losses, draws, margins, times, time.perf_counter() - start)


def _report(first: str, second: str, games: int, wins: int, losses: int, draws: int, margins: list[int],
            times: list[float], wall: float) -> None:
    p = wins / games
    half = 1.96 * math.sqrt(p * (1 - p) / games)
    mean = statistics.fmean(margins)
    ci = 1.96 * statistics.stdev(margins) / math.sqrt(games) if games > 1 else float("nan")
    name = f"{first} vs {second}"
    print(f"{name:<18} {games:>6} {wins:>5} {losses:>5} {draws:>5} {p:>8.1%} ± {half:<5.1%}"
          f" {mean:>+12.2f} ± {ci:.2f}", flush=True)
    times = sorted(times)
    print(f"  {first}: decisions {len(times)}, median {statistics.median(times) * 1000:.1f} ms,"
          f" p90 {times[int(0.9 * len(times))] * 1000:.1f} ms, max {times[-1] * 1000:.0f} ms;"
          f" wall {wall:.0f} s ({wall / games:.2f} s/game, 2,000 games ≈ {wall / games * 2000 / 60:.0f} min)",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--matches", nargs="+", default=["strong:easy", "strong:random", "easy:random"])
    parser.add_argument("--cards", type=int, default=13)
    parser.add_argument("--ties", default="carry")
    parser.add_argument("--scoring", default="points")
    parser.add_argument("--every", type=int, default=0, help="print the running result every this many games")
    args = parser.parse_args()
    game = parlour.load("gops", cards=args.cards, ties=args.ties, scoring=args.scoring)
    print(f"GOPS {game.options}")
    print(f"{'match':<18} {'games':>6} {'won':>5} {'lost':>5} {'drawn':>5} {'win rate':>16} {'points margin/game':>22}")
    for pair in args.matches:
        first, second = pair.split(":")
        match(game, first, second, args.games, args.every)


if __name__ == "__main__":
    main()
