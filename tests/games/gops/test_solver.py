"""The exact GOPS solver and its matrix games, on cases small enough to check by hand."""

from __future__ import annotations

import random

import pytest

from parlour.games.gops.solver import Solver, full, mask_of
from parlour.search.matrix_game import lp_scipy, solve


def _check_equilibrium(matrix, value, rows, cols, tol=1e-7):
    """Each side's mix guarantees the value against every pure reply."""
    assert abs(sum(rows) - 1) < tol and abs(sum(cols) - 1) < tol
    assert min(rows) >= -tol and min(cols) >= -tol
    for j in range(len(matrix[0])):
        assert sum(rows[i] * matrix[i][j] for i in range(len(matrix))) >= value - tol
    for i in range(len(matrix)):
        assert sum(cols[j] * matrix[i][j] for j in range(len(matrix[0]))) <= value + tol


def test_matching_pennies_and_rock_paper_scissors():
    value, rows, cols = solve([[1, -1], [-1, 1]])
    assert value == pytest.approx(0) and rows == pytest.approx([0.5, 0.5]) and cols == pytest.approx([0.5, 0.5])
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    value, rows, cols = solve(rps)
    assert value == pytest.approx(0) and rows == pytest.approx([1 / 3] * 3) and cols == pytest.approx([1 / 3] * 3)


def test_every_shortcut_agrees_with_the_linear_program():
    """Saddle points, dominance and the 2x2 formula against HiGHS (both bindings) on random games."""
    rng = random.Random(14)
    for _ in range(80):
        m, n = rng.randint(1, 6), rng.randint(1, 6)
        matrix = [[rng.randint(-4, 4) for _ in range(n)] for _ in range(m)]
        value, rows, cols = solve(matrix)
        _check_equilibrium(matrix, value, rows, cols)
        lp_value, lp_rows, lp_cols = lp_scipy(matrix)
        assert value == pytest.approx(lp_value, abs=1e-7)
        _check_equilibrium(matrix, lp_value, lp_rows, lp_cols)
        assert solve(matrix, use_lp_only=True)[0] == pytest.approx(lp_value, abs=1e-7)


def test_two_cards_each_bid_the_high_card_on_the_high_prize():
    # N = 2: whatever turns first, the only sensible bid is the card that matches it.
    for ties in ("carry", "discard"):
        solver = Solver(ties, "points")
        value, mine, theirs = solver.decision(mask_of([1]), full(2), full(2), stake=2)
        assert value == pytest.approx(0) and mine == {1: 0.0, 2: 1.0} and theirs == {1: 0.0, 2: 1.0}
        value, mine, _ = solver.decision(mask_of([2]), full(2), full(2), stake=1)
        assert value == pytest.approx(0) and mine == {1: 1.0, 2: 0.0}


def test_a_two_card_endgame_solved_by_hand():
    # Seat 0 holds {1, 3}, seat 1 {2, 3}; the 2 is at stake and the 3 still face down.
    # Bids (rows 1, 3; columns 2, 3), points for seat 0:
    #   1 v 2: -2, then 3 v 3 tie: 0        -> -2
    #   1 v 3: -2, then 3 v 2: +3           -> +1
    #   3 v 2: +2, then 1 v 3: -3           -> -1
    #   3 v 3: tie; discard: then 1 v 2 -3  -> -3;  carry: 1 v 2 for 2 + 3  -> -5
    # discard: [[-2, 1], [-1, -3]] -> seat 0 bids 1 with 2/5, seat 1 bids 2 with 4/5, value -7/5
    value, mine, theirs = Solver("discard", "points").decision(mask_of([3]), mask_of([1, 3]), mask_of([2, 3]), 2)
    assert value == pytest.approx(-1.4)
    assert mine == pytest.approx({1: 0.4, 3: 0.6}) and theirs == pytest.approx({2: 0.8, 3: 0.2})
    # carry: [[-2, 1], [-1, -5]] -> seat 0 bids 1 with 4/7, value -11/7; seat 1 bids 2 with 6/7
    value, mine, theirs = Solver("carry", "points").decision(mask_of([3]), mask_of([1, 3]), mask_of([2, 3]), 2)
    assert value == pytest.approx(-11 / 7)
    assert mine == pytest.approx({1: 4 / 7, 3: 3 / 7}) and theirs == pytest.approx({2: 6 / 7, 3: 1 / 7})
    # win, level score: every cell but 1 v 3 loses, and seat 1 can always bid 2: value -1
    value, _, theirs = Solver("discard", "win").decision(mask_of([3]), mask_of([1, 3]), mask_of([2, 3]), 2)
    assert value == pytest.approx(-1) and theirs[2] == pytest.approx(1)
    # ... but 2 points up: 1 v 2 (-2) draws, 1 v 3 (+1) and 3 v 2 (-1) win, 3 v 3 (-3) loses:
    # [[0, 1], [1, -1]] -> seat 0 bids 1 with 2/3, value 1/3.
    value, mine, _ = Solver("discard", "win").decision(mask_of([3]), mask_of([1, 3]), mask_of([2, 3]), 2, diff=2)
    assert value == pytest.approx(1 / 3) and mine == pytest.approx({1: 2 / 3, 3: 1 / 3})


def test_seats_are_mirror_images():
    solver = Solver("carry", "win")
    a = solver.decision(mask_of([4, 5]), mask_of([1, 3, 5]), mask_of([2, 3, 4]), 3, diff=1)
    b = solver.decision(mask_of([4, 5]), mask_of([2, 3, 4]), mask_of([1, 3, 5]), 3, diff=-1)
    assert a[0] == pytest.approx(-b[0])
    assert a[1] == pytest.approx(b[2]) and a[2] == pytest.approx(b[1])


@pytest.mark.parametrize("ties", ["carry", "discard"])
@pytest.mark.parametrize("scoring", ["points", "win"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_whole_games_are_fair_and_every_turn_is_an_equilibrium(n, ties, scoring):
    solver = Solver(ties, scoring)
    assert solver.solve_all(n) == pytest.approx(0, abs=1e-9)  # symmetric game
    assert solver.matrix_games > 0
    assert solver.worst_gap() < 1e-9  # each mix guarantees its node's value against every reply
    for value, rows, cols in solver._games.values():
        assert min(rows) >= 0 and min(cols) >= 0
        if scoring == "win":
            assert -1 - 1e-9 <= value <= 1 + 1e-9


def test_three_cards_first_turn_by_hand():
    # N = 3, discard, points, the 3 turned first: play both remaining turns out by hand.
    # Bidding 3 wins the 3 for sure unless the other bids 3 too; the matrix (rows/cols 1, 2, 3)
    # has a saddle at 3 v 3 (value 0), and the solver must find exactly that.
    value, mine, theirs = Solver("discard", "points").decision(mask_of([1, 2]), full(3), full(3), 3)
    assert value == pytest.approx(0)
    assert mine[3] == pytest.approx(1) and theirs[3] == pytest.approx(1)
