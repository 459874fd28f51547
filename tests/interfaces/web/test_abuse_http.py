"""The browser server against abuse at the HTTP and WebSocket layer, over real sockets.

Each test is an outside attacker's finding: another site's name in ``Host`` (DNS rebinding),
a chunked body past the size limit, malformed input that wrote tracebacks in the log, responses
without the security headers, a JSON key given twice, a forged ``X-Forwarded-For``.  Raw
sockets where a client library would refuse to send the abuse.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from helpers.web import create
from parlour.web import assets
from parlour.web.guard import FOREVER, client_address, trusted_hosts
from parlour.web.run import ServerThread
from parlour.web.server import MAX_BODY

SECURITY = ("content-security-policy", "x-content-type-options", "referrer-policy")
GOPS = [{"kind": "invite"}, {"kind": "bot", "level": "easy"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with ServerThread(tmp_path_factory.mktemp("abuse") / "web.db", rate=(10_000, 10_000)) as srv:
        yield srv


class Lines(logging.Handler):
    """Every log line the server writes while installed, tracebacks included."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []
        self.records: list[logging.LogRecord] = []  # a record reaches the handler once per logger it passes

    def emit(self, record: logging.LogRecord) -> None:
        if not any(r is record for r in self.records):
            self.records.append(record)
            self.lines.extend(self.format(record).splitlines())


@pytest.fixture
def server_log() -> Iterator[Lines]:
    """The server's log (uvicorn's, ours, the root's) at every level, for the test's length."""
    handler = Lines()
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.error", "parlour.web", "asyncio")]
    ours = logging.getLogger("parlour.web")
    level = ours.level
    ours.setLevel(logging.INFO)
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
        ours.setLevel(level)


def quiet(log: Lines, most: int) -> None:
    """No traceback in the log, and at most ``most`` lines, each short."""
    text = "\n".join(log.lines)
    assert "Traceback" not in text and "Error" not in text.replace("uvicorn.error", ""), text[:2000]
    assert len(log.lines) <= most, text[:2000]
    assert all(len(line) < 200 for line in log.lines), text[:2000]


def raw_request(server: ServerThread, head: str, body: bytes = b"", *, wait: float = 10) -> bytes:
    """Send ``head`` (lines, no blank line) and ``body`` as they are; what comes back until closed or idle."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as sock:
        sock.sendall(head.replace("\n", "\r\n").encode() + b"\r\n\r\n" + body)
        return read_some(sock)


def read_some(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection or is silent for a moment after answering."""
    out = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return out
        except ConnectionResetError:
            return out
        if not chunk:
            return out
        out += chunk
        if b"\r\n\r\n" in out:
            sock.settimeout(0.5)


def status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


def ws_handshake(server: ServerThread, path: str, host: str) -> tuple[socket.socket, bytes]:
    """A WebSocket opened by hand (any ``Host``): the socket, and the head of the server's answer."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
    return sock, head


def ws_frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (the mask is zeros: the payload goes as it is)."""
    assert len(payload) < 126
    return struct.pack("!BB", 0x80 | opcode, 0x80 | len(payload)) + b"\0\0\0\0" + payload


def ws_read_frames(sock: socket.socket) -> list[tuple[int, bytes]]:
    """The server's frames until it closes (opcode, payload)."""
    data = b""
    sock.settimeout(10)
    while True:
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, ConnectionResetError):
            break
        if not chunk:
            break
        data += chunk
    frames = []
    while len(data) >= 2:
        opcode, size = data[0] & 0x0F, data[1] & 0x7F
        at = 2
        if size == 126:
            size, at = struct.unpack("!H", data[2:4])[0], 4
        elif size == 127:
            size, at = struct.unpack("!Q", data[2:10])[0], 10
        frames.append((opcode, data[at:at + size]))
        data = data[at + size:]
    return frames


# ------------------------------------------------------------------ 1. DNS rebinding: only named hosts
def test_a_host_the_server_was_not_told_about_is_refused_for_http_and_websocket(server: ServerThread) -> None:
    table = create(server, "gops", GOPS)
    evil = {"host": "evil.example", "origin": "http://evil.example"}
    made = httpx.post(server.url + "/api/tables", json={"game": "gops", "seats": GOPS, "delay": 0}, headers=evil)
    assert made.status_code == 400 and all(h in made.headers for h in SECURITY)
    assert httpx.get(server.url + "/api/history", headers=evil).status_code == 400
    sock, head = ws_handshake(server, f"/ws/{table['id']}", "evil.example")
    sock.close()
    assert head.startswith(b"HTTP/1.1 403"), head
    for name in ("localhost", "127.0.0.1", "[::1]"):
        own = {"host": f"{name}:{server.port}", "origin": f"http://{name}:{server.port}"}
        assert httpx.get(server.url + "/api/games", headers=own).status_code == 200, name
        sock, head = ws_handshake(server, f"/ws/{table['id']}", f"{name}:{server.port}")
        sock.close()
        assert head.startswith(b"HTTP/1.1 101"), (name, head)


