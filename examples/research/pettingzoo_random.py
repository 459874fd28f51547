"""A random policy (respecting the action mask) over all five games' PettingZoo environments.

Prints each game's steps, episodes and mean reward per seat.
Run: ``python examples/research/pettingzoo_random.py --episodes 20``.
"""

from __future__ import annotations

import argparse

import numpy as np

import parlour
from parlour.adapters.pettingzoo import env


def main(argv: list[str] | None = None) -> dict[str, int]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    steps_per_game = {}
    for name in parlour.names():
        e = env(name)
        steps, totals = 0, None
        for episode in range(args.episodes):
            e.reset(seed=args.seed + episode)
            totals = totals or dict.fromkeys(e.possible_agents, 0.0)
            for agent in e.agent_iter():
                obs, reward, terminated, truncated, _ = e.last()
                totals[agent] += reward
                action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
                e.step(action)
                steps += 1
        means = " ".join(f"{a} {v / args.episodes:+.2f}" for a, v in totals.items())
        print(f"{name:10} {args.episodes} deals, {steps} steps; mean reward: {means}")
        steps_per_game[name] = steps
    return steps_per_game


if __name__ == "__main__":
    main()
