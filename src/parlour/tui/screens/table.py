"""The card table: one game between you and the computer, driven through ``Table``.

What happens here is only interface work: asking whose turn it is, showing the human's
view, turning a key or a click into one of ``legal_actions``, letting computer players
think in a worker thread, narrating table events, and showing deal summaries.  Whether a
card may be played, what a deal scores and every sentence about the deal come from the
engine (views, ``legal_actions``, ``IllegalAction`` messages, deal summaries) and the
line mode's ``describe``/``summarize``/``narrate``.

Why every state change happens on the UI thread: a worker only *chooses* (``bot_choice``
or ``hint``, which read a view); the choice comes back as a worker event and is played
here.  While a worker thinks, nothing else may change the state, so keys that would
(playing, F6) wait for it; a choice that arrives after the game moved on (a replayed
deal, demo mode switched off) is dropped by its generation number.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, RichLog, Static
from textual.worker import Worker, WorkerState

from ...engine import IllegalAction
from ...linemode.render import game_lines, narrate
from ...table import Event, NotYourTurn, seat_names
from ..arrival import ArrivalOrder
from ..cardtext import pretty_line
from ..keys import assign_keys, card_index, card_key
from ..session import Session
from ..settings import faster, slower
from ..widgets.actions import ActionBar
from ..widgets.hand import HandView
from ..widgets.seats import SeatPanel
from ..widgets.trick import TrickView
from .dialogs import KEY_HELP, Note, Question
from .options import OptionsScreen
from .rules import RulesScreen
from .summary import QUIT, REPLAY, DealSummary

if TYPE_CHECKING:
    from ..app import ParlourApp


class TableScreen(Screen[None]):
    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    TableScreen #title { height: 1; background: $boost; padding: 0 1; }
    TableScreen #seats { height: 3; }
    TableScreen #middle { height: 1fr; }
    TableScreen #left { width: 1fr; }
    TableScreen #log { height: 1fr; border: round $panel; padding: 0 1; scrollbar-size-vertical: 1; }
    TableScreen #info { width: 40%; min-width: 34; border: round $panel; padding: 0 1; overflow-y: auto; }
    TableScreen #prompt { height: 1; padding: 0 1; }
    TableScreen #prompt.-error { color: $error; }
    """
    BINDINGS = [
        Binding("f1", "sound", "Sound"),
        Binding("f2", "demo", "Demo"),
        Binding("f3", "options", "Options"),
        Binding("f4", "sort", "Sort", show=False),
        Binding("f5", "rules", "Rules"),
        Binding("f6", "replay", "Replay"),
        Binding("f7", "leave", "Quit"),
        Binding("f8", "slower", "Slower"),
        Binding("f9", "faster", "Faster"),
    ]

    def __init__(self, session: Session, *, replay_prompt: bool = False) -> None:
        super().__init__()
        self.session = session
        self.table = session.table
        self.game = session.game
        self.human = session.human
        self.names = list(seat_names(self.game.num_players))
        self.lines = game_lines(self.game.name)
        self.replay_prompt = replay_prompt
        self.demo = False
        self.busy = False  # a worker is choosing a move
        self.generation = 0  # bumped by every change of the state
        self.timer: Timer | None = None
        self.pending: tuple[int, int, str] | None = None  # a choice that came back while a dialog was open
        self.summary_open = False
        self.leaving = False
        self.closed = False
        self.summary_seen = False
        self.replay_wanted = False
        self.asked_replay: set[int] = set()
        self.arrival = ArrivalOrder()
        self.joke_rng = random.Random(self.table.state.seed + len(self.table.state.actions))
        self.cursor: int | None = None
        self.button_cursor: int | None = None
        self.message = ""
        self.message_is_error = False
        self.was_my_turn = False
        # what is on screen now, for keys and clicks
        self.hand: list[str] = []
        self.card_choices: list[str] = []
        self.buttons: list[str] = []
        self.button_keys: list[str] = []
        self._snapshot: tuple[dict[str, Any], list[int], list[str]] | None = None

    @property
    def parlour(self) -> ParlourApp:
        return self.app  # type: ignore[return-value]

    @property
    def shows_dealer(self) -> bool:
        """GOPS has no dealer (its engine keeps one only for a uniform API), as the line mode knows too."""
        return self.game.num_players > 2 or self.game.name != "gops"

    @property
    def settings(self) -> Any:
        return self.parlour.settings

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="title")
        with Horizontal(id="seats"):
            for rel in range(1, self.game.num_players):
                yield SeatPanel(id=f"seat-{(self.human + rel) % self.game.num_players}")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield TrickView(id="trick")
                yield RichLog(id="log", wrap=True, markup=False, max_lines=1000, auto_scroll=True, min_width=20)
            yield Static("", id="info")
        yield Static("", id="prompt")
        yield ActionBar(id="actions")
        yield HandView(id="hand")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#info", Static).border_title = "Game"
        log = self.query_one("#log", RichLog)
        log.border_title = "Announcements"
        log.can_focus = False  # keys belong to the table, never to a scrolling log
        for notice in self.session.notices:
            self.log_line(notice)
        state = self.table.state
        dealer = f": {self.names[state.dealer]} deals" if self.shows_dealer else ""
        self.log_line(f"--- Deal {len(state.deals) + 1}{dealer}. --- (? lists the keys)")
        self.refresh_view()

    def on_screen_resume(self) -> None:
        self.resume()

    def resume(self) -> None:
        """Carry on after a dialog closed (safe to call twice: the dialog's answer and the resume event)."""
        if self.closed or not self.is_active:
            return
        if self.leaving or (self.table.is_over and not self.summary_open and self.summary_seen):
            self.closed = True
            self.app.pop_screen()
            if self.table.is_over and self.session.finished_id is not None:
                self.app.notify(f"{self.game.title}: game over, recorded as finished game "
                                f"#{self.session.finished_id} (S: statistics).")
            elif not self.table.is_over:
                self.app.notify(f"Your {self.game.title} game is saved: choose it in the menu to resume it.")
            return
        if self.replay_wanted:
            self.replay_wanted = False
            self._replay(just_finished=True)
        self.refresh_view()
        self.advance()

    # -- the flow of play -----------------------------------------------------------------
    def advance(self) -> None:
        """Let the game go on: wait for the human, or have the computer choose a move."""
        if not self.is_active or self.busy or self.summary_open:
            return
        if self.pending is not None:
            generation, seat, action = self.pending
            self.pending = None
            if generation == self.generation:
                self.play(action, seat)
                return
        table = self.table
        if table.is_over:
            return
        if self._offer_replay():
            return
        seat = table.to_move
        if seat is None:
            return
        if seat == self.human and not self.demo:
            if not self.was_my_turn:
                self.was_my_turn = True
                self.parlour.ring()
            self.refresh_view()
            return
        self.was_my_turn = False
        if self.timer is not None:
            return
        delay = self.settings.delay
        if delay > 0:
            self.timer = self.set_timer(delay, self._think)
        else:
            self._think()

    def _think(self) -> None:
        self.timer = None
        if not self.is_active or self.busy or self.summary_open or self.table.is_over:
            return
        seat = self.table.to_move
        if seat is None or (seat == self.human and not self.demo):
            return
        self._start_worker("computer", seat)

    def _start_worker(self, name: str, seat: int) -> None:
        table = self.table
        generation = self.generation
        choose = (lambda: table.hint(seat)) if seat == self.human else table.bot_choice
        self.refresh_view()  # the last look at the state before the worker reads it
        self.busy = True
        self._show_seats(*self.snapshot()[:2])
        self._show_prompt()
        self.run_worker(lambda: (generation, seat, choose()), name=name, thread=True, exit_on_error=False,
                        group="choices")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "choices" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR,
                                                           WorkerState.CANCELLED):
            return
        self.busy = False
        if event.state == WorkerState.ERROR:
            self.say(f"The computer could not choose a move: {worker.error}", error=True)
            self.refresh_view()
            return
        if event.state == WorkerState.CANCELLED or worker.result is None:
            return
        generation, seat, action = worker.result
        if generation != self.generation or seat != self.table.to_move:
            self.advance()
            return
        if worker.name == "computer" and seat == self.human and not self.demo:
            self.advance()  # demo mode was switched off while the computer was thinking for you
            return
        if not self.is_active or self.summary_open:
            self.pending = (generation, seat, action)
            return
        self.play(action, seat)

    def play(self, action: str, seat: int) -> bool:
        """Make ``action`` for ``seat`` at the table; False (and the engine's reason shown) if refused."""
        try:
            events_ = self.table.play(action, seat)
        except IllegalAction as exc:
            self.say(str(exc), error=True)
            self.parlour.ring()
            return False
        except NotYourTurn as exc:
            self.say(str(exc), error=True)
            return False
        self.generation += 1
        if seat == self.human:
            self.message = ""
        self.was_my_turn = False
        summaries = self.show_events(events_, action)
        self.refresh_view()
        if summaries:
            self.show_summary(summaries[-1], events_)
        else:
            self.advance()
        return True

    def show_events(self, events_: list[Event], action: str) -> list[dict[str, Any]]:
        summaries = []
        n = self.game.num_players
        for event in events_:
            if event.kind == "action" and event.seat == self.human and event.data.get("private"):
                self.log_line(f"{self.names[self.human]} (you) chooses {action}, face down.")
                continue
            for line in narrate(event, self.game.name, n, self.human):
                self.log_line(line)
            if event.kind == "deal_scored":
                summaries.append(event.data)
                joke = getattr(self.lines, "joke", None)
                if joke is not None and self.settings.jokes and self.joke_rng.random() < 0.5:
                    self.log_line(f'Computer: "{joke(self.joke_rng)}"')
            elif event.kind == "game_over":
                game_id = self.session.finish(demo=self.demo)
                self.log_line(f"Saved as finished game #{game_id}.")
            elif event.kind == "deal":
                self.cursor = None
        return summaries

    def show_summary(self, summary: dict[str, Any], events_: list[Event]) -> None:
        n = self.game.num_players
        lines = narrate(Event("deal_scored", None, summary), self.game.name, n, self.human)[1:]
        names = [f"{name} (you)" if seat == self.human else name for seat, name in enumerate(self.names)]
        game_over = self.table.is_over
        if game_over:
            for event in events_:
                if event.kind == "game_over":
                    lines += [""] + narrate(event, self.game.name, n, self.human)
        else:
            totals = ", ".join(f"{names[s]} {v}" for s, v in enumerate(self.table.state.scores))
            lines.append(f"Scores now: {totals}")
        self.parlour.ring()
        title = f"Deal {summary.get('deal', len(self.table.state.deals))} over"
        if game_over:
            title += " — game over"
        pause = self.parlour.summary_pause if self.demo else None
        self.summary_open = True
        self.app.push_screen(DealSummary(title, lines, game_over=game_over, four_colour=self.settings.four_colour,
                                         auto_close=pause), self._summary_closed)

    def _summary_closed(self, result: str | None) -> None:
        self.summary_open = False
        if result == QUIT:
            self.leaving = True
        elif result == REPLAY:
            self.replay_wanted = True
        self.summary_seen = True
        self.resume()

    def _offer_replay(self) -> bool:
        """At the start of a deal, ask whether to replay the previous one (the replay option)."""
        state = self.table.state
        if not (self.replay_prompt and not self.demo and state.can_replay_deal):
            return False
        deal = len(state.deals)
        if deal in self.asked_replay:
            return False
        self.asked_replay.add(deal)

        def answered(yes: bool | None) -> None:
            if yes:
                self.replay_wanted = True
            self.resume()

        self.app.push_screen(Question("Replay the previous deal with the same cards?"), answered)
        return True

    def _replay(self, just_finished: bool = False) -> bool:
        state = self.table.state
        if not state.can_replay_deal:
            return False
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.asked_replay.add(len(state.deals))
        events_ = self.table.replay_deal()
        self.generation += 1
        self.cursor = None
        self.was_my_turn = False
        for event in events_:
            for line in narrate(event, self.game.name, self.game.num_players, self.human):
                self.log_line(line)
        self.say("Replaying the deal just finished." if just_finished else "Replaying the previous deal.")
        return True

    # -- what is on screen ------------------------------------------------------------------
    def log_line(self, line: str) -> None:
        self.query_one("#log", RichLog).write(pretty_line(line, self.settings.four_colour))

    def say(self, text: str, error: bool = False) -> None:
        self.message = text
        self.message_is_error = error
        self._show_prompt()

    def my_turn(self) -> bool:
        return self.table.to_move == self.human and not self.demo and not self.table.is_over

    def snapshot(self) -> tuple[dict[str, Any], list[int], list[str]]:
        """The human's view, every seat's number of cards and the deal's pack.

        Why cached: while a worker thread is choosing a move it reads the state, so the
        screen is redrawn from the last snapshot instead of reading the state beside it.
        """
        if self._snapshot is None or not self.busy:
            state = self.table.state
            counts = [len(state.view(seat).get("hand") or []) for seat in range(self.game.num_players)]
            self._snapshot = (self.table.view(self.human), counts, state.current_pack())
        return self._snapshot

    def ordered_hand(self, view: dict[str, Any], pack: list[str]) -> list[str]:
        hand = list(view.get("hand") or [])
        arranged = self.arrival.arrange(hand, pack, (view.get("deal_number"), tuple(pack)))
        return hand if self.settings.sort_hand else arranged

    def refresh_view(self) -> None:
        if not self.is_mounted:
            return
        view, counts, pack = self.snapshot()
        four = self.settings.four_colour
        self.hand = self.ordered_hand(view, pack)
        legal = list(view.get("legal_actions") or []) if self.my_turn() else []
        in_hand = set(self.hand)
        self.card_choices = [a for a in legal if a in in_hand]
        self.buttons = [a for a in legal if a not in in_hand]
        reserved = {card_key(i) for i in range(len(self.hand))} if self.card_choices else set()
        self.button_keys = assign_keys(self.buttons, reserved)
        if self.card_choices:
            if self.cursor is None or not 0 <= self.cursor < len(self.hand) \
                    or self.hand[self.cursor] not in self.card_choices:
                self.cursor = self.hand.index(self.card_choices[0])
        elif self.cursor is not None and self.cursor >= len(self.hand):
            self.cursor = None
        if self.buttons and not self.card_choices:
            if self.button_cursor is None or self.button_cursor >= len(self.buttons):
                self.button_cursor = 0
        else:
            self.button_cursor = None

        self._show_title(view)
        self._show_seats(view, counts)
        self._show_trick(view)
        self._show_info(view)
        hand_widget = self.query_one(HandView)
        playable = set(self.card_choices) if legal else None
        caption = ""
        if not self.hand:
            caption = "(your hand is empty)"
        hand_widget.show(self.hand, playable, self.cursor if self.card_choices else None, four, caption)
        self.query_one(ActionBar).show(self.buttons, self.button_keys, self.button_cursor)
        self._show_prompt()

    def _show_title(self, view: dict[str, Any]) -> None:
        title = self.game.title or self.game.name
        left = f"{title} · deal {view.get('deal_number', 1)} · {self.names[self.human]} (you) vs {self.session.level}"
        flags = [f"delay {self.settings.delay:g}s", "sound on" if self.settings.sound else "sound off"]
        if not self.settings.sort_hand:
            flags.append("unsorted")
        if self.table.open_hands:
            flags.append("open hands")
        if self.demo:
            flags.append("DEMO (F2)")
        text = Text(left, style="bold")
        text.append("  ·  " + " · ".join(flags), style="italic")
        self.query_one("#title", Static).update(text)

    def _show_seats(self, view: dict[str, Any], counts: list[int]) -> None:
        n = self.game.num_players
        open_hands = view.get("open_hands") or {}
        for rel in range(1, n):
            seat = (self.human + rel) % n
            panel = self.query_one(f"#seat-{seat}", SeatPanel)
            count = counts[seat]
            tags = []
            if view.get("dealer") == seat and self.shows_dealer:
                tags.append("dealer")
            to_move = view.get("current_player") == seat
            if to_move:
                tags.append("thinking…" if self.busy else "to play")
            faces = open_hands.get(str(seat))
            panel.show(self.names[seat], tags, count, list(faces) if faces is not None else None, to_move,
                       self.settings.four_colour)

    def _show_trick(self, view: dict[str, Any]) -> None:
        trick = view.get("trick") or []
        last = view.get("last_trick")
        names = list(self.names)
        names[self.human] = f"{names[self.human]} (you)"
        widget = self.query_one(TrickView)
        if trick or not last:
            widget.show(trick, names, self.human, "Trick", self.settings.four_colour)
        else:
            winner = last.get("winner")
            won = f"won by {names[winner]}" if winner is not None else "nobody won it"
            widget.show(last.get("cards") or [], names, self.human, f"Last trick — {won}",
                        self.settings.four_colour, dim=True)

    def _show_info(self, view: dict[str, Any]) -> None:
        names = [f"{name} (you)" if seat == self.human else name for seat, name in enumerate(self.names)]
        scores = view.get("scores") or []
        width = max(len(name) for name in names)
        lines = [f"{names[s]:<{width}}  {v:>5}" for s, v in enumerate(scores)]
        if self.shows_dealer:
            lines.append(f"Dealer: {names[view['dealer']]}")
        if self.lines is not None and hasattr(self.lines, "describe"):
            try:
                lines += list(self.lines.describe(view))
            except Exception as exc:  # a describe() bug must not stop the game being played
                lines.append(f"(cannot describe this position: {type(exc).__name__}: {exc})")
        four = self.settings.four_colour
        self.query_one("#info", Static).update(Text("\n").join(pretty_line(line, four) for line in lines))

    def _show_prompt(self) -> None:
        if not self.is_mounted:
            return
        widget = self.query_one("#prompt", Static)
        widget.set_class(bool(self.message) and self.message_is_error, "-error")
        if self.message:
            widget.update(pretty_line(self.message, self.settings.four_colour))
            return
        table = self.table
        if table.is_over:
            text = "The game is over. F7: back to the menu."
        elif self.demo:
            text = "Demo: the computer plays every seat. F2 takes your seat back."
        elif self.my_turn():
            if self.busy:
                text = "The computer is choosing for you…"
            elif self.card_choices and self.buttons:
                text = "Your turn: a card (its key, ← → Enter) or a choice above · . computer's pick"
            elif self.card_choices:
                text = "Your turn: a card (its key, or ← → Enter) · . lets the computer pick"
            else:
                text = "Your turn: a choice (its key, ← → Enter, or click) · . lets the computer pick"
        else:
            seat = table.to_move
            name = self.names[seat] if seat is not None else "?"
            text = f"{name} is thinking…" if self.busy else f"{name} to play…"
        widget.update(text)

    # -- input ---------------------------------------------------------------------------
    def _can_act(self) -> bool:
        if self.table.is_over:
            self.say("The game is over.")
            return False
        if self.demo:
            self.say("Demo mode: the computer is playing your seat. F2 takes it back.")
            return False
        if self.busy and self.table.to_move == self.human:
            self.say("Wait: the computer is choosing your move.")
            return False
        if self.busy or self.table.to_move != self.human:
            seat = self.table.to_move
            self.say(f"Wait: it is {self.names[seat]}'s turn." if seat is not None else "Wait.")
            return False
        return True

    def choose(self, action: str) -> None:
        if self._can_act():
            self.play(action, self.human)

    def pick_card(self, index: int) -> None:
        if 0 <= index < len(self.hand) and self._can_act():
            self.cursor = index
            self.play(self.hand[index], self.human)

    def on_key(self, event: events.Key) -> None:
        key = event.key
        char = event.character or ""
        handled = True
        if key in ("left", "right"):
            step = -1 if key == "left" else 1
            if self.card_choices and self.hand:
                self.cursor = ((self.cursor or 0) + step) % len(self.hand)
            elif self.buttons:
                self.button_cursor = ((self.button_cursor or 0) + step) % len(self.buttons)
            self.refresh_view()
        elif key in ("enter", "space", "up"):
            if self.card_choices and self.cursor is not None:
                self.pick_card(self.cursor)
            elif self.buttons and self.button_cursor is not None:
                self.choose(self.buttons[self.button_cursor])
            else:
                self._can_act()
        elif char == ".":
            if self._can_act():
                self._start_worker("hint", self.human)
        elif char == "?":
            self.app.push_screen(Note("Keys at the table", KEY_HELP))
        elif char.lower() == "l":
            self.show_last_trick()
        elif char and char.lower() in self.button_keys and (not self.card_choices
                                                            or card_index(char, len(self.hand)) is None):
            self.choose(self.buttons[self.button_keys.index(char.lower())])
        elif char and card_index(char, len(self.hand)) is not None:
            self.pick_card(card_index(char, len(self.hand)) or 0)
        else:
            handled = False
        if handled:
            event.stop()
            event.prevent_default()

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        self.pick_card(message.index)

    def on_action_bar_chosen(self, message: ActionBar.Chosen) -> None:
        if 0 <= message.index < len(self.buttons):
            self.button_cursor = message.index
            self.choose(self.buttons[message.index])

    def show_last_trick(self) -> None:
        view = self.snapshot()[0]
        last = view.get("last_trick")
        if not last:
            self.say("No trick has been played yet.")
            return
        line = narrate(Event("trick", last.get("winner"), last), self.game.name, self.game.num_players,
                       self.human)[0]
        self.app.push_screen(Note("Last trick", pretty_line(line, self.settings.four_colour)))

    # -- hot keys -------------------------------------------------------------------------
    def action_sound(self) -> None:
        self.settings.sound = not self.settings.sound
        self.settings.save(self.parlour.store)
        self.say("Sound on: the terminal bell rings on events." if self.settings.sound else "Sound off.")
        self.refresh_view()

    def restart_timer(self) -> None:
        """A computer move waiting on the old delay (or for a seat given back) is rescheduled."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
            self.advance()

    def action_demo(self) -> None:
        self.demo = not self.demo
        self.was_my_turn = False
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.say("Demo mode: the computer plays every seat. F2 takes your seat back." if self.demo
                 else "Your seat is yours again.")
        self.refresh_view()
        self.advance()

    def action_options(self) -> None:
        current = {"open_hands": self.table.open_hands, "replay_prompt": self.replay_prompt}

        def done(saved: bool | None) -> None:
            if saved:
                from ..settings import game_preferences

                _, table_options = game_preferences(self.parlour.store, self.game)
                self.session.set_open_hands(table_options["open_hands"])
                self.replay_prompt = table_options["replay_prompt"]
                self.say("Options saved. Game options apply to your next new game.")

        self.app.push_screen(OptionsScreen(self.parlour.store, self.game, self.settings, in_game=True,
                                           current=current), done)

    def action_sort(self) -> None:
        self.settings.sort_hand = not self.settings.sort_hand
        self.settings.save(self.parlour.store)
        self.cursor = None
        self.say("Your hand is sorted." if self.settings.sort_hand else
                 "Your hand stays in the order the cards arrived.")
        self.refresh_view()

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.game.name, self.game.title))

    def action_replay(self) -> None:
        state = self.table.state
        if self.busy:
            self.say("Wait for the computer to finish its move, then press F6 again.")
            return
        if state.can_replay_deal:
            self._replay()
            self.refresh_view()
            self.advance()
        elif not state.deals:
            self.say("There is no earlier deal to replay yet: F6 replays a deal at the start of the next one.",
                     error=True)
        else:
            self.say("A deal can be replayed only at its start, before anyone has acted. Press F6 on the deal "
                     "summary to replay the deal just finished.", error=True)

    def action_leave(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.app.pop_screen()
        if not self.table.is_over:
            self.app.notify(f"Your {self.game.title} game is saved: choose it in the menu to resume it.")

    def action_slower(self) -> None:
        self.settings.delay = slower(self.settings.delay)
        self.settings.save(self.parlour.store)
        self.refresh_view()
        self.restart_timer()

    def action_faster(self) -> None:
        self.settings.delay = faster(self.settings.delay)
        self.settings.save(self.parlour.store)
        self.refresh_view()
        self.restart_timer()
