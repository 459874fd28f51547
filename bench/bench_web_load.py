"""Load on the browser server: N tables on 127.0.0.1, scripted clients playing as fast as allowed.

Each table has one scripted person (a websockets client) and computer players (``--level``)
at the other seats, with no pause between computer moves (``delay`` 0).  A client plays a
random legal move as soon as it is asked, paced by the server's own per-connection rate limit
(``parlour.web.server.RATE`` messages a second on average, ``BURST`` at once: the client keeps
the same token bucket, so "as fast as allowed" is exactly what the server accepts); when a game
ends the client opens a new table.  Reported per table count:

- actions/s: every action the clients saw applied (the people's and the computer players');
- moves/s: the scripted people's own actions;
- p50/p99 ms: action-to-update latency, measured by the client from sending an action to
  receiving the first frame that shows it (at ``delay`` 0 that frame also carries the computer's
  immediate replies: the server announces them together);
- server CPU and client CPU: percent of one core over the run.  The server runs in its own
  process (as ``parlour serve`` does: uvicorn, its event loop, the worker pool for slow bots);
  all clients run in this process (on uvloop when it is installed, as the server), on the same
  2 cores, so the client's CPU is CPU the server did not get;
- srv ms/act: the server's CPU milliseconds per action (its cost, whatever else the machine runs);
- load: the 1-minute load average before and after the run (other jobs on the machine count);
- with ``--stores postgresql``: the server saves into a PostgreSQL database of a cluster the
  bench starts on this machine (``tests/helpers/postgres.py``: Debian's server binaries, a
  temporary folder, a loopback port), and ``db%`` is the cluster's CPU (the server's
  connections), ``all ms/act`` the server's and the database's CPU per action together.

The server's per-address limits (``parlour.web.limits.Limits``) are raised, since every client
here is 127.0.0.1; ``bench/bench_web_abuse.py`` plays against the default ones.

Only the ``--seconds`` after a warm-up (``--warmup``, default 5 s: tables opening, first imports,
the bots' caches filling) are counted.  Bounded: at most 120 s of play per table count, at most
500 tables; loopback only.

    .venv/bin/python bench/bench_web_load.py --tables 50 100 200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets

from parlour.web.play import BURST, RATE
from parlour.web.run import free_port
from parlour.web.server import GC_THRESHOLDS

GAMES = [("truc", 2), ("gops", 2), ("clobby", 2), ("sixbid", 3), ("schafkopf", 3)]
CLK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class Pace:
    """The server's token bucket, kept by the client: it never sends what the server would refuse."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = time.monotonic()

    async def take(self) -> None:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            await asyncio.sleep((1 - self.level) / self.rate)
            self.level, self.at = 1.0, time.monotonic()
        self.level -= 1


async def create_table(client: httpx.AsyncClient, url: str, game: str, players: int, level: str) -> dict[str, Any]:
    seats = [{"kind": "invite"}] + [{"kind": "bot", "level": level}] * (players - 1)
    for attempt in range(5):
        try:
            r = await client.post(url + "/api/tables", json={"game": game, "seats": seats, "delay": 0})
            r.raise_for_status()
            body: dict[str, Any] = r.json()
            return body
        except httpx.HTTPError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


