"""Leaving a browser table with other people (issue 25, point 14): resigning the game, leaving the seat.

Why both ends: the server is the authority (who may resign or leave, what the others are told, what
the record and the statistics keep), so it is driven by scripted WebSocket clients; the confirmation
dialog is the page's, so one test clicks it in Debian's Chromium, with two pages at one table.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from helpers.web import LOOSE, create, frames_until, parlour_history, stored
from parlour.store import WebTable, open_store
from parlour.text import format_stats, history_result
from parlour.web.run import ServerThread
from parlour.web.tables import LEFT

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with ServerThread(tmp_path_factory.mktemp("leaving") / "web.db", rate=(10_000, 10_000), limits=LOOSE) as srv:
        yield srv


def hello(seat: int | None = None, token: str | None = None) -> str:
    return json.dumps({"type": "hello", "seat": seat, "token": token, "name": f"P{seat}"})


def state(f: dict[str, Any]) -> bool:
    return bool(f["type"] == "state")


def lines_of(frames: list[dict[str, Any]]) -> list[str]:
    return [line for f in frames if f["type"] == "state" for line in f["log"]]


def two_people(server: Any, **extra: Any) -> tuple[str, dict[int, str], str]:
    """A GOPS table of two invited people: its id, the seats' tokens and its WebSocket address."""
    table = create(server, "gops", [{"kind": "invite"}, {"kind": "invite"}], **extra)
    return table["id"], table["tokens"], f"{server.ws_url}/ws/{table['id']}"


def test_a_resignation_ends_the_game_for_everyone_and_the_record_and_statistics_say_so(server_of_each_store: Any
                                                                                       ) -> None:
    server = server_of_each_store
    table_id, tokens, url = two_people(server)

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        north_seen: list[dict[str, Any]] = []
        south_seen: list[dict[str, Any]] = []
        async with websockets.connect(url) as north, websockets.connect(url) as south:
            await north.send(hello(0, tokens[0]))
            await south.send(hello(1, tokens[1]))
            first = await frames_until(north, lambda f: state(f) and f["view"]["current_player"] is not None,
                                       north_seen)
            assert first["can_resign"] and not first["can_leave"]  # no takeover at this table
            await north.send(json.dumps({"type": "leave"}))
            refused = await frames_until(north, lambda f: f["type"] == "error", north_seen)
            assert "resign the game instead" in refused["message"]
            await north.send(json.dumps({"type": "resign"}))
            await frames_until(north, lambda f: state(f) and "ended" in f, north_seen)
            over = await frames_until(south, lambda f: state(f) and "ended" in f, south_seen)
            assert over["view"]["is_over"] and over["view"]["winner"] == 1 and not over["buttons"]
            assert not over["can_resign"] and over["proof"] is not None  # the deal's proof, as after any game
            await south.send(json.dumps({"type": "act", "action": "AD"}))
            assert (await frames_until(south, lambda f: f["type"] == "error", south_seen))["message"] == \
                "the game is over"
        return north_seen, south_seen

    north_seen, south_seen = asyncio.run(scenario())
    assert "*** Game over: North resigned. South (you) wins. ***" in lines_of(south_seen)
    assert "*** Game over: North (you) resigned. South wins. ***" in lines_of(north_seen)
    store = open_store(server.db)
    try:
        row = store.load_web_table(table_id)
        assert row is not None and row.finished
        record = json.loads(row.record)
        assert record["ended"] == {"how": "resignation", "seat": 0, "winner": 1, "at": row.actions}
        assert json.loads(store.finished_record(row.finished) or "{}")["ended"]["seat"] == 0
        done = store.finished_game(row.finished)
        assert done is not None and done.winner == 1 and done.human_seat == 0
        stats = next(r for r in store.stats() if r.game == "gops" and r.level == "people")
        assert stats.resigned == 1 and stats.lost == 1 and stats.drawn == 0
        assert "resigned" in format_stats(store.stats()).splitlines()[0]
    finally:
        store.close()
    links = [{"table": table_id, "seat": seat, "token": tokens[seat]} for seat in (0, 1)]
    mine = httpx.post(server.url + "/api/my-games", json={"links": links}).json()["games"]
    assert [(g["seat"], g["winner"], g["ended"]["seat"]) for g in mine] == [(0, 1, 0), (1, 1, 0)]


