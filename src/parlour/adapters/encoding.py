"""What both research adapters share: integer actions, and fixed-size observations from a view.

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

    def __post_init__(self) -> None:
        self.game = load(self.name, **self.options)
        self.actions = action_space(self.game)
        self.index = {a: i for i, a in enumerate(self.actions)}
        self.pack = list(self.game.PACK)
        cards = dict.fromkeys(self.pack)
        for action in self.actions:
            card = _card_part(action)
            if card is not None:
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

    def encode(self, view: dict[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        """The vector for ``view`` (written into ``out`` if given)."""
        spec = self.spec
        vec = np.zeros(self.size, np.float32) if out is None else out
        if out is not None:
            vec.fill(0.0)
        n, me = spec.num_players, view["seat"]
        cidx = spec.card_index
        hand_at = self.pieces["hand"][0]
        hand = set(view.get("hand") or [])
        for card in hand:
            if card in cidx:
                vec[hand_at + cidx[card]] = 1.0
        trick_at, c = self.pieces["trick"][0], len(spec.cards)
        in_trick = set()
        for seat, card in view.get("trick") or []:
            card = _card_part(card) or card
            if card in cidx:
                vec[trick_at + ((seat - me) % n) * c + cidx[card]] = 1.0
                in_trick.add(card)
        seen_at = self.pieces["seen"][0]
        for key, value in view.items():
            if key in ("hand", "trick", "legal_actions"):
                continue
            for card in cards_in(value):
                if card in cidx and card not in hand and card not in in_trick:
                    vec[seen_at + cidx[card]] = 1.0
        to_move_at = self.pieces["to_move"][0]
        player = view.get("current_player")
        vec[to_move_at + (n if player is None else (player - me) % n)] = 1.0
        dealer = view.get("dealer")
        if isinstance(dealer, int):
            vec[self.pieces["dealer"][0] + (dealer - me) % n] = 1.0
        scores_at = self.pieces["scores"][0]
        for seat, score in enumerate(view.get("scores") or []):
            vec[scores_at + (seat - me) % n] = float(score)
        phase_at = self.pieces["phase"][0]
        vec[phase_at + self.phase_index.get(view.get("phase", ""), len(self.phases))] = 1.0
        legal_at = self.pieces["legal"][0]
        for action in view.get("legal_actions") or []:
            vec[legal_at + spec.index[action]] = 1.0
        return vec


def deal_payoffs(summary: dict[str, Any]) -> list[float]:
    """What each seat plays for in a finished deal: its ``payoffs`` when the game records them
    (GOPS with ``scoring="win"``: +1/-1/0), else the deal's ``scores``."""
    return [float(v) for v in summary.get("payoffs", summary["scores"])]


def view_string(view: dict[str, Any]) -> str:
    """A view as a canonical string (sorted keys): equal views give equal strings."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))
