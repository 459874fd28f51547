"""Le Truc: everything Parlour knows about this game lives in this package.

``rules`` is the pure engine, ``bots`` its computer players, ``text`` how it is said to
people, and ``rules.md`` its rules page.  The registry finds the game through the
``parlour.games`` entry point naming this package and reads ``GAME`` from it.
"""

from .rules import GAME

__all__ = ["GAME"]
