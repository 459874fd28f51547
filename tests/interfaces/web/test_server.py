"""The browser table's server, driven by scripted WebSocket clients (no browser): authority and leaks.

The frame-leak test records every frame sent to every client over whole games of every game
(two or three human seats and a spectator) and checks each against the server-independent
truth: the engine's ``view(seat)`` rebuilt from the final record at that frame's action count.
Each person also asks for the review of the first deals as they end: a review frame may name
only cards that seat had been shown by then.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from helpers.leaks import Client, play_and_check
from helpers.web import LOOSE, create, stored
from parlour.records import from_json
from parlour.registry import load
from parlour.store import open_store
from parlour.table import Table
from parlour.web.run import ServerThread


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("web") / "web.db"
    with ServerThread(db, rate=(10_000, 10_000), limits=LOOSE) as srv:
        yield srv


GAMES = [("truc", 2, {}), ("gops", 2, {"cards": 6}), ("clobby", 2, {"game_point": 100}),
         ("sixbid", 3, {"chips": 10}), ("schafkopf", 3, {"target": 1}), ("sixbid", 2, {"chips": 10}),
         ("schafkopf", 2, {"target": 1})]


def test_frames_never_carry_a_card_the_seat_could_not_know(server: Any) -> None:
    """Every frame to every client, over whole games of every game: nothing beyond that seat's view."""
    counts = {"games": 0, "frames": 0, "card_mentions": 0, "reviews": 0}
    per_game: dict[str, int] = {}
    for round_ in range(2):
        for index, (game, humans, options) in enumerate(GAMES):
            play_and_check([server], game, humans, options, round_ * 100 + index * 10, counts, per_game)
    print(f"\nframe-leak test: {counts['games']} whole games, {counts['frames']} frames checked "
          f"({counts['reviews']} reviews), {counts['card_mentions']} card mentions; frames per game: {per_game}")
    assert counts["games"] == 2 * len(GAMES) and counts["reviews"] >= len(GAMES)


def test_a_seat_acts_only_for_itself_and_only_when_legal(server: Any) -> None:
    table = create(server, "truc", [{"kind": "invite"}, {"kind": "invite"}])
    tid, tokens = table["id"], table["tokens"]

    async def scenario() -> None:
        url = f"{server.ws_url}/ws/{tid}"
        # a wrong token, and another seat's token, open nothing
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": 1, "token": tokens[0]}))
            assert json.loads(await ws.recv())["type"] == "error"
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
        async with websockets.connect(url) as a, websockets.connect(url) as b:
            await a.send(json.dumps({"type": "hello", "seat": 0, "token": tokens[0]}))
            await b.send(json.dumps({"type": "hello", "seat": 1, "token": tokens[1]}))
            fa = json.loads(await a.recv())
            while fa["type"] != "state":
                fa = json.loads(await a.recv())
            to_move = fa["view"]["current_player"]
            idle = a if to_move == 1 else b
            idle_seat = 1 - to_move
            # the seat not to move tries the mover's legal action: refused, nothing changes
            stored = open_store(server.db).load_web_table(tid)
            assert stored is not None
            legal = Table(from_json(stored.record), [None, None]).state.legal_actions()
            await idle.send(json.dumps({"type": "act", "action": legal[0]}))
            for bad in ({"type": "act", "action": "zz"}, {"type": "act", "action": 5}, {"type": "launch"},
                        {"type": "act", "action": legal[0], "seat": to_move}, "[1,2]", "x" * 3000):
                await idle.send(bad if isinstance(bad, str) else json.dumps(bad))
            errors = []
            while len(errors) < 7:
                frame = json.loads(await idle.recv())
                if frame["type"] == "error":
                    errors.append(frame["message"])
            assert "it is not your turn" in errors[0]
            row = open_store(server.db).load_web_table(tid)
            assert row is not None and row.actions == 0, f"seat {idle_seat} changed nothing"

    asyncio.run(scenario())


def test_origin_of_another_site_is_refused(server: Any) -> None:
    table = create(server, "gops", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}])

    async def scenario() -> None:
        with pytest.raises(websockets.InvalidStatus):
            async with websockets.connect(f"{server.ws_url}/ws/{table['id']}", origin="http://evil.example"):
                pass
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}", origin=server.url) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": None}))
            assert json.loads(await ws.recv())["type"] == "waiting"  # (the invited person has not come yet)

    asyncio.run(scenario())
    r = httpx.post(server.url + "/api/tables", json={"game": "gops", "seats": []},
                   headers={"origin": "http://evil.example"})
    assert r.status_code == 403


def test_rate_limit_refuses_a_flood(tmp_path: Any) -> None:
    """The burst is answered, what follows refused (and, a flood, read slowly: test_web_abuse_conn)."""
    with ServerThread(tmp_path / "rate.db", rate=(0.2, 5), limits=LOOSE) as srv:
        table = create(srv, "gops", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}])

        async def scenario() -> list[str]:
            async with websockets.connect(f"{srv.ws_url}/ws/{table['id']}") as ws:
                await ws.send(json.dumps({"type": "hello", "seat": 0, "token": table["tokens"][0]}))
                for _ in range(12):
                    await ws.send(json.dumps({"type": "ping"}))
                out = []
                while len(out) < 12:
                    frame = json.loads(await ws.recv())
                    if frame["type"] in ("pong", "error"):
                        out.append(frame["type"])
                return out

        replies = asyncio.run(scenario())
        assert replies[:5] == ["pong"] * 5 and replies.count("error") >= 6, replies


