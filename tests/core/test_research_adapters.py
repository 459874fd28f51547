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
from helpers import ROOT

GAMES = ["clobby", "sixbid", "schafkopf", "truc", "gops"]
GAME_EPISODE = {"utility": "game", "max_deals": 3}  # whole games, kept short for the tests


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
    @pytest.mark.parametrize("params", [{}, GAME_EPISODE, {**GAME_EPISODE, "returns": "win"}],
                             ids=["deal", "game", "game-win"])
    def test_random_sim_test_with_serialization(self, name, params):
        game = self.pyspiel.load_game(f"python_parlour_{name}", params)
        self.pyspiel.random_sim_test(game, num_sims=1 if params else 3, serialize=True, verbose=False)

    @pytest.mark.parametrize("name", GAMES)
    def test_game_info_bounds_each_utility_mode(self, name):
        cls = type(parlour.load(name))
        deal = self.pyspiel.load_game(f"python_parlour_{name}")
        assert deal.max_game_length() == cls.DEAL_LENGTH_BOUND
        assert (deal.min_utility(), deal.max_utility()) == (-2 * cls.DEAL_SCORE_BOUND, 2 * cls.DEAL_SCORE_BOUND)
        scores = self.pyspiel.load_game(f"python_parlour_{name}", {"returns": "scores", "utility": "game",
                                                                    "max_deals": 7})
        assert scores.max_game_length() == 7 * cls.DEAL_LENGTH_BOUND
        assert (scores.min_utility(), scores.max_utility()) == (-7 * cls.DEAL_SCORE_BOUND, 7 * cls.DEAL_SCORE_BOUND)
        assert scores.get_type().utility == self.pyspiel.GameType.Utility.GENERAL_SUM
        win = self.pyspiel.load_game(f"python_parlour_{name}", {"returns": "win", "utility": "game"})
        assert (win.min_utility(), win.max_utility()) == (-1, 1)
        assert win.max_game_length() == 50 * cls.DEAL_LENGTH_BOUND  # the default deal cap
        assert win.get_type().utility == self.pyspiel.GameType.Utility.ZERO_SUM
        with pytest.raises(Exception, match="needs utility"):
            self.pyspiel.load_game(f"python_parlour_{name}", {"returns": "win"})

    @pytest.mark.parametrize("name", GAMES)
    def test_a_game_episode_plays_to_the_engines_game_end_or_the_deal_cap(self, name):
        options = {"schafkopf": {"target": 4}, "sixbid": {"chips": 40}, "clobby": {"game_point": 150}}.get(name, {})
        cap = 60 if name == "truc" else 6  # Le Truc takes some 25 short deals
        rng = random.Random(11)
        ended = capped = 0
        for returns in ("margin", "win"):
            game = self.pyspiel.load_game(f"python_parlour_{name}",
                                          {**options, "utility": "game", "max_deals": cap, "returns": returns})
            for _ in range(4):
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(rng.choice(state.chance_outcomes())[0])
                    elif state.is_simultaneous_node():
                        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
                    else:
                        state.apply_action(rng.choice(state.legal_actions()))
                engine = state._c.st
                assert engine.is_over or len(engine.deals) == cap
                ended += engine.is_over
                capped += not engine.is_over
                n = game.num_players()
                if returns == "margin":
                    totals = [sum(d.get("payoffs", d["scores"])[s] for d in engine.deals) for s in range(n)]
                    expected = [t - (sum(totals) - t) / (n - 1) for t in totals]
                    assert state.returns() == pytest.approx(expected)
                elif engine.winner is not None:
                    assert state.returns() == [1.0 if s == engine.winner else -1 / (n - 1) for s in range(n)]
                else:
                    assert state.returns() == [0.0] * n
        assert ended > 0

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
    @pytest.mark.parametrize("params", [{}, GAME_EPISODE], ids=["deal", "game"])
    def test_observations_do_not_change_when_only_hidden_cards_change(self, name, params):
        """Every string and tensor a seat gets (observation and information state) is the same
        in a state drawn from its information set, whose deal differs in hidden cards."""
        import numpy as np

        game = self.pyspiel.load_game(f"python_parlour_{name}", params)
        rng = np.random.RandomState(7)
        differed = later_deals = 0
        for trial in range(20):
            state = game.new_initial_state()
            steps = 0
            limit = 2 + trial % 10 if not params else 10 + 7 * trial
            while not state.is_terminal() and steps < limit:
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
            later_deals += len(state._packs) > 1
            for player in range(game.num_players()):
                other = state.resample_from_infostate(player, rng.rand)
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.information_state_tensor(player) == state.information_state_tensor(player)
                assert other.observation_string(player) == state.observation_string(player)
                assert other.observation_tensor(player) == state.observation_tensor(player)
                differed += other._packs != state._packs  # the true deal (not something a seat sees)
        assert differed > 0  # the resampled deals really did move hidden cards
        assert later_deals > 0 or not params or name == "gops"  # game episodes reached a later pack

    def test_the_information_state_tensor_holds_the_seats_recall(self):
        """Rows of the history: who moved, what (unless it was another seat's private move), and
        my hand at my own moves; a Schafkopf discard stays blank for the defenders."""
        import numpy as np

        game = self.pyspiel.load_game("python_parlour_schafkopf")
        setup = game.setup
        state = game.new_initial_state()
        chance = random.Random(4)
        while state.is_chance_node():
            state.apply_action(chance.choice(state.chance_outcomes())[0])
        space = setup.spec.actions
        soloist = state.current_player()
        hand = state.view(soloist)["hand"]
        state.apply_action(space.index("pick-up"))  # elder picks up and discards twice
        for _ in range(2):
            state.apply_action(state.legal_actions()[0])
        n, width = 3, setup.history.width
        obs_size = setup.layout.size
        assert game.information_state_tensor_size() == obs_size + setup.history.size
        for seat in range(n):
            rows = np.array(state.information_state_tensor(seat)[obs_size:]).reshape(-1, width)
            assert rows[3:].sum() == 0  # nothing past the moves made
            for k in range(3):
                assert rows[k, (soloist - seat) % n] == 1  # the actor, relative to me
            action_part = rows[:3, n:n + len(space)]
            assert action_part[0, space.index("pick-up")] == 1  # public: everyone sees it
            assert action_part[1:].sum() == (2 if seat == soloist else 0)  # the discards: only his
            hand_part = rows[:3, n + len(space):]
            if seat == soloist:
                assert [setup.spec.cards[i] for i in np.flatnonzero(hand_part[0])] == sorted(
                    hand, key=setup.spec.cards.index)
                assert hand_part[1].sum() == 12 and hand_part[2].sum() == 11  # the skat taken, one discarded
            else:
                assert hand_part.sum() == 0


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

    @pytest.mark.parametrize("name", GAMES)
    def test_api_test_passes_for_whole_game_episodes(self, name):
        from pettingzoo.test import api_test

        from parlour.adapters.pettingzoo import env

        api_test(env(name, episode="game", reward="win", max_deals=3), num_cycles=200, verbose_progress=False)

    def test_win_rewards_come_once_at_the_end_of_the_game(self):
        import numpy as np

        from parlour.adapters.pettingzoo import env

        e = env("schafkopf", episode="game", reward="win", target=2, max_deals=200)
        e.reset(seed=3)
        rng = random.Random(3)
        seen = []
        for agent in e.agent_iter():
            _, reward, terminated, truncated, _ = e.last()
            if reward:
                seen.append((agent, reward))
            if terminated or truncated:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]).tolist()))
        state = e.unwrapped.state
        assert state.is_over and state.winner is not None
        assert sorted(seen) == sorted((a, 1.0 if a == f"player_{state.winner}" else -0.5) for a in e.possible_agents)

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

    path = ROOT / "examples" / "research" / f"{name}.py"
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
