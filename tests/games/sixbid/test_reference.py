"""An independent reference implementation of Six-Bid Solo, written from RULES.md alone.

Why: outside checks compare the engine with independent implementations of the rules contract
(/work/shared/RULES.md, "Six-Bid Solo") over many random deals.  This file is one such
implementation, deliberately simple (card codes as strings, plain lists), and a comparison that
drives the engine and the reference with the same ``deck=``/``dealer=`` and the same random
actions, asserting at every step the same player to act and the same *set* of legal actions,
and at the end of the first deal the same summary (scores, soloist, bid, trump, pips, made, ...).
It also checks that ``view(seat)`` never shows a card that seat may not know.

Readings taken where RULES.md leaves room (see the report in the module's docstring below):
- A player whose only legal action is ``pass`` (the standing bid is ``call``) is still asked:
  RULES.md says "the dealer then speaks against the survivor" and "while both are still in they
  alternate", with no exception for forced passes.
- When elder passes first, next still speaks (bids or passes); only then is there a survivor or
  not ("unless neither has bid (both passed)").
- The give after a call may be any of the soloist's 11 cards held before the swap.
- The called card is an announcement, so it is public; the given card is known to the soloist
  and the receiver only.
- ``pips`` in the summary is the soloist's card points: his tricks, plus the widow whenever there
  is a trump suit (for the misères: his tricks alone).
"""

from __future__ import annotations

import json
import random
import re

import pytest

import parlour

SUITS = "CDHS"
RANKS = "ATKQJ9876"  # high to low, every suit
PACK = [r + s for s in SUITS for r in RANKS]
PIPS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
BIDS = ["solo", "heart", "misere", "guarantee", "spread", "call"]
PAY = {"misere": 30, "guarantee": 40, "spread": 60}


def pips(cards):
    return sum(PIPS.get(c[0], 0) for c in cards)


def deal_slices(dealer):
    """Seat -> the deck positions of its 11 cards; and the widow's positions (RULES.md *Deal*)."""
    elder, nxt = (dealer + 1) % 3, (dealer + 2) % 3
    where = {
        elder: list(range(0, 4)) + list(range(12, 15)) + list(range(24, 28)),
        nxt: list(range(4, 8)) + list(range(15, 18)) + list(range(28, 32)),
        dealer: list(range(8, 12)) + list(range(18, 21)) + list(range(32, 36)),
    }
    return where, [21, 22, 23]


