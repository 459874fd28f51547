"""The compiled trick kernel (``parlour.search``): exact against plain minimax, alike compiled and as Python.

Why Clobby's rules drive these tests: two hands make a memoised minimax over whole deals
affordable, and its tout-atout is the one contract where card powers cross suits (the
equivalent-card test's hardest case); Six-Bid's rules give three hands, where who
maximises and whose tricks count can differ (a misère).  The games' own tests check their solvers against
their engines; these check the kernel itself.
"""

from __future__ import annotations

import ast
import os
import pickle
import random
import shutil
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from parlour.games.clobby import tables
from parlour.games.clobby.rules import PLAIN_STRENGTH, POINTS, SANS, TOUT, TRUMP_STRENGTH, legal_mask
from parlour.games.sixbid import tables as sixbid_tables
from parlour.games.sixbid.rules import INDEX as SIXBID_INDEX
from parlour.games.sixbid.rules import NO_TRUMP as SIXBID_NO_TRUMP
from parlour.games.sixbid.rules import PIP as SIXBID_PIP
from parlour.games.sixbid.rules import SUITS as SIXBID_SUITS
from parlour.search import jit, tricks, warm
from parlour.search.solver import SearchCut, TrickSolver, budget
from parlour.search.trick_rules import TrickRules


def _follower_wins(mode: int, a: int, b: int) -> bool:
    if mode == TOUT:
        return TRUMP_STRENGTH[b & 7] > TRUMP_STRENGTH[a & 7]
    if a >> 3 == b >> 3:
        strength = TRUMP_STRENGTH if a >> 3 == mode else PLAIN_STRENGTH
        return strength[b & 7] > strength[a & 7]
    return b >> 3 == mode


def minimax(mode: int, hands: tuple[int, int], leader: int) -> int:
    """Seat 0's card points and last 10 from a trick start, by plain memoised minimax."""
    pts = POINTS[mode]

    @cache
    def value(h0: int, h1: int, lead: int) -> int:
        if not h0:
            return 0
        hs = (h0, h1)
        outcomes = []
        for a in range(32):
            if not hs[lead] >> a & 1:
                continue
            replies = []
            follow = legal_mask(mode, hs[1 - lead], a)
            for b in range(32):
                if not follow >> b & 1:
                    continue
                won = 1 - lead if _follower_wins(mode, a, b) else lead
                nh = list(hs)
                nh[lead] ^= 1 << a
                nh[1 - lead] ^= 1 << b
                gain = pts[a] + pts[b] + (10 if not nh[0] else 0)
                replies.append((gain if won == 0 else 0) + value(nh[0], nh[1], won))
            outcomes.append(min(replies) if lead == 0 else max(replies))
        return max(outcomes) if lead == 0 else min(outcomes)

    return value(hands[0], hands[1], leader)


