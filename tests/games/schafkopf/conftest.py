"""Schafkopf tests: the solver's questions run on the compiled kernel (compiled or loaded once)."""

from __future__ import annotations

import pytest

from parlour.search import warm


@pytest.fixture(scope="session", autouse=True)
def _compiled_kernels() -> None:
    # Why: until warm.now() has run, the search hands out the kernels as plain Python (the
    # same answers, many times slower), and the solver tests solve thousands of endgames.
    warm.now()
