"""Abuse beside play: idle and flooding connections against the browser server, and the players' latency.

The players are ``bench_web_load.py``'s scripted tables (its client and its measurement: the
action-to-update latency, the server's CPU), each from a client address of its own
(127.0.1.N: Linux routes all of 127.0.0.0/8 to the loopback), so that the server's per-address
limits see one person at each table.  The server runs with its default limits
(``parlour.web.limits.Limits()``: what a real deployment has).  Beside them, the attackers, each
address holding as many connections as its cap allows (the rest would be refused at once):

- idle (127.0.2.N): connect and never say hello; the server closes them at the hello deadline
  (10 s) and they connect again at once;
- flooding (127.0.3.N): say hello as spectators of a table of their own and send pings back to
  back, as fast as the server reads them (reading what comes back); closed for flooding, they
  connect again.

Reported: the players' p50/p99 and the server's CPU as ``bench_web_load.py`` reports them, then
the attackers' connections (open on average over the run, opened, refused or failed) and the
messages the flooders sent.  Bounded: at most 120 s of play, 2,000 attacking connections, 200
tables; loopback only.  ``make bench`` runs it with its defaults (about 30 s).

    .venv/bin/python bench/bench_web_abuse.py --tables 50 --idle 500 --flood 500 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench_web_load import _run_loop, run, server_process
from parlour.web.limits import Limits
from parlour.web.run import free_port

PER_ADDRESS = Limits().connections_per_address  # the default cap: each attacking address fills it
RAMP = 3.0  # seconds over which the attackers arrive


def address(block: int, n: int) -> str:
    """The ``n``-th client address of a block of the loopback (127.0.<block>.1, .2, ...)."""
    return f"127.0.{block}.{n % 250 + 1}" if n < 250 else f"127.{block}.{n // 250}.{n % 250 + 1}"


async def attacker_table(url: str, local: str) -> str:
    """A table of the attacker's own (made from its address, as any visitor makes one)."""
    transport = httpx.AsyncHTTPTransport(local_address=local)
    async with httpx.AsyncClient(transport=transport, timeout=30) as client:
        r = await client.post(url + "/api/tables", json={"game": "gops", "seats": [
            {"kind": "invite"}, {"kind": "bot", "level": "easy"}]})
        r.raise_for_status()
        return str(r.json()["id"])


Attack = Callable[[Any, float, dict[str, int]], Awaitable[None]]


async def again_and_again(attack: Attack, url: str, local: str, start: float, stop: float,
                          stats: dict[str, int]) -> None:
    """From ``start``, one connection after another from ``local``, each doing ``attack``, until ``stop``."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    while time.monotonic() < stop:
        try:
            async with websockets.connect(url, local_addr=(local, 0), open_timeout=10) as ws:
                stats["opened"] += 1
                stats["open"] += 1
                try:
                    await attack(ws, stop, stats)
                finally:
                    stats["open"] -= 1
        except websockets.ConnectionClosed:
            stats["closed"] += 1  # by the server while sending: again at once
        except (OSError, websockets.WebSocketException, TimeoutError):
            stats["failed"] += 1
            await asyncio.sleep(0.5)


async def idle(ws: Any, stop: float, stats: dict[str, int]) -> None:
    """Never say hello: wait until the server closes the connection."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(ws.wait_closed(), max(0.01, stop - time.monotonic()))


async def flood(ws: Any, stop: float, stats: dict[str, int]) -> None:
    """Say hello as a spectator, then send pings as fast as they are taken (reading what comes back)."""
    await ws.send(json.dumps({"type": "hello", "seat": None}))

    async def sink() -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for _ in ws:
                stats["received"] += 1

    reader = asyncio.create_task(sink())
    ping = json.dumps({"type": "ping"})
    try:
        while not reader.done() and time.monotonic() < stop:
            await ws.send(ping)  # waits while the server does not read (TCP's own back-pressure)
            stats["sent"] += 1
            if stats["sent"] % 32 == 0:
                await asyncio.sleep(0)
    finally:
        reader.cancel()


