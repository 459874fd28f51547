"""Outside check: with ``ties="discard"`` Parlour's GOPS is OpenSpiel's ``goofspiel``.

Both engines are driven with the same prize order (OpenSpiel's chance outcome ``v - 1`` is
the diamond of value ``v``) and the same bids, and must agree after every turn on the
points, on when the game ends and on the final returns (``returns_type="total_points"``),
for every N from 3 to 13.  Runs only when the optional OpenSpiel peer is installed
(``pip install -e .[peers]``; ``make bench`` installs it).
"""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.games.gops.rules import VALUE_OF, card

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the `peers` extra) is not installed")

GAMES_PER_N = 300  # 3,300 random games over N = 3..13


def _play_both(n: int, rng: random.Random, scoring: str = "points") -> None:
    ours = parlour.load("gops", cards=n, ties="discard", scoring=scoring)
    order = list(range(1, n + 1))
    rng.shuffle(order)
    state = ours.new_state(deck=[card(v, "D") for v in order], dealer=0)
    returns = "total_points" if scoring == "points" else "win_loss"
    theirs = pyspiel.load_game("goofspiel", {"num_cards": n, "imp_info": True, "returns_type": returns})
    peer = theirs.new_initial_state()
    for turn, prize in enumerate(order[:-1]):
        assert peer.is_chance_node()
        assert prize - 1 in [a for a, _ in peer.chance_outcomes()], (turn, prize)
        peer.apply_action(prize - 1)
        assert peer.is_simultaneous_node()
        for seat in (0, 1):
            assert [VALUE_OF[c] - 1 for c in state.legal_actions()] == peer.legal_actions(seat)
            state.apply(rng.choice(state.legal_actions()))
        bids = state.actions[-2:]
        peer.apply_actions([VALUE_OF[b] - 1 for b in bids])
        if turn < n - 2:
            assert not peer.is_terminal() and not state.is_over
            if scoring == "points":
                assert _peer_points(peer) == state.scores
    # OpenSpiel plays the last turn (one prize, one card each) by itself.
    assert peer.is_terminal() and not state.is_over
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.is_over
    assert [int(r) for r in peer.returns()] == (state.scores if scoring == "points" else state.payoffs)


def _peer_points(peer) -> list[int]:
    """OpenSpiel's running points, read from its state's text (the "Points:" line)."""
    text = str(peer)
    line = next(ln for ln in text.splitlines() if ln.startswith("Points:"))
    return [int(x) for x in line.split()[1:3]]


@pytest.mark.parametrize("n", range(3, 14))
def test_discard_ties_agree_with_openspiel_goofspiel(n):
    rng = random.Random(1400 + n)
    for _ in range(GAMES_PER_N):
        _play_both(n, rng)


@pytest.mark.parametrize("n", [3, 4, 7, 13])
def test_win_scoring_agrees_with_openspiel_win_loss_returns(n):
    rng = random.Random(2400 + n)
    for _ in range(100):
        _play_both(n, rng, scoring="win")


@pytest.mark.parametrize("n", [3])  # N = 4 takes minutes: bench/bench_gops_solver.py runs it
def test_best_response_values_agree_with_openspiel(n):
    """Our best-response tool and OpenSpiel's ``exploitability`` give the same numbers.

    OpenSpiel's goofspiel with ``imp_info=False`` reveals past bids as Parlour does
    (``imp_info=True`` hides them, which changes the information sets, not the outcomes).
    """
    from parlour.bots import RandomBot
    from parlour.games.gops.bots import EasyBot
    from parlour.games.gops.exploit import exploitability
    from parlour.games.gops.openspiel_check import openspiel_exploitability
    from parlour.games.gops.strong import StrongBot

    for bot in (RandomBot(), EasyBot(), StrongBot()):
        ours = exploitability(bot, n, "discard", "win")
        assert openspiel_exploitability(bot, n, "win") == pytest.approx(ours, abs=1e-9)
