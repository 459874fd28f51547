"""GOPS (Game of Pure Strategy), as RULES.md settles it, with its variants as options.

Seat 0 holds the clubs, seat 1 the spades (A=1 low ... K=13 high); the diamonds are the
prize pile, ``deck=`` giving their order top first.  Each turn the top diamond is turned
and added to the stake; seat 0 then seat 1 choose a card (the action is its code, ``"KC"``);
the higher card takes the whole stake, a tie carries the stake to the next turn, and a tie
on the last turn wins nothing.  Higher total of diamond values wins; equal is a draw.

Options (the defaults are the game above):
- ``cards`` (3-13): the prizes and each hand are A..N of their suit (A..K is 13).
- ``ties``: ``carry`` (above) or ``discard``: a tied stake is lost to both, as in OpenSpiel's
  ``goofspiel`` (a test plays both engines side by side).
- ``scoring``: what the game is played for.  ``points``: the points margin counts (a deal's
  ``payoffs`` are the two margins); ``win``: only who wins counts (payoffs +1/-1, 0 each for
  a draw).  Who wins is the higher total either way, and ``scores`` stay the diamond points
  so the table can show the running totals; the computer players and the solver optimise
  ``payoffs``.

Choices where RULES.md is silent:
- GOPS has no dealer.  ``dealer=`` is accepted (and drawn from the seed when omitted) only
  so the API is uniform; it changes nothing.  The game is one deal.
- The two choices are simultaneous in spirit, so seat 1 must learn nothing of seat 0's
  pending card: seat 1's view shows only that seat 0 has chosen, and seat 0's remaining
  cards *including* the pending one (which remain public knowledge: every played card is
  revealed, so each seat knows exactly what the other still holds).

The hot path (``_legal``/``_is_legal``/``_apply``) allocates nothing beyond the base class's
copy of the legal list, so random playouts stay fast (see ``bench/engine_speed.py``).
"""

from __future__ import annotations

from typing import Any

from ...engine import Game, Option, State
from .views import Phase

VALUES = "A23456789TJQK"
PRIZE_PACK = tuple(r + "D" for r in VALUES)
SEAT_SUITS = ("C", "S")
#: card code -> value 1..13 for the clubs, spades and diamonds
VALUE_OF = {r + s: i + 1 for s in "CSD" for i, r in enumerate(VALUES)}
#: turns of the standard (13-card) game
TURNS = 13


def card(value: int, suit: str) -> str:
    """The code of the card of ``value`` (1..13) in ``suit`` (``"C"``, ``"S"`` or ``"D"``)."""
    return VALUES[value - 1] + suit


