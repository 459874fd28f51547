"""Load on the browser server: N tables on 127.0.0.1, scripted clients playing as fast as allowed.

Each table has one scripted person (a websockets client) and computer players (``--level``)
at the other seats.  A client plays a random legal move as soon as it is asked, within the
server's per-connection rate limit.  Reported: actions per second (people's and bots') and
the action-to-update latency (from sending an action to receiving the frame that shows it),
p50/p99.  Bounded: ``--seconds`` of play and ``--tables`` tables; loopback only.

    .venv/bin/python bench/bench_web_load.py --tables 200 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from parlour.web.run import free_port

GAMES = [("truc", 2), ("gops", 2), ("clobby", 2), ("sixbid", 3), ("schafkopf", 3)]


async def one_table(url: str, ws_url: str, game: str, players: int, level: str, seed: int, stop: float,
                    latencies: list[float], counts: dict[str, int], client: httpx.AsyncClient) -> None:
    rng = random.Random(seed)
    while time.monotonic() < stop:
        seats = [{"kind": "invite"}] + [{"kind": "bot", "level": level}] * (players - 1)
        r = await client.post(url + "/api/tables", json={"game": game, "seats": seats, "delay": 0})
        body = r.json()
        frag = dict(p.split("=", 1) for p in body["links"][0]["url"].split("#", 1)[1].split("&"))
        async with websockets.connect(f"{ws_url}/ws/{body['id']}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": 0, "token": frag["k"]}))
            sent_at: float | None = None
            pending = ""
            acted = -1
            last = 0
            while time.monotonic() < stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                except TimeoutError:
                    break
                frame = json.loads(text)
                if frame["type"] == "error":
                    if "slow down" in frame["message"] and pending:
                        counts["throttled"] += 1  # over the rate limit: wait, then send it again
                        await asyncio.sleep(0.1)
                        sent_at = time.perf_counter()
                        await ws.send(json.dumps({"type": "act", "action": pending}))
                    continue
                if frame["type"] != "state":
                    continue
                count = frame["count"]
                counts["actions"] += max(0, count - last)
                last = max(last, count)
                if sent_at is not None and count > acted:
                    latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                view = frame["view"]
                if view["is_over"]:
                    counts["games"] += 1
                    break
                if view["current_player"] == 0 and not frame["auto"] and count > acted:
                    acted = count
                    sent_at = time.perf_counter()
                    pending = rng.choice(view["legal_actions"])
                    await ws.send(json.dumps({"type": "act", "action": pending}))


async def run(url: str, ws_url: str, tables: int, seconds: float, level: str) -> dict[str, Any]:
    latencies: list[float] = []
    counts = {"actions": 0, "games": 0, "throttled": 0}
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        start = time.monotonic()
        stop = start + seconds
        tasks = [one_table(url, ws_url, *GAMES[i % len(GAMES)], level, i, stop, latencies, counts, client)
                 for i in range(tables)]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.monotonic() - start
    failures = [r for r in results if isinstance(r, BaseException)]
    lat = sorted(latencies)
    return {"tables": tables, "seconds": elapsed, "actions": counts["actions"], "games": counts["games"],
            "throttled": counts["throttled"], "failures": len(failures),
            "first_failure": repr(failures[0])[:200] if failures else "",
            "p50": statistics.median(lat) * 1000 if lat else float("nan"),
            "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan"),
            "samples": len(lat)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (at most 500)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play (at most 120)")
    parser.add_argument("--level", default="easy", help="the computer players' level")
    parser.add_argument("--workers", type=int, default=2, help="bot worker processes of the server (0: threads)")
    args = parser.parse_args()
    tables = max(1, min(args.tables, 500))
    seconds = max(1.0, min(args.seconds, 120.0))
    with tempfile.TemporaryDirectory() as tmp:
        # The server in its own process (as `parlour serve` runs), the clients in this one.
        port = free_port()
        code = ("import sys; from parlour.web.server import serve; "
                f"sys.exit(serve('127.0.0.1', {port}, {str(Path(tmp) / 'load.db')!r}, workers={args.workers}))")
        server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            result = asyncio.run(run(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", tables, seconds,
                                     args.level))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"{'tables':>6} {'seconds':>7} {'actions':>8} {'actions/s':>9} {'games':>5} {'p50 ms':>7} {'p99 ms':>7}"
          f" {'samples':>7} {'throttled':>9} {'failed':>6}")
    print(f"{result['tables']:>6} {result['seconds']:>7.1f} {result['actions']:>8} "
          f"{result['actions'] / result['seconds']:>9.0f} {result['games']:>5} {result['p50']:>7.1f} "
          f"{result['p99']:>7.1f} {result['samples']:>7} {result['throttled']:>9} {result['failures']:>6}")
    if result["first_failure"]:
        print("first failure:", result["first_failure"])


if __name__ == "__main__":
    main()
