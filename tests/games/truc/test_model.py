"""Le Truc's deal model (the game ``strong`` was solved on) against the engine, and its keys."""

from __future__ import annotations

import random

import pytest

import parlour
from helpers.truc import DealModel
from parlour.games.truc import model as M


def _powers(hand: list[str]) -> tuple[int, ...]:
    return tuple(sorted(M.POW[c[0]] for c in hand))


def _random_action(legal: list[str], rng: random.Random) -> str:
    """Random play that reaches offers, remainders and calls often."""
    for word, p in (("call", 0.3), ("double", 0.35), ("remainder", 0.35), ("accept", 0.7)):
        if word in legal and rng.random() < p:
            return word
    cards = [a for a in legal if a not in ("call", "play", "double", "remainder", "accept", "decline", "refuse")]
    if cards and rng.random() < 0.9:
        return rng.choice(cards)
    return rng.choice(legal)


def test_model_payoffs_agree_with_the_engine_on_thousands_of_deals():
    """Same hands, same actions: the model's points to the non-dealer minus the dealer's are the
    engine's, deal after deal of whole games (so every score situation and remainder turns up)."""
    game = parlour.load("truc")
    rng = random.Random(15)
    deals = redeals = remainders = 0
    g = 0
    while deals < 3000:
        state = game.new_state(seed=1500 + g)
        g += 1
        model = None
        while not state.is_over:
            if state.phase == "call" and (model is None or model.phase == "over"):
                nd = 1 - state.dealer
                hands = [_powers(state.view(s)["hand"]) for s in (nd, 1 - nd)]
                model = DealModel(hands[0], hands[1], state.scores[nd], state.scores[1 - nd])
                seen = len(state.deals)
            action = _random_action(state.legal_actions(), rng)
            assert model is not None
            legal = [a if isinstance(a, str) else M.RANK_OF[a] for a in model.legal()]
            engine_legal = sorted({a if a in ("play", "call", "accept", "refuse", "double", "remainder", "decline")
                                   else a[0] for a in state.legal_actions()})
            assert sorted(legal) == engine_legal
            model.apply(action if len(action) > 2 or action in ("play",) else M.POW[action[0]])
            state.apply(action)
            if model.phase == "over":
                if model.redeal:
                    redeals += 1
                    assert len(state.deals) == seen
                    continue
                d = state.deals[-1]
                assert len(state.deals) == seen + 1
                assert model.payoff == d["scores"][nd] - d["scores"][1 - nd], (d, model.payoff)
                deals += 1
                remainders += d["remainder"]
    assert redeals > 300 and remainders > 50


def test_tricks_follow_the_spoiled_trick_rules():
    # equal cards with nobody ahead spoil; the next winner takes the spoiled trick too
    t = M.Tricks(((7, 3, 0), (7, 2, 1)))
    t.play(7)
    t.play(7)
    assert t.spoiled == 1 and t.to_move == M.N and not t.over
    t.play(3)
    t.play(2)
    assert t.over and t.result == 1
    # a tie after someone has won goes to the first trick's winner
    t = M.Tricks(((7, 3, 0), (6, 3, 1)))
    t.play(0)
    t.play(1)  # D wins the first trick and leads
    t.play(3)
    t.play(3)
    assert t.over and t.result == -1
    # three spoiled tricks: nobody wins
    t = M.Tricks(((5, 3, 0), (5, 3, 0)))
    for p in (5, 5, 3, 3, 0, 0):
        t.play(p)
    assert t.over and t.result == 0


def test_hands_weights_and_situations():
    assert len(M.HANDS) == 120
    total = sum(M.pair_weight(a, b) for a in M.HANDS for b in M.HANDS)
    assert total == pytest.approx(1.0)
    assert M.pair_weight((7, 7, 7), (7, 7, 0)) == 0.0  # only four sevens
    assert [M.score_class(p) for p in (0, 4, 5, 8, 9, 10, 11)] == [0, 0, 1, 1, 2, 2, 3]
    # the class decides double or remainder exactly as the engine does (points + 2 * stake > 12)
    for points in range(12):
        for stake in (1, 2, 4, 8):
            engine = "remainder" if points + 2 * stake > M.TARGET else "double"
            assert M.offer_kind(M.score_class(points), stake) == engine


def test_card_rule_is_a_legal_card_and_depends_on_public_information_only():
    rng = random.Random(2)
    for _ in range(300):
        a, b = rng.sample(M.HANDS, 2)
        if M.pair_weight(a, b) == 0:
            continue
        t = M.Tricks((a, b))
        while not t.over:
            card = M.rule_card(t)
            assert card in t.hands[t.to_move]
            t.play(card)


def test_vectorised_keys_match_the_scalar_keys():
    np = pytest.importorskip("numpy")
    from parlour.games.truc import train

    rng = random.Random(4)
    rows = [(rng.randrange(16), rng.randrange(4), rng.randrange(2), rng.randrange(2), rng.randrange(120),
             rng.randrange(9**5), rng.randrange(3**6)) for _ in range(200)]
    for sit in range(16):
        mine = [r for r in rows if r[0] == sit]
        for kind in range(4):
            for refused in (0, 1):
                got = train._keys(sit, kind, refused, np.array([r[3] for r in mine]), np.array([r[4] for r in mine]),
                                  np.array([r[5] for r in mine]), np.array([r[6] for r in mine]))
                want = [M.info_key(sit, kind, refused, *r[3:]) for r in mine]
                assert list(got) == want


@pytest.mark.slow
def test_cfr_plus_drives_a_situation_s_exploitability_down():
    """Training converges: the best responders' gain falls below 0.01 points per deal (both at 11)."""
    pytest.importorskip("numpy")
    from parlour.games.truc import train

    deals = train.build_deals()
    game = train.build_game(deals, 15)
    solver = train.Solver(deals, game)
    uniform = solver.exploitability(solver.average())
    for t in range(1, 51):
        solver.iterate(t)
        if t % 10 == 0:
            solver.value = solver.fixed_value(solver.average())
    trained = solver.exploitability(solver.average())
    assert trained["gain_n"] >= -1e-9 and trained["gain_d"] >= -1e-9
    assert trained["exploitability"] < 0.01 < uniform["exploitability"]
