"""Where a hard solve spends its nodes on moves that fail before another cuts: what a better move order could save.

    PYTHONPATH=src .venv/bin/python bench/order_waste.py [--game sixbid|ramsch] [--deals N] [--rank K]
        [--contracts solo] [--forced]

Of the first N deals (Six-Bid's as the easy players bid the contracts, or ``--forced``; or Ramsches from
the first card: ``bench/pair_kernels.py``'s deals), the K-th hardest by the compiled kernel's nodes is
solved again by the kernel's Python copy (``jit.python_copy``: the same code, minutes for a million nodes),
with its ``_enter`` and ``_close`` wrapped to watch every node.  At each node that cut off on a move
other than the first it tried, the nodes its earlier moves took are *wasted*: a perfect order would have
tried the cutting move first.  Each wasted node is counted once, at its highest such node (an ancestor's
waste replaces what was counted inside its failed moves), so the shares add up.  Printed: the share of
all nodes wasted; the waste by tricks left and by who moved (place in the trick, S for the seat that
maximises, D for the others); and the largest pairs of (first move tried, move that cut), each card as
its points and, for a follow, whether it takes the trick so far, plays under it, or neither (off), and
whether it trumps.

Why: the cut-off rate on the first move (88-94 % in the kernel's docstrings) is mostly the many small
nodes near the leaves.  This count found, on the hardest Six-Bid solo as bid, 68 % of the nodes wasted,
an eighth of them by the soloist taking a trick with his fattest card where a cheaper taker cut: the
weakest-taker order of ``tricks._order`` (``TrickRules.take_weakest``), which halved that deal.  An
upper bound, not a forecast: the cutting move's subtree may grow when no sibling has filled the table.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from typing import Any

from pair_kernels import Solve, ramsch_deals, sixbid_deals  # a sibling bench: its deals, not a copy of them
from parlour.search import jit, tricks, warm

#: where a node stands: (tricks left, its place in the trick, S for the seat that maximises, D for the others)
Place = tuple[int, int, str]


class Waste:
    """Wraps a Python kernel module's ``_enter`` and ``_close`` and counts the wasted nodes (module docstring)."""

    def __init__(self, kernels: Any) -> None:
        self.k = kernels
        self.enter0: Callable[..., tuple[int, bool]] = kernels._enter
        self.close0: Callable[..., int] = kernels._close
        self.start: dict[int, int] = {}  # per frame: the node count when it was entered
        self.last_child: dict[int, int] = {}  # the node count when its latest move was opened
        self.counted: dict[int, int] = {}  # the waste counted inside its subtree so far
        self.counted_before_last: dict[int, int] = {}  # of that, what was counted before its latest move
        self.place: dict[int, Place] = {}
        self.trick_at: dict[int, int] = {}
        self.by_place: Counter[Place] = Counter()
        self.by_pair: Counter[tuple[str, str, str]] = Counter()
        self.rules: Any = None
        self.power: Any = None
        self.trick: Any = None
        self.ncards = 0

    def __enter__(self) -> Waste:
        self.k._enter, self.k._close = self.enter, self.close
        return self

    def __exit__(self, *exc: object) -> None:
        self.k._enter, self.k._close = self.enter0, self.close0

    def enter(self, f: int, h: Any, trick: Any, rules: Any, power: Any, side: Any, params: Any, tt: Any, buf: Any,
              frames: Any, stats: Any) -> tuple[int, bool]:
        k = self.k
        self.power, self.trick, self.rules = power, trick, rules
        self.ncards = int(params[k.P_CARDS])
        nodes = int(stats[k.S_NODES])
        if f > 0:
            self.last_child[f - 1] = nodes
            self.counted_before_last[f - 1] = self.counted[f - 1]
        frame = frames[f]
        ncur = int(frame[k.F_NCUR])
        nplayers = int(params[k.P_PLAYERS])
        cards = sum(int(x).bit_count() for x in h[:nplayers]) + ncur  # in the hands and in this trick
        mover = (int(frame[k.F_LEADER]) + ncur) % nplayers
        self.start[f] = nodes
        self.counted[f] = 0
        self.place[f] = (cards // nplayers, ncur, "S" if side[mover] & k.MAX else "D")
        self.trick_at[f] = int(frame[k.F_TB])
        return self.enter0(f, h, trick, rules, power, side, params, tt, buf, frames, stats)

    def close(self, f: int, h: Any, tt: Any, frames: Any, rules: Any, params: Any, side: Any, buf: Any) -> int:
        k = self.k
        frame = frames[f]
        n = int(frame[k.F_N])
        best = int(frame[k.F_BEST])
        place = self.place[f]
        cut = best >= frame[k.F_B0] if place[2] == "S" else best <= frame[k.F_A0]
        if cut and n > 1:
            moves = [int(buf[f * 32 + i]) for i in range(n)]
            at = moves.index(int(frame[k.F_MOVE]))
            if at > 0:
                failed = self.last_child[f] - self.start[f] - 1  # the node itself is not waste
                new = failed - self.counted_before_last[f]
                self.counted[f] += new
                self.by_place[place] += new
                self.by_pair[(f"{place[1]}{place[2]}", self.card(f, moves[0]), self.card(f, moves[at]))] += new
        value = self.close0(f, h, tt, frames, rules, params, side, buf)
        if f > 0:
            self.counted[f - 1] += self.counted[f]
        return value

    def card(self, f: int, c: int) -> str:
        """``c`` as its points and, for a follow, what it does to the trick so far."""
        k, ncur = self.k, self.place[f][1]
        pts = int(self.rules[k.PTS, c])
        if ncur == 0:
            return f"lead {pts}"
        tb, n = self.trick_at[f], self.ncards
        led = int(self.trick[tb])
        held = int(self.power[led * n + int(self.trick[tb + k.trick_winner(self.trick, tb, ncur, self.power, n)])])
        p = int(self.power[led * n + c])
        trumps = " trump" if p and not int(self.rules[k.SUIT, led]) >> c & 1 else ""
        return f"{pts} {'takes' if p > held else 'under' if p else 'off'}{trumps}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("sixbid", "ramsch"), default="sixbid")
    parser.add_argument("--deals", type=int, default=200, help="deals to rank (per contract, in Six-Bid)")
    parser.add_argument("--rank", type=int, default=1, help="the K-th hardest of them")
    parser.add_argument("--contracts", default="solo", help="Six-Bid's contracts, comma-separated")
    parser.add_argument("--forced", action="store_true", help="Six-Bid: forced contracts, not as bid")
    args = parser.parse_args()
    if not jit.AVAILABLE:
        raise SystemExit("numba is not available here: the deals are ranked by the compiled kernel")
    warm.now()
    solves: list[Solve] = list(sixbid_deals(args.deals, args.contracts.split(","), not args.forced)
                               if args.game == "sixbid" else ramsch_deals(args.deals))
    nodes = [solve(tricks)()[1] for solve in solves]
    chosen = sorted(range(len(solves)), key=lambda i: -nodes[i])[args.rank - 1]
    print(f"deal {chosen + 1} of {len(solves)}: {nodes[chosen]:,} nodes compiled; solving it as Python ...", flush=True)
    with Waste(jit.python_copy(tricks)) as waste:
        value, total = solves[chosen](waste.k)()
    wasted = sum(waste.by_place.values())
    print(f"value {value}, {total:,} nodes, {wasted:,} wasted ({wasted / total:.0%})")
    print("wasted nodes by tricks left; n0 leads, n1 the second card, n2 the third; S maximises, D the others")
    for left in sorted({p[0] for p in waste.by_place}, reverse=True):
        row = [f"n{p[1]}{p[2]} {c:,}" for p, c in sorted(waste.by_place.items()) if p[0] == left and c]
        print(f"  {left:2}  " + " | ".join(row))
    print("the largest (who, first move tried, move that cut):")
    for (who, first, cutter), c in waste.by_pair.most_common(12):
        print(f"  {c:>10,}  n{who}: {first:>16}  ->  {cutter}")


if __name__ == "__main__":
    main()
