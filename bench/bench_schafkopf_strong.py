"""Schafkopf ``strong``: the solver's speed, samples per decision, the arena against easy, and a cheater.

Usage (each part can be run alone; all print plain tables):

    .venv/bin/python bench/bench_schafkopf_strong.py solver [--deals N] [--tricks T]
    .venv/bin/python bench/bench_schafkopf_strong.py samples [--deals N] [--think S]
    .venv/bin/python bench/bench_schafkopf_strong.py arena [--deals N] [--jobs J] [--think S]
    .venv/bin/python bench/bench_schafkopf_strong.py cheater [--deals N] [--jobs J] [--think S]

(a) ``solver``: ms to solve a deal exactly with T tricks left (T = 10: from the first card), solo
and Ramsch separately, positions reached by easy play.  (b) ``samples``: samples per decision
at the budget.  (c) ``arena``: ``parlour.arena.run("schafkopf", "strong", "easy", N, jobs=J)``.
(d) ``cheater``: a bench-only player handed the full state (the true hands, PIMC with one exact
"sample": the truth, valued exactly like strong values a sample), against easy on the same
packs; and the fraction of the cheater's margin that strong reaches.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from typing import Any

import parlour
from parlour import arena
from parlour.games.schafkopf.bots import EasyBot
from parlour.games.schafkopf.rules import INDEX
from parlour.games.schafkopf.sampler import World
from parlour.games.schafkopf.solver import RamschSolver, SoloSolver, position_from_state
from parlour.games.schafkopf.strong import DEFAULT_THINK, StrongBot
from parlour.search import warm

#: the deepest Ramsch the solver bench attempts (see the table's note)
RAMSCH_MAX = 7


def _positions(kind: str, tricks_left: int, count: int, seed: int = 0) -> list[Any]:
    g = parlour.load("schafkopf")
    rng = random.Random(seed)
    easy = EasyBot()
    out = []
    s = seed
    while len(out) < count:
        s += 1
        st = g.new_state(seed=s)
        while not (st.phase == "play" and len(st.open_position().winners) == 10 - tricks_left
                   and not st.open_position().trick):
            st.apply(easy.act(st.view(st.current_player), rng))
        if (st.open_position().soloist is None) == (kind == "ramsch"):
            out.append((st.current_player, position_from_state(st)))
    return out


def bench_solver(deals: int, tricks: list[int], limit: float) -> None:
    print(f"(a) exact solve, {deals} positions each (easy play up to there); stops a row after {limit:.0f} s")
    print(f"{'kind':8} {'tricks left':>11} {'solved':>7} {'median ms':>10} {'p99 ms':>9} {'max ms':>9} "
          f"{'nodes med':>10}")
    for kind in ("solo", "ramsch"):
        for left in tricks:
            if kind == "ramsch" and left > RAMSCH_MAX:
                print(f"{kind:8} {left:>11}   not run: one paranoid Ramsch solve this deep takes minutes or more")
                continue
            times, nodes = [], []
            start = time.perf_counter()
            for seat, pos in _positions(kind, left, deals):
                t = time.perf_counter()
                if kind == "solo":
                    solver: Any = SoloSolver(pos.soloist)
                    solver.score(pos)
                else:
                    solver = RamschSolver(seat, pos.dealer, pos.skat)
                    solver.value(pos)
                times.append(time.perf_counter() - t)
                nodes.append(solver.nodes)
                if time.perf_counter() - start > limit:
                    break
            print(f"{kind:8} {left:>11} {len(times):>7} {1000 * statistics.median(times):>10.1f} "
                  f"{1000 * arena.percentile(times, 0.99):>9.1f} {1000 * max(times):>9.1f} "
                  f"{statistics.median(nodes):>10.0f}", flush=True)


def bench_samples(deals: int, think: float) -> None:
    print(f"(b) strong at think={think}: samples and seconds per decision over {deals} deals (strong in seat 0)")
    g = parlour.load("schafkopf")
    strong, easy = StrongBot(think=think), EasyBot()
    rng = random.Random(1)
    rows: dict[str, list[tuple[int, float, float]]] = {}
    for seed in range(deals):
        st = g.new_state(seed=seed)
        while not st.deals:
            p = st.current_player
            v = st.view(p)
            if p == 0 and len(v["legal_actions"]) > 1:
                t, c = time.perf_counter(), time.process_time()
                d = strong.decide(v, rng)
                dt, dc = time.perf_counter() - t, time.process_time() - c
                tricks = len(v["tricks"])
                key = v["phase"] if v["phase"] != "play" else f"play, trick {tricks + 1}"
                rows.setdefault(key, []).append((d.samples, dt, dc))
                action = d.action
            else:
                action = easy.act(v, rng)
            st.apply(action)
    print("(wall ms: elapsed time, which other load on the machine inflates; cpu ms: this process's CPU time)")
    print(f"{'decision':16} {'count':>6} {'samples med':>12} {'samples min':>12} {'wall med ms':>12} "
          f"{'wall p99 ms':>12} {'cpu med ms':>11} {'cpu p99 ms':>11}")
    every: list[float] = []
    cpu: list[float] = []
    for key in sorted(rows, key=lambda k: (k.startswith("play"), len(k), k)):
        samples = [r[0] for r in rows[key]]
        times = [r[1] for r in rows[key]]
        cpus = [r[2] for r in rows[key]]
        every += times
        cpu += cpus
        print(f"{key:16} {len(times):>6} {statistics.median(samples):>12.0f} {min(samples):>12} "
              f"{1000 * statistics.median(times):>12.0f} {1000 * arena.percentile(times, 0.99):>12.0f} "
              f"{1000 * statistics.median(cpus):>11.0f} {1000 * arena.percentile(cpus, 0.99):>11.0f}")
    print(f"{'all':16} {len(every):>6} {'':>12} {'':>12} {1000 * statistics.median(every):>12.0f} "
          f"{1000 * arena.percentile(every, 0.99):>12.0f} {1000 * statistics.median(cpu):>11.0f} "
          f"{1000 * arena.percentile(cpu, 0.99):>11.0f}")


class Cheater(StrongBot):
    """Bench-only: handed the full state, it values each action on the true deal alone (never a level)."""

    name = "cheater"

    def __init__(self, think: float = DEFAULT_THINK) -> None:
        super().__init__(think)
        self.state: Any = None

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        from parlour.games.schafkopf.sampler import Sampler

        legal = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        st = self.state
        deal = st.open_position()
        truth = World(list(self._dealt(st)), deal.skat, list(deal.discard),
                      position_from_state(st) if view["phase"] == "play" else None)
        sampler = Sampler(view)
        seat = view["seat"]
        best: dict[str, float] = dict.fromkeys(legal, 0.0)
        for _ in range(1):
            if view["phase"] == "play":
                values = self._play_values(sampler, truth, seat, legal, rng)
            elif view["phase"] == "bid":
                values = self._bid_values(sampler, truth, seat, rng)
            else:
                pairs = self._discard_pairs(view)
                cards = sorted({c for p in pairs for c in p} & set(legal), key=INDEX.get)
                values = self._discard_values(sampler, truth, seat, pairs, cards, view, rng)
                values = {a: values.get(a, -1e9) for a in legal}
            for a in legal:
                best[a] += values[a]
        top = max(best.values())
        return rng.choice([a for a in legal if best[a] >= top - 1e-9])

    @staticmethod
    def _dealt(st: Any) -> list[int]:
        """Each seat's ten dealt cards, rebuilt from the open deal and the played cards (the cheater may look)."""
        deal = st.open_position()
        played = [0, 0, 0]
        for t in st.view(0)["tricks"]:
            for seat, code in t["cards"]:
                played[seat] |= 1 << INDEX[code]
        for i, c in enumerate(deal.trick):
            played[(deal.leader + i) % 3] |= 1 << c
        dealt = [deal.hands[s] | played[s] for s in range(3)]
        sol = deal.soloist
        if sol is not None:
            dealt[sol] = (dealt[sol] | sum(1 << c for c in deal.discard)) & ~deal.skat
        return dealt


