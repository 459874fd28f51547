"""Clobby benchmark: engine speed, the easy bot against random, and easy-vs-easy deal points.

Run: ``.venv/bin/python bench/bench_clobby.py [--playouts N] [--games N] [--selfplay N]``.
The defaults finish in well under two minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import parlour
from parlour.bots import make


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its ~95% confidence interval."""
    if len(xs) < 2:
        return (xs[0] if xs else 0.0), 0.0
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def playouts(n: int) -> tuple[float, float]:
    """Random legal play through the public API until the first deal is recorded."""
    game = parlour.load("clobby")
    actions = 0
    start = time.perf_counter()
    for i in range(n):
        state = game.new_state(seed=i)
        rng = random.Random(i)
        while not state.deals:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, actions / elapsed


def full_games(n: int, bots: tuple, seed0: int, **options: object) -> list[parlour.State]:
    """``n`` games; seat 0 and seat 1 swap the two bots every other game."""
    game = parlour.load("clobby", **options)
    states = []
    for i in range(n):
        state = game.new_state(seed=seed0 + i)
        rng = random.Random(seed0 + i)
        seats = bots if i % 2 == 0 else bots[::-1]
        while not state.is_over:
            p = state.current_player
            state.apply(seats[p].act(state.view(p), rng))
        states.append(state)
    return states


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--playouts", type=int, default=20_000, help="random playouts (first deal each)")
    ap.add_argument("--games", type=int, default=1000, help="full games to 500, easy against random")
    ap.add_argument("--selfplay", type=int, default=600, help="full games to 500, easy against easy")
    args = ap.parse_args()
    easy, rnd = make("clobby", "easy"), make("clobby", "random")
    rows: list[tuple[str, str]] = []

    deals_s, actions_s = playouts(args.playouts)
    rows.append(("random playouts (first deal, public API)", f"{deals_s:,.0f} deals/s ({actions_s:,.0f} actions/s)"))

    t = time.perf_counter()
    games = full_games(args.games, (easy, rnd), 100_000)
    elapsed = time.perf_counter() - t
    wins = [1.0 if s.winner == (0 if i % 2 == 0 else 1) else 0.0 for i, s in enumerate(games)]
    margin, easy_pts, rnd_pts = [], [], []
    made = bete = 0
    for i, s in enumerate(games):
        e = 0 if i % 2 == 0 else 1
        for d in s.deals:
            if d["thrown_in"]:
                continue
            margin.append(d["scores"][e] - d["scores"][1 - e])
            easy_pts.append(d["scores"][e])
            rnd_pts.append(d["scores"][1 - e])
            if d["maker"] == e:
                made += not d["bete"]
                bete += d["bete"]
    w, wci = mean_ci(wins)
    m, mci = mean_ci(margin)
    rows.append((f"easy vs random: games won ({args.games} games to 500, seats swapped)",
                 f"{100 * w:.1f}% ± {100 * wci:.1f}"))
    rows.append((f"easy vs random: points per played deal ({len(margin)} deals)",
                 f"easy {statistics.fmean(easy_pts):.1f}, random {statistics.fmean(rnd_pts):.1f}, "
                 f"margin {m:+.1f} ± {mci:.1f}"))
    bete_rate = 100 * bete / max(1, made + bete)
    rows.append(("easy vs random: easy as maker", f"made {made}, bete {bete} ({bete_rate:.1f}%)"))
    rows.append(("easy vs random: time", f"{elapsed:.1f} s ({args.games / elapsed:.1f} games/s)"))

    t = time.perf_counter()
    games = full_games(args.selfplay, (easy, easy), 200_000)
    elapsed = time.perf_counter() - t
    totals, thrown, betes, played = [], 0, 0, 0
    deals = 0
    for s in games:
        for d in s.deals:
            deals += 1
            if d["thrown_in"]:
                thrown += 1
                continue
            played += 1
            betes += d["bete"]
            totals.append(sum(d["points"]))
    tm, tci = mean_ci(totals)
    rows.append((f"easy vs easy: points per played deal, both players ({played} deals)",
                 f"{tm:.1f} ± {tci:.1f} (the manual: about 110)"))
    rows.append(("easy vs easy: thrown in / maker bete",
                 f"{100 * thrown / max(1, deals):.1f}% of deals / {100 * betes / max(1, played):.1f}% of played"))
    rows.append(("easy vs easy: deals per game to 500", f"{deals / max(1, len(games)):.1f}"))
    rows.append(("easy vs easy: time", f"{elapsed:.1f} s"))

    width = max(len(k) for k, _ in rows)
    print("Clobby benchmark")
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")


if __name__ == "__main__":
    main()
