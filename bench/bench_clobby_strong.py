"""Clobby ``strong``: solver speed, samples per decision, strength against ``easy`` and a cheater yardstick.

    .venv/bin/python bench/bench_clobby_strong.py [--deals 500] [--think 0.25] [--jobs 2] [--skip arena,cheater]

(a) the solver alone: a full deal solved from its first card (a fresh transposition table each;
    bench_solver_clobby.py measures it per trump mode, with a table kept across deals as strong does);
(b) samples and milliseconds per decision of ``strong`` at the budget, card play and the rest apart;
(c) ``arena.run("clobby", "strong", "easy", deals, jobs=, think=)``: duplicate packs;
(d) a bench-only cheater handed the full state (the true hands and stock: one open-card solve per
    decision, the same evaluation ``strong`` averages over samples) against ``easy`` on the same
    packs, and the fraction of its margin that ``strong`` reaches.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import parlour  # noqa: E402
from parlour import arena  # noqa: E402
from parlour.games.clobby.bots import EasyBot  # noqa: E402
from parlour.games.clobby.solver import Position, Solver, action_values, deal_value  # noqa: E402
from parlour.games.clobby.strong import DEFAULT_THINK, StrongBot  # noqa: E402
from parlour.search import warm  # noqa: E402


def _ms(values: list[float]) -> tuple[float, float]:
    t = sorted(values)
    return 1000 * statistics.median(t), 1000 * t[min(len(t) - 1, int(0.99 * len(t)))]


def bench_solver(deals: int) -> None:
    rng = random.Random(1)
    easy = EasyBot()
    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    seed = 0
    while len(times) < deals:
        seed += 1
        state = parlour.load("clobby").new_state(seed=seed)
        while not state.deals and state.phase != "play":
            state.apply(easy.act(state.view(state.current_player), rng))
        if state.deals:
            continue
        pos = Position.from_state(state)
        solver = Solver(pos.mode)
        start, start_cpu = time.perf_counter(), time.process_time()
        deal_value(pos, solver)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        nodes.append(solver.nodes)
    med, p99 = _ms(times)
    cmed, cp99 = _ms(cpu)
    print(f"(a) solver, full deal from the first card, {deals} deals (easy bidding), compiled core: "
          f"median {med:.1f} ms, p99 {p99:.1f} ms wall ({cmed:.1f} / {cp99:.1f} ms CPU), "
          f"median {statistics.median(nodes):.0f} trick nodes (os.getloadavg {os.getloadavg()[0]:.1f})")


def bench_decisions(deals: int, think: float) -> None:
    bot = StrongBot(think=think)
    easy = EasyBot()
    rng = random.Random(2)
    rows: dict[str, tuple[list[int], list[float], list[float]]] = {"card play": ([], [], []), "other": ([], [], [])}
    for seed in range(deals):
        state = parlour.load("clobby").new_state(seed=10_000 + seed)
        while not state.deals:
            seat = state.current_player
            view = state.view(seat)
            if seat == seed % 2 and len(view["legal_actions"]) > 1:
                start, start_cpu = time.perf_counter(), time.process_time()
                decision = bot.decide(view, rng)
                kind = "card play" if view["phase"] == "play" else "other"
                rows[kind][0].append(decision.samples)
                rows[kind][1].append(time.perf_counter() - start)
                rows[kind][2].append(time.process_time() - start_cpu)
                state.apply(decision.action)
            else:
                state.apply(easy.act(view, rng))
    print(f"(b) strong at think={think}, {deals} deals against easy (load average {os.getloadavg()[0]:.1f}: "
          f"the budget is wall-clock time, so a loaded machine buys fewer samples)")
    print(f"    {'decision':10} {'count':>6} {'samples median':>15} {'min':>5} {'median ms':>10} {'p99 ms':>8} "
          f"{'CPU median ms':>14}")
    for kind, (samples, times, cpu) in rows.items():
        if samples:
            med, p99 = _ms(times)
            print(f"    {kind:10} {len(samples):>6} {statistics.median(samples):>15.0f} {min(samples):>5} "
                  f"{med:>10.0f} {p99:>8.0f} {_ms(cpu)[0]:>14.0f}")


class Cheater(StrongBot):
    """Bench only: decides with the whole state open (never a level, never reachable from a view)."""

    name = "cheater"

    def act_open(self, state: parlour.State, rng: random.Random) -> str:
        view = state.view(state.current_player)
        legal = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        if view["phase"] == "play":
            pos = Position.from_state(state)
            values = action_values(pos, self.solver(pos.mode))
        else:
            values = self.bid_values(view, state.current_pack())
        best = max(values.values())
        return rng.choice([a for a in legal if values[a] >= best - 1e-9])


def open_cheater() -> arena.OpenPlayer:
    """The cheater as ``arena.run``'s ``open_a`` makes it in each process."""
    return Cheater(think=0.0).act_open


def bench_cheater(deals: int, jobs: int) -> tuple[float, float]:
    """The cheater on the arena's packs, seatings and scoring: its margin and its bidding table."""
    start = time.perf_counter()
    result = arena.run("clobby", "cheater", "easy", deals, jobs=jobs, open_a=open_cheater)
    print(f"(d) cheater (open cards) vs easy, {deals} duplicate packs, {time.perf_counter() - start:.0f} s: "
          f"margin {result.mean:+.2f} ± {result.interval(2.576):.2f} (99 %)")
    print(result.table())
    return result.mean, result.interval(2.576)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=500, help="duplicate packs for (c) and (d)")
    ap.add_argument("--think", type=float, default=DEFAULT_THINK,
                    help="seconds per decision of strong (default: the level's)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--solver-deals", type=int, default=100)
    ap.add_argument("--decision-deals", type=int, default=10)
    ap.add_argument("--skip", default="", help="comma-separated: solver,decisions,arena,cheater")
    args = ap.parse_args()
    warm.now()
    print(f"search kernels {'loaded from the cache' if warm.last['cached'] else 'compiled'} in "
          f"{warm.last['seconds']:.1f} s", flush=True)
    skip = set(filter(None, args.skip.split(",")))
    if "solver" not in skip:
        bench_solver(args.solver_deals)
    if "decisions" not in skip:
        bench_decisions(args.decision_deals, args.think)
    strong_margin = None
    if "arena" not in skip:
        result = arena.run("clobby", "strong", "easy", args.deals, jobs=args.jobs, think=args.think)
        print(f"(c) arena.run('clobby', 'strong', 'easy', {args.deals}, jobs={args.jobs}, think={args.think})")
        print(result.table())
        strong_margin = result.mean
    if "cheater" not in skip:
        cheat, _ = bench_cheater(args.deals, args.jobs)
        if strong_margin is not None and cheat > 0:
            print(f"    strong reaches {strong_margin / cheat:.2f} of the cheater's margin over easy")


if __name__ == "__main__":
    main()
