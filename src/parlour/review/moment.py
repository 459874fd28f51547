"""What a game's review hooks are handed, and what they hand back.

A game takes part in reviews through an optional ``review`` module in its package
(``games/<name>/review.py``, found like its ``text`` and ``bots``), which the generic review
(``parlour.review``) asks two things about one decision:

- what its ``strong`` player makes of the decision with exactly the information the deciding
  seat had (``moment.view``): the value of each legal action (the game's unit, higher is better
  for that seat) and its choice, with ``samples`` per decision (a fixed count, never a clock:
  the same record gives the same review).  A PIMC game gives ``strong(samples)``, a player whose
  ``decide(view, rng)`` answers with a ``Decision`` (built once per thread and budget); a game
  whose player is not PIMC gives ``information(moment, rng, samples) -> Decision | None``
  itself, a mixing player's mix in ``extra["mix"]`` (GOPS, Le Truc).
- ``perfect(moment) -> ActionValues | None``: the value of each legal action in the deal as it
  lay (every hand open, best play by all after it), or None where the game has none here (not
  card play).  Asked only when every hand at that point is known to the person the review is
  for by the deal's end, so it may read ``moment.state``; within a node budget
  (``judge.PERFECT_NODES``): a solve past it raises ``search.solver.SearchCut``.

It also says its ``UNIT`` (or ``unit(options)``, where the options change it), ``SAMPLES`` (the
default count), and ``INFORMATION`` / ``PERFECT`` (what each kind of value is, in a sentence).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..engine import State

T = TypeVar("T")


@dataclass
class Moment:
    """One decision of the deal under review, as it stood.

    ``view`` is the deciding seat's view: everything ``information`` may read.  ``start`` is the
    deal as it began, for what every seat knew then (scores, dealer): a hook that builds worlds
    from it deals its unseen cards afresh from what ``view`` allows (Le Truc).  ``state`` is the
    true position, read only by ``perfect``.  ``before``/``after``: the deal's actions before this
    one and from this one on (this one first).
    """

    seat: int
    view: dict[str, Any]
    chosen: str
    state: State
    start: State
    before: Sequence[str]
    after: Sequence[str]

    @property
    def legal(self) -> list[str]:
        return list(self.view.get("legal_actions") or [])


_local = threading.local()


def kept(key: Hashable, make: Callable[[], T]) -> T:
    """This thread's one ``make()`` for ``key``: a game's strong player (and its solvers' tables)
    is built once per thread and budget, not once per decision; two threads share nothing."""
    cache: dict[Hashable, Any] | None = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    if key not in cache:
        cache[key] = make()
    found: T = cache[key]
    return found


def likeliest(policy: dict[str, float]) -> str:
    """The most likely action of a mix (its first on a tie): what a mixing player is said to choose
    (the review shows the whole mix beside it)."""
    return max(policy, key=lambda a: policy[a])
