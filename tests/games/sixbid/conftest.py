"""Six-Bid tests: the compiled search kernels ready before any test solves (``search/warm.py``).

Why: until :func:`parlour.search.warm.now` has run, the solver uses the kernels as plain Python
(the same answers, far slower); compiling happens once per install and is cached on disk.
"""

from __future__ import annotations

import pytest

from parlour.search import warm


@pytest.fixture(scope="session", autouse=True)
def _compiled_kernels() -> None:
    warm.now()
