"""Reviews worked out on a worker thread as soon as their deal ends, and kept (the terminal, line mode).

Why a thread of its own and a queue: a review takes a second or two, and the player reads the
deal's summary meanwhile; play of the next deal must never wait for it.  One thread works the
deals out one at a time, in the order they ended.  Why the store is written by its owner's
thread (``flush``), never by the worker: the store's connection runs one transaction at a time,
and the table saves every move on its own thread.  Why the program waits at its exit for the
review under way (``_stop_all``): a thread stopped in the middle of the search's compiled code
(GOPS's linear programs) aborts the whole process ("terminate called without an active exception").
"""

from __future__ import annotations

import atexit
import hashlib
import json
import queue
import threading
import weakref
from collections.abc import Collection, Mapping
from typing import Any, ClassVar

from ..store import Store
from .judge import hooks, review_deal
from .report import Review, dumps, from_dict

#: what ``Reviews.state`` answers
READY, WORKING, NONE = "ready", "working", "none"
#: seconds the worker thread waits for another deal before it ends (a daemon: it never holds up an exit)
IDLE = 30.0


def game_key(record: Mapping[str, Any]) -> str:
    """A game's name in the kept reviews: its record's header (the same before and after it ends)."""
    header = [record.get(k) for k in ("game", "options", "seed", "seeding", "deck", "dealer")]
    return hashlib.sha256(json.dumps(header, sort_keys=True).encode()).hexdigest()[:32]


def verdict_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """What the store keeps of a review (its JSON, ``Review.to_dict``) for the statistics."""
    return {k: data[k] for k in ("game", "unit", "loss", "decisions", "accuracy")}


def budget(game: str, samples: int | None = None) -> int:
    """The samples per decision of a review of ``game``: ``samples``, else ``Reviews.default_samples``,
    else the game's own ``SAMPLES``."""
    if samples is None:
        samples = Reviews.default_samples
    return int(hooks(game).SAMPLES if samples is None else samples)


def review_job(record: dict[str, Any], deal: int, seat: int, people: Collection[int], samples: int) -> str:
    """A review worked out where the browser server's computer players think (a worker process):
    its JSON text, which crosses back to the server cheaply."""
    return dumps(review_deal(record, deal, seat, people=people, samples=samples).to_dict())


def kept_review(store: Store | None, record: Mapping[str, Any], deal: int, seat: int, samples: int) -> Review | None:
    """The review of ``deal`` for ``seat`` kept in ``store``, if any."""
    if store is None:
        return None
    text = store.load_review(game_key(record), deal, seat, samples)
    return from_dict(json.loads(text)) if text else None


def keep(store: Store, record: Mapping[str, Any], review: Review, *, counted: bool) -> None:
    """Keep ``review`` in ``store``, with its verdict (``counted``: a person's own deal)."""
    data = review.to_dict()
    store.save_review(game_key(record), review.deal, review.seat, review.samples, verdict_of(data), dumps(data),
                      counted=counted)


class Reviews:
    """The reviews of one game's deals for the person at ``seat`` (``people``: the table's others).

    ``start`` queues a deal that has just ended; ``get`` answers with its review once worked out
    (or kept in the store from before); ``flush`` keeps the new ones in the store, on the
    caller's thread.  ``samples``: the budget (each game's default).
    """

    #: the budget when none is given (None: each game's ``SAMPLES``); the test suite makes it small
    default_samples: ClassVar[int | None] = None

    def __init__(self, store: Store | None, seat: int, *, people: Collection[int] = (),
                 samples: int | None = None) -> None:
        self.store = store
        self.seat = seat
        self.people = tuple(people)
        self.samples = samples if samples is not None else self.default_samples
        self._done: dict[int, Review | Exception] = {}
        self._asked: set[int] = set()
        self._unsaved: list[tuple[dict[str, Any], Review, bool]] = []
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._queue: queue.Queue[tuple[dict[str, Any], int, bool] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        _LIVE.add(self)

    def start(self, record: Mapping[str, Any], deal: int, *, counted: bool = True) -> None:
        """Work out deal ``deal``'s review (it has ended in ``record``) unless it is known already."""
        with self._lock:
            if deal in self._asked:
                return
            self._asked.add(deal)
        with self._lock:
            self._queue.put((dict(record), deal, counted))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="parlour-review", daemon=True)
                self._thread.start()

    def state(self, deal: int) -> str:
        with self._lock:
            if deal in self._done:
                return READY
            return WORKING if deal in self._asked else NONE

    def get(self, deal: int, timeout: float | None = 0.0) -> Review | None:
        """Deal ``deal``'s review once worked out (waiting up to ``timeout`` seconds; None: wait for
        it), else None; a review that failed raises its error here."""
        with self._ready:
            if timeout is None or timeout > 0:
                self._ready.wait_for(lambda: deal in self._done or deal not in self._asked, timeout)
            found = self._done.get(deal)
        if isinstance(found, Exception):
            raise found
        return found

    def load(self, record: Mapping[str, Any], deal: int) -> Review | None:
        """Deal ``deal``'s review kept in the store from an earlier session, taken in as worked out."""
        review = kept_review(self.store, record, deal, self.seat, budget(str(record.get("game")), self.samples))
        if review is not None:
            with self._lock:
                self._asked.add(deal)
                self._done[deal] = review
        return review

    def flush(self) -> None:
        """Keep the reviews worked out since the last flush in the store (on the caller's thread)."""
        with self._lock:
            unsaved, self._unsaved = self._unsaved, []
        if self.store is None or self.store.read_only:
            return
        for record, review, counted in unsaved:
            keep(self.store, record, review, counted=counted)

    def _run(self) -> None:
        while True:
            try:
                job = self._queue.get(timeout=IDLE)
            except queue.Empty:
                with self._lock:
                    if self._queue.empty():  # nothing came meanwhile: the next ``start`` starts a thread again
                        self._thread = None
                        return
                continue
            if job is None:  # ``stop``: the review under way is done, the rest dropped
                with self._lock:
                    self._thread = None
                return
            record, deal, counted = job
            try:
                found: Review | Exception = review_deal(record, deal, self.seat, people=self.people,
                                                        samples=self.samples)
            except Exception as exc:  # a review failing must not take the table down: it says why when asked
                found = exc
            with self._ready:
                self._done[deal] = found
                if isinstance(found, Review):
                    self._unsaved.append((record, found, counted))
                self._ready.notify_all()

    def finish(self, timeout: float = 30.0) -> None:
        """Wait (up to ``timeout`` seconds) for every review asked for, then keep them (``flush``):
        the game's last deal is reviewed and counted too when the player leaves at its end."""
        with self._ready:
            self._ready.wait_for(lambda: self._asked <= set(self._done), timeout)
        self.flush()

    def stop(self, timeout: float = 10.0) -> None:
        """Drop the reviews not begun and wait (up to ``timeout``) for the one under way."""
        with self._ready:
            while True:
                try:
                    dropped = self._queue.get_nowait()
                except queue.Empty:
                    break
                if dropped is not None:
                    self._asked.discard(dropped[1])
            self._ready.notify_all()
            thread = self._thread
            if thread is not None:
                self._queue.put(None)
        if thread is not None:
            thread.join(timeout)


_LIVE: weakref.WeakSet[Reviews] = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    """At exit, every worker finishes the review it is in the middle of (see the module docstring)."""
    for reviews in list(_LIVE):
        reviews.stop()
