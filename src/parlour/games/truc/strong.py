"""Le Truc's strong player: the CFR+ strategy of the deal model (``model.py``, ``train.py``).

Every decision is read from the shipped table (``strong_table.xz``, loaded on first use):
the chance of calling for cards, of accepting a call, of offering before a card, of
accepting an offer, keyed by what this seat knows — the score situation, its role, the
hand it was dealt, the cards played so far in the deal and the accepted offers.  Cards are
played by the model's card rule (``model.card_rule``), as in the model.

When the opponent has played a card the model's rule would not have played, the exact
position is not in the table.  It is *translated* to the nearest one the model knows: the
opponent hands the model deals beside ours are played out by the rule, those that give
the same trick state (our cards, tricks won, first trick, spoiled tricks, the card led)
are ranked by how many of the opponent's actual cards they reproduce (then by how likely
they are), and the first whose position is in the table is used.  If none is (rare), a
plain rule decides: no offer, and an offer is accepted when the face-up odds say
accepting is worth more than declining.

``policy(view)`` gives the mixed strategy; ``act`` samples it with the ``rng`` it is given.
Only ``view`` is read: the hidden cards never are.
"""

from __future__ import annotations

import bisect
import json
import lzma
import random
import struct
from array import array
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import model as M
from .bots import trick_odds

TABLE = Path(__file__).with_name("strong_table.xz")
MAGIC = b"TRUCCFR2"
OFFERS = ("double", "remainder")


class StrategyTable:
    """The shipped strategy: sorted integer keys and the probability of the 'yes' action."""

    def __init__(self, path: Path | None = None) -> None:
        path = TABLE if path is None else path
        blob = lzma.decompress(path.read_bytes())
        if not blob.startswith(MAGIC):
            raise ValueError(f"{path} is not a Le Truc strategy table")
        head_len, n, coded_len = struct.unpack_from("<III", blob, len(MAGIC))
        pos = len(MAGIC) + 12
        self.meta = json.loads(blob[pos:pos + head_len])
        pos += head_len
        self.keys = _unvarint(blob[pos:pos + coded_len], n)
        self.probs = blob[pos + coded_len:pos + coded_len + n]

    def get(self, key: int) -> float | None:
        i = bisect.bisect_left(self.keys, key)
        if i < len(self.keys) and self.keys[i] == key:
            return self.probs[i] / 255
        return None

    def __len__(self) -> int:
        return len(self.keys)


def _unvarint(coded: bytes, n: int) -> array[int]:
    """The sorted keys from their varint-coded gaps (numpy when it is there, else plain Python)."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy comes with scipy, a dependency
        keys = array("q")
        acc = value = shift = 0
        for byte in coded:
            value |= (byte & 127) << shift
            shift += 7
            if byte < 128:
                acc += value
                keys.append(acc)
                value = shift = 0
        return keys
    raw = np.frombuffer(coded, dtype=np.uint8)
    last = raw < 128
    group = np.concatenate([[0], np.cumsum(last)[:-1]])
    starts = np.flatnonzero(np.concatenate([[True], last[:-1]]))
    within = np.arange(len(raw)) - starts[group]
    parts = (raw & 127).astype(np.int64) << (7 * within)
    gaps = np.add.reduceat(parts, starts)
    out = array("q")
    out.frombytes(np.cumsum(gaps).astype("<i8").tobytes())
    assert len(out) == n
    return out


@lru_cache(maxsize=1)
def table() -> StrategyTable:
    return StrategyTable()


class Deal:
    """This seat's reading of the current deal from its view (since the last redeal)."""

    def __init__(self, view: dict[str, Any], substitute: dict[str, int] | None = None) -> None:
        me = self.me = view["seat"]
        nd = view["non_dealer"]
        self.role = 0 if me == nd else 1
        scores = view["scores"]
        self.sit = M.situation(scores[nd], scores[1 - nd])
        if substitute:
            self.sit = substitute.get(str(self.sit), self.sit)
        self.refused = 0
        self.cards: list[tuple[int, int]] = []   # (role, power)
        self.hist: list[tuple[int, int]] = []    # (card number, offerer role)
        phase, pending = "call", 0
        for seat, action in view["log"]:
            r = 0 if seat == nd else 1
            if phase == "call":
                phase = "call-answer" if action == "call" else "play"
            elif phase == "call-answer":
                if action == "accept":
                    self.refused, self.cards, self.hist, phase = 0, [], [], "call"
                else:
                    self.refused, phase = 1, "play"
            elif phase == "offer-answer":
                if action == "accept":
                    self.hist.append((len(self.cards), pending))
                phase = "play"
            elif action in OFFERS:
                pending, phase = r, "offer-answer"
            else:
                self.cards.append((r, M.POW[action[0]]))
        self.remaining = sorted(M.POW[c[0]] for c in view["hand"])
        mine = self.remaining + [p for r, p in self.cards if r == self.role]
        self.dealt = tuple(sorted(mine))
        self.hand = M.HAND_INDEX[self.dealt]

    def key(self, kind: int, powers: list[int] | None = None) -> int:
        prefix = M.prefix_code([p for _, p in self.cards] if powers is None else powers)
        return M.info_key(self.sit, kind, self.refused, self.role, self.hand, prefix, M.hist_code(self.hist))


