"""Server processes of their own on one PostgreSQL and one Redis: ``parlour serve`` as an operator runs it.

Two processes on two ports (as two hosts would be): the two people of one table each on a
different one see each other's moves, and a ``kill -9`` of the process that runs the table's
computer player mid-deal loses nothing -- its person reconnects to the other, which takes the
lease over and plays on, and the record holds every acknowledged action exactly once.  Then
``--processes 2`` on one port behind Debian's nginx, configured as ``docs/deploy.md`` says: a
table's two people play through it, and SIGTERM drains the processes (the pages told to reconnect).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

import parlour
from parlour import from_json
from parlour.store import open_store
from parlour.web.run import free_port

SOURCE = str(Path(parlour.__file__).resolve().parent.parent)


class Served:
    """``parlour serve`` in a process of its own; ``url``; ``stop()`` (SIGTERM) or ``kill()`` (SIGKILL)."""

    def __init__(self, database: str, bus: str, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": SOURCE + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "parlour", "serve", "--port", str(self.port), "--database", database,
             "--bus", bus, *extra], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def ready(self, timeout: float = 60) -> Served:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"parlour serve ended: {self.process.stdout.read() if self.process.stdout else ''}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("parlour serve did not start")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def output(self) -> str:
        return self.process.stdout.read() if self.process.stdout else ""


@pytest.fixture(scope="module")
def database(postgres_cluster: Any) -> Iterator[str]:
    url = postgres_cluster.new_database()
    open_store(url).close()  # its tables made once, before two processes race to make them
    yield url
    postgres_cluster.drop(url)


class Person:
    """A person at one seat, playing its first legal choice; reconnects to ``urls[1]`` when its server dies."""

    def __init__(self, seat: int, token: str, urls: list[str]) -> None:
        self.seat, self.token, self.urls = seat, token, urls
        self.ws: Any = None
        self.acked: list[tuple[int, str]] = []  # (count before, action): answered by a frame past it
        self.reconnected = False
        self.latest = -1
        self.last: dict[str, Any] | None = None  # the latest state frame

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.urls[0])
        await self.ws.send(json.dumps({"type": "hello", "seat": self.seat, "token": self.token}))

    async def play(self, until: int) -> None:
        pending: tuple[int, str] | None = None
        frame = self.last
        while True:
            if frame is not None:
                count, view = frame["count"], frame["view"]
                if count >= until or view["current_player"] is None:
                    return
                if view["current_player"] == self.seat and view.get("legal_actions") and pending is None:
                    pending = (count, view["legal_actions"][0])
                    with contextlib.suppress(websockets.ConnectionClosed):  # its server was killed: recv says so
                        await self.ws.send(json.dumps({"type": "act", "action": pending[1]}))
            try:
                frame = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
            except TimeoutError:
                raise AssertionError(f"seat {self.seat}: no frame for 20 s at count {self.latest}, until {until}, "
                                     f"reconnected {self.reconnected}, pending {pending}") from None
            except websockets.ConnectionClosed:
                assert not self.reconnected, "reconnected once already"
                self.urls = self.urls[1:]
                self.reconnected = True
                pending = None  # no answer came: not acknowledged
                frame = self.last = None
                await self.connect()
                continue
            if frame["type"] == "error":
                pending = None
            if frame["type"] != "state":
                frame = None
                continue
            self.last = frame
            self.latest = frame["count"]
            if pending is not None and frame["count"] > pending[0]:
                self.acked.append(pending)
                pending = None


def test_two_processes_one_table_and_a_kill_9_of_its_computers_owner(database: str, redis_server: Any) -> None:
    import redis

    one, two = Served(database, redis_server.url), Served(database, redis_server.url)
    try:
        one.ready()
        two.ready()
        answer = httpx.post(one.url + "/api/tables", json={"game": "schafkopf", "delay": 0, "seats": [
            {"kind": "invite"}, {"kind": "invite"}, {"kind": "bot", "level": "easy"}]})
        assert answer.status_code == 200, answer.text
        table = answer.json()
        tokens = {int(dict(p.split("=", 1) for p in link["url"].split("#", 1)[1].split("&"))["seat"]):
                  dict(p.split("=", 1) for p in link["url"].split("#", 1)[1].split("&"))["k"]
                  for link in table["links"]}
        path = f"/ws/{table['id']}"
        people = [Person(0, tokens[0], [one.ws_url + path, two.ws_url + path]),
                  Person(1, tokens[1], [two.ws_url + path, one.ws_url + path])]
        client = redis.Redis.from_url(redis_server.url)

        async def scenario() -> tuple[int, float]:
            for person in people:
                await person.connect()
            await asyncio.gather(*(p.play(7) for p in people))  # both see each other's moves, and the bot's
            owner = client.get(f"parlour:lease:{table['id']}")
            assert owner is not None
            pid = int(owner.decode().split("-", 1)[0])
            killed = one if pid == one.process.pid else two
            assert pid == killed.process.pid, "the lease names one of the two processes"
            killed.kill()  # mid-deal: whatever it had not saved was never shown to anyone
            killed_at = time.monotonic()
            at = max(p.latest for p in people)
            await asyncio.gather(*(p.play(at + 9) for p in people))  # the bot moves again: the other took it over
            return at, time.monotonic() - killed_at

        started = time.monotonic()
        at, after = asyncio.run(scenario())
        assert time.monotonic() - started < 40
        assert any(p.reconnected for p in people), "the killed process's person reconnected to the other"
        store = open_store(database)
        try:
            row = store.load_web_table(table["id"])
        finally:
            store.close()
        assert row is not None
        state = from_json(row.record)  # replays: every action legal where it stands
        assert len(state.actions) == row.actions >= at + 9
        acked = [a for p in people for a in p.acked]
        assert len(acked) >= 5
        for count, action in acked:  # every acknowledged action is in the record, in its place, once
            assert state.actions[count] == action, (count, action)
        print(f"kill -9 of the lease owner at action {at}: the next 9 actions (the computer's among them, its "
              f"lease taken over) in {after:.1f} s; {len(state.actions)} actions in the record, which replays; "
              f"{len(acked)} acknowledged actions of the people, each in its place once")
    finally:
        for served in (one, two):
            served.process.send_signal(signal.SIGTERM)  # both drain at once
        for served in (one, two):
            served.stop()
            print(f"--- parlour serve on {served.port} (pid {served.process.pid}):\n{served.output()}")


def test_processes_2_behind_nginx_serve_a_table_and_sigterm_drains_them(database: str, redis_server: Any) -> None:
    from helpers.nginx import Nginx, why_not

    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    served = Served(database, redis_server.url, "--processes", "2", "--proxy", "127.0.0.1").ready()
    proxy = Nginx([f"127.0.0.1:{served.port}"]).start()
    try:
        assert httpx.get(proxy.url + "/healthz").json() == {"store": "ok", "bus": "ok"}
        # docs/deploy.md's nginx in front: two people of one table, through it, play a few moves
        answer = httpx.post(proxy.url + "/api/tables", json={"game": "truc", "delay": 0, "seats": [
            {"kind": "invite"}, {"kind": "invite"}]})
        assert answer.status_code == 200, answer.text
        links = [dict(p.split("=", 1) for p in link["url"].split("#", 1)[1].split("&"))
                 for link in answer.json()["links"]]
        path = f"{proxy.ws_url}/ws/{answer.json()['id']}"
        people = [Person(int(link["seat"]), link["k"], [path]) for link in links]

        async def through_nginx() -> None:
            for person in people:
                await person.connect()
            await asyncio.gather(*(p.play(6) for p in people))
            for person in people:
                await person.ws.close()

        asyncio.run(through_nginx())
        assert all(p.latest >= 6 for p in people) and sum(len(p.acked) for p in people) >= 5
        answer = httpx.post(served.url + "/api/tables", json={"game": "gops", "delay": 0.5, "seats": [
            {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]})
        assert answer.status_code == 200, answer.text

        async def watch_then_stop() -> int | None:
            async with websockets.connect(f"{served.ws_url}/ws/{answer.json()['id']}") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                assert json.loads(await ws.recv())["type"] == "state"
                served.process.send_signal(signal.SIGTERM)
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        await asyncio.wait_for(ws.recv(), 20)
                return closed.value.rcvd.code if closed.value.rcvd is not None else None

        code = asyncio.run(watch_then_stop())
        assert code == 1012, "the page is told the server restarts: it reconnects"
        assert served.process.wait(timeout=30) == 0
        assert "Parlour has stopped serving." in served.output()
    finally:
        proxy.stop()
        served.stop()
