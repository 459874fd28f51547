"""Bench of the Six-Bid strong player: the solver, the decision budget, the arena and a cheater.

    .venv/bin/python bench/bench_sixbid_strong.py [--solver] [--budget] [--arena N] [--cheater N]
        [--split] [--skill N] [--no-trick N] [--jobs J] [--think S]

(a) ``--solver``: ms for the solver alone — exact to the end of the deal from a trick start
    with k tricks left and from the first card (positions from easy-vs-easy deals; per
    contract: ``bench/bench_solver_sixbid.py``).
(b) ``--budget``: ms and samples per decision of ``strong`` at the given think, per phase.
(c) ``--arena N``: ``arena.run("sixbid", "strong", "easy", N, jobs=J, think=S)``.
(d) ``--cheater N``: a bench-only cheater handed the full state (the true hands in place of
    samples; never a level) against easy on the same packs, and the fraction of its margin
    that strong reaches in (c).  It is the issue's yardstick, perfect-information Monte Carlo
    with easy-rule play-outs: every decision, cards too, plays each option out on the true deal
    by the easy rules to ``SOLVE_TRICKS`` tricks left and solves the rest.  Why not strong's own
    card play with the true deal (each card solved double-dummy from the first trick): against
    easy it is much the weaker yardstick, because play-outs that play the others as easy exploit
    easy's mistakes where a solve assumes none.  Packs 1-250 (cpu:2): play-outs +50.3 +- 4.9
    chips a deal (95 %), double-dummy cards +32.2 +- 4.9, with the same 287 declarations.
(e) ``--skill N``: what strong's own card play is worth over the easy rules' (``strong.SKILL_PIPS_*``):
    on N deals whose easy auction ended in a solo or heart, the deal played out with strong and
    then easy in the soloist's seat, and again in the first defender's, the others easy.
(f) ``--split``, with (c) and (d): where the cheater's margin over strong's lies, bids or cards: bench-only
    hybrids on the same packs, the cheater's bids with strong's card play and strong's bids with the
    cheater's card play, each paired per pack with (c) and (d) (as Clobby's bench, its (e)); and the
    cheater with double-dummy card play, which parts what its cards gain into knowing the deal and
    modelling easy.  ``--arena 300 --cheater 300 --split`` (cpu:2): strong +23.27 +- 3.76 chips a deal
    (95 %), the cheater +51.60 +- 4.54, share 0.451 +- 0.064; the cheater's bids are worth +9.18 +- 3.77
    over strong's with strong's cards (+8.01 +- 3.85 with its own), its cards +20.32 +- 3.31 with strong's
    bids (+19.15 +- 3.12 with its own).  Of those cards' +19.15, knowing the deal gives +0.31 +- 4.31
    (strong's card play is as good against easy as the solver's with the true deal) and the play-outs
    +18.84 +- 4.47: two thirds of the gap is card play, and all of that is modelling easy.  Strong
    reaches 0.710 +- 0.109 of the double-dummy cheater's margin (+32.76 +- 4.44).
(g) ``--no-trick N``: whether strong's misère and spread bids are sound, where the arena sees too few to
    tell ((f)'s run: 5 of 12 spreads made).  Over N seatings (strong in each seat in turn, the others
    easy), the misères and spreads strong declared, each then played with three players in the soloist's
    seat against the easy defenders: strong itself, the easy rules, and play-outs (``early_search``, the
    way its bids price the play).  ``--no-trick 3000`` (cpu:2): 41 spreads and 17 misères (1.9 % of the
    seatings).  Strong made 31 spreads (76 %), +61.5 +- 31.9 chips a declaration (95 %), and 8 misères
    (47 %), -3.5 +- 29.3 (a misère pays 30 from each opponent, a spread 60).  The easy rules' card play
    and the play-outs made about as many (30 and 31 spreads, 9 and 9 misères; strong's cards over theirs,
    paired: +5.9 +- 25.9 and +0.0 +- 23.2 chips on the spreads, -7.1 +- 13.8 on the misères).  So its
    spreads pay well (the 5 of 12 was a small sample), its misères about break even, and no other card
    play in those contracts shows better than its own.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from parlour import arena
from parlour.bots import make
from parlour.games.sixbid import rules as R
from parlour.games.sixbid.sampler import World
from parlour.games.sixbid.solver import deal_chips
from parlour.games.sixbid.strong import DEFAULT_THINK, SOLVE_TRICKS, StrongBot
from parlour.registry import load
from parlour.search import warm

GAME = load("sixbid")
EASY = make("sixbid", "easy")


def _ms(times: list[float]) -> str:
    t = sorted(times)
    return f"{1000 * statistics.median(t):9.1f} {1000 * arena.percentile(t, 0.99):9.1f}"


def _played_deals(count: int, seed: int) -> list[R.SixBidState]:
    """Deals bid by easy that reached play, at their first card."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = GAME.new_state(seed=rng.randrange(10**9))
        while state.phase != "play" and not state.deals:
            state.apply(EASY.act(state.view(state.current_player), rng))
        if not state.deals:
            out.append(state)
    return out


