"""Game records: ``from_json`` rebuilds the identical state from what ``State.to_json`` wrote.

Why its own module: replaying a record needs the registry (to find the game by name),
and the registry needs the engine, so keeping this out of ``engine.py`` keeps the layers
one-way: engine <- registry <- records.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .echo import shorten
from .engine import (
    MAX_DEAL_ACTIONS,
    MAX_RECORD_ACTIONS,
    MAX_REPLAY_DEALS,
    REPLAY_DEAL,
    State,
    Step,
    apply_recorded,
    replay,
)
from .fairness import Proof
from .registry import load


def _decode(text: object) -> dict[str, Any]:
    """The record's top-level object; a ``ValueError`` for anything else, however malformed."""
    if isinstance(text, (str, bytes, bytearray)):
        try:
            rec = json.loads(text)
        except RecursionError:
            raise ValueError("not a game record: it is nested too deeply") from None
        except ValueError as exc:  # JSONDecodeError, bad UTF-8, an int of too many digits
            message = str(exc)
            raise ValueError(f"not a game record: {message[:100]}{'…' if len(message) > 100 else ''}") from None
    elif isinstance(text, Mapping):
        rec = dict(text)
    else:
        raise ValueError(f"not a game record: expected JSON text or an object, not {shorten(text)}")
    if not isinstance(rec, dict) or "game" not in rec or "actions" not in rec:
        raise ValueError("not a game record: it needs at least 'game' and 'actions'")
    return rec


def _check_bounds(actions: list[Any]) -> None:
    """Refuse, before replaying anything, a record longer than any real game (see engine.py)."""
    if len(actions) > MAX_RECORD_ACTIONS:
        raise ValueError(f"the record holds {len(actions)} actions; a game record may hold at most "
                         f"{MAX_RECORD_ACTIONS} (far more than any real game), so it was not loaded")
    replays = actions.count(REPLAY_DEAL)
    if replays > MAX_REPLAY_DEALS:
        raise ValueError(f"the record replays a deal {replays} times; a game record may do so at most "
                         f"{MAX_REPLAY_DEALS} times (far more than any real game), so it was not loaded")


def _proof(proof: object) -> dict[str, Any] | None:
    """The record's ``"proof"`` (how its seed was made), checked for shape only: ``parlour verify`` checks it."""
    if proof is None:
        return None
    try:
        return Proof.from_json(proof).to_json()
    except ValueError as exc:
        raise ValueError(f"not a game record: {exc}") from None


def from_json(text: str | bytes | dict[str, Any]) -> State:
    """Rebuild a state from its record (a JSON string or the decoded dict).

    Raises ``ValueError`` with a readable one-line message for anything malformed, including
    an action in the record that is not legal where it stands and a record longer than any
    real game (``MAX_RECORD_ACTIONS`` in all, ``MAX_DEAL_ACTIONS`` in one deal,
    ``MAX_REPLAY_DEALS`` replayed deals): why bounds, because a record can come from anywhere
    and replaying a million actions would keep the caller waiting for many seconds.
    """
    rec = _decode(text)
    options = rec.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict) or not isinstance(rec["actions"], list):
        raise ValueError("not a game record: 'options' must be an object and 'actions' a list")
    for key in options:
        if not isinstance(key, str):
            raise ValueError(f"not a game record: an option name must be a text, not {shorten(key)}")
    if not isinstance(rec["game"], str):
        raise ValueError(f"not a game record: the game must be named by a text, not {shorten(rec['game'])}")
    actions: list[Any] = rec["actions"]
    _check_bounds(actions)
    game = load(rec["game"], **options)
    seeding = rec.get("seeding", 1)  # a record made before the contract was named follows the first one
    state = game.new_state(seed=rec.get("seed"), deck=rec.get("deck"), dealer=rec.get("dealer"), seeding=seeding)
    state.proof = _proof(rec.get("proof"))
    deals = 0
    deal_start = 0

    def make(step: Step) -> None:
        """Make one entry within the record's bounds, naming the entry if it cannot be made."""
        nonlocal deals, deal_start
        i, action, kind = step
        if len(state.deals) != deals or kind == "replay":
            deals = len(state.deals)
            deal_start = i
        elif i - deal_start >= MAX_DEAL_ACTIONS:
            raise ValueError(f"record action {i + 1}: one deal may hold at most {MAX_DEAL_ACTIONS} actions "
                             "(far more than any real deal), so the record was not loaded")
        try:
            if kind == "action":  # (most entries: straight to apply)
                state.apply(action)
            else:
                apply_recorded(state, action)
            if kind == "undo":  # taken-back actions and the marker do not count towards the deal's bound
                deal_start += step.undone + 1
        except ValueError as exc:
            raise ValueError(f"record action {i + 1} ({shorten(action)}) cannot be replayed: {exc}") from None

    for _ in replay(state, actions, make):
        pass
    return state
