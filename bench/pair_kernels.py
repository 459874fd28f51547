"""Versions of the search kernel paired deal by deal: the same whole deals, each solved by every version
in turn from an empty table; CPU time, nodes and values per version.

    PYTHONPATH=src .venv/bin/python bench/pair_kernels.py [REV ...] [--game sixbid|ramsch] [--deals N]
        [--contracts solo,heart] [--as-bid]

Each ``REV`` is a git revision whose ``src/parlour/search/tricks.py`` is loaded as a module of its own,
or ``.`` for the working tree's (the kernels every player runs); ratios are to the first.  Without
one (``make bench``): the kernel before its last commit against the working tree's, what the last
change to the kernel gained.  The deals: Six-Bid's forced contracts (``bench_solver_sixbid.first_card``,
seeds 1 to N of each contract, a pip solver per trump and soloist) or, with ``--as-bid``, the first N
that the easy players bid to each contract (``bench_solver_sixbid.as_bid``: the issue's solve rows),
or Schafkopf's Ramsches from the first card (the first N of ``bench_solver_schafkopf.deals``).

Why pairs and not two runs of a speed bench: this machine's speed changes by half from hour to hour
(the same kernel ran 8.9 M nodes/s in one hour and 4.4 M in the next), so two runs at different
times compare the hours as much as the code.  Here every deal is solved by each version one after
the other, a different version first on each deal, so the drift falls on all of them alike.  Every
version's kernels are loaded, and solve one deal, before the clock starts: the first kernel call of a
process pays numba's start-up (about 0.4 s), which a pairing that started the clock earlier counted
against whichever version ran first.

A version compiles once, on its first run (about two minutes); its copy and numba's cache of it are
kept in ``$TMPDIR/parlour-kernels``.  It must take the arrays this tree's ``TrickRules`` builds (the
same ``ROWS``, ``WIDTH`` and ``PARAMS``): an older layout is refused, not misread.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from types import ModuleType
from typing import Any

from parlour.arena import percentile
from parlour.games.schafkopf.solver import RamschSolver, ramsch_searcher
from parlour.games.sixbid.tables import PIPS, trick_rules
from parlour.search import jit, tricks, warm
from parlour.search.solver import TrickSolver

ROOT = Path(__file__).resolve().parent.parent
KERNEL = "src/parlour/search/tricks.py"
#: the constants of the arrays a kernel takes from ``TrickRules``: a version must agree on them
LAYOUT = ("ROWS", "WIDTH", "PARAMS")


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def default_revs() -> list[str]:
    """The kernel before the last commit that changed it, and the working tree's."""
    return [f"{_git('log', '-n', '1', '--format=%h', '--', KERNEL).strip()}~1", "."]


