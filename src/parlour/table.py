"""The table: runs one game between humans and bots and tells interfaces what happened.

Why a table apart from the engine: the engine only knows rules.  Somebody has to ask the
right player, keep bots to their own seat's view, give hints, narrate actions without
leaking hidden ones, show open hands when the player asks for them, and save the game
after each action.  Every interface (line mode, terminal UI, browser) drives this one
class, so none of them holds game logic.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from .bots import Bot, levels, make
from .cards import pretty_action
from .engine import State, Step, apply_recorded, bot_rng, effective_actions, replay
from .views import View

SEAT_NAMES = {2: ("North", "South"), 3: ("North", "East", "West")}

#: What an ``Event`` tells (see ``Event``).
EventKind = Literal["action", "trick", "deal_scored", "deal", "replay", "undo", "game_over"]


def mix_reason(policy: dict[str, float]) -> str | None:
    """Why a mixing player's hint: the probabilities it draws from ("drawn from 4♣ 38 %, 5♣ 24 %,
    ..."), most likely first; None when one action has them all.

    Why a mix and not one best action: in GOPS and Le Truc any single fixed choice is
    exploitable, so those players draw their action from such a mix (the strong ones from an
    equilibrium), and the hint is one draw.
    """
    shown = sorted(((p, a) for a, p in policy.items() if p >= 0.005), reverse=True)
    if len(shown) < 2:
        return None
    parts = ", ".join(f"{pretty_action(a)} {round(100 * p)} %" for p, a in shown[:4])
    more = f" and {len(shown) - 4} more" if len(shown) > 4 else ""
    return f"drawn from the player's mix: {parts}{more}"


def seat_names(num_players: int) -> tuple[str, ...]:
    return SEAT_NAMES.get(num_players, tuple(f"Seat {i}" for i in range(num_players)))


@dataclass
class Event:
    """Something an interface may show.

    kinds: ``action`` (seat, action — None when the action is private to its seat),
    ``trick`` (the trick just won: cards and winner), ``deal_scored`` (the deal summary),
    ``deal`` (a new deal has started: dealer, deal number), ``replay`` (the deal was
    replaced by the previous pack), ``undo`` (``count`` actions taken back for ``seat``),
    ``game_over`` (scores, winner).
    """

    kind: EventKind
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


class NotYourTurn(ValueError):
    pass


class CannotUndo(ValueError):
    """Undo (or replay) refused; the message is one line to show the player."""


def hint_level_for(game: str) -> str:
    """The level whose choice a hint shows: ``strong`` where the game has one, else ``easy``."""
    return "strong" if "strong" in levels(game) else "easy"


class Table:
    """One game at a table.  ``players[i]`` is a Bot, or None for a human seat."""

    def __init__(self, state: State, players: list[Bot | None], *, open_hands: bool = False,
                 on_save: Callable[[Table], None] | None = None,
                 hint_level: str | None = None) -> None:
        if len(players) != state.game.num_players:
            raise ValueError(f"{state.game.name} needs {state.game.num_players} players, not {len(players)}")
        self.state = state
        self.players = list(players)
        self.open_hands = open_hands
        self.on_save = on_save
        self.hint_level = hint_level or hint_level_for(state.game.name)
        self._hinter_made: Bot | None = None  # made at the first hint: a strong player may be costly to build
        self._fallback_hinter: Bot | None = None
        self.names = seat_names(state.game.num_players)
        # The view ``play`` took after the last action: (state, action count, seat, view).
        self._after: tuple[State, int, int, dict[str, Any]] | None = None

    @property
    def _hinter(self) -> Bot:
        if self._hinter_made is None:
            self._hinter_made = make(self.state.game.name, self.hint_level)
        return self._hinter_made

    @_hinter.setter
    def _hinter(self, bot: Bot) -> None:
        self._hinter_made = bot

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
        """A human must be asked now (not when the table answers for them: see ``auto_action``)."""
        seat = self.to_move
        return seat is not None and self.is_human(seat) and self.auto_action() is None

    def auto_action(self) -> str | None:
        """The action the table makes by itself for the human to move, or None.

        Why: a game may ask a player who has no choice, so that being asked reveals nothing
        (the game lists such actions in ``AUTO_ACTIONS``).  A human is not prompted for their
        only legal action when it is one of those; ``step_bot``/``run_bots`` make it, recorded
        and narrated like any other action.
        """
        seat = self.to_move
        auto = self.state.game.AUTO_ACTIONS
        if seat is None or not auto or not self.is_human(seat):
            return None
        legal = self.state.legal_actions()
        return legal[0] if len(legal) == 1 and legal[0] in auto else None

    def view(self, seat: int) -> View:
        """What ``seat`` sees; in open-hands mode every seat's hand is added under ``open_hands``.

        Typed as the common ``View``: the engine hands out plain dicts (each game's keys are its
        ``games/<name>/views.py``), and every view has the common keys (``tests/core/test_views.py``).
        """
        view = cast(View, self.state.view(seat))
        if self.open_hands:
            view["open_hands"] = {str(s): self.state.view(s)["hand"] for s in range(self.state.game.num_players)}
        return view

    def hint(self, seat: int | None = None) -> str:
        """The hint player's choice for ``seat`` (the seat to move by default), from its own view."""
        return self.suggest(seat)[0]

    def suggest(self, seat: int | None = None) -> tuple[str, str | None]:
        """The hint and why, where the hint player can say (its ``explain(view, rng)``), else None.

        Safe in a worker thread: it reads a view only.
        """
        seat = self.to_move if seat is None else seat
        if seat is None or seat != self.to_move:
            raise NotYourTurn("there is nothing to hint: it is not that seat's turn")
        view = self.state.view(seat)
        rng = random.Random(len(self.state.actions))
        try:
            explain = getattr(self._hinter, "explain", None)
            if explain is not None:
                action, reason = explain(view, rng)
                return str(action), str(reason) if reason else None
            policy = getattr(self._hinter, "policy", None)
            if policy is not None:  # a mixing player (GOPS, Le Truc): its mix is the reason
                return self._hinter.act(view, rng), mix_reason(policy(view))
            return self._hinter.act(view, rng), None
        except Exception:  # a strong player that cannot run here (its data missing) must not cost the hint
            if self.hint_level == "easy":
                raise
            if self._fallback_hinter is None:
                self._fallback_hinter = make(self.state.game.name, "easy")
            return self._fallback_hinter.act(view, random.Random(len(self.state.actions))), None

    def bot_choice(self) -> str:
        """What the bot to move would play (safe to compute in a worker thread: it reads a view)."""
        seat = self.to_move
        if seat is None or self.players[seat] is None:
            raise NotYourTurn("it is not a computer player's turn")
        bot = self.players[seat]
        assert bot is not None
        # a generator of its own per decision, derived apart from the deals' (engine.bot_rng)
        return bot.act(self.state.view(seat), bot_rng(self.state.seed, len(self.state.actions)))

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
        before = self._view_before(actor)
        deals_before = len(state.deals)
        state.apply(action)  # raises IllegalAction, leaving everything as it was
        next_seat = state.current_player
        after = state.view(actor if next_seat is None else next_seat)
        self._after = (state, len(state.actions), actor if next_seat is None else next_seat, after)
        data: dict[str, Any] = {"action": None if private else action, "private": private}
        if private:  # public facts only: how a hidden choice is said may depend on the phase (``text.speak_hidden``)
            data.update(phase=before.get("phase"), next_phase=after.get("phase"))  # the phase is every seat's
        events = [Event("action", actor, data)]
        events += self._consequences(before, after, deals_before)
        if self.on_save is not None:
            self.on_save(self)
        return events

    def step_bot(self) -> list[Event]:
        """Make the next move nobody is prompted for: a bot's choice, or a human's automatic answer."""
        auto = self.auto_action()
        return self.play(auto if auto is not None else self.bot_choice())

    def run_bots(self, limit: int = 100_000) -> list[Event]:
        """Let bots move (and the table answer a human's automatic actions) until a human must act or the game ends."""
        events: list[Event] = []
        for _ in range(limit):
            if self.to_move is None or self.human_to_move:
                break
            events += self.step_bot()
        return events

    # -- undo and replay -----------------------------------------------------------------
    def _deal_history(self) -> list[tuple[int | None, str, bool]]:
        """The current deal's standing actions as (actor, action, made by the table itself).

        Why replayed from the start: the record does not say who acted; the rules do, and a
        replay of a few hundred actions costs a millisecond.
        """
        state = self.state
        effective = effective_actions(state.actions)
        fresh = state.fresh_copy()
        out: list[tuple[int | None, str, bool]] = []
        start = len(effective) - state.deal_actions
        auto = state.game.AUTO_ACTIONS

        def make(step: Step) -> None:
            if step.kind == "action" and step.position >= start:
                legal = fresh.legal_actions()
                out.append((fresh.current_player, step.entry, len(legal) == 1 and legal[0] in auto))
            apply_recorded(fresh, step.entry)

        for _ in replay(fresh, effective, make):
            pass
        return out

    def replay(self, entries: Sequence[str]) -> Iterator[tuple[Step, list[Event]]]:
        """Make record ``entries`` at this table (``engine.replay``), yielding each step with its events.

        Why here: a table rebuilt from its record (a browser table, a retold log, a watched
        replay) must tell the events the game told: its actions go through ``play``, and a
        marker tells what ``undo`` and ``replay_deal`` tell.
        """
        events: list[Event] = []

        def make(step: Step) -> None:
            if step.kind == "action":
                events[:] = self.play(step.entry)
                return
            apply_recorded(self.state, step.entry)
            told = self._replay_event() if step.kind == "replay" else Event("undo", None, {"count": step.undone})
            events[:] = [told]

        for step in replay(self.state, entries, make):
            yield step, list(events)

    def undo_count(self, seat: int) -> int:
        """How many actions ``undo(seat)`` takes back; ``CannotUndo`` says why none.

        What is taken back: ``seat``'s last decision of this deal and every move after it (the
        computer's replies), so ``seat`` is asked again.  Answers the table made by itself
        (``auto_action``) are not decisions.
        """
        if self.state.is_over:
            raise CannotUndo("the game is over: nothing can be taken back")
        if not self.is_human(seat):
            raise CannotUndo("only a human player's move can be taken back")
        history = self._deal_history()
        for back, (actor, _action, by_table) in enumerate(reversed(history), start=1):
            if actor == seat and not by_table:
                return back
        raise CannotUndo("you have made no move in this deal yet: there is nothing to take back")

    def undo(self, seat: int) -> list[Event]:
        """Take back ``seat``'s last decision and the moves after it; recorded as ``#undo N``."""
        count = self.undo_count(seat)
        self.state.undo(count)
        if self.on_save is not None:
            self.on_save(self)
        return [Event("undo", seat, {"count": count})]

    @property
    def undos(self) -> int:
        """How many times a move was taken back in this game (statistics count such games apart)."""
        return sum(1 for a in self.state.actions if a.startswith("#undo "))

    def replay_deal(self) -> list[Event]:
        """Deal the previous deal's pack again, at any point of the current deal.

        Why an undo first: ``State.replay_deal`` replaces only a fresh deal, and the computer
        often speaks before the human; taking the deal's actions back (recorded, so a replay
        of the record shows them) makes it fresh.
        """
        state = self.state
        if state.is_over:
            raise CannotUndo("the game is over")
        if not state.deals:
            raise CannotUndo("there is no earlier deal to replay yet")
        events: list[Event] = []
        standing = state.deal_actions
        if standing:
            state.undo(standing)
            events.append(Event("undo", None, {"count": standing}))
        state.replay_deal()
        if self.on_save is not None:
            self.on_save(self)
        return [*events, self._replay_event()]

    def _replay_event(self) -> Event:
        """What a replayed deal tells: its dealer and number."""
        return Event("replay", None, {"dealer": self.state.dealer, "deal": len(self.state.deals) + 1})

    def _view_before(self, actor: int) -> dict[str, Any]:
        """``actor``'s view before its action: the view the last ``play`` took afterwards, if it is that one.

        Why: the seat to move after an action is the next action's actor, so the view taken
        after one action is the one needed before the next; taking each once halves the views
        the table takes (a browser table's largest cost but one).  Only ``play`` reads it.
        """
        after, state = self._after, self.state
        if after is not None and after[0] is state and after[1] == len(state.actions) and after[2] == actor:
            return after[3]
        return state.view(actor)

    def _consequences(self, before: dict[str, Any], after: dict[str, Any], deals_before: int) -> list[Event]:
        state = self.state
        events: list[Event] = []
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
