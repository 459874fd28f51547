"""GOPS (Game of Pure Strategy), as RULES.md settles it.

Seat 0 holds the clubs, seat 1 the spades (A=1 low ... K=13 high); the 13 diamonds are the
prize pile, ``deck=`` giving their order top first.  Each turn the top diamond is turned
and added to the stake; seat 0 then seat 1 choose a card (the action is its code, ``"KC"``);
the higher card takes the whole stake, a tie carries the stake to the next turn, and a tie
on the last turn wins nothing.  Higher total of diamond values wins; equal is a draw.

Choices where RULES.md is silent:
- GOPS has no dealer.  ``dealer=`` is accepted (and drawn from the seed when omitted) only
  so the API is uniform; it changes nothing.  The game is one deal.
- The two choices are simultaneous in spirit, so seat 1 must learn nothing of seat 0's
  pending card: seat 1's view shows only that seat 0 has chosen, and seat 0's remaining
  cards *including* the pending one (which remain public knowledge: every played card is
  revealed, so each seat knows exactly what the other still holds).

The hot path (legal actions and apply) avoids allocation beyond one list copy so random
playouts run at C-extension speed (see ``bench/engine_speed.py``).
"""

from __future__ import annotations

from typing import Any

from ...engine import Game, IllegalAction, State

VALUES = "A23456789TJQK"
PRIZE_PACK = tuple(r + "D" for r in VALUES)
SEAT_SUITS = ("C", "S")
#: card code -> value 1..13 for the clubs, spades and diamonds
VALUE_OF = {r + s: i + 1 for s in "CSD" for i, r in enumerate(VALUES)}
TURNS = 13


class GopsState(State):
    def _setup(self) -> None:
        self._points = [0, 0]

    def _begin_deal(self, pack: list[str], dealer: int) -> None:
        self._prizes = list(pack)
        self._hands = [[r + s for r in VALUES] for s in SEAT_SUITS]
        self._won: list[list[str]] = [[], []]
        self._turn = 0
        self._stake = [self._prizes[0]]
        self._stake_value = VALUE_OF[self._prizes[0]]
        self._to_move: int | None = 0
        self._pending: str | None = None
        self._history: list[tuple[tuple[str, ...], str, str, int | None, bool]] = []

    # -- the hot path ---------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        p = self._to_move
        return [] if p is None else self._hands[p][:]

    def _legal(self) -> list[str]:
        return self.legal_actions()

    def apply(self, action: str) -> None:
        p = self._to_move
        if p is None or action not in self._hands[p]:
            raise IllegalAction(action, self.legal_actions(), self._why_illegal(action))
        self.actions.append(action)
        self._hands[p].remove(action)
        if p == 0:
            self._pending = action
            self._to_move = 1
        else:
            self._resolve(action)

    def _resolve(self, card1: str) -> None:
        card0 = self._pending
        v0, v1 = VALUE_OF[card0], VALUE_OF[card1]
        stake = self._stake
        turn = self._turn
        if v0 > v1:
            winner: int | None = 0
        elif v1 > v0:
            winner = 1
        else:
            winner = None
        # Plain tuples on the hot path; view() turns them into dicts.
        self._history.append((tuple(stake), card0, card1, winner, winner is None and turn < TURNS - 1))
        if winner is not None:
            self._points[winner] += self._stake_value
            self._won[winner].extend(stake)
        self._pending = None
        self._turn = turn = turn + 1
        if winner is not None or turn == TURNS:
            stake.clear()
            self._stake_value = 0
        if turn == TURNS:
            self._to_move = None
            self._end_deal({"scores": list(self._points), "points": list(self._points),
                            "won": [list(w) for w in self._won], "winner": self.winner})
        else:
            prize = self._prizes[turn]
            stake.append(prize)
            self._stake_value += VALUE_OF[prize]
            self._to_move = 0

    def _why_illegal(self, action: str) -> str:
        if self._to_move is None:
            return "the game is over"
        if action in VALUE_OF and action[1] != SEAT_SUITS[self._to_move]:
            return f"seat {self._to_move} bids with its own suit, {SEAT_SUITS[self._to_move]}"
        if action in VALUE_OF:
            return "that card has already been played"
        return "a bid is one of your card codes"

    # -- the rest of the API ----------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self._to_move

    @property
    def is_over(self) -> bool:
        return self._turn >= TURNS

    @property
    def scores(self) -> list[int]:
        return list(self._points)

    @property
    def winner(self) -> int | None:
        if self._turn < TURNS or self._points[0] == self._points[1]:
            return None
        return 0 if self._points[0] > self._points[1] else 1

    @property
    def action_is_private(self) -> bool:
        return True

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "bid"

    def view(self, seat: int) -> dict[str, Any]:
        view = self._base_view(seat)
        other = 1 - seat
        opp_hand = list(self._hands[other])
        if other == 0 and self._pending is not None:
            # Seat 0's pending card is still in his hand as far as seat 1 can tell.
            opp_hand.append(self._pending)
            opp_hand.sort(key=VALUE_OF.__getitem__)
        view.update({
            "hand": list(self._hands[seat]),
            "opponent_hand": opp_hand,
            "stake": list(self._stake),
            "prizes_left": TURNS - self._turn - 1 if self._turn < TURNS else 0,
            "turn": min(self._turn + 1, TURNS),
            "chosen": self._pending if seat == 0 else None,
            "opponent_chosen": seat == 1 and self._pending is not None,
            "won": [list(w) for w in self._won],
            "trick": [],
            "last_trick": _turn_dict(self._history[-1]) if self._history else None,
            "trick_seq": len(self._history),
            "history": [_turn_dict(h) for h in self._history],
        })
        return view

    def clone(self) -> GopsState:
        new: GopsState = self._shallow_clone()
        new._points = list(self._points)
        new._prizes = list(self._prizes)
        new._hands = [list(h) for h in self._hands]
        new._won = [list(w) for w in self._won]
        new._stake = list(self._stake)
        new._history = list(self._history)
        return new


def _turn_dict(turn: tuple[tuple[str, ...], str, str, int | None, bool]) -> dict[str, Any]:
    prizes, card0, card1, winner, carried = turn
    return {"prizes": list(prizes), "cards": [[0, card0], [1, card1]], "winner": winner, "carried": carried}


class Gops(Game):
    name = "gops"
    title = "GOPS"
    description = "Game of Pure Strategy: bid your clubs against the computer's spades for the diamonds."
    num_players = 2
    PACK = PRIZE_PACK
    OPTIONS = ()
    state_class = GopsState


GAME = Gops
