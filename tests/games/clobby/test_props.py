"""Clobby: properties that must hold under any legal play (Hypothesis drives seeds and choices)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.games.clobby.rules import PACK, POINTS, TRUMP_NAME
from parlour.testing import HiddenCardWatch

MODE_OF = {name: mode for mode, name in TRUMP_NAME.items()}
BID_WORDS = ["take", "pass", "schmeiss", "accept", "refuse", "exchange", "keep", "tout-atout",
             "name C", "name D", "name H", "name S", "name sans-tout", "name tout-atout", "", "bella"]
CANDIDATES = BID_WORDS + list(PACK) + [c + "+bella" for c in PACK]

OPTIONS = st.fixed_dictionaries({
    "game_point": st.sampled_from([100, 150, 500]),
    "no_tie": st.booleans(),
    "clubs_preferred": st.booleans(),
    "tout_atout": st.booleans(),
})
PROPS = settings(max_examples=60, deadline=None)


def check_hidden(state: parlour.State, watch: HiddenCardWatch) -> None:
    """No view shows a card its seat may not know (the kit's one checker; ``watch`` follows the
    game, so every position since the last call is checked), and the opponent's hand size is right."""
    watch.check(state)
    hands = [state.view(s)["hand"] for s in (0, 1)]
    for seat in (0, 1):
        assert state.view(seat)["opponent_cards"] == len(hands[1 - seat])


def run_game(state: parlour.State, rng: random.Random, max_deals: int = 8, *, checks: bool = True) -> None:
    dealt_points = None
    deals_before = len(state.deals)
    watch = HiddenCardWatch(rng=random.Random(rng.random()), redeal_rate=0.1)
    while not state.is_over and len(state.deals) - deals_before < max_deals:
        legal = state.legal_actions()
        assert legal, "no legal action before the game is over"
        assert state.current_player in (0, 1)
        v = state.view(state.current_player)
        assert v["legal_actions"] == legal
        if state.phase == "play" and not v["tricks"] and not v["trick"]:
            h0, h1 = state.view(0)["hand"], state.view(1)["hand"]
            assert len(h0) == 9 and len(h1) == 9 and not set(h0) & set(h1)
            mode = MODE_OF[v["trump"]]
            dealt_points = sum(POINTS[mode][PACK.index(c)] for c in h0 + h1)
        if checks and rng.random() < 0.3:
            check_hidden(state, watch)
        if rng.random() < 0.05:
            bad = rng.choice([c for c in CANDIDATES if c not in legal])
            before, views = state.to_json(), [state.view(0), state.view(1)]
            try:
                state.apply(bad)
            except parlour.IllegalAction:
                pass
            else:  # pragma: no cover - the property fails
                raise AssertionError(f"{bad!r} was accepted; legal: {legal}")
            assert state.to_json() == before and [state.view(0), state.view(1)] == views
        n = len(state.deals)
        state.apply(rng.choice(legal))
        if len(state.deals) > n:
            d = state.deals[-1]
            json.dumps(d)
            check_summary(d)
            if not d["thrown_in"] and dealt_points is not None:  # None: this run began inside the deal
                assert sum(d["card_points"]) == dealt_points + 10
                if d["trump"] in "CDHS":
                    assert sum(d["card_points"]) <= 156
            dealt_points = None
    if checks:
        watch.check(state)
    assert state.is_over == (state.current_player is None)


def check_summary(d: dict) -> None:
    for key in ("scores", "maker", "trump", "points", "melds", "meld_winner", "bete", "thrown_in"):
        assert key in d
    if d["thrown_in"]:
        assert d["scores"] == [0, 0] and d["maker"] is None
        return
    m, o = d["maker"], 1 - d["maker"]
    p = d["points"]
    for s in (0, 1):
        assert p[s] == d["card_points"][s] + d["meld_points"][s] + d["bella"][s]
        assert (d["meld_points"][s] > 0) == (d["meld_winner"] == s and bool(d["melds"][s]))
        assert d["meld_points"][s] == sum(x["points"] for x in d["melds"][s])
    if p[m] > p[o]:
        assert d["scores"] == p and not d["bete"]
    elif p[m] == p[o]:
        assert d["scores"][m] == 0 and d["scores"][o] == p[o] and not d["bete"]
    else:
        assert d["bete"] and d["scores"][m] == 0 and d["scores"][o] == p[0] + p[1]


