"""Clobby's solver on the compiled core: whole deals from the first card, and equality with the old solver.

    .venv/bin/python bench/bench_solver_clobby.py [--deals 600] [--old 300]

Deals are real ones: the easy rule bids each seeded pack until play starts (thrown-in packs are
skipped), then the deal is solved from its first card (``solver.deal_value``, the exact payment).
Prints first-run compile (or cached start-up) time, then per trump mode: deals, nodes per
second, median and p99 CPU milliseconds.  ``--old N`` also solves the first N deals with the
frozen pure-Python solver (``bench/old_solvers/clobby.py``) and counts the deals whose values
differ (the old solver's tout-atout equivalence ignored cards of other suits; see the note).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import parlour  # noqa: E402
from parlour.arena import percentile  # noqa: E402
from parlour.games.clobby.bots import EasyBot  # noqa: E402
from parlour.games.clobby.rules import TRUMP_NAME  # noqa: E402
from parlour.games.clobby.solver import Position, Solver, deal_value  # noqa: E402
from parlour.search import warm  # noqa: E402


def positions(count: int, tout: bool) -> list[Position]:
    easy = EasyBot()
    rng = random.Random(1)
    out: list[Position] = []
    seed = 0
    while len(out) < count:
        seed += 1
        state = parlour.load("clobby", tout_atout=tout).new_state(seed=seed)
        while not state.deals and state.phase != "play":
            state.apply(easy.act(state.view(state.current_player), rng))
        if not state.deals:
            out.append(Position.from_state(state))  # type: ignore[arg-type]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--old", type=int, default=0, help="also compare this many deals with the old solver")
    args = ap.parse_args()
    t0 = time.perf_counter()
    warm.now()
    print(f"kernels {'loaded from the cache' if warm.last['cached'] else 'compiled'} in "
          f"{time.perf_counter() - t0:.1f} s", flush=True)
    deals = positions(args.deals // 2, False) + positions(args.deals - args.deals // 2, True)
    solvers: dict[int, Solver] = {}
    by_mode: dict[int, list[tuple[float, int]]] = defaultdict(list)
    values = []
    for pos in deals:
        solver = solvers.get(pos.mode) or solvers.setdefault(pos.mode, Solver(pos.mode))
        n0, c0 = solver.nodes, time.process_time()
        values.append(deal_value(pos, solver))
        by_mode[pos.mode].append((time.process_time() - c0, solver.nodes - n0))
    print(f"{'mode':>11} {'deals':>6} {'nodes/s':>10} {'median ms':>10} {'p99 ms':>8}")
    every: list[float] = []
    for mode in sorted(by_mode):
        rows = by_mode[mode]
        t = sorted(r[0] for r in rows)
        every += t
        rate = sum(r[1] for r in rows) / max(1e-9, sum(t))
        print(f"{TRUMP_NAME[mode]:>11} {len(rows):>6} {rate:>10.0f} {1000 * statistics.median(t):>10.2f} "
              f"{1000 * percentile(t, 0.99):>8.2f}")
    every.sort()
    print(f"{'all':>11} {len(every):>6} {'':>10} {1000 * statistics.median(every):>10.2f} "
          f"{1000 * percentile(every, 0.99):>8.2f}", flush=True)
    if args.old:
        from old_solvers import clobby as old  # type: ignore[import-not-found]

        differ = 0
        for pos, value in zip(deals[:args.old], values, strict=False):
            o = old.Position(pos.mode, pos.maker, pos.hands, pos.played, pos.trick, pos.turn, pos.card_pts,
                             pos.bella_pts, pos.melds)
            if old.deal_value(o, old.Solver(pos.mode)) != value:
                differ += 1
                print(f"differs: {TRUMP_NAME[pos.mode]} hands {pos.hands} maker {pos.maker} turn {pos.turn}")
        print(f"old solver: {args.old - differ} of {args.old} whole deals equal", flush=True)


if __name__ == "__main__":
    main()
