"""Six-Bid solver on the compiled core: against the engine itself, and against the old solver.

Why these tests: the strong player is only as good as the solver's values, and the solver now
reads the rules as arrays (``tables.py``) instead of code, so a wrong array would mislead it
quietly.  So: the kernel's follow rule and trick winner against the engine's on played deals;
every value (the deal's chips, each legal card's, the null-window test) against exhaustive
minimax through ``clone``/``apply`` on thousands of endgames of every contract; and whole deals
from the first card (too big for minimax) against the old pure-Python solver, kept for this in
``bench/old_solvers/sixbid.py``.  Positions come from ``SixBidState.open_position`` (public);
the checks against the views show it is the deal the seats see.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from types import ModuleType

import numpy as np
import pytest

from helpers.minimax import engine_minimax
from helpers.old_solvers import old_solver
from parlour.bots import make
from parlour.games.sixbid import rules as R
from parlour.games.sixbid.solver import (
    MARGIN,
    Solver,
    action_values,
    chips_won,
    deal_chips,
    no_trick_contract,
    root_values,
    seat_score,
)
from parlour.games.sixbid.tables import NCARDS, PIPS, trick_rules
from parlour.registry import load
from parlour.search import tricks
from parlour.search.solver import TrickSolver

GAME = load("sixbid")
EASY = make("sixbid", "easy")


def _pos(state: R.SixBidState) -> R.OpenPosition:
    pos = state.open_position()
    assert pos is not None
    return pos


def _random_deal_in_play(rng: random.Random) -> R.SixBidState | None:
    state: R.SixBidState = GAME.new_state(seed=rng.randrange(10**9))  # type: ignore[assignment]
    while state.phase != "play" and not state.deals:
        state.apply(rng.choice(state.legal_actions()))
    return None if state.deals else state


def _minimax(state: R.SixBidState, soloist: int) -> float:
    """The soloist's chips from the deal with best play by every seat, through the engine."""
    return engine_minimax(state, soloist, lambda end: end.deals[-1]["scores"][soloist])


def _endgames(seed: int, count: int, tricks_left: tuple[int, ...]) -> Iterator[R.SixBidState]:
    """Deals bid and played at random to ``tricks_left`` tricks from the end, then 0-2 cards more."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = _random_deal_in_play(rng)
        if state is None:
            continue
        left = rng.choice(tricks_left)
        while sum(_pos(state).tricks) < 11 - left:
            state.apply(rng.choice(state.legal_actions()))
        for _ in range(rng.randrange(3)):
            state.apply(rng.choice(state.legal_actions()))
        made += 1
        yield state


def _chips(pos: R.OpenPosition, value: int) -> int:
    """The soloist's chips from the deal when the rest of it is worth ``value`` (``Solver.value``)."""
    sol = pos.soloist
    if no_trick_contract(pos.contract):
        return 2 * chips_won(pos.contract, pos.trump, 0, pos.tricks[sol] > 0 or value < 0)
    return 2 * chips_won(pos.contract, pos.trump, pos.trick_pips[sol] + pos.widow_pips + value, False)


# -- the arrays are the engine's rules -------------------------------------------------------------
def test_the_kernel_follows_and_wins_tricks_as_the_engine_does() -> None:
    rng = random.Random(7)
    tricks_seen = 0
    contracts = set()
    while tricks_seen < 2000:
        state = _random_deal_in_play(rng)
        if state is None:
            continue
        pos = _pos(state)
        contracts.add(pos.contract)
        table = trick_rules(pos.trump)
        rules, power, _ = table.arrays(PIPS)
        at, to_kernel = table.position, table.to_kernel  # the kernel numbers the cards by group and rank
        while not state.deals:
            pos = _pos(state)
            seat = state.current_player
            assert seat is not None
            led = at[pos.trick[0]] if pos.trick else -1
            legal = tricks.legal(to_kernel(pos.hands[seat]), led, rules)
            assert sorted(at[R.INDEX[c]] for c in state.legal_actions()) == [c for c in range(36) if legal >> c & 1]
            if len(pos.trick) == 2:
                action = rng.choice(state.legal_actions())
                cards = np.array([at[c] for c in (*pos.trick, R.INDEX[action])], np.int64)
                w = tricks.trick_winner(cards, 0, 3, power, NCARDS)
                state.apply(action)
                winner = state.deals[-1]["final_trick"]["winner"] if state.deals else _pos(state).leader
                assert winner == (pos.leader + w) % 3
                tricks_seen += 1
            else:
                state.apply(rng.choice(state.legal_actions()))
    assert contracts == set(range(6))


