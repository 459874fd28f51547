"""The built-in games, one package each (``games/<name>/{rules,bots,text}.py`` + ``rules.md``).

The registry (``parlour.registry``) finds them, like any third-party game, through the
``parlour.games`` entry-point group; nothing here is imported until a game is used.
"""
