"""The library never fails with anything but ``ValueError`` (or ``IllegalAction``), whatever it is given.

Issue 10: a fuzzer over ``from_json``, ``load``, ``new_state`` and ``apply`` found ``TypeError``,
``RecursionError`` and hangs.  The properties below feed every game (``parlour.names()``) any
JSON value, any text and any Python object; the unit tests pin the cases that were found.
How long the worst inputs take is measured by ``bench/bench_fuzz.py``, never asserted here.
"""

from __future__ import annotations

import enum
import json
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
from parlour import engine
from parlour.engine import MAX_DEAL_ACTIONS, MAX_RECORD_ACTIONS, MAX_REPLAY_DEALS, MAX_SEED, REPLAY_DEAL, shorten

NAMES = parlour.names()
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- strategies ---------------------------------------------------------------------------
JSON_SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-(10**80), max_value=10**80)
                | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=20)
#: words that are actions in some game, so that records get past their first action
WORDS = st.sampled_from(["pass", "pick-up", "play", "call", "accept", "refuse", "take", "solo", "trump H",
                         "AC", "KC", "7H", "QC", "double", REPLAY_DEAL, "", " AC", "ac"])
ANY_OBJECT = (JSON_VALUES | WORDS | st.binary(max_size=8) | st.complex_numbers()
              | st.tuples(JSON_SCALARS, JSON_SCALARS) | st.frozensets(st.integers(), max_size=3)
              | st.dictionaries(st.integers(), JSON_SCALARS, max_size=3) | st.builds(object)
              | st.just(math.nan) | st.just(10**4000) | st.just(-(2**300)) | st.sampled_from([int, str, len]))


def _playout_prefix(name: str, seed: int, steps: int) -> list[str]:
    state = parlour.load(name).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return list(state.actions)


@st.composite
def records(draw: st.DrawFn) -> dict[str, object]:
    """Records that are mostly right (a real game's actions) with something odd somewhere."""
    name = draw(st.sampled_from(NAMES) | JSON_VALUES)
    seed = draw(st.integers(0, 50) | JSON_VALUES)
    rec: dict[str, object] = {"game": name, "seed": seed}
    actions: list[object] = []
    if isinstance(name, str) and name in NAMES and type(seed) is int and -MAX_SEED < seed < MAX_SEED:
        actions = list(_playout_prefix(name, seed, draw(st.integers(0, 60))))
    for _ in range(draw(st.integers(0, 2))):
        actions.insert(draw(st.integers(0, len(actions))), draw(WORDS | ANY_OBJECT.filter(_is_json)))
    rec["actions"] = actions
    for key in draw(st.sets(st.sampled_from(["deck", "dealer", "options", "version", "extra"]))):
        rec[key] = draw(JSON_VALUES | st.just(list(parlour.load(NAMES[0]).PACK)))
    if draw(st.booleans()):
        rec["options"] = draw(st.dictionaries(st.sampled_from(["game_point", "no_tie", "chips", "target", "x"]),
                                              JSON_VALUES, max_size=2))
    return rec


def _is_json(value: object) -> bool:
    try:
        json.dumps(value, allow_nan=True)
    except (TypeError, ValueError):
        return False
    return True


def _value_error_or_state(call, *args, **kwargs) -> object:
    """Call; a ValueError is the only acceptable failure (anything else fails the test)."""
    try:
        return call(*args, **kwargs)
    except ValueError as exc:
        assert len(str(exc)) < 1000, "an error message must stay short"
        return exc


# -- the properties -------------------------------------------------------------------------
@FUZZ
@given(value=JSON_VALUES)
def test_any_json_value_given_to_from_json_is_a_value_error_or_a_state(value):
    for given_as in (json.dumps(value), value):
        result = _value_error_or_state(parlour.from_json, given_as)
        assert isinstance(result, (ValueError, parlour.State))


@FUZZ
@given(text=st.text(max_size=60) | st.binary(max_size=30))
def test_any_text_given_to_from_json_is_a_value_error(text):
    result = _value_error_or_state(parlour.from_json, text)
    assert isinstance(result, (ValueError, parlour.State))


@FUZZ
@given(rec=records())
def test_any_record_is_a_value_error_or_replays_exactly(rec):
    result = _value_error_or_state(parlour.from_json, json.dumps(rec))
    if isinstance(result, parlour.State):
        again = parlour.from_json(result.to_json())
        assert again.actions == result.actions and again.view(0) == result.view(0)


@FUZZ
@given(name=st.sampled_from(NAMES), seed=ANY_OBJECT, deck=ANY_OBJECT, dealer=ANY_OBJECT)
def test_any_new_state_arguments_are_a_value_error_or_a_state(name, seed, deck, dealer):
    game = parlour.load(name)
    for kwargs in ({"seed": seed}, {"seed": 1, "deck": deck}, {"seed": 1, "dealer": dealer}):
        result = _value_error_or_state(game.new_state, **kwargs)
        assert isinstance(result, (ValueError, parlour.State))


