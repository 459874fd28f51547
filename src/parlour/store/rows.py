"""The rows the store hands back: dataclasses, the same from every backend.

Why dataclasses and not dicts: a caller that misspells a field fails under mypy, not on a
player's screen, and both backends are held to one shape.  Decoding is here too, because a
row damaged by hand or by another program (SQLite keeps whatever was written) must still be
listed with what can be read, whichever backend it came from.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from decimal import Decimal
from typing import Any


@dataclass(frozen=True)
class SavedGame:
    """A game in progress (``parlour play`` resumes it): its record and what was kept beside it."""

    record: str
    settings: dict[str, Any]  # level, open hands, human seat


@dataclass(frozen=True)
class FinishedGame:
    """One line of ``parlour history``; ``damaged`` names the fields that could not be read."""

    id: int
    game: str
    level: str
    human_seat: int | None
    winner: int | None
    scores: list[int | float]
    finished: float
    ended: dict[str, Any] | None  # how it ended short of its end, from its record: {"how", "seat"}; else None
    damaged: list[str]

    def as_json(self) -> dict[str, Any]:
        """For the browser's history page."""
        return asdict(self)


@dataclass(frozen=True)
class GameStats:
    """Played, won, lost and drawn for one game and opponent level, from the human's seat."""

    game: str
    level: str
    played: int
    won: int
    lost: int
    drawn: int
    won_with_undo: int
    resigned: int


@dataclass(frozen=True)
class WebTable:
    """A browser table (``parlour.web``): its record, seats, settings and action count."""

    id: str
    game: str
    record: str
    seats: list[dict[str, Any]]
    settings: dict[str, Any]
    actions: int
    finished: int | None  # its number among the finished games, once over


@dataclass(frozen=True)
class BrokenSave:
    """A saved game that no longer replayed, kept aside rather than deleted."""

    id: int
    game: str
    record: str
    error: str
    found: float


def _json_or(text: object, default: Any) -> Any:
    try:
        return json.loads(text)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError):
        return default


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _whole(value: Any) -> int | None:
    """A seat read from a record's JSON: an int (PostgreSQL gives a JSON number as a Decimal)."""
    if isinstance(value, Decimal) and value == value.to_integral_value():
        return int(value)
    return _int_or_none(value)


def decode_saved(record: str, settings: object) -> SavedGame:
    decoded = _json_or(settings, {})
    return SavedGame(record, decoded if isinstance(decoded, dict) else {})


def decode_finished(row: tuple[Any, ...]) -> FinishedGame:
    """(id, game, level, human_seat, winner, scores, finished, how, quitter), each checked: one bad row never
    hides the others.  ``how`` and ``quitter``: the record's ``"ended"`` (``Dialect.ended_rows``)."""
    gid, game, level, human_seat, winner, scores, finished, how, quitter = row
    damaged: list[str] = []
    decoded = _json_or(scores, None)
    if not (isinstance(decoded, list) and all(isinstance(s, int | float) for s in decoded)):
        damaged.append("scores")
        decoded = []
    seat, win = _int_or_none(human_seat), _int_or_none(winner)
    if seat is None and human_seat is not None:
        damaged.append("human_seat")
    if win is None and winner is not None:
        damaged.append("winner")
    if not isinstance(finished, int | float):
        damaged.append("finished")
        finished = 0.0
    ended = {"how": str(how), "seat": _whole(quitter)} if how is not None else None
    return FinishedGame(int(gid), str(game), str(level), seat, win, decoded, float(finished), ended, damaged)


def decode_web_table(table_id: str, row: tuple[Any, ...]) -> WebTable:
    """(game, record, seats, settings, actions, finished): written only by Parlour's server, so decoded strictly."""
    game, record, seats, settings, actions, finished = row
    return WebTable(table_id, str(game), str(record), json.loads(seats), json.loads(settings), int(actions),
                    None if finished is None else int(finished))


def decode_options(rows: list[tuple[Any, ...]]) -> dict[str, Any]:
    """(name, JSON value) rows as a dict; a value that cannot be read is left out."""
    missing = object()
    out = {str(name): _json_or(value, missing) for name, value in rows}
    return {name: value for name, value in out.items() if value is not missing}
