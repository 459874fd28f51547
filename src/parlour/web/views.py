"""What one browser is sent: its seat's view and the words and hints drawn from that view only.

Why a module of its own: this is the one place where the server decides what leaves it.
A seat's frame is built from ``Table.view(seat)`` (the engine's view for that seat, plus every
hand only if the table is open-hands), the shared narration of public table events
(``parlour.text``), and things the engine says about that seat's own cards.  A spectator's
frame is built from the *public view*: what every seat's view agrees on.
"""

from __future__ import annotations

from typing import Any

from ..table import Event, Table
from ..text import describe, narrate, seat_labels
from ..tui.keys import assign_keys, card_key


def public_view(table: Table) -> dict[str, Any]:
    """The part of the position every seat sees alike (plus every hand at an open-hands table).

    Why an intersection rather than a list of public keys: a key is public exactly when every
    seat's view holds the same value, so no game has to declare anything and a new private key
    can never slip through to a spectator.
    """
    views = [dict(table.state.view(seat)) for seat in range(table.state.game.num_players)]
    out = _common(views)
    out["seat"] = None
    out["hand"] = []
    if table.open_hands:
        out["open_hands"] = {str(s): list(views[s]["hand"]) for s in range(len(views))}
    return out


def _common(values: list[dict[str, Any]]) -> dict[str, Any]:
    first = values[0]
    out: dict[str, Any] = {}
    for key, value in first.items():
        if not all(key in other for other in values[1:]):
            continue
        others = [other[key] for other in values[1:]]
        if all(other == value for other in others):
            out[key] = value
        elif isinstance(value, dict) and all(isinstance(o, dict) for o in others):
            out[key] = _common([value, *others])
    return out


def narrate_events(events: list[Event], game: str, num_players: int, seat: int | None) -> list[str]:
    """The announcements for ``seat`` (None: a spectator): the same sentences as line mode."""
    lines: list[str] = []
    for event in events:
        lines += narrate(event, game, num_players, seat)
    return lines


def seat_frame(table: Table, seat: int | None, *, count: int, lines: list[str],
               players: list[dict[str, Any]], table_id: str, can_undo: bool = False) -> dict[str, Any]:
    """The ``state`` frame for ``seat`` (None: a spectator)."""
    state = table.state
    game = state.game
    view: dict[str, Any] = dict(table.view(seat)) if seat is not None else public_view(table)
    try:
        said = describe(view)
    except (KeyError, TypeError, ValueError, IndexError):  # a spectator's view lacks a seat's own keys
        said = []
    summary: list[str] = []
    if view.get("last_deal"):
        summary = narrate(Event("deal_scored", None, dict(view["last_deal"])), game.name, game.num_players, seat)
    hand: list[str] = list(view.get("hand") or [])
    legal: list[str] = list(view.get("legal_actions") or [])
    in_hand = set(hand)
    buttons = [a for a in legal if a not in in_hand]
    cards = [a for a in legal if a in in_hand]
    reserved = {card_key(i) for i in range(len(hand))} if cards else set()
    keys = dict(zip(buttons, assign_keys(buttons, reserved), strict=True))
    illegal: dict[str, str] = {}
    if seat is not None and legal:
        for card in hand:
            if card not in legal:
                illegal[card] = _why(table, card)
    return {
        "type": "state", "table": table_id, "count": count, "seat": seat, "game": game.name,
        "title": game.title or game.name, "view": view, "names": seat_labels(game.num_players, seat),
        "players": players, "describe": said, "summary": summary, "log": lines,
        "buttons": buttons, "keys": keys, "illegal": illegal,
        "can_replay": seat is not None and bool(state.deals) and not state.is_over, "can_undo": can_undo,
        # the table answers this seat's only, automatic action itself: the page does not ask
        "auto": seat is not None and table.to_move == seat and table.auto_action() is not None,
    }


def _why(table: Table, card: str) -> str:
    """The engine's own reason that ``card`` may not be played now (it is not in the legal list).

    ``apply`` checks legality before it changes anything, so asking it about an illegal card
    leaves the state exactly as it was.
    """
    from ..engine import IllegalAction

    try:
        table.state.apply(card)
    except IllegalAction as exc:
        return exc.why or "not playable now"
    raise AssertionError(f"{card} was legal after all")  # pragma: no cover - guarded by the caller
