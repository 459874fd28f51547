"""Clobby double-dummy solver: the exact value of the rest of a deal with both hands open.

Why it can be exact and fast at once: a deal's payment (RULES.md: both totals if the maker
wins, the maker 0 if equal, the opponent both totals if the maker is bete) is not additive
over tricks, but for a fixed set of bella announcements it is *monotone* in the card points
the maker takes.  A monotone transform of the leaves commutes with minimax in a
perfect-information game, so the search only maximises the maker's remaining card points
(plus the last trick's 10) — an additive value a transposition table can store independently
of the score so far — and the payment is applied once, at the root.  Bella fits the same
frame: the opponent always gains by announcing it, and the maker's choice (announce unless it
makes him bete with more to give away) is a function of the final points, so the maker's
payment is ``G(x) = max over his announcements of F(x, bella)``, still monotone in ``x``.

The search itself is the compiled trick kernel (``parlour.search``), fed Clobby's rules as
arrays (``tables.py``); this module keeps what is Clobby's: the payment and the position.
The kernel's seat 0 is always the maker, so one solver per trump mode serves both seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...cards import bit_indices
from ...search.pimc import ActionValues
from ...search.solver import TrickSolver
from . import tables
from .rules import BELLA_CODE, CODE, KQ_MASK, POINTS, R_KING, R_QUEEN, ClobbyState, legal_mask


class Solver:
    """Maker's card points from the rest of a deal, both hands open, for one trump mode."""

    def __init__(self, mode: int) -> None:
        self.mode = mode
        self.pts = POINTS[mode]
        self._search = TrickSolver(tables.trick_rules(mode), tables.objective(mode), [0])

    @property
    def nodes(self) -> int:
        return self._search.nodes

    def exact(self, hm: int, hd: int, maker_leads: bool, guess: int = 0) -> int:
        """The maker's points (cards and the last trick's 10) from a trick start, exact."""
        return self._search.exact([hm, hd], 0 if maker_leads else 1, guess=guess)

    def root(self, hm: int, hd: int, leader_is_maker: bool, led: int, moves: Sequence[int]) -> dict[int, int]:
        """Maker's points from the current trick on (its cards included) after each of ``moves``.

        With ``led < 0`` the moves are leads by the leader; else they are follows to ``led`` by the
        other seat (``hm``/``hd`` exclude ``led``).
        """
        leader = 0 if leader_is_maker else 1
        values = self._search.move_values([hm, hd], leader, list(moves), trick=() if led < 0 else (led,))
        return dict(zip(moves, values, strict=True))

    def remaining(self, mask: int) -> int:
        """The card points in ``mask``, with the last trick's 10: all the maker could still take."""
        return sum(self.pts[c] for c in bit_indices(mask)) + tables.LAST_TRICK


@dataclass
class Outlook:
    """What besides the remaining card points decides the payment, fixed from here on.

    ``base``: each seat's points so far (cards won, bella announced, and the meld points it will
    score by the end); ``maker_bella``: bella announcements the maker may still choose
    (0 to this many, 20 each); ``opp_bella``: those the opponent still has (he always makes them).
    """

    maker: int
    base: tuple[int, int]
    maker_bella: int
    opp_bella: int

    def payment(self, x: int, remaining: int) -> int:
        """Maker's deal score minus the opponent's when the maker takes ``x`` of ``remaining``."""
        m = self.maker
        tm0 = self.base[m] + x
        to = self.base[1 - m] + remaining - x + 20 * self.opp_bella
        return max(_payment(tm0 + 20 * k, to) for k in range(self.maker_bella + 1))


def _payment(tm: int, to: int) -> int:
    if tm > to:
        return tm - to
    if tm == to:
        return -to
    return -(tm + to)


