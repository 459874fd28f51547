"""Rule-based players, one module per game: the seeds' strategy notes as code.

Each module defines ``EasyBot`` with ``act(view, rng) -> str``.
"""
