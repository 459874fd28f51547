"""Debian's nginx as a reverse proxy of the tests' own: a temporary folder, a loopback port, plain HTTP.

Why: ``docs/deploy.md`` puts nginx in front of the server processes; the test runs that part of
it (the WebSocket upgrade, ``X-Forwarded-For``, ``Host``) with the same ``location`` block, on a
port free when it starts, with its pid file, logs and temporary files in its own folder.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

from parlour.web.run import free_port

CONF = """
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream parlour {{ {servers} }}
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 16k;
        location / {{
            proxy_pass http://parlour;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
            proxy_next_upstream error timeout;
        }}
    }}
}}
"""


def why_not() -> str | None:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        return "nginx is not installed (Debian: apt-get install nginx)"
    return None


class Nginx:
    """``Nginx(["127.0.0.1:8001", ...]).start()``; ``url``; ``stop()``."""

    def __init__(self, upstreams: list[str]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="parlour-nginx-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        servers = " ".join(f"server {u};" for u in upstreams)
        (self.folder / "nginx.conf").write_text(CONF.format(folder=self.folder, port=self.port, servers=servers))
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Nginx:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen([binary, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"),
                                         "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("nginx did not start: " + (self.process.stderr.read().decode()
                                                              if self.process.stderr else ""))
            try:
                httpx.get(self.url + "/healthz", timeout=1)
                return self
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not answer")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)
