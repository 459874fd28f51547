"""Six-Bid Solo: random-playout speed beside OpenSpiel's skat, and the easy player's margin over random.

    .venv/bin/python bench/bench_sixbid.py [--seconds 3] [--deals 3000] [--matches 300]

Speed: one unit is ``new_state(seed=i)`` then a uniformly random legal action until the first
deal is recorded, exactly as ``bench/engine_speed.py`` measures it; OpenSpiel's ``skat`` is
played out the same way in the same run when the ``peers`` extra is installed (target: ratio
at least 1.0).  Also the rates of ``clone()`` and ``view()``, which search bots lean on.

Strength: single deals with one easy seat against two random seats, the easy seat rotated
over the three positions (so it is elder, next and dealer equally often): mean chips won per
deal with a 95% interval, and the share of deals it gained or lost chips in.  The reverse (one
random seat against two easy ones) and whole matches (``--match-chips`` each, rotated) are
reported too, then how the easy player's own contracts fare when three easy players meet.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

import parlour
from engine_speed import openspiel_unit, parlour_unit, rate  # the same measurement, same folder
from parlour.bots import make


def mid_deal_states(count: int) -> list[parlour.State]:
    game = parlour.load("sixbid")
    rng = random.Random(5)
    states = []
    for i in range(count):
        state = game.new_state(seed=i)
        for _ in range(rng.randrange(5, 30)):
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def per_second(fn: Callable[[], object], seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            fn()
        n += 200
    return n / (time.perf_counter() - start)


def one_deal(bots: list, seed: int, rng: random.Random) -> dict:
    state = parlour.load("sixbid").new_state(seed=seed)
    while not state.deals:
        seat = state.current_player
        state.apply(bots[seat].act(state.view(seat), rng))
    return state.deals[0]


def mean_ci(values: list[float]) -> tuple[float, float]:
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def deal_margin(hero_level: str, other_level: str, deals: int) -> tuple[list[int], Counter]:
    hero, other = make("sixbid", hero_level), make("sixbid", other_level)
    rng = random.Random(2026)
    gains = []
    outcomes: Counter = Counter()
    for i in range(deals):
        seat = i % 3
        bots = [hero if s == seat else other for s in range(3)]
        summary = one_deal(bots, seed=10_000 + i, rng=rng)
        gain = summary["scores"][seat]
        gains.append(gain)
        outcomes["won" if gain > 0 else "lost" if gain < 0 else "even"] += 1
    return gains, outcomes


def matches(count: int, chips: int) -> tuple[int, int, int]:
    game = parlour.load("sixbid", chips=chips)
    easy, rnd = make("sixbid", "easy"), make("sixbid", "random")
    rng = random.Random(77)
    won = lost = tied = 0
    for i in range(count):
        seat = i % 3
        bots = [easy if s == seat else rnd for s in range(3)]
        state = game.new_state(seed=20_000 + i)
        while not state.is_over:
            s = state.current_player
            state.apply(bots[s].act(state.view(s), rng))
        if state.winner is None:
            tied += 1
        elif state.winner == seat:
            won += 1
        else:
            lost += 1
    return won, lost, tied


def self_play(deals: int) -> Counter:
    easy = make("sixbid", "easy")
    rng = random.Random(3)
    counts: Counter = Counter()
    for i in range(deals):
        summary = one_deal([easy, easy, easy], seed=30_000 + i, rng=rng)
        counts[(summary["bid"] or "thrown in", summary["made"])] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per speed measurement")
    parser.add_argument("--deals", type=int, default=3000, help="deals per strength measurement")
    parser.add_argument("--matches", type=int, default=300, help="whole matches, easy vs two random")
    parser.add_argument("--match-chips", type=int, default=1000, help="chips each seat starts a match with")
    args = parser.parse_args()

    print("Six-Bid Solo: random playouts (new_state(seed=i), random legal actions until the first deal)")
    ours = rate(parlour_unit("sixbid"), args.seconds)
    skat = openspiel_unit("skat")
    theirs = rate(skat, args.seconds) if skat else None
    print(f"{'engine':<22} {'unit':<6} {'per second':>12}")
    print(f"{'parlour sixbid':<22} {'deal':<6} {ours:>12,.0f}")
    if theirs:
        print(f"{'openspiel skat':<22} {'game':<6} {theirs:>12,.0f}")
        print(f"{'ratio sixbid/skat':<22} {'':<6} {ours / theirs:>11.2f}x  (target >= 1.00x)")
    else:
        print(f"{'openspiel skat':<22} {'game':<6} {'not installed (pip install -e .[peers])':>12}")
    states = mid_deal_states(200)
    it = iter(range(10**12))
    print(f"{'clone() mid-deal':<22} {'call':<6} {per_second(lambda: states[next(it) % 200].clone(), 1.0):>12,.0f}")
    print(f"{'view(seat) mid-deal':<22} {'call':<6} "
          f"{per_second(lambda: states[next(it) % 200].view(next(it) % 3), 1.0):>12,.0f}")

    print()
    print("Strength: single deals, seats rotated; chips per deal for the first-named side (95% interval)")
    print(f"{'match-up':<26} {'deals':>6} {'gained':>7} {'lost':>6} {'even':>6} {'chips/deal':>20}")
    for hero, other, label in (("easy", "random", "1 easy vs 2 random"), ("random", "easy", "1 random vs 2 easy"),
                               ("random", "random", "1 random vs 2 random")):
        gains, outcomes = deal_margin(hero, other, args.deals)
        m, ci = mean_ci(gains)
        print(f"{label:<26} {args.deals:>6} {outcomes['won']:>7} {outcomes['lost']:>6} {outcomes['even']:>6} "
              f"{m:>+12.1f} ± {ci:<6.1f}")

    won, lost, tied = matches(args.matches, args.match_chips)
    n = max(1, args.matches)
    p = won / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    print()
    print(f"Matches to a broken pot ({args.match_chips} chips each), 1 easy vs 2 random, seat rotated:")
    print(f"  {n} matches: easy won {won}, others won {lost}, tied {tied}; "
          f"win rate {p:.1%} ± {half:.1%} (1/3 would be no better than random)")

    counts = self_play(min(args.deals, 2000))
    print()
    print("Easy self-play: contracts bid and their fate")
    for (bid, made), k in sorted(counts.items(), key=lambda kv: str(kv[0])):
        fate = "" if made is None else ("made" if made else "lost")
        print(f"  {bid:<10} {fate:<5} {k:>6}")


if __name__ == "__main__":
    main()
