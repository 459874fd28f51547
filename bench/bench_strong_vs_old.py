"""Today's ``strong`` against the ``strong`` of an earlier revision, on the arena's duplicate packs (issue 24).

    .venv/bin/python bench/bench_strong_vs_old.py [--rev 24cdc77~1] [--games clobby sixbid schafkopf]
        [--deals 500] [--seed 1] [--jobs 2]

Why a second process: the earlier player is another tree's code (a pristine worktree of
``--rev`` at /tmp/strong-base, made as ``compare_engine_speed.py`` makes it; the default is the
last commit before the compiled search core).  Each arena process keeps one worker process on
that tree's ``src``; at each of its moves the earlier player is sent the seat's view (a plain
dict, the same one any interface gets) and a seed for its own choices, and answers the action.
The games themselves, their packs, seatings and scoring are today's (``arena.run`` with the
earlier player as ``open_a``: it is handed the state only to take the seat's view of it).

The table is ``arena``'s, with the earlier player as A: its margin is earlier − today, so today's
player is ahead when the interval lies below zero; the line after it says it the other way round.
Decision times count the earlier player's round trip to its worker (a fraction of a millisecond).
"""

from __future__ import annotations

import argparse
import atexit
import functools
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from compare_engine_speed import base_tree
from parlour import arena

WORKER = r"""
import os, pickle, random, sys
out = os.fdopen(os.dup(1), "wb")
os.dup2(2, 1)  # whatever the earlier tree prints goes to stderr, never into the answers
from parlour.bots import make
try:  # a tree with the compiled core: its kernels, as a player has them once the table warmed them
    from parlour.search import warm
    warm.now()
except ImportError:
    pass
bots = {}
while True:
    try:
        game, level, view, seed = pickle.load(sys.stdin.buffer)
    except EOFError:
        break
    bot = bots.get((game, level))
    if bot is None:
        bot = bots[(game, level)] = make(game, level)
    pickle.dump(bot.act(view, random.Random(seed)), out)
    out.flush()
"""

_workers: dict[str, subprocess.Popen[bytes]] = {}


def _worker(src: str) -> subprocess.Popen[bytes]:
    """This process's worker on the earlier tree (one per arena process, kept for its packs)."""
    proc = _workers.get(src)
    if proc is None or proc.poll() is not None:
        env = {**os.environ, "PYTHONPATH": src}
        proc = _workers[src] = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE,
                                                stdout=subprocess.PIPE, env=env)
        atexit.register(_close, proc)
    return proc


def _close(proc: subprocess.Popen[bytes]) -> None:
    if proc.stdin is not None:
        proc.stdin.close()
    proc.wait(timeout=30)


def earlier_player(src: str, game: str, level: str = "strong") -> arena.OpenPlayer:
    """``open_a`` for ``arena.run``: the earlier tree's ``level``, asked through its worker with the seat's view."""
    proc = _worker(src)
    stdin: IO[bytes] = proc.stdin  # type: ignore[assignment]
    stdout: IO[bytes] = proc.stdout  # type: ignore[assignment]

    def act(state: Any, rng: random.Random) -> str:
        view = state.view(state.current_player)
        pickle.dump((game, level, view, rng.getrandbits(64)), stdin)
        stdin.flush()
        action: str = pickle.load(stdout)
        return action
    return act


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="24cdc77~1", help="the earlier revision (default: before the compiled core)")
    ap.add_argument("--games", nargs="+", default=["clobby", "sixbid", "schafkopf"])
    ap.add_argument("--deals", type=int, default=500, help="duplicate packs per game")
    ap.add_argument("--seed", type=int, default=1, help="the first pack's seed (more packs: a run from 501)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    src = str(base_tree(args.rev, Path("/tmp/strong-base")))
    print(f"earlier strong: {args.rev} ({Path(src).parent}); today's: this tree")
    for game in args.games:
        result = arena.run(game, "earlier", "strong", args.deals, jobs=args.jobs, seed=args.seed,
                           open_a=functools.partial(earlier_player, src, game))
        print(result.table())
        print(f"  today's strong - earlier strong per deal: {-result.mean:+.3f} ± {result.interval():.3f} (95 %), "
              f"± {result.interval(2.576):.3f} (99 %), {result.seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main()
