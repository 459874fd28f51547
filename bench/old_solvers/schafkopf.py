"""The pure-Python Schafkopf solver as it was before the compiled core (issue 24): the reference.

Why a copy: ``parlour.games.schafkopf.solver`` now searches solos with the compiled kernel
(``parlour.search.tricks``); this file keeps the old alpha-beta, unchanged but for its imports
and its position builder (which read the engine's private fields; build positions with the new
module's ``position_from_state`` instead, its ``Position`` has the same fields), so that
``bench/bench_solver_schafkopf.py`` and the tests can check that the new search gives the same
values on whole deals.  Not part of the package; do not import it from ``src``.

The old module's docstring follows.

Perfect-information (double-dummy) solver for the rest of a Schafkopf deal, exact for its scoring.

Why a solver of its own: the strong player (``strong.py``) solves hundreds of sampled deals
per decision, so this is the inner loop of the whole player; it works on the engine's own
integer cards and 32-bit hand masks (``rules.py`` tables: ``FOLLOW_MASK``, ``WIN``, ``PIP``)
and never touches the string API.

What is solved, and how:

- **Solo** (a soloist against two defenders, a two-sided zero-sum game).  The soloist's score
  (RULES.md: 61-90 pips +2, 91+ +4, all tricks +6, 31-60 -2, 0-30 -4, no trick -6; his discard
  counts for him) is a step function of his final pips and trick count.  So the score is found
  by a few yes/no questions, binary-searched over the six levels: "can he take every remaining
  trick?", "can he take at least one trick?" (two small boolean searches) and "can he reach 31
  / 61 / 91 pips?" (null-window alpha-beta on the pips he takes from the remaining cards — an
  additive value, so one transposition table keyed on the hands and the leader alone serves every
  threshold and every root move, storing lower and upper bounds).
- **Ramsch** (each for himself).  Not zero-sum between two sides, so "perfect play" needs a
  definition: the *paranoid* one (Sturtevant): the seat we solve for maximises its margin (its
  deal score minus the mean of the other two), and the other two minimise it together.  That is
  zero-sum again, so alpha-beta applies; the state at a trick boundary carries what the Ramsch
  score depends on beyond the cards (each seat's pips so far and the order of the seats' latest
  tricks: it decides "no trick", "all tricks" and the tie rule), and the skat goes to the last
  trick's winner.  The engine's ``ramsch_result`` scores the leaves, so the rule's tie order is
  shared, not copied.

Speed: fail-soft alpha-beta per card; a transposition table at trick starts; moves ordered
(the winning cards first for the side that wants the trick); and *equivalent cards*: two cards
of one hand that are adjacent in rank within their suit (trumps are a suit) with no card between
them still out (in a hand or on the table), and with the same pips, are one move — exactness
needs the equal pips (an A and a T of one hand do the same job in a trick, but the 1 pip between
them may land with the other side later).  Pure Python; ``bench/bench_schafkopf_strong.py``
measures it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parlour.cards import bit_indices
from parlour.games.schafkopf.rules import FOLLOW_MASK, PIP, SEAT, SUIT_OF, WIN, pips_of, ramsch_result

#: the levels of the soloist's score, lowest first
SOLO_LEVELS = (-6, -4, -2, 2, 4, 6)
#: the pips the soloist needs for the levels -2, 2 and 4
_PIP_NEED = {-2: 31, 2: 61, 4: 91}
_INF = 1 << 20
_NEXT = (1, 2, 0)


@dataclass
class Position:
    """A deal in progress with every hand open: what the solver reads.

    ``pips``/``tricks`` count completed tricks (the soloist's discard is in his ``pips``);
    ``order`` lists the seats that took a trick, by the index of their latest trick, oldest
    first (the Ramsch tie rule); ``skat`` is the Ramsch skat (the last trick takes it).
    """

    hands: list[int]
    leader: int
    trick: list[int]
    soloist: int | None
    dealer: int
    pips: list[int] = field(default_factory=lambda: [0, 0, 0])
    tricks: list[int] = field(default_factory=lambda: [0, 0, 0])
    order: tuple[int, ...] = ()
    skat: int = 0

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 3

    def legal(self) -> int:
        """The mover's legal cards as a mask."""
        hand = self.hands[self.to_move]
        if self.trick:
            return hand & FOLLOW_MASK[self.trick[0]] or hand
        return hand


def _moves(legal: int, out: int) -> list[int]:
    """The legal cards, one per class of equivalent cards (see the module docstring)."""
    moves: list[int] = []
    prev = -1
    while legal:
        low = legal & -legal
        c = low.bit_length() - 1
        legal ^= low
        if (prev >= 0 and SUIT_OF[c] == SUIT_OF[prev] and PIP[c] == PIP[prev]
                and not out & (low - (2 << prev))):
            prev = c
            continue
        moves.append(c)
        prev = c
    return moves


def _beats(card: int, best: int) -> bool:
    return card < best and (card < 14 or SUIT_OF[card] == SUIT_OF[best])


def _ordered(moves: list[int], trick: list[int], want: bool) -> list[int]:
    """Winning cards first for a side that wants the trick (highest pips first), else the cheap ones."""
    if not trick or len(moves) < 2:
        return moves
    best = trick[0]
    for c in trick[1:]:
        if _beats(c, best):
            best = c
    if want:
        return sorted(moves, key=lambda c: (not _beats(c, best), -PIP[c]))
    return sorted(moves, key=lambda c: (_beats(c, best), PIP[c]))


#: static lead preference: the soloist leads his trumps from the top and then his aces; a defender
#: leads his aces, then low plain cards, his trumps last (the usual plan of each side)
_LEAD_SOL = tuple(c if c < 14 else (14 if PIP[c] == 11 else 20 + (c - 14) % 6) for c in range(32))
_LEAD_DEF = tuple(40 + c if c < 14 else (0 if PIP[c] == 11 else 10 - (c - 14) % 6) for c in range(32))


def _lead_order(moves: list[int], soloist: bool, first: int) -> list[int]:
    key = _LEAD_SOL if soloist else _LEAD_DEF
    moves.sort(key=key.__getitem__)
    if first in moves:
        moves.remove(first)
        moves.insert(0, first)
    return moves


class SoloSolver:
    """Solves solo positions for one soloist; its tables live as long as the object (one deal)."""

    def __init__(self, soloist: int) -> None:
        self.sol = soloist
        self.tt: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
        self.tt_all: dict[tuple[int, int, int, int], bool] = {}
        self.tt_one: dict[tuple[int, int, int, int], bool] = {}
        self.nodes = 0

    # -- pips: null-window alpha-beta on the soloist's pips from the remaining cards ----------
    def pips(self, hands: list[int], leader: int, trick: list[int], alpha: int, beta: int) -> int:
        """The soloist's pips from here on (the current trick included), fail-soft within (alpha, beta)."""
        n = len(trick)
        out = hands[0] | hands[1] | hands[2]
        best_move = -1
        if n == 0:
            if not out:
                return 0
            rem = pips_of(out)
            if rem <= alpha:
                return rem
            if beta <= 0:
                return 0
            key = (hands[0], hands[1], hands[2], leader)
            tt = self.tt.get(key)
            if tt is not None:
                lo, hi, best_move = tt
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            a0, b0 = alpha, beta
        self.nodes += 1
        sol = self.sol
        mover = (leader + n) % 3
        hand = hands[mover]
        maxing = mover == sol
        if n:
            legal = hand & FOLLOW_MASK[trick[0]] or hand
            for c in trick:
                out |= 1 << c
            moves = _ordered(_moves(legal, out), trick, maxing)
        else:
            moves = _lead_order(_moves(hand, out), maxing, best_move)
        best = -_INF if maxing else _INF
        chosen = -1
        for c in moves:
            bit = 1 << c
            hands[mover] = hand ^ bit
            if n == 2:
                t0, t1 = trick
                w = SEAT[leader * 3 + WIN[t0 << 10 | t1 << 5 | c]]
                if w == sol:
                    p = PIP[t0] + PIP[t1] + PIP[c]
                    v = p + self.pips(hands, w, [], alpha - p, beta - p)
                else:
                    v = self.pips(hands, w, [], alpha, beta)
            else:
                trick.append(c)
                v = self.pips(hands, leader, trick, alpha, beta)
                trick.pop()
            hands[mover] = hand
            if maxing:
                if v > best:
                    best, chosen = v, c
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            else:
                if v < best:
                    best, chosen = v, c
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
        if n == 0:
            lo, hi = (tt[0], tt[1]) if tt is not None else (0, rem)
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi, chosen)
        return best

    def reaches(self, hands: list[int], leader: int, trick: list[int], need: int) -> bool:
        """Whether the soloist can take at least ``need`` more pips (the current trick included)."""
        if need <= 0:
            return True
        return self.pips(hands, leader, trick, need - 1, need) >= need

    # -- tricks: the two boolean searches for schwarz ------------------------------------
    def all_tricks(self, hands: list[int], leader: int, trick: list[int], one: bool = False) -> bool:
        """Whether the soloist takes every remaining trick (``one``: at least one of them)."""
        n = len(trick)
        table = self.tt_one if one else self.tt_all
        if n == 0:
            if not (hands[0] | hands[1] | hands[2]):
                return not one
            key = (hands[0], hands[1], hands[2], leader)
            got = table.get(key)
            if got is not None:
                return got
        self.nodes += 1
        sol = self.sol
        mover = (leader + n) % 3
        hand = hands[mover]
        legal = hand & FOLLOW_MASK[trick[0]] or hand if n else hand
        out = hands[0] | hands[1] | hands[2]
        for c in trick:
            out |= 1 << c
        moves = _moves(legal, out)
        maxing = mover == sol
        if n:
            moves = _ordered(moves, trick, maxing)
        result = not maxing  # the soloist needs one good move, the defenders need every move good
        for c in moves:
            hands[mover] = hand ^ (1 << c)
            if n == 2:
                t0, t1 = trick
                w = SEAT[leader * 3 + WIN[t0 << 10 | t1 << 5 | c]]
                if one:
                    v = True if w == sol else self.all_tricks(hands, w, [], True)
                else:
                    v = False if w != sol else self.all_tricks(hands, w, [], False)
            else:
                trick.append(c)
                v = self.all_tricks(hands, leader, trick, one)
                trick.pop()
            hands[mover] = hand
            if maxing and v:
                result = True
                break
            if not maxing and not v:
                result = False
                break
        if n == 0:
            table[key] = result
        return result

    # -- the score ---------------------------------------------------------------------
    def _at_least(self, pos: Position, level: int) -> bool:
        hands, trick = list(pos.hands), list(pos.trick)
        sol = self.sol
        if level <= -6:
            return True
        if level == 6:
            if pos.tricks[sol] != sum(pos.tricks):
                return False
            return self.all_tricks(hands, pos.leader, trick)
        if level == -4:
            return pos.tricks[sol] > 0 or self.all_tricks(hands, pos.leader, trick, one=True)
        need = _PIP_NEED[level] - pos.pips[sol]
        return self.reaches(hands, pos.leader, trick, need)

    def score(self, pos: Position, guess: int = 2) -> int:
        """The soloist's exact score under perfect play by both sides."""
        lo, hi = 0, len(SOLO_LEVELS) - 1  # the answer's index lies in [lo, hi]
        probe = SOLO_LEVELS.index(guess) if guess in SOLO_LEVELS else 3
        while lo < hi:
            mid = min(max(probe, lo + 1), hi)
            if self._at_least(pos, SOLO_LEVELS[mid]):
                lo = mid
            else:
                hi = mid - 1
            probe = (lo + hi + 1) // 2
        return SOLO_LEVELS[lo]


