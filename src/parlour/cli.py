"""The ``parlour`` command: menu, play, new, demo, replay, rules, review, stats, history, export, serve, db.

Bad input never shows a traceback: a bad argument, game, option, file or database gives one
line on stderr and exit status 2; a bad move at the prompt is explained and asked again.

Why every argument is checked while the command line is parsed (argparse ``type=``
functions with bounds): a value that would fail later — a delay of ``inf`` in the middle of a
game, a record path that cannot be written after a whole demo — must be refused before
anything starts.  A game's own options (``--game-point``) are found in two passes: the first
pass finds the game's name, the second parses the whole line again with that game's
``Game.OPTIONS`` added, so ``parlour play clobby --help`` can list them with their ranges.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .bots import Bot, levels, make
from .engine import Game, Option
from .fairness import new_local_state
from .linemode import options as menu_options
from .linemode.play import format_stats, play_human, watch
from .records import from_json
from .registry import game_class, names, rules_text
from .review.worker import Reviews
from .saves import Opening, open_game
from .store import FinishedGame, SQLiteStore, Store, StoreError, default_path, is_url, open_store
from .store import copy as copy_store
from .table import Table, seat_names
from .text import history_result, retell

HUMAN_SEAT = 0
GAME_COMMANDS = ("play", "new", "demo")
MAX_DELAY = 10.0  # seconds after each computer move; more would look like a hang
MAX_DEALS = 10_000
MAX_SEED = 2**63 - 1
MAX_THINK = 30.0  # seconds a strong player may think per decision
#: the strong levels' defaults (each game's ``strong.DEFAULT_THINK``; kept here so the help does not load the search)
DB_HELP = ("the saved-games database: a file, or a PostgreSQL database as postgresql://USER@HOST/DB "
           "(default: the file in your user data folder; --db is the same)")
THINK_HELP = (f"seconds the strong level may think per decision, 0 to {MAX_THINK:g} "
              "(default: Clobby 0.25, Schafkopf 0.25, Six-Bid 0.29)")
MAX_GAME_NUMBER = 2**63 - 1  # SQLite's largest row id
MAX_RECORD_BYTES = 10 * 2**20  # a whole long game is well under 1 MB
_OPTION_DEST = "game_option_"  # a game's options live apart from the command's own


class UsageError(Exception):
    """A bad command line, game, option or file: reported in one line, exit status 2."""


class _Exit(Exception):
    """``--help`` or ``--version`` was shown: leave ``main`` with this status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _shown(text: object, limit: int = 40) -> str:
    """The user's text quoted for a message, cut short so a huge argument gives a short line."""
    shown = repr(str(text))
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


class _Parser(argparse.ArgumentParser):
    hint: str | None = None  # the command whose --help the error points to (default: prog)

    def error(self, message: str) -> NoReturn:
        # "argument --delay: must be ..." -> "--delay must be ...": the spelling the user typed
        match = re.match(r"argument (-[^:]*): (.*)", message, re.S)
        if match:
            message = f"{match.group(1).split('/')[-1]} {match.group(2)}"
        raise UsageError(f"{message} (see `{self.hint or self.prog} --help`)")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _Exit(status)


# -- argument types: each refuses a bad value while the command line is parsed ----------------
def _seconds(high: float) -> Callable[[str], float]:
    """The argument type of a number of seconds from 0 to ``high`` (a pause, a time to think)."""
    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and 0 <= value <= high):
            raise argparse.ArgumentTypeError(f"must be a number of seconds from 0 to {high:g}, not {_shown(text)}")
        return value

    return seconds


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return "a whole number"


def _whole(low: int | None, high: int | None) -> Callable[[str], int]:
    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number {_range_text(low, high)}, not {_shown(text)}"
                                             ) from None
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {_range_text(low, high)}, not {_shown(text)}")
        return value

    return whole


def _choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    def choice(text: str) -> str:
        if text not in choices:
            raise argparse.ArgumentTypeError(f"must be one of {', '.join(choices)}, not {_shown(text)}")
        return text

    return choice


def _db_path(text: str) -> str:
    if not text.strip() or "\0" in text:
        raise argparse.ArgumentTypeError(f"must name the saved-games database (a file, or a postgresql:// URL), "
                                         f"not {_shown(text)}")
    return text


def _record_path(text: str) -> str:
    """A file ``demo --record`` can write once the game is over: checked now, not after the game."""
    if not text.strip() or "\0" in text:
        raise argparse.ArgumentTypeError(f"must name a file to write, not {_shown(text)}")
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: its folder does not exist")
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    return text


# -- the parser -----------------------------------------------------------------------------
def _option_flag(option: Option) -> str:
    return "--" + option.name.replace("_", "-")


