"""The computer players of this process's tables: when a seat's move is a computer's, who thinks it, and where.

Why apart from ``tables``: ``Tables`` is the cache of a process's tables (loaded from the store,
refreshed from the bus, saved by compare-and-set, swept out of memory) and the authority on
what people do at them.  Playing the computer players' seats is another job, and with several
processes it is one process's at a time for each table: the holder of its lease
(``bus.RedisLeases``; alone, ``LocalLeases`` gives every table to this process).  Here: the
lease's holder and its hooks, the loop that plays a table's computer moves (``kick``,
``_advance``), where each move is thought (on the event loop for the cheap levels, else in a
pool of worker processes), and the timers that wake a table when an absent person's grace is
over.  What a move does to the table, its save and its announcement are ``Tables``'.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import logging
import multiprocessing
import random
import signal
import time
from typing import Any, Protocol

from ..bots import make
from ..engine import bot_seed
from ..lifeline import exit_with_parent
from ..table import Event
from .bus import Leases
from .live import LiveTable, note

log = logging.getLogger("parlour.web")

# Levels whose moves are made on the event loop itself: measured at tens of microseconds a move
# (CPU time: median 15-46 us, p99 under 3.5 ms, easy Le Truc's first moves up to ~40 ms while its
# caches fill), far less than a round trip to a worker process (pickling, a pipe, a thread switch).
# A level that turns out slow on this machine goes to the pool anyway (``_think_inline``).
INLINE_LEVELS = ("random", "easy")
INLINE_LIMIT = 0.02  # CPU seconds (a fifth of the 100 ms latency target): an inline move slower is slow
INLINE_WARMUP = 200  # moves of a game and level before slow ones count (its caches fill meanwhile)
INLINE_STALL = 0.1  # CPU seconds: one inline move this slow sends its game and level to the pool at once


def _bot_act(game: str, level: str, view: dict[str, Any], seed: int) -> str:
    """A computer player's choice, in a worker (a fresh bot: it sees only this view)."""
    return make(game, level).act(view, random.Random(seed))


def _worker_start() -> None:
    """A new worker: Ctrl+C is the server's to handle (it shuts the pool down), not the worker's;
    and the worker ends with the server, however the server ends (``exit_with_parent``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent()


def _warm_up() -> None:
    """Import every game's bots in a new worker, so the first moves of a table do not wait for it."""
    from ..registry import names, part

    for name in names():
        part(name, "bots")
    from ..search import warm  # the server compiles (warm.start in serve); a worker loads the cache

    warm.start(compile=False)


def _collections() -> int:
    return sum(generation["collections"] for generation in gc.get_stats())


class Host(Protocol):
    """What the computer players ask of the tables (``tables.Tables``): the tables in memory, a move
    taken in (saved and told with ``send_unsent``), a note told, a table read again from the store."""

    live: dict[str, LiveTable]

    async def apply_move(self, live: LiveTable, seat: int, action: str, expect: int | None = None,
                         hold: bool = False) -> bool: ...

    async def send_unsent(self, live: LiveTable) -> bool: ...

    async def publish_events(self, live: LiveTable, events: list[Event]) -> None: ...

    def announce(self, live: LiveTable, events: list[Event]) -> None: ...

    async def remote(self, table_id: str, message: dict[str, Any]) -> None: ...