def _deals(seed: int, count: int, size: int) -> list[tuple[int, tuple[int, int], int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        mode = rng.choice((0, 1, 2, 3, SANS, TOUT))
        cards = list(range(32))
        rng.shuffle(cards)
        hands = (sum(1 << c for c in cards[:size]), sum(1 << c for c in cards[size:2 * size]))
        out.append((mode, hands, rng.randrange(2)))
    return out


def test_the_kernel_equals_minimax_on_endgames_of_every_trump_mode() -> None:
    for mode, hands, leader in _deals(1, 240, 5):
        solver = TrickSolver(tables.trick_rules(mode), tables.objective(mode), [0], tt_bits=10)
        assert solver.exact(list(hands), leader) == minimax(mode, hands, leader), (mode, hands, leader)


def test_the_kernel_equals_minimax_on_whole_tout_atout_deals() -> None:
    """Nine tricks from the first card: where a card of another suit plays between two of a run."""
    for _, hands, leader in _deals(2, 3, 9):
        solver = TrickSolver(tables.trick_rules(TOUT), tables.objective(TOUT), [0])
        assert solver.exact(list(hands), leader) == minimax(TOUT, hands, leader)


def test_move_values_and_thresholds_agree_with_exact() -> None:
    for mode, hands, leader in _deals(3, 40, 6):
        solver = TrickSolver(tables.trick_rules(mode), tables.objective(mode), [0], tt_bits=12)
        cards = [c for c in range(32) if hands[leader] >> c & 1]
        values = solver.move_values(list(hands), leader, cards)
        best = solver.exact(list(hands), leader)
        assert (max(values) if leader == 0 else min(values)) == best
        assert solver.at_least(list(hands), leader, best)
        assert not solver.at_least(list(hands), leader, best + 1)
        for need in (best - 5, best, best + 1, max(values) + 1):  # each a bound on the right side of need
            bounds = solver.move_values(list(hands), leader, cards, need=need)
            assert [b >= need for b in bounds] == [v >= need for v in values], (mode, need)


def test_a_wide_window_gets_the_value_after_null_windows_on_one_table() -> None:
    """The kernel's search is fail-soft in any window, not only in the null ones its drivers use.
    After ``exact`` the table holds entries whose bounds met (``lo == hi``).  A wider window that met
    such an entry was once narrowed by it to nothing, and the node searched with that empty window
    returned a wrong value."""
    for mode, hands, leader in _deals(6, 40, 5):
        rules = tables.trick_rules(mode)
        kernel_rules, power, params = rules.arrays(tables.objective(mode))
        side = np.array([tricks.MAX | tricks.COUNTED, 0, 0], np.int64)
        h = np.array([rules.to_kernel(hands[0]), rules.to_kernel(hands[1]), 0], np.int64)
        trick = tricks.trick_array()
        tail = (kernel_rules, power, side, params, tricks.new_table(1 << 10), *tricks.work_arrays())
        want = minimax(mode, hands, leader)
        assert tricks.exact(h, trick, 0, 0, leader, 0, *tail) == want
        for alpha, beta in ((-1, 200), (want - 3, want + 3)):
            assert tricks.search(h, trick, 0, 0, leader, alpha, beta, *tail) == want, (mode, hands, leader, alpha)


def test_a_node_budget_stops_a_solve_and_leaves_the_table_exact() -> None:
    """Past its budget every kind of solve raises ``SearchCut``; what it left in the table is still exact
    (a later solve of the same deal, and of a larger budget, gives minimax's value); from the empty
    table a budget is met or missed the same every time, with the same nodes."""
    _, hands, leader = _deals(2, 1, 9)[0]
    right = minimax(TOUT, hands, leader)
    solver = TrickSolver(tables.trick_rules(TOUT), tables.objective(TOUT), [0])
    cards = [c for c in range(32) if hands[leader] >> c & 1]
    for solve in (lambda: solver.exact(list(hands), leader), lambda: solver.at_least(list(hands), leader, right),
                  lambda: solver.move_values(list(hands), leader, cards)):
        with pytest.raises(SearchCut, match="budget of 50 nodes"), budget(50):
            solve()
    assert solver.exact(list(hands), leader) == right
    spent = []
    for _ in range(2):
        before = solver.nodes
        with budget(10**9):
            assert solver.exact(list(hands), leader) == right
        spent.append(solver.nodes - before)
    assert spent[0] == spent[1] > 50
    with pytest.raises(SearchCut), budget(spent[0] - 1):
        solver.exact(list(hands), leader)
    with budget(spent[0]):
        assert solver.exact(list(hands), leader) == right


def _three_hand_minimax(rules: TrickRules, points: list[int], maximisers: set[int], counted: set[int],
                        hands: tuple[int, int, int], leader: int) -> int:
    """Plain minimax over ``rules`` with three hands: what ``counted`` take, ``maximisers`` maximising it."""

    @cache
    def value(h: tuple[int, int, int], lead: int, trick: tuple[int, ...]) -> int:
        mover = (lead + len(trick)) % 3
        hand = h[mover]
        if not hand:
            return 0
        follow = hand & rules.follow[trick[0]] if trick else 0
        moves = [c for c in range(rules.ncards) if (follow or hand) >> c & 1]
        results = []
        for c in moves:
            nh = list(h)
            nh[mover] ^= 1 << c
            t = (*trick, c)
            if len(t) < 3:
                results.append(value((nh[0], nh[1], nh[2]), lead, t))
                continue
            row = rules.power[t[0]]
            winner = (lead + max(range(3), key=lambda i: row[t[i]])) % 3
            gain = sum(points[x] for x in t) if winner in counted else 0
            results.append(gain + value((nh[0], nh[1], nh[2]), winner, ()))
        return max(results) if mover in maximisers else min(results)

    return value(hands, leader, ())


def test_three_hands_and_who_counts_apart_from_who_maximises() -> None:
    """Six-Bid's rules, four tricks a hand: the usual side (one seat, or two), and a misère's form
    (one seat maximises what the other two take), each against plain minimax."""
    rng = random.Random(5)
    for i in range(60):
        trump = rng.choice((0, 1, 2, 3, SIXBID_NO_TRUMP))
        rules = sixbid_tables.trick_rules(trump, low_leads=i % 2 == 1)
        cards = list(range(36))
        rng.shuffle(cards)
        hands = (sum(1 << c for c in cards[:4]), sum(1 << c for c in cards[4:8]), sum(1 << c for c in cards[8:12]))
        leader = rng.randrange(3)
        # a trick is worth one when tricks are counted: each of its three cards a third
        counts = ((sixbid_tables.PIPS, list(SIXBID_PIP), 1), (sixbid_tables.NO_TRICK, [1] * 36, 3))
        for objective, points, per in counts:
            for side, counted in (([0], None), ([1, 2], None), ([0], [1, 2])):
                solver = TrickSolver(rules, objective, side, tt_bits=10, counted=counted)
                want = _three_hand_minimax(rules, points, set(side), set(counted or side), hands, leader) // per
                assert solver.exact(list(hands), leader) == want, (trump, hands, leader, side, counted)


def _slid(hands: tuple[int, int, int], run: list[int], order: list[int], rng: random.Random) -> tuple[int, int, int]:
    """``hands`` with one card of ``run`` (kernel numbers, top first) swapped for a card of it that is out
    of play, with no card in play between the two: the same position but for that card's points."""
    everyone = hands[0] | hands[1] | hands[2]
    played = [k for k in run if everyone >> order[k] & 1]
    out = [k for k in run if not everyone >> order[k] & 1]
    c = rng.choice(played)
    near = [d for d in out if not any(min(c, d) < k < max(c, d) for k in played)]
    if not near:
        return hands
    d = rng.choice(near)
    swap = (1 << order[c]) | (1 << order[d])
    h0, h1, h2 = (h ^ swap if h >> order[c] & 1 else h for h in hands)
    return h0, h1, h2


def test_positions_alike_but_for_points_bound_each_other_by_their_difference() -> None:
    """Six-Bid's pips: positions that differ only in which cards of a suit are in play (a king where the
    other has a queen) share a quasi entry (``tricks._slack``).  Solved one after another on one table,
    each still gets minimax's value: an entry's bounds reach the next position only widened by the
    points that differ (taken as they are, the second of each pair would get the first's value)."""
    rng = random.Random(11)
    differed = 0
    for _ in range(30):
        trump = rng.choice((0, 1, 2, 3, SIXBID_NO_TRUMP))
        rules = sixbid_tables.trick_rules(trump)
        runs = rules.runs(sixbid_tables.PIPS, quasi=True)
        assert any(len({SIXBID_PIP[rules.order[k]] for k in run}) > 1 for run in runs)
        assert rules.runs(sixbid_tables.PIPS) != runs
        cards = list(range(36))
        rng.shuffle(cards)
        hands = (sum(1 << c for c in cards[:4]), sum(1 << c for c in cards[4:8]), sum(1 << c for c in cards[8:12]))
        leader = rng.randrange(3)
        solver = TrickSolver(rules, sixbid_tables.PIPS, [0], tt_bits=10)
        for _ in range(4):
            assert solver.exact(list(hands), leader) == _three_hand_minimax(rules, list(SIXBID_PIP), {0}, {0},
                                                                               hands, leader)
            slid = _slid(hands, rng.choice(runs), rules.order, rng)
            pips = [sum(SIXBID_PIP[c] for c in range(36) if (h[0] | h[1] | h[2]) >> c & 1) for h in (hands, slid)]
            differed += pips[0] != pips[1]
            hands = slid
    assert differed > 30


@pytest.mark.skipif(not jit.AVAILABLE, reason="numba is not installed: everything runs as Python already")
def test_the_python_copy_gives_the_compiled_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same file as plain Python (what a player uses while numba compiles, or without it)."""
    deals = _deals(4, 12, 4)
    compiled = [TrickSolver(tables.trick_rules(m), tables.objective(m), [0], tt_bits=8).exact(list(h), ld)
                for m, h, ld in deals]
    python = jit.python_copy(tricks)
    assert python.search is not tricks.search
    monkeypatch.setattr(warm, "kernels", lambda: python)
    plain = [TrickSolver(tables.trick_rules(m), tables.objective(m), [0], tt_bits=8).exact(list(h), ld)
             for m, h, ld in deals]
    assert plain == compiled


def test_a_solver_runs_the_kernels_it_is_given_and_clear_starts_it_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """``kernels=``: a bench pairs two versions of the kernel in one process (``bench/pair_kernels.py``),
    so a solver runs the module it was given, whatever :func:`warm.kernels` would hand out; and
    ``clear`` empties its table, so the next solve searches as a new solver's does (without it, the
    second solve of a deal would find the first's entries and take fewer nodes)."""
    python = jit.python_copy(tricks)

    def refuse() -> object:
        raise AssertionError("a solver given its kernels asked warm.kernels for others")

    monkeypatch.setattr(warm, "kernels", refuse)
    for mode, hands, leader in _deals(5, 6, 4):
        solver = TrickSolver(tables.trick_rules(mode), tables.objective(mode), [0], tt_bits=8, kernels=python)
        value = solver.exact(list(hands), leader)
        first = solver.nodes
        solver.clear()
        assert solver.exact(list(hands), leader) == value
        assert solver.nodes == 2 * first


def test_a_shared_table_takes_a_tag_for_each_solver() -> None:
    """Solvers that share a table tell their entries apart by their tags (``tricks._keys``), so each
    needs one: 0 is the mark of a table of its own, and a tag past ``TAG_BITS`` would spill into the
    leader's bits of the key."""
    table = tricks.new_table(1 << 8)
    rules, objective = tables.trick_rules(TOUT), tables.objective(TOUT)
    for tag in (0, 1 << tricks.TAG_BITS):
        with pytest.raises(ValueError, match="needs a tag"):
            TrickSolver(rules, objective, [0], table=table, tag=tag)
    TrickSolver(rules, objective, [0], table=table, tag=(1 << tricks.TAG_BITS) - 1)


@pytest.mark.skipif(not jit.AVAILABLE, reason="numba is not installed: everything runs as Python already")
def test_until_the_compiled_kernels_are_ready_a_player_gets_the_python_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """No decision waits for compilation: the same kernels as Python stand in, and the hint says so."""
    import threading

    warm.kernels()  # the session's warm thread done first: else it could set the event put here
    monkeypatch.setattr(warm, "_ready", threading.Event())
    assert warm.kernels() is jit.python_copy(tricks)
    assert not warm.compiled()
    assert "being prepared" in warm.note()
    warm.now()  # the cache is written (the session's fixture compiled it): loading is quick
    assert warm.kernels() is tricks
    assert warm.compiled() and warm.note() == ""


@pytest.mark.skipif(not jit.AVAILABLE, reason="numba is not installed: everything runs as Python already")
def test_a_failed_compilation_leaves_the_python_copy_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiling child fails (and writes no cache): the warm thread ends instead of polling
    for ever, the kernels stay Python, and the hint says why the level searched fewer deals."""
    import subprocess
    import threading

    monkeypatch.setattr(warm, "_ready", threading.Event())
    monkeypatch.setattr(warm, "_started", False)
    monkeypatch.setattr(warm, "last", {})
    monkeypatch.setattr(warm, "cached", lambda: False)
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 1))
    heard: list[str] = []
    warm.start(heard.append)
    assert warm.thread is not None
    warm.thread.join(timeout=10)
    assert not warm.thread.is_alive()
    assert heard == [warm.FIRST_RUN]
    assert warm.kernels() is jit.python_copy(tricks)
    assert "could not be prepared" in warm.note()


def _index_files(monkeypatch: pytest.MonkeyPatch, folder: Path) -> dict[str, Path]:
    """Each kernel's numba index (``warm.KERNELS``) read from ``folder`` from now on; where the real ones are."""
    warm.kernels()  # compiled, or loaded from the cache (the session's fixture): the indexes are written
    real = {}
    for name in warm.KERNELS:
        index = getattr(tricks, name)._cache._cache_file
        real[name] = Path(index._index_path)
        monkeypatch.setattr(index, "_index_path", str(folder / real[name].name))
    return real


@pytest.mark.skipif(not jit.AVAILABLE, reason="numba is not installed: there is no cache to look at")
def test_a_cache_cut_short_is_not_taken_as_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A compilation that ended half-way (llvmlite aborting, a process killed) left the first
    kernels' indexes only: every process took that as a whole cache and compiled the rest at
    once, outside the lock.  The cache counts as written once every kernel's index is there, and
    fresh by numba's own reading (an index of another source is stale)."""
    real = _index_files(monkeypatch, tmp_path)
    for name in warm.KERNELS:
        assert not warm.cached()
        shutil.copy(real[name], tmp_path / real[name].name)
    assert warm.cached()
    last = tmp_path / real[warm.KERNELS[-1]].name
    with open(last, "rb") as f:
        version = pickle.load(f)
        _, overloads = pickle.loads(f.read())
    with open(last, "wb") as f:  # the same index, of another source
        pickle.dump(version, f)
        f.write(pickle.dumps((b"another source", overloads)))
    assert not warm.cached()


@pytest.mark.skipif(not jit.AVAILABLE, reason="numba is not installed: there is no cache to look at")
def test_a_source_touched_but_not_changed_is_still_cached(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Whether the cache is fresh is numba's to say (it keys on the source's contents in 0.68): a
    source whose time stamp moved on with its contents the same (a git checkout there and back)
    made every process say it was preparing the players, load the cache without writing it, and
    stay on the Python path for good.  Here ``tricks.__file__`` names a copy with a later time stamp
    (what a check by time stamps reads), while numba reads the source it compiled, unchanged."""
    warm.kernels()
    newer = tmp_path / "tricks.py"
    shutil.copy(tricks.__file__, newer)
    later = time.time() + 3600  # newer than any index written
    os.utime(newer, (later, later))
    monkeypatch.setattr(tricks, "__file__", str(newer))
    assert warm.cached()


@pytest.mark.skipif(not jit.AVAILABLE, reason="numba is not installed: nothing is compiled")
def test_every_kernel_is_compiled_once() -> None:
    """No kernel calls another with a constant that numba would compile it again for
    (``tricks._unliteral``): each kernel's cache holds one compiled version.  Why a test: a second
    version of ``search`` is a second compile of the whole search, a minute more on a first run, and
    nothing else notices it (the values and the speed stay the same).  Read from numba's own cache
    index (its ``_cache_file``: numba has no public call for it), which the session's compile wrote."""
    warm.kernels()  # compiled, or loaded from the cache (the session's fixture)
    versions = {}
    for name, fn in vars(tricks).items():
        cache_file = getattr(getattr(fn, "_cache", None), "_cache_file", None)
        if cache_file is not None:
            versions[name] = len(cache_file._load_index())
    assert versions["search"] == 1
    assert {name: n for name, n in versions.items() if n > 1} == {}


def _unwrapped_indices(source: str) -> list[str]:
    """The array reads and writes of a kernel module's ``source`` whose index is neither a constant nor
    ``_ix(...)``: its arrays are its functions' ``Int64s`` arguments and the rows taken from them."""
    tree = ast.parse(source)
    constants = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                elts = target.elts if isinstance(target, ast.Tuple) else [target]
                constants |= {e.id for e in elts if isinstance(e, ast.Name)}

    def constant(e: ast.expr) -> bool:
        if isinstance(e, ast.BinOp):
            return constant(e.left) and constant(e.right)
        return isinstance(e, ast.Constant) or (isinstance(e, ast.Name) and e.id in constants)

    found = []
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        arrays = {a.arg for a in fn.args.args if isinstance(a.annotation, ast.Name) and a.annotation.id == "Int64s"}
        for node in ast.walk(fn):  # the rows: ``frame = frames[_ix(f)]``
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) \
                    and isinstance(node.value.value, ast.Name) and node.value.value.id in arrays:
                arrays |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in arrays):
                continue
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for part in parts:
                wrapped = isinstance(part, ast.Call) and isinstance(part.func, ast.Name) and part.func.id == "_ix"
                if not (wrapped or constant(part) or isinstance(part, ast.Slice)):
                    found.append(f"{fn.name}: {ast.unparse(node)}")
    return found