def rule_power(view: dict[str, Any]) -> int:
    """The model's card for this seat, from the view."""
    mine, pool = _hand_and_unseen(view)
    led, first, tm, to, sp = _trick_state(view, view["seat"])
    return M.card_rule(mine, pool, view["opponent_cards"], led, first, tm, to, sp)


def _hand_and_unseen(view: dict[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seat's cards as model powers, and how many of each power it has not seen (card removal)."""
    mine = tuple(sorted(M.POW[c[0]] for c in view["hand"]))
    pool = [4] * 8
    for p in mine:
        pool[p] -= 1
    for t in view["tricks"]:
        for _, c in t["cards"]:
            pool[M.POW[c[0]]] -= 1
    for _, c in view["trick"]:
        pool[M.POW[c[0]]] -= 1
    return mine, tuple(pool)


def _trick_state(view: dict[str, Any], me: int) -> tuple[int, int, int, int, int]:
    trick = view["trick"]
    led = M.POW[trick[0][1][0]] if trick else -1
    ftw = view["first_trick_winner"]
    first = 0 if ftw is None else 1 if ftw == me else 2
    won = view["tricks_won"]
    return led, first, won[me], won[1 - me], len(view["spoiled"]) // 2


@lru_cache(maxsize=240)
def _playouts(dealt: tuple[int, ...], role: int) -> tuple[tuple[float, tuple[tuple[int, int], ...], tuple[Any, ...]],
                                                          ...]:
    """The model's deal against every opponent hand: (weight, cards as (role, power), the
    position before each card as (who plays it, trick state from ``role``'s side))."""
    out = []
    for opp in M.HANDS:
        w = M.pair_weight(dealt, opp) if role == 0 else M.pair_weight(opp, dealt)
        if w == 0.0:
            continue
        t = M.Tricks((dealt, opp) if role == 0 else (opp, dealt))
        seq: list[tuple[int, int]] = []
        states = []
        while not t.over:
            states.append((t.to_move, t.state_of(role)))
            card = M.rule_card(t)
            seq.append((t.to_move, card))
            t.play(card)
        out.append((w, tuple(seq), tuple(states)))
    return tuple(out)


@lru_cache(maxsize=50_000)
def _translations(dealt: tuple[int, ...], role: int, own_cards: tuple[int, ...],
                  state: tuple[int, tuple[int, int, int, int, int]], k: int,
                  opp_cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Card sequences of length ``k`` the model could have produced with our hand and the same
    trick state, nearest to the opponent's actual cards first."""
    found: dict[tuple[int, ...], tuple[int, float]] = {}
    for w, seq, states in _playouts(dealt, role):
        if len(states) <= k or states[k] != state:
            continue
        head = seq[:k]
        if tuple(p for r, p in head if r == role) != own_cards:
            continue
        theirs = [p for r, p in head if r != role]
        match = sum(a == b for a, b in zip(theirs, opp_cards, strict=False))
        powers = tuple(p for _, p in head)
        old = found.get(powers)
        found[powers] = (match, w + (old[1] if old else 0.0))
    return tuple(sorted(found, key=lambda s: (-found[s][0], -found[s][1])))


class StrongBot:
    name = "strong"

    def __init__(self, table_path: Path | None = None, think: float | None = None) -> None:
        """``think`` is accepted like every level's budget (``--think``) but unused: a decision is a
        lookup in the precomputed strategy table."""
        self._table = StrategyTable(table_path) if table_path is not None else None

    @property
    def table(self) -> StrategyTable:
        return self._table if self._table is not None else table()

    def _lookup(self, deal: Deal, kind: int, view: dict[str, Any]) -> float | None:
        p = self.table.get(deal.key(kind))
        if p is not None or not deal.cards:
            return p
        role = deal.role
        own = tuple(p for r, p in deal.cards if r == role)
        opp = tuple(p for r, p in deal.cards if r != role)
        to_move = role if kind == M.OFFER else 1 - role  # who plays the next card
        state = (to_move, _trick_state(view, deal.me))
        for powers in _translations(deal.dealt, role, own, state, len(deal.cards), opp):
            p = self.table.get(deal.key(kind, list(powers)))
            if p is not None:
                return p
        return None

    def policy(self, view: dict[str, Any]) -> dict[str, float]:
        """This seat's mixed strategy over its legal actions (probabilities summing to 1)."""
        legal = view["legal_actions"]
        if len(legal) == 1:
            return {legal[0]: 1.0}
        phase = view["phase"]
        deal = Deal(view, self.table.meta.get("substitute"))
        if phase == "call":
            p = self.table.get(deal.key(M.CALL))
            return _two("call", "play", 0.5 if p is None else p)
        if phase == "call-answer":
            p = self.table.get(deal.key(M.CALL_ANSWER))
            return _two("accept", "refuse", 0.5 if p is None else p)
        if phase == "offer-answer":
            p = self._lookup(deal, M.OFFER_ANSWER, view)
            if p is None:
                p = 1.0 if _accept_by_odds(view) else 0.0
            return _two("accept", "decline", p)
        power = rule_power(view)
        card = next(c for c in view["hand"] if M.POW[c[0]] == power)
        offer = next((a for a in legal if a in OFFERS), None)
        if offer is None:
            return {card: 1.0}
        p = self._lookup(deal, M.OFFER, view)
        return _two(offer, card, 0.0 if p is None else p)

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        pol = self.policy(view)
        r = rng.random()
        for action, p in pol.items():
            r -= p
            if r < 0:
                return action
        return max(pol, key=pol.__getitem__)


def _two(yes: str, no: str, p: float) -> dict[str, float]:
    if p <= 0.0:
        return {no: 1.0}
    if p >= 1.0:
        return {yes: 1.0}
    return {yes: p, no: 1.0 - p}


def _accept_by_odds(view: dict[str, Any]) -> bool:
    """Fallback answer: accept when the face-up odds make accepting worth more points than declining."""
    me = view["seat"]
    mine, pool = _hand_and_unseen(view)
    led, first, tm, to, sp = _trick_state(view, me)
    ((_, pw, pl, _),) = trick_odds(mine, pool, view["opponent_cards"], led, first, tm, to, sp, False)
    stake = view["stake"]
    if view["offer"]["kind"] == "remainder":
        needs = view["needs"]
        gain = pw * needs[me] - pl * needs[1 - me]
    else:
        gain = 2 * stake * (pw - pl)
    return gain >= -stake