def load_version(rev: str) -> ModuleType:
    """The kernel module at git revision ``rev`` (``.``: the working tree's, compiled once ready)."""
    if rev == ".":
        warm.now()
        return tricks
    text = _git("show", f"{rev}:{KERNEL}").replace("from .jit import", "from parlour.search.jit import")
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    folder = Path(tempfile.gettempdir()) / "parlour-kernels"
    folder.mkdir(exist_ok=True)
    path = folder / f"tricks_{digest}.py"
    if not path.exists():  # written once: numba's cache keys on the file's time, so a rewrite compiles again
        path.write_text(text)
    spec = importlib.util.spec_from_file_location(f"parlour_kernels_{digest}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    for name in LAYOUT:
        if getattr(module, name, None) != getattr(tricks, name):
            raise SystemExit(f"{rev}'s kernel takes other arrays than this tree builds ({name}); "
                             f"pair versions of one layout")
    return module


#: one deal: given a version's kernels, its solver made ready (its table emptied, off the clock), and the
#: solve itself to time, which returns the value and the nodes
Solve = Callable[[ModuleType], Callable[[], tuple[int, int]]]


def sixbid_deals(count: int, contracts: list[str], bid: bool = False) -> Iterator[Solve]:
    """Six-Bid contracts from the first card, forced or (``bid``) as the easy players bid them, a pip
    solver per version, trump and soloist."""
    from bench_solver_sixbid import as_bid, first_card  # a sibling bench: its deals, not a copy of them
    solvers: dict[tuple[str, int, int], TrickSolver] = {}
    for contract in contracts:
        positions = islice(as_bid(contract), count) if bid else (first_card(contract, s) for s in range(1, count + 1))
        for pos in positions:

            def ready(kernels: ModuleType, pos: Any = pos) -> Callable[[], tuple[int, int]]:
                key = (kernels.__name__, pos.trump, pos.soloist)
                solver = solvers.get(key)
                if solver is None:
                    solver = solvers[key] = TrickSolver(trick_rules(pos.trump), PIPS, [pos.soloist], kernels=kernels)
                solver.clear()
                before = solver.nodes
                return lambda: (solver.exact(pos.hands, pos.leader, pos.trick), solver.nodes - before)
            yield ready


def ramsch_deals(count: int) -> Iterator[Solve]:
    """Ramsches from the first card, the seat to lead as the root, a searcher per version."""
    from bench_solver_schafkopf import deals
    searchers: dict[str, TrickSolver] = {}
    for _seed, seat, pos in islice(deals("ramsch", 10), count):
        def ready(kernels: ModuleType, seat: int = seat, pos: Any = pos) -> Callable[[], tuple[int, int]]:
            searcher = searchers.get(kernels.__name__)
            if searcher is None:
                searcher = searchers[kernels.__name__] = ramsch_searcher(kernels)
            searcher.clear()
            ramsch = RamschSolver(seat, pos.dealer, pos.skat, searcher=searcher)
            return lambda: (ramsch.value(pos), ramsch.nodes)
        yield ready


def pair(revs: list[str], solves: list[Solve]) -> bool:
    """Solve every deal with every version in turn; print the table; whether every value agreed."""
    versions = []
    for rev in revs:
        print(f"loading {rev} (a version's first run compiles it: about two minutes)", flush=True)
        versions.append(load_version(rev))
    for module in versions:  # loaded and warm before the clock
        solves[0](module)()
    cpu = [0.0] * len(versions)
    nodes = [0] * len(versions)
    ms: list[list[float]] = [[] for _ in versions]
    differ = 0
    for i, solve in enumerate(solves):
        values = {}
        for k in [(i + j) % len(versions) for j in range(len(versions))]:
            run = solve(versions[k])
            t = time.process_time()
            values[k], n = run()
            dt = time.process_time() - t
            cpu[k] += dt
            nodes[k] += n
            ms[k].append(1000 * dt)
        differ += len(set(values.values())) > 1
    print(f"{len(solves)} deals, each from an empty table, CPU time (this process's)")
    print(f"{'version':12} {'cpu s':>8} {'ratio':>6} {'M nodes':>9} {'median ms':>10} {'p99 ms':>8}")
    for rev, c, n, times in zip(revs, cpu, nodes, ms, strict=True):
        times.sort()
        print(f"{rev:12} {c:>8.2f} {c / cpu[0]:>6.3f} {n / 1e6:>9.2f} {statistics.median(times):>10.1f} "
              f"{percentile(times, 0.99):>8.1f}")
    print("every value the same" if not differ else f"VALUES DIFFER on {differ} deals")
    return not differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revs", nargs="*", help="git revisions, or . for the working tree (default: the kernel "
                        "before its last commit, and the working tree's)")
    parser.add_argument("--game", choices=("sixbid", "ramsch"), default="sixbid")
    parser.add_argument("--deals", type=int, default=200, help="deals (per contract, in Six-Bid)")
    parser.add_argument("--contracts", default="solo,heart", help="Six-Bid's contracts, comma-separated")
    parser.add_argument("--as-bid", action="store_true", help="Six-Bid: the deals whose auction, every seat played "
                        "by the easy player, ended in the contract (bench_solver_sixbid.as_bid), not forced ones")
    args = parser.parse_args()
    if not jit.AVAILABLE:
        raise SystemExit("numba is not available here: there is no compiled kernel to time")
    revs = args.revs or default_revs()
    solves = list(sixbid_deals(args.deals, args.contracts.split(","), args.as_bid) if args.game == "sixbid"
                  else ramsch_deals(args.deals))
    sys.exit(0 if pair(revs, solves) else 1)


if __name__ == "__main__":
    main()