class Reference:
    """One deal of Six-Bid Solo, from RULES.md."""

    def __init__(self, deck, dealer, chips):
        self.dealer = dealer
        self.elder = (dealer + 1) % 3
        self.nxt = (dealer + 2) % 3
        where, widow = deal_slices(dealer)
        self.hands = {seat: [deck[i] for i in where[seat]] for seat in range(3)}
        self.widow = [deck[i] for i in widow]
        self.chips_before = [chips] * 3
        self.auction = []
        self.bid = None  # the standing bid
        self.high = None  # who holds it
        # bidding stages: "pair" (elder vs next), "dealer" (dealer vs survivor), "alone" (dealer alone)
        self.stage = "pair"
        self.in_pair = [self.elder, self.nxt]
        self.survivor = None
        self.turn = self.elder
        self.phase = "bid"
        self.soloist = None
        self.trump = None
        self.called = None
        self.call_holder = None
        self.given = None
        self.leader = None
        self.trick = []  # [(seat, card)]
        self.played = []
        self.won = {seat: [] for seat in range(3)}  # cards taken per seat
        self.tricks = [0, 0, 0]
        self.result = None

    # -- who acts, what is legal -------------------------------------------------------
    def current_player(self):
        return None if self.phase == "over" else self.turn

    def legal(self):
        if self.phase == "bid":
            higher = BIDS if self.bid is None else BIDS[BIDS.index(self.bid) + 1:]
            return list(higher) + ["pass"]
        if self.phase == "trump":
            suits = "CDS" if self.bid == "solo" else SUITS
            return ["trump " + s for s in suits]
        if self.phase == "call":
            mine = self.hands[self.soloist]
            return ["call " + c for c in PACK if c not in mine]
        if self.phase == "give":
            return list(self.hands[self.soloist])  # any card he held before the swap
        if self.phase == "play":
            hand = self.hands[self.turn]
            if self.trick:
                led = self.trick[0][1][1]
                same = [c for c in hand if c[1] == led]
                if same:
                    return same
            return list(hand)
        return []

    # -- applying an action --------------------------------------------------------------
    def apply(self, action):
        assert action in self.legal(), (action, self.legal())
        seat = self.turn
        if self.phase == "bid":
            self.auction.append([seat, action])
            self._bid(seat, action)
        elif self.phase == "trump":
            self.trump = action.split()[1]
            if self.bid == "call":
                self.phase = "call"
            else:
                self._start_play()
        elif self.phase == "call":
            card = action.split()[1]
            self.called = card
            self.call_holder = next((s for s in range(3) if card in self.hands[s]), None)
            if self.call_holder is None:  # in the widow: nothing changes
                self._start_play()
            else:
                self.phase = "give"
        elif self.phase == "give":
            self.given = action
            self.hands[self.soloist].remove(action)
            self.hands[self.call_holder].remove(self.called)
            self.hands[self.soloist].append(self.called)
            self.hands[self.call_holder].append(action)
            self._start_play()
        else:
            self._play(seat, action)

    def _bid(self, seat, action):
        is_pass = action == "pass"
        if not is_pass:
            self.bid, self.high = action, seat
        if self.stage == "pair":
            other = self.nxt if seat == self.elder else self.elder
            if is_pass:
                self.in_pair.remove(seat)
                if not self.in_pair:  # both passed: the dealer alone
                    self.stage, self.turn = "alone", self.dealer
                elif self.high is None:  # the other has not spoken yet: he speaks
                    self.turn = other
                else:  # the other holds the bid: he is the survivor
                    self._to_dealer(other)
            elif other in self.in_pair:
                self.turn = other
            else:  # the other passed earlier: this bidder survives
                self._to_dealer(seat)
        elif self.stage == "dealer":
            if is_pass:
                self._end_bidding(self.survivor if seat == self.dealer else self.dealer)
            else:
                self.turn = self.survivor if seat == self.dealer else self.dealer
        else:  # the dealer alone: one bid or pass
            if is_pass:
                self._throw_in()
            else:
                self._end_bidding(seat)

    def _to_dealer(self, survivor):
        self.stage, self.survivor, self.turn = "dealer", survivor, self.dealer

    def _end_bidding(self, soloist):
        assert soloist == self.high
        self.soloist = soloist
        self.turn = soloist
        if self.bid in ("solo", "guarantee", "call"):
            self.phase = "trump"
        else:
            self.trump = "H" if self.bid == "heart" else None
            self._start_play()

    def _start_play(self):
        self.phase = "play"
        self.leader = (self.soloist + 1) % 3 if self.bid == "spread" else self.elder
        self.turn = self.leader

    def _winner(self):
        led = self.trick[0][1][1]
        trumps = [(s, c) for s, c in self.trick if self.trump is not None and c[1] == self.trump]
        pool = trumps if trumps else [(s, c) for s, c in self.trick if c[1] == led]
        return min(pool, key=lambda sc: RANKS.index(sc[1][0]))[0]

    def _play(self, seat, card):
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.played.append(card)
        if len(self.trick) < 3:
            self.turn = (seat + 1) % 3
            return
        win = self._winner()
        self.won[win].extend(c for _, c in self.trick)
        self.tricks[win] += 1
        self.trick = []
        self.turn = win
        if not any(self.hands[s] for s in range(3)):
            self._score()

    # -- the end of the deal --------------------------------------------------------------
    def _throw_in(self):
        self.phase = "over"
        self.result = {"scores": [0, 0, 0], "thrown_in": True, "soloist": None}

    def _score(self):
        self.phase = "over"
        solo, bid = self.soloist, self.bid
        taken = pips(self.won[solo])
        if self.trump is not None:
            taken += pips(self.widow)
        target = None
        if bid in ("solo", "heart"):
            target = 60
            made = taken >= 60
            amount = (2 if bid == "solo" else 3) * abs(taken - 60)
        elif bid in ("misere", "spread"):
            made = self.tricks[solo] == 0
            amount = PAY[bid]
        elif bid == "guarantee":
            target = 74 if self.trump == "H" else 80
            made = taken >= target
            amount = 40
        else:  # call: all 120 pips
            target = 120
            made = taken == 120
            amount = 150 if self.trump == "H" else 100
        sign = 1 if made else -1
        scores = [-sign * amount] * 3
        scores[solo] = 2 * sign * amount
        self.result = {
            "scores": scores, "thrown_in": False, "soloist": solo, "bid": bid, "trump": self.trump,
            "pips": taken, "made": made, "target": target,
        }

    def extra_summary(self):
        """Summary keys whose meaning is evident from RULES.md and the issue."""
        chips = [c + d for c, d in zip(self.chips_before, self.result["scores"], strict=True)]
        out = {
            "widow": sorted(self.widow), "widow_pips": pips(self.widow), "auction": self.auction,
            "tricks": self.tricks, "trick_pips": [pips(self.won[s]) for s in range(3)], "chips": chips,
            "dealer": self.dealer,
        }
        if not self.result["thrown_in"]:
            out["call"] = None if self.called is None else {"card": self.called, "holder": self.call_holder}
        return out

    def match_after(self):
        """(is_over, winner) after this first deal: over when a seat has no chips (<= 0)."""
        chips = self.extra_summary()["chips"]
        if min(chips) > 0:
            return False, None
        best = max(chips)
        top = [s for s in range(3) if chips[s] == best]
        return True, (top[0] if len(top) == 1 else None)

    # -- what a seat may not know ------------------------------------------------------------
    def hidden_from(self, seat):
        hidden = set(self.widow)
        for s in range(3):
            if s != seat:
                hidden |= set(self.hands[s])
        hidden -= set(self.played)
        if self.called is not None:
            hidden.discard(self.called)  # the call is announced
        if seat == self.soloist and self.given is not None:
            hidden.discard(self.given)  # he gave it himself
        if self.bid == "spread" and self.phase in ("play", "over") and seat != self.soloist:
            hidden -= set(self.hands[self.soloist])  # face up from the start of play
        return hidden


