"""The ``parlour`` command: menu, play, new, demo, replay, stats, history, export.

Bad input never shows a traceback: a bad argument, game, option or file gives one line on
stderr and exit status 2; a bad move at the prompt is explained and asked again.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .bots import LEVELS, make
from .engine import Game, Option
from .linemode.play import format_stats, play_human, watch
from .records import from_json
from .registry import game_class, names
from .saves import open_game
from .store import Store, StoreError
from .table import Table, seat_names

HUMAN_SEAT = 0


class UsageError(Exception):
    """A bad command line, game, option or file: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def _option_flag(option: Option) -> str:
    return "--" + option.name.replace("_", "-")


def _game_options(game: type[Game], extra: list[str], command: str) -> dict[str, Any]:
    """Parse a game's own options (``--game-point 300 --no-tie``) from what the main parser left."""
    parser = _Parser(prog=f"parlour {command} {game.name}", add_help=False)
    for option in game.OPTIONS:
        flag = _option_flag(option)
        if option.kind is bool:
            parser.add_argument(flag, dest=option.name, action="store_true", default=None)
        elif option.kind is int:
            parser.add_argument(flag, dest=option.name, type=int, default=None)
        else:
            parser.add_argument(flag, dest=option.name, default=None)
    try:
        known, unknown = parser.parse_known_args(extra)
    except UsageError:
        raise
    if unknown:
        valid = " ".join(_option_flag(o) for o in game.OPTIONS) or "none"
        raise UsageError(f"unknown option {unknown[0]} for {game.name} (its options: {valid})")
    return {k: v for k, v in vars(known).items() if v is not None}


def _build_parser() -> _Parser:
    parser = _Parser(prog="parlour", description="Five classic card games against the computer.")
    parser.add_argument("--version", action="version", version=f"parlour {__version__}")
    parser.add_argument("--db", help="the saved-games database (default: in your user data folder)")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    def game_command(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text + " Game options follow the game name,"
                           " e.g. `parlour play clobby --game-point 300 --no-tie`.")
        p.add_argument("game", help="one of: " + ", ".join(names()))
        p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        return p

    for name, help_text in (("play", "Play a game (resumes your saved game of it if there is one)."),
                            ("new", "Start a new game, replacing any saved game of it.")):
        p = game_command(name, help_text)
        p.add_argument("--level", choices=None, help=f"computer opponents: {', '.join(LEVELS)} (default easy)")
        p.add_argument("--seed", type=int, help="seed for the shuffle and first dealer (a new game only)")
        p.add_argument("--open", action="store_true", help="open hands: see every seat's cards")
        p.add_argument("--replay", action="store_true", help="ask at each deal whether to replay the previous one")
        p.add_argument("--delay", type=float, default=0.0, help="seconds to pause after each computer move")
        p.add_argument("--jokes", action="store_true", help="the computer tells jokes (Le Truc)")

    p = game_command("demo", "Watch the computer play every seat.")
    p.add_argument("--level", default="easy", help=f"computer players: {', '.join(LEVELS)}")
    p.add_argument("--seed", type=int, help="seed for the shuffle and first dealer")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause after each move")
    p.add_argument("--record", help="also write the game record (JSON) to this file")
    p.add_argument("--deals", type=int, help="stop after this many deals (default: the whole game)")

    p = sub.add_parser("replay", help="Replay a game record file, with every hand shown.")
    p.add_argument("file", help="a record written by `parlour export` or `parlour demo --record`")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause after each move")

    p = sub.add_parser("stats", help="Your results per game and opponent level.")
    p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p = sub.add_parser("history", help="List finished games.")
    p.add_argument("game", nargs="?", help="only this game")
    p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p = sub.add_parser("export", help="Print a finished game's record (JSON), by its number in `history`.")
    p.add_argument("id", type=int)
    p.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub.add_parser("menu", help="The game menu in line mode (`parlour` alone opens the full-screen one).")
    return parser


def _open_store(path: str | None) -> Store:
    try:
        store = Store(path)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    if store.notice:
        print(f"parlour: {store.notice}", file=sys.stderr)
    return store


