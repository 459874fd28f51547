"""A PostgreSQL cluster of the tests' own: Debian's server binaries, a temporary folder, a loopback port.

Why a cluster of its own rather than the machine's: the tests must not depend on, or touch,
a server someone set up (its users, its data, its port), and CI starts from a bare machine
(``.ci/run`` installs Debian's ``postgresql``).  The cluster runs as a user that is not root
(PostgreSQL refuses to): the current one, or as root the ``postgres`` user Debian's package
makes (``nobody`` where there is none), through ``runuser``.  Its socket is in the temporary
folder, it listens on 127.0.0.1 only, with trust authentication (nothing else can reach it),
and without fsync (a test's data need not survive a power cut).  Each test gets a database
of its own (``new_database``), dropped afterwards.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

ROLE = "parlour"
#: The store's backends: tests of what the store keeps run on each (``conftest.database``, ``test_bus.pair``).
BACKENDS = ["sqlite", "postgresql"]


def server_binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: ``PARLOUR_PG_BIN``, else Debian's newest /usr/lib/postgresql/N/bin."""
    given = os.environ.get("PARLOUR_PG_BIN")
    if given:
        return Path(given) if (Path(given) / "initdb").exists() else None
    found = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "initdb").exists()
             and (p / "pg_ctl").exists()]
    found.sort(key=lambda p: int(re.sub(r"\D", "", p.parent.name) or 0))
    return found[-1] if found else None


def why_not() -> str | None:
    """Why PostgreSQL tests cannot run here (None: they can)."""
    if server_binaries() is None:
        return ("PostgreSQL's server binaries are not installed (Debian: apt-get install postgresql; "
                "or set PARLOUR_PG_BIN to the folder of initdb and pg_ctl)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'psycopg[binary]' psycopg-pool)"
    if os.geteuid() == 0 and _server_user() is None:
        return "running as root, and neither the postgres nor the nobody user exists to run PostgreSQL"
    return None


def _server_user() -> str | None:
    import pwd

    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Databases:
    """A database of its own per test in a running cluster, whose ``postgres`` database is at ``admin``.

    Why a class apart from ``Cluster``: under CI the cluster is started once by ``.ci/run``
    (``helpers.services``) and every pytest worker makes its databases in it, so the names
    carry the worker's process id.
    """

    def __init__(self, admin: str) -> None:
        self.admin = admin
        self._names = itertools.count(1)

    def _sql(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(statement)

    def new_database(self) -> str:
        """A new, empty database; its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self._sql(f"CREATE DATABASE {name}")
        return self.admin.rsplit("/", 1)[0] + "/" + name

    def drop(self, url: str) -> None:
        """Drop a database ``new_database`` made, and end whatever connections a test left to it."""
        self._sql(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")


class Cluster:
    """initdb, pg_ctl start and stop; ``new_database()`` gives a fresh database's URL.

    ``durable``: write to disk as a production server does (the load bench), with commits
    synced in the background -- what SQLite's ``synchronous=NORMAL`` in WAL mode gives the
    SQLite store (a power cut may lose the last moments, never corrupt); otherwise nothing is
    synced at all (the tests).
    """

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable
        binaries = server_binaries()
        assert binaries is not None, why_not()
        self.bin = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        self.user = _server_user() if os.geteuid() == 0 else None
        self.databases = Databases(self.url("postgres"))  # (the port is known once started)

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, cwd=self.folder, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()} {tail}")

    def start(self) -> Cluster:
        if self.user is not None:
            import pwd

            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", ROLE, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8",
                  "--no-sync")
        self.port = free_port()
        fast = "" if self.durable else "-c fsync=off -c full_page_writes=off "
        settings = (f"-k {self.folder} -p {self.port} -c listen_addresses=127.0.0.1 {fast}"
                    "-c synchronous_commit=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "-l", str(self.folder / "server.log"),
                  "-o", settings, "start")
        self.databases = Databases(self.url("postgres"))
        return self

    def pid(self) -> int:
        """The server's main process (its connections' processes are its children)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def url(self, database: str) -> str:
        return f"postgresql://{ROLE}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database of this cluster; its URL."""
        return self.databases.new_database()

    def drop(self, url: str) -> None:
        self.databases.drop(url)

    def stop(self) -> None:
        try:
            if self.port:
                self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
