"""Reviews of finished deals for the browsers: worked out only when a person asks, never a way to load the server.

Why so guarded: a review takes a second or two of a worker's time, and anyone may click.  So:

- a review is worked out only on request, in the server's worker pool (the computer players'),
  at most ``max(1, workers - 1)`` at a time, so a worker is always left for the computer players
  and play of the next deal never waits for a review;
- one at a time per person (a seat at a table, or an address for the shared history): a second
  request while the first is worked out is refused with a one-line reason;
- at most ``CAP`` waiting or running in the whole server: past it, "busy, try again";
- kept once worked out (the store, with its verdict for the statistics), so asking again costs
  nothing, and while it is worked out the person is told so.

What a person is given is decided by ``review.judge`` (their own seat's review, only the cards
the deal's end showed them); a table's people never get one another's.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection

from ..review.report import from_dict
from ..review.say import head, step_lines, step_title
from ..review.walk import NotOver, ended
from ..review.worker import budget, game_key, kept_review, review_job, verdict_of
from .live import Refused
from .tables import Tables

#: reviews waiting or being worked out in the whole server, at most
CAP = 4
BUSY = "the server is busy working out other reviews: try again in a minute"
WORKING = "The review of deal {deal} is being worked out: play on, it shows as soon as it is ready."


class Busy(Refused):
    """The server has ``CAP`` reviews under way: the person is told to try again."""


@dataclass(frozen=True)
class Asked:
    """One review asked for: the game (its record), the deal, the seat reviewed and whose seats are people's."""

    record: Mapping[str, Any]
    deal: int
    seat: int
    people: tuple[int, ...] = ()


def reviewing(connection: HTTPConnection) -> Reviews:
    """The reviews of the server a request or a WebSocket reached (``create_app`` keeps them on the app)."""
    found: Reviews = connection.app.state.parlour["reviews"]
    return found


def deal_asked(deal: object, deals: int) -> int:
    """The deal a person asks to review: one of the ``deals`` that have ended (``Refused`` otherwise)."""
    try:
        return ended(deal, deals)
    except NotOver as exc:
        raise Refused(str(exc)) from None


def frame(data: dict[str, Any], count: int) -> dict[str, Any]:
    """What a browser is sent of a review: its pages in words, their titles and the verdict's figures."""
    return {"type": "review", "status": "ready", "deal": data["deal"], "count": count, "pages": pages(data),
            "titles": titles(data), "unit": data["unit"], "loss": data["loss"], "accuracy": data["accuracy"]}


def working_frame(deal: int, count: int) -> dict[str, Any]:
    """What a browser is told while its review is worked out."""
    return {"type": "review", "status": "working", "deal": deal, "count": count, "message": WORKING.format(deal=deal)}


def pages(data: dict[str, Any]) -> list[list[str]]:
    """A review's pages as the page shows them: its verdict, then each trick (``review.say``'s words)."""
    review = from_dict(data)
    return [head(review)] + [step_lines(review, s) for s in review.steps]


def titles(data: dict[str, Any]) -> list[str]:
    """Each page's title, for the page's buttons: "Verdict", then "Before the first trick", "Trick 1"..."""
    return ["Verdict"] + [step_title(data["game"], s["trick"]) for s in data["steps"]]


class Reviews:
    """The browser server's reviews (see the module docstring), worked out in ``tables.computers.pool``."""

    def __init__(self, tables: Tables, workers: int, cap: int = CAP) -> None:
        self.tables = tables
        self.cap = cap
        self.running = asyncio.Semaphore(max(1, workers - 1))
        self.jobs: dict[tuple[str, int, int], asyncio.Future[dict[str, Any]]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.by_person: dict[Hashable, tuple[str, int, int]] = {}

    def kept(self, asked: Asked) -> dict[str, Any] | None:
        """The review kept from before (worked out once: asking again costs nothing), else None."""
        found = kept_review(self.tables.store, asked.record, asked.deal, asked.seat, _samples(asked.record))
        return None if found is None else found.to_dict()

    def ask(self, person: Hashable, asked: Asked) -> asyncio.Future[dict[str, Any]]:
        """The review, to be awaited: worked out now in the pool (or already under way for this deal).

        ``Refused`` when ``person`` has another review under way; ``Busy`` past the server's cap.
        """
        key = (game_key(asked.record), asked.deal, asked.seat)
        under_way = self.jobs.get(key)
        if under_way is not None:
            return under_way
        theirs = self.by_person.get(person)
        if theirs is not None and theirs in self.jobs:
            raise Refused(f"your review of deal {theirs[1]} is still being worked out: one at a time")
        if len(self.jobs) >= self.cap:
            raise Busy(BUSY)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self.jobs[key] = future
        self.by_person[person] = key
        future.add_done_callback(lambda f: f.cancelled() or f.exception())  # a failure nobody awaits: not "lost"
        task = loop.create_task(self._work(key, person, asked, future))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return future

    async def _work(self, key: tuple[str, int, int], person: Hashable, asked: Asked,
                    future: asyncio.Future[dict[str, Any]]) -> None:
        loop = asyncio.get_running_loop()
        try:
            async with self.running:
                pool = self.tables.computers.pool
                text = await loop.run_in_executor(pool, review_job, dict(asked.record), asked.deal,
                                                  asked.seat, asked.people, _samples(asked.record))
            data = json.loads(text)
            if not self.tables.store.read_only:
                self.tables.store.save_review(*_kept_as(asked, data), text, counted=True)
            future.set_result(data)
        except Exception as exc:  # a review failing is said to whoever asked; the server goes on
            future.set_exception(Refused(f"the review could not be worked out: {str(exc)[:200]}"))
        finally:
            self.jobs.pop(key, None)
            if self.by_person.get(person) == key:
                del self.by_person[person]


def _samples(record: Mapping[str, Any]) -> int:
    return budget(str(record.get("game")))


def _kept_as(asked: Asked, data: dict[str, Any]) -> tuple[str, int, int, int, dict[str, Any]]:
    return game_key(asked.record), asked.deal, asked.seat, int(data["samples"]), verdict_of(data)
