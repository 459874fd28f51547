"""Secret deals at the browser table: no deal before the people, nothing that leads to the cards
before the game is over, and afterwards only to the table's people (issue 22, points 1 and 2).

A real server (uvicorn on 127.0.0.1), scripted WebSocket clients, and every frame, API answer and
log line of a whole game kept and searched for the seed, the server's seed, the record and its id.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import random
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
import websockets

from helpers.web import LOOSE, create
from parlour.fairness import commitment, fingerprint, game_seed, new_client_seed
from parlour.records import from_json
from parlour.store import open_store
from parlour.verify import verify
from parlour.web.run import ServerThread
from parlour.web.server import history_is_shared


class Captured(logging.Handler):
    """Every log line the server writes while a test runs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def log_lines() -> Any:
    handler = Captured()
    root = logging.getLogger()
    old = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler.lines
    finally:
        root.removeHandler(handler)
        root.setLevel(old)


def link(table: dict[str, Any], seat: int, token: str | None = None) -> dict[str, Any]:
    return {"table": table["id"], "seat": seat, "token": table["tokens"][seat] if token is None else token}


async def seat(url: str, seat: int, token: str, client_seed: str, into: list[str], rng: random.Random,
               started: asyncio.Event | None = None,
               before_move: Callable[[dict[str, Any]], Awaitable[None]] | None = None) -> None:
    """A person at their seat, moving at random until the game is over; every raw frame kept in ``into``.

    ``before_move``: awaited before each of this seat's moves (the game cannot end meanwhile).
    """
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token, "client_seed": client_seed}))
        acted = -1
        while True:
            text = await asyncio.wait_for(ws.recv(), 30)
            assert isinstance(text, str)
            into.append(text)
            frame = json.loads(text)
            if started is not None and frame["type"] == "waiting":
                started.set()
            if frame["type"] != "state":
                continue
            view = frame["view"]
            if view["is_over"]:
                return
            if view["current_player"] == seat and not frame["auto"] and frame["count"] > acted:
                acted = frame["count"]
                if before_move is not None:
                    await before_move(frame)
                await ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal_actions"])}))


async def watch(url: str, into: list[str], until_over: asyncio.Event) -> None:
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": None}))
        while not until_over.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            assert isinstance(text, str)
            into.append(text)
            if json.loads(text).get("view", {}).get("is_over"):
                return


def api_answers(srv: Any, table: dict[str, Any]) -> list[str]:
    """What anyone may ask the API about the table and the history, as raw text."""
    answers = []
    for url in ("/api/stats", "/api/history", "/api/history/1", "/api/history/2", f"/t/{table['id']}"):
        answers.append(httpx.get(srv.url + url).text)
    for body in ({"links": [link(table, 0), link(table, 1)]}, {"links": [link(table, 0, "forged")]}):
        answers.append(httpx.post(srv.url + "/api/my-games", json=body).text)
    for body in (link(table, 0), link(table, 1, "forged")):
        answers.append(httpx.post(srv.url + "/api/record", json=body).text)
    return answers


