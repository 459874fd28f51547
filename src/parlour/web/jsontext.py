"""JSON text for what the browser server sends and stores: frames, event logs, game records.

Why one function: orjson is several times faster than the standard library on the server's
hot path, but it stops at 64-bit integers while the engine takes seeds of up to 77 digits;
every caller needs the same fast path with the same fallback.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def encode(value: Any) -> str:
    """``value`` as compact JSON text (as ``json.dumps`` makes it: integer keys as strings).

    A number past 64 bits has the containers around it written piece by piece, each of the
    other pieces by orjson still.  Why not the standard library for the whole: every game's
    record holds its 128-bit seed, and a browser table writes its record at every move; the
    standard library took ten times orjson's time over it (30 us against 3).
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        if not isinstance(value, int | dict | list | tuple):
            raise  # not a number's size: a value JSON cannot hold (a bool never gets here)
        if isinstance(value, int):
            return str(value)  # (the standard library has no limit)
        if isinstance(value, dict):
            if not all(isinstance(key, str) for key in value):
                return json.dumps(value, separators=(",", ":"))
            return "{" + ",".join(f"{encode(key)}:{encode(item)}" for key, item in value.items()) + "}"
        return "[" + ",".join(encode(item) for item in value) + "]"


decode = orjson.loads  # JSON text to Python values (raises a ValueError on bad input)


def decode_unique(text: str | bytes) -> Any:
    """JSON from outside (a WebSocket message, a request body), refused if any object repeats a key.

    Why: parsers keep the last of two equal keys, so ``{"type":"ping","type":"act",...}`` would
    be checked by one reader as a ping and carried out as an act; one meaning per message, or
    none.  orjson also refuses invalid UTF-8 (lone surrogates too) and nesting past 1,024
    levels with a ValueError, where the standard library recursed into a RecursionError.

    Why fast: every key in the text is followed by a colon, so the text's colons are at least
    its keys, and a repeated key leaves fewer keys in the result than in the text.  When the
    result's keys are as many as the colons (a message without a colon inside its strings)
    nothing can be repeated (for a flat object, as every message is: its length is enough); only
    otherwise is the text read again, keeping every pair.
    """
    value = orjson.loads(text)
    colons = text.count(":") if isinstance(text, str) else text.count(b":")
    if colons == 0 or (len(value) if isinstance(value, dict) else -1) == colons or _keys(value) == colons:
        return value
    try:
        return json.loads(text, object_pairs_hook=_no_repeats)
    except RecursionError:  # the standard library recurses; orjson accepted up to 1,024 levels
        raise ValueError("JSON nested too deeply") from None


def _keys(value: Any) -> int:
    """How many keys the objects in ``value`` hold, all levels counted.

    A loop, not a recursion: orjson accepts 1,024 levels, past Python's recursion limit.
    """
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            count += len(item)
            item = item.values()
        elif not isinstance(item, list):
            continue
        for inner in item:
            if isinstance(inner, _NESTED):
                stack.append(inner)
    return count


_NESTED = (dict, list)


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """One JSON object's pairs as a dict, or a ValueError when a key comes twice."""
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ValueError("a JSON object repeats a key")
    return out
