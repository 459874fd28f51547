"""Solve the deal model (``model.py``) with CFR+ and ship the strategy ``strong`` plays.

    python -m parlour.games.truc.train [--iterations 300] [--target 0.009] [--jobs 3]
                                       [--situations 0-15] [--out PATH] [--seed S]

Full-width CFR+ (regret matching+, alternating updates, linearly weighted averages) over
every pair of dealt hands at once (14,280 rank pairs with their exact weights).  The model's
card play is a fixed rule, so each pair has one card sequence and a betting tree of at most
~120 points (offer or not, accept or decline, before each card); both trees of a situation
(played, call refused) are laid out as one flat array of ~2.4 million entries for the
largest situation, and each iteration is two passes over it (reaches forwards, values and
regrets backwards).  The passes are plain Python loops compiled by numba when it is
installed (``pip install -e '.[truc-train]'``); without numba the same code runs, slowly.
Nothing is sampled, so a run is reproducible exactly: ``--seed`` is only recorded.

Each situation runs until its average strategy's exploitability is at most ``--target``
(checked every ``--check-every`` iterations) or ``--iterations`` are done.  It then ships
the average strategy with probabilities rounded to 1/255, dropping decisions strong's own
play reaches with probability at most 1/1000; the exploitability printed last is that of
the table as shipped.

Calls for cards are stationary (model.py, abstraction 4): an accepted call is worth the
game's value again; training re-estimates that value from the average strategy every ten
iterations, and the exploitability is measured at the fixed points (the profile's own
value, and each best responder's value when the redeal is also played by him).

``exploitability`` is exact in the model: a best responder with perfect recall (his hand,
every public card and offer) is computed by backward induction for each seat, and his gain
over the profile's value is reported in stake points per deal; the figure is the mean of
the two seats' gains (a best responder playing both seats equally often).
"""

from __future__ import annotations

import argparse
import json
import lzma
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...search.jit import inline, kernel
from . import model as M

TABLE = Path(__file__).with_name("strong_table.xz")
MAGIC = b"TRUCCFR2"


# -- the hand pairs and their card play (independent of the score situation) ---------------------
@dataclass
class Deals:
    w: np.ndarray          # weight of each hand pair (sums to 1)
    hand: np.ndarray       # [2, P] hand index of N and D
    npts: np.ndarray       # cards played before the deal ends (4 or 6)
    result: np.ndarray     # +1 N wins, -1 D wins, 0 spoiled
    mover: np.ndarray      # [6, P] who plays the k-th card
    prefix: np.ndarray     # [6, P] model.prefix_code of the cards before the k-th card


def build_deals() -> Deals:
    """Every pair of dealt hands with its weight and its card play under ``model.card_rule``."""
    ws, hs, npts, res, mov, pre = [], [], [], [], [], []
    for i, a in enumerate(M.HANDS):
        for j, b in enumerate(M.HANDS):
            w = M.pair_weight(a, b)
            if w == 0.0:
                continue
            t = M.Tricks((a, b))
            m, px = [0] * 6, [0] * 6
            cards: list[int] = []
            while not t.over:
                k = len(cards)
                m[k] = t.to_move
                px[k] = M.prefix_code(cards)
                card = M.rule_card(t)
                cards.append(card)
                t.play(card)
            ws.append(w)
            hs.append((i, j))
            npts.append(len(cards))
            res.append(t.result)
            mov.append(m)
            pre.append(px)
    weights = np.array(ws)
    return Deals(w=weights / weights.sum(), hand=np.array(hs).T.copy(), npts=np.array(npts),
                 result=np.array(res, dtype=float), mover=np.array(mov).T.copy(), prefix=np.array(pre).T.copy())


# -- the betting tree of one situation ---------------------------------------------------------------
def _empty() -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


@dataclass
class Node:
    k: int
    s: np.ndarray                 # pair indices present here
    stake: np.ndarray             # over s
    rem: np.ndarray               # over s (bool)
    term: np.ndarray = field(default_factory=_empty)       # positions in s whose deal ended before card k
    pay: np.ndarray = field(default_factory=_empty)        # their payoff to N
    alive: np.ndarray = field(default_factory=_empty)      # positions in s still playing
    mover: np.ndarray = field(default_factory=_empty)      # over alive
    can: np.ndarray = field(default_factory=_empty)        # positions in alive that may offer
    dec: np.ndarray = field(default_factory=_empty)        # payoff to N of a declined offer, over can
    okey: np.ndarray = field(default_factory=_empty)       # key slot of the offer decision, over can
    akey: np.ndarray = field(default_factory=_empty)       # key slot of the answer, over can
    group: tuple[Any, ...] = ()                            # per seat: best-responder information set ids over can
    no: Node | None = None
    acc: Node | None = None


