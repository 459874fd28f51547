"""What several test folders share (imported as ``helpers.<name>``: pyproject's ``pythonpath = ["tests"]``).

``clobby``: hand-built Clobby deals (and the bella position); ``leaks``: the browser tables'
frame-leak check (scripted clients, the record replayed); ``minimax``: the engine-driven minimax
the trick games' solvers are checked against; ``sixbid``: a Six-Bid deal at the call;
``truc``: a model of a Le Truc deal; ``tui``: waiting under Textual's pilot; ``web``: creating a
table through the lobby's API.  ``ROOT``: the repository.
"""

from __future__ import annotations

from pathlib import Path

#: The repository's root (bench/, docs/, examples/ are read from it).
ROOT = Path(__file__).resolve().parents[2]