def test_every_index_of_the_kernels_that_is_not_a_constant_is_unsigned() -> None:
    """Why (``jit.index_op``): numba compiles a test for a negative index into every access whose
    index it cannot prove positive, and without those the search takes a fifth less CPU.  One index
    left signed costs only speed, which nothing else would notice; so this reads the source."""
    source = Path(tricks.__file__).read_text()
    assert _unwrapped_indices(source) == []
    assert _unwrapped_indices("def f(a: Int64s, i: int) -> int:\n    return a[i]\n") == ["f: a[i]"]


def test_pext_packs_the_bits_at_a_mask_low_as_the_processor_the_fallback_loop_and_python_do() -> None:
    """``jit.pext_op``: the processor's ``pext`` where it has a fast one, the loop compiled where it has
    none or a slow one; each must pack exactly as the Python copy's loop does."""
    assert jit._python_pext(0b1011_0110, 0b1111_0000) == 0b1011
    assert jit._python_pext(0b0100_0010, 0b1100_0011) == 0b0110
    if not jit.AVAILABLE:
        pytest.skip("numba is not available: the kernels run the Python loop alone")
    import numba

    rng = random.Random(24)
    pairs = [(rng.getrandbits(63), rng.getrandbits(63)) for _ in range(300)] + [(0, 0), ((1 << 63) - 1, 0xFF)]
    expected = [jit._python_pext(x, m) for x, m in pairs]
    # (not by patching the host's name: numba keys its cache on it, and every kernel loaded meanwhile compiled again)
    for op in (jit.pext_op(), jit.pext_op(fast=False)):
        call = numba.njit(_calling(op))  # an intrinsic is called from compiled code only
        assert [call(x, m) for x, m in pairs] == expected