def _ramsch_leaf(pips: tuple[int, int, int], order: tuple[int, ...], skat_pips: int, dealer: int,
                 root: int) -> int:
    """Twice the root seat's margin when the deal ends (integers keep the search exact)."""
    final = list(pips)
    final[order[-1]] += skat_pips
    tricks = [0, 0, 0]
    for s in order:
        tricks[s] = 1  # only "none", "some" and "all" matter
    if len(order) == 1:
        tricks[order[0]] = 10
    winners = list(order)  # later tricks later: the tie rule compares latest tricks only
    add, scorer, _ = ramsch_result(final, tricks, winners, dealer)
    v = add[scorer]
    return 2 * v if scorer == root else -v


class RamschSolver:
    """Paranoid alpha-beta for one root seat in a Ramsch (see the module docstring)."""

    def __init__(self, root: int, dealer: int, skat: int) -> None:
        self.root = root
        self.dealer = dealer
        self.skat_pips = pips_of(skat)
        self.tt: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes = 0

    def search(self, hands: list[int], leader: int, trick: list[int], pips: tuple[int, int, int],
               order: tuple[int, ...], alpha: int, beta: int) -> int:
        n = len(trick)
        tt = None
        if n == 0:
            if not (hands[0] | hands[1] | hands[2]):
                return _ramsch_leaf(pips, order, self.skat_pips, self.dealer, self.root)
            key = (hands[0], hands[1], hands[2], leader, pips, order)
            tt = self.tt.get(key)
            if tt is not None:
                lo, hi = tt
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            a0, b0 = alpha, beta
        self.nodes += 1
        root = self.root
        mover = (leader + n) % 3
        hand = hands[mover]
        legal = hand & FOLLOW_MASK[trick[0]] or hand if n else hand
        out = hands[0] | hands[1] | hands[2]
        for c in trick:
            out |= 1 << c
        moves = _moves(legal, out)
        maxing = mover == root
        if n:
            moves = _ordered(moves, trick, False)
        best = -_INF if maxing else _INF
        for c in moves:
            hands[mover] = hand ^ (1 << c)
            if n == 2:
                t0, t1 = trick
                w = SEAT[leader * 3 + WIN[t0 << 10 | t1 << 5 | c]]
                p = PIP[t0] + PIP[t1] + PIP[c]
                new = list(pips)
                new[w] += p
                v = self.search(hands, w, [], (new[0], new[1], new[2]),
                                tuple(s for s in order if s != w) + (w,), alpha, beta)
            else:
                trick.append(c)
                v = self.search(hands, leader, trick, pips, order, alpha, beta)
                trick.pop()
            hands[mover] = hand
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
        if n == 0:
            lo, hi = tt if tt is not None else (-_INF, _INF)
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi)
        return best

    def value(self, pos: Position) -> int:
        """Twice the root seat's margin under paranoid perfect play."""
        p0, p1, p2 = pos.pips
        return self.search(list(pos.hands), pos.leader, list(pos.trick), (p0, p1, p2), pos.order, -9, 9)


