"""What both research adapters share: integer actions, fixed-size observations from a view, history rows.

Why one encoder for every game: the adapters may use nothing but ``state.view(seat)`` (the
same guarantee as the interfaces: a seat never sees a card it may not know), and a view's
cards sit under game-specific keys.  So the vector is built from what every view has — the
hand, the trick, the seat to move, dealer, scores, phase, legal actions — plus one generic
"seen" plane: every other card code the view mentions anywhere (played cards, upcard, melds,
won cards, the spread hand...).  That plane loses *where* a card was seen; the observation
string (the view itself as JSON) keeps everything.

Layout (``ObservationLayout.pieces`` gives the offsets; ``docs/research.md`` has the table), with
seats relative to the observer (0 = me, 1 = my left...):

- ``hand``      C   1 for each card in my hand
- ``trick``     n×C 1 for the card each relative seat has in the current trick
- ``seen``      C   1 for each other card the view mentions (public or mine to know)
- ``to_move``   n+1 relative seat to act (last: nobody / game over)
- ``dealer``    n   relative seat of the dealer
- ``scores``    n   running scores (chips in Six-Bid), relative seats, unscaled
- ``phase``     P+1 the view's phase among the game's ``PHASES`` (last: any other)
- ``legal``     A   1 for each legal action (only on my turn)

C is the number of distinct card codes of the game (its pack and every card an action can
name), A the size of its action space.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..actions import Play, parser
from ..cards import is_card
from ..engine import Game
from ..registry import load


def action_space(game: Game) -> list[str]:
    """Every action string the game can ever make legal, in a fixed order (the integer ids)."""
    try:
        actions = list(game.action_space())
    except NotImplementedError:
        raise ValueError(f"game {game.name!r} does not declare action_space(); the adapters need it") from None
    if len(set(actions)) != len(actions):
        raise ValueError(f"game {game.name!r} declares a duplicate action")
    return actions


def _card_part(text: str) -> str | None:
    """The card code a string names (``QH+bella`` names QH), else None."""
    head = text.split("+", 1)[0]
    return head if is_card(head) else None


def cards_in(value: Any) -> Iterator[str]:
    """Every card code mentioned anywhere inside a JSON-like value."""
    if isinstance(value, str):
        card = _card_part(value)
        if card is not None:
            yield card
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from cards_in(item)


@dataclass
class GameSpec:
    """A game with fixed options, as the adapters see it."""

    name: str
    options: dict[str, Any]
    game: Game = field(init=False)
    actions: list[str] = field(init=False)
    index: dict[str, int] = field(init=False)
    cards: list[str] = field(init=False)
    card_index: dict[str, int] = field(init=False)
    pack: list[str] = field(init=False)
    #: Each action that plays a card (``QH``, ``QH+bella``) -> that card, from the game's parser.
    played: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        self.game = load(self.name, **self.options)
        self.actions = action_space(self.game)
        self.index = {a: i for i, a in enumerate(self.actions)}
        self.pack = list(self.game.PACK)
        read = parser(self.name)
        self.played = {a: parsed.card for a in self.actions if isinstance(parsed := read(a), Play)}
        cards = dict.fromkeys(self.pack)
        for card in self.played.values():
            cards.setdefault(card)
        self.cards = list(cards)
        self.card_index = {c: i for i, c in enumerate(self.cards)}

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def simultaneous(self) -> bool:
        return bool(getattr(self.game, "SIMULTANEOUS", False))

    @property
    def has_dealer(self) -> bool:
        return bool(getattr(self.game, "HAS_DEALER", True))

    @property
    def phases(self) -> list[str]:
        return list(getattr(self.game, "PHASES", ()))

    @property
    def deal_score_bound(self) -> float:
        return float(getattr(self.game, "DEAL_SCORE_BOUND", 1000))

    @property
    def max_deal_actions(self) -> int:
        return int(getattr(self.game, "DEAL_LENGTH_BOUND", 400))


class ObservationLayout:
    """The fixed-size observation vector of one game (see the module docstring)."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        n, c = spec.num_players, len(spec.cards)
        self.phases = spec.phases
        self.phase_index = {p: i for i, p in enumerate(self.phases)}
        sizes = [("hand", c), ("trick", n * c), ("seen", c), ("to_move", n + 1), ("dealer", n),
                 ("scores", n), ("phase", len(self.phases) + 1), ("legal", len(spec.actions))]
        self.pieces: dict[str, tuple[int, int]] = {}
        offset = 0
        for name, size in sizes:
            self.pieces[name] = (offset, size)
            offset += size
        self.size = offset
        # Every string known to name a card (codes and the action strings that name one), so
        # that the encoder looks a string up once instead of parsing it.
        self.card_of: dict[str, int] = dict(spec.card_index)
        for action, card in spec.played.items():
            self.card_of[action] = spec.card_index[card]

    def _card(self, text: str) -> int | None:
        """The index of the card ``text`` names (``QH+bella`` names QH), else None."""
        index = self.card_of.get(text)
        if index is None and "+" in text:
            index = self.card_of.get(text.split("+", 1)[0])
        return index

    def mentioned(self, value: Any) -> set[int]:
        """The indices of every card mentioned anywhere inside a JSON-like value (as ``cards_in``).

        Why a loop over a stack and exact type tests: this walks the whole view (deal summaries
        included) for every observation, and it was most of an observation's cost.
        """
        found: set[int] = set()
        card_of, stack = self.card_of, [value]
        pop, extend = stack.pop, stack.extend
        while stack:
            item = pop()
            kind = item.__class__
            if kind is str:
                index = card_of.get(item)
                if index is None and "+" in item:
                    index = card_of.get(item.split("+", 1)[0])
                if index is not None:
                    found.add(index)
            elif kind is list or kind is tuple:
                extend(item)
            elif kind is dict:
                extend(item.values())
            elif kind in _SCALARS:
                continue
            elif isinstance(item, str):  # a str subclass (a StrEnum member)
                stack.append(str.__str__(item))
            elif isinstance(item, dict):
                extend(item.values())
            elif isinstance(item, (list, tuple)):
                extend(item)
        return found

    def encode(self, view: dict[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        """The vector for ``view`` (written into ``out`` if given)."""
        spec = self.spec
        if out is None:
            vec = np.zeros(self.size, np.float32)
        else:
            vec = out
            vec.fill(0.0)
        pieces = self.pieces
        n, me = spec.num_players, view["seat"]
        card = self._card
        ones: list[int] = []
        hand_at = pieces["hand"][0]
        held: set[int] = set()
        for text in view.get("hand") or ():
            index = card(text)
            if index is not None:
                held.add(index)
                ones.append(hand_at + index)
        trick_at, c = pieces["trick"][0], len(spec.cards)
        for seat, text in view.get("trick") or ():
            index = card(text)
            if index is not None:
                held.add(index)  # (not "seen" either)
                ones.append(trick_at + ((seat - me) % n) * c + index)
        others = [value for key, value in view.items() if key not in _OWN_KEYS]
        seen_at = pieces["seen"][0]
        ones.extend(seen_at + index for index in self.mentioned(others) - held)
        player = view.get("current_player")
        ones.append(pieces["to_move"][0] + (n if player is None else (player - me) % n))
        dealer = view.get("dealer")
        if isinstance(dealer, int):
            ones.append(pieces["dealer"][0] + (dealer - me) % n)
        ones.append(pieces["phase"][0] + self.phase_index.get(view.get("phase", ""), len(self.phases)))
        legal_at, index_of = pieces["legal"][0], spec.index
        ones.extend(legal_at + index_of[action] for action in view.get("legal_actions") or ())
        vec[ones] = 1.0
        scores_at = pieces["scores"][0]
        for seat, score in enumerate(view.get("scores") or ()):
            vec[scores_at + (seat - me) % n] = float(score)
        return vec


_SCALARS = frozenset((int, bool, float, type(None)))
# The view's keys the vector encodes by themselves (everything else feeds the "seen" plane).
_OWN_KEYS = frozenset(("hand", "trick", "legal_actions"))


def deal_payoffs(summary: dict[str, Any]) -> list[float]:
    """What each seat plays for in a finished deal: its ``payoffs`` when the game records them
    (GOPS with ``scoring="win"``: +1/-1/0), else the deal's ``scores``."""
    return [float(v) for v in summary.get("payoffs", summary["scores"])]


def view_string(view: dict[str, Any]) -> str:
    """A view as a canonical string (sorted keys): equal views give equal strings."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class HistoryLayout:
    """The move history of an information-state tensor: one row per move of the episode.

    Row ``k`` (a player action; chance events are not rows, their effect is in the views):

    - ``actor``  n  the relative seat that made move k
    - ``action`` A  the action, if the observer could see it (its own, or one that is not
                    ``action_is_private``: a Schafkopf discard, a Six-Bid card given, a GOPS
                    bid stay blank for the other seats)
    - ``hand``   C  the observer's hand when it made move k (blank on other seats' moves):
                    what it knew then that neither the current view nor the moves repeat

    Rows past the moves made so far are zero.  With the current view's encoding in front, this
    is the seat's perfect recall in a fixed size: ``slots`` = the episode's length bound.
    """

    def __init__(self, spec: GameSpec, slots: int) -> None:
        self.spec = spec
        self.slots = slots
        n, a, c = spec.num_players, len(spec.actions), len(spec.cards)
        self.pieces = {"actor": (0, n), "action": (n, a), "hand": (n + a, c)}
        self.width = n + a + c
        self.size = slots * self.width

    def encode(self, moves: list[tuple[int, str]], private: list[bool], me: int,
               hands: dict[int, list[str]], out: np.ndarray) -> np.ndarray:
        """Write the rows of ``moves`` (``private[k]``: move k was seen only by its maker;
        ``hands[k]``: my hand at my move k) into ``out`` (shape ``(slots, width)``)."""
        out.fill(0.0)
        spec = self.spec
        n, index, cidx = spec.num_players, spec.index, spec.card_index
        action_at, hand_at = n, n + len(spec.actions)
        for k, (seat, action) in enumerate(moves):
            row = out[k]
            row[(seat - me) % n] = 1.0
            if seat == me or not private[k]:
                row[action_at + index[action]] = 1.0
            hand = hands.get(k)
            if hand:
                for card in hand:
                    row[hand_at + cidx[card]] = 1.0
        return out