@pytest.mark.parametrize(("game", "options"), [("gops", {"cards": 6}), ("truc", {}), ("clobby", {"game_point": 100})])
def test_a_two_person_game_tells_nobody_the_cards_before_its_end_and_only_its_people_after(
        tmp_path: Any, log_lines: list[str], game: str, options: dict[str, Any]) -> None:
    with ServerThread(tmp_path / "fair.db", rate=(10_000, 10_000), limits=LOOSE, share_history=False) as srv:
        table = create(srv, game, [{"kind": "invite"}, {"kind": "invite"}], options=options)
        url = f"{srv.ws_url}/ws/{table['id']}"
        seeds = [new_client_seed(), new_client_seed()]
        frames: list[list[str]] = [[], [], []]  # North, South, a spectator
        during: list[str] = []

        async def midgame(frame: dict[str, Any]) -> None:
            if frame["count"] >= 4 and not midgame.done:  # type: ignore[attr-defined]
                midgame.done = True  # type: ignore[attr-defined]
                during.extend(await asyncio.to_thread(api_answers, srv, table))  # the game under way
        midgame.done = False  # type: ignore[attr-defined]

        async def scenario() -> None:
            first_waiting = asyncio.Event()
            over = asyncio.Event()
            north = asyncio.create_task(seat(url, 0, table["tokens"][0], seeds[0], frames[0], random.Random(1),
                                             first_waiting, midgame))
            await asyncio.wait_for(first_waiting.wait(), 30)
            row = open_store(srv.db).load_web_table(table["id"])
            assert row is not None
            assert "pending" in json.loads(row.record) and "seed" not in json.loads(row.record)
            during.extend(await asyncio.to_thread(api_answers, srv, table))  # one person seated: no deal yet
            spectator = asyncio.create_task(watch(url, frames[2], over))
            south = asyncio.create_task(seat(url, 1, table["tokens"][1], seeds[1], frames[1], random.Random(2)))
            await asyncio.gather(north, south)
            assert midgame.done  # type: ignore[attr-defined]
            over.set()
            await spectator

        asyncio.run(scenario())
        row = open_store(srv.db).load_web_table(table["id"])
        assert row is not None and row.finished
        record = json.loads(row.record)
        proof = record["proof"]
        secrets_ = [str(record["seed"]), str(proof["server_seed"]), row.record[:60],
                    '"actions":[', '"actions": [', '"server_seed"']
        assert proof["client_seeds"] == seeds and record["seed"] == game_seed(proof["server_seed"], seeds)
        shown = commitment(proof["server_seed"])
        assert proof["commitment"] == shown

        # before the end: no frame (of a seat or the spectator), API answer or log line carries any of it
        for who, texts in enumerate(frames):
            finals = [i for i, t in enumerate(texts) if json.loads(t).get("view", {}).get("is_over")]
            before = texts[:finals[0]] if finals else texts
            assert before, who
            for text in before:
                assert not any(s in text for s in secrets_), (who, text[:200])
            assert json.loads(texts[0])["commitment"] == {"hex": shown, "short": fingerprint(shown)}
        for text in during + log_lines:
            assert not any(s in text for s in secrets_), text[:200]
        assert json.loads(frames[0][0])["type"] == "waiting", "no deal before the second person came"

        # after the end: the seated people get the proof and the record, nobody else does
        for who in (0, 1):
            final = json.loads(frames[who][-1])
            assert final["proof"] == {"commitment": shown, "server_seed": str(proof["server_seed"]),
                                      "client_seeds": seeds, "seed": str(record["seed"])}
        assert all(str(proof["server_seed"]) not in t for t in frames[2]), "a spectator is not the table's people"
        mine = httpx.post(srv.url + "/api/record", json=link(table, 1))
        assert mine.status_code == 200 and mine.json()["record"]["seed"] == record["seed"]
        assert verify(mine.json()["record"]).ok
        for refused in (httpx.post(srv.url + "/api/record", json=link(table, 1, "forged")),
                        httpx.get(srv.url + "/api/history"), httpx.get(srv.url + f"/api/history/{row.finished}")):
            assert refused.status_code in (403, 404)
            assert str(record["seed"]) not in refused.text and str(proof["server_seed"]) not in refused.text
        games = httpx.post(srv.url + "/api/my-games", json={"links": [link(table, 0)]}).json()["games"]
        assert [(g["table"], g["finished"]) for g in games] == [(table["id"], True)]
        assert str(record["seed"]) not in json.dumps(games)
        assert httpx.post(srv.url + "/api/my-games", json={"links": [link(table, 0, "x")]}).json()["games"] == []
        stats = httpx.get(srv.url + "/api/stats").json()
        assert stats == {"text": None, "shared": False}


def test_a_shared_history_shows_every_finished_game_and_the_stats_name_no_game(tmp_path: Any) -> None:
    with ServerThread(tmp_path / "shared.db", rate=(10_000, 10_000), limits=LOOSE) as srv:  # as on loopback
        stats = httpx.get(srv.url + "/api/stats").json()
        assert stats["shared"] and "history" not in stats
        assert httpx.get(srv.url + "/api/history").json()["shared"]


def test_the_whole_history_is_shared_on_a_loopback_address_only_unless_told() -> None:
    assert history_is_shared("127.0.0.1", None) and history_is_shared("::1", None)
    assert history_is_shared("localhost", None)
    assert not history_is_shared("0.0.0.0", None) and not history_is_shared("192.0.2.7", None)
    assert history_is_shared("0.0.0.0", True) and not history_is_shared("127.0.0.1", False)
    assert not history_is_shared("127.0.0.1", None, ["127.0.0.1"]), "behind a proxy everyone reaches it"
    assert history_is_shared("127.0.0.1", True, ["127.0.0.1"])


