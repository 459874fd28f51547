"""Shared test set-up: no test touches the user's real data folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import ModuleType

import pytest

from helpers.postgres import BACKENDS


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


@pytest.fixture(autouse=True, scope="session")
def _compiled_search() -> Iterator[None]:
    """The search kernels compiled (or loaded from numba's cache) once, in the background, for the whole run.

    Why in the background: on a fresh clone compiling takes a minute (one process on the machine
    compiles: ``warm.now``'s lock; the others, the other worker and the servers the tests start,
    wait for its cache), and most tests never search: they run meanwhile.  A test that searches
    waits for the compiled kernels, never the Python copy: a player never waits for compilation,
    so without this the tests of the strong players would measure the Python path.
    """
    from parlour.search import warm

    warm.start()
    compiling, kernels = warm.thread, warm.kernels

    def compiled_kernels() -> ModuleType:
        if compiling is not None:
            compiling.join()
        return kernels()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(warm, "kernels", compiled_kernels)
        yield


@pytest.fixture(autouse=True)
def _small_reviews(monkeypatch):
    """The reviews the terminal and line mode work out as each deal ends take two samples a decision
    here (their tests check what they show, not how well they judge; ``tests/core/test_review*``
    set their own budgets), so the whole games the interface tests play cost little more."""
    from parlour.review.worker import Reviews

    monkeypatch.setattr(Reviews, "default_samples", 2)


@pytest.fixture(scope="session")
def postgres_cluster():
    """The tests' PostgreSQL: the cluster ``.ci/run`` started (``PARLOUR_TEST_POSTGRES``, see
    ``helpers.services``), else one of their own (``helpers.postgres``), started on first use and
    stopped at the end.  Each test makes a database of its own in it (``new_database``).

    Where PostgreSQL is not installed, every test that needs it is skipped, with the reason.
    """
    from helpers.postgres import Cluster, Databases, why_not

    started = os.environ.get("PARLOUR_TEST_POSTGRES")
    if started:
        yield Databases(started)
        return
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    cluster = Cluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def redis_server():
    """The tests' Redis: the one ``.ci/run`` started (``PARLOUR_TEST_REDIS``), with a database number
    of this pytest worker's own, else one of their own (``helpers.redis``: a loopback port, no
    persistence, stopped at the end).  ``.url`` is what a server's ``--bus`` takes.

    Where redis-server is not installed, every test that needs it is skipped, with the reason.
    """
    from helpers.redis import RedisServer, Running, why_not

    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    started = os.environ.get("PARLOUR_TEST_REDIS")
    if started:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
        yield Running(f"{started}/{1 + int(worker.removeprefix('gw') or 0) % 15}")
        return
    server = RedisServer().start()
    yield server
    server.close()


@pytest.fixture
def make_database(request, tmp_path):
    """``make(backend, name="p")``: a new, empty database of ``backend`` -- a file in the test's folder
    ("sqlite"), or a database of its own in the tests' cluster ("postgresql"), dropped afterwards."""
    def make(backend: str, name: str = "p") -> str:
        if backend == "sqlite":
            return str(tmp_path / f"{name}.db")
        cluster = request.getfixturevalue("postgres_cluster")
        url = cluster.new_database()
        request.addfinalizer(lambda: cluster.drop(url))
        return url

    return make


@pytest.fixture(params=BACKENDS)
def database(request, make_database) -> str:
    """A new, empty database, once for each backend: a file path, or a PostgreSQL URL."""
    return make_database(request.param)
