"""The card table: one game between you and the computer, driven through ``Table``.

What happens here is only interface work: asking whose turn it is, showing the human's
view, turning a key or a click into one of ``legal_actions``, letting computer players
think in a worker thread, narrating table events, and showing deal summaries.  Whether a
card may be played, what a deal scores and every sentence about the deal come from the
engine (views, ``legal_actions``, ``IllegalAction`` messages, deal summaries) and the
shared text layer (``parlour.text``: ``describe``/``narrate``), as in line mode.

The screen's flow is one reactive ``mode`` (``ready``, ``thinking``, ``summary``, ``leaving``,
``closed``); ``watch_mode`` redraws what depends on it.  Drawing is done by small widgets
(``TitleBar``, ``SeatPanel``, ``TrickView``, ``InfoPanel``, ``PromptLine``, ``ActionBar``,
``HandView``); the screen only decides what they show.  It never calls the app: it posts
``messages.Ring`` and is given the store and the settings.

Why every state change happens on the UI thread: a worker (``choose_move``, a thread worker)
only *chooses* (``bot_choice`` or ``hint``, which read a view); the choice comes back as a
worker event and is played here.  While a worker thinks (mode ``thinking``), nothing else may
change the state, so keys that would (playing, F6) wait for it; a choice that arrives after
the game moved on (a replayed deal, demo mode switched off) is dropped by its generation number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from textual import events, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer
from textual.worker import Worker, WorkerState

from ...cards import pretty_action
from ...engine import IllegalAction, bot_rng
from ...keyseq import KeySequence
from ...store import Store
from ...table import CannotUndo, Event, NotYourTurn, seat_names
from ...text import (
    CHOOSE_AGAIN,
    TABLE_LETTER_FUNCTIONS,
    actions_for_key,
    deal_summary,
    describe,
    fkeys,
    joker,
    keys_line,
    last_trick_line,
    narrate,
    plural,
    prompt,
    refuse_action,
    refuse_card,
    refuse_key,
    retell,
    seat_labels,
    standing_line,
    table_letter,
    yes_no,
)
from ...views import View
from ..arrival import ShownHand
from ..cardtext import pretty_line
from ..choices import arrange
from ..messages import Ring
from ..session import Session
from ..settings import (
    BACKGROUNDS,
    BORDERS,
    Settings,
    faster,
    game_preferences,
    save_game_preferences,
    slower,
)
from ..widgets.actions import ActionBar
from ..widgets.hand import HandView
from ..widgets.log import AnnouncementLog
from ..widgets.panels import InfoPanel, PromptLine, TitleBar
from ..widgets.seats import SeatsRow
from ..widgets.trick import TrickView
from .dialogs import Note, Question, key_help
from .options import OptionsScreen
from .review import ReviewScreen, ScoreSheetScreen
from .rules import RulesScreen
from .summary import QUIT, REPLAY, DealSummary

#: ``ready``: nothing is running, the game may go on; ``thinking``: a worker is choosing a move;
#: ``summary``: the deal summary is open; ``leaving``: the player asked to leave from the summary;
#: ``closed``: the screen has been popped.
Mode = Literal["ready", "thinking", "summary", "leaving", "closed"]
#: What a worker hands back: what it was for, the generation it saw, the seat and its choice.
Choice = tuple[str, int, int, Any]


class TableScreen(Screen[None]):
    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    TableScreen #middle { height: 1fr; }
    TableScreen #left { width: 1fr; }
    TableScreen #log { height: 1fr; border: round $panel; padding: 0 1; scrollbar-size-vertical: 1; }
    TableScreen > ToastRack { display: none; }
    TableScreen.-narrow InfoPanel { width: 50%; }
    TableScreen.-short InfoPanel { border: none; border-top: round $panel; }
    """
    #: Below 100 columns the game panel takes half the width, below 30 rows it keeps only its top
    #: border (its title): at 80×24 the longest Six-Bid panel then fits whole.  Breakpoints, not
    #: styles set on a resize, so a larger terminal gets the wide layout back by itself.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    # No toast at the table: it would cover the hand (the app sends notices to the status line instead).
    #: The F-keys are the game's own (its ``FKEYS``), the table's keys the same in every game
    #: (``TABLE_ACTIONS``): both bound per screen in ``__init__``, from the game's text module.
    BINDINGS = []  # Textual's own ClassVar type; filled per screen
    #: ``FUNCTIONS`` name -> (the screen's action, the footer's word: short, so nine F-keys fit 80 columns).
    FKEY_ACTIONS = {"sound": ("switch('sound')", "Sound"), "demo": ("demo", "Demo"),
                    "sort": ("switch('sort_hand')", "Sort"), "options": ("options", "Options"),
                    "replay_mode": ("replay_mode", "Replay ask"), "rules": ("rules", "Rules"),
                    "replay": ("replay", "Replay"), "quit": ("leave", "Quit"),
                    "slower": ("delay(1)", "Slow"), "faster": ("delay(-1)", "Fast"),
                    "background": ("cycle('background')", "Colour"), "border": ("cycle('border')", "Border"),
                    "jokes": ("switch('jokes')", "Jokes")}
    #: The table's own keys (``parlour.text.TABLE_KEYS``) -> the screen's action; a table letter is
    #: bound in upper case always, in lower case where the game does not use it (``table_letter``).
    TABLE_ACTIONS = {**TABLE_LETTER_FUNCTIONS, "full_stop": "hint", "question_mark": "help",
                     "equals_sign": "switch('sort_hand')", "plus": "delay(-1)", "minus": "delay(1)"}
    #: The settings a key switches on and off, and what the table says after (on, off).
    TOGGLES = {"sound": ("Sound on: the terminal bell rings on events.", "Sound off."),
               "sort_hand": ("Your hand is sorted.", "Your hand stays in the order the cards arrived."),
               "jokes": ("Jokes on: the computer talks between deals.", "Jokes off.")}

    mode: reactive[Mode] = reactive[Mode]("ready", init=False)

    def __init__(self, session: Session, store: Store, settings: Settings, *, replay_prompt: bool = False,
                 summary_pause: float = 3.0) -> None:
        super().__init__()
        game = session.game.name
        for fkey, function in fkeys(game).items():
            action, word = self.FKEY_ACTIONS[function]
            self._bindings.bind(fkey, action, word)
        for key, action in self.TABLE_ACTIONS.items():
            if len(key) == 1:  # a table letter: upper case always, lower case where the game does not use it
                key = key.upper() + ("," + key if table_letter(game, key) else "")
            self._bindings.bind(key, action, show=False)  # the footer shows the F-keys only
        self.session = session
        self.store = store
        self.settings = settings
        self.summary_pause = summary_pause
        self.table = session.table
        self.game = session.game
        self.human = session.human
        self.names = list(seat_names(self.game.num_players))
        self.replay_prompt = replay_prompt
        self.demo = False
        self.generation = 0  # bumped by every change of the state
        self.timer: Timer | None = None
        self.pending: tuple[int, int, str] | None = None  # a choice that came back while a dialog was open
        self.summary_seen = False
        self.replay_wanted = False
        self.asked_replay: set[int] = set()
        self.joke_rng = bot_rng(self.table.state.seed, len(self.table.state.actions))  # never a deal's generator
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
        self.hand_keys: list[str] = []
        self.shown = ShownHand(self.game.name)  # the hand as shown and its keys (from the record on mount)
        self.hint_shown: tuple[int, str] | None = None  # (generation, action) of a hint on screen
        self.keyseq = KeySequence(self.game.name)  # a choice made with several keys (``x a s``, ``b 5``)
        self._snapshot: tuple[View, list[str]] | None = None

    @property
    def busy(self) -> bool:
        """A worker is choosing a move."""
        return self.mode == "thinking"

    @property
    def summary_open(self) -> bool:
        return self.mode == "summary"

    @property
    def shows_dealer(self) -> bool:
        """Whether the game has a dealer to show (its ``HAS_DEALER``: a game without one keeps one for the API)."""
        return self.game.HAS_DEALER

    def ring(self) -> None:
        self.post_message(Ring())

    def watch_mode(self, old: Mode, new: Mode) -> None:
        """What shows the mode: the seat to move ("thinking…" or "to play") and the prompt."""
        if not self.is_mounted or new == "closed":
            return
        self._show_seats(self.snapshot()[0])
        self._show_prompt()

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TitleBar("", id="title")
        yield SeatsRow(self.game.num_players, self.human, id="seats")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield TrickView(id="trick")
                yield AnnouncementLog(id="log")
            yield InfoPanel("", id="info")
        yield PromptLine("", id="prompt")
        yield ActionBar(id="actions")
        yield HandView(id="hand")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        log = self.query_one("#log", AnnouncementLog)
        log.border_title = "Announcements"
        log.can_focus = False  # keys belong to the table, never to a scrolling log
        for notice in self.session.notices:
            self.log_line(notice)
        state = self.table.state
        dealer = f": {self.names[state.dealer]} deals" if self.shows_dealer else ""
        if not state.deals:  # the retold record heads every later deal itself, never the first
            self.log_line(f"--- Deal 1{dealer}. ---" + ("" if state.actions else " (? lists the keys)"))
        if state.actions:  # a resumed game: its announcements so far, retold from the record
            try:
                for line in retell(state, self.human):
                    self.log_line(line)
            except Exception as exc:  # an old record that cannot be retold must not stop the game
                self.log_line(f"(the earlier announcements cannot be shown: {exc})")
            self.log_line("--- Resumed: play goes on from here. --- (? lists the keys)")
            self.rebind_from_record()
        self.refresh_view()

    def rebind_from_record(self) -> None:
        """The hand's order and keys as the record's current deal gives them (a resume, an undo)."""
        try:
            self.shown = ShownHand.from_record(self.table.state, self.human, self.settings.sort_hand)
        except Exception as exc:  # an old record that cannot be walked keys the hand afresh
            self.log_line(f"(the keys of your hand are bound afresh: {exc})")

    def on_unmount(self) -> None:
        """Leaving the table (mid-game too) releases the game's lock, so another terminal may open it."""
        self.session.close()

    def on_screen_resume(self) -> None:
        self.resume()

    def resume(self) -> None:
        """Carry on after a dialog closed (safe to call twice: the dialog's answer and the resume event)."""
        if self.mode == "closed" or not self.is_active:
            return
        if self.mode == "leaving" or (self.table.is_over and not self.summary_open and self.summary_seen):
            self.mode = "closed"
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
            generation, chooser, action = self.pending
            self.pending = None
            if generation == self.generation:
                self.play(action, chooser)
                return
        table = self.table
        if table.is_over:
            return
        if self._offer_replay():
            return
        seat = table.to_move
        if seat is None:
            return
        auto = table.auto_action()
        if auto is not None:  # the human's only answer, made without asking (the game's AUTO_ACTIONS)
            self.play(auto, seat)
            return
        if seat == self.human and not self.demo:
            if not self.was_my_turn:
                self.was_my_turn = True
                self.ring()
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

    def _start_worker(self, purpose: str, seat: int) -> None:
        table = self.table
        choose = (lambda: table.suggest(seat)) if seat == self.human else table.bot_choice
        self.refresh_view()  # the last look at the state before the worker reads it
        self.mode = "thinking"
        self.choose_move(purpose, self.generation, seat, choose)

    @work(thread=True, exclusive=True, group="choices", exit_on_error=False)
    def choose_move(self, purpose: str, generation: int, seat: int, choose: Callable[[], Any]) -> Choice:
        """Run in a thread: only *choose* (reading a view); the choice is played on the UI thread."""
        return purpose, generation, seat, choose()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "choices" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR,
                                                           WorkerState.CANCELLED):
            return
        if self.mode == "thinking":
            self.mode = "ready"
        if event.state == WorkerState.ERROR:
            self.say(f"The computer could not choose a move: {worker.error}", error=True)
            self.refresh_view()
            return
        if event.state == WorkerState.CANCELLED or worker.result is None:
            return
        purpose, generation, seat, action = worker.result
        if generation != self.generation or seat != self.table.to_move:
            self.advance()
            return
        if isinstance(action, tuple):  # a hint for the human: (action, reason or None)
            action, reason = action
            if purpose == "hint" and not self.demo:
                self.show_hint(action, reason)
                return
        if purpose == "computer" and seat == self.human and not self.demo:
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
            self.ring()
            return False
        except NotYourTurn as exc:
            self.say(str(exc), error=True)
            return False
        self.generation += 1
        self.hint_shown = None
        if self.session.reviews is not None:
            self.session.reviews.flush()  # the reviews worked out meanwhile, kept in the store (this thread's)
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
        joke = joker(self.game.name) if self.settings.jokes else None
        for event in events_:
            own = action if event.kind == "action" and event.seat == self.human and event.data.get("private") else None
            for line in narrate(event, self.game.name, n, self.human, own=own):
                self.log_line(line)
            if event.kind == "deal_scored":
                summaries.append(event.data)
                self.start_review(int(event.data.get("deal") or len(self.table.state.deals)))
                if joke is not None and self.joke_rng.random() < 0.5:
                    self.log_line(f'Computer: "{joke(self.joke_rng)}"')
            elif event.kind == "game_over":
                game_id = self.session.finish(demo=self.demo)
                self.log_line(f"Saved as finished game #{game_id}.")
            elif event.kind == "deal":
                self.cursor = None
        return summaries

    def show_summary(self, summary: dict[str, Any], events_: list[Event]) -> None:
        n = self.game.num_players
        lines = deal_summary(self.game.name, summary, n, self.human)
        names = seat_labels(n, self.human)
        game_over = self.table.is_over
        if game_over:
            for event in events_:
                if event.kind == "game_over":
                    lines += [""] + narrate(event, self.game.name, n, self.human)
        else:
            standing = standing_line(self.game.name, summary, self.table.state.scores, names)
            if standing:
                lines.append(standing)
        self.ring()
        title = f"Deal {summary.get('deal', len(self.table.state.deals))} over"
        if game_over:
            title += " — game over"
        pause = self.summary_pause if self.demo else None
        self.mode = "summary"
        deal = int(summary.get("deal", len(self.table.state.deals)))
        self.app.push_screen(DealSummary(title, lines, game_over=game_over, four_colour=self.settings.four_colour,
                                         auto_close=pause, review=lambda: self.open_review(deal)),
                             self._summary_closed)

    # -- reviews ----------------------------------------------------------------------------
    def start_review(self, deal: int) -> None:
        """Work out the deal's review on a worker thread now, while the player reads the summary
        (not counted in the statistics when the computer played the seat: demo mode)."""
        reviews = self.session.reviews
        if reviews is not None:
            reviews.start(self.table.state.record(), deal, counted=not self.demo)

    def open_review(self, deal: int) -> None:
        """``V`` (the deal summary, the score sheet): deal ``deal``'s review, as soon as it is ready."""
        reviews = self.session.reviews
        if reviews is not None:
            self.app.push_screen(ReviewScreen(reviews, self.table.state.record(), deal,
                                              four_colour=self.settings.four_colour), lambda _: reviews.flush())

    def _summary_closed(self, result: str | None) -> None:
        self.mode = "leaving" if result == QUIT else "ready"
        if result == REPLAY:
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
        if state.is_over or not state.deals:
            return False
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.asked_replay.add(len(state.deals))
        try:
            events_ = self.table.replay_deal()
        except CannotUndo as exc:
            self.say(f"Cannot replay: {exc}.", error=True)
            return False
        self.hint_shown = None
        self.generation += 1
        self.cursor = None
        self.was_my_turn = False
        for event in events_:
            if event.kind == "undo":
                self.log_line(f"--- The deal's {plural(event.data['count'], 'move')} so far are taken back. ---")
                continue
            for line in narrate(event, self.game.name, self.game.num_players, self.human):
                self.log_line(line)
        self.say("Replaying the deal just finished." if just_finished else "Replaying the previous deal.")
        return True

    # -- what is on screen ------------------------------------------------------------------
    def log_line(self, line: str) -> None:
        self.query_one("#log", AnnouncementLog).say(pretty_line(line, self.settings.four_colour))

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the prompt line until the player next acts."""
        self.message = text
        self.message_is_error = error
        self._show_prompt()

    def my_turn(self) -> bool:
        return self.table.to_move == self.human and not self.demo and not self.table.is_over

    def snapshot(self) -> tuple[View, list[str]]:
        """The human's view and the deal's pack.

        Why cached: while a worker thread is choosing a move it reads the state, so the
        screen is redrawn from the last snapshot instead of reading the state beside it.
        """
        if self._snapshot is None or not self.busy:
            self._snapshot = (self.table.view(self.human), self.table.state.current_pack())
        return self._snapshot

    def refresh_view(self) -> None:
        if not self.is_mounted:
            return
        view, pack = self.snapshot()
        four = self.settings.four_colour
        legal = list(view.get("legal_actions") or []) if self.my_turn() else []
        hand, bound = self.shown.show(dict(view), pack, self.settings.sort_hand)
        if self.shown.rebound:
            self.log_line(keys_line([bound[card] for card in hand]))
        choices = arrange(self.game.name, hand, legal, self.cursor, self.button_cursor, bound)
        self.hand, self.card_choices, self.buttons = choices.hand, choices.cards, choices.buttons
        self.hand_keys = choices.hand_keys
        self.button_keys, self.cursor, self.button_cursor = choices.button_keys, choices.cursor, choices.button_cursor

        self._show_title(view)
        self._show_seats(view)
        self._show_trick(view)
        self._show_info(view)
        hand_widget = self.query_one(HandView)
        playable = set(self.card_choices) if legal else None
        caption = ""
        if not self.hand:
            caption = "(your hand is empty)"
        hand_widget.show(self.hand, playable, self.cursor if self.card_choices else None, four, caption,
                         self.hand_keys)
        self.query_one(ActionBar).show(self.buttons, self.button_keys, self.button_cursor, self.game.name)
        self._show_prompt()

    def _show_title(self, view: View) -> None:
        title = self.game.title or self.game.name
        you = f"{self.names[self.human]} (you)"
        deal = len(self.table.state.deals) if self.table.is_over else view.get("deal_number", 1)
        heading = f"{title} · deal {deal} · {you} vs {self.session.level}"
        flags = [f"delay {self.settings.delay:g}s", "sound on" if self.settings.sound else "sound off"]
        if not self.settings.sort_hand:
            flags.append("unsorted")
        if self.table.open_hands:
            flags.append("open hands")
        if self.demo:
            flags.append("DEMO (F2)")
        self.query_one(TitleBar).show(heading, flags)

    def _show_seats(self, view: View) -> None:
        self.query_one(SeatsRow).show(view, self.names, busy=self.busy, shows_dealer=self.shows_dealer,
                                      four_colour=self.settings.four_colour)

    def _show_trick(self, view: View) -> None:
        names = seat_labels(self.game.num_players, self.human)
        self.query_one(TrickView).show_table(view, names, self.human, self.settings.four_colour)

    def _show_info(self, view: View) -> None:
        names = seat_labels(self.game.num_players, self.human)
        scores = view.get("scores") or []
        width = max(len(name) for name in names)
        dealer = view["dealer"] if self.shows_dealer else None  # marked on its score line: one line less
        lines = [f"{names[s]:<{width}}  {v:>5}" + ("  dealer" if s == dealer else "") for s, v in enumerate(scores)]
        try:
            lines += describe(view)
        except Exception as exc:  # a describe() bug must not stop the game being played
            lines.append(f"(cannot describe this position: {type(exc).__name__}: {exc})")
        self.query_one(InfoPanel).show(lines, self.settings.four_colour)

    def _show_prompt(self) -> None:
        if not self.is_mounted:
            return
        widget = self.query_one(PromptLine)
        if self.message:
            widget.show(self.message, message=True, error=self.message_is_error,
                        four_colour=self.settings.four_colour)
            return
        table = self.table
        if table.is_over:
            text = "The game is over. F7: back to the menu."
        elif self.demo:
            text = "Demo: the computer plays every seat. F2 takes your seat back."
        elif self.my_turn():
            if self.busy:
                text = "The computer is choosing for you…"
            else:
                view = self.snapshot()[0]
                asked = prompt(view, list(view.get("legal_actions") or []), self.hand)
                how = "its key or ← → Enter" if self.card_choices else "its key, ← → Enter or a click"
                yes, no = yes_no(self.game.name, self.buttons)
                if yes and no and not self.card_choices:
                    how = "Y/↑ yes, N/↓ no"
                text = f"{asked} ({how}) · . hint · U undo"
        else:
            seat = table.to_move
            name = self.names[seat] if seat is not None else "?"
            text = f"{name} is thinking…" if self.busy else f"{name} to play…"
        widget.show(text, message=False, error=False, four_colour=self.settings.four_colour)

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
        """Keys mean the same all deal long: card keys are bound to cards, choice keys are the
        game's (``CHOICE_KEYS``); the table's own keys and the F-keys are bindings (built in
        ``__init__``), left to them here; a key that does nothing now says why."""
        key, char = event.key, event.character or ""
        if self.keyseq.typed:
            if key == "escape" or (char and char.isprintable() and not char.isspace()):
                event.stop()
                event.prevent_default()
                self.type_key(char if key != "escape" else "")
                return
            self.keyseq.clear()  # any other key (an arrow, Enter) leaves the choice half-typed
        if key in self._bindings.key_to_bindings:
            return
        if self.move_key(key) or self.choice_key(char):
            event.stop()
            event.prevent_default()

    def move_key(self, key: str) -> bool:
        """← → move the highlight, Enter (Space, ↑) makes it; ↑ ↓ answer yes/no where one is asked."""
        if key in ("left", "right"):
            step = -1 if key == "left" else 1
            if self.card_choices and self.hand:
                self.cursor = ((self.cursor or 0) + step) % len(self.hand)
            elif self.buttons:
                self.button_cursor = ((self.button_cursor or 0) + step) % len(self.buttons)
            self.refresh_view()
        elif key in ("up", "down") and all(yes_no(self.game.name, self.buttons)) and not self.card_choices:
            yes, no = yes_no(self.game.name, self.buttons)
            answer = yes if key == "up" else no
            if answer is not None:
                self.choose(answer)  # ↑ yes, ↓ no, as in the original Le Truc
        elif key in ("enter", "space", "up"):
            if self.hint_shown is not None and self.hint_shown[0] == self.generation:
                self.choose(self.hint_shown[1])
            elif self.card_choices and self.cursor is not None:
                self.pick_card(self.cursor)
            elif self.buttons and self.button_cursor is not None:
                self.choose(self.buttons[self.button_cursor])
            else:
                self._can_act()
        else:
            return False
        return True

    def choice_key(self, char: str) -> bool:
        """A key of the game: the first of several (``b``, ``x``), a choice's, a card's, or refused."""
        game = self.game.name
        if not char or not char.isprintable() or char.isspace():
            return False
        if self.keyseq.starts(char, self.buttons, bool(self.card_choices)) and self._can_act():
            self.type_key(char)  # b then the card's own key, x then a rank and a suit: the same keys all deal
        elif self.buttons and actions_for_key(game, char, self.buttons):
            self.press_choice(actions_for_key(game, char, self.buttons))
        elif (card := self.shown.keys.card_for(char, self.hand)) is not None:
            if card in self.card_choices:
                self.pick_card(self.hand.index(card))
            elif self._can_act():
                self.say(pretty_action(refuse_card(char, card, self.table.state.why_not(card))), error=True)
                self.ring()
        elif self._can_act() or char.lower() in "123456789":
            self.say(refuse_key(game, char), error=True)
        return True

    def type_key(self, char: str) -> None:
        """One key of a choice made with several (``KeySequence``); "" is Esc, which cancels it.

        A card that is no legal choice now is refused with the engine's one-line reason, never
        replaced by another card."""
        bound = {card: key for card, key in zip(self.hand, self.hand_keys, strict=False) if key}
        status, said = self.keyseq.feed(char, bound, self.buttons, self.game.PACK)
        if status == "done" and said in self.buttons:
            self.choose(said)
        elif status == "done":
            self.refuse(said)
        else:
            self.say(said, error=status == "refused")
            if status == "refused":
                self.ring()

    def refuse(self, action: str) -> None:
        """Say in one line why ``action`` is not possible now, asking the engine (nothing is played)."""
        why = self.table.state.why_not(action)
        self.say(pretty_action(refuse_action(action, why)), error=True)
        self.ring()

    def press_choice(self, actions: list[str]) -> None:
        """One choice: make it.  Several of one kind that no further keys tell apart: the key
        moves between them and Enter makes the one under the cursor (a card to call and a card
        played with an announcement have keys of their own: ``KeySequence``)."""
        if len(actions) == 1:
            self.choose(actions[0])
            return
        current = self.buttons[self.button_cursor] if self.button_cursor is not None else None
        if current in actions:
            nxt = actions[(actions.index(current) + 1) % len(actions)]
        else:
            nxt = actions[0]
        if self.card_choices:  # the arrows move in the hand: show the choice as the one Enter makes
            self.hint_shown = (self.generation, nxt)
        self.button_cursor = self.buttons.index(nxt)
        self.refresh_view()
        self.query_one(ActionBar).show(self.buttons, self.button_keys, self.buttons.index(nxt))
        self.say(CHOOSE_AGAIN.format(action=nxt))

    def action_hint(self) -> None:
        """``.``: the suggested move; ``.`` again (or Enter) makes it."""
        if self.hint_shown is not None and self.hint_shown[0] == self.generation:
            self.choose(self.hint_shown[1])
        elif self._can_act():
            self._start_worker("hint", self.human)

    def action_help(self) -> None:
        """``?``: every key of this game's table."""
        self.app.push_screen(Note(f"Keys at the {self.game.title} table", key_help(self.game.name)))

    def show_hint(self, action: str, reason: str | None) -> None:
        """The suggested move, highlighted, with the hint player's reason; ``.`` or Enter plays it."""
        if action in self.hand:
            self.cursor = self.hand.index(action)
        elif action in self.buttons:
            self.button_cursor = self.buttons.index(action)
        self.hint_shown = (self.generation, action)
        self.refresh_view()
        why = f" — {reason}" if reason else ""
        self.say(f"Hint: {action}{why}. Press . again or Enter to play it.")

    def action_undo(self) -> None:
        if self.busy:
            self.say("Wait for the computer to finish its move, then press U again.")
            return
        if self.demo:
            self.say("Demo mode: nothing to take back. F2 takes your seat back.")
            return
        try:
            events_ = self.table.undo(self.human)
        except CannotUndo as exc:
            self.say(f"Cannot undo: {exc}.", error=True)
            return
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.generation += 1
        self.hint_shown = None
        self.was_my_turn = False
        self.rebind_from_record()  # the cards taken back get their keys again, not new ones
        count = events_[0].data["count"]
        self.log_line(f"--- You took back your last move ({plural(count, 'move')} undone). ---")
        self.say("Your last move is taken back: choose again (U undoes more).")
        self.refresh_view()
        self.advance()

    def action_score_sheet(self) -> None:
        """``S``: the score sheet; ← → choose a deal there, ``V`` opens its review."""
        state = self.table.state
        self.app.push_screen(ScoreSheetScreen(f"{self.game.title}: score sheet", list(state.deals),
                                              state.game.num_players, self.human, self.open_review))

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        self.pick_card(message.index)

    def on_action_bar_chosen(self, message: ActionBar.Chosen) -> None:
        if 0 <= message.index < len(self.buttons):
            self.button_cursor = message.index
            self.choose(self.buttons[message.index])

    def action_last_trick(self) -> None:
        view = self.snapshot()[0]
        last = view.get("last_trick")
        if not last:
            self.say("No trick has been played yet.")
            return
        line = last_trick_line(last, self.game.num_players, self.human)
        self.app.push_screen(Note("Last trick", pretty_line(line, self.settings.four_colour)))

    # -- hot keys -------------------------------------------------------------------------
    def change_setting(self, name: str, value: Any, said: str = "") -> None:
        """Change one interface setting, keep it in the store and redraw: every hot key's one way."""
        setattr(self.settings, name, value)
        self.settings.save(self.store)
        if said:
            self.say(said)
        self.refresh_view()

    def action_switch(self, name: str) -> None:
        """Switch a ``TOGGLES`` setting on or off (sound, hand sorting, jokes)."""
        value = not getattr(self.settings, name)
        if name == "sort_hand":
            self.cursor = None  # the cards move (their keys do not: ``CardKeys``)
        on, off = self.TOGGLES[name]
        self.change_setting(name, value, on if value else off)

    def action_cycle(self, name: str) -> None:
        """The next background theme or border style (F9/F10 where the game's original had them)."""
        choices = {"background": BACKGROUNDS, "border": BORDERS}[name]
        value = (getattr(self.settings, name) + 1) % len(choices)
        self.change_setting(name, value, f"{'Colours' if name == 'background' else 'Borders'}: {choices[value]}.")
        self.apply_colours()

    def action_delay(self, step: int) -> None:
        """The computer one step slower (1) or faster (-1); a move waiting on the old delay is rescheduled."""
        self.change_setting("delay", slower(self.settings.delay) if step > 0 else faster(self.settings.delay))
        self.restart_timer()

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
                _, table_options = game_preferences(self.store, self.game)
                self.session.set_open_hands(table_options["open_hands"])
                self.replay_prompt = table_options["replay_prompt"]
                self.say("Options saved. Game options apply to your next new game.")

        self.app.push_screen(OptionsScreen(self.store, self.game, self.settings, in_game=True,
                                           current=current), done)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.game.name, self.game.title))

    def action_replay(self) -> None:
        """Replay the previous deal's pack at any point of this deal (its moves are taken back)."""
        state = self.table.state
        if not state.deals:
            self.say("There is no earlier deal to replay yet: R replays the previous deal's cards.",
                     error=True)
            return
        if self.busy:
            self.say("Wait for the computer to finish its move, then press R again.")
            return
        if self._replay():
            self.refresh_view()
            self.advance()

    def action_replay_mode(self) -> None:
        self.replay_prompt = not self.replay_prompt
        engine, table_options = game_preferences(self.store, self.game)
        table_options["replay_prompt"] = self.replay_prompt
        save_game_preferences(self.store, self.game, engine, table_options)
        self.say("Replay mode on: each new deal offers to replay the previous one." if self.replay_prompt
                 else "Replay mode off.")

    def apply_colours(self) -> None:
        """The saved background theme and border style (F9/F10 where the game's original had them)."""
        theme = BACKGROUNDS[self.settings.background % len(BACKGROUNDS)]
        if theme in self.app.available_themes:
            self.app.theme = theme
        style = BORDERS[self.settings.border % len(BORDERS)]
        for widget in self.query("SeatPanel, #log, InfoPanel"):
            widget.styles.border = (style, widget.styles.border.top[1])  # type: ignore[assignment]

    def action_leave(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.app.pop_screen()
        if not self.table.is_over:
            self.app.notify(f"Your {self.game.title} game is saved: choose it in the menu to resume it.")
