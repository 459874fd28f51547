"""The research adapters (issue 17): OpenSpiel games and PettingZoo environments for all games.

Skipped, with the reason shown, when the optional extras are not installed (``make test``
installs them).
"""

from __future__ import annotations

import functools
import random
import subprocess
import sys

import pytest

import parlour

GAMES = ["clobby", "sixbid", "schafkopf", "truc", "gops"]


def test_importing_parlour_imports_no_research_toolkit():
    code = ("import sys, parlour; s = parlour.load('gops').new_state(seed=1); s.apply(s.legal_actions()[0]);"
            "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'numpy', 'gymnasium') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_is_in_the_declared_action_space(name):
    game = parlour.load(name)
    space = game.action_space()
    assert len(space) == len(set(space))
    declared = set(space)
    for seed in range(40):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.is_over or len(state.deals) >= 2:
                break
            legal = state.legal_actions()
            assert set(legal) <= declared
            state.apply(rng.choice(legal))


class TestOpenSpiel:
    @pytest.fixture(autouse=True)
    def registered(self):
        # Skipped, with the reason shown, when the optional extra is missing.
        self.pyspiel = pytest.importorskip(
            "pyspiel", reason="OpenSpiel is not installed (pip install 'parlour[openspiel]')")
        import parlour.adapters.openspiel  # noqa: F401 - registers the games

    @pytest.mark.parametrize("name", GAMES)
    def test_random_sim_test_with_serialization(self, name):
        game = self.pyspiel.load_game(f"python_parlour_{name}")
        self.pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)

    def test_options_pass_through_as_parameters(self):
        game = self.pyspiel.load_game("python_parlour_clobby", {"tout_atout": True, "returns": "scores"})
        assert game.get_parameters()["tout_atout"] is True
        assert game.get_type().utility == self.pyspiel.GameType.Utility.GENERAL_SUM
        with pytest.raises(Exception, match="(?i)unknown parameter"):
            self.pyspiel.load_game("python_parlour_clobby", {"nonsense": 1})

    def test_gops_is_simultaneous_and_the_others_sequential(self):
        dyn = self.pyspiel.GameType.Dynamics
        for name in GAMES:
            game = self.pyspiel.load_game(f"python_parlour_{name}")
            expected = dyn.SIMULTANEOUS if name == "gops" else dyn.SEQUENTIAL
            assert game.get_type().dynamics == expected

    @pytest.mark.parametrize("name", GAMES)
    def test_actions_map_one_to_one_onto_parlour_strings(self, name):
        game = self.pyspiel.load_game(f"python_parlour_{name}")
        state = game.new_initial_state()
        rng = random.Random(3)
        space = parlour.load(name).action_space()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            if state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
                continue
            player = state.current_player()
            legal = state.legal_actions()
            assert sorted(state.view(player)["legal_actions"], key=space.index) == [space[a] for a in legal]
            assert [state.action_to_string(player, a) for a in legal] == [space[a] for a in legal]
            state.apply_action(rng.choice(legal))
        assert abs(sum(state.returns())) < 1e-9  # "margin" returns are zero-sum

    @pytest.mark.parametrize("name", GAMES)
    def test_observations_do_not_change_when_only_hidden_cards_change(self, name):
        import numpy as np

        game = self.pyspiel.load_game(f"python_parlour_{name}")
        rng = np.random.RandomState(7)
        differed = 0
        for trial in range(20):
            state = game.new_initial_state()
            steps = 0
            while not state.is_terminal() and steps < 2 + trial % 10:
                if state.is_chance_node():
                    outcomes = [o for o, _ in state.chance_outcomes()]
                    state.apply_action(outcomes[rng.randint(len(outcomes))])
                    continue
                if state.is_simultaneous_node():
                    state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
            if state.is_terminal() or state.is_chance_node():
                continue
            for player in range(game.num_players()):
                other = state.resample_from_infostate(player, rng.rand)
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.observation_string(player) == state.observation_string(player)
                assert other.observation_tensor(player) == state.observation_tensor(player)
                differed += other._packs != state._packs  # the true deal (not something a seat sees)
        assert differed > 0  # the resampled deals really did move hidden cards


class TestPettingZoo:
    @pytest.fixture(autouse=True)
    def installed(self):
        pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install 'parlour[pettingzoo]')")

    @pytest.mark.parametrize("name", GAMES)
    def test_api_and_seed_tests_pass(self, name):
        from pettingzoo.test import api_test, seed_test

        from parlour.adapters.pettingzoo import env

        api_test(env(name), num_cycles=100, verbose_progress=False)
        seed_test(functools.partial(env, name), num_cycles=30)

    def test_reset_seed_deals_as_the_engine_does(self):
        from parlour.adapters.pettingzoo import raw_env

        e = raw_env("schafkopf")
        e.reset(seed=11)
        engine = parlour.load("schafkopf").new_state(seed=11)
        assert e.state.view(0) == engine.view(0)

    def test_whole_game_episode_rewards_add_up_to_the_scores(self):
        from parlour.adapters.pettingzoo import raw_env

        e = raw_env("truc", episode="game", reward="scores")
        e.reset(seed=5)
        rng = random.Random(5)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            _, reward, terminated, truncated, _ = e.last()
            totals[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            mask = e.observe(agent)["action_mask"]
            e.step(rng.choice([i for i, m in enumerate(mask) if m]))
        assert e.state.is_over
        assert [totals[a] for a in e.possible_agents] == [sum(d["scores"][s] for d in e.state.deals) for s in range(2)]

    def test_ansi_render_is_the_line_mode_text(self):
        from parlour.adapters.pettingzoo import raw_env

        e = raw_env("clobby", render_mode="ansi")
        e.reset(seed=2)
        assert "Your hand:" in e.render()


def _example(name: str):
    """Load one of examples/research/*.py as a module (they are scripts, not a package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "research" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"research_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestExamples:
    """The three research examples, run on tiny settings."""

    @pytest.fixture(autouse=True)
    def installed(self):
        pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'parlour[openspiel]')")
        pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install 'parlour[pettingzoo]')")

    def test_mccfr_on_gops_gets_less_exploitable(self, capsys):
        curve = _example("mccfr_gops").main(["--cards", "3", "--iterations", "200", "--report", "100"])
        assert curve[-1][1] < curve[0][1]
        assert "exact game value" in capsys.readouterr().out

    def test_ismcts_plays_truc_against_easy(self, capsys):
        mean, half = _example("ismcts_truc").main(["--deals", "2", "--simulations", "20"])
        assert half >= 0 and "points per deal" in capsys.readouterr().out

    def test_a_random_policy_runs_over_every_game(self, capsys):
        steps = _example("pettingzoo_random").main(["--episodes", "2"])
        assert set(steps) == set(parlour.names()) and all(n > 0 for n in steps.values())
