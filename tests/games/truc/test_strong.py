"""Le Truc's strong player: the shipped table loads, every choice is legal, whole games play."""

from __future__ import annotations

import copy
import random

import pytest

import parlour
from parlour.bots import levels, make
from parlour.games.truc import model as M
from parlour.games.truc import strong as S


def random_states(n: int, seed: int):
    """Positions reached by random play with plenty of calls, offers and acceptances."""
    rng = random.Random(seed)
    game = parlour.load("truc")
    made = g = 0
    while made < n:
        state = game.new_state(seed=seed * 1000 + g)
        g += 1
        while not state.is_over and made < n:
            yield state
            made += 1
            legal = state.legal_actions()
            pick = next((w for w in ("call", "double", "remainder", "accept") if w in legal and rng.random() < 0.4),
                        None)
            state.apply(pick or rng.choice(legal))


def test_the_shipped_table_loads_and_covers_every_situation():
    table = S.table()
    assert 0 < len(table) and S.TABLE.stat().st_size < 5_000_000
    assert list(table.keys) == sorted(table.keys)
    substitute = {int(s): o for s, o in table.meta.get("substitute", {}).items()}
    solved = {int(s) for s in table.meta["situations"]}
    assert solved | set(substitute) == set(range(16)) and set(substitute.values()) <= solved
    for sit in solved:
        # every dealt hand has a call probability for the non-dealer and an answer for the dealer
        for h in range(len(M.HANDS)):
            for kind, role in ((M.CALL, 0), (M.CALL_ANSWER, 1)):
                p = table.get(M.info_key(sit, kind, 0, role, h, 0, 0))
                assert p is not None and 0.0 <= p <= 1.0
    # and the strategy as shipped was measured close to unexploitable in the model
    for sit, rec in table.meta["situations"].items():
        assert rec["shipped"]["exploitability"] < 0.02, sit


def test_strong_is_registered_and_its_policy_is_legal_in_random_positions():
    assert "strong" in levels("truc")
    bot = make("truc", "strong")
    assert isinstance(bot, S.StrongBot) and bot.name == "strong"
    rng = random.Random(5)
    for state in random_states(1500, seed=3):
        seat = state.current_player
        view = state.view(seat)
        frozen = copy.deepcopy(view)
        pol = bot.policy(view)
        assert set(pol) <= set(view["legal_actions"])
        assert sum(pol.values()) == pytest.approx(1.0)
        assert all(p > 0 for p in pol.values())
        assert bot.act(view, rng) in pol
        assert view == frozen  # the bot does not scribble on the view


def test_strong_reads_its_decisions_from_the_table_when_play_follows_the_model():
    """Against itself every position is one the model knows: offers and answers come from the table."""
    bot = make("truc", "strong")
    rng = random.Random(9)
    state = parlour.load("truc").new_state(seed=77)
    looked = 0
    while not state.is_over and looked < 200:
        view = state.view(state.current_player)
        if view["phase"] in ("offer-answer",) or (view["phase"] == "play" and
                                                  {"double", "remainder"} & set(view["legal_actions"])):
            deal = S.Deal(view, bot.table.meta.get("substitute"))
            kind = M.OFFER_ANSWER if view["phase"] == "offer-answer" else M.OFFER
            p = bot.table.get(deal.key(kind))
            pol = bot.policy(view)
            yes = "accept" if kind == M.OFFER_ANSWER else next(a for a in view["legal_actions"]
                                                                if a in ("double", "remainder"))
            assert pol.get(yes, 0.0) == pytest.approx(p or 0.0)
            looked += 1
        state.apply(bot.act(view, rng))
    assert looked > 20


def test_strong_plays_whole_games_against_random_easy_and_itself():
    game = parlour.load("truc")
    rng = random.Random(2)
    for g in range(6):
        opp = ("random", "easy", "strong")[g % 3]
        bots = [make("truc", "strong"), make("truc", opp)]
        if g % 2:
            bots.reverse()
        state = game.new_state(seed=900 + g)
        steps = 0
        while not state.is_over:
            seat = state.current_player
            state.apply(bots[seat].act(state.view(seat), rng))
            steps += 1
            assert steps < 5000
        assert state.winner in (0, 1)
