"""A frozen copy of Clobby's pure-Python solver as it was before the compiled core (commit 24cdc77).

Kept only for bench/bench_solver_clobby.py --old: the new core's values must equal these.

Clobby double-dummy solver: the exact value of the rest of a deal with both hands open.

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

The search: fail-soft alpha-beta over two 32-bit hand masks, one call per trick (the lead
and the follow are two loops of the same frame), a transposition table of (lower, upper,
best lead) keyed on the hands and the leader, the best lead tried first, and
equivalent-card pruning: two cards of one hand worth the same points with no card still out
between them in the suit's order are one move (in Clobby only the zero-point cards — plain
9 8 7, trump 8 7 — can be equal, and they sit together at the bottom of every suit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parlour.cards import bit_indices
from parlour.games.clobby.rules import (
    BELLA_CODE,
    CODE,
    HIGHER_TRUMP,
    KQ_MASK,
    PLAIN_STRENGTH,
    POINTS,
    R_KING,
    R_QUEEN,
    SANS,
    SUIT_MASK,
    TOUT,
    TRUMP_STRENGTH,
    meld_points,
)

INF = 10_000


def _is_trump(mode: int, s: int) -> bool:
    return mode == TOUT or mode == s


class _Tables:
    """What the search needs about one trump mode, precomputed once."""

    def __init__(self, mode: int) -> None:
        self.mode = mode
        self.pts = POINTS[mode]
        strength = [TRUMP_STRENGTH[c & 7] if _is_trump(mode, c >> 3) else PLAIN_STRENGTH[c & 7] for c in range(32)]
        wins = [False] * 1024
        for a in range(32):
            for b in range(32):
                if mode == TOUT:
                    w = strength[b] > strength[a]
                elif a >> 3 == b >> 3:
                    w = strength[b] > strength[a]
                else:
                    w = b >> 3 == mode
                wins[a * 32 + b] = w
        self.follower_wins = wins
        self.zero = sum(1 << c for c in range(32) if self.pts[c] == 0)
        self.byte_pts = [[sum(self.pts[s * 8 + r] for r in range(8) if bits >> r & 1) for bits in range(256)]
                         for s in range(4)]
        # Leads: high cards first, plain suits before trumps (measured: fewest nodes); masters
        # (no higher card of the suit in the other hand) go first in the search itself.
        self.lead_key = [(50 if _is_trump(mode, c >> 3) and mode != TOUT else 0) - 10 * strength[c] - self.pts[c]
                         for c in range(32)]
        self.higher = [sum(1 << d for d in range((c & ~7), (c & ~7) + 8) if strength[d] > strength[c])
                       for c in range(32)]
        self.trump_mask = SUIT_MASK[mode] if 0 <= mode < 4 else 0
        # Follows: the cheapest winning card first, then the cheapest loser.
        trumpish = [1 if _is_trump(mode, c >> 3) else 0 for c in range(32)]
        self.follow_key = [(strength[b] + 8 * trumpish[b]) if wins[a * 32 + b] else 100 + 10 * self.pts[b] + strength[b]
                           for a in range(32) for b in range(32)]
        self.follow_keys = [self.follow_key[a * 32:a * 32 + 32] for a in range(32)]
        # follow_mask inlined in the search: the led suit, the cards that beat a led trump, the trumps to ruff with
        self.suit_of = [SUIT_MASK[a >> 3] for a in range(32)]
        self.beat = [HIGHER_TRUMP[a] if mode == TOUT or mode == a >> 3 else 0 for a in range(32)]
        self.ruff = [self.trump_mask if 0 <= mode < 4 and a >> 3 != mode else 0 for a in range(32)]

    def mask_points(self, m: int) -> int:
        bp = self.byte_pts
        return bp[0][m & 0xFF] + bp[1][(m >> 8) & 0xFF] + bp[2][(m >> 16) & 0xFF] + bp[3][m >> 24]

    def follow_mask(self, a: int, hand: int) -> int:
        """The follower's legal cards after lead ``a`` (RULES.md's obligations, as rules.py)."""
        ls = a >> 3
        mode = self.mode
        follow = hand & SUIT_MASK[ls]
        if mode == TOUT or mode == ls:
            if follow:
                return (follow & HIGHER_TRUMP[a]) or follow
            return hand
        if follow:
            return follow
        if mode == SANS:
            return hand
        return (hand & self.trump_mask) or hand


_TABLES: dict[int, _Tables] = {}


def tables(mode: int) -> _Tables:
    t = _TABLES.get(mode)
    if t is None:
        t = _TABLES[mode] = _Tables(mode)
    return t


def reduce_moves(moves: int, others: int, zero: int) -> int:
    """Drop equivalent zero-point cards: of a run of them with no card of ``others`` between, keep one."""
    mz = moves & zero
    if not mz & (mz - 1):
        return moves
    out = moves & ~mz
    prev = -1
    while mz:
        low = mz & -mz
        mz ^= low
        c = low.bit_length() - 1
        if prev >= 0 and prev >> 3 == c >> 3 and not others & ((1 << c) - (1 << (prev + 1))):
            prev = c
            continue
        out |= low
        prev = c
    return out


class Solver:
    """Maker's card points from the rest of a deal, both hands open, for one trump mode."""

    def __init__(self, mode: int) -> None:
        self.t = tables(mode)
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0

    def search(self, hm: int, hd: int, maker_leads: bool, alpha: int, beta: int) -> int:
        """Maker's points (cards + last trick) from a trick start, fail-soft in ``(alpha, beta)``."""
        if not hm:
            return 0
        self.nodes += 1
        t = self.t
        key = (hm << 33) | (hd << 1) | maker_leads
        tt = self.tt
        e = tt.get(key)
        if e is not None:
            lo, hi, bm = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
        else:
            lo, hi, bm = 0, t.mask_points(hm | hd) + 10, -1
            if hi <= alpha:
                return hi
            if beta <= 0:
                return 0
        a0, b0 = alpha, beta
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        last10 = 0 if hm & (hm - 1) else 10
        pts = t.pts
        wins = t.follower_wins
        zero = t.zero
        search = self.search
        if maker_leads:
            lead, fol = hm, hd
        else:
            lead, fol = hd, hm
        mz = lead & zero
        leads = bit_indices(reduce_moves(lead, fol, zero) if mz & (mz - 1) else lead)
        if len(leads) > 1:
            hg = t.higher
            leads.sort(key=t.lead_key.__getitem__)
            leads = [c for c in leads if not fol & hg[c]] + [c for c in leads if fol & hg[c]]
            if bm in leads:
                leads.remove(bm)
                leads.insert(0, bm)
        suit_of, beat, ruff, fks = t.suit_of, t.beat, t.ruff, t.follow_keys
        best_move = leads[0]
        if maker_leads:
            best = -INF
            for a in leads:
                abit = 1 << a
                l2 = lead ^ abit
                fm = fol & suit_of[a]
                if fm:
                    if beat[a]:
                        fm = (fm & beat[a]) or fm
                else:
                    fm = (fol & ruff[a]) or fol
                v = INF
                base = a * 32
                pa = pts[a] + last10
                mz = fm & zero
                follows = bit_indices(reduce_moves(fm, l2 | abit | (fol & ~fm), zero) if mz & (mz - 1) else fm)
                if len(follows) > 1:
                    follows.sort(key=fks[a].__getitem__)
                for b in follows:
                    f2 = fol ^ (1 << b)
                    if wins[base + b]:
                        child = search(l2, f2, False, alpha, v if v < beta else beta)
                    else:
                        g = pa + pts[b]
                        child = g + search(l2, f2, True, alpha - g, (v if v < beta else beta) - g)
                    if child < v:
                        v = child
                        if v <= alpha:
                            break
                if v > best:
                    best = v
                    best_move = a
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = INF
            for a in leads:
                abit = 1 << a
                l2 = lead ^ abit
                fm = fol & suit_of[a]
                if fm:
                    if beat[a]:
                        fm = (fm & beat[a]) or fm
                else:
                    fm = (fol & ruff[a]) or fol
                v = -INF
                base = a * 32
                pa = pts[a] + last10
                mz = fm & zero
                follows = bit_indices(reduce_moves(fm, l2 | abit | (fol & ~fm), zero) if mz & (mz - 1) else fm)
                if len(follows) > 1:
                    follows.sort(key=fks[a].__getitem__)
                for b in follows:
                    f2 = fol ^ (1 << b)
                    if wins[base + b]:
                        g = pa + pts[b]
                        child = g + search(f2, l2, True, (v if v > alpha else alpha) - g, beta - g)
                    else:
                        child = search(f2, l2, False, v if v > alpha else alpha, beta)
                    if child > v:
                        v = child
                        if v >= beta:
                            break
                if v < best:
                    best = v
                    best_move = a
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if best <= a0:
            tt[key] = (lo, min(hi, best), best_move)
        elif best >= b0:
            tt[key] = (max(lo, best), hi, best_move)
        else:
            tt[key] = (best, best, best_move)
        return best

    def exact(self, hm: int, hd: int, maker_leads: bool, guess: int | None = None) -> int:
        """The exact value by MTD(f): null-window searches that home in from ``guess``."""
        if guess is None:
            guess = (self.t.mask_points(hm | hd) + 10) // 2
        lo, hi, g = -INF, INF, guess
        search = self.search
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = search(hm, hd, maker_leads, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return g

    def root(self, hm: int, hd: int, leader_is_maker: bool, led: int, moves: Sequence[int]) -> dict[int, int]:
        """Maker's points from the current trick on (its cards included) after each of ``moves``.

        With ``led < 0`` the moves are leads by the leader; else they are follows to ``led`` by the
        other seat (``hm``/``hd`` exclude ``led``).  Every value is exact: a reply that cannot improve
        on the best reply so far is only refuted by a null-window test, not solved exactly.
        """
        t = self.t
        out: dict[int, int] = {}
        maker_moves = leader_is_maker == (led < 0)
        mover = hm if maker_moves else hd
        other = hd if maker_moves else hm
        last10 = 0 if mover & (mover - 1) else 10
        guess = None
        if led < 0:
            for a in moves:
                m2 = mover ^ (1 << a)
                follows = bit_indices(t.follow_mask(a, other))
                follows.sort(key=lambda b: t.follow_key[a * 32 + b])
                best: int | None = None
                for b in follows:
                    g, h1, h2, nxt = self._child(a, b, m2, other ^ (1 << b), maker_moves, last10)
                    if best is not None:
                        # the replier (not the mover) wants to go below (maker moves) or above the best so far
                        if maker_moves:
                            if g + self.search(h1, h2, nxt, best - g - 1, best - g) >= best:
                                continue
                        elif g + self.search(h1, h2, nxt, best - g, best - g + 1) <= best:
                            continue
                    v = g + self.exact(h1, h2, nxt, None if guess is None else guess - g)
                    best = v
                    guess = v
                out[a] = best  # type: ignore[assignment]
        else:
            for b in moves:
                g, h1, h2, nxt = self._child(led, b, other, mover ^ (1 << b), not maker_moves, last10)
                v = g + self.exact(h1, h2, nxt, None if guess is None else guess - g)
                out[b] = guess = v
        return out

    def _child(self, a: int, b: int, lead_rest: int, fol_rest: int, leader_is_maker: bool,
               last10: int) -> tuple[int, int, int, bool]:
        """The trick ``a`` (led), ``b`` (followed): maker's gain, then the hands (maker, opponent) and who leads."""
        t = self.t
        maker_won = t.follower_wins[a * 32 + b] != leader_is_maker
        hm, hd = (lead_rest, fol_rest) if leader_is_maker else (fol_rest, lead_rest)
        return (t.pts[a] + t.pts[b] + last10 if maker_won else 0), hm, hd, maker_won


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
    def from_state(cls, state: object) -> Position:
        """The open position of an engine state in play (for the bench cheater, the tests and simulations)."""
        s = state
        runs = s._runs  # type: ignore[attr-defined]
        w = s._meld_winner  # type: ignore[attr-defined]
        melds = [0, 0]
        if w is not None:
            melds[w] = sum(meld_points(r) for r in runs[w])
        return cls(s._mode, s._maker, list(s._hands), list(s._played), list(s._trick),  # type: ignore[attr-defined]
                   s._turn, list(s._card_pts), list(s._bella_pts), melds)  # type: ignore[attr-defined]

    def legal_cards(self) -> int:
        hand = self.hands[self.turn]
        if not self.trick:
            return hand
        return tables(self.mode).follow_mask(self.trick[0][1], hand)


def action_values(pos: Position, solver: Solver | None = None) -> dict[str, int]:
    """The mover's margin (his deal score minus the other's) after each legal action, both hands open, exact."""
    mode, maker, me = pos.mode, pos.maker, pos.turn
    solver = solver or Solver(mode)
    t = solver.t
    hands = pos.hands
    legal = pos.legal_cards()
    cards = bit_indices(legal)
    hm, hd = hands[maker], hands[1 - maker]
    if pos.trick:
        led_seat, led = pos.trick[0]
        xs = solver.root(hm, hd, led_seat == maker, led, cards)
        remaining = t.mask_points(hm | hd) + t.pts[led] + 10
    else:
        xs = solver.root(hm, hd, me == maker, -1, cards)
        remaining = t.mask_points(hm | hd) + 10
    pend = list(pending_bella(mode, hands, pos.played))
    base = [pos.card_pts[p] + pos.bella_pts[p] + pos.melds[p] for p in (0, 1)]
    sign = 1 if me == maker else -1
    kq = KQ_MASK[mode]
    out: dict[str, int] = {}
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
    return Outlook(m, base, pend[m], pend[1 - m]).payment(x, solver.t.mask_points(hm | hd) + 10)