@PROPS
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1), opts=OPTIONS)
def test_random_play_keeps_the_invariants(seed: int, choices: int, opts: dict) -> None:
    state = parlour.load("clobby", **opts).new_state(seed=seed)
    run_game(state, random.Random(choices))
    total = [sum(d["scores"][s] for d in state.deals) for s in (0, 1)]
    assert state.scores == total
    if state.is_over:
        gp = opts["game_point"]
        assert max(state.scores) >= gp and state.scores[0] != state.scores[1]
        assert state.winner == (0 if state.scores[0] > state.scores[1] else 1)
        assert state.legal_actions() == []


def test_replay_deal_gives_the_same_cards() -> None:
    game = parlour.load("clobby")
    state = game.new_state(seed=5)
    first = [state.view(0)["hand"], state.view(1)["hand"], state.view(0)["upcard"], state.dealer]
    rng = random.Random(1)
    while not state.deals:
        state.apply(rng.choice(state.legal_actions()))
    assert state.can_replay_deal
    state.replay_deal()
    assert [state.view(0)["hand"], state.view(1)["hand"], state.view(0)["upcard"], state.dealer] == first
    again = parlour.from_json(state.to_json())
    assert again.view(0) == state.view(0)


def test_long_random_games_finish() -> None:
    for seed in range(6):
        state = parlour.load("clobby", game_point=300, tout_atout=seed % 2 == 0).new_state(seed=seed)
        run_game(state, random.Random(seed), max_deals=10_000, checks=False)
        assert state.is_over and state.winner in (0, 1)


#: a deal's pack positions as RULES.md deals them (clubs preferred has no dix, so card 12 is the upcard)
ELDER_AT = (0, 1, 2, 6, 7, 8, 13, 15, 17)
DEALER_AT = (3, 4, 5, 9, 10, 11, 14, 16, 18)
STOCK_AT = tuple(range(19, 32))
GAME_LEVEL = ("scores", "deal_number", "last_deal", "trick_seq")  # differ between the game and its one-deal twin


def dix_twin_view(state: parlour.State, deal_start: int, seat: int, rng: random.Random) -> tuple[dict, dict] | None:
    """``seat``'s view now, and in a twin deal where the 7 of trumps moved between the other hand and the stock.

    The twin keeps ``seat``'s cards, the upcard and every action of this deal (from ``deal_start``
    in the record), so if being asked at the dix told anything about the 7, the two views would
    differ.  None when ``seat`` holds the 7 itself or the other seat already exchanged it (both are
    things ``seat`` knows).
    """
    view = state.view(seat)
    seven = "7" + view["upcard"][1]
    if seven in view["hand"] or (view["dix"] and view["dix"]["exchanged_by"] is not None):
        return None
    pack = state.current_pack()
    other = DEALER_AT if seat == view["elder"] else ELDER_AT
    at = pack.index(seven)
    swap = rng.choice(STOCK_AT if at in other else other)
    assert at in other or at in STOCK_AT
    pack[at], pack[swap] = pack[swap], pack[at]
    twin = state.game.new_state(deck=pack, dealer=state.dealer)
    for action in state.actions[deal_start:]:
        twin.apply(action)
    mine, theirs = dict(view), twin.view(seat)
    for key in GAME_LEVEL:
        mine.pop(key)
        theirs.pop(key)
    return mine, theirs


@PROPS
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1), opts=OPTIONS)
def test_no_view_places_the_seven_of_trumps_through_the_dix(seed: int, choices: int, opts: dict) -> None:
    """RULES.md: both are asked at the dix, so being asked (or keeping) reveals nothing about the 7."""
    opts = {**opts, "clubs_preferred": False, "game_point": 9999}
    state = parlour.load("clobby", **opts).new_state(seed=seed)
    rng = random.Random(choices)
    compared = 0
    deal_start = 0
    for _ in range(250):
        if state.phase == "dix":
            answered = len(state.view(0)["dix"]["answers"])
            assert state.current_player == (state.view(0)["elder"] + answered) % 2  # elder, then dealer
            for seat in (0, 1):
                pair = dix_twin_view(state, deal_start, seat, rng)
                if pair is not None:
                    assert pair[0] == pair[1], seat
                    compared += 1
            legal = state.legal_actions()
            # take the rarer exchange only sometimes, so that both answers are often "keep"
            action = "exchange" if "exchange" in legal and rng.random() < 0.3 else "keep"
        else:
            legal = state.legal_actions()
            weights = [8.0 if a == "take" else 1.0 for a in legal]  # reach the dix often
            action = rng.choices(legal, weights=weights)[0]
        deals = len(state.deals)
        state.apply(action)
        if len(state.deals) > deals:
            deal_start = len(state.actions)
    assert compared > 0