async def attackers(url: str, ws_url: str, n_idle: int, n_flood: int, stop: float,
                    stats: dict[str, Any]) -> None:
    """Every attacking connection, ``PER_ADDRESS`` per address, until ``stop``; their numbers in ``stats``."""
    begin = time.monotonic()
    work = []
    for kind, block, count, one in (("idle", 2, n_idle, idle), ("flood", 3, n_flood, flood)):
        addresses = [address(block, k) for k in range((count + PER_ADDRESS - 1) // PER_ADDRESS)]
        tables = await asyncio.gather(*(attacker_table(url, a) for a in addresses))
        counts = stats[kind] = {"opened": 0, "open": 0, "closed": 0, "failed": 0, "sent": 0, "received": 0}
        for k in range(count):
            a = k // PER_ADDRESS
            work.append(again_and_again(one, f"{ws_url}/ws/{tables[a]}", addresses[a],
                                        begin + RAMP * k / max(1, count), stop, counts))

    async def sample() -> None:  # connections open, every half second once all have arrived
        await asyncio.sleep(RAMP + 1)
        while time.monotonic() < stop - 0.5:
            stats["samples"].append(stats["idle"]["open"] + stats["flood"]["open"])
            await asyncio.sleep(0.5)

    await asyncio.gather(sample(), *work)


def attack(port: int, n_idle: int, n_flood: int, seconds: float) -> None:
    """The attackers' process: every attacking connection for ``seconds``, then their numbers as JSON."""
    stats: dict[str, Any] = {"samples": []}
    url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    cpu, began = time.process_time(), time.monotonic()
    _run_loop(attackers(url, ws_url, n_idle, n_flood, time.monotonic() + seconds, stats))
    stats["cpu"] = 100 * (time.process_time() - cpu) / (time.monotonic() - began)
    print(json.dumps(stats), flush=True)


def one_run(tables: int, n_idle: int, n_flood: int, seconds: float, level: str, workers: int,
            warmup: float, profile: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The server, the attackers' process and the players (in this process) for one measured run.

    Why the attackers in a process of their own: in the players' process their sending would
    delay the players' own reading, and that delay would count as the server's latency.
    """
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        with server_process(str(Path(tmp) / "abuse.db"), port, workers, profile) as server:
            warmup = max(warmup, RAMP + 2)
            attack_proc = subprocess.Popen(
                [sys.executable, __file__, "--attack", str(port), "--idle", str(n_idle), "--flood", str(n_flood),
                 "--seconds", str(warmup + seconds + 1)], stdout=subprocess.PIPE, text=True)
            try:
                r = _run_loop(run(url, ws_url, tables, seconds, level, 2.0, warmup, server.pid,
                                  local=lambda i: address(1, i)))
                out = attack_proc.communicate(timeout=60)[0]
            finally:
                if attack_proc.poll() is None:
                    attack_proc.kill()
    lines = out.strip().splitlines()
    return r, json.loads(lines[-1]) if lines else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="playing tables (at most 200)")
    parser.add_argument("--idle", type=int, default=500, help="idle connections (never say hello)")
    parser.add_argument("--flood", type=int, default=500, help="flooding connections (pings back to back)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play measured (at most 120)")
    parser.add_argument("--level", default="easy", help="the computer players' level")
    parser.add_argument("--workers", type=int, default=2, help="bot worker processes of the server")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of play before the measured ones")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, stats to FILE")
    parser.add_argument("--attack", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the attackers' process
    args = parser.parse_args()
    n_idle, n_flood = max(0, args.idle), max(0, args.flood)
    if n_idle + n_flood > 2000:
        parser.error("at most 2,000 attacking connections")
    seconds = max(1.0, min(args.seconds, 120.0))
    if args.attack:
        attack(args.attack, n_idle, n_flood, min(args.seconds, 300.0))
        return
    tables = max(1, min(args.tables, 200))
    limits = Limits()
    print(f"server limits: {limits}")
    print(f"{tables} tables, {n_idle} idle + {n_flood} flooding connections ({PER_ADDRESS} per address); "
          f"{os.cpu_count()} CPUs; load before {os.getloadavg()[0]:.1f}", flush=True)
    r, stats = one_run(tables, n_idle, n_flood, seconds, args.level, args.workers, args.warmup,
                       args.profile)
    samples = stats["samples"] or [0]
    print(f"players: p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms ({r['samples']} samples); "
          f"{r['actions'] / r['seconds']:.0f} actions/s, {r['games']} games, {r['failures']} failed"
          + (f" ({r['first_failure']})" if r["first_failure"] else ""))
    print(f"server CPU {r['server_cpu']:.0f}% of a core, client CPU {r['client_cpu']:.0f}%; "
          f"load {r['load'][0]:.1f}-{r['load'][1]:.1f}")
    print(f"attacking connections open: {sum(samples) / len(samples):.0f} on average, {min(samples)} at least; "
          f"the attackers' CPU {stats.get('cpu', 0):.0f}%")
    for kind in ("idle", "flood"):
        s = stats.get(kind, {})
        print(f"  {kind}: opened {s.get('opened', 0)}, closed while sending {s.get('closed', 0)}, "
              f"failed to connect {s.get('failed', 0)}, "
              f"messages sent {s.get('sent', 0)}, frames received {s.get('received', 0)}")


if __name__ == "__main__":
    main()