def _calling(op: Callable[[int, int], int]) -> Callable[[int, int], int]:
    """A plain function that calls ``op`` (for numba to compile: ``op`` is a constant of its closure)."""
    return lambda x, m: op(x, m)


def _kernel_hands(rules: TrickRules, *codes: str) -> NDArray[np.int64]:
    """Six-Bid hands (card codes, one string a seat) as the kernel's masks."""
    return np.array([rules.to_kernel(sum(1 << SIXBID_INDEX[c] for c in hand.split())) for hand in codes], np.int64)


def test_a_leaders_masters_are_sure_while_every_seat_that_could_trump_them_must_follow() -> None:
    """The sure-trick bound (``tricks._cashes``), spades trumps: the leader's ace and king of hearts
    (the ten is gone) each win a trick while the seat holding a trump still holds a heart; the six of
    clubs is beaten in its suit.  With one heart left to that seat, only the ace is sure."""
    rules = sixbid_tables.trick_rules(SIXBID_SUITS.index("S"))
    table = rules.arrays(sixbid_tables.PIPS)[0]
    for trumper, sure in (("7H 8H 6S", (2, 15)), ("7H 7D 6S", (1, 11))):
        h = _kernel_hands(rules, "AH KH 6C", trumper, "9H 7C 8C")
        everyone = int(h[0] | h[1] | h[2])
        assert tuple(tricks._cashes(h, 0, 3, everyone, table)) == sure


