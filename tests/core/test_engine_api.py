"""The shared engine API of DESIGN.md: registry, options, seeding, records, errors."""

from __future__ import annotations

import inspect
import json

import pytest

import parlour
from parlour.engine import REPLAY_DEAL, Option


def test_names_are_the_five_games_in_order():
    assert parlour.names() == ["clobby", "sixbid", "schafkopf", "truc", "gops"]


def test_unknown_game_and_option_are_value_errors():
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        parlour.load("poker")
    with pytest.raises(ValueError, match="unknown option 'speed'"):
        parlour.load("gops", speed=3)


def test_option_checks_types_and_ranges():
    opt = Option("game_point", int, 500, "points to win", low=100, high=9999)
    assert opt.check(300) == 300
    for bad in (99, 10000, "300", True, 2.5):
        with pytest.raises(ValueError):
            opt.check(bad)
    flag = Option("no_tie", bool, False, "")
    with pytest.raises(ValueError):
        flag.check(1)


def test_illegal_action_is_a_value_error_naming_the_legal_ones():
    state = parlour.load("gops").new_state(seed=1)
    with pytest.raises(ValueError) as err:
        state.apply("take")
    assert isinstance(err.value, parlour.IllegalAction)
    assert "'take' is not a legal action" in str(err.value) and "KC" in str(err.value)
    assert err.value.legal == state.legal_actions()


@pytest.mark.parametrize("name", ["clobby", "sixbid", "schafkopf", "truc", "gops"])
def test_why_not_is_empty_for_a_legal_action_and_the_engines_reason_otherwise(name):
    """``State.why_not``: what an interface says when it refuses a key or a typed card, without trying it."""
    state = parlour.load(name).new_state(seed=2)
    before = state.to_json()
    for action in state.legal_actions():
        assert state.why_not(action) == ""
    for bad in ("nothing", "ZZ", 7):
        why = state.why_not(bad)
        assert why and isinstance(why, str)
        with pytest.raises(parlour.IllegalAction) as err:
            state.apply(bad)  # type: ignore[arg-type]
        assert why in (err.value.why, "it is not a choice now")
    assert state.to_json() == before


def test_bad_new_state_arguments():
    game = parlour.load("gops")
    with pytest.raises(ValueError, match="missing"):
        game.new_state(deck=["AD"] * 13)
    with pytest.raises(ValueError, match="dealer"):
        game.new_state(seed=1, dealer=5)
    with pytest.raises(ValueError, match="seed"):
        game.new_state(seed="x")


def test_seed_fixes_everything_and_unseeded_states_record_their_seed():
    game = parlour.load("gops")
    assert game.new_state(seed=5).view(0) == game.new_state(seed=5).view(0)
    state = game.new_state()
    assert isinstance(state.seed, int)
    assert json.loads(state.to_json())["seed"] == state.seed


def test_record_format_and_round_trip():
    state = parlour.load("gops").new_state(seed=9)
    for _ in range(5):
        state.apply(state.legal_actions()[-1])
    rec = json.loads(state.to_json())
    assert rec["game"] == "gops" and rec["seed"] == 9 and rec["actions"] == state.actions
    again = parlour.from_json(state.to_json())
    assert again.view(0) == state.view(0) and again.view(1) == state.view(1)
    assert parlour.from_json(rec).actions == state.actions


@pytest.mark.parametrize("text,needle", [
    ("not json", "not a game record"),
    ("[1, 2]", "not a game record"),
    ('{"game": "gops"}', "needs at least"),
    ('{"game": "chess", "actions": []}', "unknown game"),
    ('{"game": "gops", "seed": 1, "actions": ["ZZ"]}', "record action 1"),
    ('{"game": "gops", "seed": 1, "actions": [3]}', "not a string"),
    ('{"game": "gops", "seed": 1, "options": {"x": 1}, "actions": []}', "unknown option"),
])
def test_malformed_records_give_readable_errors(text, needle):
    with pytest.raises(ValueError, match=needle):
        parlour.from_json(text)


def test_replay_deal_is_refused_when_there_is_no_previous_deal():
    state = parlour.load("gops").new_state(seed=3)
    with pytest.raises(ValueError, match="replayed"):
        state.replay_deal()
    assert REPLAY_DEAL not in state.actions


@pytest.mark.parametrize("name", parlour.names())
def test_under_the_first_seeding_contract_the_first_pack_comes_from_random_of_the_seed(name):
    """Contract 1 (records made before ``"seeding"``): the dealer drawn first, then the pack as ``rng.shuffle``."""
    import random

    game = parlour.load(name)
    for seed in range(40):
        state = game.new_state(seed=seed, seeding=1)
        rng = random.Random(seed)
        dealer = rng.randrange(game.num_players)
        pack = list(game.PACK)
        rng.shuffle(pack)
        assert state.current_pack() == pack
        if name != "gops":
            assert state.dealer == dealer


@pytest.mark.parametrize("name", parlour.names())
def test_a_clone_and_its_original_deal_the_same_next_packs_whichever_deals_first(name):
    import random

    game = parlour.load(name)
    for seed in range(10):
        for original_first in (True, False):
            state = game.new_state(seed=seed)
            twin = state.clone()
            order = [state, twin] if original_first else [twin, state]
            for s in order:
                moves = random.Random(seed)
                while len(s.deals) < 2 and not s.is_over:
                    s.apply(moves.choice(s.legal_actions()))
            assert state.current_pack() == twin.current_pack()
            assert state.view(0) == twin.view(0)


