"""The pure-Python Six-Bid Solo solver as it was before the compiled core (kept for the equality bench and tests).

Why a copy: ``bench/bench_solver_sixbid.py --equal`` and ``tests/games/sixbid/test_solver.py`` check
that ``games/sixbid/solver.py`` on ``parlour.search.tricks`` gives this file's values.  Not to be edited.

Original docstring: Six-Bid Solo double-dummy solver: the rest of a deal with every hand open, exact for its scoring.

Why one search serves every contract: in the trump contracts (solo, heart, guarantee, call)
the soloist's score depends only on the pips he ends with (the widow counts for him), and the
trick pips are zero-sum between him and the two opponents, so the minimax value of "the
soloist's remaining trick pips" decides them all exactly — solo and heart pay linearly in it,
guarantee and call pay on a threshold that the exact value settles (and a null-window search
``at_least`` settles more cheaply).  Misere and spread are "take no trick": a separate, much
smaller search where the first trick the soloist wins ends the game (value -1; 0 if he takes none).

The search: alpha-beta by single card plays with a transposition table keyed at trick starts
(the three hands and the leader; the value stored is the pips still to come, so it does not
depend on the path), fail-soft bounds, the table's best card tried first, then a cheap
ordering; and equivalent-card pruning — cards of one suit in one hand with no card between
them still in another hand or on the table are one move (for the pip search only when they
also carry the same pips, i.e. the runs among 6-9; in a misere any such run).  Cards not in
any hand (played earlier, or lying in the widow) count as gone.

Cards are indices 0..35 (``rules.CODES``: suit * 9 + strength) and hands are 36-bit masks, the
same encoding as the engine, so positions move between them without conversion.
"""

from __future__ import annotations

from parlour.games.sixbid.rules import CALL, GUARANTEE, HEART, MISERE, NO_TRUMP, PIP, SOLO, SPREAD, SUIT_MASK, TERMS

INF = 1 << 20
#: the pips of each 9-bit strength pattern of one suit
PATTERN_PIPS = tuple(sum(PIP[r] for r in range(9) if pat >> r & 1) for pat in range(512))
#: POWER[trump][led][card]: trumps beat the led suit, which beats the rest (0)
POWER = tuple(
    tuple(tuple(20 + c % 9 if c // 9 == t else (10 + c % 9 if c // 9 == led else 0) for c in range(36))
          for led in range(4))
    for t in range(5)
)
RANK_PIP = tuple(PIP[r] for r in range(9))


def _groups(own: int, others: int, same_pips: bool) -> tuple[int, ...]:
    """One strength per class of equivalent cards in ``own`` (a suit's pattern), high first.

    Two cards of ``own`` are equivalent when no strength between them is in ``others`` (the
    suit's cards still in another hand or on the table) and, if ``same_pips``, they carry
    the same pips.
    """
    out: list[int] = []
    prev = -1
    for r in range(8, -1, -1):
        if own >> r & 1:
            if prev >= 0 and not _between(others, r, prev) and (not same_pips or RANK_PIP[r] == RANK_PIP[prev]):
                prev = r
                continue
            out.append(r)
            prev = r
    return tuple(out)


def _between(others: int, low: int, high: int) -> bool:
    """Whether ``others`` has a strength strictly between ``low`` and ``high``."""
    return bool(others & ((1 << high) - 1) & ~((1 << (low + 1)) - 1))


#: GROUPS[same_pips][own * 512 + others], filled on first use
_GROUP_CACHE: tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]] = ({}, {})


def groups(own: int, others: int, same_pips: bool) -> tuple[int, ...]:
    cache = _GROUP_CACHE[same_pips]
    key = own << 9 | others
    got = cache.get(key)
    if got is None:
        got = cache[key] = _groups(own, others, same_pips)
    return got


def _weights(trump: int) -> tuple[float, ...]:
    """How much each card is worth for winning tricks, for the horizon's estimate."""
    out = []
    for c in range(36):
        r = c % 9
        if c // 9 == trump:
            out.append(2.0 + r / 4)
        else:
            out.append({8: 1.5, 7: 1.0, 6: 0.5}.get(r, 0.2))
    return tuple(out)


def mask_pips(mask: int) -> int:
    return (PATTERN_PIPS[mask & 511] + PATTERN_PIPS[(mask >> 9) & 511] + PATTERN_PIPS[(mask >> 18) & 511]
            + PATTERN_PIPS[(mask >> 27) & 511])


def no_trick_contract(contract: int) -> bool:
    return contract in (MISERE, SPREAD)


