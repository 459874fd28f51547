"""The table: runs one game between humans and bots and tells interfaces what happened.

Why a table apart from the engine: the engine only knows rules.  Somebody has to ask the
right player, keep bots to their own seat's view, give hints, narrate actions without
leaking hidden ones, show open hands when the player asks for them, and save the game
after each action.  Every interface (line mode, terminal UI, browser) drives this one
class, so none of them holds game logic.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bots import Bot, make
from .engine import State

SEAT_NAMES = {2: ("North", "South"), 3: ("North", "East", "West")}


def seat_names(num_players: int) -> tuple[str, ...]:
    return SEAT_NAMES.get(num_players, tuple(f"Seat {i}" for i in range(num_players)))


@dataclass
class Event:
    """Something an interface may show.

    kinds: ``action`` (seat, action — None when the action is private to its seat),
    ``trick`` (the trick just won: cards and winner), ``deal_scored`` (the deal summary),
    ``deal`` (a new deal has started: dealer, deal number), ``replay`` (the deal was
    replaced by the previous pack), ``game_over`` (scores, winner).
    """

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


class NotYourTurn(ValueError):
    pass


class Table:
    """One game at a table.  ``players[i]`` is a Bot, or None for a human seat."""

    def __init__(self, state: State, players: list[Bot | None], *, open_hands: bool = False,
                 bot_seed: int | None = None, on_save: Callable[[Table], None] | None = None,
                 hint_level: str = "easy") -> None:
        if len(players) != state.game.num_players:
            raise ValueError(f"{state.game.name} needs {state.game.num_players} players, not {len(players)}")
        self.state = state
        self.players = list(players)
        self.open_hands = open_hands
        self.rng = random.Random(state.seed * 7919 + len(state.actions) if bot_seed is None else bot_seed)
        self.on_save = on_save
        self._hinter = make(state.game.name, hint_level)
        self.names = seat_names(state.game.num_players)

    # -- questions --------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return self.state.current_player

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def is_human(self, seat: int) -> bool:
        return self.players[seat] is None

    @property
    def human_to_move(self) -> bool:
        seat = self.to_move
        return seat is not None and self.is_human(seat)

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees; in open-hands mode every seat's hand is added under ``open_hands``."""
        view = self.state.view(seat)
        if self.open_hands:
            view["open_hands"] = {str(s): self.state.view(s)["hand"] for s in range(self.state.game.num_players)}
        return view

    def hint(self, seat: int | None = None) -> str:
        """The easy player's choice for ``seat`` (the seat to move by default), from its own view."""
        seat = self.to_move if seat is None else seat
        if seat is None or seat != self.to_move:
            raise NotYourTurn("there is nothing to hint: it is not that seat's turn")
        return self._hinter.act(self.state.view(seat), random.Random(len(self.state.actions)))

    def bot_choice(self) -> str:
        """What the bot to move would play (safe to compute in a worker thread: it reads a view)."""
        seat = self.to_move
        if seat is None or self.players[seat] is None:
            raise NotYourTurn("it is not a computer player's turn")
        bot = self.players[seat]
        assert bot is not None
        return bot.act(self.state.view(seat), self.rng)

    # -- actions ----------------------------------------------------------------------
    def play(self, action: str, seat: int | None = None) -> list[Event]:
        """Make ``action`` for the seat to move (``seat`` checks it is who we think)."""
        state = self.state
        actor = state.current_player
        if actor is None:
            raise NotYourTurn("the game is over")
        if seat is not None and seat != actor:
            raise NotYourTurn(f"it is {self.names[actor]}'s turn, not {self.names[seat]}'s")
        private = state.action_is_private
        before = state.view(actor)
        deals_before = len(state.deals)
        state.apply(action)  # raises IllegalAction, leaving everything as it was
        events = [Event("action", actor, {"action": None if private else action, "private": private})]
        events += self._consequences(before, deals_before)
        if self.on_save is not None:
            self.on_save(self)
        return events

    def step_bot(self) -> list[Event]:
        return self.play(self.bot_choice())

    def run_bots(self, limit: int = 100_000) -> list[Event]:
        """Let bots move until a human must act or the game ends."""
        events: list[Event] = []
        for _ in range(limit):
            seat = self.to_move
            if seat is None or self.is_human(seat):
                break
            events += self.step_bot()
        return events

    def replay_deal(self) -> list[Event]:
        self.state.replay_deal()
        if self.on_save is not None:
            self.on_save(self)
        return [Event("replay", None, {"dealer": self.state.dealer, "deal": len(self.state.deals) + 1})]

    def _consequences(self, before: dict[str, Any], deals_before: int) -> list[Event]:
        state = self.state
        events: list[Event] = []
        any_seat = state.current_player if state.current_player is not None else before["seat"]
        after = state.view(any_seat)
        if after.get("trick_seq", 0) > before.get("trick_seq", 0):
            # A deal's final trick is in its summary: views show only the current deal's cards.
            trick = after.get("last_trick")
            if trick is None and len(state.deals) > deals_before:
                trick = state.deals[deals_before].get("final_trick")
            if trick:
                events.append(Event("trick", trick.get("winner"), dict(trick)))
        if len(state.deals) > deals_before:
            for summary in state.deals[deals_before:]:
                events.append(Event("deal_scored", None, dict(summary)))
            if not state.is_over:
                events.append(Event("deal", state.dealer, {"dealer": state.dealer, "deal": len(state.deals) + 1}))
        if state.is_over:
            events.append(Event("game_over", state.winner, {"scores": state.scores, "winner": state.winner}))
        return events