class Computers:
    """The computer players of ``tables``: the tables whose lease this process holds, played in ``pool``."""

    def __init__(self, tables: Host, leases: Leases, *, workers: int = 2,
                 inline: tuple[str, ...] | None = None) -> None:
        """``inline``: the levels played on the event loop (default ``INLINE_LEVELS``; ``()``: all in the pool);
        ``workers``: the pool's processes (0: two threads, as tests use)."""
        self.tables = tables
        self.leases = leases
        self.leases.attach(self._leased, self._running)
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: set[asyncio.TimerHandle] = set()
        self.inline_levels = INLINE_LEVELS if inline is None else tuple(inline)
        self._inline_moves: dict[tuple[str, str], list[int]] = {}  # (game, level) -> [moves, slow moves]
        self._to_pool: set[tuple[str, str]] = set()  # inline levels found slow here
        # Processes, not threads: a strong bot thinking holds the GIL and would stall the event loop.
        self.pool: concurrent.futures.Executor
        if workers > 0:
            self.pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start)
            for _ in range(workers):
                self.pool.submit(_warm_up)
        else:
            self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)

    def close(self) -> None:
        """Stop thinking: the moves under way, the grace timers, the pool (``Tables.close`` says why it waits)."""
        for task in list(self._tasks):
            task.cancel()
        for timer in list(self._timers):
            timer.cancel()
        self.pool.shutdown(wait=True, cancel_futures=True)

    def _think_inline(self, game: str, level: str, view: dict[str, Any], seed: int) -> str | None:
        """A cheap computer player's move, made here on the event loop; None: ask the worker pool.

        Why measured: a level is inline only while its moves stay cheap on this machine.  More
        than one move in a hundred over ``INLINE_LIMIT`` CPU seconds (after the first few, which
        fill caches) sends that game and level to the pool for the rest of the process, and so does
        a single move over ``INLINE_STALL``.
        """
        if level not in self.inline_levels or (game, level) in self._to_pool:
            return None
        stats = self._inline_moves.setdefault((game, level), [0, 0])
        collections = _collections()
        start = time.thread_time()
        action = _bot_act(game, level, view, seed)
        spent = time.thread_time() - start
        if _collections() != collections:
            return action  # the garbage collector ran meanwhile: its pause says nothing of this level
        stats[0] += 1
        if spent > INLINE_LIMIT and stats[0] > INLINE_WARMUP:
            stats[1] += 1
        if spent > INLINE_STALL or (stats[1] > 5 and stats[1] * 100 > stats[0] - INLINE_WARMUP):
            self._to_pool.add((game, level))
            log.warning("%s %s moves are slow here: they go to the worker pool from now on", game, level)
        return action

    def wake_after_grace(self, live: LiveTable) -> None:
        """Look at the table again when an absent person's grace period is over (a computer may take over)."""
        takeover = live.settings.get("takeover")
        if not takeover:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        timer = loop.call_later(float(takeover["after"]) + 0.05, self._wake, live)
        self._timers.add(timer)

    def _wake(self, live: LiveTable) -> None:
        self._timers = {t for t in self._timers if not t.cancelled() and t.when() > asyncio.get_running_loop().time()}
        self.kick(live)
        if not live.advancing:  # nobody to play for yet: no announcement, but the seats' state changed
            self.tables.announce(live, [])

    async def _standing_in(self, live: LiveTable, seat: int, level: str) -> None:
        if seat not in live.standing_in and seat not in live.demo and not live.seats[seat].get("left"):
            live.standing_in.add(seat)
            await self.tables.publish_events(live, [note("stand_in", seat, {"level": level})])

    def kick(self, live: LiveTable) -> None:
        """Let the computer players (and automatic answers) move, in the background."""
        if live.advancing or live.table is None or live.over:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.advancing = True
        task = loop.create_task(self._advance(live))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _advance(self, live: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        try:
            if not await self.leases.acquire(live.id):
                return  # another process runs this table's computer players (``bus.RedisLeases``)
            while self.tables.live.get(live.id) is live and self.leases.holds(live.id):
                table = live.dealt
                seat = table.to_move
                if seat is None or live.over:
                    return
                action = table.auto_action()
                count = live.count
                if action is None:
                    level = live.seats[seat]["level"]
                    if table.is_human(seat):
                        level = live.stand_in(seat)
                        if level is None:
                            return  # the person plays (or is within the grace period: a timer wakes us)
                        await self.tables.send_unsent(live)
                        await self._standing_in(live, seat, level)
                    seed = bot_seed(table.state.seed, count)  # as Table.bot_choice: never a deal's generator
                    view = dict(table.state.view(seat))
                    inline = self._think_inline(live.game, level, view, seed)
                    if inline is not None:
                        action = inline
                        await asyncio.sleep(0)  # let the other tables' work in between
                    else:
                        await self.tables.send_unsent(live)  # tell what was done before waiting for a worker
                        action = await loop.run_in_executor(self.pool, _bot_act, live.game, level, view, seed)
                    if live.count != count or self.tables.live.get(live.id) is not live:
                        continue  # the table changed meanwhile (a replay): think again
                delay = float(live.settings.get("delay", 0.0))
                if delay > 0:
                    await self.tables.send_unsent(live)
                    await asyncio.sleep(delay)
                if table.is_human(seat) and table.auto_action() is None and live.stand_in(seat) is None:
                    continue  # the person came back while the computer was thinking: the seat is theirs
                if not self.leases.holds(live.id):
                    return  # the lease lapsed meanwhile: its next owner moves from the store
                if not await self.tables.apply_move(live, seat, action, expect=count, hold=True):
                    if live.count != count:
                        continue  # someone else moved the table on meanwhile: look again
                    return
        except Exception:  # a bot failing must not take the server down; the table waits
            log.exception("table %s: a computer player failed", live.id)
        finally:
            live.advancing = False
            try:
                await self.tables.send_unsent(live)  # the moves made since the last announcement (a person's too)
            except Exception:
                log.exception("table %s: an announcement failed", live.id)

    async def _leased(self, table_id: str) -> None:
        """This process took over a table's computer players (their owner is gone): from the store, on."""
        await self.tables.remote(table_id, {"leased": True})

    def _running(self) -> set[str]:
        """The tables whose computer players (and automatic answers) this process would run: dealt, not over."""
        return {table_id for table_id, live in self.tables.live.items() if live.table is not None and not live.over}
