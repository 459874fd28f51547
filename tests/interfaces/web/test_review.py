"""Reviews in the browser server: only once a deal is over, each person their own, never a way to load it.

Scripted clients (no browser; ``test_browser.py`` clicks the buttons): a two-person table where a
review is asked before the deal's end and after it; the history's reviews by HTTP; and the queue
itself, with a review that waits to be let go, for "one at a time per person", the server's cap
and "kept once worked out".
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import websockets

import parlour
from helpers.web import LOOSE, create, frames_until
from parlour.bots import make
from parlour.engine import bot_rng
from parlour.knowledge import CardFinder
from parlour.review.walk import walk
from parlour.store import open_store
from parlour.web import reviews as web_reviews
from parlour.web.live import Refused
from parlour.web.reviews import Asked, Busy, Reviews
from parlour.web.run import ServerThread


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with ServerThread(tmp_path_factory.mktemp("review") / "web.db", rate=(10_000, 10_000), limits=LOOSE) as srv:
        yield srv


def test_two_people_each_get_their_own_review_only_once_the_deal_is_over(server: Any) -> None:
    table = create(server, "truc", [{"kind": "invite"}, {"kind": "invite"}])
    url = f"{server.ws_url}/ws/{table['id']}"
    seen: dict[int, list[dict[str, Any]]] = {0: [], 1: []}

    async def person(seat: int) -> None:
        rng = __import__("random").Random(seat)
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": seat, "token": table["tokens"][seat]}))
            frame = await frames_until(ws, lambda f: f["type"] == "state", seen[seat])
            await ws.send(json.dumps({"type": "review", "deal": 1}))  # before the first deal's end: refused
            refused = await frames_until(ws, lambda f: f["type"] == "error", seen[seat])
            assert "deal 1 has not ended: a review exists only once its deal is over" in refused["message"]
            acted = -1
            while frame["type"] != "state" or not frame["deals_scored"]:
                if frame["type"] == "state" and frame["view"]["current_player"] == seat and frame["count"] > acted:
                    acted = frame["count"]
                    await ws.send(json.dumps({"type": "act", "action": make("truc", "easy").act(frame["view"], rng)}))
                frame = await frames_until(ws, lambda f: True, seen[seat])
            await ws.send(json.dumps({"type": "review", "deal": 1}))
            await frames_until(ws, lambda f: f["type"] == "review" and f["status"] == "ready", seen[seat], timeout=60)

    async def both() -> None:
        await asyncio.gather(person(0), person(1))

    asyncio.run(both())
    record = json.loads(open_store(server.db).load_web_table(table["id"]).record)
    dealt = walk(record, 1, set())
    cards = CardFinder(parlour.load("truc").PACK)
    for seat in (0, 1):
        ready = [f for f in seen[seat] if f["type"] == "review" and f["status"] == "ready"]
        name = ("North", "South")[seat]
        assert ready and ready[-1]["pages"][0][0] == f"Review of deal 1 of Le Truc, for {name} (you)"
        named = cards.in_text(json.dumps(ready[-1]))
        assert named <= dealt.known(seat), f"seat {seat} was shown {named - dealt.known(seat)}"
        other_hidden = {c for t in dealt.turns for c in t.hands[1 - seat]} - dealt.known(seat)
        assert not named & other_hidden  # none of the other person's cards that stayed hidden


def finished_solo_game(server: Any) -> tuple[dict[str, Any], int]:
    """A GOPS game (one deal) played to its end by a person (scripted) against the computer."""
    table = create(server, "gops", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}], options={"cards": 3})

    async def play() -> None:
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "seat": 0, "token": table["tokens"][0]}))
            frame: dict[str, Any] = {"type": ""}
            while frame.get("type") != "state" or not frame["view"]["is_over"]:
                frame = await frames_until(ws, lambda f: f["type"] == "state", [])
                if frame["view"]["current_player"] == 0:
                    await ws.send(json.dumps({"type": "act", "action": frame["view"]["legal_actions"][0]}))

    asyncio.run(play())
    row = open_store(server.db).load_web_table(table["id"])
    assert row is not None and row.finished
    return table, int(row.finished)


def test_the_history_asks_by_http_while_it_is_worked_out_and_gets_it_kept(server: Any) -> None:
    table, number = finished_solo_game(server)
    link = {"table": table["id"], "seat": 0, "token": table["tokens"][0]}
    assert httpx.post(server.url + "/api/review", json={**link, "deal": 2}).status_code == 403  # no deal 2
    assert httpx.post(server.url + "/api/review", json={**link, "token": "x", "deal": 1}).status_code == 403
    answers = []
    for _ in range(300):
        r = httpx.post(server.url + "/api/review", json={**link, "deal": 1})
        answers.append(r.status_code)
        if r.status_code == 200:
            break
        assert r.status_code == 202 and "being worked out" in r.json()["message"]
        threading.Event().wait(0.1)
    body = r.json()
    assert answers[0] == 202 and answers[-1] == 200 and body["status"] == "ready"
    assert body["titles"][:2] == ["Verdict", "Turn 1"] and body["pages"][0][0].startswith("Review of deal 1 of GOPS")
    kept = httpx.post(server.url + f"/api/history/{number}/review", json={"deal": 1})  # the same review, kept
    assert kept.status_code == 200 and kept.json()["pages"] == body["pages"]


class _Gate:
    """A review job that waits until it is let go (run in a thread pool in place of the real one)."""

    def __init__(self) -> None:
        self.go = threading.Event()

    def __call__(self, record: Any, deal: int, seat: int, people: Any, samples: int) -> str:
        self.go.wait(10)
        from parlour.review.worker import review_job

        return review_job(record, deal, seat, people, samples)


def test_one_review_at_a_time_per_person_a_cap_and_kept_once_worked_out(tmp_path, monkeypatch) -> None:
    gate = _Gate()
    monkeypatch.setattr(web_reviews, "review_job", gate)
    state = parlour.load("gops", cards=3).new_state(seed=1)
    easy = make("gops", "easy")
    while not state.is_over:
        state.apply(easy.act(state.view(state.current_player), bot_rng(1, len(state.actions))))
    record = state.record()
    store = open_store(tmp_path / "q.db")
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)

    async def scenario() -> None:
        queue = Reviews(SimpleNamespace(computers=SimpleNamespace(pool=pool), store=store), workers=2, cap=2)  # type: ignore[arg-type]
        first = queue.ask("ann", Asked(record, 1, 0))
        assert queue.ask("ann", Asked(record, 1, 0)) is first  # the same review under way: the same answer
        with pytest.raises(Refused, match="still being worked out: one at a time"):
            queue.ask("ann", Asked(record, 1, 1))
        queue.ask("bob", Asked(record, 1, 1))
        with pytest.raises(Busy, match="busy"):
            queue.ask("cy", Asked({**record, "seed": 2}, 1, 0))
        gate.go.set()
        data = await first
        assert data["deal"] == 1 and queue.kept(Asked(record, 1, 0)) == data  # kept: asking again costs nothing
        await asyncio.sleep(0.5)
        assert not queue.jobs

    asyncio.run(scenario())
    pool.shutdown()
    store.close()