class GopsState(State):
    game: Gops
    #: the mutable fields a clone copies (``engine.State.clone``)
    _COPIED_LISTS = ("_scores", "_prizes", "_stake", "_history")
    _COPIED_NESTED = ("_hands",)

    def _setup(self) -> None:
        options = self.game.options
        self._scores = [0, 0]
        self._turns = options["cards"]
        self._carry = options["ties"] == "carry"

    def _begin_deal(self, pack: list[str], dealer: int) -> None:
        clubs, spades = self.game.full_hands
        self._prizes = list(pack)
        self._hands = [[*clubs], [*spades]]
        self._turn = 0
        self._stake = [self._prizes[0]]
        self._stake_value = VALUE_OF[self._prizes[0]]
        self._to_move: int | None = 0
        self._pending: str | None = None
        self._history: list[tuple[tuple[str, ...], str, str, int | None, bool]] = []

    # -- the hot path ---------------------------------------------------------------
    def _legal(self) -> list[str]:
        # The hand itself: the base class hands out copies and replaces its cache by what
        # ``_apply`` returns once it has changed the hand.
        return self._hands[self._to_move]  # type: ignore[index]  # never asked once the game is over

    def _is_legal(self, action: str) -> bool:
        p = self._to_move
        return p is not None and action in self._hands[p]

    def _apply(self, action: str) -> list[str] | tuple[()]:
        # Returns the next seat's hand: its legal actions, which the base class caches.
        hands = self._hands
        if self._to_move == 0:
            hands[0].remove(action)
            self._pending = action
            self._to_move = 1
            return hands[1]
        # Seat 1's bid: both are revealed and the turn is resolved (inline: the hot path).
        hands[1].remove(action)
        card0: str = self._pending  # type: ignore[assignment]
        card1 = action
        v0, v1 = VALUE_OF[card0], VALUE_OF[card1]
        stake = self._stake
        self._pending = None
        self._turn = turn = self._turn + 1
        # Plain tuples on the hot path; view() turns them into dicts.
        if v0 != v1:
            winner = 0 if v0 > v1 else 1
            self._history.append((tuple(stake), card0, card1, winner, False))
            self._scores[winner] += self._stake_value
            stake.clear()
            self._stake_value = 0
        elif self._carry and turn < self._turns:
            self._history.append((tuple(stake), card0, card1, None, True))
        else:  # discarded, or tied on the last turn: nobody wins it
            self._history.append((tuple(stake), card0, card1, None, False))
            stake.clear()
            self._stake_value = 0
        if turn == self._turns:
            self._to_move = None
            self._end_deal({"scores": list(self._scores), "points": list(self._scores),
                            "won": self._won(), "winner": self.winner,
                            "payoffs": self.payoffs})
            return ()
        prize = self._prizes[turn]
        stake.append(prize)
        self._stake_value += VALUE_OF[prize]
        self._to_move = 0
        return hands[0]

    def _why_illegal(self, action: str) -> str:
        if self._to_move is None:
            return "the game is over"
        suit = SEAT_SUITS[self._to_move]
        if action in VALUE_OF and action[1] != suit:
            return f"seat {self._to_move} bids with its own suit, {suit}"
        if action in VALUE_OF and VALUE_OF[action] > self._turns:
            return f"this game is played with A to {VALUES[self._turns - 1]} only"
        if action in VALUE_OF:
            return "that card has already been played"
        return "a bid is one of your card codes"

    def _won(self) -> list[list[str]]:
        """The diamonds each seat has won, in order (from the history: kept off the hot path)."""
        won: list[list[str]] = [[], []]
        for prizes, _, _, winner, _ in self._history:
            if winner is not None:
                won[winner].extend(prizes)
        return won

    # -- the rest of the API ----------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self._to_move

    @property
    def is_over(self) -> bool:
        return self._turn >= self._turns

    # -- for the exploitability bench (exploit.py): what a best response enumerates ---------
    def hand(self, seat: int) -> list[str]:
        """The cards ``seat`` still holds (every seat's, not a view: a best response knows them)."""
        return list(self._hands[seat])

    def face_down(self) -> list[str]:
        """The prizes not turned yet, the one just turned first."""
        return self._prizes[self._turn:]

    def turned_instead(self, prize: str) -> GopsState:
        """A copy of this state (a prize just turned) with ``prize`` turned instead: chance's other outcomes."""
        child = self.clone()
        turn = child._turn
        top = child._prizes[turn]
        child._prizes = child._prizes[:turn] + [prize] + [c for c in child._prizes[turn:] if c != prize]
        child._stake[-1] = prize
        child._stake_value += VALUE_OF[prize] - VALUE_OF[top]
        return child

    def with_points(self, points: list[int]) -> GopsState:
        """A copy of this state with the score ``points`` (what a policy that reads the score would see)."""
        child = self.clone()
        child._scores = list(points)
        return child

    @property
    def payoffs(self) -> list[int]:
        """What each seat has gained by the ``scoring`` option (zero-sum; 0 before the end)."""
        if self._turn < self._turns:
            return [0, 0]
        margin = self._scores[0] - self._scores[1]
        if self.game.options["scoring"] == "win":
            margin = (margin > 0) - (margin < 0)
        return [margin, -margin]

    @property
    def action_is_private(self) -> bool:
        return True

    @property
    def phase(self) -> Phase:
        return "over" if self.is_over else "bid"

    def view(self, seat: int) -> dict[str, Any]:
        view = self._base_view(seat)
        other = 1 - seat
        opp_hand = list(self._hands[other])
        if other == 0 and self._pending is not None:
            # Seat 0's pending card is still in his hand as far as seat 1 can tell.
            opp_hand.append(self._pending)
            opp_hand.sort(key=VALUE_OF.__getitem__)
        turns = self._turns
        view.update({
            "hand": list(self._hands[seat]),
            "opponent_hand": opp_hand,
            "hand_sizes": [len(self._hands[seat]) if s == seat else len(opp_hand) for s in range(2)],
            "stake": list(self._stake),
            "prizes_left": turns - self._turn - 1 if self._turn < turns else 0,
            "turn": min(self._turn + 1, turns),
            "turns": turns,
            "chosen": self._pending if seat == 0 else None,
            "opponent_chosen": seat == 1 and self._pending is not None,
            "won": self._won(),
            "trick": [],
            "last_trick": _turn_dict(self._history[-1]) if self._history else None,
            "trick_seq": len(self._history),
            "history": [_turn_dict(h) for h in self._history],
        })
        return view


def _turn_dict(turn: tuple[tuple[str, ...], str, str, int | None, bool]) -> dict[str, Any]:
    prizes, card0, card1, winner, carried = turn
    return {"prizes": list(prizes), "cards": [[0, card0], [1, card1]], "winner": winner, "carried": carried}


class Gops(Game):
    name = "gops"
    title = "GOPS"
    description = "Game of Pure Strategy: bid your clubs against the computer's spades for the diamonds."
    num_players = 2
    HAS_DEALER = False
    PACK = PRIZE_PACK
    OPTIONS = (
        Option("cards", int, 13, "cards in each suit: the prizes and each hand are A up to this (13 = A..K)", 3, 13),
        Option("ties", str, "carry", "a tied stake: carry (to the next turn) or discard (nobody wins it)",
               choices=("carry", "discard")),
        Option("scoring", str, "points", "what counts: points (the margin) or win (only who wins)",
               choices=("points", "win")),
    )
    SIMULTANEOUS = True  # both seats bid, then both cards are shown
    DEAL_SCORE_BOUND = 91  # every diamond of the largest game
    DEAL_LENGTH_BOUND = 26
    state_class = GopsState

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # The prize pile is the first ``cards`` diamonds; ``deck=`` and shuffles use this pack.
        self.PACK = PRIZE_PACK[: self.options["cards"]]  # type: ignore[misc]
        # Each seat's hand at the start, made once: a deal copies them (playouts deal often).
        ranks = VALUES[: self.options["cards"]]
        self.full_hands: tuple[tuple[str, ...], tuple[str, ...]] = (
            tuple(r + "C" for r in ranks), tuple(r + "S" for r in ranks))

    def action_space(self) -> list[str]:
        ranks = VALUES[: self.options["cards"]]
        return [r + s for s in SEAT_SUITS for r in ranks]


GAME = Gops
