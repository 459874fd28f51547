"""Six-Bid positions shared by the test files of the text, the terminal table and line mode."""

from __future__ import annotations

import parlour
from parlour.engine import State


def sixbid_at_the_call(seed: int) -> State:
    """A Six-Bid deal where North (the human) bid call, named clubs and must now call a card."""
    state = parlour.load("sixbid").new_state(seed=seed)
    while state.view(0)["phase"] != "call":
        legal = state.legal_actions()
        if state.current_player == 0 and "call" in legal:
            state.apply("call")
        else:
            state.apply("trump C" if "trump C" in legal else "pass")
    assert state.current_player == 0
    return state