def test_leaving_gives_the_seat_to_the_computer_to_the_end_and_the_others_are_told(server: Any) -> None:
    table_id, tokens, url = two_people(server, takeover={"level": "easy", "after": 60})

    async def scenario() -> list[dict[str, Any]]:
        seen: list[dict[str, Any]] = []
        async with websockets.connect(url) as north, websockets.connect(url) as south:
            await north.send(hello(0, tokens[0]))
            await south.send(hello(1, tokens[1]))
            first = await frames_until(north, lambda f: state(f) and f["view"]["current_player"] is not None, [])
            assert first["can_leave"] and first["can_resign"]
            await north.send(json.dumps({"type": "leave"}))
            assert (await frames_until(north, lambda f: f["type"] == "left", []))["message"] == LEFT
            frame = await frames_until(south, lambda f: state(f) and f["players"][0]["left"], seen)
            while not frame["view"]["is_over"]:  # South plays on; the computer plays North's seat
                if frame["view"]["current_player"] == 1 and frame["view"].get("legal_actions"):
                    await south.send(json.dumps({"type": "act", "action": frame["view"]["legal_actions"][0]}))
                frame = await frames_until(south, state, seen)
        async with websockets.connect(url) as again:  # the link no longer opens the seat
            await again.send(hello(0, tokens[0]))
            assert (await frames_until(again, lambda f: f["type"] == "error", []))["message"] == LEFT
        return seen

    seen = asyncio.run(scenario())
    assert any("North has left the table: a computer player (easy) plays that seat to the end of the game." in line
               for line in lines_of(seen))
    assert not any("is away" in line for line in lines_of(seen))
    store = open_store(server.db)
    try:
        row = store.load_web_table(table_id)
        assert row is not None and row.finished
        record = json.loads(row.record)
        assert [(x["seat"], x["level"]) for x in record["left"]] == [(0, "easy")] and "ended" not in record
        done = store.finished_game(row.finished)
        assert done is not None and done.human_seat == 1  # South's result, not North's who left
    finally:
        store.close()


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")
def test_the_page_asks_before_resigning_and_the_other_page_is_told(server: Any) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    table_id, tokens, _ = two_people(server)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            pages = []
            for seat in (0, 1):
                page = browser.new_context(viewport={"width": 1200, "height": 820}, bypass_csp=True).new_page()
                page.add_init_script(f"localStorage.setItem('parlour-name', 'P{seat}')")
                page.goto(f"{server.url}/t/{table_id}#seat={seat}&k={tokens[seat]}")
                pages.append(page)
            north, south = pages
            for page in pages:
                page.wait_for_selector("#hand .card")
            assert north.is_visible("#resign") and not north.is_visible("#leave")
            north.click("#resign")
            assert north.is_visible("#confirm-dialog") and "recorded as ended by your resignation" in \
                str(north.text_content("#confirm-text"))
            assert north.evaluate("document.activeElement.id") == "confirm-no"  # the safe answer first
            north.click("#confirm-no")  # no: nothing happens
            assert not north.is_visible("#confirm-dialog")
            north.wait_for_timeout(300)
            assert "resigned" not in str(south.text_content("#log"))
            north.click("#resign")
            north.click("#confirm-yes")
            south.wait_for_function("document.querySelector('#log').textContent.includes('North resigned')")
            south.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over: North')")
            assert str(south.text_content("#status")) == "Game over: North resigned. South (you) wins."
            assert not south.is_visible("#resign") and south.locator("#hand .card:not([aria-disabled])").count() == 0
            north.goto(f"{server.url}/history")  # this browser's games say how this one ended
            north.wait_for_selector(f"#my-games tr[data-table='{table_id}']")
            assert "lost (you resigned)" in str(north.text_content(f"#my-games tr[data-table='{table_id}']"))
        finally:
            browser.close()