def test_a_move_keeps_one_card_of_a_run_when_the_trick_goes_to_one_side_whatever_is_played() -> None:
    """Dominated cards (``tricks._undominated``, through ``_order``), spades trumps, the soloist in seat 0,
    seat 1 holding the ten of hearts.  Last to play to 9H 6H with AH KH QH, every card takes the trick: of
    the run KH QH the king, fatter, is kept, and the ace (the ten out between them) stands alone.  Last to
    AH 6H with KH QH JH, none takes it: only the jack, leanest.  Second to 9H with KH QH, seat 1 after him
    holding the ace: the trick may go either way, so both are kept.  Leading AS TS 7H, no trump out above
    them: the ace, the fatter of two sure winners, and the seven; leading KH QH under the ace: both."""
    rules = sixbid_tables.trick_rules(SIXBID_SUITS.index("S"))
    table, power, _ = rules.arrays(sixbid_tables.PIPS)
    side = np.array([tricks.MAX | tricks.COUNTED, 0, 0], np.int64)
    plain = jit.python_copy(tricks)  # the same code as Python: no compiling for a unit test
    for mine, leader, played, kept in (("AH KH QH", 1, "9H 6H", "AH KH"), ("KH QH JH", 1, "AH 6H", "JH"),
                                       ("KH QH", 2, "9H", "KH QH"), ("AS TS 7H", 0, "", "AS 7H"),
                                       ("KH QH", 0, "", "KH QH")):
        h = _kernel_hands(rules, mine, "TH AH 7C" if "AH" not in played + mine else "TH 7C", "8C 9C")
        trick = np.zeros(42, np.int64)
        others = int(h[1] | h[2])
        for i, c in enumerate(played.split()):
            trick[i] = rules.position[SIXBID_INDEX[c]]
            others |= 1 << int(trick[i])
        buf = np.zeros(64, np.int64)
        led = int(trick[0]) if played else -1
        n = plain.legal_moves(plain.legal(int(h[0]), led, table), others, table, rules.ncards, buf[:16])
        assert n == len(mine.split())  # each card a class of its own: their points differ
        n = plain._order(buf, 0, n, -1, others, trick, 0, len(played.split()), leader, 0, h, table, power, side, 3,
                         rules.ncards, False, rules.take_weakest)
        assert {rules.order[int(c)] for c in buf[:n]} == {SIXBID_INDEX[c] for c in kept.split()}, (mine, played)


