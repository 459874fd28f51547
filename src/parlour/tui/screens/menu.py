"""The menu: choose a game, the opponents' level, resume or start anew, statistics, quit."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...bots import LEVELS
from ...registry import game_class, names
from ...store import Store
from ..messages import StartGame
from ..session import availability, saved_game
from ..settings import Settings
from .dialogs import Question
from .options import OptionsScreen
from .rules import RulesScreen
from .stats import StatsScreen


class MenuScreen(Screen[None]):
    DEFAULT_CSS = """
    MenuScreen { align: center middle; }
    MenuScreen > Vertical { width: 100; max-width: 100%; height: auto; max-height: 100%; padding: 0 1; }
    MenuScreen #menu-title { text-style: bold; color: $accent; height: 1; }
    MenuScreen OptionList { height: auto; max-height: 18; margin: 1 0; }
    MenuScreen #menu-buttons { height: auto; }
    MenuScreen #menu-buttons Button { margin: 0 1 0 0; min-width: 0; }
    MenuScreen #menu-status { height: auto; min-height: 2; color: $text-muted; margin-top: 1; }
    """
    #: The letters work in either case: the menu and the README show them in upper case, and a
    #: player types what he reads (Textual tells ``N`` from ``n``, so both are bound).
    BINDINGS = [
        Binding("enter", "play", "Play/resume", show=False),
        Binding("n,N", "new", "New game", key_display="N"),
        Binding("o,O", "level", "Opponents", key_display="O"),
        Binding("s,S", "stats", "Statistics", key_display="S"),
        Binding("f3", "options", "Options"),
        Binding("f5", "rules", "Rules"),
        Binding("q,Q,f7", "quit", "Quit", key_display="Q"),
    ]

    def __init__(self, store: Store, settings: Settings) -> None:
        super().__init__()
        self.store = store
        self.settings = settings
        self.games = names()
        self._status = ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Parlour — five classic card games against the computer", id="menu-title")
            yield OptionList(*self._options(), id="games")
            with Horizontal(id="menu-buttons"):
                yield Button("Play ⏎", id="play", variant="primary", compact=True)
                yield Button("New (N)", id="new", compact=True)
                yield Button("", id="level", compact=True)
                yield Button("Stats (S)", id="stats", compact=True)
                yield Button("Quit (Q)", id="quit", compact=True)
            yield Static("", id="menu-status")
        yield Footer()

    def _options(self) -> list[Option]:
        store = self.store
        out = []
        for i, name in enumerate(self.games, 1):
            why = availability(name)
            head = Text()
            head.append(f"{i}  ", style="bold")
            if why is not None:
                head.append(name, style="dim")
                out.append(Option(Group(head, Padding(Text(why, style="dim"), (0, 0, 0, 3))), id=name))
                continue
            game = game_class(name)
            head.append(game.title, style="bold")
            saved = saved_game(store, name)
            if saved is not None:
                head.append(f"   saved game vs {saved.get('level', 'easy')}", style="italic green")
            out.append(Option(Group(head, Padding(Text(game.description), (0, 0, 0, 3))), id=name))
        return out

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0
        self.query_one(OptionList).focus()
        if self.store.notice:
            self.say(self.store.notice)
        self._refresh()

    def on_screen_resume(self) -> None:
        games = self.query_one(OptionList)
        highlighted = games.highlighted
        games.clear_options()
        games.add_options(self._options())
        games.highlighted = highlighted if highlighted is not None else 0
        games.focus()
        self._refresh()

    def say(self, text: str) -> None:
        self._status = text
        self._refresh()

    def _refresh(self) -> None:
        level = self.settings.level
        self.query_one("#level", Button).label = f"Opponents: {level} (O)"
        name = self.selected
        saved = saved_game(self.store, name) if name else None
        hint = ""
        if name and availability(name) is None:
            title = game_class(name).title
            if saved is not None:
                hint = (f"Enter resumes your saved {title} game (vs {saved.get('level', 'easy')}); "
                        "N starts a new one.")
            else:
                hint = f"Enter starts a new {title} game against the {level} computer."
        lines = [line for line in (self._status, hint) if line]
        self.query_one("#menu-status", Static).update("\n".join(lines))

    @property
    def selected(self) -> str | None:
        index = self.query_one(OptionList).highlighted
        return self.games[index] if index is not None and 0 <= index < len(self.games) else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._status = ""
        self._refresh()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_play()

    def on_key(self, event: events.Key) -> None:  # digits pick a game at once
        char = event.character or ""
        if char.isdigit() and 1 <= int(char) <= len(self.games):
            event.stop()
            self.query_one(OptionList).highlighted = int(char) - 1
            self.action_play()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        action = {"play": self.action_play, "new": self.action_new, "level": self.action_level,
                  "stats": self.action_stats, "quit": self.action_quit}.get(event.button.id or "")
        if action is not None:
            action()

    def _playable(self) -> str | None:
        name = self.selected
        if name is None:
            return None
        why = availability(name)
        if why is not None:
            self.say(f"{name}: {why}.")
            self.app.bell()
            return None
        return name

    def action_play(self) -> None:
        name = self._playable()
        if name is not None:
            self.post_message(StartGame(name, fresh=False))

    def action_new(self) -> None:
        name = self._playable()
        if name is None:
            return
        if saved_game(self.store, name) is None:
            self.post_message(StartGame(name, fresh=True))
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(StartGame(name, fresh=True))

        title = game_class(name).title
        self.app.push_screen(Question(f"Start a new {title} game? Your saved game will be replaced."), answered)

    def action_level(self) -> None:
        settings = self.settings
        settings.level = LEVELS[(LEVELS.index(settings.level) + 1) % len(LEVELS)] \
            if settings.level in LEVELS else LEVELS[0]
        settings.save(self.store)
        self.say(f"New games are played against the {settings.level} computer.")

    def action_stats(self) -> None:
        self.app.push_screen(StatsScreen(self.store))

    def action_options(self) -> None:
        name = self._playable()
        if name is not None:
            self.app.push_screen(OptionsScreen(self.store, game_class(name), self.settings))

    def action_rules(self) -> None:
        name = self.selected
        if name is None:
            return
        title = game_class(name).title if availability(name) is None else name
        self.app.push_screen(RulesScreen(name, title))

    def action_quit(self) -> None:
        self.app.exit(0)
