"""Parlour's games for research toolkits: OpenSpiel games and PettingZoo environments.

Optional: ``pip install 'parlour[openspiel]'`` / ``'parlour[pettingzoo]'``.  Importing ``parlour``
never imports these modules (nor numpy, pyspiel or pettingzoo); import
``parlour.adapters.openspiel`` or ``parlour.adapters.pettingzoo`` yourself.

Both adapters are generic: everything they know about a game comes from its ``Game`` class
(``action_space()``, ``PACK``, ``num_players``, ``SIMULTANEOUS``, ``HAS_DEALER``,
``DEAL_SCORE_BOUND``, ``DEAL_LENGTH_BOUND``) and from ``state.view(seat)``, so a third-party
game gets them too.  The mappings are documented in ``docs/research.md``.
"""
