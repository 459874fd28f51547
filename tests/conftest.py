"""Shared test set-up: no test touches the user's real data folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


@pytest.fixture(autouse=True, scope="session")
def _compiled_search() -> None:
    """Compile the search kernels (or load them from numba's cache) once, before any test.

    Why: a player never waits for compilation (it plays on the Python copy meanwhile), so
    without this the tests of the strong players would measure the Python path.
    """
    from parlour.search import warm

    warm.now()


@pytest.fixture(autouse=True)
def _small_reviews(monkeypatch):
    """The reviews the terminal and line mode work out as each deal ends take two samples a decision
    here (their tests check what they show, not how well they judge; ``tests/core/test_review*``
    set their own budgets), so the whole games the interface tests play cost little more."""
    from parlour.review.worker import Reviews

    monkeypatch.setattr(Reviews, "default_samples", 2)