@pytest.mark.parametrize("name", parlour.names())
def test_the_shared_contract_holds_for_every_game_to_its_end(name):
    """DESIGN.md's API for all five games: turn taking, views, records, the finished state.

    Easy players play it out: random ones can drift forever in Schafkopf, where a random
    soloist loses more than the Ramsch hands out, so nobody ever reaches the target.
    """
    import random

    from parlour.bots import make

    bot = make(name, "easy")
    game = parlour.load(name)
    rng = random.Random(7)
    state = game.new_state(seed=7)
    common = {"game", "phase", "seat", "hand", "current_player", "scores", "dealer", "trick", "last_trick",
              "trick_seq", "last_deal", "deal_number"}
    steps = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None and state.winner is None
        for s in range(game.num_players):
            view = state.view(s)
            assert common <= set(view), common - set(view)
            assert ("legal_actions" in view) == (s == seat)
            json.dumps(view)
        assert state.view(seat)["legal_actions"] == state.legal_actions()
        state.apply(bot.act(state.view(seat), rng))
        steps += 1
        assert steps < 20_000
    assert state.current_player is None and state.legal_actions() == []
    with pytest.raises(parlour.IllegalAction, match="game is over"):
        state.apply("pass")
    assert all("scores" in d and len(d["scores"]) == game.num_players for d in state.deals)
    again = parlour.from_json(state.to_json())
    assert again.is_over and again.scores == state.scores and again.winner == state.winner
    assert again.deals == state.deals


# -- the engine's template (issue 11): games implement the hooks, the base class the rest ---------
@pytest.mark.parametrize("name", parlour.names())
def test_games_implement_the_hooks_only(name):
    """No game overrides the public ``apply``/``legal_actions``: the base class checks, records, calls."""
    cls = parlour.load(name).state_class
    for public in ("apply", "legal_actions"):
        assert getattr(cls, public) is getattr(parlour.State, public), f"{name} overrides {public}()"
    assert "actions.append" not in inspect.getsource(inspect.getmodule(cls))


@pytest.mark.parametrize("name", parlour.names())
def test_the_fast_legality_paths_agree_with_the_legal_list(name):
    """``_is_legal`` (a game's mask test) and the list ``_apply`` hands back both equal ``_legal()``."""
    import random

    game = parlour.load(name)
    candidates = sorted({*game.PACK, "pass", "pick-up", "play", "call", "accept", "refuse", "decline", "double",
                         "remainder", "take", "schmeiss", "keep", "exchange", "solo", "heart", "trump C",
                         "trump H", "call AS", "name H", "KC", "QS", "AC+bella", ""})
    for seed in range(6):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_over:
                break
            legal = state.legal_actions()  # the cached list, maybe the one _apply handed back
            fresh = state.clone()
            fresh._legal_cache = None
            assert list(fresh._legal()) == legal
            for action in candidates + legal:
                probe = state.clone()
                probe._legal_cache = None
                assert probe._is_legal(action) == (action in legal), (name, action, legal)
            state.apply(rng.choice(legal))


@pytest.mark.parametrize("name", parlour.names())
def test_a_clone_keeps_its_legal_actions_when_the_original_moves_on(name):
    import random

    state = parlour.load(name).new_state(seed=4)
    rng = random.Random(4)
    for _ in range(60):
        if state.is_over:
            break
        legal = state.legal_actions()
        twin = state.clone()
        state.apply(rng.choice(legal))
        assert twin.legal_actions() == legal


@pytest.mark.parametrize("name", [n for n in parlour.names() if parlour.load(n).state_class.LAZY_DEALS])
def test_each_accessor_of_a_lazy_game_deals_a_pending_deal_first(name):
    """Whichever ``DEALS_FIRST`` accessor is asked first after a deal, it answers about the next deal."""
    import random

    state = parlour.load(name).new_state(seed=3)
    rng = random.Random(3)
    while not state.deals:
        state.apply(rng.choice(state.legal_actions()))
    assert state._deal_pending
    dealt = state.clone()
    dealt.legal_actions()
    assert not dealt._deal_pending

    def ask(s, accessor):
        value = getattr(s, accessor)
        if not callable(value):
            return value
        return value(0) if inspect.signature(value).parameters else value()  # view(seat), or one of the whole deal

    for accessor in type(state).DEALS_FIRST:
        probe = state.clone()
        assert ask(probe, accessor) == ask(dealt, accessor), accessor
        if accessor in vars(type(state)):  # (one the game leaves to the base class needs no deal)
            assert not probe._deal_pending and probe.deals_dealt == dealt.deals_dealt == 2, accessor


@pytest.mark.parametrize("name", parlour.names())
def test_a_games_phases_are_read_from_the_type_of_its_phase(name):
    """``Game.PHASES`` is each game's ``views.Phase``, in order, named once there."""
    import importlib
    from typing import get_args

    assert parlour.load(name).PHASES == get_args(importlib.import_module(f"parlour.games.{name}.views").Phase)
