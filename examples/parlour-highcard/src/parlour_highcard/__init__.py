"""High Card for Parlour: a third-party game in one package.

The ``parlour.games`` entry point (in this package's ``pyproject.toml``) names this package;
Parlour's registry reads ``GAME`` from it, and finds ``bots``, ``text`` and ``rules.md`` next
to it.
"""

from .rules import GAME

__all__ = ["GAME"]