# -- random decks biased towards rare contracts ----------------------------------------------
def crafted_deck(rng, dealer, seat, hand):
    """A deck in which ``seat`` is dealt exactly ``hand`` (11 cards), the rest shuffled."""
    rest = [c for c in PACK if c not in hand]
    rng.shuffle(rest)
    hand = list(hand)
    rng.shuffle(hand)
    where, _ = deal_slices(dealer)
    deck = [None] * 36
    for pos, card in zip(where[seat], hand, strict=True):
        deck[pos] = card
    it = iter(rest)
    return [c if c is not None else next(it) for c in deck]


def make_plan(rng, dealer):
    """A deck and a plan: which seat should bid what (or None for free random bidding)."""
    kind = rng.choice(["random", "random", "random", "call", "misere", "spread", "strong", "strong"])
    if kind == "random":
        deck = list(PACK)
        rng.shuffle(deck)
        return deck, None
    seat = rng.randrange(3)
    if kind == "call":
        t, u = rng.sample(SUITS, 2)
        hand = [r + t for r in RANKS] + ["A" + u, "T" + u]
        bid = "call"
    elif kind in ("misere", "spread"):
        hand = rng.sample([r + s for s in SUITS for r in "876"], 11)
        bid = kind
    else:
        t = rng.choice(SUITS)
        hand = [r + t for r in RANKS[: rng.randint(3, 7)]]
        hand += rng.sample([c for c in PACK if c[1] != t and c[0] in "ATK"], 11 - len(hand))
        bid = rng.choice(["solo", "heart", "guarantee", "solo"])
        if bid == "heart":
            hand = [c[0] + ("H" if c[1] == t else (t if c[1] == "H" else c[1])) for c in hand]
    return crafted_deck(rng, dealer, seat, hand), {"seat": seat, "bid": bid, "hand": hand}