def _add_game_options(parser: argparse.ArgumentParser, game: type[Game]) -> None:
    """The game's ``Game.OPTIONS`` as command-line flags, each with its range and default."""
    group = parser.add_argument_group(f"{game.title} options",
                                      None if game.OPTIONS else f"{game.title} has no options of its own.")
    for option in game.OPTIONS:
        flag, dest = _option_flag(option), _OPTION_DEST + option.name
        try:
            if option.kind is bool:
                group.add_argument(flag, dest=dest, default=None,
                                   action=argparse.BooleanOptionalAction if option.default else "store_true",
                                   help=f"{option.help} (default: {'on' if option.default else 'off'})")
            elif option.kind is int:
                group.add_argument(flag, dest=dest, default=None, metavar="N", type=_whole(option.low, option.high),
                                   help=f"{option.help}: {_range_text(option.low, option.high)}"
                                        f" (default {option.default})")
            else:
                kinds = f": one of {', '.join(option.choices)}" if option.choices else ""
                group.add_argument(flag, dest=dest, default=None,
                                   metavar="|".join(option.choices) if option.choices else "VALUE",
                                   type=_choice(option.choices) if option.choices else str,
                                   help=f"{option.help}{kinds} (default {option.default})")
        except argparse.ArgumentError:
            raise UsageError(f"the {game.name} option {flag} has the name of one of parlour's own options") from None


