"""Every view has exactly the keys, and values of the types, its game's ``TypedDict`` declares.

Why at run time too: the ``TypedDict``s (``parlour.views``, ``games/<name>/views.py``) let mypy
check the code that reads views, but only if they say what the engines really hand out; this
plays random games and checks every view of every seat against them.
"""

from __future__ import annotations

import functools
import importlib
import random
import types
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import parlour
from parlour.table import Table
from parlour.views import BaseView, alike

VIEW_CLASSES = {"clobby": "ClobbyView", "sixbid": "SixBidView", "schafkopf": "SchafkopfView", "truc": "TrucView",
                "gops": "GopsView"}


def conforms(value: Any, tp: Any) -> bool:
    """Whether ``value`` (from JSON-like data) is of the type ``tp`` (a small subset of typing)."""
    if tp is Any:
        return True
    if tp is type(None):
        return value is None
    if isinstance(tp, TypeVar):
        return conforms(value, tp.__bound__ or Any)
    if is_typeddict(tp):
        return isinstance(value, dict) and typed_dict_errors(value, tp, extra=True) == []
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        return any(conforms(value, a) for a in args)
    if origin is Literal:
        return value in args
    if origin is list:
        return isinstance(value, list) and all(conforms(x, args[0]) for x in value)
    if origin is dict:
        return isinstance(value, dict) and all(conforms(k, args[0]) and conforms(v, args[1])
                                               for k, v in value.items())
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, tp)


@functools.cache
def hints_of(tp: Any) -> dict[str, Any]:
    return get_type_hints(tp)


def typed_dict_errors(value: dict[str, Any], tp: Any, extra: bool = False) -> list[str]:
    """What is wrong with ``value`` as a ``tp``; ``extra``: more keys are allowed (a game's own trick)."""
    hints = hints_of(tp)
    errors = [f"missing key {k!r}" for k in sorted(tp.__required_keys__ - value.keys())]
    if not extra:
        errors += [f"undeclared key {k!r}" for k in sorted(value.keys() - hints.keys())]
    errors += [f"{k!r} = {value[k]!r} is not {hints[k]}" for k in sorted(value.keys() & hints.keys())
               if not conforms(value[k], hints[k])]
    return errors


def test_the_checker_catches_a_wrong_view():
    view = dict(random_views("gops", 1, 0)[0][0])
    assert typed_dict_errors(view, view_class("gops")) == []
    view["turns"] = "13"
    view["extra"] = 1
    del view["hand_sizes"]
    assert typed_dict_errors(view, view_class("gops")) == [
        "missing key 'hand_sizes'", "undeclared key 'extra'", "'turns' = '13' is not <class 'int'>"]


def view_class(game: str) -> Any:
    return getattr(importlib.import_module(f"parlour.games.{game}.views"), VIEW_CLASSES[game])


def random_views(game: str, seeds: int, open_hands: int = 0) -> list[tuple[dict[str, Any], list[int]]]:
    """(view, every seat's real hand size) for every seat after every action of a few random games."""
    out = []
    for seed in range(seeds):
        state = parlour.load(game).new_state(seed=seed)
        table = Table(state, [None] * state.game.num_players, open_hands=bool(open_hands))
        rng = random.Random(seed)
        for _ in range(200):
            sizes = [len(state.view(s)["hand"]) for s in range(state.game.num_players)]
            out += [(dict(table.view(s)), sizes) for s in range(state.game.num_players)]
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("game", list(VIEW_CLASSES))
def test_every_view_matches_its_typed_dict(game):
    tp = view_class(game)
    assert issubclass(tp, dict) and BaseView.__required_keys__ <= tp.__required_keys__
    phases = set(get_args(importlib.import_module(f"parlour.games.{game}.views").Phase))
    seen = set()
    for view, sizes in random_views(game, 3, open_hands=game == "sixbid"):
        assert typed_dict_errors(view, tp) == [], view
        assert view["phase"] in phases
        seen.add(view["phase"])
        assert ("legal_actions" in view) == (view["current_player"] == view["seat"])
        assert view["hand_sizes"][view["seat"]] == len(view["hand"])
        for seat, size in enumerate(sizes):
            if game == "gops" and view.get("opponent_chosen") and seat == 0:
                size += 1  # seat 0's card chosen face down is still in his hand as far as seat 1 can tell
            assert view["hand_sizes"][seat] == size
    assert len(seen) >= 2  # the views of more than one phase were checked


# -- what every seat sees alike ----------------------------------------------------------------------
def old_common(values: list[dict[str, Any]]) -> dict[str, Any]:
    """``web.views._common`` as it was (commit 80682e9)."""
    first = values[0]
    out: dict[str, Any] = {}
    for key, value in first.items():
        if not all(key in other for other in values[1:]):
            continue
        others = [other[key] for other in values[1:]]
        if all(other == value for other in others):
            out[key] = value
        elif isinstance(value, dict) and all(isinstance(o, dict) for o in others):
            out[key] = old_common([value, *others])
    return out


def old_split(values: list[Any], common: list[Any], own: list[list[Any]]) -> None:
    """``testing._split`` as it was (commit 80682e9)."""
    first = values[0]
    if all(v == first for v in values):
        common.append(first)
        return
    if all(type(v) is dict for v in values):
        for k in dict.fromkeys(k for v in values for k in v):
            if all(k in v for v in values):
                common.append(k)
                old_split([v[k] for v in values], common, own)
            else:
                for mine, v in zip(own, values, strict=True):
                    if k in v:
                        mine.append({k: v[k]})
    elif all(type(v) is list and len(v) == len(first) for v in values):
        for i in range(len(first)):
            old_split([v[i] for v in values], common, own)
    else:
        for mine, v in zip(own, values, strict=True):
            mine.append(v)


def strings(value: Any) -> list[str]:
    """Every string in ``value``, dict keys included, in order (what a scan for card codes reads)."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [*strings(k), *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("name", parlour.names())
def test_alike_is_what_both_old_functions_computed(name):
    state = parlour.load(name).new_state(seed=3)
    rng = random.Random(3)
    for _ in range(120):
        if state.is_over:
            break
        views = [state.view(s) for s in range(state.game.num_players)]
        assert alike(views) == old_common(views)
        own: list[list[Any]] = [[] for _ in views]
        old_own: list[list[Any]] = [[] for _ in views]
        common: list[Any] = []
        shaped = alike(views, own, keep_shape=True)
        old_split(views, common, old_own)
        assert own == old_own and sorted(strings(shaped)) == sorted(strings(common))
        state.apply(rng.choice(state.legal_actions()))