def test_the_trusted_hosts_are_the_loopback_names_or_the_names_given() -> None:
    assert set(trusted_hosts("127.0.0.1")) == {"localhost", "127.0.0.1", "::1", "[::1]"}
    assert "127.0.0.2" in trusted_hosts("127.0.0.2") and "[::1]" in trusted_hosts("::1")
    assert "cards.example" in trusted_hosts("0.0.0.0", ["Cards.Example"])
    with pytest.raises(ValueError, match="--allowed-host"):
        trusted_hosts("0.0.0.0")
    with pytest.raises(ValueError, match="--allowed-host"):
        trusted_hosts("192.168.1.5")


def test_parlour_serve_on_a_public_address_needs_allowed_host_names(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run([sys.executable, "-m", "parlour", "serve", "--host", "0.0.0.0", "--db",
                          str(tmp_path / "x.db")], capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and "--allowed-host" in run.stderr and "Traceback" not in run.stderr


# ------------------------------------------------------------------ 2. a chunked body is counted as it comes
def chunked(data: bytes, size: int = 4096) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(data[i:i + size]), data[i:i + size]) for i in range(0, len(data), size))


def post_head(server: ServerThread, framing: str) -> str:
    return (f"POST /api/tables HTTP/1.1\nHost: 127.0.0.1:{server.port}\nContent-Type: application/json\n"
            f"{framing}")


def test_a_chunked_body_past_the_limit_is_refused_without_reading_the_rest(server: ServerThread) -> None:
    table = json.dumps({"game": "gops", "seats": GOPS, "delay": 0}).encode()
    small = raw_request(server, post_head(server, "Transfer-Encoding: chunked"), chunked(table) + b"0\r\n\r\n")
    assert status(small) == 200, small  # chunked bodies are fine in themselves
    padded = table[:-1] + b" " * 60_000 + b"}"  # valid JSON of 60 KB: it made a table
    big = raw_request(server, post_head(server, "Transfer-Encoding: chunked"), chunked(padded) + b"0\r\n\r\n")
    assert status(big) == 413, big
    # 20 MB announced as chunks: the answer comes after the first 12 KB, the rest never sent.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(post_head(server, "Transfer-Encoding: chunked").replace("\n", "\r\n").encode() + b"\r\n\r\n")
        sock.sendall(chunked(b"[" + b"0," * 6000))
        reply = read_some(sock)
    assert status(reply) == 413 and b"connection: close" in reply.lower()
    declared = raw_request(server, post_head(server, f"Content-Length: {MAX_BODY + 1}"), b"{" * 10)
    assert status(declared) == 413


# ------------------------------------------------------------------ 3. bad input: a refusal, not a traceback
def test_a_binary_first_message_is_refused_with_1003_and_one_log_line(server: ServerThread, server_log: Lines) -> None:
    table = create(server, "gops", GOPS)

    async def one() -> tuple[dict[str, Any], int | None]:
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}") as ws:
            await ws.send(b"\x00\x01binary")
            frame = json.loads(await ws.recv())
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            return frame, ws.close_code

    async def many() -> list[tuple[dict[str, Any], int | None]]:
        return await asyncio.gather(*(one() for _ in range(20)))

    for frame, code in asyncio.run(many()):
        assert frame == {"type": "error", "message": "messages are JSON text"} and code == 1003
    quiet(server_log, 20)
    assert all("binary" in line for line in server_log.lines)


def test_a_binary_message_after_hello_is_refused_with_1003(server: ServerThread, server_log: Lines) -> None:
    table = create(server, "gops", GOPS)

    async def scenario() -> tuple[list[dict[str, Any]], int | None]:
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "seat": 0, "token": table["tokens"][0]}))
            assert json.loads(await ws.recv())["type"] == "state"
            await ws.send(b"\xff\xfe")
            frames = []
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    frames.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            return frames, ws.close_code

    frames, code = asyncio.run(scenario())
    assert {"type": "error", "message": "messages are JSON text"} in frames and code == 1003
    quiet(server_log, 1)


def test_a_deeply_nested_or_invalid_utf8_body_is_a_400(server: ServerThread, server_log: Lines) -> None:
    for body in (b"[" * 8000, b'{"game": "gops", "name": "\xff"}',
                 b'{"game": "gops", "seats": [{"kind": "me"}, {"kind": "bot"}], "name": "\xed\xa0\x80"}'):
        reply = httpx.post(server.url + "/api/tables", content=body, headers={"content-type": "application/json"})
        assert reply.status_code == 400 and "error" in reply.json(), (body[:40], reply.text)
    quiet(server_log, 3)