def choose(rng, ref, legal, plan, style):
    """A random legal action, biased so that rare paths are taken often enough."""
    seat = ref.turn
    if ref.phase == "bid":
        if plan is not None:
            if seat == plan["seat"] and plan["bid"] in legal:
                return plan["bid"]
            return "pass" if rng.random() < 0.85 else rng.choice(legal)
        if rng.random() < style["pass"] or legal == ["pass"]:
            return "pass"
        bids = legal[:-1]
        r = rng.random()
        if r < 0.45:
            return bids[0]
        if r < 0.6:
            return bids[-1]
        return rng.choice(bids)
    smart = plan is not None and seat == ref.soloist and rng.random() < 0.95
    if ref.phase == "trump" and plan is not None and seat == plan["seat"] and rng.random() < 0.9:
        counts = {s: sum(c[1] == s for c in ref.hands[seat]) for s in SUITS}
        best = max(legal, key=lambda a: counts[a[-1]])
        return best
    if ref.phase == "call" and smart:
        aces = [a for a in legal if a[5] == "A"]
        return rng.choice(aces) if aces else rng.choice(legal)
    if ref.phase == "give" and smart:
        return min(legal, key=lambda c: (c[1] != ref.trump, -RANKS.index(c[0])))
    if ref.phase == "play" and smart:
        return smart_card(ref, legal)
    return rng.choice(legal)


def smart_card(ref, legal):
    """The soloist's simple plan: win everything in a trump contract, duck in a misère."""
    def power(c):
        led = ref.trick[0][1][1] if ref.trick else c[1]
        if ref.trump is not None and c[1] == ref.trump:
            return 200 - RANKS.index(c[0])
        if c[1] == led:
            return 100 - RANKS.index(c[0])
        return -RANKS.index(c[0])

    if ref.bid in ("misere", "spread"):
        if not ref.trick:
            return min(legal, key=power)
        best = max(power(c) for _, c in ref.trick)
        under = [c for c in legal if power(c) < best]
        return max(under, key=power) if under else min(legal, key=power)
    return max(legal, key=power)


# -- the comparison --------------------------------------------------------------------------
CARD_RE = re.compile(r"(?<![A-Za-z0-9])([6-9TJQKA][CDHS])(?![A-Za-z0-9])")


def check_views(state, ref):
    for seat in range(3):
        view = state.view(seat)
        assert sorted(view["hand"]) == sorted(ref.hands[seat]), (seat, view["hand"], ref.hands[seat])
        view = dict(view)
        view.pop("last_deal", None)
        if ref.phase == "call":  # "call XY" for every card he lacks: his own hand's complement, no leak
            assert sorted(view.pop("legal_actions", ref.legal())) == sorted(ref.legal())
        shown = set(CARD_RE.findall(json.dumps(view)))
        if ref.bid == "spread" and ref.phase == "play":  # the soloist's hand lies face up for all
            assert set(ref.hands[ref.soloist]) <= shown, (seat, ref.hands[ref.soloist])
        leaked = shown & ref.hidden_from(seat)
        assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)} in phase {ref.phase}"


def run_deal(seed, game_cache={}):  # noqa: B006 - a small cache of game objects
    rng = random.Random(seed)
    dealer = rng.randrange(3)
    chips = rng.choice([1000, 1000, 1000, 200, 40, 10])
    deck, plan = make_plan(rng, dealer)
    style = {"pass": rng.choice([0.1, 0.3, 0.5, 0.8])}
    if chips not in game_cache:
        game_cache[chips] = parlour.load("sixbid", chips=chips)
    state = game_cache[chips].new_state(deck=deck, dealer=dealer)
    ref = Reference(deck, dealer, chips)
    steps = 0
    context = {"seed": seed, "deck": deck, "dealer": dealer, "chips": chips}
    while True:
        assert state.current_player == ref.current_player(), (context, state.actions)
        legal = ref.legal()
        assert sorted(state.legal_actions()) == sorted(legal), (context, state.actions)
        check_views(state, ref)
        action = choose(rng, ref, legal, plan, style)
        state.apply(action)
        ref.apply(action)
        steps += 1
        if ref.phase == "over":
            break
        assert len(state.deals) == 0, (context, state.actions, "the engine ended the deal early")
    assert len(state.deals) == 1, (context, state.actions)
    summary = state.deals[0]
    for key, value in ref.result.items():
        assert summary[key] == value, (key, summary[key], value, context, state.actions)
    for key, value in ref.extra_summary().items():
        got = sorted(summary[key]) if key == "widow" else summary[key]
        assert got == value, (key, got, value, context, state.actions)
    over, winner = ref.match_after()
    assert state.is_over == over, (context, state.actions)
    assert list(state.scores) == ref.extra_summary()["chips"]
    if over:
        assert state.winner == winner and state.current_player is None and state.legal_actions() == []
    else:
        assert state.winner is None
        assert state.dealer == (dealer + 1) % 3  # the deal passes, played or thrown in
        assert state.current_player == (dealer + 2) % 3  # the new elder speaks first
    return steps, ref, over, winner


