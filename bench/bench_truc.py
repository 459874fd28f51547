"""Le Truc: engine speed and the easy player's margins over five simple players.

    .venv/bin/python bench/bench_truc.py [--deals 10000] [--playouts 20000] [--seed 2026]

The easy player meets ``random`` (uniform over the legal actions) and three one-track
policies defined here: ``always-decline`` (declines every offer, refuses every call, never
offers), ``always-accept`` (accepts every offer and call, never offers) and
``always-double`` (offers double or remainder whenever it may, accepts every offer and call).
Outside those choices they play a random legal action.  Whole games are played, seats
alternating game by game, until ``--deals`` deals have been scored against each opponent.
Figures: mean points per deal (easy minus opponent) and the share of games won, each with a
95% interval (normal approximation for the mean, Wilson for the share); also the share of deals won and of rounds won.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

import parlour
from parlour.bots import make

OFFERS = ("double", "remainder")


class RandomPlayer:
    name = "random"

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        return rng.choice(view["legal_actions"])


class AlwaysDecline:
    name = "always-decline"

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        legal = view["legal_actions"]
        for word in ("decline", "refuse"):
            if word in legal:
                return word
        return rng.choice([a for a in legal if a not in OFFERS])


class AlwaysAccept:
    name = "always-accept"

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        legal = view["legal_actions"]
        if "accept" in legal:
            return "accept"
        return rng.choice([a for a in legal if a not in OFFERS])


class AlwaysDouble:
    name = "always-double"

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        legal = view["legal_actions"]
        for word in ("double", "remainder", "accept"):
            if word in legal:
                return word
        return rng.choice(legal)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion (sound even at 0% or 100%)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def playout_speed(n: int) -> tuple[float, float]:
    """Random playouts through the public API: first deals per second, whole games per second."""
    game = parlour.load("truc")
    rng = random.Random(1)
    start = time.perf_counter()
    for i in range(n):
        state = game.new_state(seed=i)
        while not state.deals:
            state.apply(rng.choice(state.legal_actions()))
    deals_per_s = n / (time.perf_counter() - start)
    games = max(1, n // 20)
    start = time.perf_counter()
    for i in range(games):
        state = game.new_state(seed=i)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
    return deals_per_s, games / (time.perf_counter() - start)


def match(opponent: Any, deals: int, seed: int) -> dict[str, Any]:
    game = parlour.load("truc")
    easy = make("truc", "easy")
    rng = random.Random(seed)
    margins: list[int] = []
    thinking = 0.0
    decisions = 0
    games = won_games = won_deals = lost_deals = won_rounds = rounds = 0
    g = 0
    while len(margins) < deals:
        easy_seat = g % 2
        state = game.new_state(seed=seed * 1_000_003 + g)
        g += 1
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            if seat == easy_seat:
                t0 = time.perf_counter()
                action = easy.act(view, rng)
                thinking += time.perf_counter() - t0
                decisions += 1
            else:
                action = opponent.act(view, rng)
            state.apply(action)
        for d in state.deals:
            margins.append(d["scores"][easy_seat] - d["scores"][1 - easy_seat])
            won_deals += d["winner"] == easy_seat
            lost_deals += d["winner"] == 1 - easy_seat
            if d["round_winner"] is not None:
                rounds += 1
                won_rounds += d["round_winner"] == easy_seat
        games += 1
        won_games += state.winner == easy_seat
    n = len(margins)
    mean = statistics.fmean(margins)
    return {"opponent": opponent.name, "deals": n, "games": games, "mean": mean,
            "ci": 1.96 * statistics.stdev(margins) / math.sqrt(n), "win": won_games / games,
            "win_ci": wilson(won_games, games), "deal_win": won_deals / n, "deal_loss": lost_deals / n,
            "rounds": won_rounds / rounds, "decisions_s": decisions / thinking if thinking else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals per opponent (default 10000)")
    parser.add_argument("--playouts", type=int, default=20_000, help="random first deals for the speed test")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    deals_s, games_s = playout_speed(args.playouts)
    print(f"random playouts: {deals_s:,.0f} first deals/s, {games_s:,.0f} whole games/s "
          f"(new_state(seed=i), random legal actions)")
    print()
    head = (f"{'easy vs':<16} {'deals':>6} {'games':>6} {'points/deal margin':>20} {'games won (95%)':>22}"
            f" {'deals won/lost':>15} {'rounds won':>11} {'time':>6}")
    print(head)
    print("-" * len(head))
    beaten = True
    for i, opponent in enumerate((RandomPlayer(), AlwaysDecline(), AlwaysAccept(), AlwaysDouble())):
        start = time.perf_counter()
        r = match(opponent, args.deals, args.seed + i)
        beaten &= r["mean"] - r["ci"] > 0 and r["win_ci"][0] > 0.5
        won = f"{r['win']:.1%} ({r['win_ci'][0]:.1%}-{r['win_ci'][1]:.1%})"
        print(f"{r['opponent']:<16} {r['deals']:>6} {r['games']:>6} {r['mean']:>+11.3f} ± {r['ci']:<6.3f}"
              f" {won:>22}"
              f" {r['deal_win']:>7.1%}/{r['deal_loss']:<6.1%}"
              f" {r['rounds']:>11.1%} {time.perf_counter() - start:>5.0f}s")
    print()
    print(f"easy player: {r['decisions_s']:,.0f} decisions/s (last match, caches warm)")
    print("the easy player beats all four" if beaten else "the easy player does NOT beat all four")


if __name__ == "__main__":
    main()