# -- the public entry points: values in *margin* units (a seat's deal score minus the mean of the others) --

def solo_margin(score: int, soloist: int, seat: int) -> float:
    return float(score) if seat == soloist else -score / 2


def position_value(pos: Position, seat: int) -> float:
    """The margin of ``seat`` under perfect play from ``pos``."""
    if pos.soloist is None:
        return RamschSolver(seat, pos.dealer, pos.skat).value(pos) / 2
    return solo_margin(SoloSolver(pos.soloist).score(pos), pos.soloist, seat)


def after(pos: Position, card: int) -> Position:
    """The position after the mover plays ``card`` (a completed trick is scored and cleared)."""
    mover = pos.to_move
    hands = list(pos.hands)
    hands[mover] ^= 1 << card
    trick = pos.trick + [card]
    if len(trick) < 3:
        return Position(hands, pos.leader, trick, pos.soloist, pos.dealer, list(pos.pips), list(pos.tricks),
                        pos.order, pos.skat)
    t0, t1, t2 = trick
    w = SEAT[pos.leader * 3 + WIN[t0 << 10 | t1 << 5 | t2]]
    pips = list(pos.pips)
    pips[w] += PIP[t0] + PIP[t1] + PIP[t2]
    tricks = list(pos.tricks)
    tricks[w] += 1
    order = tuple(s for s in pos.order if s != w) + (w,)
    return Position(hands, w, [], pos.soloist, pos.dealer, pips, tricks, order, pos.skat)


def action_values(pos: Position) -> dict[int, float]:
    """The mover's margin after each of its legal cards, under perfect play (equivalent cards share one)."""
    seat = pos.to_move
    legal = pos.legal()
    out = pos.hands[0] | pos.hands[1] | pos.hands[2]
    for c in pos.trick:
        out |= 1 << c
    reps = _moves(legal, out)
    values: dict[int, float] = {}
    if pos.soloist is None:
        solver = RamschSolver(seat, pos.dealer, pos.skat)
        for c in reps:
            values[c] = solver.value(after(pos, c)) / 2
    else:
        solo = SoloSolver(pos.soloist)
        guess = 2
        for c in reps:
            score = solo.score(after(pos, c), guess)
            guess = score
            values[c] = solo_margin(score, pos.soloist, seat)
    # the equivalent cards skipped above take the value of the card they follow
    last = None
    for c in bit_indices(legal):
        if c in values:
            last = values[c]
        else:
            values[c] = last  # type: ignore[assignment]
    return values