@FUZZ
@given(name=st.sampled_from(NAMES), key=st.sampled_from(["game_point", "no_tie", "clubs_preferred", "tout_atout",
                                                          "chips", "target", "speed", ""]), value=ANY_OBJECT)
def test_any_option_value_given_to_load_is_a_value_error_or_a_game(name, key, value):
    result = _value_error_or_state(parlour.load, name, **{key: value})
    assert isinstance(result, (ValueError, parlour.Game))


@FUZZ
@given(name=st.sampled_from(NAMES), steps=st.integers(0, 80), action=ANY_OBJECT | WORDS)
def test_any_object_given_to_apply_is_an_illegal_action_or_is_made(name, steps, action):
    state = parlour.load(name).new_state(seed=steps)
    rng = random.Random(steps)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    before = state.to_json()
    legal = state.legal_actions()
    try:
        state.apply(action)
    except parlour.IllegalAction as exc:
        assert state.to_json() == before, "an illegal action changes nothing"
        assert len(str(exc)) < 1000
        assert not (isinstance(action, str) and action in legal)
    else:
        assert isinstance(action, str) and action in legal
        assert type(state.actions[-1]) is str


@FUZZ
@given(name=st.sampled_from(NAMES), seat=ANY_OBJECT)
def test_any_seat_given_to_view_is_a_value_error_or_a_view(name, seat):
    state = parlour.load(name).new_state(seed=1)
    result = _value_error_or_state(state.view, seat)
    assert isinstance(result, (ValueError, dict))


# -- the cases the fuzzer found ---------------------------------------------------------------
def test_a_record_whose_deck_is_a_number_is_a_value_error():
    with pytest.raises(ValueError, match="deck must be a list"):
        parlour.from_json('{"game":"gops","actions":[],"deck":5}')


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("deck", [3.5, "AC", b"AC", {"AC": 1}, 7, math.nan])
def test_new_state_with_a_deck_that_is_not_a_list_is_a_value_error(name, deck):
    with pytest.raises(ValueError, match="deck must be"):
        parlour.load(name).new_state(seed=1, deck=deck)