def run_many(seeds):
    """Run the comparison over ``seeds``; count the paths taken, so tests can insist rare ones were reached."""
    totals = {"deals": 0, "steps": 0}

    def count(key):
        totals[key] = totals.get(key, 0) + 1

    for seed in seeds:
        steps, ref, over, winner = run_deal(seed)
        totals["deals"] += 1
        totals["steps"] += steps
        result = ref.result
        if over:
            count("match over, winner" if winner is not None else "match over, tie")
        if result["thrown_in"]:
            count("thrown_in")
            continue
        bid, made, taken = result["bid"], result["made"], result["pips"]
        count((bid, made))
        if bid in ("solo", "heart") and taken == 60:
            count("exactly 60")
        if bid == "guarantee" and 74 <= taken < 80:
            count(("guarantee 74-79", result["trump"] == "H"))
        if bid == "call":
            count(("call", "hearts" if result["trump"] == "H" else "other", made))
            count("call card in widow" if ref.call_holder is None else "call exchange")
            if made and ref.tricks[ref.soloist] < 11:
                count("call made losing a pipless trick")
        if bid in ("misere", "spread") and not made and ref.tricks[ref.soloist] == 1:
            count("misere lost by one trick")
    return totals


def test_reference_agrees_with_engine():
    totals = run_many(range(300))
    assert totals["deals"] == 300
    # the bias must really reach the rare paths
    for key in ["thrown_in", ("misere", True), ("spread", True), ("call", True), "call card in widow",
                "call exchange", "match over, winner", "match over, tie"]:
        assert totals.get(key, 0) > 0, (key, totals)
    for bid in BIDS:
        assert totals.get((bid, False), 0) + totals.get((bid, True), 0) > 0, (bid, totals)


@pytest.mark.slow
def test_reference_agrees_with_engine_many_deals():
    totals = run_many(range(1000, 7000))
    assert totals["deals"] == 6000
    for bid in BIDS:
        assert totals.get((bid, True), 0) > 0 and totals.get((bid, False), 0) > 0, (bid, totals)
    for key in ["exactly 60", ("guarantee 74-79", True), ("guarantee 74-79", False), ("call", "hearts", True),
                ("call", "hearts", False), "call made losing a pipless trick", "misere lost by one trick"]:
        assert totals.get(key, 0) > 0, (key, totals)


def test_exactly_sixty_pays_nothing_and_call_in_widow_changes_nothing():
    """Two hand-made paths through the reference itself, so it is not only checked against the engine."""
    # a call whose card lies in the widow: no give, hands unchanged
    deck = list(PACK)
    ref = Reference(deck, 0, 1000)
    for a in ["call", "pass", "pass", "trump C"]:
        ref.apply(a)
    assert ref.soloist == 1 and ref.phase == "call"
    widow_card = ref.widow[0]
    ref.apply("call " + widow_card)
    assert ref.phase == "play" and ref.call_holder is None and len(ref.hands[1]) == 11
    # a solo with exactly 60: force the pip count by scoring directly
    ref = Reference(deck, 0, 1000)
    for a in ["solo", "pass", "pass", "trump C"]:
        ref.apply(a)
    ref.widow = []
    ref.won[1] = ["AC", "TC", "AD", "TD", "AH", "KH", "QS", "6S"]  # 60 pips
    ref._score()
    assert ref.result["pips"] == 60 and ref.result["made"] and ref.result["scores"] == [0, 0, 0]
