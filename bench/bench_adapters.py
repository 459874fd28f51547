"""The research adapters' overhead: random playouts through them beside the bare engine and a floor.

    .venv/bin/python bench/bench_adapters.py [--seconds 2] [--rounds 3]

For each game, one unit is one deal played with uniformly random legal actions:
- **engine**: ``new_state(seed=i)`` and ``rng.choice(legal_actions())`` until the deal ends;
- **openspiel**: ``python_parlour_<game>`` through pyspiel's integer API, chance nodes
  (the dealer and every card of the pack) sampled too;
- **pettingzoo**: ``env(game)`` (with its wrappers), ``reset(seed=i)`` then ``last()`` and a
  random masked action per step (an observation built every step, as a training loop does).

Each adapter has a **floor** beside it: a do-nothing game with the same shape — a Python
``pyspiel`` game with the same chance nodes (outcome lists of the same length), the same
number of player steps per deal (the engine's mean) and as many legal actions, and a PettingZoo
AEC environment with the same agents, steps, observation sizes and wrappers whose
observations are constant.  The floor is what any Python adapter pays for the toolkit's own
calls; the adapter column minus the floor is the adapter's own work.

Rates are per second of the process's CPU time; ratios are the engine's deals per second over
the column's.  OpenSpiel's own C++
``goofspiel`` (13 cards, imperfect information) is timed beside GOPS.  Slices alternate so
every column sees the same machine load; medians are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import parlour

Unit = Callable[[int, random.Random], None]


def engine_unit(name: str) -> Unit:
    game = parlour.load(name)

    def unit(i: int, rng: random.Random) -> None:
        state = game.new_state(seed=i)
        while not state.deals and not state.is_over:
            state.apply(rng.choice(state.legal_actions()))

    return unit


def deal_shape(name: str, deals: int = 300) -> dict[str, int]:
    """The engine's mean player steps per deal and mean legal actions per step (random play)."""
    game = parlour.load(name)
    steps = legal = 0
    for seed in range(deals):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.deals and not state.is_over:
            actions = state.legal_actions()
            steps, legal = steps + 1, legal + len(actions)
            state.apply(rng.choice(actions))
    return {"steps": round(steps / deals), "legal": max(1, round(legal / steps))}


def openspiel_unit(short_name: str, params: dict[str, Any] | None = None) -> Unit:
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


def pettingzoo_unit(make: Callable[[], Any]) -> Unit:
    env = make()

    def unit(i: int, rng: random.Random) -> None:
        env.reset(seed=i)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))

    return unit


# -- the floors: do-nothing games of the same shape ----------------------------------------
_FLOOR_REGISTERED: set[str] = set()


def floor_openspiel(name: str, shape: dict[str, int]) -> Unit:
    """A Python pyspiel game shaped like one deal of ``name`` that does nothing else."""
    import pyspiel

    from parlour.registry import game_class

    cls = game_class(name)
    game_obj = parlour.load(name)
    n, pack, actions = cls.num_players, len(cls.PACK), len(game_obj.action_space())
    simultaneous = bool(cls.SIMULTANEOUS)
    dealer = bool(cls.HAS_DEALER)
    nodes = shape["steps"] // n if simultaneous else shape["steps"]
    legal = list(range(min(shape["legal"], actions)))
    short = f"python_parlour_floor_{name}"
    game_type = pyspiel.GameType(
        short_name=short, long_name=short,
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n, min_num_players=n,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False, parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=actions, max_chance_outcomes=max(pack, n), num_players=n,
                            min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=nodes)
    chance_steps = pack + int(dealer)

    class FloorState(pyspiel.State):
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self._chance = 0
            self._moves = 0
            self._cur = pyspiel.PlayerId.CHANCE

        def current_player(self) -> int:
            return self._cur

        def is_terminal(self) -> bool:
            return self._moves >= nodes

        def chance_outcomes(self) -> list[tuple[int, float]]:
            left = pack - max(0, self._chance - int(dealer)) if self._chance >= int(dealer) else n
            p = 1.0 / left
            return [(i, p) for i in range(left)]

        def _legal_actions(self, player: int) -> list[int]:
            return legal

        def _apply_action(self, action: int) -> None:
            if self._chance < chance_steps:
                self._chance += 1
                if self._chance == chance_steps:
                    self._cur = pyspiel.PlayerId.SIMULTANEOUS if simultaneous else 0
                return
            self._moves += 1
            self._cur = pyspiel.PlayerId.TERMINAL if self._moves >= nodes else self._moves % n

        def _apply_actions(self, actions: list[int]) -> None:
            self._moves += 1
            if self._moves >= nodes:
                self._cur = pyspiel.PlayerId.TERMINAL

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def returns(self) -> list[float]:
            return [0.0] * n

        def __str__(self) -> str:
            return f"{self._chance} {self._moves}"

    class FloorGame(pyspiel.Game):
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

    if short not in _FLOOR_REGISTERED and short not in pyspiel.registered_names():
        pyspiel.register_game(game_type, FloorGame)
        _FLOOR_REGISTERED.add(short)
    globals()[f"_floor_game_{name}"] = FloorGame  # kept alive until exit
    return openspiel_unit(short)