@pytest.mark.parametrize("name", NAMES)
def test_a_deck_of_the_wrong_length_is_refused_by_its_length_first(name):
    pack = list(parlour.load(name).PACK)
    with pytest.raises(ValueError, match=f"not {40_000} cards"):
        parlour.load(name).new_state(seed=1, deck=pack * (40_000 // len(pack)) + pack[: 40_000 % len(pack)])
    with pytest.raises(ValueError, match=f"not {len(pack) + 1} cards"):
        parlour.load(name).new_state(seed=1, deck=[*pack, [1]])


def test_a_bad_deck_names_what_is_wrong_briefly():
    pack = list(parlour.load("sixbid").PACK)
    deck = [*pack[:-2], pack[0], "x" * 100_000]
    with pytest.raises(ValueError) as err:
        parlour.load("sixbid").new_state(seed=1, deck=deck)
    message = str(err.value)
    assert f"missing {' '.join(sorted(pack[-2:]))}" in message and f"repeated {pack[0]}" in message
    assert "not in this pack 'xxxxx" in message and len(message) < 200
    with pytest.raises(ValueError, match="card codes"):
        parlour.load("sixbid").new_state(seed=1, deck=[*pack[:-1], 5])
    assert parlour.load("sixbid").new_state(seed=1, deck=[c.lower() for c in pack]).current_pack() == pack


def test_options_with_names_that_are_not_text_are_a_value_error():
    with pytest.raises(ValueError, match="option name"):
        parlour.from_json({"game": "clobby", "actions": [], "options": {1: 2}})
    with pytest.raises(ValueError, match="unknown option"):
        parlour.load("clobby").__class__(**{"1": 2})


@pytest.mark.parametrize("name", NAMES)
def test_an_unhashable_action_is_an_illegal_action(name):
    state = parlour.load(name).new_state(seed=1)
    before = state.to_json()
    for action in (["AC"], {"AC": 1}, {"AC"}, None, 3, b"AC"):
        with pytest.raises(parlour.IllegalAction, match="an action is a string"):
            state.apply(action)  # type: ignore[arg-type]
    assert state.to_json() == before


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_deeply_nested_record_is_a_value_error(depth):
    nested = "[" * depth + "]" * depth
    for text in (nested, f'{{"game":"gops","actions":{nested}}}', f'{{"game":"gops","actions":[],"seed":{nested}}}'):
        with pytest.raises(ValueError):
            parlour.from_json(text)
    deep: list[object] = []
    for _ in range(depth):
        deep = [deep]
    for rec in ({"game": deep, "actions": []}, {"game": "gops", "actions": [deep]},
                {"game": "gops", "actions": [], "seed": deep}, {"game": "gops", "actions": [], "deck": deep},
                {"game": "gops", "actions": [], "dealer": deep}, {"game": "clobby", "actions": [],
                                                                  "options": {"game_point": deep}}):
        with pytest.raises(ValueError) as err:
            parlour.from_json(rec)
        assert len(str(err.value)) < 300


@pytest.mark.parametrize("name", ["clobby", "sixbid", "schafkopf"])
@pytest.mark.parametrize("value", [2.5, 500.0, None, pytest.param(10**5000, id="10**5000"), -(10**400), math.nan,
                                   math.inf, "500", [500], True])
def test_odd_option_values_are_value_errors(name, value):
    option = parlour.load(name).OPTIONS[0]
    with pytest.raises(ValueError, match=f"option {option.name} must be") as err:
        parlour.load(name, **{option.name: value})
    assert len(str(err.value)) < 150


def test_a_ten_megabyte_action_gives_a_short_message():
    action = "A" * 10_000_000
    for name in NAMES:
        with pytest.raises(parlour.IllegalAction) as err:
            parlour.load(name).new_state(seed=1).apply(action)
        assert len(str(err.value)) < 400 and err.value.action is action
    with pytest.raises(ValueError) as err:
        parlour.from_json(json.dumps({"game": "truc", "seed": 1, "actions": [action]}))
    assert len(str(err.value)) < 400
    assert len(str(parlour.IllegalAction(action, ["a"], "why"))) < 100


def test_shorten_cuts_to_a_prefix_and_never_fails():
    assert shorten("abc") == "'abc'"
    assert shorten("x" * 1000) == "'" + "x" * 39 + "\u2026"
    assert shorten(10**5000).endswith("\u2026") or shorten(10**5000) == "<int>"
    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    assert len(shorten(deep)) <= 41

    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert shorten(Broken()).startswith("<Broken")


def test_huge_and_odd_seeds_and_dealers():
    game = parlour.load("sixbid")
    assert game.new_state(seed=2**200).to_json()
    for seed in (2**256, 1.0, math.nan, True, "1", [1]):
        with pytest.raises(ValueError, match="seed"):
            game.new_state(seed=seed)
    for dealer in (3, -1, 1.0, True, "0", math.nan):
        with pytest.raises(ValueError, match="dealer"):
            game.new_state(seed=1, dealer=dealer)


def test_a_record_longer_than_any_real_game_is_refused_and_says_why():
    with pytest.raises(ValueError, match=f"at most {MAX_RECORD_ACTIONS}"):
        parlour.from_json({"game": "gops", "seed": 1, "actions": ["AC"] * (MAX_RECORD_ACTIONS + 1)})
    with pytest.raises(ValueError, match=f"at most {MAX_REPLAY_DEALS} times"):
        parlour.from_json({"game": "truc", "seed": 1, "actions": [REPLAY_DEAL] * (MAX_REPLAY_DEALS + 1)})


def test_one_deal_longer_than_any_real_deal_is_refused_and_says_why():
    """Le Truc can call for new cards without end; a record may not."""
    state = parlour.load("truc").new_state(seed=3)
    while len(state.actions) < MAX_DEAL_ACTIONS:
        state.apply("call")
        state.apply("accept")
    assert not state.deals  # still the first deal
    assert parlour.from_json(state.to_json()).actions == state.actions
    state.apply("call")
    with pytest.raises(ValueError, match=f"at most {MAX_DEAL_ACTIONS} actions"):
        parlour.from_json(state.to_json())


def test_replaying_a_deal_is_bounded_too(monkeypatch):
    monkeypatch.setattr(engine, "MAX_REPLAY_DEALS", 3)
    state = parlour.load("truc").new_state(seed=1)
    state.apply("play")
    while not state.deals:
        state.apply(state.legal_actions()[0])
    for _ in range(3):
        state.replay_deal()
    with pytest.raises(ValueError, match="at most 3 deals"):
        state.replay_deal()
    assert state.actions.count(REPLAY_DEAL) == 3


def test_a_string_subclass_is_accepted_and_recorded_as_a_plain_string():
    class Word(enum.StrEnum):
        PLAY = "play"

    state = parlour.load("truc").new_state(seed=1)
    state.apply(Word.PLAY)
    assert type(state.actions[-1]) is str and state.actions == ["play"]
    assert parlour.from_json(state.to_json()).actions == ["play"]


def test_a_record_must_be_an_object_with_a_game_name_and_a_list_of_actions():
    assert parlour.from_json({"game": "gops", "seed": 1, "actions": [], "version": [1]}).actions == []
    for text in ("null", "5", '"gops"', "[]", "{}", '{"game": "gops", "actions": {}}',
                 '{"game": "gops", "actions": [], "options": []}', '{"game": 5, "actions": []}'):
        with pytest.raises(ValueError):
            parlour.from_json(text)
    with pytest.raises(ValueError, match="expected JSON text"):
        parlour.from_json(5)  # type: ignore[arg-type]