def test_the_soloist_tries_his_weakest_sure_taker_first_where_the_game_says_so() -> None:
    """The follow order (``tricks._order``), Six-Bid, spades trumps, the soloist in seat 0 last to 9H 6H
    with AH QH: both take the trick, and Six-Bid's rules (``take_weakest``) try the queen first, keeping
    the ace that heads the suit; without the flag (Schafkopf's and Clobby's order) the fatter ace comes
    first.  A defender last to the soloist's 9H, his partner's 6H under it, keeps the fattest-first
    order either way (the flag is the maximising seat's); it reaches the kernel in the rules' ``params``."""
    rules = sixbid_tables.trick_rules(SIXBID_SUITS.index("S"))
    assert rules.take_weakest and rules.arrays(sixbid_tables.PIPS)[2][tricks.P_TAKE_WEAKEST] == 1
    plain = jit.python_copy(tricks)  # the same code as Python: no compiling for a unit test
    table, power, _ = rules.arrays(sixbid_tables.PIPS)
    side = np.array([tricks.MAX | tricks.COUNTED, 0, 0], np.int64)
    for mover in (0, 2):  # the soloist, or the defender after him
        hands = ["", "", ""]
        hands[mover] = "AH QH TS"
        hands[(mover + 1) % 3] = "TH 7C"
        hands[(mover + 2) % 3] = "KH 7D"
        h = _kernel_hands(rules, *hands)
        trick = np.zeros(42, np.int64)
        others = int(h[(mover + 1) % 3] | h[(mover + 2) % 3])
        for i, c in enumerate(("9H", "6H")):
            trick[i] = rules.position[SIXBID_INDEX[c]]
            others |= 1 << int(trick[i])
        for weakest in (True, False):
            buf = np.zeros(64, np.int64)
            n = plain.legal_moves(plain.legal(int(h[mover]), int(trick[0]), table), others, table, rules.ncards,
                                  buf[:16])
            n = plain._order(buf, 0, n, -1, others, trick, 0, 2, (mover + 1) % 3, mover, h, table, power, side, 3,
                             rules.ncards, False, weakest)
            got = [rules.order[int(c)] for c in buf[:n]]
            expected = "QH AH" if weakest and mover == 0 else "AH QH"
            assert got == [SIXBID_INDEX[c] for c in expected.split()], (mover, weakest)


