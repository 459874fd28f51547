"""What a seat declared in a deal, and whether it made it: the bidding table of ``parlour arena``.

Why a table of its own: over- and underbidding are what players of card programs complain of
most, and a margin per deal cannot tell them apart from card play.  Counting, for each
contract, how often a level declares it and how often it is made -- beside the same count for
the open-cards cheater on the same packs (``bench/bench_*_strong.py``) -- shows which it is.

Each game says it from its deal summary (``state.deals[i]``, RULES.md's keys), as data: who
declared, the contract's name, and whether it was made.  Games with no declaring (Le Truc's
calls are raises, GOPS has none) have no entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: (contract, made), or None when ``seat`` did not declare in the deal of ``summary``.
Declared = tuple[str, bool] | None


def _sixbid(summary: Mapping[str, Any], seat: int) -> Declared:
    if summary.get("soloist") != seat or summary.get("bid") is None:
        return None
    return str(summary["bid"]), bool(summary["made"])


def _schafkopf(summary: Mapping[str, Any], seat: int) -> Declared:
    """The pick-up solo (everyone passing is a Ramsch, which nobody declares)."""
    if summary.get("soloist") != seat:
        return None
    return "solo", summary["scores"][seat] > 0


def _clobby(summary: Mapping[str, Any], seat: int) -> Declared:
    """The maker: the upcard's suit taken in the first round, or another suit named in the second."""
    if summary.get("maker") != seat or summary.get("trump") is None:
        return None
    first = str(summary.get("upcard", ""))[-1:] == summary["trump"]
    return ("took the upcard" if first else "named a suit"), not summary["bete"]


DECLARED: dict[str, Callable[[Mapping[str, Any], int], Declared]] = {
    "sixbid": _sixbid, "schafkopf": _schafkopf, "clobby": _clobby,
}


def declared(game: str, summary: Mapping[str, Any], seat: int) -> Declared:
    """What ``seat`` declared in the deal of ``summary`` and whether it was made (None: nothing, or no such game)."""
    rule = DECLARED.get(game)
    return None if rule is None or summary.get("thrown_in") else rule(summary, seat)


def table(counts: Mapping[Declared, int], seatings: int, title: str) -> list[str]:
    """``counts`` (per contract and made, None: declared nothing) as lines: how often, and how often made."""
    lines = [f"  {title}: declared in {seatings - counts.get(None, 0)} of {seatings} seatings",
             f"    {'contract':18} {'declared':>8} {'of all':>7} {'made':>6} {'made %':>7}"]
    names = sorted({d[0] for d in counts if d is not None})
    for name in names:
        made, lost = counts.get((name, True), 0), counts.get((name, False), 0)
        n = made + lost
        share, rate = 100 * n / max(1, seatings), 100 * made / max(1, n)
        lines.append(f"    {name:18} {n:>8} {share:>6.1f}% {made:>6} {rate:>6.1f}%")
    return lines