def test_stale_writer_is_refused(tmp_path: Any) -> None:
    """Optimistic concurrency: a save that did not see the latest action is refused, not merged."""
    store = open_store(tmp_path / "s.db")
    state = load("gops").new_state(seed=1)
    store.create_web_table("t1", "gops", state.to_json(), [], {}, 0)
    state.apply(state.legal_actions()[0])
    assert store.save_web_table("t1", state.to_json(), expected=0, actions=1) == 0
    assert store.save_web_table("t1", state.to_json(), expected=0, actions=1) is None
    row = store.load_web_table("t1")
    assert row is not None and row.actions == 1


def test_server_restart_resumes_the_table(database: str) -> None:
    db = database
    with ServerThread(db, rate=(1000, 1000), limits=LOOSE) as srv:
        table = create(srv, "schafkopf", [{"kind": "invite"}, {"kind": "bot", "level": "easy"},
                                          {"kind": "bot", "level": "easy"}])
        first = Client(srv, table["id"], 0, table["tokens"][0], seed=3)
        asyncio.run(first.play(max_actions=4))
        before = stored(db, lambda s: s.load_web_table(table["id"]))
    assert before is not None and before.actions >= 3
    with ServerThread(db, rate=(1000, 1000), limits=LOOSE) as srv:
        again = Client(srv, table["id"], 0, table["tokens"][0], seed=4)
        asyncio.run(asyncio.wait_for(again.play(), timeout=120))
        state = again.frames[0]
        assert state["count"] >= before.actions, "the table came back where it was"
        assert any("Deal 1" in line or "plays" in line for line in state["log"]), "and its announcements"
        after = stored(db, lambda s: s.load_web_table(table["id"]))
        assert after is not None and after.finished
        assert json.loads(after.record)["actions"][: before.actions] == json.loads(before.record)["actions"]
    finished = stored(db, lambda s: s.finished_games())
    assert finished and finished[0].game == "schafkopf" and finished[0].human_seat == 0


def test_bots_in_worker_processes(tmp_path: Any) -> None:
    """A server with a process pool and no level on the event loop: every computer move is a
    worker's, and a table against them plays to its end (a broken pool leaves the bot silent)."""
    with ServerThread(tmp_path / "pool.db", workers=1, inline=(), rate=(1000, 1000), limits=LOOSE) as srv:
        table = create(srv, "truc", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}])
        client = Client(srv, table["id"], 0, table["tokens"][0])
        asyncio.run(asyncio.wait_for(client.play(), timeout=120))
        assert client.last_state["view"]["is_over"]


def test_lobby_catalogue_and_rules(server: Any) -> None:
    games = httpx.get(server.url + "/api/games").json()
    assert [g["name"] for g in games] == ["clobby", "sixbid", "schafkopf", "truc", "gops"]
    clobby = games[0]
    assert {o["name"] for o in clobby["options"]} == {"game_point", "no_tie", "clubs_preferred", "tout_atout"}
    assert "easy" in clobby["levels"]
    assert "Clobby" in httpx.get(server.url + "/api/rules/clobby").text
    bad = httpx.post(server.url + "/api/tables", json={"game": "clobby", "options": {"game_point": 5},
                                                       "seats": [{"kind": "me"}, {"kind": "bot"}]})
    assert bad.status_code == 400 and "game_point" in bad.json()["error"]
    page = httpx.get(server.url + "/")
    assert "default-src 'self'" in page.headers["content-security-policy"]


def test_undo_and_replay_against_computer_players_only(server: Any) -> None:
    solo = create(server, "schafkopf", [{"kind": "invite"}, {"kind": "bot", "level": "easy"},
                                        {"kind": "bot", "level": "easy"}])
    duo = create(server, "truc", [{"kind": "invite"}, {"kind": "invite"}])

    async def next_state(ws: Any, kinds: tuple[str, ...] = ("state",)) -> dict[str, Any]:
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] in kinds:
                return frame

    async def scenario() -> None:
        async with websockets.connect(f"{server.ws_url}/ws/{solo['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "seat": 0, "token": solo["tokens"][0]}))
            frame = await next_state(ws)
            while frame["view"]["current_player"] != 0 or frame["auto"]:
                frame = await next_state(ws)
            asked_at = frame["count"]
            assert not frame["can_undo"]
            await ws.send(json.dumps({"type": "act", "action": frame["view"]["legal_actions"][0]}))
            frame = await next_state(ws)
            while frame["view"]["current_player"] != 0 or frame["count"] <= asked_at:
                frame = await next_state(ws)
            assert frame["can_undo"]
            await ws.send(json.dumps({"type": "undo"}))
            frame = await next_state(ws)
            assert frame["view"]["current_player"] == 0 and frame["count"] > asked_at
        row = open_store(server.db).load_web_table(solo["id"])
        assert row is not None and any(a.startswith("#undo ") for a in json.loads(row.record)["actions"])
        async with websockets.connect(f"{server.ws_url}/ws/{duo['id']}") as ws, \
                websockets.connect(f"{server.ws_url}/ws/{duo['id']}") as other:
            await ws.send(json.dumps({"type": "hello", "seat": 0, "token": duo["tokens"][0]}))
            await other.send(json.dumps({"type": "hello", "seat": 1, "token": duo["tokens"][1]}))
            await next_state(ws)  # (dealt once both people have taken their seats)
            for kind in ("undo", "replay"):
                await ws.send(json.dumps({"type": kind}))
                error = await next_state(ws, ("error",))
                assert "computer players" in error["message"]

    asyncio.run(scenario())
