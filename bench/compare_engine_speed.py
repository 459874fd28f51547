"""Engine speed now against an earlier revision, paired in CPU time (issue 11, point 3).

    .venv/bin/python bench/compare_engine_speed.py [--rev 380f26b] [--rounds 60] [--slice 0.1]

Why paired: the machine is shared and noisy, so two runs of ``bench/engine_speed.py`` minutes
apart cannot show a 5 % difference.  Here a pristine worktree of ``--rev`` is made (kept at
``/tmp/speed-base``), and two long-lived worker processes are started from this script: one
with ``PYTHONPATH`` on the base's ``src``, one on this tree's ``src``.  Both run the workload
of this tree's ``bench/engine_speed.py`` (``parlour_unit``: whole random deals through the
public API, which both revisions have), and the script alternates them slice by slice (the
order flips every round), timing each slice in CPU time (``time.process_time``).

Each slice of a round plays the *same* units in both workers: deal seeds ``i .. i+n`` with one
``random.Random`` seeded from the round for the action choices, and ``n`` fixed per game (set
so that a slice of the base takes about ``--slice`` seconds).  With unchanged behaviour both
play exactly the same games, which the workers check in the first round by a digest of every action played
(the ``same`` column).  Per game the median of the paired ratios after/before (of units per CPU
second; above 1 is faster now) is printed with their quartiles.  Many short slices rather than a
few long ones: the load of a shared machine changes over seconds, so closer pairs see more nearly
the same load (on two busy cores, 80 slices of 0.08 s gave quartiles about half as wide as 15 of 0.3 s).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
BASE_TREE = Path("/tmp/speed-base")


# -- the worker (a separate process per tree) -------------------------------------------------
def worker() -> None:
    """Answer ``{"game", "start", "count", "seed"}`` lines with the CPU time of that slice."""
    spec = importlib.util.spec_from_file_location("engine_speed", ROOT / "bench" / "engine_speed.py")
    assert spec is not None and spec.loader is not None
    engine_speed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(engine_speed)
    import parlour

    print(json.dumps({"parlour": str(Path(parlour.__file__).parent)}), flush=True)
    units: dict[str, Any] = {}
    for line in sys.stdin:
        ask = json.loads(line)
        name = ask["game"]
        if name not in units:
            units[name] = engine_speed.parlour_unit(name)
        unit = units[name]
        rng = random.Random(ask["seed"])
        start, count = ask["start"], ask["count"]
        gc.collect()
        began = time.process_time()
        for i in range(start, start + count):
            unit(i, rng)
        cpu = time.process_time() - began
        print(json.dumps({"cpu": cpu, "digest": digest(name, ask) if ask["check"] else ""}), flush=True)


def digest(name: str, ask: dict[str, Any]) -> str:
    """A digest of every action of the slice's games, replayed untimed (same games in both trees?)."""
    import parlour

    game = parlour.load(name)
    rng = random.Random(ask["seed"])
    sha = hashlib.sha1()
    for i in range(ask["start"], ask["start"] + ask["count"]):
        state = game.new_state(seed=i)
        while not state.deals:
            state.apply(rng.choice(state.legal_actions()))
        sha.update(" ".join(state.actions).encode())
    return sha.hexdigest()[:12]


# -- the driver ---------------------------------------------------------------------------------
class Worker:
    def __init__(self, src: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(src))
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env, cwd="/tmp")
        hello = json.loads(self._out.readline())
        if Path(hello["parlour"]).resolve() != (src / "parlour").resolve():
            raise SystemExit(f"worker for {src} imported parlour from {hello['parlour']}")

    @property
    def _out(self) -> IO[str]:
        assert self.proc.stdout is not None
        return self.proc.stdout

    def run(self, game: str, start: int, count: int, seed: int, check: bool = False) -> tuple[float, str]:
        assert self.proc.stdin is not None
        ask = {"game": game, "start": start, "count": count, "seed": seed, "check": check}
        self.proc.stdin.write(json.dumps(ask) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self._out.readline())
        return answer["cpu"], answer["digest"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def base_tree(rev: str, where: Path = BASE_TREE) -> Path:
    """A pristine worktree of ``rev`` at ``where`` (made if missing, checked if present); its ``src``."""
    want = subprocess.run(["git", "rev-parse", f"{rev}^{{commit}}"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip()
    if not where.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(where), want], cwd=ROOT,
                       check=True, capture_output=True)
    have = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True,
                          check=True).stdout.strip()
    if have != want:
        raise SystemExit(f"{where} holds {have[:9]}, not {rev}: remove it first "
                         f"(git worktree remove --force {where})")
    return where / "src"


def quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="380f26b", help="the revision to compare with")
    parser.add_argument("--rounds", type=int, default=60, help="paired slices per game")
    parser.add_argument("--slice", type=float, default=0.1, help="CPU seconds of one slice (about)")
    parser.add_argument("--games", nargs="*", help="games to compare (default: all five)")
    args = parser.parse_args()

    before, after = Worker(base_tree(args.rev)), Worker(ROOT / "src")
    games = args.games or ["clobby", "sixbid", "schafkopf", "truc", "gops"]
    began = time.perf_counter()
    print(f"after = {ROOT} (working tree), before = {args.rev}; {args.rounds} rounds of ~{args.slice} s CPU")
    print(f"{'game':<10} {'units':>5} {'before/s':>9} {'after/s':>9} {'ratio':>6} {'q1':>6} {'q3':>6}  same")
    print("-" * 62)
    try:
        for g, name in enumerate(games):
            # warm up both and size a slice from the base's speed
            before.run(name, 0, 5, 0)
            after.run(name, 0, 5, 0)
            cpu, _ = before.run(name, 0, 20, 0)
            count = max(5, round(20 * args.slice / max(cpu, 1e-6)))
            ratios, rate_before, rate_after, same = [], [], [], True
            for r in range(args.rounds):
                start, seed = 1000 + r * count, 7919 * g + r
                pair = (before, after) if r % 2 == 0 else (after, before)
                results = {id(w): w.run(name, start, count, seed, check=r == 0) for w in pair}
                (t_before, d_before), (t_after, d_after) = results[id(before)], results[id(after)]
                same = same and d_before == d_after
                rate_before.append(count / t_before)
                rate_after.append(count / t_after)
                ratios.append(t_before / t_after)
            q1, med, q3 = quartiles(ratios)
            print(f"{name:<10} {count:>5} {statistics.median(rate_before):>9.0f} "
                  f"{statistics.median(rate_after):>9.0f} {med:>6.3f} {q1:>6.3f} {q3:>6.3f}  "
                  f"{'yes' if same else 'NO'}", flush=True)
    finally:
        before.close()
        after.close()
    print(f"({time.perf_counter() - began:.0f} s; ratio = median of paired (after units/s) / (before units/s), "
          f"q1/q3 its quartiles; same = both trees played identical games)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main()
