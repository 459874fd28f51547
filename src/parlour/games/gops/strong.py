"""GOPS ``strong``: equilibrium play, exact wherever the rest of the game can be solved in time.

GOPS is a game of pure strategy, so the measure of a player is its exploitability; the only
unexploitable play is an equilibrium mixed strategy, sampled with the ``rng`` given to ``act``.

- **Exact**: with 7 cards or fewer the whole game is solved (``solver.Solver``); the values
  of the 6- and 7-card games ship precomputed in ``tables/`` (built by
  ``bench/build_gops_tables.py``) so a decision is one matrix game, and smaller games are
  solved on first use.  In a bigger game the exact solver takes over once
  ``exact_cards`` cards (default 5) are left in each hand: the endgame of the 13-card game.
- **Before that**: depth-limited solving.  This turn's bid is a matrix game solved exactly;
  what follows it is valued by an estimate.  With random bids from now on, each remaining
  prize goes to seat 0 with probability (pairs a > b) / k**2, so the expected margin is
  (prizes + stake) * advantage; equilibrium play presses an advantage harder, and
  ``ADVANTAGE_SCALE`` (fitted on the exact 7-card values, see the bench) corrects for it.
  For ``scoring="win"`` the margin estimate becomes a win probability through a normal
  approximation of the remaining prizes' spread.

The bot reads everything from the view (options, hands, stake, scores, the diamonds seen),
never hidden cards.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ...search.matrix_game import solve
from .rules import VALUE_OF, card
from .solver import Solver, bits, mask_of
from .tables import load_values

#: how much harder equilibrium play presses a hand advantage than random play does
ADVANTAGE_SCALE = 1.5
#: the full game is solved exactly up to this many cards
EXACT_GAME = 7


class StrongBot:
    name = "strong"

    def __init__(self, exact_cards: int = 5, exact_game: int = EXACT_GAME, scale: float | None = None,
                 think: float | None = None) -> None:
        """``exact_cards``: solve exactly once this many cards are left in each hand;
        ``exact_game``: solve whole games of up to this many cards; ``scale``: the estimate's
        ``ADVANTAGE_SCALE`` (the last two are for measuring the approximation, see the bench).
        ``think`` is accepted like every level's budget (``--think``) but changes nothing: what is
        solved exactly is fixed by the card counts, so play does not depend on machine speed."""
        self.exact_cards = exact_cards
        self.exact_game = exact_game
        self.scale = ADVANTAGE_SCALE if scale is None else scale
        self._solvers: dict[tuple[str, str], Solver] = {}

    # -- the Bot protocol ----------------------------------------------------------------
    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        mix = self.policy(view)
        cards = sorted(mix, key=VALUE_OF.__getitem__)
        r = rng.random()
        acc = 0.0
        for c in cards:
            acc += mix[c]
            if r < acc:
                return c
        return cards[-1]

    def policy(self, view: dict[str, Any]) -> dict[str, float]:
        """This seat's equilibrium (or depth-limited) mixed strategy over its cards."""
        legal = view["legal_actions"]
        if len(legal) == 1:
            return {legal[0]: 1.0}
        turn = self._turn(view)
        solver, prizes, mine, theirs, stake, diff = turn
        if self._exact(view):
            _, mix, _ = solver.decision(prizes, mine, theirs, stake, diff)
        else:
            mix = self._depth_limited(solver, prizes, mine, theirs, stake, diff)
        suit = legal[0][1]
        out = {card(v, suit): p for v, p in mix.items() if p > 1e-9}
        total = sum(out.values())
        return {c: p / total for c, p in out.items()}

    def bid_matrix(self, view: dict[str, Any]) -> tuple[list[str], list[str], list[list[float]]]:
        """This turn's matrix game as ``policy`` solves it, from this seat's side: its cards, the
        other seat's, and what each pair of bids is worth (what it wins now and the rest of the
        game, solved or estimated), in points (or the expected result with ``scoring="win"``).

        Why public: a review of a finished deal (``parlour.review``) says what each bid cost, and
        only the player knows which matrix game it plays, exactly or depth-limited.
        """
        solver, prizes, mine, theirs, stake, diff = self._turn(view)
        rows = _rows(solver, prizes, mine, theirs, stake, diff, self.scale, self._exact(view))
        suit = view["legal_actions"][0][1]
        other = view["opponent_hand"][0][1]
        return [card(a, suit) for a in bits(mine)], [card(b, other) for b in bits(theirs)], rows

    def bid_values(self, view: dict[str, Any]) -> dict[str, float]:
        """Each of this seat's cards valued against the other seat's mix of this turn's matrix game
        (``bid_matrix``): its best-response value.  Every card of this seat's own mix is worth the
        game's value; a card outside it less."""
        mine, _, rows = self.bid_matrix(view)
        if self._exact(view):
            solver, prizes, h0, h1, stake, diff = self._turn(view)
            _, _, by_value = solver.decision(prizes, h0, h1, stake, diff)
            y = [by_value[b] for b in bits(h1)]
        else:
            _, _, y = solve(rows)
        return {c: sum(p * v for p, v in zip(y, row, strict=True)) for c, row in zip(mine, rows, strict=True)}

    # -- helpers -------------------------------------------------------------------------
    def _solver(self, ties: str, scoring: str, n: int) -> Solver:
        solver = self._solvers.get((ties, scoring))
        if solver is None:
            solver = self._solvers[(ties, scoring)] = Solver(ties, scoring)
        if n <= EXACT_GAME:
            load_values(solver, ties, scoring, n)
        return solver

    def _turn(self, view: dict[str, Any]) -> tuple[Solver, int, int, int, int, int]:
        """This turn as the solver reads it: (solver, diamonds still face down, this seat's cards, the
        other's, the stake, this seat's points minus the other's), all from the view."""
        options = view["options"]
        n = options.get("cards", 13)
        seat = view["seat"]
        mine = mask_of([VALUE_OF[c] for c in view["legal_actions"]])
        theirs = mask_of([VALUE_OF[c] for c in view["opponent_hand"]])
        seen = {VALUE_OF[c] for c in view["stake"]}
        for turn in view["history"]:
            seen.update(VALUE_OF[c] for c in turn["prizes"])
        prizes = mask_of([v for v in range(1, n + 1) if v not in seen])
        stake = sum(VALUE_OF[c] for c in view["stake"])
        scores = view["scores"]
        diff = scores[seat] - scores[1 - seat]
        solver = self._solver(options.get("ties", "carry"), options.get("scoring", "points"), n)
        return solver, prizes, mine, theirs, stake, diff

    def _exact(self, view: dict[str, Any]) -> bool:
        """Whether the rest of the game is solved exactly from this turn (else depth-limited)."""
        return view["options"].get("cards", 13) <= self.exact_game or len(view["legal_actions"]) <= self.exact_cards

    def _depth_limited(self, solver: Solver, prizes: int, mine: int, theirs: int, stake: int,
                       diff: int) -> dict[int, float]:
        """This turn solved exactly, the rest of the game valued by ``estimate``."""
        _, x, _ = solve(_rows(solver, prizes, mine, theirs, stake, diff, self.scale, exact=False))
        return dict(zip(bits(mine), x, strict=True))