def test_a_seat_ducks_every_trick_when_each_card_has_as_many_of_its_own_below_it_as_the_others() -> None:
    """The misère's ducking test (``tricks._ducks_every_trick``), Six-Bid's no-trump rules, seat 0
    wanting no trick: 6S 8S under 7S 9S ducks; a lone 7S with the 6S out does not (the 6S led takes
    nothing from it); a suit the others do not hold is never led to it; TS 8S 6S against 7S 9S JS KS
    runs out of cards under the leads (the ten ranks above the king).  The test assumes plain rules
    (``P_PLAIN``): no trump, no card that must head the trick, a suit's cards strongest first."""
    rules = sixbid_tables.misere_rules()
    table, _, params = rules.arrays(sixbid_tables.NO_TRICK)
    assert params[tricks.P_PLAIN] == 1
    assert sixbid_tables.trick_rules(SIXBID_SUITS.index("S")).arrays(sixbid_tables.PIPS)[2][tricks.P_PLAIN] == 0
    for mine, first, second, ducks in (("6S 8S", "7S 9S", "AD KD", True), ("7S", "6S 9S", "AD KD", False),
                                       ("7S AC", "8S 9S", "TS KD", True),
                                       ("6S 8S TS", "7S 9S", "KS AS JS", False)):
        h = _kernel_hands(rules, mine, first, second)
        assert tricks._ducks_every_trick(h, 0, 3, table) is ducks, (mine, first, second)


