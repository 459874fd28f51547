"""Precomputed exact values of the 6- and 7-card games (package data), one file per rule set.

Why ship them: solving the 7-card game takes minutes, a decision must take well under a
second, and with every position's value known a decision is a single matrix game.  Each
``values_<n>_<ties>_<scoring>.npz`` holds the solver's cache (``Solver._values``): keys packed
into int64 by ``pack`` and values as float32 (1e-7 relative error, far below the 0.01
exploitability target).  ``bench/build_gops_tables.py`` writes them; a missing table only
makes the first decision slow (the solver then solves on demand).
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..solver import Solver

#: the game sizes that ship a table
SIZES = (6, 7)


def pack(key: tuple[int, int, int, int, int]) -> int:
    prizes, r0, r1, stake, diff = key
    return prizes | (r0 << 13) | (r1 << 27) | (stake << 41) | ((diff + 128) << 48)


def unpack(code: int) -> tuple[int, int, int, int, int]:
    mask13, mask14 = (1 << 13) - 1, (1 << 14) - 1
    return (code & mask13, (code >> 13) & mask14, (code >> 27) & mask14, (code >> 41) & 127,
            ((code >> 48) & 255) - 128)


def filename(n: int, ties: str, scoring: str) -> str:
    return f"values_{n}_{ties}_{scoring}.npz"


def load_values(solver: Solver, ties: str, scoring: str, n: int) -> bool:
    """Fill ``solver``'s cache from the shipped table for ``n`` cards, once; False if none ships."""
    loaded = solver.__dict__.setdefault("_tables_loaded", set())
    if n in loaded or n not in SIZES:
        return n in loaded
    loaded.add(n)
    path = resources.files(__package__).joinpath(filename(n, ties, scoring))
    if not path.is_file():
        return False
    import numpy as np

    with path.open("rb") as f, np.load(f) as data:
        keys, values = data["keys"], data["values"]
        solver.values.update(zip(map(unpack, keys.tolist()), values.astype(float).tolist(), strict=True))
    return True


def save_values(solver: Solver, path: str) -> int:
    """Write ``solver``'s cache as a table (for the build script); returns the entry count."""
    import numpy as np

    items = sorted(solver.values.items())
    keys = np.array([pack(k) for k, _ in items], dtype=np.int64)
    values = np.array([v for _, v in items], dtype=np.float32)
    np.savez_compressed(path, keys=keys, values=values)
    return len(items)
