"""The compiled search kernel of the trick games: alpha-beta over bitmask hands, exact.

Why one kernel for Clobby, Six-Bid Solo and Schafkopf: all three are "every hand open, two
sides, follow the led suit, the highest card of the trick wins it, points or tricks counted",
and what differs between them is data, not code.  A game hands this module a
:class:`~parlour.search.trick_rules.TrickRules` (``games/<g>/tables.py`` builds it from the
rule tables its engine uses too), and the kernel reads only arrays:

- ``rules[SUIT, c]``: the cards that follow a lead of ``c`` (its suit; trumps are one suit);
  ``rules[BEAT, c]``: of those, the ones that must be played if held (Clobby's "head a led
  trump"); ``rules[RUFF, c]``: when void, the cards that must be played if held (Clobby's
  "trump a plain lead");
- ``power[led * n + c]``: how strongly ``c`` plays in a trick led by ``led`` (0: it cannot win);
- ``rules[PTS, c]``: what a card counts for the side that takes it, plus ``trick_bonus`` per
  trick and ``last_bonus`` for the last one (a trick-count objective has zero points and a
  bonus of 1: "can the soloist take no trick", "can he take them all");
- the kernel numbers the cards by group and rank, high first (``TrickRules`` renumbers the
  game's cards so), so a group is a run of bits and "between" is a mask: two cards of one
  hand in one group (``rules[GROUP, c]``), worth the same points, with no card of another hand
  or of the trick between them, are one move; ``rules[CROSS, c]`` adds the cards of other
  groups that can play between ``c`` and the card above it (Clobby's tout-atout);
- ``rules[BEATERS, c]``: the cards that take a trick from ``c`` when ``c`` leads it (for the
  sure-trick bound: a lead none of the other hands can beat, or can only by a card they may not
  play while they must follow);
- ``rules[ALWAYS, c]``: the cards that take some trick from ``c`` whatever is led (every card
  when ``c`` cannot take some trick): ``c`` with none of them out takes whichever trick it falls in;
- ``rules[ALWAYS_SKIP, c]``: the other cards whose ``ALWAYS`` row holds all of ``c``'s, so they
  are not sure when ``c`` is not (the sure-trick bound tests a suit's top cards and skips the
  rest: two tests a suit, not one a card);
- ``rules[RUNS, i]``: the ``i``-th run of interchangeable cards (a 0 ends the list), its top
  (highest) card ``rules[RUN_TOP, i]``, and ``rules[RUN, c]``: ``i + 1`` for the cards of run
  ``i`` (0: in none): adjacent cards of one group, worth the same, that every rule treats alike
  (``TrickRules.runs``).  Which of a run's cards are gone does not change a position's value,
  only how many and whose are left, so the table keys a trick start on its *canonical* hands:
  each run's remaining cards moved to its top, in their order and with their owners
  (:func:`_canonical`);
- ``rules[QRUNS]``, ``rules[QRUN_TOP]``, ``rules[QRUN]``: the same for *quasi-runs*, runs that may
  differ in points (``TrickRules.runs(objective, quasi=True)``; none in ``LOWEST`` mode).  Positions
  that differ only in which cards of a quasi-run are left play alike card for card, and their
  values differ by at most the points of the cards that stand in for each other
  (:func:`_slack`), so an entry of one bounds the other: Kupferschmid and Helmert's
  quasi-symmetry reduction for Skat, which the table's second half keeps (:func:`new_table`);
- ``rules[PTS8 + k, b]``: the points of the cards of byte ``k`` of a mask that are set in ``b``;
- ``side[seat]``: bit ``MAX`` set for the seats that maximise, bit ``COUNTED`` for the seats whose
  takings are counted (both for the usual side; a misère counts the opponents' tricks while the
  soloist maximises them: he wants them to take every one).

The value of a position is the points the side takes from here on, the current trick's cards
included, so a transposition-table entry (keyed on the hands and the leader at a trick start)
does not depend on the score so far; the games turn it into a payment at the root, where
their scoring is (``games/<g>/solver.py``).

The search (DDS's units, each its own function): :func:`legal_moves` (move generation with the
equivalence reduction), :func:`_order` (the table's best move first, then a cheap order: by
where each card sends the trick, the fattest card onto a trick that goes where the mover wants),
fail-soft alpha-beta by single cards in :func:`search` with bounds at trick starts (nothing
below 0, nothing above what is left, the sure tricks, a misère's ducking test: :func:`_bounds`), a
transposition table in preallocated arrays (:func:`new_table`: three key words and one of bounds,
best move and depth; exact entries in its first half, quasi entries in its second, or in ``LOWEST``
mode dominance entries, :func:`_dominance_probe`), and the drivers :func:`exact` (MTD(f): null-window
searches that home in from a guess) and :func:`move_values`.

Everything is a plain function over integers and numpy arrays, ``@kernel`` (``search/jit.py``):
compiled by numba and cached, or the same code as Python.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .jit import bit_ops, index_op, inline, kernel, pext_op, prefetch_op

#: rows of the ``rules`` array
(SUIT, BEAT, RUFF, PTS, GROUP, CROSS, LEAD_KEY, LEAD_KEY_OTHERS, BEATERS, ALWAYS, ALWAYS_SKIP,
 RUN, RUNS, RUN_TOP, QRUN, QRUNS, QRUN_TOP, PTS8) = range(18)
#: rows of the ``rules`` array (eight byte tables last), and its width
ROWS = PTS8 + 8
WIDTH = 256
#: the processor's lowest-bit and bit-count instructions when compiled, Python's otherwise (``jit.bit_ops``)
_trailing_zeros, _popcount = bit_ops()
#: an array index that is never negative, for numba to index with as it stands (``jit.index_op``): every
#: index in this module that is not a constant goes through it (``tests/core/test_search_core.py`` checks)
_ix = index_op()
#: start loading a table row into the cache (``jit.prefetch_op``): a trick start's two probes overlap
_prefetch = prefetch_op()
#: the bits of a mask at another's set bits, packed low (``jit.pext_op``): a run's cards moved to its top
_pext = pext_op()
#: entries of the ``params`` array: the game's (players, cards, what a trick and the last one are
#: worth, the scoring mode and, for ``LOWEST``, its three scores) and the position's (``P_PAST``:
#: the packed history of :func:`pack_past`, ``P_EXTRA``: the points that go to the last trick's
#: winner, ``P_DEALER``: who scores when every seat ends level), and the rules' ``P_PLAIN``: 1 when only
#: the led suit takes a trick, any card of it may be played, and a suit's cards are numbered strongest
#: first (``TrickRules.arrays``), so that a misère's test of a seat that ducks every trick holds; and
#: ``P_TAKE_WEAKEST``: 1 when a seat that maximises tries the weakest of its cards that take the trick
#: first, not the fattest (``TrickRules.take_weakest``, :func:`_order`); and the solver's ``P_TAG``: what
#: tells its entries from those of the other solvers that share its table (:func:`_keys`)
(P_PLAYERS, P_CARDS, P_TRICK_BONUS, P_LAST_BONUS, P_MODE, P_SCORE_ALL, P_SCORE_NONE, P_SCORE_FEWEST,
 P_PAST, P_EXTRA, P_DEALER, P_PLAIN, P_TAKE_WEAKEST, P_TAG) = range(14)
PARAMS = 14
#: scoring modes: ``SUM``, the side's points from here (every contract with two sides);
#: ``LOWEST``, each for himself and the fewest points score (Schafkopf's Ramsch): the value is the
#: seat that maximises' margin when the deal ends, from the history (``P_PAST``) and the cards
SUM, LOWEST = 0, 1
INF = 1 << 20
#: stats entries: the nodes searched, the node count past which a search stops (0: none), and 1
#: once one has stopped there (then the call's values mean nothing: ``search.solver`` raises)
S_NODES, S_LIMIT, S_CUT = range(3)
STATS = 3
#: bits of a seat's ``side`` entry
MAX, COUNTED = 1, 2
#: :func:`move_values`' ``need`` for exact values (0 or more asks for a bound at that threshold)
EXACT = -1

Int64s = NDArray[np.int64]


@inline
def legal(hand: int, led: int, rules: Int64s) -> int:
    """The cards of ``hand`` that may follow ``led`` (any card when ``led < 0``: a lead)."""
    if led < 0:
        return hand
    follow = hand & rules[SUIT, _ix(led)]
    if follow:
        beat = follow & rules[BEAT, _ix(led)]
        return beat if beat else follow
    ruff = hand & rules[RUFF, _ix(led)]
    return ruff if ruff else hand


@inline
def points_of(mask: int, rules: Int64s, ncards: int) -> int:
    total = 0
    k = 0
    while mask:
        total += rules[_ix(PTS8 + k), _ix(mask & 255)]
        mask >>= 8
        k += 1
    return total


@inline
def _unliteral(value: int) -> int:
    """``value`` as an ``int64`` variable, for a constant handed to a kernel (not inlined) by another.

    Why: numba types a constant as its own literal type (``Literal[int](0)``), and a kernel called
    with one is compiled again for it, with the whole search below it: ``search`` was compiled three
    times, once for the drivers and twice for the constants :func:`move_values` hands :func:`_after_move`,
    and the first-run compile took 177 s on this machine, against 56 s with each kernel compiled once
    (the same values, as fast).
    """
    return int(np.int64(value))


@inline
def low_bit(mask: int) -> int:
    """The index of the lowest set bit of ``mask`` (> 0).

    Why LLVM's ``cttz`` (``jit.bit_ops``) and not a loop over bytes and a table of a byte's lowest
    bit, as before, nor a count by shifts and masks for :func:`_count`: with the two intrinsics the
    nodes and values were the same and the solves took less CPU, 200 deals a row from the first card
    (Six-Bid solos and hearts, forced and as bid, and Schafkopf solos), three runs each, alternated:
    29.8, 27.9 and 30.8 s against 33.3, 30.0 and 37.5 s."""
    return _trailing_zeros(mask)


@inline
def legal_moves(moves: int, others: int, rules: Int64s, ncards: int, out: Int64s) -> int:
    """``moves`` as cards in ``out`` (high first in each group), one card per equivalent run.

    ``others``: the cards in the other hands and on the table; a card in none of the hands
    (played, or out of play) does not separate two cards of a run.
    """
    n = 0
    prev = -1
    while moves:
        c = low_bit(moves)
        moves &= moves - 1
        if prev >= 0 and rules[PTS, _ix(c)] == rules[PTS, _ix(prev)] and _joined(prev, c, others, rules):
            prev = c
            continue
        out[_ix(n)] = c
        n += 1
        prev = c
    return n


@inline
def _joined(a: int, c: int, others: int, rules: Int64s) -> bool:
    """Whether the card ``c`` (after ``a`` in the numbering) is next to ``a`` in one run: the same
    group, no card of ``others`` between them (nor one that would compete with them, ``CROSS``), so
    that each beats, and is beaten by, the same cards of the others."""
    if rules[GROUP, _ix(c)] != rules[GROUP, _ix(a)] or others & ((1 << c) - (1 << (a + 1))):
        return False
    cross = 0
    for d in range(a + 1, c + 1):
        cross |= rules[CROSS, _ix(d)]
    return not others & cross


@inline
def trick_winner(trick: Int64s, tb: int, count: int, power: Int64s, ncards: int) -> int:
    """The index (from ``tb``) in ``trick`` of the card that takes the trick ``trick[tb:tb + count]``."""
    led = trick[_ix(tb)]
    best = 0
    best_power = power[_ix(led * ncards + led)]
    for i in range(1, count):
        p = power[_ix(led * ncards + trick[_ix(tb + i)])]
        if p > best_power:
            best_power = p
            best = i
    return best


@inline
def _seat(seat: int, nplayers: int) -> int:
    """``seat % nplayers`` for ``0 <= seat < 2 * nplayers``.  Why not ``%``: a division at every node
    (numba's ``%`` also corrects for signs), where one comparison does."""
    return seat - nplayers if seat >= nplayers else seat


@inline
def _wants(side: Int64s, mover: int, holder: int) -> bool:
    """Whether ``mover`` wants ``holder`` to take the trick: a seat that maximises wants the counted
    seats to take it, the others want the rest to (in a misère nobody wants it for himself)."""
    return ((side[_ix(holder)] & COUNTED) != 0) == ((side[_ix(mover)] & MAX) != 0)


@inline
def _best_power(hand: int, led: int, rules: Int64s, power: Int64s, ncards: int) -> int:
    """The strongest power in a trick led by ``led`` of the cards ``hand`` may play to it: the top
    card of each group it may play from (cards are numbered high first in a group, so a group's
    top card is its lowest bit), one test a group and not one a card."""
    best = 0
    m = legal(hand, led, rules)
    while m:
        c = low_bit(m)
        m &= ~(rules[SUIT, _ix(c)] | (1 << c))
        best = max(best, power[_ix(led * ncards + c)])
    return best


@inline
def _follow_key(wanted: bool, later: bool, pts: int, p: int) -> int:
    """A follow's sort key, by whether the trick goes where the mover wants it after the card.
    Wanted first, the fattest card (then the weakest): a trick his side gets is worth his points;
    among those, the ``later`` ones after the others (a second hand's cards that take the trick or
    leave it to the leader, when his partner plays last and can take it: :func:`_order`).  Not
    wanted last, the leanest card (then the weakest)."""
    if wanted:
        return (1000 if later else 0) + 4 * (64 - pts) + (p >> 3)
    return 2000 + 4 * pts + (p >> 3)


#: what one more reply to a lead weighs in its sort key: more than the span of any game's lead keys
#: (``rules[LEAD_KEY]``; 8 to 141 over the games' contracts), so the replies decide and the game's
#: order breaks their ties (nodes in :func:`_order`'s docstring)
REPLY_WEIGHT = 256


@inline
def _replies(h: Int64s, led: int, mover: int, rules: Int64s, side: Int64s, nplayers: int, lowest: bool) -> int:
    """How many cards the other side may play to a lead of ``led`` by ``mover``, the ones that beat it
    counted twice but in ``LOWEST`` mode (``lowest``): the moves a refutation of the lead must answer
    (a partner's answer needs only one card that works), and where a side wants tricks, the ones
    that can take this one weigh more."""
    n = 0
    for k in range(1, nplayers):
        s = _seat(mover + k, nplayers)
        if (side[_ix(s)] ^ side[_ix(mover)]) & MAX:
            m = legal(h[_ix(s)], led, rules)
            n += _count(m)
            if not lowest:
                n += _count(m & rules[BEATERS, _ix(led)])
    return n


@inline
def _undominated(buf: Int64s, at: int, n: int, others: int, led: int, holder: int, wpow: int, last: int,
                 lmax: int, mover: int, rules: Int64s, power: Int64s, side: Int64s, ncards: int) -> int:
    """Of the moves ``buf[at:at + n]`` (one card a class, :func:`legal_moves`), the cards worth
    searching, in place; how many.  :func:`_order` hands over the trick: the card led (-1 for a lead),
    the seat that holds the trick and its card's power, and the last hand with its strongest card (or
    -1).  Where cards of one run (:func:`_joined`) differ in points and the trick goes to the same side
    whichever of them is played, whatever the later hands do, only the fattest is kept if that side is
    the one the mover wants, else the leanest.

    Why that loses nothing (``SUM`` mode only): the two positions after the trick differ only in
    which cards of the run the mover keeps, and the run's cards beat the same cards, so either
    position's play is the other's, card for card, with the same tricks to the same seats.  Only
    the points differ: the fatter card kept can bring at most its extra points to whoever takes it
    later.  So banking the fat card now on a trick of the side the mover wants is never worse, nor
    is the lean one on a trick he does not want.  The side is settled for the last hand; for the
    second of three when the last cannot take the trick or is of the same side as the seat that
    holds it; and for a lead that no card out beats.  Skat's "unequal move reduction" (skatcalc).
    Whole deals from the first card, 200 a row, the same values, nodes: Six-Bid solos and hearts
    forced 45.0 M and 23.2 M against 51.2 M and 26.4 M, as bid 45.7 M and 37.0 M against 52.8 M and
    44.6 M, Schafkopf solos 5.84 M against 6.65 M; 1,200 Clobby deals (every card's value at the
    first trick too) 1.67 M against 2.32 M.  The time moves less (the cards it drops mostly lead to
    trick starts the table settles at once, and the test costs a little at every node): for follows
    alone, the 400 forced Six-Bid deals took 10.5, 11.5 and 10.2 s of CPU against 10.5, 12.7 and
    11.0 s, alternated (on this host a run varies by a tenth); dropped only with five cards or more
    in the hand, 11.0, 11.7 and 10.3 s."""
    k = 0
    prev = -1
    settled = False
    fat = False
    for i in range(n):
        c = buf[_ix(at + i)]
        if settled and _joined(prev, c, others, rules):  # its run's side is settled alike: it beats the same cards
            prev = c
            kept = buf[_ix(at + k - 1)]
            if (rules[PTS, _ix(c)] > rules[PTS, _ix(kept)]) == fat and rules[PTS, _ix(c)] != rules[PTS, _ix(kept)]:
                buf[_ix(at + k - 1)] = c
            continue
        buf[_ix(at + k)] = c
        k += 1
        prev = c
        if led < 0:  # a lead: settled when no card out beats it
            goes = mover
            settled = not others & rules[BEATERS, _ix(c)]
        else:
            p = power[_ix(led * ncards + c)]
            goes = mover if p > wpow else holder
            settled = last < 0 or lmax <= max(p, wpow) or (side[_ix(last)] & COUNTED) == (side[_ix(goes)] & COUNTED)
        fat = _wants(side, mover, goes)
    return k


@inline
def _order(buf: Int64s, at: int, n: int, first: int, others: int, trick: Int64s, tb: int, ncur: int, leader: int,
           mover: int, h: Int64s, rules: Int64s, power: Int64s, side: Int64s, nplayers: int, ncards: int,
           lowest: bool, take_weakest: bool) -> int:
    """Sort the cards ``buf[at:at + n]`` in place, and return how many are left to search (dominated
    cards are dropped before the sort, :func:`_undominated`; ``others``: the cards of the other hands
    and the table): ``first`` (the table's best move) first, then a cheap order.  Leads: the fewest replies
    from the other side first (:func:`_replies`), their ties broken by the game's order for the
    side, ``rules[LEAD_KEY]``, or for the others, ``rules[LEAD_KEY_OTHERS]`` (``REPLY_WEIGHT``).
    Why the replies: a lead that cuts is proven by searching every answer of the other side, so the
    lead that leaves them the fewest cards is likely the cheapest cut (Furtak and Buro's
    "fastest-cut-first" for Skat, with the branching as its estimate).  Whole deals from the first
    card, nodes against the game's order alone: 240 Six-Bid pip deals 113.8 M -> 70.6 M (12.3 ->
    8.8 s CPU), 300 Schafkopf solos 24.0 M -> 12.7 M, 300 Ramsches 102.4 M -> 57.1 M (the beaters
    not counted twice there; twice, 61.7 M).  Variants, the same deals: the beaters not counted
    twice, 73.1 M Six-Bid and 13.3 M solo nodes; the replies weighed 40 (the game's order may
    outweigh a reply or two), 72.9 M, 12.7 M, 60.4 M; the partner's cards counted too, 81.2 M,
    14.9 M, 63.3 M; the product of the two hands' counts, 84.8 M Six-Bid nodes; the equivalence
    classes counted and not the cards, 80.8 M.  Later, with today's follows: a reply weighed 100
    (the game's order could outweigh one or two), 64.3 M Six-Bid and 57.1 M Ramsch nodes against
    63.9 M and 56.6 M, the solos as many; weighed 60, 65.7 M and 59.3 M.  (With a master, no
    higher card of its group out, first, as before: 14 % more nodes on 120 Six-Bid pip deals from
    the first card, as many on 300 Schafkopf solos, no less time on 600 Clobby deals.)  Follows, by where
    each card sends the trick (:func:`_follow_key`): the last seat knows; the second of three
    looks at the last hand (its strongest card that may follow), as DDS's second hand looks at
    the fourth.  Why: ordered by the cheapest card that takes the trick, a second hand led into
    by the other side took its trick first, where ducking under a partner who takes it anyway
    refutes; and a seat that takes the trick safely did best with its fattest card, not its
    weakest.  Whole deals from the first card, against the cheapest-taker order: 300 Schafkopf
    solos 26.2 M nodes against 43.0 M, 120 Six-Bid pip deals 78.7 M against 134.4 M, 300
    Ramsches 102.4 M against 112.4 M (on the hardest solo the second hand's first card refuted
    92 % of the time, against 77).  Not in ``LOWEST`` mode (``lowest``), where the second hand
    does not look ahead: the Ramsches took 124.7 M nodes with it.  A trick the mover wants is one
    class, by points, whoever of his side takes it, but for a second hand whose partner plays last
    and can take the trick over anything: the cards that leave it to him go first (points onto his
    trick, the mover's high cards kept), the ones that take it or leave it to the leader after.
    Why: on the hardest Six-Bid solo, the opponents' second hand had first taken the trick itself
    and refuted with its first card 67 % of the time; 82 % now.  Whole deals from the first card,
    against taking first (with the fattest card), then leaving to a partner: 240 Six-Bid pip
    deals 68.2 M nodes against 71.8 M, the slowest of each contract's 60 173-244 ms against
    247-514; 300 Schafkopf solos 10.2 M against 12.7 M; the Ramsches as before.  Variants, the
    same deals: the second hand's wanted cards one class too, 65.9 M Six-Bid and 10.3 M solo
    nodes, but its slowest deals 195-362 ms; the second hand's taking cards weakest first,
    91.1 M Six-Bid nodes; the power in the key to the unit and not the eighth, 68.7 M and
    10.1 M.  Where the game says so (``take_weakest``, Six-Bid's pip contracts), a seat that maximises
    tries the cards that take the trick for it surely (the last hand's, or the second's that the last
    cannot beat) weakest first, before everything else, and not fattest first.  Why: the soloist's fat
    cards there are his strongest (ace and ten head their suits), so taking with the fattest spends
    the top cards that hold his later tricks.  On the hardest of 200 solos as bid (2.13 M nodes), an
    eighth of the nodes went to a soloist's fattest taker that failed before a cheaper one cut (the
    queen, not the ten of trumps: ``bench/order_waste.py`` counts such nodes); with this order the
    deal took 1.08 M.  Measured from empty tables, paired deal by deal (``bench/pair_kernels.py
    --as-bid``): 400 Six-Bid solos and hearts as the easy players bid them, 60.3 M nodes against
    82.2 M and 0.75 of the CPU, p99 78 ms against 134; forced, 64.9 M against 69.2 M, 0.96 of the
    CPU; the same values.  Only the maximising seat's takers: every
    seat's took 0.78 of the CPU as bid but 1.08 forced, the defenders' too as the last hand only 1.02
    and 1.07 (and every second hand's weakest first measured worse, above); a defender's cards that
    leave the trick to his partner before those that overtake him, 6 to 12 % more nodes.  Nor in
    Schafkopf, whose fat trumps (ace, ten) are middling ones, below the obers and unters: 300 solos
    9.78 M nodes against 9.15 M; Clobby's 600 deals took as long either way.  The keys go in
    ``buf[at + 16:]``."""
    kt = at + 16
    if ncur == 0:
        if not lowest:
            n = _undominated(buf, at, n, others, -1, mover, 0, -1, 0, mover, rules, power, side, ncards)
        row = LEAD_KEY if side[_ix(mover)] & MAX else LEAD_KEY_OTHERS
        for i in range(n):
            c = buf[_ix(at + i)]
            replies = _replies(h, c, mover, rules, side, nplayers, lowest)
            buf[_ix(kt + i)] = REPLY_WEIGHT * replies + rules[_ix(row), _ix(c)]
    else:
        led = trick[_ix(tb)]
        w = trick_winner(trick, tb, ncur, power, ncards)
        holder = _seat(leader + w, nplayers)
        wpow = power[_ix(led * ncards + trick[_ix(tb + w)])]
        last = -1
        lmax = 0
        if ncur + 2 == nplayers and not lowest:  # the second of three: the last hand can still take the trick
            last = _seat(mover + 1, nplayers)
            lmax = _best_power(h[_ix(last)], led, rules, power, ncards)
        if not lowest:
            n = _undominated(buf, at, n, others, led, holder, wpow, last, lmax, mover, rules, power, side, ncards)
        for i in range(n):
            c = buf[_ix(at + i)]
            p = power[_ix(led * ncards + c)]
            goes = mover if p > wpow else holder
            if last >= 0 and lmax > max(p, wpow):
                goes = last
            if take_weakest and goes == mover and side[_ix(mover)] & MAX and _wants(side, mover, mover):
                buf[_ix(kt + i)] = p  # before every other class: the weakest card that takes the trick first
            else:
                buf[_ix(kt + i)] = _follow_key(_wants(side, mover, goes), last >= 0 and goes != last,
                                               rules[PTS, _ix(c)], p)
    for i in range(n):
        if buf[_ix(at + i)] == first:
            buf[_ix(kt + i)] = -(1 << 30)
    for i in range(1, n):  # insertion sort: a dozen cards at most
        k = buf[_ix(kt + i)]
        c = buf[_ix(at + i)]
        j = i - 1
        while j >= 0 and buf[_ix(kt + j)] > k:
            buf[_ix(kt + j + 1)] = buf[_ix(kt + j)]
            buf[_ix(at + j + 1)] = buf[_ix(at + j)]
            j -= 1
        buf[_ix(kt + j + 1)] = k
        buf[_ix(at + j + 1)] = c
    return n


@inline
def _canonical(h0: int, h1: int, h2: int, rules: Int64s, base: int) -> tuple[int, int, int]:
    """The hands with each run's remaining cards moved to the run's top (``rules[RUNS]``), in their
    order and with their owners: the same masks for every position that differs from this one
    only in which cards of its runs are gone.  Why: those positions have one value (the rules
    cannot tell the cards of a run apart), so they share one table entry; on Six-Bid's pips
    the 9 8 7 6 of a suit, on a trick count each whole suit (DDS's relative ranks).

    Why ``pext`` (``jit.pext_op``) and not a pass a card: it packs a hand's cards of a run in one
    instruction, at every trick start twice (its keys and its quasi keys), where the loop took a
    tenth of the search's time (``perf`` on forced Six-Bid solos).  Paired deal by deal from empty
    tables (``bench/pair_kernels.py``), the same nodes and values: 400 forced Six-Bid solos and hearts
    from the first card 10 % less CPU, 300 Ramsches 6 % less."""
    everyone = h0 | h1 | h2
    i = 0
    while rules[_ix(base + 1), _ix(i)]:
        run = rules[_ix(base + 1), _ix(i)]
        top = rules[_ix(base + 2), _ix(i)]
        i += 1
        rem = everyone & run
        x = rem >> top
        if x & (x + 1) == 0:  # already at the top (or none left)
            continue
        n0 = _pext(h0, rem) << top
        n1 = _pext(h1, rem) << top
        full = ((1 << _count(rem)) - 1) << top  # the run's top cards, as many as are left
        n2 = full & ~(n0 | n1)
        h0 = (h0 & ~run) | n0
        h1 = (h1 & ~run) | n1
        h2 = (h2 & ~run) | n2
    return h0, h1, h2


@inline
def _canonical_card(c: int, everyone: int, rules: Int64s, base: int) -> int:
    """The card ``c`` of a position whose cards are ``everyone`` in its canonical hands (:func:`_canonical`)."""
    r = rules[_ix(base), _ix(c)]
    if r == 0:
        return c
    return rules[_ix(base + 2), _ix(r - 1)] + _count(everyone & rules[_ix(base + 1), _ix(r - 1)] & ((1 << c) - 1))


@inline
def _actual_card(c: int, everyone: int, rules: Int64s, base: int) -> int:
    """The card of a position whose cards are ``everyone`` that is ``c`` in its canonical hands
    (the inverse of :func:`_canonical_card`): the table's best move, in this position's cards."""
    r = rules[_ix(base), _ix(c)]
    if r == 0:
        return c
    rem = everyone & rules[_ix(base + 1), _ix(r - 1)]
    for _ in range(c - rules[_ix(base + 2), _ix(r - 1)]):
        rem &= rem - 1
    return low_bit(rem)


@inline
def _keys(h: Int64s, leader: int, past: int, params: Int64s, rules: Int64s) -> tuple[int, int, int]:
    """The three key words of a trick start: the canonical hands (:func:`_canonical`) and the leader,
    and in ``LOWEST`` mode the history above the second hand's 32 bits and the leaf's data above
    bit ``LEAF_SHIFT`` of the third (``TrickRules`` allows that mode only for packs of 32 cards or
    fewer).  Why in the key: that mode's value is the final score, which depends on them; a
    ``SUM`` value is points still to come and does not.  The first word holds the solver's tag too
    (``P_TAG``, above the cards): solvers of other rules or sides that share one table number the
    cards otherwise or count other seats, so the same hands are another position to each."""
    h0, h1, h2 = _canonical(h[0], h[1], h[2], rules, RUN)
    first = h0 | (params[P_TAG] << TAG_SHIFT) | (leader << 60)
    if params[P_MODE] == SUM:
        return first, h1, h2
    return (first, h1 | (past << 32),
            h2 | ((params[P_EXTRA] | (params[P_DEALER] << 8)) << LEAF_SHIFT))


@inline
def _slot(k0: int, k1: int, k2: int, size: int) -> int:
    """The table row of a trick start: each 32-bit half of each key word times its own odd
    constant (below 2**31, so no product overflows 63 bits, compiled or as Python), folded."""
    low = 0xFFFFFFFF
    x = ((k0 & low) * 0x6A09E667) ^ ((k0 >> 32) * 0x3C6EF373) ^ ((k1 & low) * 0x510E527F) \
        ^ ((k1 >> 32) * 0x1F83D9AB) ^ ((k2 & low) * 0x5BE0CD19) ^ ((k2 >> 32) * 0x2B3E6C1F)
    x ^= x >> 29
    x ^= x >> 17
    return int(x & (size - 1))


@inline
def _find(tt: Int64s, bucket: int, k0: int, k1: int, k2: int, mask: int) -> int:
    """The row of the trick start with key words ``k0 k1 k2`` in its bucket of two rows, or -1; of the
    second and third words only the bits of ``mask`` are compared (-1 for an exact entry, ``KEY_BITS``
    for a quasi one, whose other bits hold the cards of :func:`_with_cards`).

    Why buckets of two: with one row a slot, a new entry always overwrote the old, and a deep
    one (many cards left, much work behind it) was lost to a shallow one; a bucket keeps the
    deeper of the two (the cards left are in the entry, :func:`_entry`)."""
    for slot in (bucket, bucket + 1):
        if tt[_ix(slot), 0] == k0 and tt[_ix(slot), 1] & mask == k1 and tt[_ix(slot), 2] & mask == k2:
            return slot
    return -1


@inline
def _put(tt: Int64s, bucket: int, k0: int, k1: int, k2: int, mask: int, w1: int, w2: int, word: int) -> None:
    """Write an entry for the key words ``k0 k1 k2`` (compared as :func:`_find` does) as the row
    ``k0 w1 w2 word``: in place of the one with that key, else of the one with fewer cards left
    (less work behind it)."""
    slot = _find(tt, bucket, k0, k1, k2, mask)
    if slot < 0:
        slot = bucket if tt[_ix(bucket), 3] >> 50 < tt[_ix(bucket + 1), 3] >> 50 else bucket + 1
    tt[_ix(slot), 0] = k0
    tt[_ix(slot), 1] = w1
    tt[_ix(slot), 2] = w2
    tt[_ix(slot), 3] = word


#: a quasi entry's second and third key words: the quasi-canonical hands below bit ``SIG_SHIFT``
#: (``TrickRules`` allows at most 40 cards), and from it ``SIG_HALF`` bits each of the canonical
#: cards in play of the position it was searched from (compared by :func:`_slack`, not as a key)
SIG_SHIFT = 40
KEY_BITS = (1 << SIG_SHIFT) - 1
SIG_HALF = 20
#: the hands' bits of a first key word (the tag and the leader are above them: :func:`_keys`)
HANDS = (1 << SIG_SHIFT) - 1
#: where a first key word's tag starts (``P_TAG``), and how many bits it may take
TAG_SHIFT = SIG_SHIFT
TAG_BITS = 60 - TAG_SHIFT


@inline
def _quasi_keys(k0: int, k1: int, k2: int, rules: Int64s) -> tuple[int, int, int]:
    """A trick start's key words in the quasi half of the table: its canonical hands
    (:func:`_keys`, ``SUM`` mode) with every quasi-run's cards moved to its top as well."""
    q0, q1, q2 = _canonical(k0 & HANDS, k1, k2, rules, QRUN)
    return q0 | (k0 & ~HANDS), q1, q2


@inline
def _with_cards(q1: int, q2: int, cards: int) -> tuple[int, int]:
    """A quasi entry's second and third words: its key words with ``cards`` (the canonical cards in
    play of the position it was searched from) above them, half in each (:func:`_cards_of` reads them)."""
    return q1 | ((cards & ((1 << SIG_HALF) - 1)) << SIG_SHIFT), q2 | ((cards >> SIG_HALF) << SIG_SHIFT)


@inline
def _cards_of(tt: Int64s, slot: int) -> int:
    """The cards that :func:`_with_cards` put in the row ``slot``."""
    return ((tt[_ix(slot), 1] >> SIG_SHIFT) & ((1 << SIG_HALF) - 1)) | ((tt[_ix(slot), 2] >> SIG_SHIFT) << SIG_HALF)


@inline
def _slack(now: int, then: int, rules: Int64s) -> tuple[int, int]:
    """How far above and below the value of a position with cards ``then`` in play the value of one
    with ``now`` and the same quasi key can be: ``(up, down)`` (both sets of cards canonical, as
    :func:`_keys` makes them).  The two differ
    only in which cards of a quasi-run are left, and a quasi-run's cards are alike in all but
    points (``TrickRules.runs``), so one plays as the other card for card, the ``k``-th card left of
    a quasi-run in the place of the other's ``k``-th.  Whoever takes each, the side's count from
    ``now`` is the other's plus the differences of the cards it takes: at most the positive ones
    (``up``) more, at most the negative ones (``down``) less.  Why two and not one: a king where
    the other had a queen can only raise the value, so its upper bound passes unwidened (the
    two bounds took half the nodes of one, Schafkopf and Six-Bid solos).
    Kupferschmid and Helmert's quasi-symmetry reduction for Skat."""
    diff = now ^ then
    up = 0
    down = 0
    if diff == 0:
        return up, down
    i = 0
    while rules[QRUNS, _ix(i)]:
        run = rules[QRUNS, _ix(i)]
        i += 1
        if not diff & run:
            continue
        a = now & run
        b = then & run
        while a:
            ca = low_bit(a)
            cb = low_bit(b)
            a &= a - 1
            b &= b - 1
            d = rules[PTS, _ix(ca)] - rules[PTS, _ix(cb)]
            if d > 0:
                up += d
            else:
                down -= d
    return up, down


#: where a ``LOWEST`` key's third word keeps the leaf's data (``P_EXTRA`` in 8 bits, ``P_DEALER`` in 2):
#: above the history's points in the second word's bits, so a mask of those leaves it compared
LEAF_SHIFT = 53


#: a table row's fourth word: the lower bound (bits 0-20), the upper bound (21-41), the best
#: move (42-49) and the cards left (50-57); values lie in ``0 .. 2**21 - 1`` (``INF`` above all)
TT_WORDS = 4
_BOUND = (1 << 21) - 1


def new_table(rows: int) -> Int64s:
    """An empty transposition table of ``rows`` rows (a power of two, at least 4), each bucket of two
    rows in one 64-byte cache line.  Why: a lookup is a cache miss at nearly every trick start, and
    a bucket that straddles two lines costs two (numpy aligns a large array only to 16 bytes).

    The first half holds exact entries (keyed on the canonical hands), the second quasi entries
    (keyed on the quasi-canonical hands, :func:`_quasi_keys`), each with the cards in play of the
    position it was searched from; in ``LOWEST`` mode, dominance entries instead (keyed on all but
    the points so far, which they keep, :func:`_dominance_probe`).  Why halves of one array and not
    one entry kind: keyed on the quasi key alone, positions that share it displaced each other's
    exact entries, and the searches took twice the nodes (Schafkopf solos, 40 deals); why not a
    second array: every kernel takes one table.  Not kept: the trick starts with three cards a hand
    or fewer in a small region of each half, 2**14 rows (1 MiB) that would stay near the processor
    (most trick starts are there, and their entries are cheap to lose).  Paired against the table as
    it is, with the prefetch of ``jit.prefetch_op``: forced Six-Bid solos and hearts from the first
    card 0.3 % more nodes and 2 % more CPU, 300 Ramsches 4 % more nodes and 2 % more CPU.  With 2**12
    rows or four cards a hand, more nodes still."""
    raw = np.empty(rows * TT_WORDS + 8, np.int64)
    skip = (-raw.ctypes.data % 64) // 8
    tt = raw[skip:skip + rows * TT_WORDS].reshape(rows, TT_WORDS)
    empty_table(tt)
    return tt


def empty_table(tt: Int64s) -> None:
    """Make ``tt`` as :func:`new_table` makes it: no key in any row (no hand mask is negative), and
    every other word 0 (the rows' words steer which entry a new one displaces, so a table emptied
    of keys alone would not search as a new one does)."""
    tt[:] = 0
    tt[:, 0] = -1


def work_arrays() -> tuple[Int64s, Int64s, Int64s]:
    """The search's working arrays, in its argument order: ``buf`` (each ply's moves and their keys,
    32 a ply), ``frames`` (its explicit stack) and ``stats`` (its counters, ``S_NODES`` ...)."""
    return (np.zeros(64 * 32, np.int64), np.zeros((MAX_PLY + 2, FRAME_WORDS), np.int64),
            np.zeros(STATS, np.int64))


def trick_array() -> Int64s:
    """The search's ``trick`` argument: the current trick's cards, then room for the tricks it plays
    after it (3 words a trick, 14 tricks, more than any game here deals), so nothing is copied."""
    return np.zeros(3 * 14, np.int64)


@inline
def _entry(lo: int, hi: int, move: int, cards: int) -> int:
    """A row's fourth word.  Clamping is sound: every value is at least 0 and below ``_BOUND``."""
    return max(lo, 0) | (min(hi, _BOUND) << 21) | (move << 42) | (cards << 50)


#: ``LOWEST`` mode's history (``P_PAST``, ``F_PAST``): each seat's points so far in 7 bits
#: (``PAST_POINTS * seat``), then each seat's place by its latest trick in 2 bits (0: no trick
#: yet; the seats that took one have the top places, the latest taker 3: the tie rule's order)
PAST_POINTS, PAST_PLACE = 7, 21


def pack_past(points: tuple[int, ...], latest: tuple[int, ...]) -> int:
    """The packed history of a ``LOWEST`` deal: ``points`` per seat, and ``latest``, the seats that
    took a trick, by their latest trick, oldest first."""
    past = 0
    for seat, pts in enumerate(points):
        past |= pts << (PAST_POINTS * seat)
    for place, seat in enumerate(reversed(latest)):
        past |= (3 - place) << (PAST_PLACE + 2 * seat)
    return past


@inline
def _points_so_far(past: int, seat: int) -> int:
    """``seat``'s points in the packed history ``past`` (:func:`pack_past`)."""
    return (past >> (PAST_POINTS * seat)) & 127


@inline
def _place(past: int, seat: int) -> int:
    """``seat``'s place by its latest trick in the packed history ``past`` (0: no trick yet)."""
    return (past >> (PAST_PLACE + 2 * seat)) & 3


@inline
def _took(past: int, winner: int, pts: int) -> int:
    """The history after ``winner`` takes a trick worth ``pts``: his points grow, he is the latest
    taker (place 3), and the seats that were after his old place move down one."""
    place = _place(past, winner)
    for s in range(3):
        if s != winner and _place(past, s) > place:
            past -= 1 << (PAST_PLACE + 2 * s)
    past += (pts << (PAST_POINTS * winner)) + ((3 - place) << (PAST_PLACE + 2 * winner))
    return past


@inline
def _lowest_span(params: Int64s) -> int:
    """Twice the largest score of a ``LOWEST`` deal: values run from 0 to twice that."""
    m = max(abs(params[P_SCORE_ALL]), abs(params[P_SCORE_NONE]), abs(params[P_SCORE_FEWEST]))
    return 2 * m


@inline
def _root(side: Int64s) -> int:
    """The seat that maximises in ``LOWEST`` mode (the one seat with ``MAX``)."""
    root = 0
    for s in range(3):
        if side[_ix(s)] & MAX:
            root = s
    return root


@inline
def _widen(lo: int, hi: int, v: int) -> tuple[int, int]:
    """The range ``lo .. hi`` widened to hold ``v``."""
    return min(lo, v), max(hi, v)


@inline
def _seat_outlook(past: int, h: Int64s, seat: int, everyone: int, rules: Int64s) -> tuple[int, int, int]:
    """For :func:`_lowest_bounds`: ``seat``'s points so far, the points its sure cards take for it
    (:func:`_sure_cards`, in any trick), and 1 when it has no trick and no sure card (it may yet
    take none), else 0."""
    k, sure = _sure_cards(h[_ix(seat)], everyone & ~h[_ix(seat)], rules)
    return _points_so_far(past, seat), sure, 1 if k == 0 and _place(past, seat) == 0 else 0


@kernel
def _lowest_bounds(past: int, h: Int64s, left: int, side: Int64s, rules: Int64s, params: Int64s) -> tuple[int, int]:
    """The lowest and highest value a ``LOWEST`` deal can still end with, at a trick start with hands
    ``h`` and ``left`` points still to go (the cards in the hands and ``P_EXTRA``).  Each seat's
    *sure* cards (no card out can beat them in any trick, :func:`_sure_cards`) each take a trick for
    it, with their points: so a seat with a trick, or with a sure card, can no longer score "no
    trick"; a seat takes every trick only if the other two have none and hold no sure card; and a
    seat ends with the fewest points only if what it is sure to end with is at most a third of the
    deal's points and at most what each other seat can still reach.  Why: no trick is sure for
    anybody in this mode otherwise, so without these nothing bounds its search (whole deals took
    minutes), and with the sure cards a probe such as "can the root take no trick?" ends at once
    when he holds the top trump.  Why not also a root with no trick yet that can duck every trick
    left (:func:`_ducks_every_trick`, when he holds no trump): he ends with "none" unless another
    seat takes them all, but he seldom holds no trump; on the bench's 300 Ramsch deals from the
    first card, for each seat, it saved 2 % of the nodes, and the bench's p99 no lower (384 ms
    against 372).  Nor that test widened to a seat holding trumps (sound while it holds at least as
    many cards outside trumps as the other two together, so that it never has to discard a trump on a
    plain lead), for every seat with no trick yet, not on lead, as a bound (the root's "none" unless
    another takes every trick from below, another seat's from above): on the same deals it saved 2.4 %
    of the nodes and 6 % on the slowest (12.4 M against 13.2 M, a deal where the root does take
    no trick, though the test fails him: his one club has their seven below it, and what saves him when
    it is led is the third hand's duty to follow with a higher club, which a test of one hand cannot
    see).  A kernel of its own, not inlined: inlined into the search, with :func:`_last_trick_value`
    and two copies of :func:`_sure_cards` in :func:`_sure`, the kernels' first-run compile took 5.2
    minutes here, against 2.8 before them and 3.2 as they are (``search`` was compiled three times
    then: :func:`_unliteral`)."""
    span = _lowest_span(params)
    few = params[P_SCORE_FEWEST]
    every = params[P_SCORE_ALL]
    none = params[P_SCORE_NONE]
    everyone = h[0] | h[1] | h[2]
    root = _root(side)
    p0, s0, f0 = _seat_outlook(past, h, 0, everyone, rules)
    p1, s1, f1 = _seat_outlook(past, h, 1, everyone, rules)
    p2, s2, f2 = _seat_outlook(past, h, 2, everyone, rules)
    pts = (p0, p1, p2)
    sure = (s0, s1, s2)
    free = (f0, f1, f2)
    total = left + p0 + p1 + p2
    lo = INF
    hi = -INF
    for s in range(3):
        a = _seat(s + 1, 3)
        b = _seat(s + 2, 3)
        per = 2 if s == root else -1  # the root's value per point of s's score
        if free[a] and free[b]:  # s may take every trick
            lo, hi = _widen(lo, hi, span + per * every)
        if free[s]:  # s may take none
            lo, hi = _widen(lo, hi, span + per * none)
        least = pts[s] + sure[s]
        if 3 * least <= total and least <= pts[a] + left - sure[s] - sure[b] \
                and least <= pts[b] + left - sure[s] - sure[a]:  # s may end with the fewest
            lo, hi = _widen(lo, hi, span + per * few)
    if total % 3 == 0 and 3 * max(p0 + s0, p1 + s1, p2 + s2) <= total:  # all may end level: the dealer scores
        lo, hi = _widen(lo, hi, span + 2 * few if params[P_DEALER] == root else span - few)
    return lo, hi


@inline
def _lowest_leaf(past: int, last: int, side: Int64s, params: Int64s) -> int:
    """The end of a ``LOWEST`` deal (``last`` took the last trick, and ``P_EXTRA``): the rules in
    their order (one seat took every trick: it scores ``P_SCORE_ALL``; a seat took none: it scores
    ``P_SCORE_NONE``; all level: the dealer scores ``P_SCORE_FEWEST``; else the fewest points do,
    and of two level on fewest, the one whose latest trick came first).  The value is twice the
    maximising seat's margin (its score minus the others' mean), offset by :func:`_lowest_span`."""
    root = _root(side)
    p0 = _points_so_far(past, 0)
    p1 = _points_so_far(past, 1)
    p2 = _points_so_far(past, 2)
    r0 = _place(past, 0)
    r1 = _place(past, 1)
    r2 = _place(past, 2)
    extra = params[P_EXTRA]
    if last == 0:
        p0 += extra
    elif last == 1:
        p1 += extra
    else:
        p2 += extra
    takers = (1 if r0 > 0 else 0) + (1 if r1 > 0 else 0) + (1 if r2 > 0 else 0)
    if takers == 1:
        scorer, x = last, params[P_SCORE_ALL]
    elif takers < 3:
        scorer = 0 if r0 == 0 else (1 if r1 == 0 else 2)
        x = params[P_SCORE_NONE]
    elif p0 == p1 and p1 == p2:
        scorer, x = params[P_DEALER], params[P_SCORE_FEWEST]
    else:
        x = params[P_SCORE_FEWEST]
        scorer, low, place = 0, p0, r0
        if p1 < low or (p1 == low and r1 < place):
            scorer, low, place = 1, p1, r1
        if p2 < low or (p2 == low and r2 < place):
            scorer = 2
    value = 2 * x if scorer == root else -x
    return _lowest_span(params) + value


@inline
def _count(mask: int) -> int:
    """The number of set bits of ``mask`` (>= 0): LLVM's ``ctpop`` (:func:`low_bit` says why)."""
    return _popcount(mask)


@inline
def _gain(trick: Int64s, tb: int, leader: int, h: Int64s, rules: Int64s, power: Int64s, side: Int64s,
          params: Int64s) -> tuple[int, int]:
    """The seat that takes the complete trick ``trick[tb:]``, and what it is worth to the side."""
    nplayers = params[P_PLAYERS]
    w = trick_winner(trick, tb, nplayers, power, params[P_CARDS])
    winner = _seat(leader + w, nplayers)
    gain = 0
    if side[_ix(winner)] & COUNTED and params[P_MODE] == SUM:
        gain = params[P_TRICK_BONUS]
        for j in range(nplayers):
            gain += rules[PTS, _ix(trick[_ix(tb + j)])]
        if h[0] == 0 and h[1] == 0 and h[2] == 0:
            gain += params[P_LAST_BONUS]
    return winner, gain


@inline
def _past_after(past: int, trick: Int64s, tb: int, winner: int, rules: Int64s, params: Int64s) -> int:
    """The history after the complete trick ``trick[tb:]`` went to ``winner`` (``LOWEST`` only)."""
    if params[P_MODE] == SUM:
        return past
    pts = 0
    for j in range(params[P_PLAYERS]):
        pts += rules[PTS, _ix(trick[_ix(tb + j)])]
    return _took(past, winner, pts)


#: columns of the ``frames`` array: one row per ply of the search's explicit stack
(F_TB, F_NCUR, F_LEADER, F_ALPHA, F_BETA, F_A0, F_B0, F_LO, F_HI, F_SLOT, F_MOVER, F_HAND, F_N, F_I,
 F_BEST, F_MOVE, F_GAIN, F_PAST, F_K0, F_K1, F_K2, F_QSLOT, F_Q0, F_Q1, F_Q2) = range(25)
FRAME_WORDS = 25
MAX_PLY = 40


@inline
def _most(h: Int64s, trick: Int64s, tb: int, ncur: int, rules: Int64s, params: Int64s) -> int:
    """An upper bound of the side's points from here: everything still to be taken."""
    if params[P_MODE] == LOWEST:
        return 2 * _lowest_span(params)
    left = h[0] | h[1] | h[2]
    for i in range(ncur):
        left |= 1 << trick[_ix(tb + i)]
    tricks = 0
    for s in range(params[P_PLAYERS]):
        tricks = max(tricks, _count(h[_ix(s)]))
    return points_of(left, rules, params[P_CARDS]) + tricks * params[P_TRICK_BONUS] + params[P_LAST_BONUS]


@inline
def _sure_cards(hand: int, others: int, rules: Int64s) -> tuple[int, int]:
    """How many cards of ``hand`` none of ``others`` can beat in any trick (``ALWAYS``), and their points."""
    pts = 0
    k = 0
    m = hand
    while m:
        c = low_bit(m)
        m &= m - 1
        if not others & rules[ALWAYS, _ix(c)]:
            k += 1
            pts += rules[PTS, _ix(c)]
        else:
            m &= ~rules[ALWAYS_SKIP, _ix(c)]
    return k, pts


@inline
def _cashes(h: Int64s, leader: int, nplayers: int, everyone: int, rules: Int64s) -> tuple[int, int]:
    """How many tricks the leader takes for certain by leading his masters, and their cards' points.
    In each suit, his top cards that no card of it out can beat, led while every seat that holds a
    card of another suit that beats them still holds one of this suit: it must follow, so it cannot
    play that card.  In what order: first every card that some seat could beat from another suit
    (each such seat follows, so nobody discards), then the rest, which no card out beats at all.
    That holds because with three hands the cards that beat a suit's cards from another suit are
    the trumps, the same for every suit, so a seat that must follow one suit's cashes must follow
    every suit's; Clobby's tout-atout, where they differ card by card, has two hands.

    Inlined.  It was a kernel of its own at first: inlined then, it slowed the ``LOWEST`` searches,
    which never call it, by a quarter (the same nodes; 300 Ramsch deals from the first card).  Once the
    indices were unsigned (``_ix``), inlined, 400 forced Six-Bid solos and hearts took 8 % less CPU and
    300 Ramsches 4 % less, but the first-run compile took 124 s against 87.  Measured again with
    today's search, the compile took as long either way (68 s inlined, 65-73 s not, on one host), and
    paired deal by deal from empty tables (``bench/pair_kernels.py``), the same nodes and values,
    inlined took 0.977 of the CPU on 400 Six-Bid solos and hearts as the easy players bid them, 0.985
    forced, and 0.996 on 300 Ramsches."""
    hand = h[_ix(leader)]
    others = everyone & ~hand
    k = 0
    pts = 0
    m = hand
    while m:
        suit = rules[SUIT, _ix(low_bit(m))]
        mine = m & suit
        m &= ~suit
        led = 0
        while mine:
            d = low_bit(mine)
            mine &= mine - 1
            beaters = others & rules[BEATERS, _ix(d)]
            if beaters & suit:
                break
            led += 1
            safe = True
            if beaters:
                for s in range(nplayers):
                    if s != leader and h[_ix(s)] & beaters and _count(h[_ix(s)] & suit) < led:
                        safe = False
            if not safe:
                break
            k += 1
            pts += rules[PTS, _ix(d)]
    return k, pts


@inline
def _sure(h: Int64s, leader: int, rules: Int64s, side: Int64s, params: Int64s) -> tuple[int, int, bool]:
    """What each side takes for certain at a trick start, for the bounds: ``(for the side, for the
    others, every)``.  Sure are the leader's cashes (:func:`_cashes`: each wins its trick, so he keeps
    the lead and cashes them all), and any other seat's card that no card of the other hands can beat
    in any trick (a top trump: it takes whichever trick it falls in), each at its own points and a
    trick bonus; ``every``: the leader's hand is all sure (then his side takes everything).  Only
    seats that count what they want (the usual side, or its opponents) are counted: a misère's seats
    want no trick.

    Why only the sure cards' points: what the others add to those tricks is not known here.  No
    two sure cards fall in one trick (each would beat the other, and a seat with a top trump follows
    the leader's cashes).  DDS calls this "quick tricks"; this is a simple form of it (no entries).

    Why not also the points the others must drop into the leader's cashes (each seat holding ``n``
    cards of a suit he cashes ``k`` times plays its ``min(k, n)`` cheapest there): measured on 200
    Six-Bid solos from the first card, it cut the nodes by 1.4 % (50.4 M against 51.1 M) and the
    solves were no faster; the suits' low cards carry no pips, so the bound rarely moves.  Nor, for a
    seat with a partner, its cards that only the partner can beat (a defender's trump above all the
    soloist's): their tricks go to the side either way, so their points are the side's (sound for points,
    not for tricks: two such cards can fall in one trick).  On 150 Six-Bid solos and 150 hearts, forced
    and as bid, and 150 Schafkopf solos from the first card, each from an empty table, the nodes moved by
    0.12 % at most: the soloist nearly always holds the trumps above the defenders'.
    """
    nplayers = params[P_PLAYERS]
    everyone = h[0]  # (not 0: a constant handed to a kernel compiles it again, :func:`_unliteral`)
    for s in range(1, nplayers):
        everyone |= h[_ix(s)]
    mine = 0
    theirs = 0
    every = False
    for s in range(nplayers):
        kind = side[_ix(s)]
        if kind != MAX | COUNTED and kind != 0:
            continue
        if s == leader:
            k, pts = _cashes(h, leader, nplayers, everyone, rules)
        else:
            k, pts = _sure_cards(h[_ix(s)], everyone & ~h[_ix(s)], rules)
        if s == leader and k == _count(h[_ix(s)]):
            every = True
        if kind == 0:
            theirs += pts + k * params[P_TRICK_BONUS]
        else:
            mine += pts + k * params[P_TRICK_BONUS]
    return mine, theirs, every


@inline
def _ducker(side: Int64s, nplayers: int) -> int:
    """The seat that wants to take no trick (it maximises what the others take, and they all count),
    or -1: a misère's soloist."""
    seat = -1
    for s in range(nplayers):
        if side[_ix(s)] == MAX:
            seat = s
        elif not side[_ix(s)] & COUNTED:
            return -1
    return seat


@inline
def _ducks_every_trick(h: Int64s, seat: int, nplayers: int, rules: Int64s) -> bool:
    """Whether ``seat``, never on lead, can play under every trick to the end (``P_PLAIN`` rules).

    The test, suit by suit: each of its cards has at least as many of its own cards of the suit
    below it as the other hands hold below it.  Why that suffices: only the others lead, so a
    suit is led only by a card of theirs, and the seat plays its highest card below that lead
    (one exists: its lowest card has none of theirs below it) and, void, discards the highest
    card of a suit.  Each of those keeps the test true (each card of its own above the one it
    played lost one of its own below it, and one of theirs below it went too, the lead: none of
    its own lies between the two), so the seat always has a card under the lead, and the lead
    beats it.  It is the null game's "safe suit" of Skat.  Cards are numbered strongest first
    within a suit (the rules' ``P_PLAIN`` says so)."""
    mine = h[_ix(seat)]
    theirs = 0
    for s in range(nplayers):
        if s != seat:
            theirs |= h[_ix(s)]
    m = mine
    while m:
        suit = rules[SUIT, _ix(low_bit(m))]
        m &= ~suit
        a = mine & suit
        b = theirs & suit
        if not b:
            continue
        # strongest first: below a card of the seat's lie its cards still to come, and theirs
        left_mine = _count(a)
        left_theirs = _count(b)
        x = a | b
        while x and left_mine:
            c = low_bit(x)
            x &= x - 1
            if a >> c & 1:
                left_mine -= 1
                if left_mine < left_theirs:
                    return False
            else:
                left_theirs -= 1
    return True


@inline
def _bounds(h: Int64s, trick: Int64s, tb: int, leader: int, past: int, rules: Int64s, side: Int64s,
            params: Int64s) -> tuple[int, int]:
    """What the cards alone bound the value of a trick start to: nothing above what is left, less what
    the other side takes for sure, nothing below what the side takes for sure (:func:`_sure`); all
    that is left when a seat that wants no trick can duck every one (:func:`_ducks_every_trick`); in
    ``LOWEST`` mode, :func:`_lowest_bounds`.

    Why the ducking test: a misère the soloist can save is proved by searching every way the others
    can try to give him a trick, and without it that took a million nodes and more on the hardest
    deals.  200 Six-Bid misères as the easy players bid them, from the first card: 1.2 / 118 ms
    median / p99 before, 0.1 / 10 ms with it (``bench_solver_sixbid.py speed --as-bid``); on those
    and 200 forced misères and spreads, 30.8 M nodes before and 4.2 M with it, every value the same,
    each card's at the first trick too."""
    if params[P_MODE] != SUM:
        left = points_of(h[0] | h[1] | h[2], rules, params[P_CARDS]) + params[P_EXTRA]
        return _lowest_bounds(past, h, left, side, rules, params)
    most = _most(h, trick, tb, 0, rules, params)
    if params[P_PLAIN]:
        ducker = _ducker(side, params[P_PLAYERS])
        if ducker >= 0 and ducker != leader and _ducks_every_trick(h, ducker, params[P_PLAYERS], rules):
            return most, most  # he takes none: the others take all
    mine, theirs, every = _sure(h, leader, rules, side, params)
    kind = side[_ix(leader)]
    if every and kind == MAX | COUNTED:  # the leader's side takes all that is left
        return most, most
    if every and kind == 0:
        return 0, 0
    return mine, most - theirs  # what the other side takes for sure is lost to the count


#: the bits of a ``LOWEST`` key's second word that a dominance entry does not compare: the seats'
#: points so far (:func:`_dominance_probe`)
POINTS_UNKEYED = ~(((1 << PAST_PLACE) - 1) << 32)


@inline
def _second_keys(k0: int, k1: int, k2: int, rules: Int64s, mode: int) -> tuple[int, int, int]:
    """The key words in the table's second half of the trick start keyed ``k0 k1 k2``: its quasi
    keys (:func:`_quasi_keys`), or in ``LOWEST`` mode its keys without the points so far
    (:func:`_dominance_probe`)."""
    if mode == SUM:
        return _quasi_keys(k0, k1, k2, rules)
    return k0, k1 & POINTS_UNKEYED, k2


@inline
def _second_find(f: int, q0: int, q1: int, q2: int, mask: int, qbucket: int, tt: Int64s, frames: Int64s) -> int:
    """The row of the entry keyed ``q0 q1 q2`` (compared under ``mask``, :func:`_find`) in the bucket
    ``qbucket`` of the table's second half (-1: none); the key and its bucket go to ``frames[f]``,
    where :func:`_close` writes the trick start's own entry."""
    frame = frames[_ix(f)]
    frame[F_Q0] = q0
    frame[F_Q1] = q1
    frame[F_Q2] = q2
    frame[F_QSLOT] = qbucket
    return _find(tt, qbucket, q0, q1, q2, mask)


@inline
def _quasi_probe(f: int, k0: int, k1: int, k2: int, q0: int, q1: int, q2: int, qbucket: int, tt: Int64s,
                 frames: Int64s, rules: Int64s) -> tuple[int, int, int]:
    """The bounds the quasi entry of the trick start keyed ``k0 k1 k2`` (its quasi keys ``q0 q1 q2``, in
    the bucket ``qbucket``) gives it, widened by the slack (:func:`_slack`; ``0, INF`` when there is
    none), and its best move as a card of the canonical hands (-1: none).  The row for the trick
    start's own quasi entry goes to ``frames[f]``."""
    qslot = _second_find(f, q0, q1, q2, KEY_BITS, qbucket, tt, frames)
    if qslot < 0:
        return 0, INF, -1
    now = (k0 | k1 | k2) & HANDS
    up, down = _slack(now, _cards_of(tt, qslot), rules)
    word = tt[_ix(qslot), 3]
    return max((word & _BOUND) - down, 0), ((word >> 21) & _BOUND) + up, _actual_card((word >> 42) & 255, now, rules,
                                                                                         QRUN)


@inline
def _dominance_probe(f: int, k0: int, k1: int, k2: int, q0: int, q1: int, q2: int, qbucket: int, tt: Int64s,
                     frames: Int64s, side: Int64s, params: Int64s) -> tuple[int, int, int]:
    """In ``LOWEST`` mode, the bounds an entry of the same hands and history but for the seats' points
    so far (keyed ``q0 q1 q2``, :func:`_second_keys`, in the bucket ``qbucket``) gives the trick start
    keyed ``k0 k1 k2``, and its best move as a card of the canonical hands (-1: none); the row for the
    trick start's own entry goes to ``frames[f]``.

    Why it bounds: fewer points for the seat that maximises and more for the others can only help
    him, deal by deal's end (with the same tricks to the same seats, a fewest that was his stays
    his, one that was another's may become his, and the no-trick and every-trick rules see only
    the tricks), so the value is at least the entry's lower bound when this trick start's points
    are so against the entry's, and at most its upper bound when they are the other way round.
    The histories that reach one set of hands differ mostly in who took which points, so one
    entry stands for many of them: the history's counterpart of the quasi entries of ``SUM``.

    Whatever the points, the entry bounds this trick start at the two ends the tricks alone settle
    (:func:`_trick_ends`): the root's "no trick" is his for both or for neither, and so is "every
    trick".  Why: a probe such as "can the root take no trick?" is the same question whoever of
    the others took which points, and with the points-dominance alone a history where one of them
    has more and the other less found nothing.  300 Ramsch deals from the first card, the bench's
    seat to lead, each from an empty table: 46.7 M nodes against 54.1 M, the slowest deal 4.8 M
    against 11.0 M, the 99th percentile 3.68 M against 3.77 M; 8.5 s of CPU against 10.8, paired
    deal by deal, the same values.  Not kept: the points compared by the root's lead over each other
    seat and not seat by seat (sound but for the 40-40-40 rule's dealer, so only one way round for
    each), 45.9 M nodes on the same deals, the 99th percentile 3.54 M: too little for a subtler proof.
    Nor the entries keyed on who has a trick and not on the order of the latest tricks (the order
    kept in the entry for the points-dominance), 46.9 M."""
    qslot = _second_find(f, q0, q1, q2, POINTS_UNKEYED, qbucket, tt, frames)
    if qslot < 0:
        return 0, INF, -1
    mine = k1 >> 32
    theirs = tt[_ix(qslot), 1] >> 32
    better = True  # this trick start's points are at least as good for the maximiser as the entry's
    worse = True
    for s in range(3):
        d = _points_so_far(mine, s) - _points_so_far(theirs, s)
        if side[_ix(s)] & MAX:
            d = -d
        if d < 0:
            better = False
        elif d > 0:
            worse = False
    word = tt[_ix(qslot), 3]
    elo = word & _BOUND
    ehi = (word >> 21) & _BOUND
    lo = elo if better else 0
    hi = ehi if worse else INF
    top, below_top, bottom, above_bottom = _trick_ends(params)
    if elo >= top:
        lo = top
    elif ehi < top:
        hi = min(hi, below_top)
    if ehi <= bottom:
        hi = bottom
    elif elo > bottom:
        lo = max(lo, above_bottom)
    return lo, hi, (word >> 42) & 255


@inline
def _trick_ends(params: Int64s) -> tuple[int, int, int, int]:
    """The ``LOWEST`` values that the tricks alone settle, whatever the points: ``(top, below_top, bottom,
    above_bottom)``.  ``top``: the root takes no trick and each other seat takes some (he scores
    ``P_SCORE_NONE``), his best end; ``bottom``: he takes every trick (``P_SCORE_ALL``), his worst.
    ``below_top`` and ``above_bottom``: the highest and the lowest value of every other end (another
    seat's every trick or no trick, anybody's fewest points), so a position that cannot reach ``top``
    is worth at most ``below_top``.  ``top`` is ``INF`` (and ``bottom`` -1) when another end reaches
    its value: then the points may decide it, and :func:`_dominance_probe` takes nothing from it."""
    span = _lowest_span(params)
    few = params[P_SCORE_FEWEST]
    every = params[P_SCORE_ALL]
    none = params[P_SCORE_NONE]
    top = span + 2 * none
    bottom = span + 2 * every
    below_top = max(bottom, span + 2 * few, span - every, span - none, span - few)
    above_bottom = min(top, span + 2 * few, span - every, span - none, span - few)
    if below_top >= top:
        top = INF
    if above_bottom <= bottom:
        bottom = -1
        above_bottom = 0
    return top, below_top, bottom, above_bottom


@inline
def _cards_each(h: Int64s, nplayers: int) -> int:
    """How many cards every hand holds (-1 when they do not all hold as many)."""
    k = _count(h[0])
    for s in range(1, nplayers):
        if _count(h[_ix(s)]) != k:
            return -1
    return k


@kernel
def _last_trick_value(h: Int64s, trick: Int64s, tb: int, leader: int, past: int, rules: Int64s, power: Int64s,
                      side: Int64s, params: Int64s) -> int:
    """:func:`_last_trick` for the search, which seldom meets a last trick's start (:func:`_two_tricks_value`
    plays them): a kernel of its own, so that the search's compile does not grow (see :func:`_lowest_bounds`)."""
    return _last_trick(h, trick, tb, leader, past, rules, power, side, params)


@inline
def _last_trick(h: Int64s, trick: Int64s, tb: int, leader: int, past: int, rules: Int64s, power: Int64s,
                side: Int64s, params: Int64s) -> int:
    """The value of the last trick's start: every card is forced, so the trick is played here, in
    ``trick[tb:]``, and not searched.  Why: the three nodes below it, each with its own entry and
    bounds, cost more than the trick.

    Why inlined into :func:`_two_tricks_value`, which plays a last trick for each way of the one
    before it: numba hands a kernel each array as seven or nine words (its pointer, shape, strides
    and the like), and a call with six arrays pushed 44 words onto the stack, more than the trick
    costs.  Inlined there, 300 Ramsch deals from the first card took 16 % less CPU and 400 forced
    Six-Bid solos and hearts 10 % less (the same nodes and values, paired deal by deal, each from an
    empty table); inlining :func:`_two_tricks_value` into the search as well took no less, and
    twice the first-run compile.  :func:`_two_tricks_value` has one call of it for two hands and three,
    so one copy: with a call for each, the first-run compile took 150 s against 117 before the
    inlining; with one, 126 s, and the solves 5 % (Six-Bid) and 8 % (Ramsch) less CPU besides."""
    nplayers = params[P_PLAYERS]
    pts = 0
    for i in range(nplayers):
        c = low_bit(h[_ix(_seat(leader + i, nplayers))])
        trick[_ix(tb + i)] = c
        pts += rules[PTS, _ix(c)]
    winner = _seat(leader + trick_winner(trick, tb, nplayers, power, params[P_CARDS]), nplayers)
    if params[P_MODE] == LOWEST:
        return _lowest_leaf(_took(past, winner, pts), winner, side, params)
    if side[_ix(winner)] & COUNTED:
        return pts + params[P_TRICK_BONUS] + params[P_LAST_BONUS]
    return 0


@inline
def _first_of_two_done(h: Int64s, trick: Int64s, tb: int, leader: int, past: int, rules: Int64s, power: Int64s,
                       side: Int64s, params: Int64s) -> int:
    """The value of the last two tricks once the first, ``trick[tb:]`` led by ``leader``, is complete
    (and out of the hands ``h``): its gain, and the last trick played out in ``trick[tb + 3:]``."""
    winner, gain = _gain(trick, tb, leader, h, rules, power, side, params)
    return gain + _last_trick(h, trick, tb + 3, winner, _past_after(past, trick, tb, winner, rules, params),
                              rules, power, side, params)


@inline
def _back(maximises: bool, v: int, best: int, alpha: int, beta: int) -> tuple[int, int, int]:
    """A child's value ``v`` taken into its parent's best value and window ``(alpha, beta)``."""
    if maximises:
        return max(best, v), max(alpha, v), beta
    return min(best, v), alpha, min(beta, v)


@kernel
def _two_tricks_value(h: Int64s, trick: Int64s, tb: int, leader: int, past: int, alpha: int, beta: int,
                      rules: Int64s, power: Int64s, side: Int64s, params: Int64s) -> int:
    """The value of a trick start with two cards in every hand, fail-soft in ``(alpha, beta)``: plain
    alpha-beta over the first trick's ways (eight at most), each followed by the forced last trick.

    Why not the search: each of these trick starts cost it a table probe, the bounds and a dozen
    nodes, and they were most of its work (a hard Ramsch deal: 2 of its 3.4 million trick starts,
    8 of its 11.8 million nodes).  Played out here, 100 Ramsch deals from the first card took 13 %
    less CPU; Six-Bid's and Schafkopf's solos about the same.  No entry goes to the table for them."""
    nplayers = params[P_PLAYERS]
    s1 = _seat(leader + 1, nplayers)
    s2 = _seat(leader + 2, nplayers)  # (the leader again in a two-hand game, which plays no third card)
    three = nplayers == 3
    hand0 = h[_ix(leader)]
    hand1 = h[_ix(s1)]
    hand2 = h[_ix(s2)]
    best0 = -INF if side[_ix(leader)] & MAX else INF
    m0 = hand0
    while m0 and alpha < beta:
        a = low_bit(m0)
        m0 &= m0 - 1
        trick[_ix(tb)] = a
        h[_ix(leader)] = hand0 ^ (1 << a)
        best1 = -INF if side[_ix(s1)] & MAX else INF
        a1 = alpha
        b1 = beta
        m1 = legal(hand1, a, rules)
        while m1 and a1 < b1:
            b = low_bit(m1)
            m1 &= m1 - 1
            trick[_ix(tb + 1)] = b
            h[_ix(s1)] = hand1 ^ (1 << b)
            v = -INF if side[_ix(s2)] & MAX else INF
            a2 = a1
            b2 = b1
            m2 = legal(hand2, a, rules) if three else 1  # two hands: one pass, and no third card
            while m2:
                c = low_bit(m2)
                m2 &= m2 - 1
                if three:
                    trick[_ix(tb + 2)] = c
                    h[_ix(s2)] = hand2 ^ (1 << c)
                x = _first_of_two_done(h, trick, tb, leader, past, rules, power, side, params)
                if three:
                    h[_ix(s2)] = hand2
                v, a2, b2 = _back(side[_ix(s2)] & MAX != 0, x, v, a2, b2)  # the one value, with two hands
                if a2 >= b2:
                    break
            h[_ix(s1)] = hand1
            best1, a1, b1 = _back(side[_ix(s1)] & MAX != 0, v, best1, a1, b1)
        h[_ix(leader)] = hand0
        best0, alpha, beta = _back(side[_ix(leader)] & MAX != 0, best1, best0, alpha, beta)
    return best0


@inline
def _enter(f: int, h: Int64s, trick: Int64s, rules: Int64s, power: Int64s, side: Int64s, params: Int64s,
           tt: Int64s, buf: Int64s, frames: Int64s, stats: Int64s) -> tuple[int, bool]:
    """Open the node of ``frames[f]`` (its trick, leader and window are set): ``(value, True)`` when
    it is settled at once (no cards left, a table hit, a bound), else its moves go to ``buf``."""
    frame = frames[_ix(f)]
    nplayers = params[P_PLAYERS]
    ncards = params[P_CARDS]
    tb = frame[F_TB]
    ncur = frame[F_NCUR]
    leader = frame[F_LEADER]
    alpha = frame[F_ALPHA]
    beta = frame[F_BETA]
    mode = params[P_MODE]
    if ncur == 0 and h[0] == 0 and h[1] == 0 and h[2] == 0:
        if mode == LOWEST:
            return _lowest_leaf(frame[F_PAST], leader, side, params), True
        return 0, True
    stats[S_NODES] += 1
    each = _cards_each(h, nplayers) if ncur == 0 else -1
    if each == 1:
        return _last_trick_value(h, trick, tb, leader, frame[F_PAST], rules, power, side, params), True
    if each == 2:
        return _two_tricks_value(h, trick, tb, leader, frame[F_PAST], alpha, beta, rules, power, side,
                                 params), True
    first = -1
    slot = -1
    lo = 0
    hi = INF
    frame[F_A0] = alpha
    frame[F_B0] = beta
    if ncur == 0:
        k0, k1, k2 = _keys(h, leader, frame[F_PAST], params, rules)
        frame[F_K0] = k0
        frame[F_K1] = k1
        frame[F_K2] = k2
        half = tt.shape[0] >> 1
        bucket = _slot(k0, k1, k2, half) & ~1
        _prefetch(tt, bucket)  # both rows on their way before the first is read (``jit.prefetch_op``)
        q0, q1, q2 = _second_keys(k0, k1, k2, rules, mode)
        qbucket = half + (_slot(q0, q1, q2, half) & ~1)
        _prefetch(tt, qbucket)
        # what the cards alone bound, worked out while the rows are on their way: a node it settles
        # waits for no row at all (600 forced Six-Bid solos and hearts and 300 Ramsches from the first
        # card, paired from empty tables, against the bounds only where no exact entry was found: 3 % and
        # 11 % less CPU, 0.7 % and 0.1 % more nodes, the same values)
        blo, bhi = _bounds(h, trick, tb, leader, frame[F_PAST], rules, side, params)
        if bhi <= alpha:
            return bhi, True
        if blo >= beta:
            return blo, True
        slot = _find(tt, bucket, k0, k1, k2, -1)
        frame[F_QSLOT] = -1
        if slot >= 0:
            word = tt[_ix(slot), 3]
            lo = word & _BOUND
            hi = (word >> 21) & _BOUND
            first = _actual_card((word >> 42) & 255, h[0] | h[1] | h[2], rules, RUN)
            if lo >= beta:
                return lo, True
            if hi <= alpha:
                return hi, True
        # a quasi or dominance entry (on an exact one too: it may be of a search with another window)
        if mode == SUM:
            qlo, qhi, qmove = _quasi_probe(f, k0, k1, k2, q0, q1, q2, qbucket, tt, frames, rules)
        else:
            qlo, qhi, qmove = _dominance_probe(f, k0, k1, k2, q0, q1, q2, qbucket, tt, frames, side, params)
        lo = max(lo, qlo)
        hi = min(hi, qhi)
        if first < 0 and qmove >= 0:
            first = _actual_card(qmove, h[0] | h[1] | h[2], rules, RUN)
        if hi <= alpha:
            return hi, True
        if lo >= beta:
            return lo, True
        if slot < 0:  # no exact entry: what the cards alone bound (the quasi entry's bounds may be tighter)
            slot = bucket
            lo = max(lo, blo)
            hi = min(hi, bhi)
            if hi <= alpha:
                return hi, True
            if lo >= beta:
                return lo, True
        if lo >= hi:  # the value itself, inside the window: only a wide window gets here (a null one has no inside)
            return lo, True
        if lo > alpha:
            frame[F_ALPHA] = lo
        if hi < beta:
            frame[F_BETA] = hi
    mover = _seat(leader + ncur, nplayers)
    hand = h[_ix(mover)]
    moves = legal(hand, trick[_ix(tb)] if ncur > 0 else -1, rules)
    others = (h[0] | h[1] | h[2]) & ~hand
    for i in range(ncur):
        others |= 1 << trick[_ix(tb + i)]
    at = f * 32
    n = legal_moves(moves, others, rules, ncards, buf[at:at + 16])
    if n > 1:
        n = _order(buf, at, n, first, others, trick, tb, ncur, leader, mover, h, rules, power, side, nplayers,
                   ncards, mode == LOWEST, params[P_TAKE_WEAKEST] != 0)
    frame[F_LO] = lo
    frame[F_HI] = hi
    frame[F_SLOT] = slot
    frame[F_MOVER] = mover
    frame[F_HAND] = hand
    frame[F_N] = n
    frame[F_I] = 0
    frame[F_BEST] = -INF if side[_ix(mover)] & MAX else INF
    frame[F_MOVE] = buf[_ix(at)]
    return 0, False


@inline
def _close(f: int, h: Int64s, tt: Int64s, frames: Int64s, rules: Int64s, params: Int64s, side: Int64s,
           buf: Int64s) -> int:
    """The value of ``frames[f]``'s node once its moves are done; a trick start's goes to the table
    (its best move as the canonical hands' card, :func:`_canonical_card`).

    Where every move failed for the mover (none reached his end of the window), the move kept is
    the one tried first (the table's or the order's), not the one whose fail-soft bound was best:
    that bound says which move failed least, not which is best, and a table move that leads the
    next search astray costs it a whole subtree.  Whole deals from the first card, nodes against
    keeping the best bound's move: 240 Six-Bid pip deals 64.3 M against 68.2 M, 300 Schafkopf
    solos 10.08 M against 10.19 M, 300 Ramsches 57.09 M either way (keeping no move at all:
    65.1 M, 10.15 M, 57.11 M; the quasi entries' moves not used at all: 66.9 M, 10.40 M)."""
    frame = frames[_ix(f)]
    best = frame[F_BEST]
    slot = frame[F_SLOT]
    if slot >= 0:
        lo = frame[F_LO]
        hi = frame[F_HI]
        if best <= frame[F_A0]:
            hi = min(hi, best)
        elif best >= frame[F_B0]:
            lo = max(lo, best)
        else:
            lo = best
            hi = best
        k0 = frame[F_K0]
        k1 = frame[F_K1]
        k2 = frame[F_K2]
        everyone = h[0] | h[1] | h[2]
        cards = _count(everyone)
        failed = best <= frame[F_A0] if side[_ix(frame[F_MOVER])] & MAX else best >= frame[F_B0]
        move = buf[_ix(f * 32)] if failed else frame[F_MOVE]
        move = _canonical_card(move, everyone, rules, RUN)
        _put(tt, slot & ~1, k0, k1, k2, -1, k1, k2, _entry(lo, hi, move, cards))
        qbucket = frame[F_QSLOT]
        if qbucket >= 0 and params[P_MODE] != SUM:  # and its dominance entry, in place of any other of its key
            _put(tt, qbucket, frame[F_Q0], frame[F_Q1], frame[F_Q2], POINTS_UNKEYED, k1, k2,
                 _entry(lo, hi, move, cards))
        elif qbucket >= 0:  # and its quasi entry, in place of any other of its quasi key
            q0 = frame[F_Q0]
            q1 = frame[F_Q1]
            q2 = frame[F_Q2]
            now = (k0 | k1 | k2) & HANDS
            w1, w2 = _with_cards(q1, q2, now)
            _put(tt, qbucket, q0, q1, q2, KEY_BITS, w1, w2, _entry(lo, hi, _canonical_card(move, now, rules, QRUN),
                                                                      cards))
    return best


@kernel
def search(h: Int64s, trick: Int64s, tb: int, ncur: int, leader: int, alpha: int, beta: int,
           rules: Int64s, power: Int64s, side: Int64s, params: Int64s, tt: Int64s, buf: Int64s,
           frames: Int64s, stats: Int64s) -> int:
    """The side's points from here (the trick's cards included), fail-soft in ``(alpha, beta)``.

    The current trick is ``trick[tb:tb + ncur]``; a finished trick's successor starts at
    ``tb + 3``, so nothing is copied.  ``buf`` holds each ply's moves and their keys (32 a ply);
    ``tt`` is the transposition table (:func:`new_table`).
    Why a loop over an explicit stack (``frames``) and not recursion: numba's on-disk cache
    cannot hold a recursive function (numba issue 6061: it crashes when loaded).
    Why no enhanced transposition cutoff (before a trick's last card is searched, look up each
    card's next trick start in the table and cut at once on a bound that settles the node):
    measured on 200 Six-Bid solos from the first card, it saved 5.8 % of the nodes (48.2 M against
    51.1 M) but cost more in keys than it saved, 7.8 s of CPU against 6.2 s (three runs each,
    alternated).  Tried only where six or more tricks were left after the trick, it saved 2 % of
    those nodes; on 300 Ramsch deals, 3 % of the median deal's and none of the 99th percentile's.
    Why not a search compiled for each number of hands and scoring mode, as constants: with three hands
    and ``SUM`` fixed, 200 Six-Bid solos and hearts (forced and as bid) and 200 Schafkopf solos from the
    first card took about a tenth less CPU (23.6 s against 26.3, the same nodes), but each variant is a
    whole compile of the search (50 s here on a first run), and three games need three.
    Why :func:`_enter` is called at two places, the root's and each child's, when one would halve the
    first-run compile (numba copies an inlined function's whole body at each call, and the search's
    compile took 60 s against 133): with one call (the root entered as the children are, by the loop),
    400 forced Six-Bid solos and hearts took 5-6 % more CPU and 300 Ramsches 5-9 % more, paired.

    A budget: with ``stats[S_LIMIT]`` above 0, the search stops as soon as ``stats[S_NODES]``
    passes it, returns -1 and sets ``stats[S_CUT]``; the callers below stop too.  Sound: a table
    entry is written only when its node is done, so every entry it left is as exact as ever.
    """
    nplayers = params[P_PLAYERS]
    f = 0
    frame = frames[0]
    frame[F_TB] = tb
    frame[F_NCUR] = ncur
    frame[F_LEADER] = leader
    frame[F_ALPHA] = alpha
    frame[F_BETA] = beta
    frame[F_GAIN] = 0
    frame[F_PAST] = params[P_PAST]
    value, settled = _enter(0, h, trick, rules, power, side, params, tt, buf, frames, stats)
    while True:
        if not settled:
            i = frame[F_I]
            if i < frame[F_N]:  # the next move of this node: open its child
                frame[F_I] = i + 1
                c = buf[_ix(f * 32 + i)]
                mover = frame[F_MOVER]
                h[_ix(mover)] = frame[F_HAND] ^ (1 << c)
                ftb = frame[F_TB]
                fn = frame[F_NCUR]
                trick[_ix(ftb + fn)] = c
                g = f + 1
                child = frames[_ix(g)]
                if fn + 1 == nplayers:
                    winner, gain = _gain(trick, ftb, frame[F_LEADER], h, rules, power, side, params)
                    child[F_PAST] = _past_after(frame[F_PAST], trick, ftb, winner, rules, params)
                    child[F_TB] = ftb + 3
                    child[F_NCUR] = 0
                    child[F_LEADER] = winner
                else:
                    gain = 0
                    child[F_PAST] = frame[F_PAST]
                    child[F_TB] = ftb
                    child[F_NCUR] = fn + 1
                    child[F_LEADER] = frame[F_LEADER]
                child[F_ALPHA] = frame[F_ALPHA] - gain
                child[F_BETA] = frame[F_BETA] - gain
                child[F_GAIN] = gain
                f = g
                frame = child
                value, settled = _enter(f, h, trick, rules, power, side, params, tt, buf, frames, stats)
                if stats[S_LIMIT] and stats[S_NODES] > stats[S_LIMIT]:  # over its budget: stop, store nothing
                    stats[S_CUT] = 1
                    return -1
                continue
            value = _close(f, h, tt, frames, rules, params, side, buf)
        # ``value`` is frame f's: hand it to its parent
        if f == 0:
            return value
        v = frame[F_GAIN] + value
        f -= 1
        frame = frames[_ix(f)]
        mover = frame[F_MOVER]
        h[_ix(mover)] = frame[F_HAND]
        c = buf[_ix(f * 32 + frame[F_I] - 1)]
        settled = False
        if side[_ix(mover)] & MAX:
            if v > frame[F_BEST]:
                frame[F_BEST] = v
                frame[F_MOVE] = c
                if v > frame[F_ALPHA]:
                    frame[F_ALPHA] = v
        elif v < frame[F_BEST]:
            frame[F_BEST] = v
            frame[F_MOVE] = c
            if v < frame[F_BETA]:
                frame[F_BETA] = v
        if frame[F_ALPHA] >= frame[F_BETA]:
            frame[F_I] = frame[F_N]  # cut off: no more moves here


@kernel
def exact(h: Int64s, trick: Int64s, tb: int, ncur: int, leader: int, guess: int,
          rules: Int64s, power: Int64s, side: Int64s, params: Int64s, tt: Int64s, buf: Int64s,
          frames: Int64s, stats: Int64s) -> int:
    """The exact value by null-window searches: the first one at ``guess``, then each at the middle
    of what is still possible.  Why not MTD(f)'s step to the last fail-soft bound: card points
    come in small steps, so MTD(f) took 15 to 40 searches a deal on Clobby; halving takes 8.  Nor a wider
    window once the first search has said on which side of ``guess`` the value lies: on 200 Six-Bid hearts
    as the easy players bid them, from the first card and an empty table, one search over the rest of that side took
    53.1 M nodes and an aspiration window (the 13 pips past the first search's bound, widened by 12 each time
    it failed) 52.2 M, against 44.6 M by halving; one search with the whole window, 55.6 M."""
    lo = 0
    hi = _most(h, trick, tb, ncur, rules, params)
    beta = min(max(guess, lo + 1), hi)
    while lo < hi:
        g = search(h, trick, tb, ncur, leader, beta - 1, beta, rules, power, side, params, tt, buf, frames, stats)
        if stats[S_CUT]:
            return -1
        if g < beta:
            hi = g
        else:
            lo = g
        beta = (lo + hi + 1) // 2
    return lo


@kernel
def at_least(h: Int64s, trick: Int64s, tb: int, ncur: int, leader: int, target: int,
             rules: Int64s, power: Int64s, side: Int64s, params: Int64s, tt: Int64s, buf: Int64s,
             frames: Int64s, stats: Int64s) -> bool:
    """Whether the side takes at least ``target`` from here: one null-window search."""
    return search(h, trick, tb, ncur, leader, target - 1, target, rules, power, side, params,
                  tt, buf, frames, stats) >= target


@kernel
def move_values(h: Int64s, trick: Int64s, ncur: int, leader: int, moves: Int64s, nmoves: int, need: int,
                out: Int64s, rules: Int64s, power: Int64s, side: Int64s, params: Int64s, tt: Int64s, buf: Int64s,
                frames: Int64s, stats: Int64s) -> None:
    """``out[i]``: the side's points from here (the trick's cards included) after ``moves[i]``.

    The trick so far is ``trick[:ncur]``.  ``need`` below 0 (``EXACT``): each value is exact, and
    each move's value seeds the next one's guess.  ``need`` 0 or more: each value comes from one
    null-window search at ``need`` and is only a bound, at least ``need`` exactly when the side
    reaches it after that move.  Why both: a contract paid on a threshold (Six-Bid's guarantee and
    call, "take no trick") is settled by the bound, far more cheaply than by the value.
    """
    nplayers = params[P_PLAYERS]
    mover = (leader + ncur) % nplayers
    hand = h[_ix(mover)]
    guess = 0
    for i in range(nmoves):
        c = moves[_ix(i)]
        h[_ix(mover)] = hand ^ (1 << c)
        trick[_ix(ncur)] = c
        if ncur + 1 == nplayers:
            winner, gain = _gain(trick, 0, leader, h, rules, power, side, params)
            past = params[P_PAST]
            params[P_PAST] = _past_after(past, trick, 0, winner, rules, params)
            rest = EXACT if need < 0 else max(need - gain, 0)
            out[_ix(i)] = gain + _after_move(h, trick, 3, 0, winner, rest, guess - gain, rules, power, side, params, tt,
                                        buf, frames, stats)
            params[P_PAST] = past
        else:
            out[_ix(i)] = _after_move(h, trick, 0, ncur + 1, leader, need, guess, rules, power, side, params, tt, buf,
                                 frames, stats)
        if stats[S_CUT]:
            return
        guess = out[_ix(i)]
        h[_ix(mover)] = hand


@inline
def _after_move(h: Int64s, trick: Int64s, tb: int, ncur: int, leader: int, need: int, guess: int,
                rules: Int64s, power: Int64s, side: Int64s, params: Int64s, tt: Int64s, buf: Int64s,
                frames: Int64s, stats: Int64s) -> int:
    """One child of :func:`move_values`: its exact value (``need`` below 0), or a bound at ``need``.
    :func:`move_values` calls it with constants, which go on to the kernels as ``int64`` (:func:`_unliteral`)."""
    start, played = _unliteral(tb), _unliteral(ncur)
    if need < 0:
        return exact(h, trick, start, played, leader, _unliteral(guess), rules, power, side, params, tt, buf, frames,
                     stats)
    if need == 0:  # reached whatever follows
        return 0
    return search(h, trick, start, played, leader, need - 1, need, rules, power, side, params, tt, buf, frames, stats)
