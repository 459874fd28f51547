"""What the browser tests share beyond ``helpers.web``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from helpers.web import LOOSE
from parlour.web.run import ServerThread


@pytest.fixture
def server_of_each_store(database: str) -> Iterator[Any]:
    """A server of its own on a new database, once for each backend (``database``): for the tests of
    what the server keeps in its store (records, statistics, history), not for the whole browser suite."""
    with ServerThread(database, rate=(10_000, 10_000), limits=LOOSE) as srv:
        yield srv


CHROMIUM = "/usr/bin/chromium"  # Debian's: the browser tests never download a browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright, one per test module (skipped, saying why, where it is missing)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()
