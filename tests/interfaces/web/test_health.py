"""``/healthz`` on both backends: 200 while the store answers, 503 (and the cause only in the log) once it does not."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest

from helpers.web import LOOSE
from parlour.store import Store, StoreUnreachable
from parlour.web.run import ServerThread


def test_a_server_that_reaches_its_store_is_healthy(server_of_each_store: Any) -> None:
    answer = httpx.get(server_of_each_store.url + "/healthz")
    assert answer.status_code == 200 and answer.json() == {"store": "ok", "bus": "ok"}
    assert answer.headers["cache-control"] == "no-store"


def test_a_server_whose_database_is_gone_says_so_and_names_nothing(make_database, postgres_cluster,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    url = make_database("postgresql")
    with ServerThread(url, rate=(10_000, 10_000), limits=LOOSE) as srv:
        assert httpx.get(srv.url + "/healthz").status_code == 200
        postgres_cluster.drop(url)  # its connections are ended, and the database with them
        with caplog.at_level(logging.WARNING, logger="parlour.web"):
            answer = httpx.get(srv.url + "/healthz")
        assert answer.status_code == 503 and answer.json() == {"store": "unavailable", "bus": "ok"}
        assert "127.0.0.1" not in answer.text and "the store is unavailable" in caplog.text


def test_a_store_error_is_a_503(server_of_each_store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def down(self: Any) -> None:
        raise StoreUnreachable("cannot reach the PostgreSQL database postgresql://u@secret-host/db: refused")

    monkeypatch.setattr(Store, "ping", down)
    answer = httpx.get(server_of_each_store.url + "/healthz")
    assert answer.status_code == 503 and "secret-host" not in answer.text
