"""The review of a finished deal (``parlour.review``): seconds per deal per game, and what it finds.

    .venv/bin/python bench/bench_review.py [--deals 6] [--seed 1] [--think S] [--games clobby ...]

For each game, ``--deals`` deals are played by ``strong`` in every seat (at its default think,
or ``--think`` seconds a decision), and the same packs again with ``easy`` in seat 0 against
``strong``.  Each deal is then reviewed for seat 0 at the default
review budget (each game's ``review.SAMPLES``, and ``review.judge.PERFECT_NODES`` a decision for
the values as the cards lay), as the terminal and line mode review it when a deal ends.  Figures
per game: the wall and CPU seconds per whole deal's review (mean and worst over both sets of
deals; the target is at most 3 s on the 2-core development machine), the decisions reviewed,
the mean loss per deal by what the seat knew (the review's verdict) of ``strong`` and of
``easy`` in seat 0 (``strong`` reviewed by its own search should lose next to nothing, ``easy``
more), and how many decisions were valued as the cards lay and how many went past the budget.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any, NamedTuple

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


class Reviewed(NamedTuple):
    """Per deal reviewed: wall and CPU seconds, decisions, loss; and over all of them, the decisions
    valued as the cards lay and those whose exact solve went past the review's node budget."""

    walls: list[float]
    cpus: list[float]
    decisions: list[int]
    losses: list[float]
    as_they_lay: int
    past_budget: int


def review_all(records: list[dict[str, Any]]) -> Reviewed:
    """Each deal's review for seat 0."""
    out = Reviewed([], [], [], [], 0, 0)
    lay = cut = 0
    for record in records:
        for deal in range(1, len(parlour.from_json(record).deals) + 1):
            wall, cpu = time.perf_counter(), time.process_time()
            review = review_deal(record, deal, 0)
            out.walls.append(time.perf_counter() - wall)
            out.cpus.append(time.process_time() - cpu)
            verdict = review.verdict
            out.decisions.append(verdict.decisions)
            out.losses.append(verdict.loss)
            lay += sum(1 for j in review.judged if j.perfect)
            cut += sum(1 for j in review.judged if j.perfect_note)
    return out._replace(as_they_lay=lay, past_budget=cut)


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
          "| strong's loss/deal | easy's loss/deal | unit | valued as the cards lay | past the node budget |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|")
    for game in args.games:
        strong = review_all(play_deals(game, args.deals, args.seed, "strong", args.think))
        easy = review_all(play_deals(game, args.deals, args.seed, "easy", args.think))
        walls, cpus = strong.walls + easy.walls, strong.cpus + easy.cpus
        print(f"| {game} | {len(strong.walls)} + {len(easy.walls)} | {statistics.mean(walls):.2f} | {max(walls):.2f} "
              f"| {statistics.mean(cpus):.2f} | {max(cpus):.2f} | {statistics.mean(strong.decisions):.1f} "
              f"| {statistics.mean(strong.losses):.2f} | {statistics.mean(easy.losses):.2f} | {UNITS[game]} "
              f"| {strong.as_they_lay + easy.as_they_lay} | {strong.past_budget + easy.past_budget} |", flush=True)


if __name__ == "__main__":
    main()
