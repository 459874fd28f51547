"""High Card: the rules engine (pure: no I/O, randomness only from the state's seeded RNG).

It shows what a game supplies to Parlour's engine template (``parlour.engine``): the class
attributes of its ``Game`` (name, title, players, pack, options) and the hooks of its
``State`` — ``_setup`` (game-level fields), ``_begin_deal`` (one deal from a pack),
``_legal`` and ``_apply`` (the rules; the base ``apply`` checks legality and records the
action first), the accessors (``current_player``, ``is_over``, ``winner``, ``scores``,
``phase``) and ``view(seat)`` (what that seat may know, built on ``_base_view``).  The
engine does the rest: option checking, seeding and shuffling, the record, ``clone``,
``to_json``/``from_json``, replaying a deal.
"""

from __future__ import annotations

from typing import Any

from parlour.engine import Game, Option, State

RANKS = "9TJQKA"
SUITS = "CDHS"
PACK = tuple(r + s for s in SUITS for r in RANKS)
HAND_SIZE = 5
#: Display and strength order within a suit: 9 low ... A high.
STRENGTH = {card: RANKS.index(card[0]) for card in PACK}


def display_order(hand: list[str]) -> list[str]:
    """A hand as a player holds it: by suit (C D H S), high to low."""
    return sorted(hand, key=lambda c: (SUITS.index(c[1]), -STRENGTH[c]))


class HighCardState(State):
    def _setup(self) -> None:
        self._points = [0, 0]
        self._trick_seq = 0  # tricks completed in the whole game
        self._over = False
        self._winner: int | None = None

    def _begin_deal(self, pack: list[str], dealer: int) -> None:
        # One card at a time, the non-dealer first: he gets pack[0], pack[2], ...
        elder = 1 - dealer
        self._hands: list[list[str]] = [[], []]
        for i in range(2 * HAND_SIZE):
            self._hands[(elder + i) % 2].append(pack[i])
        self._leader = elder
        self._to_move: int | None = elder
        self._trick: list[list[Any]] = []  # [[seat, card], ...]
        self._tricks: list[dict[str, Any]] = []  # this deal's finished tricks
        self._won = [0, 0]

    # -- the rules ------------------------------------------------------------------------
    def _legal(self) -> list[str]:
        hand = self._hands[self._to_move] if self._to_move is not None else []
        if self._trick:
            led = self._trick[0][1][1]
            same = [c for c in hand if c[1] == led]
            if same:
                return display_order(same)
        return display_order(hand)

    def _apply(self, action: str) -> None:
        seat = self._to_move
        assert seat is not None  # the base apply() has checked the action is legal
        self._hands[seat].remove(action)
        self._trick.append([seat, action])
        if len(self._trick) < 2:
            self._to_move = 1 - seat
            return
        (lead_seat, lead), (_, follow) = self._trick
        wins = follow[1] == lead[1] and STRENGTH[follow] > STRENGTH[lead]
        winner = 1 - lead_seat if wins else lead_seat
        self._tricks.append({"cards": self._trick, "winner": winner})
        self._trick = []
        self._won[winner] += 1
        self._trick_seq += 1
        self._leader = self._to_move = winner
        if not self._hands[0]:
            self._score_deal()

    def _score_deal(self) -> None:
        for seat in (0, 1):
            self._points[seat] += self._won[seat]
        target = self.game.options["target"]
        high = max(self._points)
        if high >= target and self._points[0] != self._points[1]:
            self._over = True
            self._winner = self._points.index(high)
        self._to_move = None
        self._end_deal({
            "scores": list(self._won),
            "tricks": [_copy_trick(t) for t in self._tricks],
            "final_trick": _copy_trick(self._tricks[-1]),
            "totals": list(self._points),
        })

    # -- the accessors ----------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self._over else self._to_move

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def scores(self) -> list[int]:
        return list(self._points)

    @property
    def phase(self) -> str:
        return "over" if self._over else "play"

    def _why_illegal(self, action: str) -> str:
        if self._over:
            return "the game is over"
        hand = self._hands[self._to_move] if self._to_move is not None else []
        if action not in hand:
            return "play a card you hold, as its code (e.g. AS)"
        return "you must follow suit"

    def view(self, seat: int) -> dict[str, Any]:
        view = self._base_view(seat)
        view.update({
            "hand": display_order(self._hands[seat]),
            "hand_sizes": [len(h) for h in self._hands],
            "leader": self._leader,
            "trick": [list(p) for p in self._trick],
            "last_trick": _copy_trick(self._tricks[-1]) if self._tricks else None,
            "trick_seq": self._trick_seq,
            "tricks": [_copy_trick(t) for t in self._tricks],
            "tricks_won": list(self._won),
            "target": self.game.options["target"],
        })
        return view


def _copy_trick(trick: dict[str, Any]) -> dict[str, Any]:
    """A finished trick as views and summaries show it (a copy: views never share the state's lists)."""
    return {"cards": [list(p) for p in trick["cards"]], "winner": trick["winner"]}


class HighCard(Game):
    name = "highcard"
    title = "High Card"
    description = "A tiny trick game for two: follow suit, the high card wins, first to the target."
    num_players = 2
    PACK = PACK
    OPTIONS = (Option("target", int, 11, "points that end the game", low=1, high=99),)
    state_class = HighCardState


GAME = HighCard