def bench_solver(count: int) -> None:
    print("(a) solver alone, ms per solve (positions from easy-vs-easy deals)")
    print(f"  {'position':44} {'n':>4} {'median':>9} {'p99':>9}")
    deals = _played_deals(count, 1)
    rng = random.Random(2)
    for left in (3, 4, 5, 6, 11):
        times = []
        for start in deals:
            state = start.clone()
            while sum(state.view(0)["tricks_won"]) < 11 - left:
                state.apply(EASY.act(state.view(state.current_player), rng))
            pos = state.open_position()
            assert pos is not None
            t0 = time.perf_counter()
            deal_chips(pos)
            times.append(time.perf_counter() - t0)
        what = "full deal from the first card" if left == 11 else f"{left} tricks left"
        print(f"  {f'exact, {what}':44} {len(times):>4} {_ms(times)}")


def bench_budget(deals: int, think: float) -> None:
    print(f"(b) strong at think={think}: per decision, strong in seat 0 against two easy")
    bot = StrongBot(think=think)
    rng = random.Random(3)
    times: dict[str, list[float]] = {}
    samples: dict[str, list[int]] = {}
    for k in range(deals):
        state = GAME.new_state(seed=k)
        while not state.deals:
            seat = state.current_player
            view = state.view(seat)
            if seat == 0 and len(view["legal_actions"]) > 1:
                t0 = time.perf_counter()
                d = bot.decide(view, rng)
                phase = view["phase"] if view["phase"] != "play" else ("play/pimc" if d.values else "play/rules")
                times.setdefault(phase, []).append(time.perf_counter() - t0)
                samples.setdefault(phase, []).append(d.samples)
                state.apply(d.action)
            else:
                state.apply(EASY.act(view, rng))
    print(f"  {'phase':10} {'n':>5} {'median ms':>9} {'p99 ms':>9} {'samples median':>15} {'min':>5}")
    every: list[float] = []
    for phase, t in times.items():
        every += t
        s = samples[phase]
        print(f"  {phase:10} {len(t):>5} {_ms(t)} {statistics.median(s):>15} {min(s):>5}")
    print(f"  {'all':10} {len(every):>5} {_ms(every)}")


# -- the cheater (bench only): the true deal in place of samples -----------------------------------
class Cheater(StrongBot):
    """Strong's decisions with the one true deal as its only sample (it reads the state: bench only)."""

    name = "cheater"

    def act_state(self, state: R.SixBidState, rng: random.Random) -> str:
        seat = state.current_player
        view = state.view(seat)
        legal = list(view["legal_actions"])
        if len(legal) == 1:
            return legal[0]
        world = World(list(state._hands), 0, list(state._packs[-1][0]), state._given)
        for code in state._widow_cards:
            world.widow |= 1 << R.INDEX[code]
        if view["phase"] == "play" and self._tricks_left(view) <= self._exact_tricks():
            values = self._card_evaluator(view, legal)(world)
        elif view["phase"] == "play" and not self.early_search:
            return self._easy.act(view, rng)
        else:
            # several play-outs of the true deal (the easy policy's ties are random)
            ev = self._option_evaluator(view, legal, random.Random(rng.random()))
            values = dict.fromkeys(legal, 0.0)
            for _ in range(4):
                for a, v in ev(world).items():
                    values[a] += v / 4
            prior = self._easy.act(view, rng)
            if max(values.values()) - values[prior] < self.prior_margin:
                return prior
        best = max(values.values())
        return rng.choice([a for a in legal if values[a] >= best - 1e-9])