def floor_pettingzoo(name: str, shape: dict[str, int]) -> Unit:
    """A PettingZoo AEC environment shaped like ``env(name)`` (same agents, steps, observation
    sizes and wrappers) whose observations are constant: the toolkit's own per-step cost."""
    from gymnasium import spaces
    from pettingzoo import AECEnv

    from parlour.adapters.pettingzoo import env as parlour_env

    real = parlour_env(name).unwrapped
    n, steps = len(real.possible_agents), shape["steps"]
    size, count = real.layout.size, len(real.spec.actions)
    legal = min(shape["legal"], count)

    class FloorEnv(AECEnv):  # type: ignore[misc]
        metadata = {"render_modes": [], "name": f"floor_{name}_v0", "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{i}" for i in range(n)]
            self.observation_spaces = {a: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(count,), dtype=np.int8)}) for a in self.possible_agents}
            self.action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
            self._obs = np.zeros(size, np.float32)
            self._mask = np.zeros(count, np.int8)
            self._mask[:legal] = 1

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: Any = None) -> None:
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self._steps = 0
            self.agent_selection = self.agents[0]

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            return {"observation": self._obs, "action_mask": self._mask}

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self._steps += 1
            if self._steps >= steps:
                for a in self.agents:
                    self.terminations[a] = True
            self.agent_selection = self.possible_agents[self._steps % n]
            self._accumulate_rewards()

    def make() -> Any:
        from parlour.adapters.pettingzoo import OrderEnforced

        return OrderEnforced(FloorEnv())

    return pettingzoo_unit(make)


def rate(unit: Unit, seconds: float, start: int) -> float:
    """Units per second of this process's CPU time (so other processes' load skews it less)."""
    rng = random.Random(start)
    count, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        unit(start + count, rng)
        count += 1
    return count / (time.process_time() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per column and game")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=None)
    args = parser.parse_args()
    from parlour.adapters.pettingzoo import env

    columns = ["engine", "os floor", "openspiel", "pz floor", "pettingzoo"]
    print(f"{'game':10} {'steps':>5} " + " ".join(f"{c:>16}" for c in columns))
    print(f"{'':10} {'':>5} " + " ".join(f"{'deals/s':>16}" if c == "engine" else f"{'deals/s  ratio':>16}"
                                         for c in columns))
    for name in args.games or parlour.names():
        shape = deal_shape(name)
        units = {"engine": engine_unit(name), "os floor": floor_openspiel(name, shape),
                 "openspiel": openspiel_unit(f"python_parlour_{name}"),
                 "pz floor": floor_pettingzoo(name, shape), "pettingzoo": pettingzoo_unit(lambda n=name: env(n))}
        rates: dict[str, list[float]] = {k: [] for k in units}
        for r in range(args.rounds):
            for key, unit in units.items():
                rates[key].append(rate(unit, args.seconds / args.rounds, 10_000 * r))
        med = {k: statistics.median(v) for k, v in rates.items()}
        cells = [f"{med['engine']:>16.0f}"]
        cells += [f"{med[c]:>8.0f} {med['engine'] / med[c]:>6.1f}x" for c in columns[1:]]
        print(f"{name:10} {shape['steps']:>5} " + " ".join(cells), flush=True)
    goof = openspiel_unit("goofspiel", {"num_cards": 13, "imp_info": True})
    print(f"OpenSpiel's C++ goofspiel (13 cards): {rate(goof, args.seconds, 0):.0f} games/s")


if __name__ == "__main__":
    main()