def stored_row(db: Any, table_id: str) -> WebTable:
    """The store's row of a browser table."""
    row = stored(db, lambda store: store.load_web_table(table_id))
    assert row is not None
    return row


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")
def test_alone_against_the_computer_a_person_may_resign_and_every_list_says_so(
        server: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """A game against two computer players is resigned with the same confirmation, and the lists of
    games say "lost (you resigned)": the page's own games, every finished game and ``parlour history``
    (a resigned three-player game has no winner, and it is not "drawn")."""
    sync_api = pytest.importorskip("playwright.sync_api")
    table = create(server, "sixbid", [{"kind": "me"}, {"kind": "bot", "level": "easy"},
                                      {"kind": "bot", "level": "easy"}], name="Ann")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_context(viewport={"width": 1200, "height": 820}, bypass_csp=True).new_page()
            page.add_init_script("localStorage.setItem('parlour-name', 'Ann')")
            page.goto(f"{server.url}/t/{table['id']}#seat=0&k={table['tokens'][0]}")
            page.wait_for_selector("#hand .card")
            assert page.is_visible("#resign") and not page.is_visible("#leave")  # nobody to leave the seat to
            page.click("#resign")
            assert str(page.text_content("#confirm-text")) == \
                "The game ends now, and it is recorded as lost by your resignation."
            page.click("#confirm-yes")
            page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
            assert str(page.text_content("#status")) == \
                "Game over: North (you) resigned. The game ends without a winner."
            page.goto(f"{server.url}/history")
            mine = page.locator(f"#my-games tr[data-table='{table['id']}']")
            mine.wait_for()
            number = stored_row(server.db, table["id"]).finished
            shared = page.locator(f"#games tr[data-id='{number}']")
            shared.wait_for()
            assert mine.locator("td").nth(2).text_content() == "lost (you resigned)"
            assert shared.locator("td").nth(3).text_content() == "lost (you resigned)"
        finally:
            browser.close()
    listed = parlour_history(server.db, capsys)
    assert re.search(rf"^#{number}\s+sixbid\s+vs easy\s+lost \(you resigned\) scores ", listed, re.M), listed


def test_a_resigned_table_comes_back_from_the_store_still_over_and_nobody_moves(tmp_path: Any) -> None:
    """A restart (a new ``Tables`` on the same store) finds the resignation in the record: the game
    stays over, the computer players never move again, and nobody resigns it twice."""
    from parlour.web.live import Refused
    from parlour.web.tables import Tables

    async def scenario() -> None:
        seats: list[dict[str, Any]] = [{"kind": "human", "claimed": True}, {"kind": "human", "claimed": True},
                                       {"kind": "bot", "level": "easy"}]
        tables = Tables(open_store(tmp_path / "r.db"), workers=0)
        try:
            table_id, _ = await tables.create("sixbid", {}, seats, seed=3)
            live = tables.get(table_id)
            assert live is not None
            while live.advancing:
                await asyncio.sleep(0.001)
            await tables.resign(live, 1)
            assert live.over and live.finished and live.ended == {"how": "resignation", "seat": 1, "winner": None,
                                                                  "at": live.count}
        finally:
            tables.close()
        again = Tables(open_store(tmp_path / "r.db"), workers=0)
        try:
            back = again.get(table_id)
            assert back is not None and back.over and back.ended == live.ended and back.finished == live.finished
            await asyncio.sleep(0.05)
            assert not back.advancing and back.count == live.count
            with pytest.raises(Refused, match="the game is over"):
                await again.resign(back, 0)
            done = again.store.finished_game(back.finished or 0)
            assert done is not None and done.winner is None and done.human_seat == 0
            assert done.ended == {"how": "resignation", "seat": 1}  # the row carries how it ended
            assert history_result(done) == "East resigned (no winner)"  # from North's side: not "drawn"
        finally:
            again.close()

    asyncio.run(scenario())