def _misere_minimax(hands: tuple[int, int, int], leader: int) -> bool:
    """Whether seat 0 of a Six-Bid no-trump deal can take no trick from here (36-card indices): plain
    memoised minimax, every card of every hand tried."""
    suit = [c // 9 for c in range(36)]  # a card's index is its suit * 9 + its strength

    @cache
    def safe(h: tuple[int, int, int], lead: int, trick: tuple[int, ...]) -> bool:
        if len(trick) == 3:
            led = suit[trick[0]]
            best = max(range(3), key=lambda i: (suit[trick[i]] == led, trick[i] % 9))
            winner = (lead + best) % 3
            return winner != 0 and safe(h, winner, ())
        if not any(h):
            return True
        seat = (lead + len(trick)) % 3
        hand = h[seat]
        if trick and any(hand >> c & 1 and suit[c] == suit[trick[0]] for c in range(36)):
            hand &= sum(1 << c for c in range(36) if suit[c] == suit[trick[0]])
        outcomes = []
        for c in range(36):
            if hand >> c & 1:
                nh = list(h)
                nh[seat] ^= 1 << c
                outcomes.append(safe((nh[0], nh[1], nh[2]), lead, (*trick, c)))
        return any(outcomes) if seat == 0 else all(outcomes)

    return safe(hands, leader, ())


def test_misere_values_with_the_ducking_test_equal_minimax() -> None:
    """Whether a misère's soloist takes no trick, on endgames of 4 cards a hand dealt from two or
    three suits (so that the ducking test both holds and fails), against plain minimax."""
    rules = sixbid_tables.misere_rules()
    solver = TrickSolver(rules, sixbid_tables.NO_TRICK, [0], counted=[1, 2])
    rng = random.Random(7)
    decided = {True: 0, False: 0}
    for _ in range(300):
        cards = [c for c in range(36) if c // 9 < rng.choice((2, 3))]
        rng.shuffle(cards)
        hands = tuple(sum(1 << c for c in cards[4 * s:4 * s + 4]) for s in range(3))
        leader = rng.randrange(3)
        want = _misere_minimax(hands, leader)
        assert solver.at_least(list(hands), leader, 4) is want, (hands, leader)
        decided[want] += 1
    assert min(decided.values()) > 30