def open_cheater(think: float) -> arena.OpenPlayer:
    """The cheater as ``arena.run``'s ``open_a`` makes it in each process: handed the state at each move."""
    cheat = Cheater(think)

    def act(state: Any, rng: random.Random) -> str:
        cheat.state = state
        return cheat.act(state.view(state.current_player), rng)
    return act


def bench_cheater(deals: int, jobs: int, think: float, strong_margin: float | None) -> None:
    """The cheater on packs 1..deals (the arena's packs, seatings and scoring); strong's margin
    on the same packs is run too unless given."""
    cheater = arena.run("schafkopf", "cheater", "easy", deals, jobs=jobs, open_a=functools.partial(open_cheater, think))
    mean = cheater.mean
    print(f"(d) cheater (full state) vs easy, packs 1..{deals}:")
    print(cheater.table())
    if strong_margin is None:
        strong = arena.run("schafkopf", "strong", "easy", deals, jobs=jobs, think=think)
        print(strong.table())
        print(f"fraction of the cheater's margin that strong ({strong.mean:+.3f}) reaches: "
              f"{strong.share_text(cheater)}")
    elif mean > 0:  # strong's margin from another run: no pack to pair, so no interval
        print(f"fraction of the cheater's margin that strong ({strong_margin:+.3f}) reaches: "
              f"{strong_margin / mean:.2f}")