def pending_bella(mode: int, hands: Sequence[int], played: Sequence[int]) -> tuple[int, int]:
    """Bella announcements each seat can still make: it owns both K and Q of a bella suit and one is unplayed."""
    kq = KQ_MASK[mode]
    out = [0, 0]
    if not kq:
        return 0, 0
    for s in range(4):
        k, q = 1 << (s * 8 + R_KING), 1 << (s * 8 + R_QUEEN)
        if not kq & k:
            continue
        for p in (0, 1):
            owned = hands[p] | played[p]
            if owned & k and owned & q and not (played[p] & k and played[p] & q):
                out[p] += 1
    return out[0], out[1]


@dataclass
class Position:
    """A deal in play with both hands open: everything the payment of its rest depends on."""

    mode: int
    maker: int
    hands: list[int]
    played: list[int]
    trick: list[tuple[int, int]]  # (seat, card) of the current trick, 0 or 1 entries
    turn: int
    card_pts: list[int]
    bella_pts: list[int]
    melds: list[int]  # meld points each seat scores by the end of the deal

    @classmethod
    def from_state(cls, state: ClobbyState) -> Position:
        """The open position of an engine state in play (for the bench cheater, the tests and simulations)."""
        o = state.open_position()
        return cls(o.mode, o.maker, list(o.hands), list(o.played), list(o.trick), o.turn, list(o.card_pts),
                   list(o.bella_pts), list(o.melds))

    def legal_cards(self) -> int:
        return legal_mask(self.mode, self.hands[self.turn], self.trick[0][1] if self.trick else -1)


def action_values(pos: Position, solver: Solver | None = None) -> ActionValues:
    """The mover's margin (his deal score minus the other's) after each legal action, both hands open, exact."""
    mode, maker, me = pos.mode, pos.maker, pos.turn
    solver = solver or Solver(mode)
    hands = pos.hands
    legal = pos.legal_cards()
    cards = bit_indices(legal)
    hm, hd = hands[maker], hands[1 - maker]
    if pos.trick:
        led_seat, led = pos.trick[0]
        xs = solver.root(hm, hd, led_seat == maker, led, cards)
        remaining = solver.remaining(hm | hd | 1 << led)
    else:
        xs = solver.root(hm, hd, me == maker, -1, cards)
        remaining = solver.remaining(hm | hd)
    pend = list(pending_bella(mode, hands, pos.played))
    base = [pos.card_pts[p] + pos.bella_pts[p] + pos.melds[p] for p in (0, 1)]
    sign = 1 if me == maker else -1
    kq = KQ_MASK[mode]
    out: ActionValues = {}
    for c in cards:
        second = False
        if kq >> c & 1:
            partner = (c & ~7) | (R_QUEEN if c & 7 == R_KING else R_KING)
            second = bool(pos.played[me] >> partner & 1)
        if not second:
            ol = Outlook(maker, (base[0], base[1]), pend[maker], pend[1 - maker])
            out[CODE[c]] = sign * ol.payment(xs[c], remaining)
            continue
        # The second of a bella pair: playing it plainly forfeits that bella; with +bella it scores 20.
        p2 = list(pend)
        p2[me] -= 1
        ol = Outlook(maker, (base[0], base[1]), p2[maker], p2[1 - maker])
        out[CODE[c]] = sign * ol.payment(xs[c], remaining)
        b2 = list(base)
        b2[me] += 20
        ol = Outlook(maker, (b2[0], b2[1]), p2[maker], p2[1 - maker])
        out[BELLA_CODE[c]] = sign * ol.payment(xs[c], remaining)
    return out


def deal_value(pos: Position, solver: Solver | None = None) -> int:
    """The maker's payment (his deal score minus the opponent's) of a position at a trick start, exact."""
    assert not pos.trick
    solver = solver or Solver(pos.mode)
    m = pos.maker
    hm, hd = pos.hands[m], pos.hands[1 - m]
    x = solver.exact(hm, hd, pos.turn == m)
    pend = pending_bella(pos.mode, pos.hands, pos.played)
    base = (pos.card_pts[0] + pos.bella_pts[0] + pos.melds[0], pos.card_pts[1] + pos.bella_pts[1] + pos.melds[1])
    return Outlook(m, base, pend[m], pend[1 - m]).payment(x, solver.remaining(hm | hd))
