"""The frozen pure-Python solvers (``bench/old_solvers/<game>.py``), the reference for whole deals.

Why here: the compiled core replaced the games' own search loops, and a search through the
engine itself is far out of reach from a deal's first card; the tests of two games load the
old solvers, and bench/ is not a package, so they load them by path, once each.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

OLD_SOLVERS = Path(__file__).resolve().parents[2] / "bench" / "old_solvers"


def old_solver(game: str) -> ModuleType:
    """``bench/old_solvers/<game>.py`` as a module (loaded on first use, then kept)."""
    name = f"old_solvers_{game}"
    got = sys.modules.get(name)
    if got is None:
        spec = importlib.util.spec_from_file_location(name, OLD_SOLVERS / f"{game}.py")
        assert spec is not None and spec.loader is not None
        got = importlib.util.module_from_spec(spec)
        sys.modules[name] = got
        spec.loader.exec_module(got)
    return got
