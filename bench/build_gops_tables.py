"""Build the GOPS strong player's shipped tables: every position's exact value for N = 6 and 7.

    .venv/bin/python bench/build_gops_tables.py [--sizes 6 7]

Writes ``src/parlour/games/gops/tables/values_<n>_<ties>_<scoring>.npz`` for both tie rules
and both scorings, and prints the time, the number of matrix games and values, and the file
size.  Takes several minutes for N = 7 (the solver is pure Python around HiGHS).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from parlour.games.gops import tables
from parlour.games.gops.solver import Solver

OUT = Path(tables.__file__).parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(tables.SIZES))
    args = parser.parse_args()
    print(f"{'N':>2} {'ties':<8} {'scoring':<7} {'seconds':>8} {'games':>8} {'values':>8} {'bytes':>9}")
    for n in args.sizes:
        for ties in ("carry", "discard"):
            for scoring in ("points", "win"):
                solver = Solver(ties, scoring)
                start = time.perf_counter()
                solver.solve_all(n)
                seconds = time.perf_counter() - start
                path = OUT / tables.filename(n, ties, scoring)
                count = tables.save_values(solver, str(path))
                print(f"{n:>2} {ties:<8} {scoring:<7} {seconds:>8.1f} {solver.matrix_games:>8} {count:>8}"
                      f" {os.path.getsize(path):>9}", flush=True)


if __name__ == "__main__":
    main()