class Keys:
    """Integer information keys -> dense slots, shared by every tree of a situation."""

    def __init__(self) -> None:
        self.parts: list[np.ndarray] = []
        self.count = 0

    def add(self, keys: np.ndarray) -> np.ndarray:
        self.parts.append(keys)
        start = self.count
        self.count += len(keys)
        return np.arange(start, start + len(keys))

    def finish(self, nodes: list[np.ndarray]) -> np.ndarray:
        """Replace the provisional slots in ``nodes`` by dense ones; return the sorted unique keys."""
        allk = np.concatenate(self.parts) if self.parts else np.zeros(0, dtype=np.int64)
        uniq, inv = np.unique(allk, return_inverse=True)
        for arr in nodes:
            arr[:] = inv[arr]
        return uniq


def _keys(sit: int, kind: int, refused: int, role: np.ndarray, hand: np.ndarray, prefix: np.ndarray,
          hist: np.ndarray) -> np.ndarray:
    """Vectorised ``model.info_key``."""
    k = np.full(len(hand), sit, dtype=np.int64)
    for v, b in ((np.full(len(hand), kind), 4), (np.full(len(hand), refused), 2), (role, 2), (hand, 120),
                 (prefix, 9**5), (hist, 3**6)):
        k = k * b + np.asarray(v).astype(np.int64)
    return k


