"""Game records: ``from_json`` rebuilds the identical state from what ``State.to_json`` wrote.

Why its own module: replaying a record needs the registry (to find the game by name),
and the registry needs the engine, so keeping this out of ``engine.py`` keeps the layers
one-way: engine <- registry <- records.
"""

from __future__ import annotations

import json
from typing import Any

from .engine import REPLAY_DEAL, State
from .registry import load


def from_json(text: str | dict[str, Any]) -> State:
    """Rebuild a state from its record (a JSON string or the decoded dict).

    Raises ``ValueError`` with a readable message for anything malformed, including an
    action in the record that is not legal where it stands.
    """
    try:
        rec = json.loads(text) if isinstance(text, (str, bytes)) else dict(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise ValueError(f"not a game record: {exc}") from None
    if not isinstance(rec, dict) or "game" not in rec or "actions" not in rec:
        raise ValueError("not a game record: it needs at least 'game' and 'actions'")
    options = rec.get("options") or {}
    if not isinstance(options, dict) or not isinstance(rec["actions"], list):
        raise ValueError("not a game record: 'options' must be an object and 'actions' a list")
    game = load(rec["game"], **options)
    state = game.new_state(seed=rec.get("seed"), deck=rec.get("deck"), dealer=rec.get("dealer"))
    for i, action in enumerate(rec["actions"]):
        if not isinstance(action, str):
            raise ValueError(f"record action {i + 1} is not a string: {action!r}")
        try:
            if action == REPLAY_DEAL:
                state.replay_deal()
            else:
                state.apply(action)
        except ValueError as exc:
            raise ValueError(f"record action {i + 1} ({action!r}) cannot be replayed: {exc}") from None
    return state
