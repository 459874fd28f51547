"""F3: a game's options — its engine options, its table options and the display settings.

Why the engine's ``Option`` does the checking: the options screen must accept exactly
what ``parlour.load(game, **options)`` accepts, so every value goes through
``Option.check`` and its message is shown as it is when a value is refused.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from ...engine import Game, Option
from ...store import Store
from ..settings import Settings, game_preferences, save_game_preferences


class OnOff(Checkbox):
    """A checkbox that says ``on``/``off`` in words: on and off must not differ only in colour
    (colour-blind players could not tell ``▐X▌`` from ``▐X▌``)."""

    def __init__(self, label: str, *args: object, **kwargs: object) -> None:
        self.base_label = label
        super().__init__(label, *args, **kwargs)  # type: ignore[arg-type]
        self.label = self._worded()

    def _worded(self) -> str:
        return f"{self.base_label}: {'on' if self.value else 'off'}"

    def watch_value(self) -> None:
        super().watch_value()
        if hasattr(self, "base_label"):
            self.label = self._worded()


TABLE_LABELS = {
    "open_hands": "Open hands: every hand face up (for learning)",
    "replay_prompt": "Ask at each new deal whether to replay the previous one",
}
DISPLAY_LABELS = {
    "four_colour": "Four-colour cards (♣ green, ♦ blue)",
    "sort_hand": "Sort my hand (off: cards stay in the order they arrived)",
    "sound": "Sound: the terminal bell on events",
    "jokes": "The computer tells jokes after a deal (Le Truc)",
}


def parse_value(option: Option, text: str) -> Any:
    """The typed text as the option's value, checked; ValueError with a clear message if not."""
    if option.kind is int:
        try:
            value: Any = int(text.strip())
        except ValueError:
            raise ValueError(f"option {option.name} must be a whole number, not {text.strip()!r}") from None
        return option.check(value)
    return option.check(text.strip())


class OptionsScreen(ModalScreen[bool]):
    DEFAULT_CSS = """
    OptionsScreen { align: center middle; }
    OptionsScreen > Vertical { width: 84; max-width: 98%; height: 94%; border: thick $accent;
                               background: $surface; padding: 0 1; }
    OptionsScreen VerticalScroll { height: 1fr; }
    OptionsScreen .section { text-style: bold; margin-top: 1; color: $accent; }
    OptionsScreen .note { color: $text-muted; }
    OptionsScreen .field { height: auto; }
    OptionsScreen .field Label { width: 1fr; padding: 0 1 0 0; }
    OptionsScreen Checkbox { width: 1fr; }
    OptionsScreen .field Input { width: 16; }
    OptionsScreen .field Select { width: 30; }
    OptionsScreen .error { color: $error; height: auto; }
    OptionsScreen #options-buttons { height: auto; align: center middle; dock: bottom; }
    OptionsScreen #options-buttons Button { margin: 0 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save")]

    def __init__(self, store: Store, game: type[Game], settings: Settings, *, in_game: bool = False,
                 current: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.store = store
        self.game = game
        self.settings = settings
        self.in_game = in_game
        self.engine, self.table = game_preferences(store, game)
        self.current = current or {}

    def compose(self) -> ComposeResult:
        game = self.game
        with Vertical() as box:
            box.border_title = f"Options: {game.title or game.name}"
            with VerticalScroll():
                yield Static("Game options", classes="section")
                if self.in_game:
                    yield Static("This game keeps the options it was started with; these are for your next "
                                 "new game.", classes="note")
                if not game.OPTIONS:
                    yield Static(f"{game.title} has no game options.", classes="note")
                for option in game.OPTIONS:
                    yield from self._option_field(option)
                yield Static("Table", classes="section")
                for name, label in TABLE_LABELS.items():
                    value = self.current.get(name, self.table[name])
                    yield OnOff(label, value=value, id=f"table-{name}", compact=True)
                yield Static("Display (all games)", classes="section")
                for name, label in DISPLAY_LABELS.items():
                    yield OnOff(label, value=getattr(self.settings, name), id=f"ui-{name}", compact=True)
                yield Static("", id="options-error", classes="error")
            with Horizontal(id="options-buttons"):
                yield Button("Save (Ctrl+S)", id="save", variant="primary", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)

    def _option_field(self, option: Option) -> ComposeResult:
        value = self.engine.get(option.name, option.default)
        ident = f"opt-{option.name}"
        label = f"{option.help} ({option.name.replace('_', ' ')})"
        if option.kind is bool:
            yield OnOff(label, value=bool(value), id=ident, compact=True)
            return
        bounds = ""
        if option.kind is int and option.low is not None and option.high is not None:
            bounds = f", {option.low}–{option.high}"
        with Horizontal(classes="field"):
            yield Label(f"{label}{bounds}")
            if option.choices:
                yield Select([(c, c) for c in option.choices], value=value, allow_blank=False, id=ident,
                             compact=True)
            else:
                yield Input(str(value), id=ident, type="integer" if option.kind is int else "text", compact=True)
        yield Static("", id=f"err-{option.name}", classes="error")

    def on_mount(self) -> None:
        first = self.query("Checkbox, Input, Select").first()
        first.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def collect(self) -> tuple[dict[str, Any], dict[str, bool], dict[str, bool], list[str]]:
        """The values on screen: engine options, table options, display settings, and errors."""
        engine: dict[str, Any] = {}
        errors: list[str] = []
        for option in self.game.OPTIONS:
            widget = self.query_one(f"#opt-{option.name}")
            error = self.query_one(f"#err-{option.name}", Static) if option.kind is not bool else None
            try:
                if isinstance(widget, Checkbox):
                    engine[option.name] = option.check(widget.value)
                elif isinstance(widget, Select):
                    engine[option.name] = option.check(widget.value)
                else:
                    assert isinstance(widget, Input)
                    engine[option.name] = parse_value(option, widget.value)
                if error is not None:
                    error.update("")
            except ValueError as exc:
                errors.append(str(exc))
                if error is not None:
                    error.update(str(exc))
        table = {name: self.query_one(f"#table-{name}", Checkbox).value for name in TABLE_LABELS}
        display = {name: self.query_one(f"#ui-{name}", Checkbox).value for name in DISPLAY_LABELS}
        return engine, table, display, errors

    def action_save(self) -> None:
        engine, table, display, errors = self.collect()
        message = self.query_one("#options-error", Static)
        if errors:
            message.update("Not saved: " + "; ".join(errors))
            self.app.bell()
            return
        try:
            self.game(**engine)
        except ValueError as exc:  # options that are each fine but not together
            message.update(f"Not saved: {exc}")
            return
        save_game_preferences(self.store, self.game, engine, table)
        for name, value in display.items():
            setattr(self.settings, name, value)
        self.settings.save(self.store)
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
