"""The browser tables' authority without a network: announcements, the undo answer, where bots think.

Why apart from ``test_server.py``: these drive ``parlour.web.tables.Tables`` directly on an
event loop, so each guarantee of the fast path is checked on its own: an action is announced
only once it is saved (and a restart finds it), a person's action and the computer's
immediate replies go out as one message, the remembered "can undo" answer always equals the
full replay's, and a computer level too slow for the event loop goes to the worker pool.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from parlour.store import open_store
from parlour.table import CannotUndo
from parlour.web import live as live_module
from parlour.web import tables as tables_module
from parlour.web.live import LiveTable
from parlour.web.tables import Tables

GAMES = ["truc", "gops", "clobby", "sixbid", "schafkopf"]


def full_can_undo(live: LiveTable, seat: int) -> bool:
    """The answer from the whole game's replay (``Table.undo_count``), never remembered."""
    if live.finished is not None:
        return False
    try:
        live.table.undo_count(seat)
    except CannotUndo:
        return False
    return True


async def settled(live: LiveTable) -> None:
    """Wait until the computer players have moved (inline: a few loop turns; the pool: real time) and
    what was done is saved and announced (a save on PostgreSQL is awaited: ``Tables.send_unsent``)."""
    for _ in range(20_000):
        if not live.advancing and not live.saving.locked() and live.saved == live.count:
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the computer players never stopped")


async def solo_table(tables: Tables, game: str, seed: int) -> str:
    num = {"truc": 2, "gops": 2, "clobby": 2, "sixbid": 3, "schafkopf": 3}[game]
    seats: list[dict[str, Any]] = [{"kind": "human", "claimed": True}]
    seats += [{"kind": "bot", "level": "easy"}] * (num - 1)
    table_id, _ = await tables.create(game, {}, seats, seed=seed)
    return table_id


@pytest.mark.parametrize("game", GAMES)
def test_remembered_undo_answer_equals_the_replay(tmp_path: Any, game: str) -> None:
    async def scenario() -> None:
        tables = Tables(open_store(tmp_path / "u.db"), workers=0)
        try:
            live = tables.get(await solo_table(tables, game, seed=7))
            assert live is not None
            rng = random.Random(game)
            checked = 0
            for _ in range(80):
                await settled(live)
                live = tables.live[live.id]
                assert tables.can_undo(live, 0) == full_can_undo(live, 0), (game, live.count)
                checked += 1
                if live.table.is_over:
                    break
                if tables.can_undo(live, 0) and rng.random() < 0.15:
                    await tables.undo(live, 0)
                    continue
                await tables.act(live, 0, rng.choice(live.table.state.legal_actions()))
            assert checked > 10
        finally:
            tables.close()

    asyncio.run(scenario())


def test_an_action_is_announced_after_it_is_saved_with_the_immediate_replies(database: str) -> None:
    db = database

    async def scenario() -> tuple[str, int, list[str]]:
        store = open_store(db)
        tables = Tables(store, workers=0)
        try:
            live = tables.get(await solo_table(tables, "schafkopf", seed=3))
            assert live is not None
            sub = tables.pubsub.subscribe(live.id)
            messages: list[dict[str, Any]] = []

            async def listen() -> None:
                async for message in sub:
                    row = store.load_web_table(live.id)
                    assert row is not None and row.actions >= message["count"], "announced before it was saved"
                    messages.append(message)

            listener = asyncio.create_task(listen())
            await settled(live)
            rng = random.Random(1)
            replies = 0
            for _ in range(6):
                await settled(live)
                if live.table.is_over:
                    break
                before, count = len(messages), live.count
                await tables.act(live, 0, rng.choice(live.table.state.legal_actions()))
                await settled(live)
                await asyncio.sleep(0)
                new = messages[before:]
                assert len(new) == 1, "one announcement for the action and the computer's replies"
                actors = [e["seat"] for e in new[0]["events"] if e["kind"] == "action"]
                assert actors[0] == 0 and new[0]["count"] == live.count
                assert len(actors) == live.count - count, "every action since the person's is in it"
                replies += len(actors) - 1
            assert replies > 0
            sub.close()
            await listener
            return live.id, live.count, list(live.table.state.actions)
        finally:
            tables.close()
            store.close()

    table_id, count, actions = asyncio.run(scenario())

    async def restart() -> None:
        store = open_store(db)
        tables = Tables(store, workers=0)
        try:
            live = tables.get(table_id)
            assert live is not None and live.count == count and live.table.state.actions == actions
        finally:
            tables.close()
            store.close()

    asyncio.run(restart())


def test_a_table_nobody_watches_leaves_memory_and_comes_back_from_the_store(database: str) -> None:
    """Finished: dropped as its last watcher leaves; unfinished: after ``IDLE_KEPT`` idle seconds."""

    async def scenario() -> None:
        store = open_store(database)
        tables = Tables(store, workers=0)
        try:
            finished = tables.get(await solo_table(tables, "gops", seed=5))
            waiting = tables.get(await solo_table(tables, "truc", seed=6))
            assert finished is not None and waiting is not None
            tables.watch(finished, +1)
            tables.watch(finished, +1)
            rng = random.Random(5)
            while not finished.table.is_over:
                await settled(finished)
                if finished.table.to_move == 0:
                    await tables.act(finished, 0, rng.choice(finished.table.state.legal_actions()))
            await settled(finished)
            actions = list(finished.table.state.actions)
            tables.watch(finished, -1)
            assert tables.live.get(finished.id) is finished, "one watcher is still there"
            tables.watch(finished, -1)
            assert finished.id not in tables.live, "finished and unwatched: out of memory"
            again = tables.get(finished.id)
            assert again is not None and again.table.state.actions == actions and again.finished == finished.finished

            await settled(waiting)
            tables.watch(waiting, +1)
            tables.watch(waiting, -1)
            now = waiting.idle_since
            tables.sweep(now + tables_module.SWEEP_EVERY + 1)
            assert tables.live.get(waiting.id) is waiting, "idle for less than IDLE_KEPT: kept"
            tables.sweep(now + tables_module.IDLE_KEPT + 2 * tables_module.SWEEP_EVERY)
            assert waiting.id not in tables.live
            back = tables.get(waiting.id)
            assert back is not None and back.count == waiting.count
        finally:
            tables.close()
            store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("game", GAMES)