async def one_table(url: str, ws_url: str, game: str, players: int, level: str, seed: int, start: float,
                    measured: float, stop: float, latencies: list[float], counts: dict[str, int],
                    client: httpx.AsyncClient, local: str | None = None) -> None:
    """Play tables one after another until ``stop``; count only from ``measured`` on (after the warm-up).

    ``local``: the client address to connect from (``client`` too must be bound to it), so that
    per-address limits see one person at a table (bench/bench_web_abuse.py).
    """
    rng = random.Random(seed)
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    while time.monotonic() < stop:
        body = await create_table(client, url, game, players, level)
        frag = dict(p.split("=", 1) for p in body["links"][0]["url"].split("#", 1)[1].split("&"))
        pace = Pace(RATE, BURST)
        bind: dict[str, Any] = {"local_addr": (local, 0)} if local else {}
        async with websockets.connect(f"{ws_url}/ws/{body['id']}", max_size=2**22, **bind) as ws:
            await pace.take()
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
                on = time.monotonic() >= measured
                if frame["type"] == "error":
                    if "slow down" in frame["message"] and pending:
                        counts["throttled"] += on  # refused by the rate limit: wait, then send it again
                        await asyncio.sleep(1 / RATE)
                        await pace.take()
                        await ws.send(json.dumps({"type": "act", "action": pending}))
                    else:
                        counts["errors"] += on
                    continue
                if frame["type"] != "state":
                    continue
                count = frame["count"]
                counts["actions"] += max(0, count - last) * on
                last = max(last, count)
                if sent_at is not None and count > acted:
                    if on:
                        latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                view = frame["view"]
                if view["is_over"]:
                    counts["games"] += on
                    break
                if view["current_player"] == 0 and not frame["auto"] and count > acted:
                    acted = count
                    pending = rng.choice(view["legal_actions"])
                    await pace.take()
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": pending}))
                    counts["moves"] += on


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its live children (the worker pool), from /proc (Linux)."""
    total = 0.0
    pids = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                pids += [int(p) for p in fh.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLK
        except (OSError, IndexError, ValueError):
            continue
    return total


async def run(url: str, ws_url: str, tables: int, seconds: float, level: str, ramp: float, warmup: float,
              server_pid: int, local: Callable[[int], str | None] = lambda i: None,
              beside: Callable[[float], Awaitable[Any]] | None = None,
              database_pid: int | None = None) -> dict[str, Any]:
    """``tables`` scripted tables against the server; ``local(i)``: table i's client address (None: any);
    ``beside(stop)``: more clients run meanwhile, until ``stop`` (the abuse bench's attackers);
    ``database_pid``: a database server on this machine whose CPU (with its children's) is the store's."""
    latencies: list[float] = []
    counts = {"actions": 0, "moves": 0, "games": 0, "throttled": 0, "errors": 0}
    limits = httpx.Limits(max_connections=50)
    clients: dict[str | None, httpx.AsyncClient] = {}
    for i in range(tables):
        if local(i) not in clients:
            address = local(i)
            transport = httpx.AsyncHTTPTransport(local_address=address, limits=limits) if address else None
            clients[address] = httpx.AsyncClient(limits=limits, timeout=60, transport=transport)
    try:
        begin = time.monotonic()
        measured = begin + max(warmup, ramp)
        stop = measured + seconds
        tasks = [one_table(url, ws_url, *GAMES[i % len(GAMES)], level, i, begin + ramp * i / tables, measured,
                           stop, latencies, counts, clients[local(i)], local(i))
                 for i in range(tables)]
        if beside is not None:
            tasks.append(beside(stop))
        gathered = asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(measured - time.monotonic())
        cpu0, server0, load0 = time.process_time(), cpu_seconds(server_pid), os.getloadavg()[0]
        db0 = cpu_seconds(database_pid) if database_pid else 0.0
        results = await gathered
        elapsed = time.monotonic() - measured
        cpu, server_cpu = time.process_time() - cpu0, cpu_seconds(server_pid) - server0
        db_cpu = cpu_seconds(database_pid) - db0 if database_pid else 0.0
    finally:
        for client in clients.values():
            await client.aclose()
    failures = [r for r in results if isinstance(r, BaseException)]
    lat = sorted(latencies)

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, int(len(lat) * q))] * 1000 if lat else float("nan")

    return {"tables": tables, "seconds": elapsed, **counts, "failures": len(failures),
            "first_failure": repr(failures[0])[:200] if failures else "",
            "p50": pct(0.50), "p99": pct(0.99), "samples": len(lat),
            "server_cpu": 100 * server_cpu / elapsed, "client_cpu": 100 * cpu / elapsed,
            "cpu_per_action": 1000 * server_cpu / max(1, counts["actions"]),
            "db_cpu": 100 * db_cpu / elapsed,
            "all_per_action": 1000 * (server_cpu + db_cpu) / max(1, counts["actions"]),
            "load": (load0, os.getloadavg()[0])}


def _run_loop(main: Any) -> dict[str, Any]:
    # The clients measure the server: their own collector's pauses would count as its latency, so
    # they get the server's settings (``parlour.web.server._tune_gc``: short, frequent pauses).
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)  # type: ignore[no-any-return]
    return uvloop.run(main)  # type: ignore[no-any-return]


@contextlib.contextmanager
def server_process(db: str, port: int, workers: int, profile: str | None = None,
                   limits: str = "") -> Iterator[subprocess.Popen[bytes]]:
    """The server in its own process (as `parlour serve` runs it), answering on ``port``; stopped on exit.

    ``limits``: a ``parlour.web.limits.Limits(...)`` expression for ``serve`` (default: its defaults).
    """
    serve = f"serve('127.0.0.1', {port}, {db!r}, workers={workers}{', limits=' + limits if limits else ''})"
    code = f"import sys; from parlour.web.limits import Limits; from parlour.web.server import serve; sys.exit({serve})"
    if profile:  # the event loop's process under cProfile, written when the server stops
        code = ("import cProfile, signal, sys; from parlour.web.limits import Limits\n"
                "from parlour.web.server import serve\n"
                "def stop(*_): raise SystemExit(0)\n"
                "signal.signal(signal.SIGTERM, stop)\n"
                "p = cProfile.Profile(); p.enable()\n"
                f"try: {serve}\n"
                f"finally: p.disable(); p.dump_stats({profile!r})\n")
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
        yield server
    finally:
        server.terminate()
        server.wait(timeout=30)


def one_run(tables: int, seconds: float, level: str, workers: int, ramp: float, warmup: float,
            profile: str | None, cluster: Any = None) -> dict[str, Any]:
    """One table count on a fresh server: on an SQLite file, or (``cluster``) a new PostgreSQL database of it."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        # Every client here is 127.0.0.1: the per-address caps raised, as the message rate is not.
        loose = "Limits(connections_per_address=10_000, address_rate=(1e6, 1e6), new_tables=(1e6, 1e6))"
        db = str(Path(tmp) / "load.db") if cluster is None else cluster.new_database()
        with server_process(db, port, workers, profile, loose) as server:
            # the clients on uvloop, as the server: their CPU is CPU the server does not get
            return _run_loop(run(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", tables, seconds, level,
                                 ramp, warmup, server.pid, database_pid=cluster and cluster.pid()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[200], help="concurrent tables (at most 500); "
                        "several numbers: one run each, on a fresh server")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play per run (at most 120)")
    parser.add_argument("--level", default="easy", help="the computer players' level")
    parser.add_argument("--workers", type=int, default=2, help="bot worker processes of the server (0: threads)")
    parser.add_argument("--ramp", type=float, default=2.0, help="seconds over which the clients arrive")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of play before the measured "
                        "--seconds (tables opening, imports, the bots' caches filling)")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, stats to FILE "
                        "(read them with python -m pstats FILE); slows the server down")
    parser.add_argument("--stores", nargs="+", choices=("sqlite", "postgresql"), default=["sqlite"],
                        help="the server's store: each table count runs on each (postgresql: a cluster the "
                             "bench starts, from Debian's postgresql package)")
    args = parser.parse_args()
    seconds = max(1.0, min(args.seconds, 120.0 - args.warmup))
    print(f"rate limit per connection: {RATE:g} messages/s, burst {BURST:g}; computer players: {args.level}; "
          f"{os.cpu_count()} CPUs")
    print(f"{'tables':>6} {'seconds':>7} {'actions':>8} {'actions/s':>9} {'moves/s':>7} {'games':>5} "
          f"{'p50 ms':>7} {'p99 ms':>7} {'samples':>7} {'throttled':>9} {'failed':>6} {'server%':>7} "
          f"{'client%':>7} {'srv ms/act':>10} {'load':>11} {'store':>10} {'db%':>4} {'all ms/act':>10}")
    with postgres(args.stores) as cluster:
        for n in args.tables:
            for store in args.stores:
                r = one_run(max(1, min(n, 500)), seconds, args.level, args.workers, args.ramp, args.warmup,
                            args.profile, cluster if store == "postgresql" else None)
                print(f"{r['tables']:>6} {r['seconds']:>7.1f} {r['actions']:>8} {r['actions'] / r['seconds']:>9.0f} "
                      f"{r['moves'] / r['seconds']:>7.0f} {r['games']:>5} {r['p50']:>7.1f} {r['p99']:>7.1f} "
                      f"{r['samples']:>7} {r['throttled']:>9} {r['failures']:>6} {r['server_cpu']:>7.0f} "
                      f"{r['client_cpu']:>7.0f} {r['cpu_per_action']:>10.2f} "
                      f"{r['load'][0]:>5.1f}-{r['load'][1]:<5.1f} {store:>10} {r['db_cpu']:>4.0f} "
                      f"{r['all_per_action']:>10.2f}", flush=True)
                report(r)


@contextlib.contextmanager
def postgres(stores: list[str]) -> Iterator[Any]:
    """The tests' PostgreSQL cluster (``tests/helpers/postgres.py``), when a run needs one; stopped after."""
    if "postgresql" not in stores:
        yield None
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from helpers.postgres import Cluster, why_not

    reason = why_not()
    if reason is not None:
        raise SystemExit(f"--stores postgresql: {reason}")
    cluster = Cluster(durable=True).start()
    try:
        yield cluster
    finally:
        cluster.stop()


def report(r: dict[str, Any]) -> None:
    if r["first_failure"]:
        print("  first failure:", r["first_failure"])
    if r["errors"]:
        print(f"  {r['errors']} error frames other than the rate limit")


if __name__ == "__main__":
    main()