def test_the_last_person_to_sit_down_deals_from_every_persons_seed(tmp_path: Any) -> None:
    with ServerThread(tmp_path / "deal.db", rate=(10_000, 10_000), limits=LOOSE) as srv:
        table = create(srv, "schafkopf", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}, {"kind": "invite"}])
        url = f"{srv.ws_url}/ws/{table['id']}"
        seeds = {0: new_client_seed(), 2: new_client_seed().upper()}  # upper case is read as lower case

        async def scenario() -> None:
            async with websockets.connect(url) as a, websockets.connect(url) as b:
                await a.send(json.dumps({"type": "hello", "seat": 0, "token": table["tokens"][0],
                                         "client_seed": seeds[0]}))
                first = json.loads(await a.recv())
                assert first["type"] == "waiting" and [p["joined"] for p in first["players"]] == [True, False, False]
                await a.send(json.dumps({"type": "act", "action": "pass"}))
                refusal = json.loads(await a.recv())
                while refusal["type"] == "presence":  # (the seat just taken)
                    refusal = json.loads(await a.recv())
                assert refusal["type"] == "error" and "every person has taken their seat" in refusal["message"]
                await b.send(json.dumps({"type": "hello", "seat": 2, "token": table["tokens"][2],
                                         "client_seed": seeds[2]}))
                for ws in (a, b):
                    frame = json.loads(await ws.recv())
                    while frame["type"] != "state":
                        frame = json.loads(await ws.recv())
                    assert frame["full"] and frame["view"]["hand"]

        asyncio.run(scenario())
        record = json.loads(open_store(srv.db).load_web_table(table["id"]).record)
        client_seeds = [seeds[0], "", seeds[2].lower()]
        assert record["proof"]["client_seeds"] == client_seeds
        assert record["seed"] == game_seed(record["proof"]["server_seed"], client_seeds)


@pytest.mark.parametrize("bad", ["xyz", "0" * 31, "g" * 32, ""])
def test_a_malformed_client_seed_is_refused_and_the_seat_stays_free(tmp_path: Any, bad: str) -> None:
    with ServerThread(tmp_path / "bad.db", rate=(10_000, 10_000), limits=LOOSE) as srv:
        table = create(srv, "gops", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}])

        async def scenario() -> dict[str, Any]:
            async with websockets.connect(f"{srv.ws_url}/ws/{table['id']}") as ws:
                await ws.send(json.dumps({"type": "hello", "seat": 0, "token": table["tokens"][0], "client_seed": bad}))
                return dict(json.loads(await ws.recv()))

        answer = asyncio.run(scenario())
        assert answer["type"] == "error" and "client seed" in answer["message"]
        row = open_store(srv.db).load_web_table(table["id"])
        assert row is not None and "pending" in json.loads(row.record)
        assert row.seats[0]["client_seed"] is None


def test_a_demo_table_is_dealt_at_once_from_a_commitment(tmp_path: Any) -> None:
    with ServerThread(tmp_path / "demo.db", rate=(10_000, 10_000), limits=LOOSE) as srv:
        table = create(srv, "gops", [{"kind": "bot", "level": "easy"}] * 2)
        record = json.loads(open_store(srv.db).load_web_table(table["id"]).record)
        assert record["proof"]["client_seeds"] == ["", ""]
        assert record["seed"] == game_seed(record["proof"]["server_seed"], ["", ""])


@pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="Debian's chromium is not installed")
def test_the_page_waits_shows_the_commitment_and_downloads_a_record_that_verifies(tmp_path: Any) -> None:
    """In Chromium: North waits for South, plays a short game, and the record the page downloads
    (the stored text: its 77-digit seed intact, which a browser's JSON numbers would round) verifies."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with ServerThread(tmp_path / "page.db", rate=(1000, 1000), limits=LOOSE) as srv:
        table = create(srv, "gops", [{"kind": "invite"}, {"kind": "invite"}], options={"cards": 3})
        north_waits = threading.Event()

        def south() -> None:
            async def play() -> None:
                await asyncio.to_thread(north_waits.wait, 30)
                await seat(f"{srv.ws_url}/ws/{table['id']}", 1, table["tokens"][1], new_client_seed(), [],
                           random.Random(4))
            asyncio.run(play())

        helper = threading.Thread(target=south)
        helper.start()
        try:
            with sync_api.sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium")
                page = browser.new_page(accept_downloads=True)
                page.goto(srv.url + f"/t/{table['id']}#seat=0&k={table['tokens'][0]}")
                page.fill("#join-name", "Ann")
                page.click("#sit")
                page.wait_for_selector("#waiting:not([hidden])")
                assert "waiting for South" in page.locator("#waiting").inner_text()
                shown = page.locator("#commitment").inner_text()
                north_waits.set()
                deadline = time.monotonic() + 30
                while not page.locator("#reveal").is_visible():
                    assert time.monotonic() < deadline, "the game never ended"
                    if page.locator("#summary-dialog").is_visible():
                        page.keyboard.press("Escape")
                    playable = page.locator('#hand button.card:not([aria-disabled="true"])')
                    if playable.count():
                        playable.first.click()
                    time.sleep(0.2)
                while page.locator("dialog[open]").count():  # the last deal's summary, shown as the game ends
                    page.keyboard.press("Escape")
                    time.sleep(0.1)
                with page.expect_download() as download:
                    page.click("#verify")
                path = tmp_path / "parlour-game.json"
                download.value.save_as(path)
                browser.close()
        finally:
            north_waits.set()
            helper.join(30)
        record = json.loads(path.read_text())
        verdict = verify(record)
        assert verdict.ok, verdict.lines
        assert fingerprint(record["proof"]["commitment"]) == shown
        assert from_json(record).is_over


def test_a_game_nobody_moves_in_is_closed_and_its_people_get_the_proof(tmp_path: Any) -> None:
    """A game begun and left: after the retention time it is closed, unfinished, and its people
    (nobody else) are shown the server seed that proves its deals, which the record verifies."""
    limits = dataclasses.replace(LOOSE, unfinished_seconds=0.5)
    with ServerThread(tmp_path / "closed.db", rate=(10_000, 10_000), limits=limits, share_history=False) as srv:
        table = create(srv, "gops", [{"kind": "invite"}, {"kind": "invite"}], options={"cards": 6})
        alone = create(srv, "gops", [{"kind": "invite"}, {"kind": "invite"}], options={"cards": 6})
        url = f"{srv.ws_url}/ws/{table['id']}"
        seeds = [new_client_seed(), new_client_seed()]

        async def sit(url: str, seat: int, token: str, client_seed: str) -> dict[str, Any]:
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token, "client_seed": client_seed}))
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if frame["type"] in ("state", "waiting"):
                        return dict(frame)

        async def scenario() -> list[dict[str, Any]]:
            # one person at the other table, and nobody else comes: it is never dealt
            await sit(f"{srv.ws_url}/ws/{alone['id']}", 0, alone["tokens"][0], new_client_seed())
            north = asyncio.create_task(sit(url, 0, table["tokens"][0], seeds[0]))
            await asyncio.sleep(0.2)
            await sit(url, 1, table["tokens"][1], seeds[1])
            await north
            await asyncio.sleep(1.0)  # nobody moves
            create(srv, "gops", [{"kind": "invite"}, {"kind": "invite"}])  # a table made: the server looks for old ones
            deadline = time.monotonic() + 10
            while (row := open_store(srv.db).load_web_table(table["id"])) is None or not row.finished:
                assert time.monotonic() < deadline, "the table was not closed"
                await asyncio.sleep(0.1)
            return [await sit(url, s, table["tokens"][s], seeds[s]) for s in (0, 1)]

        finals = asyncio.run(scenario())
        assert open_store(srv.db).load_web_table(alone["id"]) is None, "a table never dealt has nothing to prove"
        row = open_store(srv.db).load_web_table(table["id"])
        assert row is not None and row.finished
        record = json.loads(row.record)
        assert record["ended"]["how"] == "closed" and record["ended"]["winner"] is None
        proof = record["proof"]
        for who, final in enumerate(finals):
            assert final["view"]["is_over"] and final["ended"]["how"] == "closed", who
            assert "closed after 0.5 days" not in final["ended"]["text"]  # (0.5 s: shown as 0 days, rounded)
            assert "without a move" in final["ended"]["text"]
            assert final["proof"] == {"commitment": commitment(proof["server_seed"]),
                                      "server_seed": str(proof["server_seed"]), "client_seeds": seeds,
                                      "seed": str(record["seed"])}
        mine = httpx.post(srv.url + "/api/record", json=link(table, 0))
        assert mine.status_code == 200 and verify(mine.json()["record"]).ok
        games = httpx.post(srv.url + "/api/my-games", json={"links": [link(table, 0)]}).json()["games"]
        assert [g["result"] for g in games] == ["closed unfinished (no move for a long time)"]
        assert open_store(srv.db).stats() == [], "a game closed unplayed counts in no statistics"
