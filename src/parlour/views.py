"""The shape of a view: the keys every game's ``view(seat)`` has, as a ``TypedDict``.

Why typed: interfaces, bots and the text layer read views through dozens of keys; a typo or
a key one game lacks is a runtime ``KeyError`` in a rarely reached phase.  ``BaseView`` names
the keys every game fills (DESIGN.md, ``State._base_view`` plus the table keys the module
docstring of ``engine`` asks for, and ``hand_sizes``: every seat's number of cards, the one
name interfaces use to draw the other seats' hands).  Each game's ``games/<name>/views.py``
extends it with its own keys and its ``Literal`` phases; ``tests/test_views.py`` checks that
real views have exactly those keys.  Views stay plain dicts at run time (JSON-ready).

No ``from __future__ import annotations`` here: ``TypedDict`` reads ``NotRequired`` from the
annotations when the class is made, and cannot from a string.
"""

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
