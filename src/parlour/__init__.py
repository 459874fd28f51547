"""Parlour: five classic card games against strong computer opponents.

The public engine API (see DESIGN.md)::

    import parlour
    game = parlour.load("gops")
    state = game.new_state(seed=7)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
"""

from .engine import Game, IllegalAction, State
from .records import from_json
from .registry import load, names

__all__ = ["Game", "IllegalAction", "State", "from_json", "load", "names"]
__version__ = "0.1.0"