def _check_level(game: str, level: str) -> None:
    try:
        make(game, level)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def cmd_play(args: argparse.Namespace, extra: list[str], fresh: bool) -> int:
    game = game_class(args.game)
    options = _game_options(game, extra, args.command)
    if args.level is not None:
        _check_level(game.name, args.level)
    store = _open_store(args.db)
    try:
        game(**options)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        opening = open_game(store, game.name, options, fresh=fresh, seed=args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    for notice in opening.notices:
        print(notice)
    if opening.resumed:
        print(f"(`parlour new {game.name}` starts a new one.)")
    state, settings = opening.state, opening.settings
    level = args.level or settings.get("level", "easy")
    _check_level(game.name, level)
    open_hands = bool(args.open or (settings.get("open", False) and not fresh))
    players = [None if seat == HUMAN_SEAT else make(game.name, level) for seat in range(game.num_players)]
    meta = {"level": level, "open": open_hands, "human_seat": HUMAN_SEAT}

    def save(table: Table) -> None:
        store.save_game(game.name, table.state.to_json(), meta)

    table = Table(state, players, open_hands=open_hands, on_save=save)
    save(table)
    names_ = seat_names(game.num_players)
    print(f"{game.title}: you are {names_[HUMAN_SEAT]} against the {level} computer. Type h for help.")
    outcome = play_human(table, HUMAN_SEAT, delay=args.delay, ask_replay=args.replay, jokes=args.jokes)
    if outcome == "over":
        game_id = store.finish_game(game.name, state.to_json(), level, HUMAN_SEAT, state.winner, state.scores)
        print(f"Saved as finished game #{game_id}: `parlour export {game_id} > game.json` then "
              "`parlour replay game.json` to watch it again.")
    else:
        why = "Input ended" if outcome == "eof" else "Bye"
        print(f"{why}; your game is saved. `parlour play {game.name}` resumes it.")
    store.close()
    return 0


def cmd_demo(args: argparse.Namespace, extra: list[str]) -> int:
    game = game_class(args.game)
    options = _game_options(game, extra, "demo")
    _check_level(game.name, args.level)
    try:
        state = game(**options).new_state(seed=args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    players = [make(game.name, args.level) for _ in range(game.num_players)]
    table = Table(state, list(players), open_hands=True)
    print(f"{game.title} demo: the {args.level} computer plays every seat (seed {state.seed}).")
    if args.deals is not None and args.deals < 1:
        raise UsageError("--deals must be 1 or more")
    watch(table, out=print, delay=args.delay, max_deals=args.deals)
    if args.record:
        try:
            Path(args.record).write_text(state.to_json() + "\n")
        except OSError as exc:
            raise UsageError(f"cannot write {args.record}: {exc.strerror}") from None
        print(f"Record written to {args.record}.")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text()
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror}") from None
    try:
        record = json.loads(text)
        if not isinstance(record, dict):
            raise ValueError("it is not a JSON object")
        from_json(record)  # validates the whole record before narrating it
        game = game_class(record["game"])
        state = game(**(record.get("options") or {})).new_state(
            seed=record.get("seed"), deck=record.get("deck"), dealer=record.get("dealer"))
    except (ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{args.file} is not a valid game record: {exc}") from None
    table = Table(state, [None] * game.num_players, open_hands=True)
    print(f"Replaying a {game.title} game (seed {state.seed}).")
    watch(table, list(record["actions"]), out=print, delay=args.delay)
    return 0


def cmd_menu(db: str | None) -> int:
    games = [game_class(n) for n in names()]
    while True:
        print("\nParlour: choose a game")
        for i, g in enumerate(games, 1):
            print(f"  {i}) {g.title:<14} {g.description}")
        print("  s) statistics   q) quit")
        try:
            choice = input("> ").strip().lower()
        except EOFError:
            return 0
        if choice in ("q", "quit", ""):
            return 0
        if choice in ("s", "stats"):
            store = _open_store(db)
            print(format_stats(store.stats()))
            store.close()
            continue
        if choice.isdigit() and 1 <= int(choice) <= len(games):
            args = argparse.Namespace(command="play", game=games[int(choice) - 1].name, level=None, seed=None,
                                      open=False, replay=False, delay=0.0, jokes=False, db=db)
            cmd_play(args, [], fresh=False)
            continue
        print("Choose a number from the list, s or q.")


def run(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        if extra:
            raise UsageError(f"unknown argument {extra[0]}")
        if sys.stdin.isatty() and sys.stdout.isatty():
            from .tui import run as run_tui

            return run_tui(args.db)
        return cmd_menu(args.db)
    if args.command in ("play", "new", "demo"):
        game_class(args.game)  # unknown game -> ValueError
    elif extra:
        raise UsageError(f"unknown argument {extra[0]} for {args.command}")
    if args.command in ("play", "new"):
        return cmd_play(args, extra, fresh=args.command == "new")
    if args.command == "demo":
        return cmd_demo(args, extra)
    if args.command == "replay":
        return cmd_replay(args)
    if args.command == "menu":
        return cmd_menu(args.db)
    store = _open_store(args.db)
    try:
        if args.command == "stats":
            print(format_stats(store.stats()))
        elif args.command == "history":
            rows = store.finished_games(args.game)
            if not rows:
                print("No finished games yet.")
            for r in rows:
                result = "drawn" if r["winner"] is None else ("won" if r["winner"] == r["human_seat"] else "lost")
                if r["human_seat"] is None:
                    result = "demo"
                print(f"#{r['id']:<5} {r['game']:<10} vs {r['level']:<7} {result:<6} scores {r['scores']}")
        elif args.command == "export":
            record = store.finished_record(args.id)
            if record is None:
                raise UsageError(f"there is no finished game #{args.id} (see `parlour history`)")
            print(record)
    finally:
        store.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(argv)
    except UsageError as exc:
        print(f"parlour: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:  # unknown game or option from the registry
        print(f"parlour: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("\nInterrupted; your game is saved.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
