"""Parlour's games as PettingZoo AEC environments, in the style of PettingZoo's classic set.

``env(name, **options)`` gives a wrapped environment (PettingZoo's order enforcing and action
bounds check, in one layer: ``OrderEnforced``); ``raw_env`` the bare one.  Agents are
``player_0`` … ``player_{n-1}`` (Parlour's seats).

- **Observation** (``observe(agent)``): ``{"observation": float32 vector, "action_mask": int8
  vector}``; the vector is ``encoding.ObservationLayout`` of ``state.view(seat)`` only, the mask
  marks the legal actions (all zero when it is not that agent's turn).
- **Actions**: ``Discrete(len(game.action_space()))``, ids one-to-one with Parlour's strings.
  GOPS-like simultaneous turns are taken in seat order; the later seat's observation never
  shows the earlier seat's choice (as ``view`` guarantees).
- **Episodes**: ``episode="deal"`` (default) ends after the first deal; ``episode="game"`` plays
  the whole game and truncates after ``max_deals`` deals (random players can make Schafkopf
  endless).  **Rewards** come at the end of each deal: ``reward="margin"`` (default: the seat's
  deal score minus the mean of the others', zero-sum) or ``"scores"`` (the deal's scores); or,
  for ``episode="game"`` only, at the end of the game: ``reward="win"`` (+1 to the winner,
  -1/(n-1) to each other seat; 0 for all on a draw or when truncated).
- **Seeding**: ``reset(seed=N)`` deals exactly as ``parlour.load(name).new_state(seed=N)``.
- ``render_mode="ansi"``: ``render()`` returns the line-mode text of the seat to act.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import State
from .encoding import GameSpec, ObservationLayout, deal_payoffs

EPISODES = ("deal", "game")
REWARDS = ("margin", "scores", "win")


def env(name: str, **kwargs: Any) -> AECEnv:
    """The environment for game ``name`` with PettingZoo's order enforcing and bounds check."""
    return OrderEnforced(raw_env(name, **kwargs))


def _passed_through(name: str) -> property:
    def get(self: OrderEnforced) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)
    return property(get)


class OrderEnforced(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with ``AssertOutOfBoundsWrapper``'s check in ``step``.

    The same checks as the classic environments' wrapper stack, but why one layer with the
    per-step attributes read straight through: the stock wrappers find every attribute of
    every step through a chain of ``__getattr__`` calls, which cost more than a step of the
    game itself.
    """

    agent_selection = _passed_through("agent_selection")
    agents = _passed_through("agents")
    rewards = _passed_through("rewards")
    terminations = _passed_through("terminations")
    truncations = _passed_through("truncations")
    infos = _passed_through("infos")
    _cumulative_rewards = _passed_through("_cumulative_rewards")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        inner = self.env
        if self._has_reset and inner.agents:
            agent = inner.agent_selection
            if action is None:
                assert inner.terminations[agent] or inner.truncations[agent], "action is not in action space"
            else:
                space = inner.action_spaces[agent]
                assert (action.__class__ is int and 0 <= action < space.n) or space.contains(action), (
                    "action is not in action space")
        super().step(action)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention for the bare environment
    metadata = {"render_modes": ["ansi"], "name": "parlour_v0", "is_parallelizable": False}

    def __init__(self, name: str, render_mode: str | None = None, episode: str = "deal",
                 reward: str = "margin", max_deals: int = 50, **options: Any) -> None:
        super().__init__()
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}")
        if reward == "win" and episode != "game":
            raise ValueError('reward="win" needs episode="game" (a deal has no winner of its own)')
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.spec = GameSpec(name, options)
        self.layout = ObservationLayout(self.spec)
        self.metadata = {**self.metadata, "name": f"parlour_{name}_v0"}
        self.render_mode = render_mode
        self.episode, self.reward_kind, self.max_deals = episode, reward, max_deals
        n = self.spec.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size, count = self.layout.size, len(self.spec.actions)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(count,), dtype=np.int8),
            }) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
        self._seed_rng = random.Random()
        self.state: State | None = None
        self._legal: list[str] = []  # the legal actions of agent_selection now

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng.seed(seed)
        deal_seed = seed if seed is not None else self._seed_rng.randrange(2**31)
        self.state = self.spec.game.new_state(seed=deal_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"legal_actions": []} for a in self.agents}
        self.agent_selection = self.possible_agents[0]
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat to act; only its info lists legal actions."""
        state = self.state
        assert state is not None
        player = state.current_player
        self.infos[self.agent_selection] = {"legal_actions": []}
        self.agent_selection = agent = self.possible_agents[player if player is not None else 0]
        self._legal = state.legal_actions() if player is not None else []
        self.infos[agent] = {"legal_actions": list(self._legal)}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(len(self.spec.actions), np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            index = self.spec.index
            mask[[index[a] for a in self._legal]] = 1
        return {"observation": self.layout.encode(self.state.view(seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None and action is not None
        text = self.spec.actions[int(action)]
        deals_before = len(state.deals)
        state.apply(text)  # an illegal id raises parlour.IllegalAction (a ValueError)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if len(state.deals) > deals_before:
            over = state.is_over or self.episode == "deal"
            cut = not over and len(state.deals) >= self.max_deals
            self._score(deal_payoffs(state.deals[-1]), state.winner if state.is_over else None)
            for a in self.agents:
                self.terminations[a] = over
                self.truncations[a] = cut
        self._select()
        self._accumulate_rewards()

    def _score(self, scores: list[float], winner: int | None) -> None:
        n = len(scores)
        if self.reward_kind == "win":
            if winner is not None:
                for a in self.agents:
                    self.rewards[a] = 1.0 if self.agent_name_mapping[a] == winner else -1.0 / (n - 1)
            return
        total = sum(scores)
        for a in self.agents:
            s = float(scores[self.agent_name_mapping[a]])
            self.rewards[a] = s if self.reward_kind == "scores" else s - (total - s) / (n - 1)

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        from ..linemode.render import render

        seat = self.agent_name_mapping[self.agent_selection]
        return render(self.state.view(seat), human=seat)

    def close(self) -> None:
        pass
