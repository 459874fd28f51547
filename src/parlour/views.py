"""The shape of a view: the keys every game's ``view(seat)`` has, as a ``TypedDict``.

Why typed: interfaces, bots and the text layer read views through dozens of keys; a typo or
a key one game lacks is a runtime ``KeyError`` in a rarely reached phase.  ``BaseView`` names
the keys every game fills (DESIGN.md, ``State._base_view`` plus the table keys the module
docstring of ``engine`` asks for, and ``hand_sizes``: every seat's number of cards, the one
name interfaces use to draw the other seats' hands).  Each game's ``games/<name>/views.py``
extends it with its own keys and its ``Literal`` phases; ``tests/core/test_views.py`` checks that
real views have exactly those keys.  Views stay plain dicts at run time (JSON-ready).

No ``from __future__ import annotations`` here: ``TypedDict`` reads ``NotRequired`` from the
annotations when the class is made, and cannot from a string.
"""

from collections.abc import Sequence
from typing import Any, Generic, NotRequired, TypedDict, TypeVar

#: One card on the table: ``[seat, card]`` (a list, as JSON has no tuples).
Play = list[Any]

P = TypeVar("P", bound=str)


class TrickView(TypedDict):
    """A trick that was won: its cards in play order and the seat that won it (None if nobody)."""

    cards: list[Play]
    winner: int | None


class BaseView(TypedDict, Generic[P]):
    """The keys of every view; ``P`` is the game's ``Literal`` of phases."""

    game: str
    options: dict[str, Any]
    num_players: int
    phase: P
    seat: int
    current_player: int | None
    scores: list[int]
    dealer: int
    deal_number: int
    last_deal: dict[str, Any] | None
    is_over: bool
    winner: int | None
    #: only when ``seat`` is to move
    legal_actions: NotRequired[list[str]]
    #: only at a table in open-hands mode: every seat's hand, by ``str(seat)``
    open_hands: NotRequired[dict[str, list[str]]]
    hand: list[str]
    hand_sizes: list[int]
    trick: list[Play]
    #: None before the current deal's first trick; a game's own view type may say it holds more keys
    last_trick: TrickView | None
    trick_seq: int


#: A view of any game, as generic code (the table, the interfaces) sees it.
View = BaseView[str]


_DIFFERS = object()


def alike(values: Sequence[Any], own: list[list[Any]] | None = None, *, keep_shape: bool = False) -> Any:
    """What the seats' ``values`` (one per seat: their views, or parts of them) hold alike.

    The value itself where all are equal; for dicts, the keys all of them have, each with what it
    holds alike.  What differs is left out, and a list is kept whole or not at all (a spectator's
    view: ``web.views.public_view``); with ``keep_shape``, a part that differs stays in its place
    as None and lists of one length are compared element by element (the conformance kit scans
    what every seat is shown).  With ``own``, each value's parts that are not alike are added to
    ``own[seat]``.  Why one function: "what every seat sees alike" is what a spectator may be
    shown and what the hidden-card check counts as shown to all, and the two must never disagree.
    """
    common = _alike(values, own, keep_shape)
    return None if common is _DIFFERS else common


def _alike(values: Sequence[Any], own: list[list[Any]] | None, keep_shape: bool) -> Any:
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        out: dict[Any, Any] = {}
        for key in dict.fromkeys(k for v in values for k in v):
            if all(key in v for v in values):
                common = _alike([v[key] for v in values], own, keep_shape)
                if common is not _DIFFERS or keep_shape:
                    out[key] = None if common is _DIFFERS else common
            elif own is not None:
                for mine, v in zip(own, values, strict=True):
                    if key in v:
                        mine.append({key: v[key]})
        return out
    if keep_shape and all(isinstance(v, list) and len(v) == len(first) for v in values):
        parts = [_alike([v[i] for v in values], own, keep_shape) for i in range(len(first))]
        return [None if p is _DIFFERS else p for p in parts]
    if own is not None:
        for mine, v in zip(own, values, strict=True):
            mine.append(v)
    return _DIFFERS
