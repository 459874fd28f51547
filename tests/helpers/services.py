"""The servers the tests need, started and stopped by ``.ci/run`` around ``make test``.

    python3 tests/helpers/services.py FOLDER &   # writes FOLDER/env, serves until SIGTERM, then stops them

Why ``.ci/run`` starts them rather than the tests: CI starts from a bare machine with the real
components, and the project's own files start them (a PostgreSQL cluster of its own in a
temporary folder, as a user that is not root, on a loopback port; a Redis on a loopback port
with no persistence) and stop them at the end.  The tests find them through
``PARLOUR_TEST_POSTGRES`` (the cluster's ``postgres`` database: each test makes a database of
its own there) and ``PARLOUR_TEST_REDIS`` (each pytest worker takes a Redis database number of
its own).  Without the variables, as on a developer's machine running ``make test``, the
session fixtures start the same servers themselves, and skip with the reason where the packages
are missing.  Only the standard library here: ``.ci/run`` runs it with the system's Python,
before ``make test`` makes ``.venv``.
"""

from __future__ import annotations

import shutil
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.postgres import Cluster, server_binaries  # noqa: E402
from helpers.redis import RedisServer  # noqa: E402


def main(folder: Path) -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})  # until the servers are stopped
    cluster = Cluster().start() if server_binaries() is not None else None
    redis = RedisServer().start() if shutil.which("redis-server") else None
    try:
        lines = []
        if cluster is not None:
            lines.append(f"export PARLOUR_TEST_POSTGRES={cluster.url('postgres')}")
        if redis is not None:
            lines.append(f"export PARLOUR_TEST_REDIS={redis.url.rsplit('/', 1)[0]}")
        (folder / "env.part").write_text("".join(line + "\n" for line in lines))
        (folder / "env.part").rename(folder / "env")
        print(f"services: {', '.join(n for n, s in (('PostgreSQL', cluster), ('Redis', redis)) if s) or 'none'}"
              " started for the tests", flush=True)
        signal.sigwait({signal.SIGTERM, signal.SIGINT})
    finally:
        if redis is not None:
            redis.close()
        if cluster is not None:
            cluster.stop()
        print("services: stopped", flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.split("\n\n")[1])
    main(Path(sys.argv[1]))