def test_open_position_is_the_deal_the_seats_see() -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 200:
        state = _random_deal_in_play(rng)
        if state is None:
            continue
        for _ in range(rng.randrange(33)):
            state.apply(rng.choice(state.legal_actions()))
        pos = _pos(state)
        for seat in range(3):
            view = state.view(seat)
            assert pos.hands[seat] == sum(1 << R.INDEX[c] for c in view["hand"])
            assert [c for _, c in view["trick"]] == [R.CODES[c] for c in pos.trick]
            assert view["leader"] == pos.leader and view["soloist"] == pos.soloist
            assert list(pos.trick_pips) == view["pips_taken"] and list(pos.tricks) == view["tricks_won"]
            assert view["contract"] == R.BIDS[pos.contract]
        while not state.deals:
            state.apply(rng.choice(state.legal_actions()))
        assert state.deals[-1]["widow_pips"] == pos.widow_pips
        assert state.open_position() is None or state.phase == "play"
        checked += 1


# -- every value against engine minimax ------------------------------------------------------------
def test_solver_matches_minimax_on_small_endgames() -> None:
    contracts = set()
    for state in _endgames(1, 600, (2, 3)):
        pos = _pos(state)
        contracts.add(pos.contract)
        assert 2 * deal_chips(pos) == _minimax(state, pos.soloist)
    assert len(contracts) == 6


def test_the_pip_solvers_of_every_trump_and_soloist_share_one_table_and_keep_their_entries_apart() -> None:
    """A thread's pip solvers, one for each trump and soloist, share one table (``PIP_TT_BITS``), each
    tagged by its pair.  The same hands solved for every pair in turn on it, twice (the second time
    every position is in the table, the other pairs' too), give what a solver with a table of its own
    gives.  Without the tag a pair would find another's entries for the same hands: other trumps and
    soloists, other values."""
    for state in _endgames(5, 4, (5, 6)):
        pos = _pos(state)
        pairs = [(trump, soloist) for trump in range(5) for soloist in range(3)]
        own = {(t, s): TrickSolver(trick_rules(t), PIPS, [s], tt_bits=12).exact(pos.hands, pos.leader, pos.trick)
               for t, s in pairs}
        assert len(set(own.values())) > 1  # the pairs differ, so a pair that read another's entries would err
        for _ in range(2):
            shared = {(t, s): Solver(t, s, False).value(pos.hands, pos.leader, pos.trick) for t, s in pairs}
            assert shared == own


def test_clear_starts_a_solve_afresh_on_the_shared_table() -> None:
    """``clear`` (a bench's whole deals, each from nothing): a position solved again after it takes the
    nodes of its first solve; without it, fewer (the table holds the first solve's entries)."""
    pos = _pos(next(_endgames(7, 1, (6,))))
    solver = Solver(pos.trump, pos.soloist, False)
    solver.clear()
    first = solver.value(pos.hands, pos.leader, pos.trick)
    nodes = solver.nodes
    assert solver.value(pos.hands, pos.leader, pos.trick) == first and solver.nodes - nodes < nodes
    solver.clear()
    before = solver.nodes
    assert solver.value(pos.hands, pos.leader, pos.trick) == first and solver.nodes - before == nodes


@pytest.mark.slow
def test_solver_matches_minimax_on_larger_endgames() -> None:
    for state in _endgames(2, 1500, (3, 3, 4)):
        pos = _pos(state)
        assert 2 * deal_chips(pos) == _minimax(state, pos.soloist)


def test_each_cards_value_and_the_threshold_test_match_minimax() -> None:
    """``root_values`` (what the strong player reads) for every legal card, and ``at_least``."""
    contracts = set()
    cards = 0
    for state in _endgames(3, 500, (2, 3)):
        pos = _pos(state)
        contracts.add(pos.contract)
        solver = Solver(pos.trump, pos.soloist, no_trick_contract(pos.contract))
        values = root_values(solver, pos.hands, pos.leader, pos.trick)
        assert sorted(values) == sorted(R.INDEX[c] for c in state.legal_actions())
        chips = action_values(pos, pos.soloist)  # what the strong player averages: the soloist's chips
        opponent = action_values(pos, (pos.soloist + 1) % 3)
        for code in state.legal_actions():
            child = state.clone()
            child.apply(code)
            assert _chips(pos, values[R.INDEX[code]]) == _minimax(child, pos.soloist), code
            assert chips[code] == _chips(pos, values[R.INDEX[code]]) == -2 * opponent[code]
            cards += 1
        v = solver.value(pos.hands, pos.leader, pos.trick)
        assert solver.at_least(pos.hands, pos.leader, pos.trick, v)
        assert not solver.at_least(pos.hands, pos.leader, pos.trick, v + 1)
        assert solver.at_least(pos.hands, pos.leader, pos.trick, v - 1)
    assert len(contracts) == 6 and cards > 1000


def test_a_long_suit_is_one_card_per_class_of_equal_pips_named_in_the_engines_cards() -> None:
    """All nine diamonds in one hand, none out elsewhere: the classes are A, T, K, Q, J and 9-8-7-6
    (equal pips, adjacent), each named by its highest card, as the engine numbers them.  (The
    kernel numbers cards high first; reading its answer as the engine's cards gave the sixes.)"""
    diamonds = sum(1 << R.INDEX[c] for c in R.CODES[9:18])
    clubs = sum(1 << c for c in range(0, 9))
    spades = sum(1 << c for c in range(18, 27))
    for misere in (False, True):
        solver = Solver(0, 0, misere)
        heads = solver.representatives([diamonds, clubs, spades], 0, [])
        want = ["AD", "TD", "KD", "QD", "JD", "9D"] if not misere else ["AD"]  # a misère counts no pips
        assert sorted(R.CODES[c] for c in heads) == sorted(want)


