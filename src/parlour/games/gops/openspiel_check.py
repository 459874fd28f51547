"""Hand a GOPS player's mixed strategy to OpenSpiel, to cross-check values with its algorithms.

Only for ``ties="discard"`` (OpenSpiel's goofspiel rule), ``imp_info=True``.  OpenSpiel's
turn-based form of goofspiel has histories ``[prize, bid0, bid1, prize, bid0, ...]``
(0-based card indices); each is replayed in Parlour's engine to get the real view that the
player's ``policy`` is asked about.  Requires the optional ``open_spiel`` package.
"""

from __future__ import annotations

from typing import Any

from .rules import VALUE_OF, Gops, card


def openspiel_game(n: int, scoring: str = "win") -> Any:
    """OpenSpiel's goofspiel in turn-based form, with returns matching ``scoring``."""
    import pyspiel

    returns = "win_loss" if scoring == "win" else "point_difference"
    game = pyspiel.load_game("goofspiel", {"num_cards": n, "imp_info": False, "returns_type": returns})
    return pyspiel.convert_to_turn_based(game)


def tabular_policy(player: Any, n: int, game: Any, scoring: str = "win") -> Any:
    """An OpenSpiel ``TabularPolicy`` that plays ``player.policy`` in every information state."""
    from open_spiel.python import policy as policy_lib

    ours = Gops(cards=n, ties="discard", scoring=scoring)
    table = policy_lib.TabularPolicy(game)
    for state in table.states:
        history = state.history()
        prizes = [history[i] + 1 for i in range(0, len(history), 3)]
        deck = [card(v, "D") for v in prizes] + [card(v, "D") for v in range(1, n + 1) if v not in prizes]
        replay = ours.new_state(seed=0, deck=deck, dealer=0)
        for i, action in enumerate(history):
            if i % 3:
                replay.apply(card(action + 1, "CS"[i % 3 - 1]))
        seat = state.current_player()
        mix = player.policy(replay.view(seat))
        row = table.action_probability_array[table.state_lookup[state.information_state_string()]]
        row[:] = 0.0
        for code, p in mix.items():
            row[VALUE_OF[code] - 1] = p
    return table


def openspiel_exploitability(player: Any, n: int, scoring: str = "win") -> float:
    """OpenSpiel's exploitability (mean of both players' best-response gains) of ``player``."""
    from open_spiel.python.algorithms import exploitability

    game = openspiel_game(n, scoring)
    return float(exploitability.exploitability(game, tabular_policy(player, n, game, scoring)))