def _cheater(think: float, double_dummy: bool = False) -> Cheater:
    """The yardstick: every decision, cards too, by play-outs of the true deal (see (d)); ``double_dummy``:
    its cards by the solver on the true deal from the first trick (strong's card play, the deal known)."""
    if double_dummy:
        return Cheater(think=think, exact_tricks=11, early_search=False, play_skill=False)
    return Cheater(think=think, exact_tricks=SOLVE_TRICKS, early_search=True, play_skill=False)


def open_cheater(think: float, double_dummy: bool = False) -> arena.OpenPlayer:
    """The cheater as ``arena.run``'s ``open_a`` makes it in each process."""
    return _cheater(think, double_dummy).act_state


class Hybrid:
    """Bench only: the cheater's choices in one kind of decision, strong's in the other: the bids (with the
    trump, the called card and the card given back), or the cards."""

    def __init__(self, open_bids: bool, think: float) -> None:
        self.cheater = _cheater(think)
        self.strong = StrongBot(think=think)
        self.open_bids = open_bids

    def act_state(self, state: R.SixBidState, rng: random.Random) -> str:
        view = state.view(state.current_player)
        if (view["phase"] != "play") == self.open_bids:
            return self.cheater.act_state(state, rng)
        return self.strong.act(view, rng)


def open_hybrid(open_bids: bool, think: float) -> arena.OpenPlayer:
    """A :class:`Hybrid` as ``arena.run``'s ``open_a`` makes it in each process (``functools.partial`` pickles)."""
    return Hybrid(open_bids, think).act_state


def bench_cheater(packs: int, jobs: int, think: float) -> arena.ArenaResult:
    """The cheater on the arena's packs, seatings and scoring: its margin and its bidding table."""
    result = arena.run("sixbid", "cheater", "easy", packs, jobs=jobs, open_a=functools.partial(open_cheater, think))
    print(f"(d) cheater (true hands, bench only) vs easy, {packs} duplicate packs")
    print(result.table())
    return result


def bench_split(jobs: int, think: float, strong: arena.ArenaResult, cheat: arena.ArenaResult) -> None:
    """(f): the cheater's bids and its cards, each worth so much over strong's, paired per pack; and of
    its cards, what knowing the deal gives (the double-dummy cheater's cards over strong's) and what its
    play-outs give over that."""
    packs = len(cheat.margins)
    players = (("hybrid", functools.partial(open_hybrid, True, think)),
               ("hybrid", functools.partial(open_hybrid, False, think)),
               ("cheater", functools.partial(open_cheater, think, True)))  # double-dummy cards
    bids_cards, cards_bids, dd = (arena.run("sixbid", name, "easy", packs, jobs=jobs, open_a=factory)
                                  for name, factory in players)
    print(f"(f) the cheater's margin over strong's, split (hybrids on the same {packs} packs, 95 %, paired per pack)")
    print(f"    its bids, with strong's cards:  {bids_cards.gain_over(strong)}   with its own cards:  "
          f"{cheat.gain_over(cards_bids)}")
    print(f"    its cards, with strong's bids:  {cards_bids.gain_over(strong)}   with its own bids:   "
          f"{cheat.gain_over(bids_cards)}")
    print(f"      of which knowing the deal (its bids, double-dummy cards over strong's): {dd.gain_over(bids_cards)}, "
          f"its play-outs (over double-dummy cards): {cheat.gain_over(dd)}")
    print(f"    strong reaches {strong.share_text(dd)} of the double-dummy cheater's margin")
    print("    the hybrids' and the double-dummy cheater's bidding tables:")
    for result in (bids_cards, cards_bids, dd):
        print(result.table())