def test_invalid_utf8_in_a_websocket_text_is_closed_with_1007(server: ServerThread, server_log: Lines) -> None:
    table = create(server, "gops", GOPS)
    sock, head = ws_handshake(server, f"/ws/{table['id']}", f"127.0.0.1:{server.port}")
    with sock:
        assert head.startswith(b"HTTP/1.1 101"), head
        sock.sendall(ws_frame(0x1, b'{"type": "hello", "name": "\xff"}'))
        frames = ws_read_frames(sock)
    closes = [payload for opcode, payload in frames if opcode == 0x8]
    assert closes and struct.unpack("!H", closes[0][:2])[0] == 1007, frames
    quiet(server_log, 1)


# ------------------------------------------------------------------ 4. headers on every response, caching
def test_every_response_has_the_security_headers_and_no_server_header(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "h.db") as srv:
        async def boom() -> None:
            raise RuntimeError("a bug")

        srv.app.add_api_route("/boom", boom)
        replies = {
            "403": httpx.post(srv.url + "/api/tables", json={}, headers={"origin": "http://evil.example"}),
            "413": httpx.post(srv.url + "/api/tables", content=b" " * (MAX_BODY + 1)),
            "404": httpx.get(srv.url + "/api/nothing"),
            "400": httpx.get(srv.url + "/", headers={"host": "evil.example"}),
            "500": httpx.get(srv.url + "/boom"),
            "200": httpx.get(srv.url + "/api/games"),
        }
        for code, reply in replies.items():
            assert str(reply.status_code) == code
            assert all(h in reply.headers for h in SECURITY), (code, reply.headers)
            assert "server" not in reply.headers, code
            assert reply.headers["cache-control"] == "no-store", code


def test_static_files_are_cached_under_a_versioned_path_and_pages_are_not(server: ServerThread) -> None:
    page = httpx.get(server.url + "/t/some-table")
    assert page.headers["cache-control"] == "no-store"
    prefix = assets.prefix()
    assert prefix.startswith("/static/0.") and f'"{prefix}/app.js"' in page.text and '"/static/app.js"' not in page.text
    for name in ("app.js", "cards.js", "style.css"):  # cards.js: app.js's relative import, resolved under the version
        reply = httpx.get(server.url + f"{prefix}/{name}")
        assert reply.status_code == 200 and reply.headers["cache-control"] == FOREVER, name
        assert all(h in reply.headers for h in SECURITY)
    old = httpx.get(server.url + "/static/app.js")  # a page of an older release still finds its script
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"


# ------------------------------------------------------------------ 5. a key given twice
def test_a_message_or_body_repeating_a_key_is_refused(server: ServerThread) -> None:
    table = create(server, "gops", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}])

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "seat": 0, "token": table["tokens"][0]}))
            first = json.loads(await ws.recv())
            action = first["view"]["legal_actions"][0]
            await ws.send('{"type":"ping","type":"act","action":' + json.dumps(action) + "}")
            while (reply := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] in ("state", "presence"):
                assert reply.get("count", 0) == 0, "the act was carried out"  # (a presence frame has none)
            await ws.send(json.dumps({"type": "ping"}))
            while (after := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "pong":
                assert after["type"] != "state" or after["count"] == 0, "the act was carried out"
            return first, reply

    first, reply = asyncio.run(scenario())
    assert first["count"] == 0 and reply == {"type": "error", "message": "a message is a JSON object"}
    body = b'{"game": "gops", "seats": [{"kind": "me"}, {"kind": "bot"}], "game": "clobby"}'
    assert httpx.post(server.url + "/api/tables", content=body).status_code == 400


# ------------------------------------------------------------------ 6. X-Forwarded-For only from a named proxy
def refused_address(srv: ServerThread, log: Lines) -> str:
    """The client address the server logs for a refused request claiming to come through a proxy."""
    log.lines.clear()
    reply = httpx.post(srv.url + "/api/tables", content=b" " * (MAX_BODY + 1),
                       headers={"x-forwarded-for": "203.0.113.9"})
    assert reply.status_code == 413
    (line,) = [line for line in log.lines if "refused" in line]
    return line.split(" from ", 1)[1].split(":", 1)[0]


def test_a_forwarded_address_is_believed_only_from_a_named_proxy(tmp_path: Path, server_log: Lines) -> None:
    with ServerThread(tmp_path / "p.db") as srv:
        assert srv.server.config.forwarded_allow_ips == []
        assert refused_address(srv, server_log) == "127.0.0.1"
    with ServerThread(tmp_path / "p.db", proxies=["127.0.0.1"]) as srv:
        assert refused_address(srv, server_log) == "203.0.113.9"
    assert client_address({"type": "http", "client": ("192.0.2.1", 5000)}) == "192.0.2.1"
    assert client_address({"type": "http"}) is None