class Solver:
    """Searches one deal's play for a fixed trump, soloist and kind of contract.

    ``misere`` False: values are the soloist's trick pips still to come (he maximizes, the
    opponents minimize).  ``misere`` True: values are 0 (he takes no further trick) or -1.
    The transposition table lives as long as the solver, so solving the children of one
    position (PIMC: one search per legal card) shares it.
    """

    def __init__(self, trump: int, soloist: int, misere: bool, stop_at: int = 0) -> None:
        self.trump = trump
        self.soloist = soloist
        self.misere = misere
        #: tricks left at which the search stops and estimates (0: exact, to the end of the deal)
        self.stop_at = stop_at
        self.tt: dict[int, tuple[float, float, int]] = {}
        self.nodes = 0
        self.weights = _weights(trump)

    # -- the search ---------------------------------------------------------------------------
    def estimate(self, hands: list[int]) -> float:
        """The horizon's guess (only when ``stop_at`` > 0): pips still out, shared by card strength.

        A misere guesses that the soloist gets through (0).
        """
        if self.misere:
            return 0
        w = self.weights
        sol = self.soloist
        own = theirs = 0.0
        for seat in range(3):
            h = hands[seat]
            total = 0.0
            while h:
                low = h & -h
                total += w[low.bit_length() - 1]
                h ^= low
            if seat == sol:
                own = total
            else:
                theirs += total
        rest = mask_pips(hands[0] | hands[1] | hands[2])
        return rest * own / (own + theirs) if own + theirs > 0 else 0

    def search(self, hands: list[int], leader: int, trick: list[int], alpha: float, beta: float) -> float:
        """The value of the position (``hands`` the cards still held, ``trick`` the cards on the table).

        Fail-soft alpha-beta: a result <= alpha is an upper bound, >= beta a lower bound.
        ``hands`` and ``trick`` are restored before returning.
        """
        self.nodes += 1
        n = len(trick)
        misere = self.misere
        tt = self.tt
        key = 0
        alpha0, beta0 = alpha, beta
        first = -1
        if n == 0:
            h0, h1, h2 = hands
            held = h0 | h1 | h2
            if not held:
                return 0
            if self.stop_at and held.bit_count() <= 3 * self.stop_at:
                return self.estimate(hands)
            key = h0 | h1 << 36 | h2 << 72 | leader << 108
            entry = tt.get(key)
            if entry is not None:
                lo, hi, first = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            alpha0, beta0 = alpha, beta
            if not misere:
                rest = mask_pips(h0 | h1 | h2)
                if rest <= alpha:
                    return rest
                if beta <= 0:
                    return 0
        p = (leader + n) % 3
        h = hands[p]
        if n:
            led = trick[0] // 9
            follow = h & SUIT_MASK[led]
            movable = follow or h
        else:
            led = -1
            movable = h
        moves = self._moves(movable, hands, p, trick, first, led)
        maxing = p == self.soloist
        best: float = -INF if maxing else INF
        best_card = -1
        for c in moves:
            bit = 1 << c
            hands[p] = h ^ bit
            trick.append(c)
            if n == 2:
                c0, c1, c2 = trick
                power = POWER[self.trump][c0 // 9]
                q0, q1, q2 = power[c0], power[c1], power[c2]
                if q0 > q1:
                    w = 0 if q0 > q2 else 2
                else:
                    w = 1 if q1 > q2 else 2
                winner = (leader + w) % 3
                if misere:
                    v = -1 if winner == self.soloist else self.search(hands, winner, [], alpha, beta)
                elif winner == self.soloist:
                    gain = PIP[c0] + PIP[c1] + PIP[c2]
                    v = gain + self.search(hands, winner, [], alpha - gain, beta - gain)
                else:
                    v = self.search(hands, winner, [], alpha, beta)
            else:
                v = self.search(hands, leader, trick, alpha, beta)
            trick.pop()
            hands[p] = h
            if maxing:
                if v > best:
                    best, best_card = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, best_card = v, c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if n == 0:
            entry = tt.get(key)
            lo, hi = (entry[0], entry[1]) if entry is not None else (-INF, INF)
            if best <= alpha0:
                hi = min(hi, best)
            elif best >= beta0:
                lo = max(lo, best)
            else:
                lo = hi = best
            tt[key] = (lo, hi, best_card)
        return best

    def _moves(self, movable: int, hands: list[int], p: int, trick: list[int], first: int, led: int) -> list[int]:
        """One card per class of equivalent cards, in a useful order (the table's best first)."""
        others = (hands[0] | hands[1] | hands[2]) & ~hands[p]
        for c in trick:
            others |= 1 << c
        same_pips = not self.misere
        out: list[int] = []
        for s in range(4):
            own = (movable >> (9 * s)) & 511
            if own:
                base = 9 * s
                for r in groups(own, (others >> (9 * s)) & 511, same_pips):
                    out.append(base + r)
        if len(out) > 1:
            out.sort(key=self._order_key(p, trick, led), reverse=True)
            if first >= 0:
                # the table's best card may stand for an equivalent one: try its class first
                for i, c in enumerate(out):
                    if c == first:
                        out.insert(0, out.pop(i))
                        break
        return out

    def _order_key(self, p: int, trick: list[int], led: int):  # type: ignore[no-untyped-def]
        """Leading: high first.  Following: smear pips on a trick our side holds, else win cheaply or duck cheaply."""
        trump = self.trump
        if not trick:
            return lambda c: (c % 9) + (10 if c // 9 == trump else 0)
        power = POWER[trump][led]
        top = max(power[c] for c in trick)
        if self.misere:
            # the soloist tries to stay under; the others try to win high or hand him the trick
            if p == self.soloist:
                return lambda c: -power[c] if power[c] < top else -100 - power[c]
            return lambda c: power[c]
        leader = (p - len(trick)) % 3
        holder = (leader + [power[c] for c in trick].index(top)) % 3
        sol = self.soloist
        ours = (holder == sol) == (p == sol)
        if ours:
            # partner (or ourselves) holds the trick: smear pips without overtaking, unless overtaking is cheap
            return lambda c: PIP[c] * 2 - (50 if power[c] > top else 0) - (c // 9 == trump) * 20
        return lambda c: (100 - power[c] + PIP[c]) if power[c] > top else (-PIP[c] - power[c])

    # -- the questions the bots ask -----------------------------------------------------------
    def value(self, hands: list[int], leader: int, trick: list[int]) -> float:
        """The exact value of the position (see the class docstring)."""
        if self.misere:
            return self.search(hands, leader, trick, -1, 0)
        return self.search(hands, leader, trick, -INF, INF)

    def at_least(self, hands: list[int], leader: int, trick: list[int], need: int) -> bool:
        """Whether the soloist can make ``need`` more trick pips (a null-window search)."""
        if need <= 0:
            return True
        return self.search(hands, leader, trick, need - 1, need) >= need


def chips_won(contract: int, trump: int, soloist_pips: int, tricks_taken: bool) -> int:
    """What the soloist wins from each opponent (negative: pays), as ``rules._score`` reckons it.

    ``soloist_pips``: trick pips plus the widow (the trump contracts); ``tricks_taken``: whether
    he took any trick (the misères).
    """
    target, unit = TERMS[contract][trump]
    if target is None:
        return -unit if tricks_taken else unit
    if contract <= HEART:
        return unit * (soloist_pips - 60)
    return unit if soloist_pips >= target else -unit


def seat_score(won: int, seat: int, soloist: int) -> int:
    """A seat's chips from the deal when the soloist wins ``won`` from each opponent."""
    return 2 * won if seat == soloist else -won


__all__ = ["CALL", "GUARANTEE", "HEART", "MISERE", "NO_TRUMP", "SOLO", "SPREAD", "Solver", "chips_won",
           "groups", "mask_pips", "seat_score", "no_trick_contract"]


def trick_winner(trump: int, leader: int, c0: int, c1: int, c2: int) -> int:
    power = POWER[trump][c0 // 9]
    q0, q1, q2 = power[c0], power[c1], power[c2]
    if q0 > q1:
        w = 0 if q0 > q2 else 2
    else:
        w = 1 if q1 > q2 else 2
    return (leader + w) % 3


def root_values(solver: Solver, hands: list[int], leader: int, trick: list[int]) -> dict[int, float]:
    """The value (as ``Solver.value``) after each legal card of the seat to move, equivalent cards once.

    Each child gets a full-window search so PIMC can average exact values; the children share
    the solver's transposition table.
    """
    n = len(trick)
    p = (leader + n) % 3
    h = hands[p]
    movable = (h & SUIT_MASK[trick[0] // 9]) or h if n else h
    others = (hands[0] | hands[1] | hands[2]) & ~h
    for c in trick:
        others |= 1 << c
    out: dict[int, float] = {}
    lo, hi = (-1, 0) if solver.misere else (-INF, INF)
    for s in range(4):
        own = (movable >> (9 * s)) & 511
        if not own:
            continue
        reps = groups(own, (others >> (9 * s)) & 511, not solver.misere)
        for k, r in enumerate(reps):
            c = 9 * s + r
            hands[p] = h ^ (1 << c)
            trick.append(c)
            if n == 2:
                winner = trick_winner(solver.trump, leader, *trick)
                if solver.misere:
                    v: float = -1 if winner == solver.soloist else solver.search(hands, winner, [], lo, hi)
                elif winner == solver.soloist:
                    gain = PIP[trick[0]] + PIP[trick[1]] + PIP[trick[2]]
                    v = gain + solver.search(hands, winner, [], lo, hi)
                else:
                    v = solver.search(hands, winner, [], lo, hi)
            else:
                v = solver.search(hands, leader, trick, lo, hi)
            trick.pop()
            hands[p] = h
            # every card of the class: from this strength down to the next representative
            low = reps[k + 1] if k + 1 < len(reps) else -1
            for r2 in range(r, low, -1):
                if own >> r2 & 1:
                    out[9 * s + r2] = v
    return out