def bench_arena(deals: int, jobs: int, think: float, minutes: float | None) -> None:
    """``arena.run`` without a time limit; with ``minutes``, the same packs and seatings
    (``arena.play_pack``), stopped when the time is up, so a loaded machine still gives a result."""
    start = time.perf_counter()
    if minutes is None:
        def progress(n: int, total: int) -> None:
            if n % max(1, total // 20) == 0 or n == total:
                print(f"  {n}/{total} packs, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

        print(arena.run("schafkopf", "strong", "easy", deals, jobs=jobs, think=think, progress=progress).table())
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    result = arena.ArenaResult("schafkopf", ("strong", "easy"), clock=arena.decision_clock_name())
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(arena.play_pack, "schafkopf", {}, ("strong", "easy"), s, think)
                   for s in range(1, deals + 1)]
        for future in as_completed(futures):
            result.take(future.result())
            n = len(result.margins)
            if n % 10 == 0:
                print(f"  {n} packs, {time.perf_counter() - start:.0f} s: {result.mean:+.3f} ± "
                      f"{result.interval(2.576):.3f} (99 %)", file=sys.stderr, flush=True)
            if time.perf_counter() - start > 60 * minutes:
                for f in futures:
                    f.cancel()
                break
    result.seconds = time.perf_counter() - start
    print(f"(stopped after {minutes} min: {len(result.margins)} of the {deals} packs finished)")
    print(result.table())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=["solver", "samples", "arena", "cheater"])
    ap.add_argument("--deals", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--think", type=float, default=DEFAULT_THINK)
    ap.add_argument("--tricks", type=int, nargs="*", default=[4, 5, 6, 7, 10])
    ap.add_argument("--strong-margin", type=float, default=None,
                    help="cheater: strong's arena margin on the same packs (skips running it again)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="arena: stop after this many minutes and report the packs finished by then")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per solver row")
    a = ap.parse_args(argv)
    warm.now()  # the compiled kernels, as a player has them once the table warmed them (not the Python path)
    if a.part == "solver":
        bench_solver(a.deals or 20, a.tricks, a.limit)
    elif a.part == "samples":
        bench_samples(a.deals or 10, a.think)
    elif a.part == "arena":
        bench_arena(a.deals or 500, a.jobs, a.think, a.minutes)
    else:
        bench_cheater(a.deals or 100, a.jobs, a.think, a.strong_margin)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
