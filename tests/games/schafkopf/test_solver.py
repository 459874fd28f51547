"""Schafkopf's searches on the compiled core (solo, and Ramsch in the kernel's LOWEST mode): the
kernel's tables are the engine's rules, its answers exact.

Three references, each independent of the kernel: the engine itself (the trick winner of every
possible trick, the legal cards of real positions), plain minimax through the engine
(``clone``/``apply``/the deal summary, alpha-beta cut-offs only) on endgames, for each question
the solo score is built from, and the old pure-Python solver (``bench/old_solvers``) on whole
deals from the first card, where minimax through the engine is out of reach.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from helpers.minimax import engine_minimax
from helpers.old_solvers import old_solver
from helpers.schafkopf import GAME, solo_deals
from parlour.games.schafkopf import tables
from parlour.games.schafkopf.bots import EasyBot
from parlour.games.schafkopf.rules import INDEX, WIN, RamschResult, ramsch_result
from parlour.games.schafkopf.solver import (
    RAMSCH_SPAN,
    Position,
    RamschSolver,
    SoloSolver,
    position_from_state,
    ramsch_searcher,
)
from parlour.search import jit, tricks, warm
from parlour.search.solver import budget

EASY = EasyBot()


def _mask(cards: list[str]) -> int:
    return sum(1 << INDEX[c] for c in cards)


def test_the_kernels_trick_winner_is_the_engines_for_every_trick() -> None:
    rules, power, _ = tables.RULES.arrays(tables.PIPS)
    k = warm.kernels()
    trick = np.zeros(3, np.int64)
    at = tables.RULES.position  # the kernel numbers the cards by group and rank
    to_kernel = tables.RULES.to_kernel
    wrong = 0
    for a in range(32):
        for b in range(32):
            for c in range(32):
                trick[:] = (at[a], at[b], at[c])
                wrong += k.trick_winner(trick, 0, 3, power, 32) != WIN[a << 10 | b << 5 | c]
    assert wrong == 0
    assert [rules[tricks.SUIT, at[c]] for c in range(32)] == [to_kernel(m) for m in tables.RULES.follow]


def test_the_kernels_legal_cards_are_the_engines() -> None:
    rules, _, _ = tables.RULES.arrays(tables.PIPS)
    rng = random.Random(5)
    checked = 0
    for seed in range(60):
        state = GAME.new_state(seed=seed)
        while not state.deals:
            view = state.view(state.current_player)
            if view["phase"] == "play":
                led = INDEX[view["trick"][0][1]] if view["trick"] else -1
                got = warm.kernels().legal(_mask(view["hand"]), led, rules)
                assert got == _mask(view["legal_actions"]), (seed, view["trick"], view["hand"])
                checked += 1
            state.apply(EASY.act(view, rng) if rng.random() < 0.5 else rng.choice(view["legal_actions"]))
    assert checked > 1500


def _minimax(state: Any, soloist: int, value: Callable[[dict[str, Any]], int]) -> float:
    """The soloist's best ``value(deal summary)`` against the defenders' worst, through the engine."""
    return engine_minimax(state, soloist, lambda end: value(end.deals[0]))


def _solo_endgame(seed: int, rng: random.Random, tricks_left: tuple[int, ...]) -> Any:
    """A solo played (easy and random moves mixed) to a random point with so many tricks left."""
    while True:
        seed += 1000
        state = GAME.new_state(seed=seed)
        left, in_trick = rng.choice(tricks_left), rng.randrange(3)
        while not state.deals:
            view = state.view(state.current_player)
            if view["phase"] == "play" and view["soloist"] is None:
                break  # a Ramsch: another deal
            if view["phase"] == "play" and 10 - len(view["tricks"]) == left and len(view["trick"]) == in_trick:
                return state
            state.apply(EASY.act(view, rng) if rng.random() < 0.6 else rng.choice(view["legal_actions"]))


def _check_solo_questions(count: int, tricks_left: tuple[int, ...], seed: int) -> set[tuple[str, int]]:
    """Each of the solo score's questions against minimax through the engine: the pips the
    soloist ends with (and the thresholds around them), whether he takes every remaining trick,
    whether he takes one of them; and the score they make."""
    rng = random.Random(seed)
    seen: set[tuple[str, int]] = set()
    for i in range(count):
        state = _solo_endgame(seed * 100_000 + i, rng, tricks_left)
        pos = position_from_state(state)
        sol = pos.soloist
        assert sol is not None
        solver = SoloSolver(sol)
        hands, trick = list(pos.hands), list(pos.trick)
        pips = _minimax(state, sol, lambda d, s=sol: d["pips"][s])
        assert pos.pips[sol] + solver.pips(hands, pos.leader, trick) == pips, (seed, i, pos)
        got = pips - pos.pips[sol]
        assert solver.reaches(hands, pos.leader, trick, got)
        assert not solver.reaches(hands, pos.leader, trick, got + 1)
        taken, left = pos.tricks[sol], 10 - sum(pos.tricks)
        every = _minimax(state, sol, lambda d, s=sol, t=taken, n=left: int(d["tricks"][s] - t == n))
        one = _minimax(state, sol, lambda d, s=sol, t=taken: int(d["tricks"][s] > t))
        assert solver.all_tricks(hands, pos.leader, trick) == bool(every), (seed, i, pos)
        assert solver.all_tricks(hands, pos.leader, trick, one=True) == bool(one), (seed, i, pos)
        assert solver.score(pos) == _minimax(state, sol, lambda d, s=sol: d["scores"][s]), (seed, i, pos)
        assert hands == pos.hands and trick == pos.trick  # the solver works on copies
        seen |= {("pips", min(got, 1)), ("every", every), ("one", one)}
    return seen


def test_solo_questions_match_engine_minimax_on_small_endgames() -> None:
    seen = _check_solo_questions(1000, (1, 2, 3), seed=3)
    assert {("every", 0), ("every", 1), ("one", 0), ("one", 1), ("pips", 0), ("pips", 1)} <= seen


@pytest.mark.slow
def test_solo_questions_match_engine_minimax_on_larger_endgames() -> None:
    _check_solo_questions(500, (4, 5), seed=4)


def _check_whole_deals(count: int, seed: int) -> set[int]:
    old = old_solver("schafkopf")
    scores = set()
    for s, state in solo_deals(count, seed):
        pos = position_from_state(state)
        assert pos.soloist is not None and not pos.trick and sum(pos.tricks) == 0
        got = SoloSolver(pos.soloist).score(pos)
        assert got == old.SoloSolver(pos.soloist).score(pos), s
        scores.add(got)
    return scores


def test_whole_solo_deals_from_the_first_card_match_the_old_solver() -> None:
    assert len(_check_whole_deals(4, seed=0)) >= 2


@pytest.mark.slow
def test_many_whole_solo_deals_match_the_old_solver() -> None:
    assert len(_check_whole_deals(20, seed=1000)) >= 3


def test_open_position_is_the_views_put_together() -> None:
    """``open_position`` shows each seat what its view shows, and the pips and tricks taken."""
    rng = random.Random(9)
    checked = 0
    for seed in range(40):
        state = GAME.new_state(seed=seed)
        for _ in range(rng.randrange(40)):
            if state.deals:
                break
            view = state.view(state.current_player)
            state.apply(EASY.act(view, rng) if rng.random() < 0.7 else rng.choice(view["legal_actions"]))
        if state.deals:
            continue
        deal = state.open_position()
        for seat in range(3):
            view = state.view(seat)
            assert deal.hands[seat] == _mask(view["hand"])
            assert list(deal.pips) == view["pips_won"] and list(deal.tricks) == view["tricks_won"]
            assert [[(deal.leader + i) % 3, c] for i, c in enumerate(deal.trick)] == \
                [[s, INDEX[c]] for s, c in view["trick"]]
            assert list(deal.winners) == [t["winner"] for t in view["tricks"]]
            assert deal.soloist == view["soloist"]
            if seat == deal.soloist:
                assert [INDEX[c] for c in view["discard"]] == list(deal.discard)
                assert deal.skat == _mask(view["skat"])
        checked += 1
    assert checked > 25


# -- Ramsch: the kernel's LOWEST scoring mode --------------------------------------------------

def test_the_kernels_ramsch_leaf_is_the_engines_scoring() -> None:
    """Every way a Ramsch can end (pips, who took a trick, the order of the latest tricks, the
    skat, the dealer), scored by the kernel's leaf and by the engine's ``ramsch_result``."""
    python = jit.python_copy(tricks)  # the same leaf as Python: no compiling for a unit test
    rng = random.Random(5)
    side = np.array([tricks.MAX, tricks.COUNTED, tricks.COUNTED], np.int64)
    params = np.zeros(tricks.PARAMS, np.int64)
    params[[tricks.P_SCORE_ALL, tricks.P_SCORE_NONE, tricks.P_SCORE_FEWEST]] = tables.RAMSCH.scores
    seen = set()
    for _ in range(4000):
        takers = rng.sample(range(3), rng.choice([1, 2, 3, 3]))  # one: he took every trick
        winners = [rng.choice(takers) for _ in range(10)]
        if rng.random() < 0.3:  # level pips, and ties for fewest, come often enough
            pips = rng.choice([[40, 40, 40], [30, 30, 60], [50, 20, 50]])
        else:
            pips = [rng.randrange(0, 61) for _ in range(3)]
        skat, dealer = rng.choice([0, 0, 2, 11, 21]), rng.randrange(3)
        latest: list[int] = []
        for w in winners:
            latest = [s for s in latest if s != w] + [w]
        params[tricks.P_EXTRA], params[tricks.P_DEALER] = skat, dealer
        final = list(pips)
        final[winners[-1]] += skat
        counts = [winners.count(s) for s in range(3)]
        add, scorer, how = ramsch_result(final, counts, winners, dealer)
        want = 2 * add[0] - (add[1] + add[2])
        past = tricks.pack_past(tuple(pips), tuple(latest))
        got = python._lowest_leaf(past, winners[-1], side, params) - RAMSCH_SPAN
        assert got == want, (pips, winners, skat, dealer)
        seen.add(how)
    assert len(seen) == len(RamschResult)


def _play_to(state: Any, tricks_left: int, rng: random.Random) -> None:
    """Play ``state`` on by the easy player to a trick start with ``tricks_left`` tricks left (or its end)."""
    while not (state.phase == "play" and len(state.view(0)["tricks"]) == 10 - tricks_left
               and not state.view(0)["trick"]) and not state.deals:
        state.apply(EASY.act(state.view(state.current_player), rng))


def _ramsch_positions(count: int, tricks_left: int, seed: int) -> list[tuple[int, Position]]:
    rng = random.Random(seed)
    out = []
    s = seed
    while len(out) < count:
        s += 1
        state = GAME.new_state(seed=s)
        _play_to(state, tricks_left, rng)
        if not state.deals and state.open_position().soloist is None:
            out.append((s, position_from_state(state)))
    return out


def _ramsch_at(seed: int, tricks_left: int) -> Position:
    """Deal ``seed`` played by the easy player (with a generator of that seed) to ``tricks_left`` tricks left."""
    state = GAME.new_state(seed=seed)
    _play_to(state, tricks_left, random.Random(seed))
    return position_from_state(state)


def test_clear_starts_a_solve_afresh_on_the_threads_tables() -> None:
    """``clear`` (a bench's whole deals, each from nothing): a deal solved again after it takes the
    nodes of its first solve; without it, fewer (the table holds the first solve's entries)."""
    _, state = next(iter(solo_deals(1, 0)))
    solo = position_from_state(state)
    assert solo.soloist is not None
    _, ramsch = _ramsch_positions(1, 6, seed=3)[0]
    soloist = SoloSolver(solo.soloist)
    paranoid = RamschSolver(0, ramsch.dealer, ramsch.skat)
    solvers: list[tuple[SoloSolver | RamschSolver, Callable[[], object]]] = [
        (soloist, lambda: soloist.score(solo)), (paranoid, lambda: paranoid.value(ramsch))]
    for solver, solve in solvers:
        solver.clear()
        first = solve()
        nodes = solver.nodes
        assert solve() == first and solver.nodes - nodes < nodes
        solver.clear()
        before = solver.nodes
        assert solve() == first and solver.nodes - before == nodes


def test_ramsch_positions_with_six_tricks_left_match_the_old_solver() -> None:
    """Where minimax through the engine is out of reach: the old pure-Python paranoid search
    (``bench_solver_schafkopf.py equal`` compares a hundred 7-trick positions)."""
    old = old_solver("schafkopf")
    values = set()
    for s, pos in _ramsch_positions(8, 6, seed=40):
        for root in range(3):
            got = RamschSolver(root, pos.dealer, pos.skat).value(pos)
            assert got == old.RamschSolver(root, pos.dealer, pos.skat).value(pos), (s, root)
            values.add(got)
    assert len(values) >= 2


def test_many_ramsch_positions_with_five_tricks_left_match_the_old_solver() -> None:
    """Many positions, each for all three seats, one after another on one table: each search's
    bounds (the sure cards', ``tricks._lowest_bounds``) and the entries that bound a trick start
    from another history's (``tricks._dominance_probe``) are wrong on some of them if they are
    unsound (a dominance taken the wrong way round, or a sure card that can be beaten, fails here)."""
    old = old_solver("schafkopf")
    for s, pos in _ramsch_positions(150, 5, seed=60):
        for root in range(3):
            got = RamschSolver(root, pos.dealer, pos.skat).value(pos)
            assert got == old.RamschSolver(root, pos.dealer, pos.skat).value(pos), (s, root)


def test_a_root_that_ducks_every_trick_does_so_whoever_of_the_others_took_which_points() -> None:
    """Deal 237 with five tricks left: seat 1 has no trick and can take none to the end (+4 his, twice
    his margin 8).  Swap the others' points (21 and 47) and he still can, the same cards played: the
    tricks alone decide it.  Solved after the first, the second takes a single node, settled by the
    first's entry (``tricks._trick_ends``), which the points-dominance alone cannot use (one of the
    others has more points and the other fewer); and its value is the one it has from an empty table."""
    pos = _ramsch_at(237, 5)
    assert (pos.tricks[1], pos.pips, pos.order) == (0, [21, 0, 47], (0, 2))
    swapped = Position(pos.hands, pos.leader, [], None, pos.dealer, [47, 0, 21], pos.tricks, pos.order, pos.skat)
    first = RamschSolver(1, pos.dealer, pos.skat)
    assert first.value(pos) == 8
    second = RamschSolver(1, pos.dealer, pos.skat)
    assert second.value(swapped) == 8
    assert second.nodes == 1
    with budget(10**9):  # (a budget empties the table first)
        fresh = RamschSolver(1, pos.dealer, pos.skat)
        assert fresh.value(swapped) == 8
        assert fresh.nodes > 100


def test_a_root_that_takes_no_trick_is_solved_by_the_one_search_that_proves_it() -> None:
    """Deal 637 with six tricks left: seat 1 has taken none and can take none to the end (+4 his,
    twice his margin 8), the best end there is.  The value's searches start at the top
    (``solver.RAMSCH_GUESS``), so the solve is that one search, "can he take no trick?", node for
    node; a first search at the middle ("a margin of 0 or more?") asks whether he can end with the
    fewest points, which a root that takes no trick never needs to know (it took 4,527 nodes here
    against the 2,793 of the proof)."""
    pos = _ramsch_at(637, 6)
    assert (pos.soloist, pos.tricks, pos.pips) == (None, [3, 0, 1], [39, 0, 11])
    with budget(10**9):  # (a budget empties the table first)
        solve = RamschSolver(1, pos.dealer, pos.skat)
        assert solve.value(pos) == 8
    with budget(10**9):
        proof = RamschSolver(1, pos.dealer, pos.skat)
        assert proof.at_least(pos, 8)
    assert solve.nodes == proof.nodes > 0
    with budget(10**9):  # and "more than that" is settled at once: nothing is above the top
        assert not RamschSolver(1, pos.dealer, pos.skat).at_least(pos, 9)


def test_the_python_copy_gives_the_compiled_ramsch_values() -> None:
    """The same positions on the thread's searcher and on one of its own (a fresh table) that runs the
    kernels as Python (``ramsch_searcher``'s ``kernels``, as ``bench/pair_kernels.py`` gives it a version)."""
    positions = _ramsch_positions(4, 3, seed=50)
    compiled = [RamschSolver(r, pos.dealer, pos.skat).value(pos) for _, pos in positions for r in range(3)]
    plain_searcher = ramsch_searcher(jit.python_copy(tricks))
    plain = [RamschSolver(r, pos.dealer, pos.skat, searcher=plain_searcher).value(pos)
             for _, pos in positions for r in range(3)]
    assert plain == compiled
    assert plain_searcher.nodes > 0
