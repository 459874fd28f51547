"""Schafkopf's solver on the compiled core: its speed on whole deals, and its values against the old solver's.

Usage:

    PYTHONPATH=src .venv/bin/python bench/bench_solver_schafkopf.py speed [--deals N] [--ramsch-tricks T]
    PYTHONPATH=src .venv/bin/python bench/bench_solver_schafkopf.py proof [--deals N]
    PYTHONPATH=src .venv/bin/python bench/bench_solver_schafkopf.py equal [--deals N] [--seconds S] [--ramsch-deals R]
        [--ramsch-tricks T] [--ramsch-first F] [--by-proof]

``speed``: N solo deals (bid and discarded by the easy player), each solved exactly from the first
card (the soloist's score, ``SoloSolver.score``): the nodes of the row (millions; the same on any
machine, where the times are not), nodes/s, median, p99 and max ms per deal.  Each deal is
solved from empty tables, emptied off the clock (``SoloSolver.clear``, ``RamschSolver.clear``) as
``pair_kernels.py`` solves them.  Why: a table kept from deal to deal holds only other deals' entries,
in memory gone cold in the cache while the next deal is dealt; the same 300 Ramsches, one host, one
hour: 42.02 M nodes and 2.4-2.5 / 102-104 ms median / p99 kept, 41.66 M and 2.1 / 93-96 emptied.
Then N Ramsch deals (all passed), each solved from the first card for the seat to lead
(``RamschSolver``: the paranoid value, the kernel's LOWEST mode), and the same at T tricks left;
each Ramsch row stops after L seconds.

``proof``: the same N solo deals, each solved three times, every time from empty tables: the
score (``SoloSolver.score``, the probes that home in on it), the *proof* (the two probes that any
driver must run once the score L is known: "at least L" and "at least the level above L", one
where L is the lowest or the highest), and the first probe alone ("61 pips?").  Nodes and ms
side by side say how much a better guess or driver could save: the rest is the proof itself.
Then the same for N Ramsch deals from the first card, for the seat to lead: the value
(``RamschSolver.value``), its proof ("at least v", not "at least v + 1": the values are few, so
v + 1 asks for the next one up) and the first probe (``RAMSCH_GUESS``, where the value's searches
start: "can the root take no trick?").  The ms of this part include emptying the tables first (about
5 ms for the Ramsch table's 2**20 rows): its figures are the nodes.

``equal``: the same kind of deals, each solved from the first card by the new solver and by the
old pure-Python one (``bench/old_solvers/schafkopf.py``); every value must be equal.  Stops after
N deals or S seconds of this process's CPU time, and prints how many it compared.  Then R
Ramsch positions with T tricks left (from the F-th on), for each of the three seats, within S
seconds of CPU time too (the old paranoid search takes minutes from the first card).
``--by-proof``: the old Ramsch search does not search the value with its full window but checks
the new solver's value v with two of its own null-window searches, "at least v" and "at least
v + 1".  Its value is v exactly when the first holds and the second does not, so the check is
as strict, and it makes whole deals (T = 10) affordable: about 40 s of CPU a seat at the median here
(25 deals: 4 s to 7 minutes a seat).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from itertools import islice
from types import ModuleType
from typing import Any

import parlour
from parlour.arena import percentile
from parlour.games.schafkopf.bots import EasyBot
from parlour.games.schafkopf.solver import (
    RAMSCH_GUESS,
    RAMSCH_SPAN,
    SOLO_LEVELS,
    RamschSolver,
    SoloSolver,
    position_from_state,
)
from parlour.search import warm
from parlour.search.solver import budget


def deals(kind: str, tricks_left: int, seed: int = 0) -> Any:
    """Positions (seed, seat to move, Position) of deals played by the easy player, at a trick start."""
    g = parlour.load("schafkopf")
    rng = random.Random(seed)
    easy = EasyBot()
    s = seed
    while True:
        s += 1
        st = g.new_state(seed=s)
        while True:
            if st.phase == "play":
                deal = st.open_position()
                if not deal.trick and len(deal.winners) == 10 - tricks_left:
                    break
            st.apply(easy.act(st.view(st.current_player), rng))
        if (deal.soloist is None) == (kind == "ramsch"):
            yield s, st.current_player, position_from_state(st)


def _row(label: str, ms: list[float], nodes: int) -> None:
    seconds = sum(ms) / 1000
    print(f"{label:22} {len(ms):>6} {nodes / 1e6:>9.2f} {nodes / seconds if seconds else 0:>12,.0f} "
          f"{statistics.median(ms):>10.1f} "
          f"{percentile(ms, 0.99):>9.1f} {max(ms):>9.1f}", flush=True)


def bench_speed(count: int, ramsch_tricks: int, ramsch_limit: float) -> None:
    t0 = time.perf_counter()
    warm.now()
    print(f"kernels {'loaded from the cache' if warm.last.get('cached') else 'compiled'} in "
          f"{time.perf_counter() - t0:.1f} s; compiled: {warm.compiled()}")
    print(f"{'contract':22} {'deals':>6} {'M nodes':>9} {'nodes/s':>12} {'median ms':>10} {'p99 ms':>9} {'max ms':>9}")
    ms: list[float] = []
    nodes = 0
    for _, _, pos in islice(deals("solo", 10), count):
        solver = SoloSolver(pos.soloist)
        solver.clear()
        t = time.perf_counter()
        solver.score(pos)
        ms.append(1000 * (time.perf_counter() - t))
        nodes += solver.nodes
    _row("solo, first card", ms, nodes)
    for left, label in ((10, "ramsch, first card"), (ramsch_tricks, f"ramsch, {ramsch_tricks} tricks left")):
        ms, nodes = [], 0
        start = time.perf_counter()
        for _, seat, pos in islice(deals("ramsch", left), count):
            ramsch = RamschSolver(seat, pos.dealer, pos.skat)
            ramsch.clear()
            t = time.perf_counter()
            ramsch.value(pos)
            ms.append(1000 * (time.perf_counter() - t))
            nodes += ramsch.nodes
            if time.perf_counter() - start > ramsch_limit:
                break
        _row(label, ms, nodes)


#: a node budget no solve reaches: the block only empties the tables (``search.solver.budget``)
_UNLIMITED = 1 << 60


def _score(solver: SoloSolver, pos: Any, score: int) -> int:
    return solver.score(pos)


def _prove(solver: SoloSolver, pos: Any, score: int) -> int:
    """The probes that prove ``score``: "at least it", and not "at least the level above"."""
    above = SOLO_LEVELS.index(score) + 1
    assert solver.at_least(pos, score)
    assert above == len(SOLO_LEVELS) or not solver.at_least(pos, SOLO_LEVELS[above])
    return score


def _first_probe(solver: SoloSolver, pos: Any, score: int) -> int:
    solver.at_least(pos, 2)
    return score


def _ramsch_value(solver: RamschSolver, pos: Any, value: int) -> int:
    return solver.value(pos)


def _ramsch_proof(solver: RamschSolver, pos: Any, value: int) -> int:
    """The probes that prove ``value``: "at least it", and not "at least one more" (the next value up)."""
    assert solver.at_least(pos, value)
    assert not solver.at_least(pos, value + 1)
    return value


def _ramsch_first_probe(solver: RamschSolver, pos: Any, value: int) -> int:
    solver.at_least(pos, RAMSCH_GUESS - RAMSCH_SPAN)
    return value


#: what ``proof`` asks of each deal, in this order, each from empty tables: each is handed the score
#: found so far and returns it (the first finds it, so no deal is solved once more only to know it)
_ASKS: dict[str, Callable[[SoloSolver, Any, int], int]] = {"score": _score, "proof": _prove, "61 pips?": _first_probe}
_RAMSCH_ASKS: dict[str, Callable[[RamschSolver, Any, int], int]] = {
    "value": _ramsch_value, "proof": _ramsch_proof, "takes none?": _ramsch_first_probe}


def _proof_rows(positions: Iterable[tuple[int, Any]], solver_for: Callable[[int, Any], Any],
                asks: dict[str, Callable[[Any, Any, int], int]]) -> None:
    """Each of ``asks`` on each position (its seat, the position), each from empty tables: a table row each."""
    rows: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in asks}
    for seat, pos in positions:
        found = 0
        for name, ask in asks.items():
            solver = solver_for(seat, pos)
            with budget(_UNLIMITED):  # only to empty the tables
                t = time.perf_counter()
                found = ask(solver, pos, found)
                rows[name][1].append(1000 * (time.perf_counter() - t))
            rows[name][0].append(solver.nodes)
    print(f"{'search':12} {'median nodes':>13} {'p99 nodes':>12} {'median ms':>10} {'p99 ms':>9} {'total nodes':>12}")
    for name, (nodes, ms) in rows.items():
        print(f"{name:12} {statistics.median(nodes):>13,.0f} {percentile(nodes, 0.99):>12,.0f} "
              f"{statistics.median(ms):>10.1f} {percentile(ms, 0.99):>9.1f} {sum(nodes):>12,.0f}", flush=True)


def bench_proof(count: int) -> None:
    warm.now()
    print(f"{count} solo deals from the first card, each search from empty tables: the score, the two probes "
          f"that prove it, and the first probe alone")
    _proof_rows(((pos.soloist, pos) for _, _, pos in islice(deals("solo", 10), count)),
                lambda seat, pos: SoloSolver(seat), _ASKS)
    print(f"{count} Ramsch deals from the first card, for the seat to lead, the same way: the value, the two "
          f"probes that prove it, and the first probe alone")
    _proof_rows(((seat, pos) for _, seat, pos in islice(deals("ramsch", 10), count)),
                lambda seat, pos: RamschSolver(seat, pos.dealer, pos.skat), _RAMSCH_ASKS)


def _old_ramsch_value(old: ModuleType, pos: Any, seat: int, proof_of: int | None) -> int:
    """The old paranoid solver's value of ``pos`` for ``seat``; with ``proof_of``, what its null-window
    searches at that value prove (``--by-proof``: ``old_solvers.proved_value``)."""
    solver = old.RamschSolver(seat, pos.dealer, pos.skat)
    if proof_of is None:
        return int(solver.value(pos))

    def at_least(v: int) -> bool:
        return int(solver.search(list(pos.hands), pos.leader, list(pos.trick), tuple(pos.pips), pos.order,
                                 v - 1, v)) >= v

    from old_solvers import proved_value  # type: ignore[import-not-found]  # bench/ is on the path

    return int(proved_value(at_least, proof_of))


def bench_equal(count: int, seconds: float, ramsch_tricks: int, ramsch_count: int, ramsch_first: int,
                by_proof: bool) -> None:
    warm.now()
    from old_solvers import proof_words  # type: ignore[import-not-found]  # bench/ is on the path
    from old_solvers import schafkopf as old  # type: ignore[import-not-found]

    start = time.perf_counter()
    cpu = time.process_time()
    compared = 0
    new_ms: list[float] = []
    old_ms: list[float] = []
    levels: dict[int, int] = {}
    for s, _, pos in islice(deals("solo", 10), count):
        t = time.perf_counter()
        got = SoloSolver(pos.soloist).score(pos)
        new_ms.append(1000 * (time.perf_counter() - t))
        t = time.perf_counter()
        want = old.SoloSolver(pos.soloist).score(pos)
        old_ms.append(1000 * (time.perf_counter() - t))
        if got != want:
            print(f"MISMATCH seed {s}: new {got}, old {want}: {pos}")
            sys.exit(1)
        compared += 1
        levels[got] = levels.get(got, 0) + 1
        if time.process_time() - cpu > seconds:
            break
    print(f"{compared} whole solo deals from the first card: new == old on every one "
          f"(scores {dict(sorted(levels.items()))})")
    if compared:
        print(f"new: median {statistics.median(new_ms):.1f} ms, p99 {percentile(new_ms, 0.99):.1f} ms; "
              f"old: median {statistics.median(old_ms):.0f} ms, p99 {percentile(old_ms, 0.99):.0f} ms; "
              f"{time.perf_counter() - start:.0f} s in all ({time.process_time() - cpu:.0f} s CPU)")
    compared = 0
    cpu = time.process_time()
    for s, _, pos in islice(deals("ramsch", ramsch_tricks), ramsch_first, ramsch_first + ramsch_count):
        t = time.process_time()
        for seat in range(3):
            got = RamschSolver(seat, pos.dealer, pos.skat).value(pos)
            want = _old_ramsch_value(old, pos, seat, got if by_proof else None)
            if got != want:
                print(f"MISMATCH Ramsch seed {s}, seat {seat}: new {got}, "
                      f"old {proof_words(want, got) if by_proof else want}: {pos}")
                sys.exit(1)
        compared += 1
        print(f"  {compared}/{ramsch_count} Ramsch seed {s}: new == old for all three seats "
              f"({time.process_time() - t:.1f} s)", file=sys.stderr, flush=True)
        if time.process_time() - cpu > seconds:
            break
    how = " (the old solver proving the new values)" if by_proof else ""
    print(f"{compared} Ramsch deals with {ramsch_tricks} tricks left (positions {ramsch_first + 1}-"
          f"{ramsch_first + compared}), each for all three seats: new == old{how}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("part", choices=["speed", "proof", "equal"])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=900.0, help="equal: stop after so many CPU seconds")
    ap.add_argument("--ramsch-tricks", type=int, default=5, help="tricks left in the Ramsch positions")
    ap.add_argument("--ramsch-deals", type=int, default=100, help="equal: Ramsch positions compared")
    ap.add_argument("--ramsch-first", type=int, default=0, help="equal: Ramsch positions skipped before those")
    ap.add_argument("--by-proof", action="store_true",
                    help="equal: the old Ramsch search checks the new values by two null-window searches")
    ap.add_argument("--ramsch-limit", type=float, default=120.0, help="speed: seconds for each Ramsch row")
    args = ap.parse_args()
    if args.part == "speed":
        bench_speed(args.deals, args.ramsch_tricks, args.ramsch_limit)
    elif args.part == "proof":
        bench_proof(args.deals)
    else:
        bench_equal(args.deals, args.seconds, args.ramsch_tricks, args.ramsch_deals, args.ramsch_first, args.by_proof)


if __name__ == "__main__":
    main()