def _build_parser(game: type[Game] | None = None) -> tuple[_Parser, dict[str, _Parser]]:
    """The whole command line; with ``game``, the game commands also take that game's options."""
    parser = _Parser(prog="parlour", description="Five classic card games against the computer.",
                     epilog="`parlour play GAME --help` lists that game's own options.")
    parser.add_argument("--version", action="version", version=f"parlour {__version__}")
    parser.add_argument("--database", dest="db", type=_db_path, metavar="DB", help=DB_HELP)
    parser.add_argument("--db", dest="db", type=_db_path, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    subs: dict[str, _Parser] = {}

    def command(name: str, help_text: str, *, uses_db: bool = True, own_help: bool = False, **kwargs: Any) -> _Parser:
        p = sub.add_parser(name, help=help_text, description=kwargs.pop("description", help_text),
                           add_help=not own_help, **kwargs)
        if own_help:
            p.add_argument("-h", "--help", action="store_true", help="show this help and exit")
        _add_database(p, uses_db)
        subs[name] = p
        return p

    all_games = ", ".join(names())

    def game_command(name: str, help_text: str) -> _Parser:
        # -h is ours: the help of `play clobby` needs the game, which argparse has not seen yet
        if game is None:
            description = (f"{help_text} The games: {all_games}. Game options follow the game name, e.g. "
                           f"`parlour {name} clobby --game-point 300 --no-tie`; `parlour {name} GAME --help` "
                           "lists them.")
        else:
            description = f"{help_text} {game.title}'s own options are listed at the end."
        p = command(name, help_text, description=description, own_help=True, uses_db=name != "demo",
                    usage=f"parlour {name} {game.name if game else 'GAME'} [options]")
        p.hint = f"parlour {name} {game.name}" if game else None
        p.add_argument("game", nargs="?", metavar="GAME", help=f"one of: {all_games}")
        return p

    level_names = ", ".join(levels(game.name)) if game is not None else "random, easy, ..."
    for name, help_text in (("play", "Play a game (resumes your saved game of it if there is one)."),
                            ("new", "Start a new game, replacing any saved game of it.")):
        p = game_command(name, help_text)
        p.add_argument("--level", help=f"computer opponents: {level_names} (default easy, or the saved game's)")
        p.add_argument("--seed", type=_whole(0, MAX_SEED), metavar="N",
                       help="seed for the shuffle and first dealer (a new game only)")
        p.add_argument("--open", action="store_true", help="open hands: see every seat's cards")
        p.add_argument("--replay", action="store_true", help="ask at each deal whether to replay the previous one")
        p.add_argument("--delay", type=_seconds(MAX_DELAY), default=0.0, metavar="S",
                       help=f"seconds to pause after each computer move, 0 to {MAX_DELAY:g} (default 0)")
        p.add_argument("--jokes", action="store_true", help="the computer tells jokes (Le Truc)")
        p.add_argument("--think", type=_seconds(MAX_THINK), metavar="S", help=THINK_HELP)
        if game is not None:
            _add_game_options(p, game)

    p = game_command("demo", "Watch the computer play every seat.")
    p.add_argument("--level", default="easy", help=f"computer players: {level_names} (default easy)")
    p.add_argument("--seed", type=_whole(0, MAX_SEED), metavar="N", help="seed for the shuffle and first dealer")
    p.add_argument("--delay", type=_seconds(MAX_DELAY), default=0.0, metavar="S",
                   help=f"seconds to pause after each move, 0 to {MAX_DELAY:g} (default 0)")
    p.add_argument("--record", type=_record_path, metavar="FILE",
                   help="also write the game record (JSON) to this file")
    p.add_argument("--deals", type=_whole(1, MAX_DEALS), metavar="N",
                   help=f"stop after this many deals, 1 to {MAX_DEALS} (default: the whole game)")
    p.add_argument("--think", type=_seconds(MAX_THINK), metavar="S", help=THINK_HELP)
    if game is not None:
        _add_game_options(p, game)

    p = command("replay", "Replay a game record file, with every hand shown.", uses_db=False)
    p.add_argument("file", help="a record written by `parlour export` or `parlour demo --record`")
    p.add_argument("--delay", type=_seconds(MAX_DELAY), default=0.0, metavar="S",
                   help=f"seconds to pause after each move, 0 to {MAX_DELAY:g} (default 0)")
    p = command("verify", "Check that a finished game's cards came from its committed seeds, and show its deals.",
                uses_db=False)
    p.add_argument("file", help="a record written by `parlour export`, `parlour demo --record` or the browser table")
    p = command("rules", "Print a game's rules.", uses_db=False)
    p.add_argument("game", help=f"one of: {all_games}")
    p = command("review", "Review a finished deal: what strong would have chosen with what you knew, what each "
                          "choice cost, and the values with the cards as they lay.")
    p.add_argument("game_id", metavar="GAME", help="a finished game's number in `parlour history`, or a record file "
                                                   "(`parlour export N > game.json`, `parlour demo --record`)")
    p.add_argument("--deal", type=_whole(1, MAX_DEALS), metavar="K",
                   help="review only deal K (default: every deal that has ended, and the game's verdict)")
    p.add_argument("--seat", type=_whole(0, 15), metavar="S",
                   help="the seat to review, 0 = North (default: the player's seat; a record file: 0)")
    p.add_argument("--samples", type=_whole(1, 1000), metavar="N",
                   help="sampled deals per decision (default: the game's review budget)")
    p.add_argument("--json", action="store_true", help="the review as JSON, for tools (the README describes it)")
    command("stats", "Your results per game and opponent level.")
    p = command("history", "List finished games.")
    p.add_argument("game", nargs="?", help="only this game")
    p = command("export", "Print a finished game's record (JSON), by its number in `history`.")
    p.add_argument("id", metavar="NUMBER", help="the game's number in `parlour history`")
    command("menu", "The game menu in line mode (`parlour` alone opens the full-screen one).")
    p = command("serve", "Host tables in the browser: people and computer players, all five games.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only; "
                        "any other address, such as 0.0.0.0, needs --allowed-host)")
    p.add_argument("--port", type=_whole(1, 65535), default=8000, metavar="N", help="port (default 8000)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME", dest="allowed_hosts",
                   help="a host name (or address) people type to reach the server, without the port; "
                        "repeatable; needed when --host is not a loopback address (other names are refused, "
                        "against DNS rebinding; localhost, 127.0.0.1 and ::1 are always accepted)")
    p.add_argument("--proxy", action="append", default=[], metavar="ADDRESS", dest="proxies",
                   help="the address of a reverse proxy whose X-Forwarded-For is believed; repeatable "
                        "(default: none, every client is the address it connects from)")
    p.add_argument("--share-history", action=argparse.BooleanOptionalAction, default=None,
                   help="show the whole database's finished games, their records and the statistics to anyone "
                        "who reaches the server (default: on for a loopback --host with no --proxy, where only "
                        "this machine can, off otherwise); each person always sees their own games")
    p.add_argument("--bus", default=None, metavar="URL",
                   help="the event bus shared with the other server processes of this database, a "
                        "redis://HOST:PORT/DB URL (default: none, events stay in this process)")
    p.add_argument("--processes", type=_whole(1, 64), default=1, metavar="N",
                   help="server processes on this host, sharing the port, the database and the bus (default 1; "
                        "more needs --bus, and a PostgreSQL --database is the one meant for it)")
    p.add_argument("--close-after", type=_whole(1, 3650), default=None, metavar="DAYS",
                   help="a game people began and nobody moved in for DAYS is closed, unfinished, and its people "
                        "are shown the proof that its deals were fair (default 30)")
    p = command("arena", "Measure two computer levels against each other on duplicate deals.", uses_db=False)
    p.add_argument("game", help=f"one of: {all_games}")
    p.add_argument("--a", dest="level_a", default="strong", metavar="LEVEL", help="level A (default strong)")
    p.add_argument("--b", dest="level_b", default="easy", metavar="LEVEL", help="level B (default easy)")
    p.add_argument("--deals", type=_whole(1, 1_000_000), default=100, metavar="N",
                   help="duplicate packs to play (each once per seating of A; default 100)")
    p.add_argument("--jobs", type=_whole(1, 64), default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument("--think", type=_seconds(MAX_THINK), default=None, metavar="S",
                   help=f"seconds a strong player may think per decision, 0 to {MAX_THINK:g} "
                        "(default: the game's own, as for play)")
    p.add_argument("--seed", type=_whole(0, MAX_SEED), default=1, metavar="N", help="seed of the first pack")
    _add_db_commands(command("db", "Copy the saved-games database to another (SQLite, PostgreSQL), or back it up.",
                             uses_db=False))
    return parser, subs


def _add_database(parser: argparse.ArgumentParser, shown: bool = True) -> None:
    """``--database`` after the command too (hidden from the help of commands that do not use it), and
    ``--db``, its older name, which the help no longer shows."""
    parser.add_argument("--database", dest="db", type=_db_path, default=argparse.SUPPRESS, metavar="DB",
                        help=DB_HELP if shown else argparse.SUPPRESS)
    parser.add_argument("--db", dest="db", type=_db_path, default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def _add_db_commands(parser: _Parser) -> None:
    """``parlour db copy`` and ``parlour db backup``."""
    sub = parser.add_subparsers(dest="db_command", parser_class=_Parser, metavar="copy|backup", required=True)
    p = sub.add_parser("copy", help="copy every game, record, table and option into another database",
                       description="Copy everything of one database into another, SQLite or PostgreSQL either way: "
                                   "saved games, browser tables, finished records, broken saves, options (and so "
                                   "the statistics). What the target already holds is not copied again; a "
                                   "different row under the same number stops the copy before anything is "
                                   "written.")
    _add_database(p)
    p.add_argument("--from", dest="source", type=_db_path, metavar="PATH_OR_URL",
                   help="the database to copy (default: --database, or the file in your user data folder)")
    p.add_argument("--to", dest="target", type=_db_path, metavar="PATH_OR_URL", required=True,
                   help="the database to copy into (an SQLite file is made when missing; a PostgreSQL database "
                        "must exist, empty or Parlour's)")
    p = sub.add_parser("backup", help="a consistent copy of an SQLite database, even while it is in use",
                       description="Copy the SQLite database (--database, or the file in your user data folder) "
                                   "with SQLite's online backup, so a server or game may go on saving meanwhile. "
                                   "For a PostgreSQL database, use pg_dump (docs/deploy.md).")
    _add_database(p)
    p.add_argument("--to", dest="target", type=_record_path, metavar="PATH",
                   help="the backup file to write, which must not exist (default: beside the database, named "
                        "<database>.backup-YYYYmmdd-HHMMSS)")


def _is_game(name: object) -> bool:
    return isinstance(name, str) and name.lower() in names()


def _parse_game_command(argv: list[str], first: argparse.Namespace, extra: list[str],
                        subs: dict[str, _Parser]) -> tuple[argparse.Namespace, type[Game], dict[str, Any]] | None:
    """Parse ``play``/``new``/``demo`` again with the game's options; None when help was shown."""
    name = first.game if _is_game(first.game) else next((t for t in extra if _is_game(t)), None)
    if name is None:
        if first.help:
            print(subs[first.command].format_help(), end="")
            return None
        if first.game is None:
            raise UsageError(f"{first.command} needs a game: one of {', '.join(names())}")
        name = first.game  # the registry's "unknown game" ValueError follows
    game = game_class(name)
    parser, game_subs = _build_parser(game)
    if first.help:
        print(game_subs[first.command].format_help(), end="")
        return None
    args, unknown = parser.parse_known_args(argv)
    if not _is_game(args.game) or game_class(args.game) is not game:  # `play poker gops`: the wrong name
        raise UsageError(f"unknown game {_shown(args.game)}; the games are: {', '.join(names())}")
    if unknown:
        what = "option" if unknown[0].startswith("-") else "argument"
        valid = " ".join(_option_flag(o) for o in game.OPTIONS) or "none"
        raise UsageError(f"unknown {what} {_shown(unknown[0])[1:-1]} for {game.name} (its options: {valid};"
                         f" see `parlour {args.command} {game.name} --help`)")
    options = {o.name: getattr(args, _OPTION_DEST + o.name) for o in game.OPTIONS
               if getattr(args, _OPTION_DEST + o.name) is not None}
    try:
        game(**options)  # anything the engine checks beyond each option's range
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.level is not None:
        _check_level(game.name, args.level)
    return args, game, options


# -- the commands ---------------------------------------------------------------------------
def _open_store(target: str | None, *, read_only_ok: bool = False) -> Store:
    """The database (a path or a URL: ``store.open_store``); ``read_only_ok`` for commands that only read
    (they work on a read-only file).

    A ``StoreError`` is reported by ``main()`` in one line, exit status 2.
    """
    store = open_store(target, read_only_ok=read_only_ok)
    if store.notice:
        print(f"parlour: {store.notice}", file=sys.stderr)
    return store


def _bot(game: str, level: str, think: float | None) -> Bot:
    """A computer player; ``--think`` reaches the levels that search (``strong``), not the others."""
    return make(game, level, think=think) if think is not None and level == "strong" else make(game, level)


def _check_level(game: str, level: str) -> None:
    try:
        make(game, level)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _play(store: Store, game: type[Game], options: dict[str, Any], *, fresh: bool, level: str | None = None,
          seed: int | None = None, open_hands: bool = False, ask_replay: bool = False, delay: float = 0.0,
          jokes: bool = False, think: float | None = None) -> int:
    _prepare_players()
    try:
        opening = open_game(store, game.name, options, fresh=fresh, seed=seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        return _play_opened(store, game, opening, fresh=fresh, level=level, open_hands=open_hands,
                            ask_replay=ask_replay, delay=delay, jokes=jokes, think=think)
    finally:
        opening.release()  # another Parlour may now open this game


def _play_opened(store: Store, game: type[Game], opening: Opening, *, fresh: bool, level: str | None,
                 open_hands: bool, ask_replay: bool, delay: float, jokes: bool, think: float | None) -> int:
    for notice in opening.notices:
        print(notice)
    if opening.resumed:
        print(f"(`parlour new {game.name}` starts a new one.)")
    state, settings = opening.state, opening.settings
    if opening.resumed and state.actions:  # the announcements log survives a resume
        print("Announcements so far (the latest):")
        for line in retell(state, HUMAN_SEAT, last=12):
            print(f"  {line}")
    if level is None:
        level = settings.get("level", "easy")
        if not isinstance(level, str) or level not in levels(game.name):
            print(f"(The saved opponents' level {_shown(level)} is unknown here; playing against easy.)")
            level = "easy"
    open_hands = bool(open_hands or (settings.get("open", False) and not fresh))
    players = [None if seat == HUMAN_SEAT else _bot(game.name, level, think) for seat in range(game.num_players)]
    meta = {"level": level, "open": open_hands, "human_seat": HUMAN_SEAT}

    def save(table: Table) -> None:
        store.save_game(game.name, table.state.to_json(), meta)

    table = Table(state, players, open_hands=open_hands, on_save=save)
    save(table)
    names_ = seat_names(game.num_players)
    print(f"{game.title}: you are {names_[HUMAN_SEAT]} against the {level} computer. Type h for help.")
    reviews = Reviews(store, HUMAN_SEAT)  # each deal's review, worked out as soon as it ends (``review``)
    outcome = play_human(table, HUMAN_SEAT, delay=delay, ask_replay=ask_replay, jokes=jokes, reviews=reviews)
    reviews.finish()  # the last deal's review too, kept for the statistics
    if outcome == "over":
        game_id = store.finish_game(game.name, state.to_json(), level, HUMAN_SEAT, state.winner, state.scores)
        print(f"Saved as finished game #{game_id}: `parlour export {game_id} > game.json` then "
              "`parlour replay game.json` to watch it again.")
    else:
        why = "Input ended" if outcome == "eof" else "Bye"
        print(f"{why}; your game is saved. `parlour play {game.name}` resumes it.")
    return 0


def cmd_play(args: argparse.Namespace, game: type[Game], options: dict[str, Any]) -> int:
    store = _open_store(args.db)
    try:
        return _play(store, game, options, fresh=args.command == "new", level=args.level, seed=args.seed,
                     open_hands=args.open, ask_replay=args.replay, delay=args.delay, jokes=args.jokes,
                     think=args.think)
    finally:
        store.close()


def cmd_demo(args: argparse.Namespace, game: type[Game], options: dict[str, Any]) -> int:
    _check_level(game.name, args.level)
    try:
        state = new_local_state(game(**options), args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    players = [_bot(game.name, args.level, args.think) for _ in range(game.num_players)]
    table = Table(state, list(players), open_hands=True)
    record = None
    if args.record:  # opened now: a file that cannot be written is refused before the game, not after it
        try:
            record = open(args.record, "w", encoding="utf-8")  # closed below
        except OSError as exc:
            raise UsageError(f"cannot write {args.record}: {exc.strerror or exc}") from None
    try:
        print(f"{game.title} demo: the {args.level} computer plays every seat (seed {state.seed}).")
        watch(table, out=print, delay=args.delay, max_deals=args.deals)
        if record is not None:
            try:
                record.write(state.to_json() + "\n")
                record.close()
            except OSError as exc:
                raise UsageError(f"cannot write {args.record}: {exc.strerror or exc}") from None
            print(f"Record written to {args.record}.")
    finally:
        if record is not None:
            record.close()
    return 0


def _read_record(path: str) -> dict[str, Any]:
    """The record file as a JSON object, read with a size bound; any problem is one line."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise UsageError(f"{path} is not a valid game record: it is larger than {MAX_RECORD_BYTES // 2**20} MB")
    try:
        record = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a valid game record: it is not UTF-8 text") from None
    except RecursionError:
        raise UsageError(f"{path} is not a valid game record: its JSON is nested too deeply") from None
    except ValueError as exc:
        raise UsageError(f"{path} is not a valid game record: it is not JSON ({exc})") from None
    if not isinstance(record, dict):
        raise UsageError(f"{path} is not a valid game record: it is not a JSON object")
    return record


def cmd_verify(args: argparse.Namespace) -> int:
    """``parlour verify``: exit 0 when every check passed, 1 when one failed (it says which), 2 for no record."""
    from .verify import verify

    verdict = verify(_read_record(args.file))
    for line in verdict.lines:
        print(line)
    if verdict.state is not None:
        game = verdict.state.game
        names = seat_names(game.num_players)
        for dealt in verdict.deals:
            about = [f"dealer {names[dealt.dealer]}"] if game.HAS_DEALER else []
            about += [dealt.how] if dealt.how else []
            hands = "; ".join(f"{names[seat]} {' '.join(hand)}" for seat, hand in enumerate(dealt.hands))
            said = f" ({', '.join(about)})" if about else ""
            print(f"Deal {dealt.deal}{said}: {hands}")
    print("Verified: nobody chose these cards." if verdict.ok else "Not verified.")
    return 0 if verdict.ok else 1


def cmd_replay(args: argparse.Namespace) -> int:
    record = _read_record(args.file)
    try:
        state = from_json(record).fresh_copy()  # validates the whole record before narrating it
        game = game_class(record["game"])
    except (ValueError, KeyError, TypeError, RecursionError, MemoryError) as exc:
        raise UsageError(f"{args.file} is not a valid game record: {exc}") from None
    table = Table(state, [None] * game.num_players, open_hands=True)
    print(f"Replaying a {game.title} game (seed {state.seed}).")
    watch(table, list(record["actions"]), out=print, delay=args.delay)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    game = game_class(args.game)
    text = rules_text(game.name)
    if not text:
        raise UsageError(f"{game.title} has no rules page installed")
    print(text.rstrip("\n"))
    return 0


def _history_line(row: FinishedGame) -> str:
    """One finished game; odd values (an old or damaged row) are shown as they are, never fatal."""
    result = history_result(row)  # a resigned game says who resigned, never "drawn"
    note = f" (damaged: {', '.join(row.damaged)})" if row.damaged else ""
    return f"#{row.id!s:<5} {row.game:<10} vs {row.level:<7} {result:<6} scores {_scores_text(row.scores)}{note}"


def _scores_text(scores: object) -> str:
    """``37 54`` rather than a Python list; anything odd (a damaged row) as it is."""
    if isinstance(scores, list) and all(isinstance(v, int) for v in scores):
        return " ".join(str(v) for v in scores)
    return str(scores)


def cmd_history(args: argparse.Namespace) -> int:
    game = game_class(args.game).name if args.game is not None else None
    store = _open_store(args.db, read_only_ok=True)
    try:
        rows = store.finished_games(game)
    finally:
        store.close()
    if not rows:
        print("No finished games yet.")
    for row in rows:
        print(_history_line(row))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    try:
        number = int(args.id)
    except ValueError:
        raise UsageError(f"export needs a game's number from `parlour history`, not {_shown(args.id)}") from None
    missing = UsageError(f"no such game: there is no finished game #{_shown(args.id)[1:-1]} (see `parlour history`)")
    if not 1 <= number <= MAX_GAME_NUMBER:
        raise missing
    store = _open_store(args.db, read_only_ok=True)
    try:
        record = store.finished_record(number)
    finally:
        store.close()
    if record is None:
        raise missing
    print(record)
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    """``parlour review``: a finished game of the store (by number) or a record file, deal by deal."""
    from .review import NoReview, NotOver, dumps, game_dict, review_deal
    from .review.say import game_lines, lines
    from .review.worker import budget, keep, kept_review

    _prepare_review()
    store: Store | None = None
    player: int | None = None
    if args.game_id.isdigit():
        number = int(args.game_id)
        store = _open_store(args.db, read_only_ok=True)
        row = store.finished_game(number) if 1 <= number <= MAX_GAME_NUMBER else None
        text = store.finished_record(number) if row is not None else None
        if row is None or text is None:
            store.close()
            raise UsageError(f"no such game: there is no finished game #{number} (see `parlour history`)")
        try:
            record = json.loads(text)
        except ValueError:
            store.close()
            raise UsageError(f"finished game #{number} has a damaged record") from None
        player = row.human_seat
    else:
        record = _read_record(args.game_id)
    seat = args.seat if args.seat is not None else player if player is not None else 0
    viewer = player if player is not None else seat  # a game with a person: reviewed for that person
    try:
        ended = len(from_json(record).deals)
        samples = budget(str(record.get("game")), args.samples)
        deals = [args.deal] if args.deal is not None else list(range(1, ended + 1))
        reviews = []
        for deal in deals:
            found = kept_review(store, record, deal, seat, samples) if seat == player else None
            if found is None:
                found = review_deal(record, deal, seat, viewer=viewer, samples=samples)
                if store is not None and seat == player and not store.read_only:
                    keep(store, record, found, counted=True)
            reviews.append(found)
    except (NoReview, NotOver) as exc:
        raise UsageError(str(exc)) from None
    except (KeyError, TypeError, RecursionError) as exc:
        raise UsageError(f"{args.game_id} is not a valid game record: {exc}") from None
    finally:
        if store is not None:
            store.close()
    if args.json:
        print(dumps(reviews[0].to_dict() if args.deal is not None else game_dict(reviews)))
    else:
        print("\n".join(lines(reviews[0]) if args.deal is not None else game_lines(reviews) or ["No deal has ended."]))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    store = _open_store(args.db, read_only_ok=True)
    try:
        print(format_stats(store.stats(), store.loss_trends()))
    finally:
        store.close()
    return 0


def cmd_db(args: argparse.Namespace) -> int:
    return cmd_db_copy(args) if args.db_command == "copy" else cmd_db_backup(args)


def _same_database(a: str | None, b: str | None) -> bool:
    def key(target: str | None) -> str:
        return str(target) if is_url(target) else str(Path(target or default_path()).resolve())

    return key(a) == key(b)


def cmd_db_copy(args: argparse.Namespace) -> int:
    """``parlour db copy``: every row the target lacks, in one transaction; says what it copied."""
    source_target = args.source if args.source is not None else args.db
    if _same_database(source_target, args.target):
        raise UsageError("--from and --to name the same database: there is nothing to copy")
    source = _open_store(source_target, read_only_ok=True)
    try:
        target = _open_store(args.target)
        try:
            report = copy_store(source, target)
        finally:
            target.close()
    finally:
        source.close()
    for line in report.lines():
        print(line)
    return 0


def cmd_db_backup(args: argparse.Namespace) -> int:
    """``parlour db backup``: SQLite's online backup into a new file (never over an existing one)."""
    if is_url(args.db):
        raise UsageError("db backup copies an SQLite file; back up a PostgreSQL database with pg_dump "
                         "(see docs/deploy.md)")
    store = _open_store(args.db, read_only_ok=True)
    try:
        assert isinstance(store, SQLiteStore)
        target = Path(args.target) if args.target else \
            store.path.with_name(f"{store.path.name}.backup-{time.strftime('%Y%m%d-%H%M%S')}")
        if target.exists() or target.is_symlink():
            raise UsageError(f"{target} already exists; nothing was changed (name a new file with --to)")
        store.backup_to(target)
    finally:
        store.close()
    print(f"Backed up {store.path} to {target}: a consistent copy (`parlour --database {target} history` reads it).")
    return 0


def _menu_options(store: Store, game: type[Game]) -> tuple[dict[str, Any], bool, bool]:
    """The options a game started from the menu uses: (engine options, open hands, ask to replay),
    as chosen with ``o N`` (kept with the game's name, as the table's options screen keeps them)."""
    values = menu_options.current(store, game)
    engine = {o.name: values[o.name] for o in game.OPTIONS}
    return engine, bool(values.get("open_hands")), bool(values.get("replay_prompt"))


def _prepare_players() -> None:
    """Compile the computer players' search in the background (one line on a first run only)."""
    from .search import warm

    warm.start(lambda line: print(line, file=sys.stderr, flush=True))


def _prepare_review() -> None:
    """The compiled search for a review in the foreground (loaded from the cache; compiled, with a
    notice, on a first run): a review in plain Python takes ten times longer."""
    from .search import warm

    if not warm.cached():
        print(warm.FIRST_RUN, file=sys.stderr, flush=True)
    warm.now()


def cmd_menu(db: str | None) -> int:
    """The line-mode menu.  An unusable database ends it at once; a game that cannot start does not."""
    _prepare_players()
    games = [game_class(n) for n in names()]
    store = _open_store(db)
    level: str | None = None  # None: each game's saved level (easy for a new game)
    try:
        while True:
            print("\nParlour: choose a game")
            for i, g in enumerate(games, 1):
                print(f"  {i}) {g.title:<14} {g.description}")
            print(f"  n N) new game of N   o N) options of N   r N) rules of N   "
                  f"l) opponents' level ({level or 'saved/easy'})")
            print("  s) statistics   q) quit")
            try:
                choice = input("> ").strip().lower()
            except EOFError:
                return 0
            if choice in ("q", "quit", ""):
                return 0
            if choice in ("s", "stats"):
                print(format_stats(store.stats(), store.loss_trends()))
                continue
            word, _, number = choice.partition(" ")
            if word in ("n", "r", "o") and number.isdigit() and 1 <= int(number) <= len(games):
                picked = games[int(number) - 1]
                if word == "r":
                    print((rules_text(picked.name) or f"{picked.title} has no rules page installed").rstrip("\n"))
                    continue
                if word == "o":  # the same options, checks and store as the table's options screen
                    menu_options.edit(store, picked)
                    continue
                try:
                    engine, open_hands, ask_replay = _menu_options(store, picked)
                    _play(store, picked, engine, fresh=True, level=level, open_hands=open_hands, ask_replay=ask_replay)
                except (UsageError, StoreError, ValueError) as exc:
                    print(f"parlour: {_one_line(exc)}", file=sys.stderr)
                continue
            if choice in ("l", "level"):
                try:
                    answer = input("Opponents' level (random, easy, strong): ").strip().lower()
                except EOFError:
                    return 0
                if answer in ("random", "easy", "strong"):
                    level = answer
                else:
                    print(f"Unknown level {answer!r}: it stays {level or 'as saved'}.")
                continue
            if choice.isdigit() and 1 <= int(choice) <= len(games):
                try:
                    engine, open_hands, ask_replay = _menu_options(store, games[int(choice) - 1])
                    _play(store, games[int(choice) - 1], engine, fresh=False, level=level, open_hands=open_hands,
                          ask_replay=ask_replay)
                except (UsageError, StoreError, ValueError) as exc:
                    print(f"parlour: {_one_line(exc)}", file=sys.stderr)
                continue
            print("Choose a number from the list, n N, o N, r N, l, s or q.")
    finally:
        store.close()


def run(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser, subs = _build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command in GAME_COMMANDS:
        parsed = _parse_game_command(argv, args, extra, subs)
        if parsed is None:
            return 0
        args, game, options = parsed
        return cmd_demo(args, game, options) if args.command == "demo" else cmd_play(args, game, options)
    if extra:
        where = f" for {args.command}" if args.command else ""
        raise UsageError(f"unknown argument {_shown(extra[0])[1:-1]}{where} (see `parlour --help`)")
    if args.command is None:
        if sys.stdin.isatty() and sys.stdout.isatty():
            from .tui import run as run_tui

            return run_tui(args.db)
        return cmd_menu(args.db)
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "replay": cmd_replay, "verify": cmd_verify, "rules": cmd_rules, "review": cmd_review, "stats": cmd_stats,
        "history": cmd_history, "export": cmd_export, "menu": lambda a: cmd_menu(a.db), "arena": cmd_arena,
        "serve": cmd_serve, "db": cmd_db}
    return commands[args.command](args)


def cmd_serve(args: argparse.Namespace) -> int:
    """The browser tables (``parlour.web``): prints the address, serves until Ctrl+C."""
    from .web.limits import Limits
    from .web.server import serve

    limits = None if args.close_after is None else Limits(unfinished_seconds=args.close_after * 86_400)
    return serve(args.host, args.port, args.db, allowed_hosts=args.allowed_hosts, proxies=args.proxies,
                 share_history=args.share_history, bus=args.bus, processes=args.processes, limits=limits)


def cmd_arena(args: argparse.Namespace) -> int:
    """Duplicate deals between two levels, with a progress bar on stderr and the table on stdout."""
    from . import arena

    if not _is_game(args.game):
        raise UsageError(f"unknown game {_shown(args.game)}; the games are: {', '.join(names())}")
    for level in (args.level_a, args.level_b):
        _check_level(args.game, level)

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            width = 30
            filled = width * done // total
            print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} packs", end="", file=sys.stderr)
            if done == total:
                print(file=sys.stderr)

    result = arena.run(args.game, args.level_a, args.level_b, args.deals, jobs=args.jobs, think=args.think,
                       seed=args.seed, progress=progress)
    print(result.table())
    return 0


def _one_line(exc: BaseException, limit: int = 500) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(argv)
    except _Exit as exc:  # --help or --version
        return exc.status
    except (UsageError, StoreError, ValueError) as exc:  # ValueError: unknown game or option from the registry
        print(f"parlour: {_one_line(exc)}", file=sys.stderr)
        return 2
    except sqlite3.Error as exc:  # the store reports its own failures as StoreError; this is a last guard
        print(f"parlour: the saved-games database failed: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("\nInterrupted; your game is saved.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