# -- whole deals from the first card against the old solver ----------------------------------------
def _first_card(contract: str, seed: int) -> R.OpenPosition:
    """As ``bench/bench_solver_sixbid.py``: elder bids ``contract``, the others pass, easy declares."""
    rng = random.Random(seed)
    state: R.SixBidState = GAME.new_state(seed=seed)  # type: ignore[assignment]
    state.apply(contract)
    while state.phase == "bid":
        state.apply("pass")
    while state.phase != "play":
        state.apply(EASY.act(state.view(state.current_player), rng))
    return _pos(state)


#: deals (contract, seed) whose whole play both solvers settle in a second or so (most forced
#: solos take the old solver seconds to minutes, and the kernel as much, see the bench)
CHEAP_PIP_DEALS = (("solo", 32), ("solo", 42), ("heart", 2), ("heart", 27), ("heart", 35))
#: more, for the slow run: a few seconds each
PIP_DEALS = (("solo", 18), ("solo", 34), ("solo", 43), ("heart", 1), ("heart", 3), ("heart", 6), ("heart", 10),
             ("heart", 15), ("heart", 19), ("heart", 60), ("guarantee", 43), ("call", 8), ("call", 12))

#: seeds for the threshold test in the slow run (13, 19 and 26 take the kernel half a minute as a guarantee)
THRESHOLD_SEEDS = (*range(14, 19), *range(20, 26), *range(27, 41))


def _compare(contract: str, seed: int, old: ModuleType) -> None:
    pos = _first_card(contract, seed)
    misere = no_trick_contract(pos.contract)
    want = old.Solver(pos.trump, pos.soloist, misere).value(list(pos.hands), pos.leader, [])
    assert Solver(pos.trump, pos.soloist, misere).value(pos.hands, pos.leader, pos.trick) == want, (contract, seed)


def _compare_threshold(contract: str, seed: int, old: ModuleType) -> None:
    """What settles a guarantee or a call: can the soloist make his target (the widow counted)?"""
    pos = _first_card(contract, seed)
    target = R.TERMS[pos.contract][pos.trump][0]
    assert target is not None
    need = target - pos.widow_pips
    want = old.Solver(pos.trump, pos.soloist, False).at_least(list(pos.hands), pos.leader, [], need)
    assert Solver(pos.trump, pos.soloist, False).at_least(pos.hands, pos.leader, pos.trick, need) == want


def test_whole_deals_of_every_contract_match_the_old_solver() -> None:
    old = old_solver("sixbid")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for contract in ("misere", "spread"):
        for seed in range(1, 21):
            _compare(contract, seed, old)
    for contract, seed in CHEAP_PIP_DEALS:
        _compare(contract, seed, old)
    for contract in ("guarantee", "call"):
        for seed in range(2, 13):
            _compare_threshold(contract, seed, old)


def test_a_threshold_contracts_cards_from_the_first_card_pay_what_their_exact_pips_pay() -> None:
    """Guarantee and call value each card by threshold searches (``action_values``): the chips, and
    the pip term at the target's ``MARGIN``s, must be those the card's exact pips give, on whole
    deals, for the soloist and an opponent."""
    made = set()
    for contract, seed in (("guarantee", 2), ("guarantee", 54), ("guarantee", 90), ("call", 2), ("call", 3)):
        pos = _first_card(contract, seed)
        exact = root_values(Solver(pos.trump, pos.soloist, False), pos.hands, pos.leader, pos.trick)
        target = R.TERMS[pos.contract][pos.trump][0]
        for seat in (pos.soloist, (pos.soloist + 1) % 3):
            sign = 1 if seat == pos.soloist else -1
            chips = action_values(pos, seat)
            with_tie = action_values(pos, seat, 0.05)
            for c, v in exact.items():
                pips = pos.widow_pips + v
                want = seat_score(chips_won(pos.contract, pos.trump, pips, False), seat, pos.soloist)
                margins = (pips >= max(target - MARGIN, pos.widow_pips)) + (pips >= target + MARGIN)
                assert chips[R.CODES[c]] == want, (contract, seed, seat, c)
                assert with_tie[R.CODES[c]] == pytest.approx(want + sign * 0.05 * MARGIN * margins)
        made.update(v + pos.widow_pips >= target for v in exact.values())
    assert made == {True, False}  # cards that make and cards that do not (deals 54 and 90) were both checked


@pytest.mark.slow
def test_more_whole_deals_match_the_old_solver() -> None:
    old = old_solver("sixbid")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for contract in ("misere", "spread"):
        for seed in range(21, 121):
            _compare(contract, seed, old)
    for contract, seed in PIP_DEALS:
        _compare(contract, seed, old)
    for contract in ("guarantee", "call"):
        for seed in THRESHOLD_SEEDS:
            _compare_threshold(contract, seed, old)