# -- what strong's card play is worth over easy's (strong.SKILL_PIPS_*) --------------------------------
def _seat_chips(start: R.SixBidState, bot: Any, seat: int, rng: random.Random) -> int:
    """``seat``'s chips from the deal ``start`` played on to its end, ``bot`` in that seat and easy in the
    others (a copy: ``start`` is played again with another bot)."""
    state = start.clone()
    while not state.deals:
        mover = state.current_player
        assert mover is not None
        state.apply((bot if mover == seat else EASY).act(state.view(mover), rng))
    return int(state.deals[-1]["scores"][seat])


def _skill_deals(args: tuple[int, int]) -> list[tuple[str, float, float]]:
    """(contract, soloist's gain, first defender's gain) in chips, strong against easy in that seat,
    for ``count`` deals from seed ``first`` on whose easy auction ended in a solo or heart."""
    first, count = args
    warm.now()
    strong = StrongBot()
    out = []
    seed = first
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        start = GAME.new_state(seed=seed)
        while start.phase != "play" and not start.deals:
            start.apply(EASY.act(start.view(start.current_player), rng))
        view = start.view(start.current_player)
        if start.deals or view["contract"] not in ("solo", "heart"):
            continue
        gains = []
        for seat in (view["soloist"], (view["soloist"] + 1) % 3):
            chips = [_seat_chips(start, bot, seat, random.Random(seed * 3 + 1)) for bot in (strong, EASY)]
            gains.append(chips[0] - chips[1])
        out.append((view["contract"], gains[0], gains[1]))
    return out


