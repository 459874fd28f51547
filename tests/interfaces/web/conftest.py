"""What the browser tests share beyond ``helpers.web``."""

from __future__ import annotations

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
