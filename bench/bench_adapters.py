"""The research adapters' overhead: random playouts through them beside the bare engine.

    .venv/bin/python bench/bench_adapters.py [--seconds 2]

For each game, one unit is one deal played with uniformly random legal actions:
- **engine**: ``new_state(seed=i)`` and ``rng.choice(legal_actions())`` until the deal ends;
- **openspiel**: ``python_parlour_<game>`` through pyspiel's integer API, chance nodes
  (the dealer and every card of the pack) sampled too;
- **pettingzoo**: the AEC environment, ``reset(seed=i)`` then a random masked action per step
  (observations built every step, as a training loop does).
OpenSpiel's own C++ ``goofspiel`` (13 cards, imperfect information) is timed beside GOPS.
Slices alternate so every column sees the same machine load; medians are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import parlour


def engine_unit(name: str) -> Callable[[int, random.Random], None]:
    game = parlour.load(name)

    def unit(i: int, rng: random.Random) -> None:
        state = game.new_state(seed=i)
        while not state.deals and not state.is_over:
            state.apply(rng.choice(state.legal_actions()))

    return unit


def openspiel_unit(short_name: str, params: dict | None = None) -> Callable[[int, random.Random], None]:
    import pyspiel

    import parlour.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game(short_name, params or {})
    players = game.num_players()

    def unit(i: int, rng: random.Random) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    return unit


def pettingzoo_unit(name: str) -> Callable[[int, random.Random], None]:
    from parlour.adapters.pettingzoo import raw_env

    env = raw_env(name)

    def unit(i: int, rng: random.Random) -> None:
        env.reset(seed=i)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))

    return unit


def rate(unit: Callable[[int, random.Random], None], seconds: float, start: int) -> float:
    rng = random.Random(start)
    count, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        unit(start + count, rng)
        count += 1
    return count / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':10} {'engine deals/s':>15} {'openspiel':>10} {'ratio':>6} {'pettingzoo':>11} {'ratio':>6}")
    for name in parlour.names():
        units = {"engine": engine_unit(name), "openspiel": openspiel_unit(f"python_parlour_{name}"),
                 "pettingzoo": pettingzoo_unit(name)}
        rates: dict[str, list[float]] = {k: [] for k in units}
        for r in range(args.rounds):
            for key, unit in units.items():
                rates[key].append(rate(unit, args.seconds / args.rounds, 10_000 * r))
        med = {k: statistics.median(v) for k, v in rates.items()}
        print(f"{name:10} {med['engine']:>15.0f} {med['openspiel']:>10.0f} {med['engine'] / med['openspiel']:>5.1f}x"
              f" {med['pettingzoo']:>11.0f} {med['engine'] / med['pettingzoo']:>5.1f}x")
    goof = openspiel_unit("goofspiel", {"num_cards": 13, "imp_info": True})
    print(f"OpenSpiel's C++ goofspiel (13 cards): {rate(goof, args.seconds, 0):.0f} games/s")


if __name__ == "__main__":
    main()