def _rows(solver: Solver, prizes: int, mine: int, theirs: int, stake: int, diff: int, scale: float,
          exact: bool) -> list[list[float]]:
    """This turn's matrix game from this seat's side: rows its cards, columns the other's, low to
    high; each entry what the bid wins now plus the rest of the game, solved (``exact``) or
    valued by ``estimate_points`` / ``estimate_win``."""
    left = bits(prizes)
    rows = []
    for a in bits(mine):
        row = []
        for b in bits(theirs):
            h0, h1 = mine & ~(1 << (a - 1)), theirs & ~(1 << (b - 1))
            gain = stake if a > b else -stake if b > a else 0
            carried = stake if (a == b and solver.carry and left) else 0
            if exact and solver.win:
                row.append(solver.value(prizes, h0, h1, carried, diff + gain))
            elif exact:
                row.append(gain + solver.value(prizes, h0, h1, carried))
            elif solver.win:
                row.append(estimate_win(left, h0, h1, carried, diff + gain, scale))
            else:
                row.append(gain + estimate_points(left, h0, h1, carried, scale))
        rows.append(row)
    return rows


def advantage(h0: int, h1: int) -> float:
    """(pairs where seat 0's card is higher - pairs where it is lower) / pairs."""
    a, b = bits(h0), bits(h1)
    if not a:
        return 0.0
    score = sum((x > y) - (x < y) for x in a for y in b)
    return score / (len(a) * len(b))


def estimate_points(prizes: list[int], h0: int, h1: int, carried: int, scale: float = ADVANTAGE_SCALE) -> float:
    """The expected points margin to come for seat 0 (see the module docstring)."""
    adv = advantage(h0, h1)
    return max(-1.0, min(1.0, scale * adv)) * (sum(prizes) + carried)


def estimate_win(prizes: list[int], h0: int, h1: int, carried: int, diff: int,
                 scale: float = ADVANTAGE_SCALE) -> float:
    """Expected +1/-1 for the game: the margin to come as a normal around ``estimate_points``."""
    mean = diff + estimate_points(prizes, h0, h1, carried, scale)
    spread = math.sqrt(sum(p * p for p in prizes) + carried * carried) * 0.5
    if spread == 0.0:
        return float((mean > 0) - (mean < 0))
    return math.erf(mean / (spread * math.sqrt(2.0)))