def build_tree(d: Deals, sit: int, refused: int, keys: Keys, slots: list[np.ndarray]) -> Node:
    cls = (sit // 4, sit % 4)
    cap = np.array([M.DOUBLE_CAP[cls[0]], M.DOUBLE_CAP[cls[1]]])
    need = (M.REP_NEED[cls[0]], M.REP_NEED[cls[1]])

    def make(k: int, s: np.ndarray, stake: np.ndarray, rem: np.ndarray, hist: np.ndarray) -> Node:
        node = Node(k, s, stake, rem)
        ended = d.npts[s] <= k
        node.term = np.nonzero(ended)[0]
        ts = s[node.term]
        r = d.result[ts]
        st = stake[node.term].astype(float)
        node.pay = np.where(rem[node.term], np.where(r > 0, need[0], np.where(r < 0, -need[1], 0.0)), st * r)
        node.alive = np.nonzero(~ended)[0]
        if len(node.alive) == 0:
            return node
        sa = s[node.alive]
        m = d.mover[k, sa]
        node.mover = m
        node.can = np.nonzero(~rem[node.alive])[0]
        sc = sa[node.can]
        mc = m[node.can]
        stc = stake[node.alive][node.can]
        node.dec = np.where(mc == 0, stc, -stc).astype(float)
        remainder = stc > cap[mc]
        hc = hist[node.alive][node.can]
        px = d.prefix[k, sc]
        node.okey = keys.add(_keys(sit, M.OFFER, refused, mc, d.hand[mc, sc], px, hc))
        node.akey = keys.add(_keys(sit, M.OFFER_ANSWER, refused, 1 - mc, d.hand[1 - mc, sc], px, hc))
        slots.extend([node.okey, node.akey])
        node.group = tuple(np.unique(d.hand[seat, sc] * 10**7 + d.prefix[k, sc], return_inverse=True)[1]
                           for seat in (0, 1))
        node.no = make(k + 1, sa, stake[node.alive], rem[node.alive], hist[node.alive])
        if len(sc):
            node.acc = make(k + 1, sc, np.where(remainder, stc, 2 * stc), remainder, hc + (mc + 1) * 3**k)
        return node

    p = len(d.w)
    return make(0, np.arange(p), np.ones(p, dtype=np.int64), np.zeros(p, dtype=bool), np.zeros(p, dtype=np.int64))


@dataclass
class Game:
    sit: int
    trees: tuple[Node, Node]
    ckey: np.ndarray     # N's call key slot per pair
    akey: np.ndarray     # D's call-answer key slot per pair
    keys: np.ndarray     # sorted integer keys, slot order
    hgroup: tuple[Any, ...]  # per seat: hand index per pair (best responder's call-phase information)
    csel: tuple[Any, ...] = ()
    asel: tuple[Any, ...] = ()


def build_game(d: Deals, sit: int) -> Game:
    keys = Keys()
    slots: list[np.ndarray] = []
    trees = (build_tree(d, sit, 0, keys, slots), build_tree(d, sit, 1, keys, slots))
    p = len(d.w)
    one = np.ones(p, dtype=np.int64)
    zero = np.zeros(p, dtype=np.int64)
    ckey = keys.add(_keys(sit, M.CALL, 0, zero, d.hand[0], zero, zero))
    akey = keys.add(_keys(sit, M.CALL_ANSWER, 0, one, d.hand[1], zero, zero))
    slots += [ckey, akey]
    uniq = keys.finish(slots)
    game = Game(sit, trees, ckey, akey, uniq, (d.hand[0], d.hand[1]))
    everyone = np.ones(p, dtype=bool)
    game.csel, game.asel = _select(everyone, ckey), _select(everyone, akey)
    return game


def _select(mask: np.ndarray, slot: np.ndarray) -> tuple[Any, ...]:
    pos = np.nonzero(mask)[0]
    slots, inv = np.unique(slot[pos], return_inverse=True)
    return pos, slots, inv


# -- the flat tree and its kernels -------------------------------------------------------------------
Arr = np.ndarray


@dataclass
class Flat:
    """Every betting point of both trees (played, call refused) as one array of entries.

    Nodes are laid out in preorder, so a parent's entries always precede its children's:
    reaches flow forwards through the arrays and values backwards.
    """
    term: np.ndarray
    pay: np.ndarray
    mover: np.ndarray
    can: np.ndarray
    dec: np.ndarray
    okey: np.ndarray
    akey: np.ndarray
    e_no: np.ndarray
    e_acc: np.ndarray
    w: np.ndarray
    gid: np.ndarray      # [2, E] best responder's information set of each entry, per seat
    node_lo: np.ndarray
    node_hi: np.ndarray
    roots: tuple[int, int]
    ngroups: int


def flatten(d: Deals, game: Game) -> Flat:
    order: list[Node] = []

    def pre(node: Node | None) -> None:
        if node is None:
            return
        order.append(node)
        if len(node.alive):
            pre(node.no)
            pre(node.acc)

    for tree in game.trees:
        pre(tree)
    off = {}
    total = 0
    for node in order:
        off[id(node)] = total
        total += len(node.s)
    E = total
    f = Flat(term=np.ones(E, dtype=np.bool_), pay=np.zeros(E), mover=np.zeros(E, dtype=np.int64),
             can=np.zeros(E, dtype=np.bool_), dec=np.zeros(E), okey=np.zeros(E, dtype=np.int64),
             akey=np.zeros(E, dtype=np.int64), e_no=np.full(E, -1, dtype=np.int64),
             e_acc=np.full(E, -1, dtype=np.int64), w=np.zeros(E), gid=np.zeros((2, E), dtype=np.int64),
             node_lo=np.zeros(len(order), dtype=np.int64), node_hi=np.zeros(len(order), dtype=np.int64),
             roots=(off[id(game.trees[0])], off[id(game.trees[1])]), ngroups=0)
    raw = np.zeros((2, E), dtype=np.int64)
    for n, node in enumerate(order):
        lo = off[id(node)]
        f.node_lo[n], f.node_hi[n] = lo, lo + len(node.s)
        f.w[lo:lo + len(node.s)] = d.w[node.s]
        t = lo + node.term
        f.pay[t] = node.pay
        if not len(node.alive):
            continue
        a = lo + node.alive
        f.term[a] = False
        f.mover[a] = node.mover
        f.e_no[a] = off[id(node.no)] + np.arange(len(node.alive))
        c = a[node.can]
        f.can[c] = True
        f.dec[c] = node.dec
        f.okey[c] = node.okey
        f.akey[c] = node.akey
        if len(node.can):
            f.e_acc[c] = off[id(node.acc)] + np.arange(len(node.can))
            for seat in (0, 1):
                raw[seat, c] = n * 10**6 + node.group[seat]
    for seat in (0, 1):
        u, inv = np.unique(raw[seat], return_inverse=True)
        f.gid[seat] = inv
        f.ngroups = max(f.ngroups, len(u))
    return f


@kernel
def _forward(term: Arr, mover: Arr, can: Arr, okey: Arr, akey: Arr, e_no: Arr, e_acc: Arr, sig: Arr, rn: Arr,
             rd: Arr) -> None:  # pragma: no cover - compiled
    for e in range(len(term)):
        if term[e]:
            continue
        o = sig[okey[e]] if can[e] else 0.0
        j = e_no[e]
        if mover[e] == 0:
            rn[j] = rn[e] * (1.0 - o)
            rd[j] = rd[e]
        else:
            rn[j] = rn[e]
            rd[j] = rd[e] * (1.0 - o)
        if can[e]:
            a = sig[akey[e]]
            j = e_acc[e]
            if mover[e] == 0:
                rn[j] = rn[e] * o
                rd[j] = rd[e] * a
            else:
                rn[j] = rn[e] * a
                rd[j] = rd[e] * o


@inline
def _settled(e: int, term: Arr, pay: Arr, scale: float, can: Arr, v: Arr, e_no: Arr) -> bool:
    """Whether entry ``e``'s value needs no choice, and if so sets it (for both backward passes):
    a deal's end is worth ``scale`` times its pay, a point with no choice what its "no" child is."""
    if term[e]:
        v[e] = scale * pay[e]
        return True
    if not can[e]:
        v[e] = v[e_no[e]]
        return True
    return False


@kernel
def _backward(term: Arr, pay: Arr, mover: Arr, can: Arr, dec: Arr, okey: Arr, akey: Arr, e_no: Arr, e_acc: Arr,
              w: Arr, sig: Arr, rn: Arr, rd: Arr, v: Arr, upd: int, t: float, reg: Arr, avg: Arr) -> None:
    # pragma: no cover - compiled
    sign = 1.0 if upd == 0 else -1.0
    for e in range(len(term) - 1, -1, -1):
        if _settled(e, term, pay, 1.0, can, v, e_no):
            continue
        vno, o, a, vacc = v[e_no[e]], sig[okey[e]], sig[akey[e]], v[e_acc[e]]
        voff = a * vacc + (1.0 - a) * dec[e]
        ve = vno + o * (voff - vno)
        v[e] = ve
        if upd < 0:
            continue
        if mover[e] == 0:
            rm, ro = rn[e], rd[e]
        else:
            rm, ro = rd[e], rn[e]
        if mover[e] == upd:
            k = okey[e]
            ww = w[e] * ro * sign
            reg[k, 0] += ww * (vno - ve)
            reg[k, 1] += ww * (voff - ve)
            avg[k, 0] += t * rm * (1.0 - o)
            avg[k, 1] += t * rm * o
        else:
            k = akey[e]
            ww = w[e] * rm * o * sign
            reg[k, 0] += ww * (dec[e] - voff)
            reg[k, 1] += ww * (vacc - voff)
            avg[k, 0] += t * ro * (1.0 - a)
            avg[k, 1] += t * ro * a


@kernel
def _br_backward(term: Arr, pay: Arr, mover: Arr, can: Arr, dec: Arr, okey: Arr, akey: Arr, e_no: Arr, e_acc: Arr,
                 w: Arr, sig: Arr, ropp: Arr, gid: Arr, gain: Arr, node_lo: Arr, node_hi: Arr, v: Arr,
                 seat: int) -> None:  # pragma: no cover - compiled
    sign = 1.0 if seat == 0 else -1.0
    for n in range(len(node_lo) - 1, -1, -1):
        lo, hi = node_lo[n], node_hi[n]
        for e in range(lo, hi):
            if can[e]:
                gain[gid[e]] = 0.0
        for e in range(lo, hi):
            if not can[e]:
                continue
            o = sig[okey[e]]
            a = sig[akey[e]]
            vno = v[e_no[e]]
            vacc = v[e_acc[e]]
            vdec = sign * dec[e]
            if mover[e] == seat:
                gain[gid[e]] += w[e] * ropp[e] * (a * vacc + (1.0 - a) * vdec - vno)
            else:
                gain[gid[e]] += w[e] * ropp[e] * o * (vacc - vdec)
        for e in range(lo, hi):
            if _settled(e, term, pay, sign, can, v, e_no):
                continue
            vno, o, a, vacc = v[e_no[e]], sig[okey[e]], sig[akey[e]], v[e_acc[e]]
            vdec = sign * dec[e]
            if mover[e] == seat:
                voff = a * vacc + (1.0 - a) * vdec
                v[e] = voff if gain[gid[e]] > 0 else vno
            else:
                v[e] = (1.0 - o) * vno + o * (vacc if gain[gid[e]] > 0 else vdec)


# -- CFR+ ------------------------------------------------------------------------------------------
class Solver:
    def __init__(self, d: Deals, game: Game) -> None:
        self.d, self.g = d, game
        self.f = flatten(d, game)
        n = len(game.keys)
        self.r = np.zeros((n, 2))      # regrets+ of (no/decline/refuse/play, offer/accept/accept/call)
        self.avg = np.zeros((n, 2))    # weighted sums of the strategy
        self.value = 0.0               # continuation value of an accepted call (to N)
        E = len(self.f.term)
        self.rn, self.rd, self.v = np.zeros(E), np.zeros(E), np.zeros(E)
        self.gain = np.zeros(self.f.ngroups)

    def current(self) -> np.ndarray:
        pos = np.maximum(self.r, 0.0)
        tot = pos.sum(axis=1)
        return np.where(tot > 0, pos[:, 1] / np.where(tot > 0, tot, 1.0), 0.5)

    def average(self) -> np.ndarray:
        tot = self.avg.sum(axis=1)
        return np.where(tot > 0, self.avg[:, 1] / np.where(tot > 0, tot, 1.0), 0.5)

    def _reach(self, sig: np.ndarray, rn0: np.ndarray, rd0: np.ndarray, rn1: np.ndarray, rd1: np.ndarray) -> None:
        f, p = self.f, len(self.d.w)
        for root, rn, rd in ((f.roots[0], rn0, rd0), (f.roots[1], rn1, rd1)):
            self.rn[root:root + p] = rn
            self.rd[root:root + p] = rd
        _forward(f.term, f.mover, f.can, f.okey, f.akey, f.e_no, f.e_acc, sig, self.rn, self.rd)

    def root(self, sig: np.ndarray, upd: int | None, t: float) -> float:
        d, g, f = self.d, self.g, self.f
        c = sig[g.ckey]
        acc = sig[g.akey]
        p = len(d.w)
        one = np.ones(p)
        self._reach(sig, 1 - c, one, c, 1 - acc)
        _backward(f.term, f.pay, f.mover, f.can, f.dec, f.okey, f.akey, f.e_no, f.e_acc, f.w, sig, self.rn,
                  self.rd, self.v, -1 if upd is None else upd, float(t), self.r, self.avg)
        vplay = self.v[f.roots[0]:f.roots[0] + p]
        vref = self.v[f.roots[1]:f.roots[1] + p]
        vcall = acc * self.value + (1 - acc) * vref
        v = (1 - c) * vplay + c * vcall
        if upd == 0:
            self._upd(g.csel, d.w, vplay - v, vcall - v, np.full(p, float(t)), c)
        elif upd == 1:
            self._upd(g.asel, d.w * c, -(vref - vcall), -(self.value - vcall), np.full(p, float(t)), acc)
        return float(d.w @ v)

    def _upd(self, sel: tuple[Any, ...], weight: np.ndarray, reg0: np.ndarray, reg1: np.ndarray, own: np.ndarray,
             prob: np.ndarray) -> None:
        pos, slots, inv = sel
        w = weight[pos]
        self.r[slots, 0] += np.bincount(inv, w * reg0[pos])
        self.r[slots, 1] += np.bincount(inv, w * reg1[pos])
        o, q = own[pos], prob[pos]
        self.avg[slots, 0] += np.bincount(inv, o * (1 - q))
        self.avg[slots, 1] += np.bincount(inv, o * q)

    def fixed_value(self, sig: np.ndarray) -> float:
        """The profile's value to N when an accepted call is worth that same value."""
        keep = self.value
        self.value = 0.0
        a = self.root(sig, None, 0)
        self.value = 1.0
        b = self.root(sig, None, 0) - a
        self.value = keep
        return a / (1 - b) if b < 1 else a

    def iterate(self, t: int) -> None:
        for seat in (0, 1):
            self.root(self.current(), seat, float(t))
            np.maximum(self.r, 0.0, out=self.r)

    def own_reach(self, sig: np.ndarray) -> np.ndarray:
        """Per key slot: the largest chance that its owner's own play leads to it."""
        f, g = self.f, self.g
        p = len(self.d.w)
        one = np.ones(p)
        self._reach(sig, 1 - sig[g.ckey], one, sig[g.ckey], one)
        out = np.zeros(len(g.keys))
        c = f.can
        n_moves = f.mover[c] == 0
        rn, rd = self.rn[c], self.rd[c]
        np.maximum.at(out, f.okey[c], np.where(n_moves, rn, rd))
        np.maximum.at(out, f.akey[c], np.where(n_moves, rd, rn))
        out[g.ckey] = 1.0
        out[g.akey] = 1.0
        return out

    # -- best response ---------------------------------------------------------------------------
    def br_root(self, sig: np.ndarray, seat: int, cont: float) -> float:
        d, g, f = self.d, self.g, self.f
        c = sig[g.ckey]
        acc = sig[g.akey]
        p = len(d.w)
        one = np.ones(p)
        if seat == 0:
            self._reach(sig, one, one, one, 1 - acc)
            ropp = self.rd
        else:
            self._reach(sig, 1 - c, one, c, one)
            ropp = self.rn
        _br_backward(f.term, f.pay, f.mover, f.can, f.dec, f.okey, f.akey, f.e_no, f.e_acc, f.w, sig, ropp,
                     f.gid[seat], self.gain, f.node_lo, f.node_hi, self.v, seat)
        vplay = self.v[f.roots[0]:f.roots[0] + p]
        vref = self.v[f.roots[1]:f.roots[1] + p]
        grp = g.hgroup[seat]
        if seat == 0:
            vcall = acc * cont + (1 - acc) * vref
            gain = np.bincount(grp, d.w * (vcall - vplay), minlength=len(M.HANDS))
            v = np.where(gain[grp] > 0, vcall, vplay)
        else:
            gain = np.bincount(grp, d.w * c * (cont - vref), minlength=len(M.HANDS))
            v = (1 - c) * vplay + c * np.where(gain[grp] > 0, cont, vref)
        return float(d.w @ v)

    def best_response(self, sig: np.ndarray, seat: int, start: float) -> float:
        """Best responder's value per deal (his own sign) when every redeal is his best response too.

        The value as a function of the redeal's worth is convex and piecewise linear with slope
        below 1 (the chance the call is accepted), so secant steps find its fixed point.
        """
        x0, f0 = start, self.br_root(sig, seat, start)
        x1 = f0
        for _ in range(60):
            f1 = self.br_root(sig, seat, x1)
            if abs(f1 - x1) < 1e-10:
                return f1
            slope = (f1 - f0) / (x1 - x0) if x1 != x0 else 0.0
            x2 = (f1 - slope * x1) / (1 - slope) if slope < 1 else f1
            x0, f0, x1 = x1, f1, x2
        return f1

    def best_response_policy(self, sig: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """The best responder's choices (key slots, 1 for offer/accept/call else 0) for ``seat``."""
        d, g, f = self.d, self.g, self.f
        cont = self.best_response(sig, seat, self.fixed_value(sig) * (1 if seat == 0 else -1))
        self.br_root(sig, seat, cont)  # leaves the per-information-set gains in self.gain
        c = f.can
        mine = f.mover[c] == seat
        slots = np.concatenate([f.okey[c][mine], f.akey[c][~mine]])
        yes = self.gain[f.gid[seat][c]] > 0
        yes = np.concatenate([yes[mine], yes[~mine]])
        c_, acc = sig[g.ckey], sig[g.akey]
        grp = g.hgroup[seat]
        # the call phase again, as br_root decides it
        if seat == 0:
            vref = self._br_values(sig, seat, 1)
            vplay = self._br_values(sig, seat, 0)
            gain = np.bincount(grp, d.w * (acc * cont + (1 - acc) * vref - vplay), minlength=len(M.HANDS))
            slots = np.concatenate([slots, g.ckey])
        else:
            vref = self._br_values(sig, seat, 1)
            gain = np.bincount(grp, d.w * c_ * (cont - vref), minlength=len(M.HANDS))
            slots = np.concatenate([slots, g.akey])
        yes = np.concatenate([yes, gain[grp] > 0])
        return slots, yes

    def _br_values(self, sig: np.ndarray, seat: int, tree: int) -> np.ndarray:
        """The best responder's values at the root of one tree (after a fresh backward pass)."""
        d, g, f = self.d, self.g, self.f
        p = len(d.w)
        c, acc = sig[g.ckey], sig[g.akey]
        if seat == 0:
            self._reach(sig, np.ones(p), np.ones(p), np.ones(p), 1 - acc)
            r = self.rd
        else:
            self._reach(sig, 1 - c, np.ones(p), c, np.ones(p))
            r = self.rn
        _br_backward(f.term, f.pay, f.mover, f.can, f.dec, f.okey, f.akey, f.e_no, f.e_acc, f.w, sig, r,
                     f.gid[seat], self.gain, f.node_lo, f.node_hi, self.v, seat)
        root = f.roots[tree]
        return self.v[root:root + p].copy()

    def exploitability(self, sig: np.ndarray) -> dict[str, float]:
        """Best responders' gains over the profile's value, stake points per deal."""
        v = self.fixed_value(sig)
        bn = self.best_response(sig, 0, v)
        bd = self.best_response(sig, 1, -v)
        return {"value": v, "gain_n": bn - v, "gain_d": bd + v, "exploitability": (bn + bd) / 2}


def quantize(sig: np.ndarray) -> np.ndarray:
    """The strategy as shipped: each probability to the nearest 1/255."""
    return np.rint(np.clip(sig, 0.0, 1.0) * 255) / 255


PRUNE = 1e-3  #: decisions its own play reaches less often than this are not shipped (they read as 0)


def solve(d: Deals, sit: int, iterations: int, target: float, check_every: int, best_response: bool = False,
          log: Callable[..., None] = print) -> dict[str, Any]:
    """CFR+ on one situation until the average strategy's exploitability is at most ``target``
    (checked every ``check_every`` iterations from ``2 * check_every`` on) or ``iterations`` are done.

    The shipped strategy is the average one with probabilities in steps of 1/255, less the
    decisions its own play reaches with probability at most ``PRUNE`` (read as "no": no offer,
    decline, play, refuse); its exploitability is measured as shipped.  With ``best_response``
    the best responder's choices against it are returned too (for the arena bench).
    """
    game = build_game(d, sit)
    s = Solver(d, game)
    curve = []
    start = time.perf_counter()
    name = f"{sit:2d} ({M.CLASS_NAMES[sit // 4]} vs {M.CLASS_NAMES[sit % 4]})"
    for t in range(1, iterations + 1):
        s.iterate(t)
        if t % 10 == 0:
            s.value = s.fixed_value(s.average())
        if (t % check_every == 0 and t >= 2 * check_every) or t == iterations:
            e = s.exploitability(s.average())
            curve.append((t, e))
            log(f"  situation {name} iteration {t:4d}: exploitability {e['exploitability']:.5f} "
                f"(best responder as N +{e['gain_n']:.5f}, as D +{e['gain_d']:.5f}; value to N {e['value']:+.4f})"
                f"  {time.perf_counter() - start:.0f}s", flush=True)
            if e["exploitability"] <= target:
                break
    shipped = quantize(s.average())
    keep = s.own_reach(shipped) > PRUNE
    shipped[~keep] = 0.0
    final = s.exploitability(shipped)
    log(f"  situation {name} shipped: exploitability {final['exploitability']:.5f} "
        f"(N +{final['gain_n']:.5f}, D +{final['gain_d']:.5f}); {int(keep.sum()):,} of {len(keep):,} decisions "
        f"kept", flush=True)
    br = [s.best_response_policy(shipped, seat) for seat in (0, 1)] if best_response else []
    return {"keys": game.keys[keep], "probs": shipped[keep], "curve": curve, "final": final, "iterations": t,
            "br_keys": np.concatenate([game.keys[slots] for slots, _ in br]) if br else None,
            "br_yes": np.concatenate([yes for _, yes in br]) if br else None}


_DEALS: Deals | None = None
ASSEMBLE_ONLY = False


def _solve_job(job: tuple[int, int, float, int, bool, str | None]) -> dict[str, Any] | None:
    """One situation, or its saved result from an earlier run with the same settings (``--work``)."""
    global _DEALS
    sit, work = job[0], job[-1]
    saved = Path(work) / f"situation-{sit}-{'-'.join(map(str, job[1:-1]))}.npz" if work else None
    if saved is not None and ASSEMBLE_ONLY and not saved.exists():
        return None
    if saved is not None and saved.exists():
        data = np.load(saved, allow_pickle=False)
        r = {k: data[k] for k in data.files if k != "meta"}
        r.update(json.loads(str(data["meta"])))
        return r
    if _DEALS is None:
        _DEALS = build_deals()
    r = solve(_DEALS, *job[:-1])
    if saved is not None:
        saved.parent.mkdir(parents=True, exist_ok=True)
        arrays = {k: v for k, v in r.items() if isinstance(v, np.ndarray)}
        meta = json.dumps({"curve": r["curve"], "final": r["final"], "iterations": r["iterations"]})
        np.savez(saved, meta=np.array(meta), **arrays)  # type: ignore[arg-type]
    return r


# -- the shipped table ---------------------------------------------------------------------------------
def write_table(path: Path, keys: np.ndarray, probs: np.ndarray, meta: dict[str, Any]) -> None:
    """The keys sorted, as varint-coded gaps, then one byte per key (probability of
    offer/accept/call in steps of 1/255); xz-compressed.  About half a byte per decision."""
    order = np.argsort(keys)
    q = np.clip(np.rint(probs[order] * 255), 0, 255).astype(np.uint8)
    gaps = np.diff(keys[order].astype(np.int64), prepend=0)
    head = json.dumps(meta).encode()
    coded = varint(gaps)
    blob = MAGIC + struct.pack("<III", len(head), len(keys), len(coded)) + head + coded + q.tobytes()
    path.write_bytes(lzma.compress(blob, preset=9 | lzma.PRESET_EXTREME))


def varint(values: np.ndarray) -> bytes:
    """Non-negative integers, seven bits a byte, low first, the high bit set on all but the last."""
    v = values.astype(np.uint64)
    nbytes = np.ones(len(v), dtype=np.int64)
    rest = v >> np.uint64(7)
    while rest.any():
        nbytes += rest > 0
        rest >>= np.uint64(7)
    out = np.zeros(int(nbytes.sum()), dtype=np.uint8)
    start = np.concatenate([[0], np.cumsum(nbytes)[:-1]])
    for i in range(int(nbytes.max())):
        has = nbytes > i
        byte = (v[has] >> np.uint64(7 * i)) & np.uint64(127)
        more = (nbytes[has] > i + 1).astype(np.uint64) << np.uint64(7)
        out[start[has] + i] = (byte | more).astype(np.uint8)
    return out.tobytes()


def parse_range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a), int(b) + 1)
        else:
            out.append(int(part))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Solve Le Truc's deal model with CFR+ and write strong's table.")
    parser.add_argument("--iterations", type=int, default=300, help="at most this many per situation")
    parser.add_argument("--target", type=float, default=0.009, help="stop a situation at this exploitability")
    parser.add_argument("--check-every", type=int, default=25, help="iterations between exploitability checks")
    parser.add_argument("--seed", type=int, default=0, help="recorded only: full-width CFR+ samples nothing")
    parser.add_argument("--situations", default="0,1,4,5,2,8,6,9,3,12,7,13,10,11,14,15",
                        help="score situations to solve (4*class_nd + class_d), largest first")
    parser.add_argument("--jobs", type=int, default=1, help="situations solved at once (processes)")
    parser.add_argument("--out", type=Path, default=TABLE)
    parser.add_argument("--work", default=None, help="keep each situation's result here and reuse it")
    parser.add_argument("--assemble", action="store_true",
                        help="only write the table from the results saved in --work; a situation not solved "
                             "borrows the strategy of the nearest solved one")
    parser.add_argument("--best-response", type=Path, default=None,
                        help="also write the best responder to the shipped strategy here (.npz, for the bench)")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    global ASSEMBLE_ONLY
    ASSEMBLE_ONLY = args.assemble
    sits = parse_range(args.situations)
    jobs = [(sit, args.iterations, args.target, args.check_every, args.best_response is not None, args.work)
            for sit in sits]
    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(_solve_job, jobs, chunksize=1)
    else:
        results = [_solve_job(job) for job in jobs]
    allk, allp, table = [], [], {}
    solved = {sit for sit, r in zip(sits, results, strict=True) if r is not None}
    substitute = {}
    for sit in sorted(set(sits) - solved):
        substitute[sit] = min(solved, key=lambda o: (abs(o // 4 - sit // 4) + abs(o % 4 - sit % 4), o))
        print(f"situation {sit} not solved: it borrows situation {substitute[sit]}'s strategy")
    for sit, r in zip(sits, results, strict=True):
        if r is None:
            continue
        allk.append(r["keys"])
        allp.append(r["probs"])
        table[sit] = {"curve": [{"iterations": t, **{k: round(v, 6) for k, v in e.items()}} for t, e in r["curve"]],
                      "iterations": int(r["iterations"]),
                      "shipped": {k: round(v, 6) for k, v in r["final"].items()}}
    meta = {"max_iterations": args.iterations, "target": args.target, "seed": args.seed, "situations": table,
            "substitute": substitute}
    write_table(args.out, np.concatenate(allk), np.concatenate(allp), meta)
    if args.best_response is not None:
        bk = np.concatenate([r["br_keys"] for r in results if r is not None])
        by = np.concatenate([r["br_yes"] for r in results if r is not None])
        order = np.argsort(bk, kind="stable")
        np.savez(args.best_response, keys=bk[order], yes=by[order], stamp=args.out.stat().st_mtime)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes, {sum(len(k) for k in allk):,} decisions) "
          f"in {time.perf_counter() - t0:.0f}s")


if __name__ == "__main__":
    main()
