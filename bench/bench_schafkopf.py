"""Schafkopf benchmark: engine speed (beside OpenSpiel's skat when installed) and the easy bot's margin.

Run: ``.venv/bin/python bench/bench_schafkopf.py`` (about 20 s with the defaults).

- Random playouts: ``new_state(seed=i)`` then uniformly random legal actions through the
  public API until the first deal is recorded (shuffle, bidding, discard, 30 cards).
- OpenSpiel ``skat`` (the nearest game it has: 32 cards, 3 players, 10 tricks), played the
  same way through ``pyspiel`` when the ``peers`` extra is installed; chance nodes are
  sampled from their outcome probabilities.
- Easy vs random: one easy seat and two random seats, the easy seat rotating over the three
  places; points per deal split by role (soloist, defender against a soloist, Ramsch), and
  whole games to 10 won.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

try:
    import parlour
except ImportError:  # running from a checkout without the editable install
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import parlour

from parlour.bots import RandomBot
from parlour.games.schafkopf.bots import EasyBot


def random_playouts(n: int) -> tuple[float, float]:
    """Deals per second and actions per deal, random legal play through the public API."""
    game = parlour.load("schafkopf")
    rng = random.Random(12345)
    actions = 0
    start = time.perf_counter()
    for i in range(n):
        state = game.new_state(seed=i)
        while not state.deals:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, actions / n


def openspiel_skat(n: int) -> tuple[float, float] | None:
    """Games per second and actions per game of pyspiel's skat played the same way, or None."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("skat")
    rng = random.Random(12345)
    actions = 0
    start = time.perf_counter()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                acc = 0.0
                action = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if r < acc:
                        action = a
                        break
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, actions / n


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its ~95% confidence interval."""
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n == 1:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def fmt(xs: list[float]) -> str:
    m, h = mean_ci(xs)
    return f"{m:+.3f} ± {h:.3f}  (n={len(xs)})"


def easy_vs_random_deals(n: int) -> dict[str, list[float]]:
    """Per-deal scores with one easy seat (rotating) and two random seats, and an all-random baseline."""
    game = parlour.load("schafkopf")
    easy, rnd = EasyBot(), RandomBot()
    rng = random.Random(7)
    out: dict[str, list[float]] = {k: [] for k in (
        "easy", "random", "margin", "easy soloist", "random soloist vs easy", "easy ramsch", "random ramsch",
        "baseline soloist", "baseline ramsch")}
    for i in range(n):
        seat = i % 3
        bots = [easy if s == seat else rnd for s in range(3)]
        state = game.new_state(seed=1_000_000 + i)
        while not state.deals:
            p = state.current_player
            state.apply(bots[p].act(state.view(p), rng))
        d = state.deals[0]
        scores = d["scores"]
        others = [s for s in range(3) if s != seat]
        rand_mean = sum(scores[s] for s in others) / 2
        out["easy"].append(scores[seat])
        out["random"].append(rand_mean)
        out["margin"].append(scores[seat] - rand_mean)
        if d["ramsch"]:
            out["easy ramsch"].append(scores[seat])
            out["random ramsch"].extend(scores[s] for s in others)
        elif d["soloist"] == seat:
            out["easy soloist"].append(scores[seat])
        else:
            out["random soloist vs easy"].append(scores[d["soloist"]])
        # The same deal with three random players, for comparison.
        state = game.new_state(seed=1_000_000 + i)
        while not state.deals:
            state.apply(rnd.act(state.view(state.current_player), rng))
        d = state.deals[0]
        if d["ramsch"]:
            out["baseline ramsch"].extend(d["scores"])
        else:
            out["baseline soloist"].append(d["scores"][d["soloist"]])
    return out


def easy_vs_random_games(n: int, target: int = 10, cap: int = 5000) -> tuple[int, int, float]:
    """Games won by the easy seat, games finished, and mean deals per game."""
    game = parlour.load("schafkopf", target=target)
    easy, rnd = EasyBot(), RandomBot()
    rng = random.Random(11)
    won = finished = 0
    deals = 0
    for i in range(n):
        seat = i % 3
        bots = [easy if s == seat else rnd for s in range(3)]
        state = game.new_state(seed=2_000_000 + i)
        while not state.is_over and len(state.deals) < cap:
            p = state.current_player
            state.apply(bots[p].act(state.view(p), rng))
        if state.is_over:
            finished += 1
            won += state.winner == seat
        deals += len(state.deals)
    return won, finished, deals / n


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--playouts", type=int, default=30000, help="random deals timed (default 30000)")
    ap.add_argument("--peer-playouts", type=int, default=20000, help="OpenSpiel skat games timed (default 20000)")
    ap.add_argument("--deals", type=int, default=6000, help="easy-vs-random deals (default 6000)")
    ap.add_argument("--games", type=int, default=600, help="easy-vs-random games to 10 (default 600)")
    args = ap.parse_args(argv)

    print("Schafkopf benchmark")
    print("-" * 78)
    rate, per = random_playouts(args.playouts)
    print(f"{'random playout, parlour schafkopf':<40}{rate:>10,.0f} deals/s  {1e6 / rate:7.1f} us/deal"
          f"  ({per:.1f} actions/deal)")
    peer = openspiel_skat(args.peer_playouts) if args.peer_playouts > 0 else None
    if peer is None:
        print(f"{'random playout, OpenSpiel skat':<40}{'skipped (pyspiel not installed: pip install .[peers])':>10}")
    else:
        prate, pper = peer
        print(f"{'random playout, OpenSpiel skat':<40}{prate:>10,.0f} games/s  {1e6 / prate:7.1f} us/game"
              f"  ({pper:.1f} actions/game)")
        print(f"{'ratio schafkopf / skat':<40}{rate / prate:>10.2f}x  (target >= 1.0x)")
    print("-" * 78)

    start = time.perf_counter()
    stats = easy_vs_random_deals(args.deals)
    print(f"Easy vs random, per deal ({args.deals} deals, one easy seat rotating over the three places)")
    print(f"  {'easy seat, points per deal':<38}{fmt(stats['easy'])}")
    print(f"  {'random seats, points per deal':<38}{fmt(stats['random'])}")
    print(f"  {'margin easy - random':<38}{fmt(stats['margin'])}")
    print(f"  {'easy as soloist':<38}{fmt(stats['easy soloist'])}")
    print(f"  {'random soloist, easy defending':<38}{fmt(stats['random soloist vs easy'])}")
    print(f"  {'random soloist, random defending':<38}{fmt(stats['baseline soloist'])}")
    print(f"  {'easy in Ramsch':<38}{fmt(stats['easy ramsch'])}")
    print(f"  {'random in Ramsch (vs easy)':<38}{fmt(stats['random ramsch'])}")
    print(f"  {'random in Ramsch (all random)':<38}{fmt(stats['baseline ramsch'])}")
    if args.games <= 0:
        return
    won, finished, per_game = easy_vs_random_games(args.games)
    p = won / args.games
    half = 1.96 * math.sqrt(p * (1 - p) / args.games)
    print(f"Easy vs random, games to 10 ({args.games} games, seats rotated; chance level 33.3%)")
    print(f"  {'easy seat wins':<38}{100 * p:.1f}% ± {100 * half:.1f}%  ({won}/{args.games}, "
          f"{finished} finished, {per_game:.1f} deals per game)")
    print(f"  ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