def test_the_kept_log_narrates_as_the_events_did(tmp_path: Any, game: str) -> None:
    """The events a table keeps (encoded, for a browser that connects later) say the same sentences."""
    from parlour.bots import make
    from parlour.registry import load
    from parlour.table import Table
    from parlour.web.views import narrate_events

    state = load(game).new_state(seed=11)
    num = state.game.num_players
    table = Table(state, [make(game, "easy") for _ in range(num)])
    events = table.run_bots()
    live = LiveTable("t", game, table, [], {}, len(state.actions))
    live.remember(events)
    kept = min(len(events), live_module.EVENTS_KEPT)
    assert kept > 20
    for seat in [*range(num), None]:
        assert narrate_events(live.recent(kept), game, num, seat) == narrate_events(events[-kept:], game, num, seat)
    assert live.recent(0) == []


def test_the_server_warms_each_games_players_before_it_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    """``parlour serve`` calls every bots module's ``warm_up`` hook (Le Truc's fills its play-out caches)
    before the first table, and then a Le Truc easy move finds them filled."""
    import gc

    from parlour.games.truc import bots as truc_bots
    from parlour.web import server

    called: list[int] = []
    real = truc_bots.warm_up
    monkeypatch.setattr(truc_bots, "warm_up", lambda: (called.append(1), real(3)))
    thresholds = gc.get_threshold()
    try:
        truc_bots._solve.cache_clear()
        server._tune_gc()
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    assert called == [1]
    assert truc_bots._solve.cache_info().currsize > 1000


def test_a_table_with_a_seed_past_64_bits_is_saved_and_told(database: str) -> None:
    """The engine takes seeds of up to 77 digits; the fast JSON encoder stops at 64 bits, the store must not."""
    from parlour.web.jsontext import encode

    async def scenario() -> None:
        store = open_store(database)
        tables = Tables(store, workers=0)
        try:
            live = tables.get(await solo_table(tables, "gops", seed=10**40 + 7))
            assert live is not None
            await tables.act(live, 0, live.table.state.legal_actions()[0])
            await settled(live)
            row = store.load_web_table(live.id)
            assert row is not None and row.actions == live.count and str(10**40 + 7) in row.record
            assert live.recent(5)
            assert str(10**40 + 7) in encode({"seed": live.table.state.seed})
        finally:
            tables.close()
            store.close()

    asyncio.run(scenario())


def test_a_person_away_since_before_the_table_was_loaded_here_gets_no_second_grace(tmp_path: Any) -> None:
    """A process taking a table over learns from the shared presence when each absent person was last
    seen (``seen_elsewhere``'s ``last_seen``): their grace runs from then, not from the load."""
    import time

    async def scenario() -> None:
        store = open_store(tmp_path / "grace.db")
        tables = Tables(store, workers=0)
        try:
            seats: list[dict[str, Any]] = [{"kind": "human", "claimed": True}, {"kind": "bot", "level": "easy"}]
            table_id, _ = await tables.create("truc", {}, seats, seed=3, takeover={"level": "easy", "after": 60})
            live = tables.get(table_id)
            assert live is not None and live.stand_in(0) is None, "loaded now: within the grace"
            await tables.seen_elsewhere(table_id, set(), {0: time.time() - 30})
            assert live.stand_in(0) is None, "away for 30 s of a 60 s grace"
            await tables.seen_elsewhere(table_id, set(), {0: time.time() - 100})
            assert live.stand_in(0) == "easy", "away for 100 s: the computer plays the seat"
            await tables.seen_elsewhere(table_id, {0}, {0: time.time()})
            assert live.stand_in(0) is None, "connected to another process: the seat is theirs"
        finally:
            tables.close()
            store.close()

    asyncio.run(scenario())


def test_a_bus_refresh_while_a_seat_is_being_taken_keeps_it_and_the_last_seat_deals(tmp_path: Any) -> None:
    """A seat's save awaited (on PostgreSQL off the loop: ``Store.from_loop``) while the bus has the table
    read again (its subscription confirmed: ``remote``): the refresh waits for the claim, so the seat
    taken is not put back as stored before it, and the last person's seat deals the game."""
    from parlour.web.bus import SUBSCRIBED

    async def scenario() -> LiveTable:
        store = open_store(tmp_path / "claim.db")
        plain = store.from_loop

        async def later(query: Any, /, *args: Any, **kwargs: Any) -> Any:  # a round trip's time, as on a server
            await asyncio.sleep(0.01)
            return await plain(query, *args, **kwargs)

        store.from_loop = later  # type: ignore[method-assign]
        tables = Tables(store, workers=0)
        try:
            table_id, tokens = await tables.create("truc", {}, [{"kind": "human"}, {"kind": "human"}])
            live = await tables.load(table_id)
            assert live is not None
            await tables.claim(live, 0, "North")
            await asyncio.gather(tables.claim(live, 1, "South"), tables.remote(table_id, SUBSCRIBED))
            return live
        finally:
            tables.close()

    live = asyncio.run(scenario())
    assert all(seat.get("joined") for seat in live.seats)
    assert live.table is not None and live.pending is None, "the last seat taken dealt the game"
