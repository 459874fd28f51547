"""Clobby against a second, deliberately naive implementation of RULES.md.

The reference below works on card strings and re-derives everything each time, sharing no
code with the engine.  Random games must agree on whose turn it is, the exact set of legal
actions, and every deal's scores.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour

SUITS = "CDHS"
SEQ = "789TJQKA"
T_ORDER = "78QKTA9J"  # low -> high
P_ORDER = "789JQKTA"
T_PTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
P_PTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


class Ref:
    def __init__(self, pack: list[str], dealer: int, opts: dict) -> None:
        self.o = opts
        self.pack = pack
        self.dealer = dealer
        self.elder = 1 - dealer
        e, d = self.elder, dealer
        self.hand = {e: pack[0:3] + pack[6:9], d: pack[3:6] + pack[9:12]}
        self.up = None if opts["clubs_preferred"] else pack[12]
        self.usuit = "C" if opts["clubs_preferred"] else pack[12][1]
        self.phase, self.turn = "r1", e
        self.trump = None  # suit letter, "sans" or "tout"
        self.maker = None
        self.trick: list[tuple[int, str]] = []
        self.won = {0: 0, 1: 0}
        self.ntricks = 0
        self.played_by: dict[int, list[str]] = {0: [], 1: []}
        self.bella = {0: 0, 1: 0}
        self.result: dict | None = None

    # --- helpers
    def is_t(self, c: str) -> bool:
        return self.trump == "tout" or c[1] == self.trump

    def stren(self, c: str) -> int:
        return (T_ORDER if self.is_t(c) else P_ORDER).index(c[0])

    def pts(self, c: str) -> int:
        return (T_PTS if self.is_t(c) else P_PTS)[c[0]]

    def second_deal(self) -> None:
        b = 12 if self.o["clubs_preferred"] else 13
        self.hand[self.elder] += [self.pack[b], self.pack[b + 2], self.pack[b + 4]]
        self.hand[self.dealer] += [self.pack[b + 1], self.pack[b + 3], self.pack[b + 5]]

    def fix(self, maker: int, trump: str, round1: bool) -> None:
        self.maker, self.trump = maker, trump
        self.second_deal()
        if round1 and self.up and self.up[0] != "7":
            seven = "7" + self.up[1]
            for s in (self.elder, self.dealer):
                if seven in self.hand[s]:
                    self.phase, self.turn = "dix", s
                    return
        self.begin_play()

    def best_meld(self, hand: list[str]) -> tuple[tuple, list[int]]:
        melds, best = [], ()
        for s in SUITS:
            idx = sorted(SEQ.index(c[0]) for c in hand if c[1] == s)
            run: list[int] = []
            for i in idx + [99]:
                if run and i == run[-1] + 1:
                    run.append(i)
                else:
                    if len(run) >= 3:
                        melds.append(20 if len(run) == 3 else 50)
                        key = (min(len(run), 4), run[-1], 1 if (self.trump == "tout" or s == self.trump) else 0)
                        best = max(best, key)
                    run = [i]
        return best, melds

    def begin_play(self) -> None:
        b0, m0 = self.best_meld(self.hand[0])
        b1, m1 = self.best_meld(self.hand[1])
        if b0 == b1:
            self.mw = self.elder if (self.o["no_tie"] and b0) else None
        else:
            self.mw = 0 if b0 > b1 else 1
        self.mpts = {0: 0, 1: 0}
        if self.mw is not None:
            self.mpts[self.mw] = sum(m0 if self.mw == 0 else m1)
        self.phase, self.turn = "play", self.elder

    # --- the API
    def legal(self) -> list[str]:
        ph = self.phase
        if ph == "r1":
            return ["take", "pass", "schmeiss"]
        names = [f"name {s}" for s in SUITS if s != self.usuit]
        if ph == "r2":
            extra = ["name sans-tout", "name tout-atout"] if self.o["tout_atout"] else []
            return names + extra + ["pass", "schmeiss"]
        if ph in ("reply1", "reply2"):
            return ["accept", "refuse"]
        if ph == "name":
            return names
        if ph == "over":
            return ["tout-atout", "pass"]
        if ph == "dix":
            return ["exchange", "keep"]
        hand = self.hand[self.turn]
        if not self.trick:
            cards = list(hand)
        else:
            led = self.trick[0][1]
            same = [c for c in hand if c[1] == led[1]]
            if self.trump == "sans":
                cards = same or list(hand)
            elif self.trump == "tout":
                higher = [c for c in same if self.stren(c) > self.stren(led)]
                cards = higher or same or list(hand)
            elif led[1] == self.trump:
                higher = [c for c in same if self.stren(c) > self.stren(led)]
                cards = higher or same or list(hand)
            else:
                trumps = [c for c in hand if c[1] == self.trump]
                cards = same or trumps or list(hand)
        out = []
        for c in cards:
            out.append(c)
            if self.trump != "sans" and self.is_t(c) and c[0] in "KQ":
                partner = ("Q" if c[0] == "K" else "K") + c[1]
                if partner in self.played_by[self.turn]:
                    out.append(c + "+bella")
        return out

    def apply(self, a: str) -> None:
        p, other, ph = self.turn, 1 - self.turn, self.phase
        if ph == "r1":
            if a == "take":
                self.fix(p, self.usuit, True)
            elif a == "pass":
                if p == self.elder:
                    self.turn = other
                else:
                    self.phase, self.turn = "r2", self.elder
            else:
                self.schm, self.phase, self.turn = p, "reply1", other
        elif ph == "r2":
            if a == "pass":
                if p == self.elder:
                    self.turn = other
                else:
                    self.result = {"scores": [0, 0], "thrown_in": True}
            elif a == "schmeiss":
                self.schm, self.phase, self.turn = p, "reply2", other
            elif a == "name sans-tout":
                self.namer, self.phase, self.turn = p, "over", other
            elif a == "name tout-atout":
                self.fix(p, "tout", False)
            else:
                self.fix(p, a[-1], False)
        elif ph in ("reply1", "reply2"):
            if a == "accept":
                self.result = {"scores": [0, 0], "thrown_in": True}
            elif ph == "reply1":
                self.fix(self.schm, self.usuit, True)
            else:
                self.phase, self.turn = "name", self.schm
        elif ph == "name":
            self.fix(p, a[-1], False)
        elif ph == "over":
            if a == "tout-atout":
                self.fix(p, "tout", False)
            else:
                self.fix(self.namer, "sans", False)
        elif ph == "dix":
            if a == "exchange":
                self.hand[p].remove("7" + self.up[1])
                self.hand[p].append(self.up)
            self.begin_play()
        else:
            card = a.split("+")[0]
            if a.endswith("+bella"):
                self.bella[p] += 20
            self.hand[p].remove(card)
            self.played_by[p].append(card)
            self.trick.append((p, card))
            if len(self.trick) == 1:
                self.turn = other
                return
            (lp, lc), (fp, fc) = self.trick
            if self.trump == "tout":
                fw = self.stren(fc) > self.stren(lc)
            elif fc[1] == lc[1]:
                fw = self.stren(fc) > self.stren(lc)
            else:
                fw = fc[1] == self.trump
            w = fp if fw else lp
            self.won[w] += self.pts(lc) + self.pts(fc)
            self.trick = []
            self.ntricks += 1
            self.turn = w
            if self.ntricks == 9:
                self.won[w] += 10
                tot = [self.won[s] + self.mpts[s] + self.bella[s] for s in (0, 1)]
                m, o = self.maker, 1 - self.maker
                sc = [0, 0]
                if tot[m] > tot[o]:
                    sc = tot
                elif tot[m] == tot[o]:
                    sc[o] = tot[o]
                else:
                    sc[o] = tot[0] + tot[1]
                self.result = {"scores": sc, "thrown_in": False, "points": tot}


def compare_game(opts: dict, seed: int, choices: int, max_deals: int = 6) -> int:
    state = parlour.load("clobby", **opts).new_state(seed=seed)
    rng = random.Random(choices)
    compared = 0
    while not state.is_over and len(state.deals) < max_deals:
        ref = Ref(state.current_pack(), state.dealer, state.game.options)
        n = len(state.deals)
        while len(state.deals) == n:
            assert state.current_player == ref.turn
            legal = state.legal_actions()
            assert sorted(legal) == sorted(ref.legal()), (legal, ref.legal())
            a = rng.choice(legal)
            state.apply(a)
            ref.apply(a)
        d = state.deals[-1]
        assert ref.result is not None
        assert d["scores"] == ref.result["scores"] and d["thrown_in"] == ref.result["thrown_in"]
        if not d["thrown_in"]:
            assert d["points"] == ref.result["points"]
        compared += 1
    return compared


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1),
       opts=st.fixed_dictionaries({"no_tie": st.booleans(), "clubs_preferred": st.booleans(),
                                   "tout_atout": st.booleans()}))
def test_engine_agrees_with_the_reference(seed: int, choices: int, opts: dict) -> None:
    compare_game({"game_point": 9999, **opts}, seed, choices)


def test_engine_agrees_with_the_reference_under_the_easy_bot() -> None:
    """Random play throws many deals in; bots play whole deals with real melds and bella."""
    from parlour.bots import make

    easy = make("clobby", "easy")
    for seed in range(30):
        opts = {"game_point": 9999, "tout_atout": seed % 2 == 0, "clubs_preferred": seed % 5 == 0,
                "no_tie": seed % 3 == 0}
        state = parlour.load("clobby", **opts).new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(3):
            ref = Ref(state.current_pack(), state.dealer, state.game.options)
            n = len(state.deals)
            while len(state.deals) == n:
                assert sorted(state.legal_actions()) == sorted(ref.legal())
                a = easy.act(state.view(state.current_player), rng)
                state.apply(a)
                ref.apply(a)
            assert state.deals[-1]["scores"] == ref.result["scores"]
