"""The line menu's options: a game's engine options and its table options, typed as text.

Why the same store keys and checks as the terminal table's options screen: a game's options
are the game's, not an interface's.  They are kept under the game's name in the saved-games
database (``tui.settings.game_preferences``, which holds no terminal code), and every value goes
through the engine's ``Option.check``, so line mode accepts exactly what ``parlour.load`` and
the table accept and refuses the rest with the engine's own one-line message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine import Game, Option
from ..store import Store
from ..tui.settings import TABLE_OPTIONS, game_preferences, save_game_preferences

#: The table options as line mode words them (``parlour play --open`` / ``--replay`` are the same).
TABLE_HELP = {
    "open_hands": "every hand face up, for learning (as --open)",
    "replay_prompt": "ask at each new deal whether to replay the previous one (as --replay)",
}
ON = ("on", "yes", "y", "true", "1")
OFF = ("off", "no", "n", "false", "0")


def parse_value(option: Option, text: str) -> Any:
    """``text`` as ``option``'s value, checked by the option; ``ValueError`` with a clear message if not."""
    text = text.strip()
    if option.kind is bool:
        if text.lower() in ON:
            return True
        if text.lower() in OFF:
            return False
        raise ValueError(f"option {option.name} is on or off, not {text!r}")
    if option.kind is int:
        try:
            value: Any = int(text)
        except ValueError:
            raise ValueError(f"option {option.name} must be a whole number, not {text!r}") from None
        return option.check(value)
    return option.check(text)


def all_options(game: type[Game]) -> list[Option]:
    """The engine's options, then the table's (each an ``Option`` too, so one parser checks both)."""
    table = [Option(name, bool, default, TABLE_HELP.get(name, name)) for name, default in TABLE_OPTIONS.items()]
    return [*game.OPTIONS, *table]


def _shown(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def _bounds(option: Option) -> str:
    if option.kind is bool:
        return "on/off"
    if option.choices:
        return " | ".join(option.choices)
    if option.low is not None and option.high is not None:
        return f"{option.low} to {option.high}"
    return "a whole number" if option.kind is int else "a text"


def current(store: Store, game: type[Game]) -> dict[str, Any]:
    """Every option's value now: the stored one (checked) or the default."""
    engine, table = game_preferences(store, game)
    values: dict[str, Any] = {o.name: o.default for o in game.OPTIONS}
    values.update(engine)
    values.update(table)
    return values


def listing(store: Store, game: type[Game]) -> list[str]:
    values = current(store, game)
    lines = [f"{game.title} options (a new game uses them; a saved game keeps the options it began with):"]
    for i, option in enumerate(all_options(game), 1):
        lines.append(f"  {i}) {option.name} = {_shown(values[option.name])}   {option.help} "
                     f"({_bounds(option)}; default {_shown(option.default)})")
    return lines


def set_option(store: Store, game: type[Game], name: str, text: str) -> str:
    """Set the option ``name`` (or its number in the list) to the typed ``text``; the line to show.

    ``ValueError`` (one line, the option's own message) for an unknown option or a bad value;
    nothing is changed then.
    """
    options = all_options(game)
    picked = None
    if name.isdigit() and 1 <= int(name) <= len(options):
        picked = options[int(name) - 1]
    else:
        picked = next((o for o in options if o.name == name.replace("-", "_")), None)
    if picked is None:
        known = ", ".join(o.name for o in options)
        raise ValueError(f"{game.title} has no option {name!r}; its options: {known}")
    value = parse_value(picked, text)
    values = current(store, game)
    values[picked.name] = value
    engine = {o.name: values[o.name] for o in game.OPTIONS}
    table = {k: bool(values[k]) for k in TABLE_OPTIONS}
    save_game_preferences(store, game, engine, table)
    return f"{picked.name} = {_shown(value)}"


def edit(store: Store, game: type[Game], inp: Callable[[str], str] = input,
         out: Callable[[str], None] = print) -> None:
    """The options dialogue: ``NAME VALUE`` (or ``N VALUE``) sets one, ``default`` resets all, Enter ends."""
    while True:
        for line in listing(store, game):
            out(line)
        out("Type an option (its number or name) and a value, e.g. 1 on; default for all defaults; "
            "Enter to go back.")
        try:
            typed = inp("options> ").strip()
        except EOFError:
            return
        if not typed:
            return
        if typed.lower() == "default":
            save_game_preferences(store, game, {}, {})
            out("All options are back to their defaults.")
            continue
        name, _, value = typed.partition(" ")
        if not value.strip():
            out(f"Give a value after {name!r}, e.g. {name} on.")
            continue
        try:
            out(f"Set: {set_option(store, game, name, value)}.")
        except ValueError as exc:
            out(f"Not changed: {exc}.")
