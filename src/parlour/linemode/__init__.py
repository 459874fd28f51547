"""Plain line mode: prompts and text only, so it works with piped input and screen readers.

``render.py`` holds what all games share; ``<game>.py`` modules add each game's own lines
through ``describe(view)`` and ``summarize(deal_summary)``.
"""