def bench_skill(deals: int, jobs: int) -> None:
    per = -(-deals // jobs)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        rows = [r for part in pool.map(_skill_deals, [(k * 10**6, per) for k in range(jobs)]) for r in part]
    print(f"(e) strong's card play over easy's in one seat, chips (95 %), {len(rows)} deals")
    for contract in ("solo", "heart"):
        got = [r for r in rows if r[0] == contract]
        if len(got) < 2:
            continue
        unit = R.TERMS[R.BIDS.index(contract)][R.SUITS.index("H")][1]  # chips a pip from each opponent
        for k, role, chips_a_pip in ((1, "soloist", 2 * unit), (2, "first defender", unit)):
            g = [r[k] for r in got]
            mean, half = _mean_interval(g)
            print(f"  {contract:6} {role:15} n={len(g):4} {mean:+7.1f} ± {half:5.1f} chips, "
                  f"{mean / chips_a_pip:+5.1f} pips")


# -- strong's misères and spreads: how often made, and whose card play makes them ------------------------
def _no_trick_deals(args: tuple[int, int]) -> list[tuple[str, list[int]]]:
    """For the seatings ``first .. first + count - 1`` (seating ``k``: deal ``k // 3 + 1`` with strong in
    seat ``k % 3``, the others easy), each misère or spread strong declared: the contract, and the
    soloist's chips with each of ``NO_TRICK_PLAYERS`` playing his cards against the easy defenders."""
    first, count = args
    warm.now()
    strong = StrongBot()
    players = (strong, EASY, StrongBot(exact_tricks=SOLVE_TRICKS, early_search=True))
    out = []
    for k in range(first, first + count):
        seed, seat = k // 3 + 1, k % 3
        rng = random.Random(k)
        start = GAME.new_state(seed=seed)
        while start.phase != "play" and not start.deals:
            mover = start.current_player
            assert mover is not None
            start.apply((strong if mover == seat else EASY).act(start.view(mover), rng))
        view = start.view(seat)
        if start.deals or view["contract"] not in ("misere", "spread") or view["soloist"] != seat:
            continue
        out.append((view["contract"], [_seat_chips(start, bot, seat, random.Random(k + 1)) for bot in players]))
    return out


#: (g)'s card players of the soloist's seat, in ``_no_trick_deals``' order
NO_TRICK_PLAYERS = ("strong", "easy", "play-out")


def bench_no_trick(seatings: int, jobs: int) -> None:
    per = -(-seatings // jobs)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        rows = [r for part in pool.map(_no_trick_deals, [(k * per, min(per, seatings - k * per)) for k in range(jobs)])
                for r in part]
    print(f"(g) strong's misères and spreads against easy, {seatings} seatings: made, and the soloist's chips (95 %)")
    for contract in ("misere", "spread"):
        got = [chips for c, chips in rows if c == contract]
        print(f"  {contract}: declared in {len(got)} seatings")
        if len(got) < 2:
            continue
        for i, name in enumerate(NO_TRICK_PLAYERS):
            made = sum(1 for chips in got if chips[i] > 0)
            print(f"    {name:8} cards: made {made:3} ({made / len(got):4.0%}), "
                  f"{_mean_text([c[i] for c in got])} chips")
        for i in (1, 2):
            print(f"    strong cards over {NO_TRICK_PLAYERS[i]} cards, paired: "
                  f"{_mean_text([c[0] - c[i] for c in got])} chips")


def _mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its 95 % interval, as the arena takes them (``ArenaResult.interval``)."""
    result = arena.ArenaResult("sixbid", ("", ""), margins=list(values))
    return result.mean, result.interval()


def _mean_text(values: Sequence[float]) -> str:
    mean, half = _mean_interval(values)
    return f"{mean:+7.1f} ± {half:5.1f}"


def main(argv: Any = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--solver", action="store_true")
    p.add_argument("--budget", type=int, default=0, metavar="DEALS")
    p.add_argument("--arena", type=int, default=0, metavar="PACKS")
    p.add_argument("--cheater", type=int, default=0, metavar="PACKS")
    p.add_argument("--skill", type=int, default=0, metavar="DEALS")
    p.add_argument("--no-trick", type=int, default=0, metavar="SEATINGS")
    p.add_argument("--split", action="store_true", help="(f), after (c) and (d): needs --arena and --cheater")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--think", type=float, default=DEFAULT_THINK)
    p.add_argument("--solver-deals", type=int, default=30)
    p.add_argument("--minutes", type=float, default=0, help="stop the arena after the chunk that passes this")
    p.add_argument("--chunk", type=int, default=50, help="packs per arena.run call")
    args = p.parse_args(argv)
    if not (args.solver or args.budget or args.arena or args.cheater or args.skill or args.no_trick):
        args.solver, args.budget, args.arena, args.cheater = True, 20, 500, 500
    warm.now()
    if args.skill:
        bench_skill(args.skill, args.jobs)
    if args.no_trick:
        bench_no_trick(args.no_trick, args.jobs)
    if args.solver:
        bench_solver(args.solver_deals)
    if args.budget:
        bench_budget(args.budget, args.think)
    strong = None
    if args.arena:
        # in chunks of packs (seeds 1, 2, ...) so a time limit still leaves a table of what was played
        t0 = time.perf_counter()
        result = arena.ArenaResult("sixbid", ("strong", "easy"))
        done = 0
        while done < args.arena and (not args.minutes or time.perf_counter() - t0 < 60 * args.minutes):
            n = min(args.chunk, args.arena - done)
            part = arena.run("sixbid", "strong", "easy", n, jobs=args.jobs, think=args.think, seed=1 + done)
            result.extend(part)
            done += n
            print(f"  ... {done} packs, {time.perf_counter() - t0:.0f} s, margin {result.mean:+.2f} "
                  f"± {result.interval(2.576):.2f} (99 %)", flush=True)
        result.seconds = time.perf_counter() - t0
        print(f"(c) arena.run('sixbid', 'strong', 'easy', {done}, jobs={args.jobs}, think={args.think}) "
              f"(seeds 1-{done}): {result.seconds:.1f} s; 500 packs would take about "
              f"{result.seconds * 500 / done / 60:.0f} min")
        print(result.table())
        strong = result
        args.cheater = min(args.cheater, done) if args.cheater else 0
    if args.cheater:
        cheat = bench_cheater(args.cheater, args.jobs, args.think)
        if strong is not None:
            strong.margins = strong.margins[:args.cheater]
            print(f"  strong reaches {strong.share_text(cheat)} of the cheater's margin over easy")
            if args.split:
                bench_split(args.jobs, args.think, strong, cheat)


if __name__ == "__main__":
    main()
