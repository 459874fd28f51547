"""The review of a finished deal (``parlour.review``): seconds per deal per game, and what it finds.

    .venv/bin/python bench/bench_review.py [--deals 6] [--seed 1] [--think S] [--games clobby ...]

For each game, ``--deals`` deals are played by ``strong`` in every seat (at its default think,
or ``--think`` seconds a decision), and the same packs again with ``easy`` in seat 0 against
``strong``.  Each deal is then reviewed for seat 0 at the default
review budget (each game's ``review.SAMPLES``), as the terminal and line mode review it when a
deal ends.  Figures per game: the wall and CPU seconds per whole deal's review (mean and
worst; the target is at most 3 s on the 2-core development machine), the decisions reviewed,
and the mean loss per deal by what the seat knew (the review's verdict) of ``strong`` and of
``easy`` in seat 0: ``strong`` reviewed by its own search should lose next to nothing, ``easy`` more.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import parlour
from parlour.bots import make
from parlour.engine import bot_rng
from parlour.review import review_deal
from parlour.search import warm

GAMES = ("clobby", "sixbid", "schafkopf", "truc", "gops")
UNITS = {"clobby": "points", "sixbid": "chips", "schafkopf": "points", "truc": "points", "gops": "points"}


def player(game: str, level: str, think: float | None) -> Any:
    """A computer player; ``strong`` thinks ``think`` seconds a decision (None: its default; GOPS's and
    Le Truc's take no time)."""
    return make(game, level, think=think) if level == "strong" and think is not None else make(game, level)


def play_deals(game: str, deals: int, seed: int, seat0: str, think: float | None) -> list[dict[str, Any]]:
    """Records of games played until ``deals`` deals have ended (seat 0 ``seat0``, the others ``strong``)."""
    records = []
    done = 0
    number = 0
    while done < deals:
        state = parlour.load(game).new_state(seed=seed * 1000 + number)
        number += 1
        players = [player(game, seat0 if s == 0 else "strong", think) for s in range(state.game.num_players)]
        while not state.is_over and len(state.deals) < deals - done:
            seat = state.current_player
            assert seat is not None
            state.apply(players[seat].act(state.view(seat), bot_rng(state.seed, len(state.actions))))
        records.append(state.record())
        done += len(state.deals)
    return records


def review_all(records: list[dict[str, Any]]) -> tuple[list[float], list[float], list[int], list[float]]:
    """Each deal's review for seat 0: wall seconds, CPU seconds, decisions, loss."""
    walls, cpus, decisions, losses = [], [], [], []
    for record in records:
        for deal in range(1, len(parlour.from_json(record).deals) + 1):
            wall, cpu = time.perf_counter(), time.process_time()
            review = review_deal(record, deal, 0)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            verdict = review.verdict
            decisions.append(verdict.decisions)
            losses.append(verdict.loss)
    return walls, cpus, decisions, losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=None, help="seconds a strong decision (default: its own)")
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    warm.now()
    for game in args.games:  # a first review loads the strategy tables and fills caches: not the deals' time
        review_deal(play_deals(game, 1, 999, "easy", args.think)[0], 1, 0)
    print("| game | deals | s/deal mean | s/deal worst | CPU s/deal mean | CPU s/deal worst | decisions/deal "
          "| strong's loss/deal | easy's loss/deal | unit |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    for game in args.games:
        strong = play_deals(game, args.deals, args.seed, "strong", args.think)
        walls, cpus, decisions, losses = review_all(strong)
        easy = review_all(play_deals(game, args.deals, args.seed, "easy", args.think))
        print(f"| {game} | {len(walls)} | {statistics.mean(walls):.2f} | {max(walls):.2f} "
              f"| {statistics.mean(cpus):.2f} | {max(cpus):.2f} | {statistics.mean(decisions):.1f} "
              f"| {statistics.mean(losses):.2f} | {statistics.mean(easy[3]):.2f} | {UNITS[game]} |", flush=True)


if __name__ == "__main__":
    main()
